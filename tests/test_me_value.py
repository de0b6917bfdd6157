"""The rollout bot's leaf value: turns still to play, the fit (deterministic, cached, sensible), its predictions."""

from __future__ import annotations

from me_helpers import model

from generator.games.micro_engine import value
from generator.games.micro_engine.bots import HeuristicBot, value_model
from generator.games.micro_engine.game import MicroEngineGame


def quick_game_at_turn_3():
    game = MicroEngineGame(model(), 2, quick=True)
    s = game.new_game(5)
    bot = HeuristicBot(0)
    while s.turn < 3:
        s.apply_action(bot.step(s))
    return game, s, bot


def test_turns_to_play_counts_the_current_turn():
    game, s, _ = quick_game_at_turn_3()
    assert (game.tables.rounds, s.first_player, s.current) == (6, 0, 1)
    assert [value.turns_to_play(s, q) for q in range(2)] == [4, 5]  # of turns 3..11: 4, 6, 8, 10 and 3, 5, 7, 9, 11


def test_turns_to_play_is_the_count_of_q_s_turns_left_in_every_small_game():
    from types import SimpleNamespace

    for n in range(2, 5):
        for rounds in (1, 2, 6):
            for first in range(n):
                for turn in range(n * rounds + 2):
                    s = SimpleNamespace(
                        num_players=n, first_player=first, turn=turn, tables=SimpleNamespace(rounds=rounds)
                    )
                    counted = [sum(1 for t in range(turn, n * rounds) if (first + t) % n == q) for q in range(n)]
                    assert [value.turns_to_play(s, q) for q in range(n)] == counted  # type: ignore[arg-type]


def test_solve_returns_the_exact_solution_of_a_small_system():
    assert [round(x, 12) for x in value.solve([[2.0, 1.0], [1.0, 3.0]], [3.0, 5.0])] == [0.8, 1.4]
    assert value.solve([[0.0, 1.0], [1.0, 0.0]], [2.0, 7.0]) == [7.0, 2.0]  # needs the row swap


def test_the_fit_grows_with_the_turns_left_and_values_engines_and_patent_progress():
    game, _, _ = quick_game_at_turn_3()
    coef = value_model(game.tables).coef
    assert sorted(coef) == list(range(7))
    assert coef[0] == [0.0] * 8  # no turns left: nothing more to gain
    constants = [coef[r][0] for r in range(2, 7)]
    assert constants == sorted(constants)
    for r in range(1, 6):
        assert coef[r][3] > 0.15 and coef[r][6] > 0.5  # cards in play with ongoing effects; Patent progress


def test_the_fit_is_made_once_per_card_set_and_variant_and_predicts_pinned_gains():
    game, s, bot = quick_game_at_turn_3()
    fitted = value_model(game.tables)
    assert value_model(MicroEngineGame(model(), 2, quick=True).tables) is fitted
    assert value_model(MicroEngineGame(model(), 2).tables) is not fitted
    left = bot.turns_left(s)
    features = value.features(s, 0, left, bot, fitted.engine)
    assert [round(x, 3) for x in features] == [1.0, 14.4, 6.0, 0.0, 2.0, 3.0, 2.1, 0.0]
    assert [round(fitted.gain(s, q, left), 3) for q in range(2)] == [13.686, 17.489]
