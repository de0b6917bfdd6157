"""What every executor shares: the Executor protocol, the Ctrl-C outcome and how often a waiting parent polls."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

POLL_SECONDS = 0.1  # how often a waiting parent redraws the progress display

OnResult = Callable[[int, Any], None]


class Interrupted(Exception):
    """The user pressed Ctrl-C: every worker is stopped; `done` of `total` units (games, searches) had finished."""

    def __init__(self, done: int, total: int, unit: str = "tasks"):
        super().__init__(f"interrupted after {done} of {total} {unit}")
        self.done = done
        self.total = total
        self.unit = unit


class Executor(Protocol):
    """Runs tasks and returns their results in task order."""

    shares_memory: bool  # True when workers see what this process prepared (itself, or forked children)

    def run(
        self,
        fn: Callable[[Any, Any], Any],
        shared: Any,
        tasks: Sequence[Any],
        on_result: OnResult,
        poll: Callable[[], None],
    ) -> list[Any]:
        """Return [fn(shared, t) for t in tasks]; call on_result(i, result) as each finishes, poll() while waiting."""

    @property
    def workers(self) -> int:
        """Return how many tasks run at once."""

    def close(self) -> None:
        """Release workers or connections."""
