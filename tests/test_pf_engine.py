"""Pocket Foundry's engine plays every rule of the rulebook, one test per rule."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import pytest
from pf_common import dealt, mid, model, random_play, tables

from generator.games.pocket_foundry.engine import Game
from generator.games.pocket_foundry.model import Effect, Machine
from generator.sim.protocol import CHANCE, TERMINAL, IllegalActionError


def build(state, name: str, slot: int) -> None:
    state.apply_action(tables().build_action(mid(name), slot))


def run(state, *slots: int) -> None:
    state.apply_action(tables().run_action(sum(1 << (s - 1) for s in slots)))


def purse(state, p: int) -> tuple[int, int, int]:
    r = state.resources(p)
    return r["feed"], r["parts"], r["points"]


def test_setup_deals_four_face_up_from_a_shuffled_deck_of_sixteen():
    state = Game(model(), 4).new_initial_state()
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert [p for _, p in outcomes] == [2 / 16] * 8  # each type is 2 of the 16 cards
    for _ in range(4):
        state.apply_action(state.legal_actions()[0])
    assert sum(state.market) == 4 and state.deck_size == 12
    assert state.current_player() == 0
    for p in range(4):
        assert purse(state, p) == (3, 0, 0)
        assert state.slots(p) == (-1, -1, -1)
        assert state.observation(p)["players"][p]["row"] == ["Starter Feeder", None, None, None]


def test_a_build_pays_the_cost_installs_and_refills_from_the_deck():
    state = dealt()
    build(state, "Small Press", 3)
    assert purse(state, 0) == (1, 0, 0)  # paid 2 FEED, earned nothing
    assert state.slots(0) == (-1, mid("Small Press"), -1)
    assert state.current_player() == CHANCE  # the emptied space is refilled at once
    assert sum(state.market) == 3 and state.deck_size == 12
    state.apply_action(mid("Packing Line"))
    assert state.market[mid("Packing Line")] == 1 and state.deck_size == 11
    assert state.current_player() == 1


def test_replacing_discards_for_good_with_no_refund():
    state = dealt(market=("Feed Belt", "Feed Belt", "Sort Scoop", "Ticket Stamp"))
    build(state, "Feed Belt", 2)
    state.apply_action(mid("Small Press"))
    run(state, 1)  # player 1
    run(state, 1)  # player 1 starts lap 2
    run(state, 1, 2)  # player 0: 1 + 2 + 3 = 6 FEED
    build(state, "Feed Belt", 2)  # lap 3 starts with player 0, who replaces its Feed Belt with the other one
    assert purse(state, 0) == (4, 0, 0)  # paid 2, no refund of the first
    assert state.discard[mid("Feed Belt")] == 1
    state.apply_action(mid("Return Chute"))
    assert state.deck[mid("Feed Belt")] == 0  # the discarded one never comes back


def test_slot_1_cannot_be_built_on_and_illegal_builds_raise():
    state = dealt()
    t = tables()
    assert all(t.decode_build(a)[1] in (2, 3, 4) for a in state.legal_actions() if a < t.n_build_actions)
    with pytest.raises(IllegalActionError, match="no Packing Line is face up"):
        build(state, "Packing Line", 2)
    state2 = dealt(market=("Twin Press", "Feed Belt", "Sort Scoop", "Ticket Stamp"))
    with pytest.raises(IllegalActionError, match="cannot pay Twin Press's BUILD COST with 3 FEED, 0 PARTS"):
        build(state2, "Twin Press", 2)


def test_empty_market_spaces_stay_empty_once_the_deck_is_gone():
    state = dealt(players=2)
    rng = random.Random(5)
    while state.deck_size and not state.is_terminal():
        builds = [a for a in state.legal_actions() if a < tables().n_build_actions] if state.cur >= 0 else []
        action = (
            rng.choice(builds)
            if builds
            else (state.sample_chance(rng) if state.cur == CHANCE else state.legal_actions()[-1])
        )
        state.apply_action(action)
    before = sum(state.market)
    builds = [a for a in state.legal_actions() if a < tables().n_build_actions]
    if builds and state.cur >= 0:
        state.apply_action(builds[0])
        assert state.current_player() != CHANCE  # nothing to refill from
        assert sum(state.market) == before - 1


def test_a_run_goes_left_to_right_and_later_output_never_pays_earlier_costs():
    state = dealt(market=("Small Press", "Sort Scoop", "Feed Belt", "Ticket Stamp"))
    t = tables()
    wheel_first = t.row_code([mid("Polishing Wheel"), mid("Small Press"), mid("Ticket Stamp")])
    press_first = t.row_code([mid("Small Press"), mid("Polishing Wheel"), mid("Ticket Stamp")])
    start = t.encode((3, 0))
    assert t.run_action(0b1111) not in state.game.run_actions(wheel_first, start)  # the wheel cannot pay
    assert state.game.run_result(press_first, start, t.run_action(0b1111)) == (t.encode((0, 0)), 7)
    assert state.game.run_result(wheel_first, start, t.run_action(0b1101)) == (t.encode((0, 1)), 3)


def test_caps_apply_after_every_machine_not_once_at_the_end():
    t = tables()
    row = t.row_code([mid("Feed Belt"), mid("Small Press"), -1])
    # 5 FEED: feeder → 7 → 6, belt → 9 → 6, press pays 2 → 4 FEED and 1 PART (no caps would give 8).
    assert t.runs(row, t.encode((5, 0)))[-1][1:] == (t.encode((4, 1)), 0)


def test_any_effect_may_be_skipped_even_when_payable_and_empty_slots_cannot_run():
    state = dealt()
    t = tables()
    runs = state.game.run_actions(0, state.res[0])
    assert runs == (t.run_action(0), t.run_action(1))  # skip all, or run the feeder; slots 2-4 are empty
    with pytest.raises(IllegalActionError, match="slot 2 is empty"):
        run(state, 1, 2)


def test_full_payment_before_the_reward():
    t = tables()
    row = t.row_code([mid("Ticket Stamp"), -1, -1])
    assert t.run_action(0b10) not in [a for a, _, _ in t.runs(row, t.encode((2, 0)))]  # 2 of 3 FEED: no
    assert (t.run_action(0b10), t.encode((0, 0)), 3) in t.runs(row, t.encode((3, 0)))


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_twelve_laps_with_the_starting_player_moving_clockwise(players):
    state = random_play(dealt(players), random.Random(players))
    order = []
    replay = dealt(players)
    for action in state.history[4:]:
        if replay.cur >= 0:
            order.append(replay.cur)
        replay.apply_action(action)
    assert len(order) == 12 * players
    for lap in range(12):
        assert order[lap * players : (lap + 1) * players] == [(lap + k) % players for k in range(players)]
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.legal_actions() == []
    with pytest.raises(IllegalActionError, match="game is over"):
        state.apply_action(tables().run_action(0))


def test_tied_leaders_share_the_win_and_only_points_count():
    state = dealt(2)
    state.pts[:] = [7, 7]
    state.res[0] = tables().encode((6, 4))  # leftover resources score nothing
    while not state.is_terminal():
        state.apply_action(tables().run_action(0) if state.cur >= 0 else state.sample_chance(random.Random(1)))
    assert state.returns() == [0.5, 0.5]
    assert state.scores() == [7, 7]


def test_returns_are_zero_before_the_end_and_sum_to_one_after():
    state = dealt(3)
    assert state.returns() == [0.0, 0.0, 0.0]
    random_play(state, random.Random(3))
    assert sum(state.returns()) == pytest.approx(1.0)


def test_clone_is_independent_and_json_round_trips():
    state = random_play(dealt(4), random.Random(9), until_turn=17)
    copy = state.clone()
    assert copy.snapshot() == state.snapshot()
    copy.apply_action(copy.legal_actions()[-1] if copy.cur >= 0 else copy.sample_chance(random.Random(1)))
    assert copy.snapshot() != state.snapshot()
    again = state.game.state_from_json(state.to_json())
    assert again.snapshot() == state.snapshot() and again.history == state.history
    tampered = state.to_json()
    tampered["snapshot"]["points"][0] += 1
    with pytest.raises(ValueError, match="does not match"):
        state.game.state_from_json(tampered)


def test_action_strings_are_unique_and_legal_actions_sorted():
    state = random_play(dealt(4), random.Random(2), until_turn=10)
    legal = state.legal_actions()
    assert legal == sorted(set(legal))
    names = [state.action_to_string(a) for a in legal]
    assert len(set(names)) == len(names)
    assert "run no slot" in names


def test_unsupported_player_counts_are_refused():
    with pytest.raises(ValueError, match="played by 2, 3, 4, 6 players, not 5"):
        Game(model(), 5)


def test_chance_draws_follow_the_deck_exactly():
    state = Game(model(), 2).new_initial_state()
    rng = random.Random(0)
    counts = {}
    for _ in range(4000):
        t = state.sample_chance(rng)
        counts[t] = counts.get(t, 0) + 1
    assert set(counts) == set(range(8)) and all(400 < c < 600 for c in counts.values())
    state.apply_action(mid("Feed Belt"))
    assert dict(state.chance_outcomes())[mid("Feed Belt")] == pytest.approx(float(Fraction(1, 15)))


def test_a_fan_edition_with_a_new_machine_just_works():
    """No machine is special-cased: a new type with its own effect plays like any other."""
    base = model()
    mill = Machine(
        id="gear-mill",
        name="Gear Mill",
        copies=3,
        build_cost=(("feed", 1),),
        run=Effect(pay=(("feed", 1),), gain=(("parts", 1), ("points", 2))),
        colour="#123456",
        glyph="feed-belt",
        index=len(base.machines),
    )
    fan = replace(base, machines=(*base.machines, mill))
    game = Game(fan, 3)
    for seed in range(20):
        state = random_play(game.new_initial_state(), random.Random(seed))
        assert state.is_terminal()
    t = game.tables
    assert t.total_cards == 19 and t.n_types == 9
    row = t.row_code([8, -1, -1])
    assert (t.run_action(0b11), t.encode((2, 1)), 2) in t.runs(row, t.encode((1, 0)))
