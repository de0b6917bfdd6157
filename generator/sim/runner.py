"""Play many seeded games, serially or in worker processes, with identical results either way.

Every game gets its own seed, derived from the run's seed, the match label and the game's index, and
every bot is reseeded from it before the game. So a game's result never depends on which process
played it or what that process played before: `--jobs 4` reproduces `--jobs 1` exactly.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Sequence

from .plugin import Plugin
from .protocol import CHANCE, TERMINAL, sample_chance

CHUNK = 50  # games per task: large enough to amortise pickling, small enough to balance two cores


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
    """The records of every game of a match, in game order."""

    match: Match
    records: list[dict[str, Any]]
    seconds: float
    jobs: int
    bot_names: tuple[str, ...] = field(default=())


def derive_seed(*parts: Any) -> int:
    """Return a 63-bit seed from any parts (stable across processes, platforms and Python versions)."""
    digest = hashlib.blake2b("/".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def play(game, bots: Sequence[Any], seed: int, recorder=None):
    """Play one game to the end and return the final state; chance uses its own seeded generator."""
    import random

    rng = random.Random(derive_seed(seed, "chance"))
    for seat, bot in enumerate(bots):
        restart = getattr(bot, "restart", None)
        if restart is not None:
            restart(derive_seed(seed, "seat", seat))
    state = game.new_initial_state()
    after = recorder.after if recorder is not None else None
    while True:
        p = state.current_player()
        if p >= 0:
            action = bots[p].step(state)
        elif p == CHANCE:
            action = sample_chance(state, rng)
        elif p == TERMINAL:
            return state
        else:
            raise RuntimeError(f"unexpected current player {p}")
        state.apply_action(action)
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
            out.append({
                "index": index,
                "seed": seed,
                "scores": state.scores(),
                "returns": state.returns(),
                "extra": recorder.finish(state),
            })
        return out


_WORKER: _Worker | None = None


def _init_worker(plugin: Plugin, match: Match) -> None:
    global _WORKER
    _WORKER = _Worker(plugin, match)


def _play_chunk(bounds: tuple[int, int]) -> list[dict[str, Any]]:
    assert _WORKER is not None
    return _WORKER.play_range(*bounds)


def run_match(plugin: Plugin, match: Match, jobs: int = 1) -> MatchResult:
    """Play every game of `match`; `jobs` > 1 spreads chunks of games over that many processes."""
    plugin.prepare(match.bots)  # shared tables are built once here and inherited by forked workers
    names = tuple(plugin.make_bot(spec, seat).name for seat, spec in enumerate(match.bots))
    began = time.perf_counter()
    if jobs <= 1 or match.games <= CHUNK:
        records = _Worker(plugin, match).play_range(0, match.games)
        jobs = 1
    else:
        chunks = [(i, min(i + CHUNK, match.games)) for i in range(0, match.games, CHUNK)]
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_init_worker,
                                 initargs=(plugin, match)) as pool:
            records = [r for chunk in pool.map(_play_chunk, chunks) for r in chunk]
    return MatchResult(match, records, time.perf_counter() - began, jobs, names)
