"""Micro-Engine's rollout bot: CPU seconds per game and win share against the heuristic bot (prints numbers).

Each game is seeded as `cardpress simulate` seeds it (from --seed, a label and the game's index), the
rollout bot in seat 0 and heuristic bots in the others; the first player is random per game. Every game's
CPU time is measured with process_time inside the process that plays it, so other processes sharing the
machine do not skew it. Games run in --jobs worker processes; the figures do not depend on --jobs. The
rollout bot's leaf value is fitted once, before the workers start (its CPU time is printed apart).

--deep measures `rollout-deep` (RolloutBot.deep, the former default); --bot options change the default
bot's search. To measure another checkout's bot with the same seeds (e.g. main before a change), put its
tree first:
    PYTHONPATH=/path/to/other/checkout python benchmarks/bench_me_rollout.py --games 100
Games are seeded by index, so two runs pair game by game (--start extends a run; --log keeps every game).

Run: python benchmarks/bench_me_rollout.py [--deep] [--games N] [--players 2] [--jobs 2] [--log FILE]
     python benchmarks/bench_me_rollout.py --summarize FILE ...
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import time
from pathlib import Path

from generator import pipeline
from generator.games.micro_engine.bots import HeuristicBot, RolloutBot, value_model
from generator.games.micro_engine.game import MicroEngineGame
from generator.sim import stats
from generator.sim.runner import derive_seed, play_counted

ROOT = Path(__file__).resolve().parent.parent
LABEL = "rollout-vs-heuristic"
_GAME: MicroEngineGame | None = None


def _game(players: int) -> MicroEngineGame:
    global _GAME
    if _GAME is None or _GAME.num_players != players:
        _GAME = MicroEngineGame(pipeline.load(ROOT, "micro-engine").model, players)
    return _GAME


def play_one(task: tuple[int, int, int, dict]) -> dict:
    """Play game `index` of the run; return its seat-0 share, scores and CPU seconds."""
    seed, players, index, options = task
    game = _game(players)
    bots = [RolloutBot.deep(0) if options.get("deep") else RolloutBot(0, **options)] + [
        HeuristicBot(seat) for seat in range(1, players)
    ]
    began = time.process_time()
    state, decisions = play_counted(game, bots, derive_seed(seed, LABEL, index))
    took = time.process_time() - began
    return {
        "index": index,
        "share": state.returns()[0],
        "scores": state.scores(),
        "decisions": decisions,
        "cpu": took,
    }


def bot_options(pairs: list[str]) -> dict:
    """Return RolloutBot keyword arguments from NAME=VALUE strings."""
    options: dict = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        if name == "phases":
            options[name] = tuple(value.split("+"))
        elif name in ("hand_weight", "race"):
            options[name] = float(value)
        else:
            options[name] = int(value) or None if name == "horizon" else int(value)
    return options


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--start", type=int, default=0, help="first game index (to extend an earlier run)")
    parser.add_argument("--log", type=Path, help="append every game's figures here as a JSON line, as it ends")
    parser.add_argument("--summarize", type=Path, nargs="*", help="print the figures of these logs; play nothing")
    parser.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a RolloutBot option, e.g. samples=12, horizon=0 (none), race=0 (off), phases=draw+play (default: the bot's own)",
    )
    parser.add_argument("--deep", action="store_true", help="measure rollout-deep (RolloutBot.deep) instead")
    args = parser.parse_args()
    options = {"deep": True} if args.deep else bot_options(args.bot)
    if args.summarize:
        games = [json.loads(line) for log in args.summarize for line in log.read_text().splitlines()]
        report(args, sorted(games, key=lambda g: g["index"]), None)
        return
    tasks = [(args.seed, args.players, i, options) for i in range(args.start, args.start + args.games)]
    fit = time.process_time()
    if not args.deep and RolloutBot(0, **options).value:
        value_model(_game(args.players).tables)  # once, here: the forked workers inherit it
        print(f"leaf value fitted in {time.process_time() - fit:.2f} CPU-s")
    began = time.perf_counter()
    games = []
    log = args.log.open("a") if args.log else None
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        for game in pool.imap_unordered(play_one, tasks, chunksize=1):
            games.append(game)
            if log:
                log.write(json.dumps(game) + "\n")
                log.flush()
    report(args, sorted(games, key=lambda g: g["index"]), time.perf_counter() - began)


def report(args: argparse.Namespace, games: list[dict], wall: float | None) -> None:
    """Print the win share with its 95 % interval, mean VP and CPU seconds per game."""
    n = len(games)
    shares = [g["share"] for g in games]
    lo, hi = stats.wilson(sum(shares), n)
    cpu = [g["cpu"] for g in games]
    vp0 = stats.mean([g["scores"][0] for g in games])
    vp_rest = stats.mean([s for g in games for s in g["scores"][1:]])
    print(
        f"{args.players} players, rollout (seat 0) vs heuristic, {n} games: "
        f"win share {100 * stats.mean(shares):.1f} % (95 % interval {100 * lo:.1f}–{100 * hi:.1f} %, "
        f"fair {100 / args.players:.0f} %); VP {vp0:.1f} vs {vp_rest:.1f}"
    )
    sd = stats.stdev(cpu)
    print(
        f"CPU per game: mean {stats.mean(cpu):.3f} s (±{1.96 * sd / math.sqrt(n):.3f}), median "
        f"{stats.quantile(sorted(cpu), 0.5):.3f} s; total {sum(cpu):.1f} CPU-s"
        + (f"; wall {wall:.1f} s at {args.jobs} jobs" if wall is not None else "")
    )


if __name__ == "__main__":
    main()
