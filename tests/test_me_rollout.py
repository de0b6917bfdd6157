"""The rollout bots: deterministic per seed, legal moves only, leave the real game alone, find a known best pick."""

from __future__ import annotations

import hashlib

from me_helpers import model, position

from generator.games.micro_engine.bots import HeuristicBot, RolloutBot
from generator.games.micro_engine.game import MicroEngineGame
from generator.games.micro_engine.phase import Phase


def play(game, bots, seed):
    s = game.new_game(seed)
    while not s.is_terminal():
        a = bots[s.current_player()].step(s)
        assert a in s.legal_actions()
        s.apply_action(a)
    return s


def moves(history):
    return hashlib.sha256(str(history).encode()).hexdigest()[:16]


def test_rollout_bot_plays_its_pinned_moves_on_a_seeded_game():
    # hashed from the 4-deal, 3-turn search with the fitted leaf value (the default since it replaced rollout-deep)
    s = play(MicroEngineGame(model(), 2, quick=True), [RolloutBot(3), HeuristicBot(4)], 11)
    assert (moves(s.history), len(s.history), s.scores()) == ("b64a54ca6d175f69", 70, [29, 15])


def test_rollout_deep_plays_the_moves_the_former_default_played():
    # hashed from main at 4b4ab83: racing, the fitted value and the engine's speed-ups left this search's moves alone
    s = play(MicroEngineGame(model(), 2, quick=True), [RolloutBot.deep(3), HeuristicBot(4)], 11)
    assert (moves(s.history), len(s.history), s.scores()) == ("4009d32577ff3747", 90, [12, 20])
    assert RolloutBot.deep(0).name == "rollout-deep"


def test_rollout_bot_is_deterministic_for_a_seed():
    game = MicroEngineGame(model(), 2, quick=True)
    a = play(game, [RolloutBot(3), HeuristicBot(4)], 11)
    b = play(game, [RolloutBot(3), HeuristicBot(4)], 11)
    assert a.history == b.history
    assert a.scores() == b.scores()


def test_rollout_bot_restart_replays_the_same_game():
    game = MicroEngineGame(model(), 2, quick=True)
    bot = RolloutBot(0)
    bot.restart(9)
    a = play(game, [bot, HeuristicBot(1)], 5)
    bot.restart(9)
    b = play(game, [bot, HeuristicBot(1)], 5)
    assert a.history == b.history


def test_rollout_bot_plays_legal_moves_at_three_players_with_every_phase_searched():
    game = MicroEngineGame(model(), 3, quick=True)
    s = play(
        game,
        [HeuristicBot(0), RolloutBot(1, samples=3, race=1.0, min_samples=2), HeuristicBot(2)],
        6,
    )
    assert s.is_terminal()
    assert s.stats.turns == [6, 6, 6]


def test_looking_ahead_leaves_the_real_game_unchanged():
    game = MicroEngineGame(model(), 2)
    s = game.new_game(21)
    bot = RolloutBot(2)
    while s.phase != Phase.DRAW or s.current != 0:
        s.apply_action(HeuristicBot(0).step(s))
    before = s.to_json()
    action = bot.step(s)
    assert s.to_json() == before
    assert action in s.legal_actions()


def last_turn_draw():
    """Player 0's last turn, Phase A, with an empty hand: of the Row, only Piston Rod (Steam in, Cost 1, 2 VP)
    fits the chain's Steam end, and the other pick pays for it: 2 VP for certain. Blind draws only might."""
    s = position([{"chain": ["boiler"], "hand": []}, {}], row=["piston-rod", "gear-train", "relay-switch"])
    s.turn = s.num_players * s.tables.rounds - 2  # player 0's last turn: its VP are all that is left to win
    return s


def test_rollout_bot_scores_at_least_the_certain_line_on_its_last_turn():
    for seed in range(4):
        s = last_turn_draw()
        assert s.phase == Phase.DRAW and s.current == 0
        turn, vp = s.turn, s.scores()[0]
        bot = RolloutBot(seed)
        while s.turn == turn:
            s.apply_action(bot.step(s))
        assert s.scores()[0] >= vp + 2


def test_rollout_bot_searches_the_heuristic_pick_and_two_others():
    s = last_turn_draw()
    bot = RolloutBot(0)
    options = bot.options(s, 0)
    assert options[0] == HeuristicBot(0).choose_draw(s, 0, s.legal_actions())
    assert len(options) == 3 and len(set(options)) == 3
    assert set(options) <= set(s.legal_actions())
    assert RolloutBot(0, phases=("play",)).options(s, 0) == []  # a phase not searched follows the heuristic


def test_racing_drops_an_option_clearly_behind_and_one_equal_on_every_deal():
    bot = RolloutBot(0, race=1.0)
    values = {1: [3.0, 4.0, 5.0], 2: [3.0, 4.0, 5.0], 3: [-9.0, -8.0, -7.5], 4: [4.0, 2.0, 5.0]}
    assert bot.survivors([1, 2, 3, 4], values, 3) == [1, 4]  # 2 is 1 again; 3 trails by far; 4 may yet lead


def test_an_upgrade_under_another_host_is_not_another_option():
    s = position([{"chain": ["boiler", "piston-rod"], "hand": ["lubrication-system", "timing-belt"]}, {}])
    heuristic = HeuristicBot(0)
    while s.phase != Phase.PLAY:
        s.apply_action(heuristic.step(s))
    ranked = [s.describe(a) for _, a in heuristic.rank_play(s, 0, s.legal_actions())[:2]]
    assert ranked == ["play Upgrade Timing Belt under the Core", "play Upgrade Timing Belt under Part 1"]
    assert [s.describe(a) for a in RolloutBot(0, hosts=True).options(s, 0)] == ranked  # rollout-deep searches both
    bot = RolloutBot(0)
    assert [s.describe(a) for a in bot.options(s, 0)] == ranked[:1]
    dealt = bot.rng.getstate()
    assert s.describe(bot.step(s)) == ranked[0]
    assert bot.rng.getstate() == dealt  # one real option: nothing was dealt
