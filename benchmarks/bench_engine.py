"""Benchmark the Pocket Foundry rules engine, its bots and the parallel runner; prints numbers, asserts nothing.

    python benchmarks/bench_engine.py            # engine, bots, runner scaling (about a minute)
    python benchmarks/bench_engine.py --quick    # fewer games
    python benchmarks/bench_engine.py --scaling [--dask] [--strong]   # the runner at 1 and 2 workers
Each figure is the median of three runs (CPU time of this process; wall time for the parallel runner);
games are seeded, so every run plays the same games.

`--scaling` runs every case in a fresh process, as `cardpress simulate` does (cold caches, its own
start-up), and reports the wall time of the games and the CPU time spent by the parent and its workers:
on a shared machine the wall-clock speed-up depends on what else runs, the CPU figures do not.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
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


SCALING = {  # case: (game, bots, games)
    "pf-random": ("pocket-foundry", ("random",) * 4, 8000),
    "pf-planner": ("pocket-foundry", ("planner",) * 4, 4000),
    "me-heuristic": ("micro-engine", ("heuristic",) * 4, 400),
    "pf-lookahead": ("pocket-foundry", ("lookahead", "random", "random", "random"), 160),
    "me-rollout": ("micro-engine", ("rollout", "heuristic", "heuristic", "heuristic"), 60),  # about 0.4 s a game
}


def one_case(case: str, jobs: int, scheduler: str | None) -> dict:
    """Run one scaling case in this (fresh) process and return its timings."""
    from generator.sim.executors import executor_for

    began = time.perf_counter()
    game, bots, games = SCALING[case]
    loaded = pipeline.load(ROOT, game)
    plugin = loaded.ruleset.simulation(loaded)
    executor = executor_for(jobs, scheduler)
    workers = executor.workers  # a Dask cluster starts here, outside the timed part
    cluster_cpu = (lambda: sum(executor.client().run(_own_cpu).values())) if scheduler else (lambda: 0.0)
    cluster_before = cluster_cpu()
    loaded_at = time.perf_counter()
    cpu = time.process_time()
    run_matches(plugin, [Match("bench", 4, bots, games, 1)], jobs, executor)
    wall = time.perf_counter() - loaded_at
    parent_cpu = time.process_time() - cpu
    cluster_used = cluster_cpu() - cluster_before
    executor.close()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {
        "case": case,
        "jobs": workers,
        "games": games,
        "load_s": loaded_at - began,
        "wall_s": wall,
        "parent_cpu_s": parent_cpu,
        "worker_cpu_s": cluster_used if scheduler else children.ru_utime + children.ru_stime,
    }


def _own_cpu() -> float:
    """Return this process's CPU seconds (run on each Dask worker)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def scaling(cases: list[str], dask: bool, repeats: int) -> None:
    """Print the runner's speed at 1 and 2 local workers (and on a 2-worker local Dask cluster), each in a fresh process."""
    print(
        f"{os.cpu_count()} cores; load average before: {os.getloadavg()[0]:.2f}; median of {repeats} fresh processes\n"
    )
    print(f"{'case':14s} {'workers':>13s} {'games':>6s} {'wall s':>7s} {'games/s':>8s} {'speed-up':>8s} {'CPU s':>7s}")
    print("(CPU s: this process and its workers while the games run; a Dask cluster's worker processes are asked)")
    for case in cases:
        configs = [("local 1", ["--jobs", "1"]), ("local 2", ["--jobs", "2"])]
        configs += [("dask 2", ["--jobs", "2", "--scheduler", "local:2"])] if dask else []
        runs: dict[str, list[dict]] = {label: [] for label, _ in configs}
        for _ in range(repeats):  # interleaved, so a change in the machine's load hits every configuration alike
            for label, extra in configs:
                out = subprocess.run(
                    [sys.executable, __file__, "--one", case, *extra], capture_output=True, text=True, check=True
                )
                runs[label].append(json.loads(out.stdout.strip().splitlines()[-1]))
        base = None
        for label, _ in configs:
            r = sorted(runs[label], key=lambda x: x["wall_s"])[len(runs[label]) // 2]
            rate = r["games"] / r["wall_s"]
            base = base or rate
            cpu = r["parent_cpu_s"] + r["worker_cpu_s"]
            print(
                f"{case:14s} {label:>13s} {r['games']:6d} {r['wall_s']:7.2f} {rate:8.1f} {rate / base:7.2f}× {cpu:7.2f}"
            )
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games")
    parser.add_argument("--scaling", action="store_true", help="only the runner at 1 and 2 workers, fresh processes")
    parser.add_argument("--strong", action="store_true", help="with --scaling: the strong-bot cases too")
    parser.add_argument("--dask", action="store_true", help="with --scaling: also on a local 2-worker Dask cluster")
    parser.add_argument("--case", action="append", choices=sorted(SCALING), help="with --scaling: only these cases")
    parser.add_argument("--repeats", type=int, default=3, help="with --scaling: fresh processes per figure")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--jobs", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--scheduler", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one_case(args.one, args.jobs, args.scheduler)))
        return
    if args.scaling:
        cases = args.case or [
            c for c in SCALING if args.strong or c.split("-")[1] in ("random", "planner", "heuristic")
        ]
        scaling(cases, args.dask, args.repeats)
        return
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
