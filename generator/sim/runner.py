"""Play many seeded games, serially or in worker processes, with identical results either way.

Every game gets its own seed, derived from the run's seed, the match label and the game's index, and
every bot is reseeded from it before the game. So a game's result never depends on which process
played it or what that process played before: `--jobs 4` reproduces `--jobs 1` exactly.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import random
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from .plugin import Plugin
from .protocol import CHANCE, TERMINAL, sample_chance

TASKS_PER_WORKER = 8  # enough tasks to balance the cores, few enough to amortise each task's pickling


@dataclass(frozen=True)
class Match:
    """A batch of games with one line-up: `bots[i]` plays seat i (seat 0 starts lap 1)."""

    label: str
    players: int
    bots: tuple[str, ...]
    games: int
    seed: int


@dataclass
class MatchResult:
    """The records of every game of a match, in game order, and the name of the bot in each seat."""

    match: Match
    records: list[dict[str, Any]]
    bot_names: tuple[str, ...]


def derive_seed(*parts: Any) -> int:
    """Return a 63-bit seed from any parts (stable across processes, platforms and Python versions)."""
    digest = hashlib.blake2b("/".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def play(game, bots: Sequence[Any], seed: int, recorder=None):
    """Play one game to the end and return the final state; chance uses its own seeded generator."""
    rng = random.Random(derive_seed(seed, "chance"))
    for seat, bot in enumerate(bots):
        restart = getattr(bot, "restart", None)
        if restart is not None:
            restart(derive_seed(seed, "seat", seat))
    state = game.new_initial_state()
    # Bound methods, looked up once: this loop is the hot path of every simulation.
    fast_chance = getattr(state, "sample_chance", None)
    chance = fast_chance if fast_chance is not None else (lambda r: sample_chance(state, r))
    steps = [bot.step for bot in bots]
    apply, current = state.apply_action, state.current_player
    after = recorder.after if recorder is not None else None
    while True:
        p = current()
        if p >= 0:
            action = steps[p](state)
        elif p == CHANCE:
            action = chance(rng)
        elif p == TERMINAL:
            return state
        else:
            raise RuntimeError(f"unexpected current player {p}")
        apply(action)
        if after is not None:
            after(state, p, action)


class _Worker:
    """The engine and bots of one match, built once per process."""

    def __init__(self, plugin: Plugin, match: Match):
        self.plugin = plugin
        self.match = match
        self.game = plugin.new_game(match.players)
        self.bots = [plugin.make_bot(spec, seat) for seat, spec in enumerate(match.bots)]

    def play_range(self, start: int, stop: int) -> list[dict[str, Any]]:
        out = []
        for index in range(start, stop):
            seed = derive_seed(self.match.seed, self.match.label, index)
            recorder = self.plugin.recorder(self.game)
            state = play(self.game, self.bots, seed, recorder)
            out.append(
                {
                    "index": index,
                    "seed": seed,
                    "scores": state.scores(),
                    "returns": state.returns(),
                    "extra": recorder.finish(state),
                }
            )
        return out


_PLUGIN: Plugin | None = None
_WORKERS: dict[str, _Worker] = {}


def _init_worker(plugin: Plugin) -> None:
    global _PLUGIN
    _PLUGIN = plugin
    _WORKERS.clear()


def _play_chunk(task: tuple[Match, int, int]) -> list[dict[str, Any]]:
    match, start, stop = task
    worker = _WORKERS.get(match.label)
    if worker is None:
        assert _PLUGIN is not None
        worker = _WORKERS[match.label] = _Worker(_PLUGIN, match)
    return worker.play_range(start, stop)


def run_matches(plugin: Plugin, matches: Sequence[Match], jobs: int = 1) -> list[MatchResult]:
    """Play every game of every match; `jobs` > 1 spreads chunks of games over that many processes."""
    for match in matches:
        plugin.prepare(match.bots)  # shared tables are built once here and inherited by forked workers
    total = sum(m.games for m in matches)
    chunk = max(1, -(-total // (max(jobs, 1) * TASKS_PER_WORKER)))  # results never depend on the chunking
    tasks = [(m, i, min(i + chunk, m.games)) for m in matches for i in range(0, m.games, chunk)]
    if jobs <= 1 or len(tasks) <= 1:
        _init_worker(plugin)
        chunks = [_play_chunk(task) for task in tasks]
    else:
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        with ProcessPoolExecutor(
            max_workers=jobs, mp_context=context, initializer=_init_worker, initargs=(plugin,)
        ) as pool:
            chunks = list(pool.map(_play_chunk, tasks))
    results = []
    for match in matches:
        records = [r for (m, _, _), chunk in zip(tasks, chunks) if m is match for r in chunk]
        names = tuple(plugin.make_bot(spec, seat).name for seat, spec in enumerate(match.bots))
        results.append(MatchResult(match, records, names))
    return results


def run_match(plugin: Plugin, match: Match, jobs: int = 1) -> MatchResult:
    """Play every game of one match."""
    return run_matches(plugin, [match], jobs)[0]
