"""Progress of long runs (games played, rate, time left) on stderr through rich, silent when not a terminal.

The display is refreshed from the caller's thread (no background thread), so worker processes can be
forked at any moment without inheriting a lock held by a refresh thread. Long loops call `advance`
(and `poll` while they wait); both redraw at most ten times a second.
"""

from __future__ import annotations

import contextlib
import contextvars
import time
from collections.abc import Iterator
from typing import Any

REFRESH_SECONDS = 0.1


class Progress:
    """The progress of one command: one bar per batch of work (a match, a search), each with rate and ETA."""

    def __init__(self, console: Any | None = None, unit: str = "games"):
        self.unit = unit
        self._unit = unit
        self._live = None
        self._task = None
        self._last = 0.0
        self._began = 0.0
        self.done = 0  # units finished in every batch so far
        self.total = 0
        if console is None or not console.is_terminal:
            return
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
        from rich.progress import Progress as RichProgress

        self._live = RichProgress(
            TextColumn("[progress.description]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[unit]}"),
            TextColumn("[progress.data.speed]{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("[progress.remaining]{task.fields[eta]}"),
            console=console,
            auto_refresh=False,
            transient=False,
        )
        self._live.start()

    def start(self, label: str, total: int, unit: str | None = None) -> None:
        """Begin a batch of `total` units (the previous batch's bar stays on screen, complete)."""
        self.total += total
        if self._live is not None and self._task is not None:
            self._draw(force=True)  # the finished bar keeps its final rate and loses its estimate
        self._unit = unit or self.unit
        if self._live is not None:
            self._task = self._live.add_task(label, total=total, rate="", eta="", unit=self._unit)
            self._began = time.monotonic()
            self._draw(force=True)

    def advance(self, count: int = 1) -> None:
        """Record `count` more units finished."""
        self.done += count
        if self._live is not None and self._task is not None:
            self._live.advance(self._task, count)
            self._draw()

    def poll(self) -> None:
        """Redraw (elapsed time and estimate) while waiting for results."""
        if self._live is not None:
            self._draw()

    def close(self) -> None:
        """Leave the final state on screen."""
        if self._live is not None:
            self._draw(force=True)
            self._live.stop()
            self._live = None

    def _finished(self) -> bool:
        assert self._live is not None
        return self._task is not None and self._live.tasks[-1].finished

    def _draw(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._last < REFRESH_SECONDS and not self._finished():
            return
        self._last = now
        assert self._live is not None
        if self._task is not None:
            # The mean rate since the batch began: results arrive in chunks, so a windowed rate would jump.
            task = self._live.tasks[-1]
            elapsed = now - self._began
            if task.completed and elapsed > 0:
                speed = task.completed / elapsed
                left = (task.total or 0) - task.completed
                eta = "" if left <= 0 else f"about {_duration(left / speed)} left"
                rate = f"{speed:,.{1 if speed < 10 else 0}f} {self._unit}/s"
                self._live.update(self._task, rate=rate, eta=eta)
        self._live.refresh()


def _duration(seconds: float) -> str:
    """Return `45 s`, `3 min 20 s` or `2 h 05 min`."""
    s = round(seconds)
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


_CURRENT: contextvars.ContextVar[Progress | None] = contextvars.ContextVar("cardpress_progress", default=None)


def current() -> Progress:
    """Return the progress display of the running command, or a silent one."""
    return _CURRENT.get() or Progress()


@contextlib.contextmanager
def reporting(unit: str = "games", console: Any | None = None) -> Iterator[Progress]:
    """Show progress on stderr for everything run inside (quiet when stderr is not a terminal)."""
    if console is None:
        from rich.console import Console

        console = Console(stderr=True)  # rich honours NO_COLOR, TERM=dumb and FORCE_COLOR itself
    progress = Progress(console, unit)
    token = _CURRENT.set(progress)
    try:
        yield progress
    finally:
        _CURRENT.reset(token)
        progress.close()
