"""Where seeded tasks run: in this process, in local worker processes, or on a Dask distributed cluster.

Every executor runs `fn(shared, task)` for each task and returns the results in task order, so what
comes back never depends on where or in which order the tasks ran. Ctrl-C stops every worker (local
workers ignore SIGINT themselves and are terminated by the parent; cluster tasks are cancelled) and
raises `Interrupted` with the number of tasks finished.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable, Sequence
from typing import Any

from .tasks import POLL_SECONDS, Executor, Interrupted, OnResult


class Serial:
    """Runs every task in this process."""

    workers = 1
    shares_memory = True

    def run(
        self,
        fn: Callable[[Any, Any], Any],
        shared: Any,
        tasks: Sequence[Any],
        on_result: OnResult,
        poll: Callable[[], None],
    ) -> list[Any]:
        """Run the tasks one by one."""
        results = []
        try:
            for i, task in enumerate(tasks):
                results.append(fn(shared, task))
                on_result(i, results[-1])
        except KeyboardInterrupt:
            raise Interrupted(len(results), len(tasks)) from None
        return results

    def close(self) -> None:
        """Nothing to release."""


_SHARED: Any = None


def _init_local(shared: Any) -> None:
    global _SHARED
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent alone answers Ctrl-C, then terminates us
    _SHARED = shared


def _call_local(item: tuple[Callable[[Any, Any], Any], int, Any]) -> tuple[int, Any]:
    fn, index, task = item
    return index, fn(_SHARED, task)


class LocalProcesses:
    """Runs tasks in `workers` forked processes (where fork exists), which inherit whatever the parent prepared."""

    def __init__(self, workers: int):
        self.workers = workers
        self.shares_memory = "fork" in multiprocessing.get_all_start_methods()

    def run(
        self,
        fn: Callable[[Any, Any], Any],
        shared: Any,
        tasks: Sequence[Any],
        on_result: OnResult,
        poll: Callable[[], None],
    ) -> list[Any]:
        """Run the tasks in a process pool; results are collected as they finish and returned in task order."""
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        results: list[Any] = [None] * len(tasks)
        done = 0
        pool = context.Pool(processes=min(self.workers, len(tasks)), initializer=_init_local, initargs=(shared,))
        try:
            pending = pool.imap_unordered(_call_local, [(fn, i, t) for i, t in enumerate(tasks)])
            while done < len(tasks):
                try:
                    index, result = pending.next(timeout=POLL_SECONDS)
                except multiprocessing.TimeoutError:
                    poll()
                    continue
                results[index] = result
                done += 1
                on_result(index, result)
        except KeyboardInterrupt:
            pool.terminate()
            pool.join()
            raise Interrupted(done, len(tasks)) from None
        except BaseException:
            pool.terminate()
            pool.join()
            raise
        pool.close()
        pool.join()
        return results

    def close(self) -> None:
        """Nothing to release: each run's pool is joined before it returns."""


def _call_plain(fn: Callable[[Any], Any], task: Any) -> Any:
    return fn(task)


def parallel_map(fn: Callable[[Any], Any], tasks: Sequence[Any], jobs: int, label: str, unit: str) -> list[Any]:
    """Return [fn(t) for t in tasks], in `jobs` local processes when > 1, with progress and a clean Ctrl-C.

    For a game's own long computations (searches, sweeps); `fn` must be a module-level function."""
    from . import progress

    shown = progress.current()
    shown.start(label, len(tasks), unit)
    executor: Executor = LocalProcesses(jobs) if jobs > 1 and len(tasks) > 1 else Serial()
    try:
        return executor.run(_call_plain, fn, tasks, lambda _i, _r: shown.advance(1), shown.poll)
    except Interrupted as stop:
        raise Interrupted(stop.done, stop.total, unit) from None


def executor_for(jobs: int = 1, scheduler: str | None = None) -> Executor:
    """Return the executor for `--jobs` and `--scheduler` (a Dask address, or `local:N`)."""
    if scheduler:
        from .cluster import DaskCluster

        return DaskCluster(scheduler)
    return LocalProcesses(jobs) if jobs > 1 else Serial()
