"""Benchmark the Pocket Foundry rules engine, its bots and the parallel runner; prints numbers, asserts nothing.

    python benchmarks/bench_engine.py            # engine, bots, runner scaling (about a minute)
    python benchmarks/bench_engine.py --quick    # fewer games
Each figure is the median of three runs (CPU time of this process; wall time for the parallel runner);
games are seeded, so every run plays the same games.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator import pipeline
from generator.games.pocket_foundry.commands import simulation
from generator.games.pocket_foundry.engine import Game
from generator.games.pocket_foundry.tables import Tables
from generator.sim.protocol import CHANCE
from generator.sim.runner import Match, play, run_matches


def median_rate(fn, count: int, repeats: int = 3, clock=time.process_time) -> tuple[float, float]:
    """Return (median, best) of count / seconds over `repeats` runs of fn().

    Single-process figures use this process's CPU time, so other programs on the machine do not skew them;
    the parallel runner is timed by the wall clock, which is what a user waits for.
    """
    rates = []
    for _ in range(repeats):
        began = clock()
        fn()
        rates.append(count / (clock() - began))
    return statistics.median(rates), max(rates)


def raw_games(game: Game, n: int, seed: int) -> int:
    """Play n random games with the engine alone (no bot objects, no recorder); return the steps taken."""
    rng = random.Random(seed)
    steps = 0
    for _ in range(n):
        state = game.new_initial_state()
        while True:
            p = state.cur
            if p >= 0:
                state.apply_action(rng.choice(state.legal_actions()))
            elif p == CHANCE:
                state.apply_action(state.sample_chance(rng))
            else:
                break
        steps += len(state.history)
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games")
    args = parser.parse_args()
    scale = 0.25 if args.quick else 1.0
    loaded = pipeline.load(ROOT, "pocket-foundry")
    plugin = simulation(loaded)
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores; median (best) of 3 runs\n")

    began = time.perf_counter()
    Tables(loaded.model)
    print(f"compile the tables:                    {1000 * (time.perf_counter() - began):7.1f} ms")

    n = int(4000 * scale)
    for players in (2, 3, 4, 6):
        game = Game(loaded.model, players)
        raw_games(game, 200, 0)  # warm the caches
        steps = raw_games(game, n, 1) / n
        med, best = median_rate(lambda: raw_games(game, n, 1), n)
        print(f"random games/s, {players} players, engine loop:  {med:7.0f} ({best:.0f}), {med * steps:,.0f} steps/s")

    game = plugin.new_game(4)
    bots = [plugin.make_bot("random", s) for s in range(4)]
    med, best = median_rate(lambda: [play(game, bots, i) for i in range(n)], n)
    print(f"random games/s, 4 players, shared runner:  {med:7.0f} ({best:.0f})")
    med, best = median_rate(lambda: [play(game, bots, i, plugin.recorder(game)) for i in range(n)], n)
    print(f"  … with the report recorder:             {med:7.0f} ({best:.0f})")

    began = time.perf_counter()
    plugin.prepare(["planner"])
    print(f"\nplanner value table (12 turns, all states): {time.perf_counter() - began:5.2f} s")
    for label, lineup, games in (
        ("4 planners", ("planner",) * 4, int(1000 * scale)),
        ("lookahead + 3 random", ("lookahead", "random", "random", "random"), int(200 * scale)),
        ("4 lookaheads", ("lookahead",) * 4, int(100 * scale)),
    ):
        bots = [plugin.make_bot(spec, s) for s, spec in enumerate(lineup)]
        med, best = median_rate(lambda: [play(game, bots, i) for i in range(games)], games)
        print(f"games/s, {label + ':':28s}{med:7.1f} ({best:.1f})")

    print("\nparallel runner, random 4-player games with the recorder:")
    games = int(8000 * scale)
    base = None
    for jobs in (1, 2, 4):
        if jobs > (os.cpu_count() or 1):
            break
        match = Match("bench", 4, ("random",) * 4, games, 1)
        med, best = median_rate(lambda: run_matches(plugin, [match], jobs), games, clock=time.perf_counter)
        base = base or med
        print(f"  --jobs {jobs}: {med:7.0f} games/s ({best:.0f}), speed-up ×{med / base:.2f}")
    games = int(400 * scale)
    base = None
    print("parallel runner, lookahead against 3 random:")
    for jobs in (1, 2):
        match = Match("bench", 4, ("lookahead", "random", "random", "random"), games, 1)
        med, best = median_rate(lambda: run_matches(plugin, [match], jobs), games, repeats=1, clock=time.perf_counter)
        base = base or med
        print(f"  --jobs {jobs}: {med:7.1f} games/s, speed-up ×{med / base:.2f}")


if __name__ == "__main__":
    main()
