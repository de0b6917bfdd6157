"""Play many seeded games, serially or in worker processes, with identical results either way.

Every game gets its own seed, derived from the run's seed, the match label and the game's index, and
every bot is reseeded from it before the game. So a game's result never depends on which process
played it or what that process played before: `--jobs 4` reproduces `--jobs 1` exactly.
"""

from __future__ import annotations

import hashlib
import pickle
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from . import progress as progress_display
from .executors import Serial, executor_for
from .plugin import Plugin
from .protocol import CHANCE, TERMINAL, Bot, Game, State, sample_chance
from .tasks import Executor, Interrupted

# Tasks per worker: enough to balance the workers and show progress, few enough that each task's
# round trip (a few hundred microseconds locally, about a millisecond on Dask) stays negligible.
TASKS_PER_WORKER = 16


class Watcher(Protocol):
    """Told of every action as it is played: a game's Recorder, or the transcript writer."""

    def after(self, state: State, player: int, action: int) -> None: ...


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


def play(game: Game, bots: Sequence[Bot[Any]], seed: int, recorder: Watcher | None = None) -> State:
    """Play one game to the end and return the final state; chance uses its own seeded generator."""
    return play_counted(game, bots, seed, recorder)[0]


def play_counted(game: Game, bots: Sequence[Bot[Any]], seed: int, recorder: Watcher | None = None) -> tuple[State, int]:
    """Play one game to the end; return the final state and the number of player decisions."""
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
    decisions = 0
    while True:
        p = current()
        if p >= 0:
            action = steps[p](state)
            decisions += 1
        elif p == CHANCE:
            action = chance(rng)
        elif p == TERMINAL:
            return state, decisions
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
        """Play games start..stop-1 of the match and return their records."""
        out = []
        for index in range(start, stop):
            seed = derive_seed(self.match.seed, self.match.label, index)
            recorder = self.plugin.recorder(self.game)
            state, decisions = play_counted(self.game, self.bots, seed, recorder)
            out.append(
                {
                    "index": index,
                    "seed": seed,
                    "scores": state.scores(),
                    "returns": state.returns(),
                    "decisions": decisions,
                    "extra": recorder.finish(state),
                }
            )
        return out


# Engines and bots already built in this process, by (plugin token, match): a worker process (local or
# Dask) builds each once and reuses it for every chunk it plays. Bounded, since Dask workers live long.
_WORKERS: dict[tuple[str, Match], _Worker] = {}
_MAX_WORKERS = 32


def _play_chunk(shared: tuple[str, Plugin], task: tuple[Match, int, int]) -> list[dict[str, Any]]:
    token, plugin = shared
    match, start, stop = task
    worker = _WORKERS.get((token, match))
    if worker is None:
        if len(_WORKERS) >= _MAX_WORKERS:
            _WORKERS.clear()
        worker = _WORKERS[(token, match)] = _Worker(plugin, match)
    return worker.play_range(start, stop)


def chunk_size(total: int, workers: int) -> int:
    """Return the games per task: one in this process (progress after every game), else a share per worker."""
    if workers <= 1:
        return 1
    return max(1, -(-total // (workers * TASKS_PER_WORKER)))


def run_matches(
    plugin: Plugin,
    matches: Sequence[Match],
    jobs: int = 1,
    executor: Executor | None = None,
    label: str | None = None,
) -> list[MatchResult]:
    """Play every game of every match, here, in `jobs` local processes or on `executor`; results never differ.

    Progress goes to the running command's display (see `progress.reporting`). Ctrl-C raises
    `Interrupted` with the number of games finished, once every worker has stopped.
    """
    total = sum(m.games for m in matches)
    _WORKERS.clear()  # each run builds its bots afresh here and in forked workers
    owned = executor is None
    executor = executor or (executor_for(jobs) if jobs > 1 else Serial())
    try:
        if executor.shares_memory:  # tables built here are inherited by forked workers; a cluster builds its own
            for match in matches:
                plugin.prepare(match.bots)
    except KeyboardInterrupt:
        raise Interrupted(0, total, "games") from None
    chunk = chunk_size(total, executor.workers)
    tasks = [(m, i, min(i + chunk, m.games)) for m in matches for i in range(0, m.games, chunk)]
    if len(tasks) <= 1 and owned:
        executor = Serial()
    shown = progress_display.current()
    shown.start(label or ", ".join(dict.fromkeys(m.label for m in matches)), total, "games")
    finished = 0

    def on_result(_index: int, records: list[dict[str, Any]]) -> None:
        nonlocal finished
        finished += len(records)
        shown.advance(len(records))

    token = hashlib.blake2b(pickle.dumps(plugin), digest_size=8).hexdigest()
    try:
        chunks = executor.run(_play_chunk, (token, plugin), tasks, on_result, shown.poll)
    except Interrupted:
        raise Interrupted(finished, total, "games") from None
    finally:
        if owned:
            executor.close()
    results = []
    for match in matches:
        records = [r for (m, _, _), chunk in zip(tasks, chunks) if m is match for r in chunk]
        names = tuple(plugin.make_bot(spec, seat).name for seat, spec in enumerate(match.bots))
        results.append(MatchResult(match, records, names))
    return results


def run_match(plugin: Plugin, match: Match, jobs: int = 1, executor: Executor | None = None) -> MatchResult:
    """Play every game of one match."""
    return run_matches(plugin, [match], jobs, executor)[0]
