"""Micro-Engine rules model: one test per rule the rulebook states."""

from __future__ import annotations

import random

import pytest
from me_helpers import act, model, names, position

from generator.games.micro_engine import tableau, zones
from generator.games.micro_engine.board import Link
from generator.games.micro_engine.engine import CHANCE, TERMINAL, IllegalActionError, State
from generator.games.micro_engine.game import MicroEngineGame
from generator.games.micro_engine.phase import Phase
from generator.games.micro_engine.tables import Tables


def test_setup_reveals_players_plus_one_patents_and_a_row_of_three():
    for n in (2, 3, 4):
        s = State.new(Tables(model(), n), seed=7)
        assert len(s.patents) == n + 1 and len(set(s.patents)) == n + 1
        assert len(s.row) == 3
        assert [len(o) for o in s.core_offers] == [2] * n
        assert len({c for o in s.core_offers for c in o}) == 2 * n  # each player draws 2 different Cores
        assert s.hands == [[] for _ in range(n)]  # hands come after the Cores are kept


def test_core_choice_then_hands_of_five_and_a_random_first_player():
    firsts = set()
    for seed in range(40):
        s = State.new(Tables(model(), 3), seed)
        for p in range(3):
            assert s.current_player() == p
            s.apply_action(s.legal_actions()[0])
        assert [len(h) for h in s.hands] == [5, 5, 5]
        assert s.current == s.first_player and s.phase in (Phase.DRAW, Phase.PLAY)
        firsts.add(s.first_player)
    assert firsts == {0, 1, 2}


def test_opening_chance_node_and_terminal_player_ids():
    game = MicroEngineGame(model(), 2)
    s = game.new_initial_state()
    assert s.current_player() == CHANCE and len(s.chance_outcomes()) == 2**31
    assert s.action_to_string(5) == "seed 5"
    s.apply_action(5)
    assert s.to_json() == game.new_game(5).to_json()
    rng = random.Random(1)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
    assert s.current_player() == TERMINAL and s.legal_actions() == []
    assert sum(s.returns()) == pytest.approx(1.0)


def test_travel_mode_has_no_row_and_no_row_organizer():
    T = Tables(model(), 4, travel=True)
    assert "row-organizer" not in [T.ids[T.T + c] for c in T.core_pool] and len(T.core_pool) == 9
    for seed in range(20):
        s = State.new(T, seed)
        assert s.row == []
        while s.phase != Phase.PLAY:
            s.apply_action(s.legal_actions()[0])
        assert len(s.hands[s.current]) == 7  # the two draws come from the deck, with nothing to decide


def test_quick_game_plays_two_fewer_rounds():
    assert Tables(model(), 2, quick=True).rounds == model().rules.rounds - 2


def test_draw_two_in_any_mix_and_refill_only_after_both_picks():
    s = position([{"hand": ["gear-train"]}, {}], row=["boiler", "cam-shaft", "flywheel"], deck_top=["gearbox"])
    act(s, "take Boiler from the Row")
    assert names(s, s.row) == ["Cam Shaft", "Flywheel"]  # not refilled between the picks
    act(s, "take Cam Shaft from the Row")
    assert len(s.row) == 3 and s.phase == Phase.PLAY and "Gearbox" in names(s, s.row)


def test_deck_picks_are_limited_to_two_and_row_organizer_adds_a_row_pick_then_a_discard():
    s = position([{"core": "row-organizer", "hand": ["gear-train"]}, {}], row=["boiler", "cam-shaft", "flywheel"])
    act(s, "take the top card of the deck", "take the top card of the deck")
    assert s.phase == Phase.DRAW and s.tables.A_DECK not in s.legal_actions()  # the third pick must be from the Row
    act(s, "take Boiler from the Row")
    assert s.phase == Phase.EFFECT_DISCARD and len(s.hands[0]) == 4
    act(s, "discard Gear Train")
    assert s.phase == Phase.PLAY and len(s.hands[0]) == 3 and len(s.row) == 3


def test_first_part_may_have_any_input_and_later_parts_must_match():
    s = position(
        [{"hand": ["piston-rod", "boiler", "gear-train", "flywheel"]}, {}], row=["relay-switch"] * 2 + ["cam-shaft"]
    )
    act(s, "take the top card of the deck", "take the top card of the deck")
    act(s, "play Part Piston Rod")  # Steam Input on a bare Core: universal Output
    legal = {s.describe(a) for a in s.legal_actions()}
    assert "play Part Boiler" not in legal  # Electricity Input does not match Piston Rod's Mechanical Output


def test_a_or_b_input_matches_either():
    s = position([{"chain": ["boiler"], "hand": ["cam-shaft", "gear-train"]}, {}])
    act(s, "take the top card of the deck", "take the top card of the deck")
    assert "play Part Cam Shaft" in {s.describe(a) for a in s.legal_actions()}  # Mechanical or Steam after Steam


def test_cost_is_paid_by_discarding_and_an_unpayable_card_cannot_be_played():
    s = position([{"chain": ["gear-train"], "hand": ["differential"]}, {}], deck_top=["gearbox", "flywheel"])
    s.chains[0]  # Differential: Cost 3, Requirement Chain length >= 3
    act(s, "take the top card of the deck", "take the top card of the deck")
    assert "play Part Differential" not in {s.describe(a) for a in s.legal_actions()}
    s2 = position(
        [{"chain": ["gear-train", "gear-train", "cam-shaft"], "hand": ["differential"]}, {}],
        deck_top=["gearbox", "flywheel"],
    )
    act(s2, "take the top card of the deck", "take the top card of the deck")
    assert "play Part Differential" not in {s2.describe(a) for a in s2.legal_actions()}  # 2 other cards < Cost 3
    s3 = position(
        [{"chain": ["gear-train", "gear-train", "cam-shaft"], "hand": ["differential", "boiler"]}, {}],
        deck_top=["gearbox", "flywheel"],
    )
    act(s3, "take the top card of the deck", "take the top card of the deck", "play Part Differential")
    assert s3.phase == Phase.PAY and s3.pay_left == 3
    act(s3, "discard Flywheel", "discard Gearbox", "discard Boiler")  # discards go in card-list order
    assert names(s3, s3.chains[0])[-1] == "Differential" and s3.hands[0] == []


def test_requirement_must_hold_before_play_and_the_card_itself_does_not_count():
    # Tesla Tower needs 3 Upgrades in play; with 2 it stays in hand even though it is playable otherwise.
    s = position(
        [
            {
                "chain": ["relay-switch", "voltage-regulator"],
                "hand": ["tesla-tower", "gear-train", "gear-train", "gear-train", "heat-sink"],
            },
            {},
        ]
    )
    s.hosts[0][2] = []
    act(s, "take the top card of the deck", "take the top card of the deck")
    assert "play Part Tesla Tower" not in {s.describe(a) for a in s.legal_actions()}


def test_reductions_stack_to_a_floor_of_zero_before_cost_checks():
    # Efficiency Manifold draws for "a Cost of 2 or more", checked after Lubrication System's -1.
    s = position([{"chain": ["gear-train"], "hand": ["gearbox", "flywheel", "boiler", "boiler"]}, {}])
    s.hosts[0][1].append(zones.take(s, s.deck, s.tables.ids.index("lubrication-system")))
    s.hosts[0][0].append(zones.take(s, s.deck, s.tables.ids.index("efficiency-manifold")))
    tableau.rebuild(s, 0)
    tableau.recount(s, 0)
    act(s, "take the top card of the deck", "take the top card of the deck")
    assert s.cost_of(0, s.tables.ids.index("gearbox")) == 1  # printed 2, Mechanical -1
    hand = len(s.hands[0])
    act(s, "play Part Gearbox", "discard Boiler")
    assert len(s.hands[0]) == hand - 2  # paid 1, so no draw from the Manifold
    s2 = position([{"chain": ["gear-train"], "hand": ["heat-exchanger", "boiler", "boiler"]}, {}])
    s2.hosts[0][0].append(zones.take(s2, s2.deck, s2.tables.ids.index("efficiency-manifold")))
    tableau.rebuild(s2, 0)
    act(s2, "take the top card of the deck", "take the top card of the deck")
    hand = len(s2.hands[0])
    act(s2, "play Part Heat Exchanger", "discard Boiler", "discard Boiler")
    assert len(s2.hands[0]) == hand - 3 + 1  # Cost 2 paid: the Manifold draws 1


def test_overclock_and_precision_tooling_stack_but_never_below_zero():
    s = position([{"hand": ["overclock", "precision-tooling", "boiler", "gear-train", "gear-train"]}, {}])
    act(s, "take the top card of the deck", "take the top card of the deck", "play Calibration Overclock")
    assert s.cost_of(0, s.tables.ids.index("heat-exchanger")) == 1
    assert s.cost_of(0, s.tables.ids.index("boiler")) == 0
    assert s.cost_of(0, s.tables.ids.index("lubrication-system")) == 1  # "your next Part": Upgrades are untouched
    assert "play Calibration Precision Tooling" not in {s.describe(a) for a in s.legal_actions()}  # 1 per turn


def test_calibration_gives_its_action_back_and_only_one_per_turn():
    s = position([{"hand": ["overclock", "double-shift", "gear-train", "gear-train"]}, {}])
    act(s, "take the top card of the deck", "take the top card of the deck")
    act(s, "play Calibration Overclock")
    assert s.actions_left == 1 and s.calibrations_played == 1 and names(s, s.discard)[-1] == "Overclock"
    assert not any(s.tables.A_CAL <= a < s.tables.A_RESEARCH for a in s.legal_actions())


def test_extra_actions_allow_several_research_actions():
    s = position([{"hand": ["double-shift", "gear-train"]}, {}])
    act(s, "take the top card of the deck", "take the top card of the deck", "play Calibration Double Shift")
    s.apply_action(s.legal_actions()[0])  # pay its Cost of 1
    assert s.actions_left == 2
    hand = len(s.hands[0])
    act(s, "Research")
    assert len(s.hands[0]) == hand + 3 and s.actions_left == 1
    act(s, "Research")
    assert len(s.hands[0]) == hand + 6 and s.current == 1  # out of actions: the turn passed
    assert s.stats.research[0] == 2


DRAW_TWO = ("take the top card of the deck", "take the top card of the deck")


def legal_words(s: State) -> set[str]:
    return {s.describe(a) for a in s.legal_actions()}


def run_dry(s: State) -> None:
    """Move the deck and the discard pile into player 1's hand, as if both had run out."""
    s.hands[1] += s.deck + s.discard
    s.deck.clear()
    s.discard.clear()
    s.legal_cache = None


def test_phase_b_action_must_be_spent_while_a_play_is_possible():
    s = position([{"hand": ["gear-train"]}, {}])
    act(s, *DRAW_TWO)
    assert "play Part Gear Train" in legal_words(s) and "end the turn" not in legal_words(s)
    with pytest.raises(IllegalActionError, match=r"illegal action \d+ \(end the turn\) in phase play for player 0"):
        s.apply_action(s.tables.A_END)


def test_with_no_card_playable_research_spends_the_action():
    # Three gated Parts and an empty chain: nothing can be played, but there are cards to draw.
    s = position([{"hand": ["differential"]}, {}], deck_top=["grand-orrery", "flux-stabilizer"])
    act(s, *DRAW_TWO)
    assert list(s.legal_actions()) == [s.tables.A_RESEARCH]
    act(s, "Research")
    assert len(s.hands[0]) == 6 and s.current == 1


def test_with_nothing_playable_and_nothing_to_draw_the_action_is_lost():
    s = position([{"hand": ["differential"]}, {}], deck_top=["grand-orrery", "flux-stabilizer"])
    act(s, *DRAW_TWO)
    run_dry(s)
    assert list(s.legal_actions()) == [s.tables.A_END]  # Research has nothing to draw
    act(s, "end the turn")
    assert s.current == 1 and s.stats.research[0] == 0 and len(s.hands[0]) == 3


def test_research_needs_a_card_to_draw_even_with_an_extra_action():
    s = position([{"hand": ["double-shift", "gear-train", "gear-train"]}, {}])
    act(s, *DRAW_TWO, "play Calibration Double Shift")
    s.apply_action(s.legal_actions()[0])  # pay its Cost of 1
    run_dry(s)
    assert "Research" not in legal_words(s) and "end the turn" in legal_words(s)


def test_the_action_after_a_calibration_is_an_extra_action_and_optional():
    s = position([{"hand": ["overclock", "gear-train", "gear-train"]}, {}])
    act(s, *DRAW_TWO, "play Calibration Overclock")
    assert s.actions_left == 1 and s.actions_taken == 1
    assert {"play Part Gear Train", "Research", "end the turn"} <= legal_words(s)
    act(s, "end the turn")
    assert s.current == 1


def test_extra_actions_from_double_shift_are_optional():
    s = position([{"hand": ["double-shift", "gear-train"]}, {}])
    act(s, *DRAW_TWO, "play Calibration Double Shift")
    s.apply_action(s.legal_actions()[0])  # pay its Cost of 1
    assert s.actions_left == 2 and "end the turn" in legal_words(s)
    act(s, "Research")
    assert s.actions_left == 1 and "end the turn" in legal_words(s)


def test_a_part_that_gives_an_action_leaves_an_optional_extra_action():
    s = position([{"hand": ["capacitor-bank", "gear-train", "gear-train"]}, {}], deck_top=["cam-shaft", "piston-rod"])
    act(s, *DRAW_TWO, "play Part Capacitor Bank")
    s.apply_action(s.legal_actions()[0])  # pay its Cost of 2
    s.apply_action(s.legal_actions()[0])
    assert s.phase == Phase.PLAY and s.actions_left == 1 and s.actions_taken == 1
    assert "end the turn" in legal_words(s)


def test_an_upgrade_played_as_the_bonus_can_give_an_extra_action():
    s = position(
        [{"hand": ["gear-train", "auxiliary-battery", "cam-shaft", "flywheel"]}, {}], deck_top=["gearbox", "piston-rod"]
    )
    act(s, *DRAW_TWO, "play Part Gear Train")
    assert s.phase == Phase.BONUS and s.actions_left == 0
    act(s, "play Upgrade Auxiliary Battery under Part 1")
    s.apply_action(s.legal_actions()[0])  # pay its Cost of 2
    s.apply_action(s.legal_actions()[0])
    assert s.phase == Phase.PLAY and s.actions_left == 1 and s.actions_taken == 1  # the Bonus spent no action
    assert "end the turn" in legal_words(s)


def test_hand_limit_discards_down_to_ten_at_end_of_turn():
    s = position([{"hand": ["gear-train"] * 4 + ["cam-shaft"] * 2 + ["flywheel"] * 2}, {}])
    act(s, "take the top card of the deck", "take the top card of the deck", "Research")
    assert s.phase == Phase.HAND_LIMIT and s.limit_left == 3
    for _ in range(3):
        s.apply_action(s.legal_actions()[0])
    assert len(s.hands[0]) == 10 and s.current == 1


def test_bonus_upgrade_right_after_a_part_without_an_action():
    s = position([{"hand": ["gear-train", "heat-sink", "boiler"]}, {}])
    act(s, "take the top card of the deck", "take the top card of the deck", "play Part Gear Train")
    assert s.phase == Phase.BONUS and s.actions_left == 0
    act(s, "play Upgrade Heat Sink under Part 1")
    assert s.phase == Phase.PAY
    s.apply_action(s.legal_actions()[0])
    assert names(s, s.hosts[0][1]) == ["Heat Sink"] and s.current == 1  # no action left: the turn passed


def test_slots_are_never_exceeded():
    s = position(
        [{"chain": ["gear-train"], "hand": ["heat-sink", "heat-sink", "coupling-bracket", "adapter-plate"]}, {}]
    )
    act(s, "take the top card of the deck", "take the top card of the deck")
    hosts = {s.describe(a).split(" under ")[1] for a in s.legal_actions() if "Upgrade" in s.describe(a)}
    assert hosts == {"the Core", "Part 1"}


def test_open_end_makes_the_output_universal_while_its_host_ends_the_chain():
    s = position([{"chain": ["gear-train"], "hand": ["boiler", "adapter-plate", "cam-shaft"]}, {}])
    s.hosts[0][1].append(zones.take(s, s.deck, s.tables.ids.index("adapter-plate")))
    tableau.rebuild(s, 0)
    act(s, "take the top card of the deck", "take the top card of the deck", "play Part Boiler")
    s.apply_action(s.legal_actions()[0])  # pay its Cost of 1
    assert s.links[0] == [Link.FIRST, Link.OPEN_END]


def test_any_input_is_used_up_by_the_next_part():
    s = position([{"chain": ["gear-train"], "hand": ["realignment", "boiler", "double-shift", "piston-rod"]}, {}])
    act(s, "take the top card of the deck", "take the top card of the deck", "play Calibration Realignment")
    assert s.next_any_input[0] is True
    act(s, "play Part Boiler")
    s.apply_action(s.legal_actions()[0])  # pay its Cost of 1
    assert s.next_any_input[0] is False and s.links[0] == [Link.FIRST, Link.ANY_INPUT]


def test_deck_runs_out_and_the_discard_is_reshuffled():
    s = position([{"hand": ["gear-train"]}, {}])
    s.discard, s.deck = s.deck[:-1], s.deck[-1:]
    act(s, "take the top card of the deck", "take the top card of the deck")
    assert s.stats.reshuffles == 1 and len(s.hands[0]) == 3


def test_patents_are_claimed_on_your_turn_and_licenses_need_three_players():
    chain = ["dynamo-coil", "relay-switch", "capacitor-bank"]
    s = position([{"hand": ["gear-train"]}, {"chain": chain}], patents=["power-grid", "clockwork", "steam-works"])
    assert s.patent_owner == [-1, -1, -1]  # player 1 qualifies, but it is player 0's turn
    act(s, "take the top card of the deck", "take the top card of the deck", "Research")
    assert s.patent_owner[0] == 1
    s3 = position(
        [{"chain": chain}, {"chain": chain}, {}], patents=["power-grid", "clockwork", "steam-works", "full-spectrum"]
    )
    assert s3.patent_owner[0] == 0 and s3.patent_licensee[0] == -1
    act(s3, "take the top card of the deck", "take the top card of the deck", "Research")
    assert s3.patent_licensee[0] == 1 and len(s3.licenses[1]) == 1  # the top Workshop card, face down
    s2 = position([{"chain": chain}, {"chain": chain}], patents=["power-grid", "clockwork", "steam-works"])
    act(s2, "take the top card of the deck", "take the top card of the deck", "Research")
    assert s2.patent_owner[0] == 0 and s2.patent_licensee[0] == -1  # no Licenses in a 2-player game


def test_scoring_counts_every_source_and_ties_break_on_chain_length():
    s = position(
        [{"core": "patent-office", "chain": ["dynamo-coil", "boiler"]}, {"core": "patent-office", "chain": ["gearbox"]}]
    )
    assert s.score_breakdown(0) == {"parts": 3, "upgrades": 0, "core": 2, "patents": 0, "licenses": 0, "end_game": 0}
    assert s.scores() == [5, 5] and s.winners() == [0]  # tied on VP; the longer chain wins
    t = position([{"core": "patent-office", "chain": ["gearbox"]}, {"core": "patent-office", "chain": ["gearbox"]}])
    t.phase = Phase.OVER
    assert t.winners() == [0, 1] and t.returns() == [0.5, 0.5]  # still tied: a shared win


def test_illegal_actions_raise_and_leave_the_state_unchanged():
    s = position([{"hand": ["gear-train"]}, {}])
    before = s.to_json()
    with pytest.raises(IllegalActionError, match="illegal action .* in phase draw for player 0"):
        s.apply_action(s.tables.A_PART + s.tables.ids.index("gear-train"))
    assert s.to_json() == before


def test_observation_hides_other_hands_and_the_deck_order():
    s = position(
        [{"hand": ["gear-train", "boiler"]}, {"hand": ["flywheel", "gearbox"]}],
        row=["cam-shaft"] * 2 + ["relay-switch"],
    )
    act(s, "take Relay Switch from the Row")
    obs = s.observation(1)
    assert obs["players"][1]["hand"] == ["Flywheel", "Gearbox"]
    assert "hand" not in obs["players"][0] and obs["players"][0]["hand_size"] == 3
    assert obs["players"][0]["known_in_hand"] == ["Relay Switch"]  # taken from the Row in plain sight
    assert "deck" not in obs and obs["deck_size"] == len(s.deck)
    other = s.resample(1, random.Random(3))
    assert other.observation_string(1) == s.observation_string(1)  # a determinization is indistinguishable


def test_clone_is_independent_and_json_round_trips():
    game = MicroEngineGame(model(), 3)
    s = game.new_game(11)
    rng = random.Random(2)
    for _ in range(60):
        s.apply_action(rng.choice(s.legal_actions()))
    c = s.clone()
    c.apply_action(c.legal_actions()[-1])
    assert c.to_json() != s.to_json()
    assert game.state_from_json(s.to_json()).to_json() == s.to_json()
