"""Bots: always legal, deterministic per seed, and ordered by strength on fixed seeds."""

from __future__ import annotations

from me_helpers import model

from generator.games.micro_engine.bots import HeuristicBot, RolloutBot
from generator.games.micro_engine.game import MicroEngineGame
from generator.sim.bots import RandomBot


def play(game, bots, seed):
    s = game.new_game(seed)
    while not s.is_terminal():
        a = bots[s.current_player()].step(s)
        assert a in s.legal_actions()
        s.apply_action(a)
    return s


def test_heuristic_beats_random_on_fixed_seeds():
    game = MicroEngineGame(model(), 4)
    wins = sum(
        play(game, [HeuristicBot(i), RandomBot(i), RandomBot(i + 1), RandomBot(i + 2)], i).returns()[0]
        for i in range(20)
    )
    assert wins >= 17


def test_bots_are_deterministic_for_a_seed():
    game = MicroEngineGame(model(), 3)
    a = play(game, [HeuristicBot(1), RandomBot(2), HeuristicBot(3)], 8)
    b = play(game, [HeuristicBot(1), RandomBot(2), HeuristicBot(3)], 8)
    assert a.history == b.history


def test_rollout_bot_plays_legal_moves_in_travel_mode():
    game = MicroEngineGame(model(), 2, quick=True, travel=True)
    s = play(game, [RolloutBot(1, samples=1, width=2), HeuristicBot(2)], 4)
    assert s.is_terminal()
