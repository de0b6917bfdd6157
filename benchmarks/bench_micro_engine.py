"""Micro-Engine engine speed: random and heuristic games per CPU-second on one core (prints numbers only).

Timed with process_time, so other processes sharing the machine do not skew the figures.

Run: python benchmarks/bench_micro_engine.py [--games N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from generator import pipeline
from generator.games.micro_engine.bots import HeuristicBot
from generator.games.micro_engine.game import MicroEngineGame

ROOT = Path(__file__).resolve().parent.parent


def random_games(game: MicroEngineGame, games: int, checked: bool) -> tuple[float, float]:
    """Play random games; return (games/s, decisions/s). `checked` applies through apply_action."""
    steps = 0
    began = time.process_time()
    for seed in range(games):
        s = game.new_game(seed)
        rng = random.Random(seed)
        apply = s.apply_action if checked else s._apply
        while not s.is_terminal():
            apply(rng.choice(s.legal_actions()))
            steps += 1
    took = time.process_time() - began
    return games / took, steps / took


def bot_games(game: MicroEngineGame, games: int) -> float:
    """Play heuristic-bot games; return games/s."""
    began = time.process_time()
    for seed in range(games):
        bots = [HeuristicBot(seed + i) for i in range(game.num_players)]
        s = game.new_game(seed)
        while not s.is_terminal():
            s._apply(bots[s.current_player()].step(s))
    return games / (time.process_time() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    model = pipeline.load(ROOT, "micro-engine").model
    for players in (2, 3, 4):
        game = MicroEngineGame(model, players)
        unchecked = [random_games(game, args.games, False) for _ in range(args.repeats)]
        checked = [random_games(game, args.games, True) for _ in range(args.repeats)]
        heur = bot_games(game, max(20, args.games // 4))
        print(
            f"{players} players: random {statistics.median(g for g, _ in unchecked):.0f} games/s "
            f"({statistics.median(s for _, s in unchecked):.0f} decisions/s) via the runner path; "
            f"{statistics.median(g for g, _ in checked):.0f} games/s with apply_action's legality check; "
            f"heuristic bots {heur:.0f} games/s"
        )


if __name__ == "__main__":
    main()
