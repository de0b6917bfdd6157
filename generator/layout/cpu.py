"""CPU budgets for the stages of a face and of a kit, counted in CPU time, never in wall-clock time.

A face goes through stages (render, parse, text setting, drawing, lint); each has a budget of CPU
seconds for one face and a larger one for every face of one build (a kit). CPU time is what the
work itself costs: a machine busy with other programs makes a build slower, never wrong. The clock
is only read every so many units of work (`tick`), so the checks stay off the hot paths.
"""

from __future__ import annotations

import os
import time
from contextvars import ContextVar

from .document import Element

STAGES = ("render", "parse", "text setting", "drawing", "lint")
FACE_SECONDS = 5.0  # CPU seconds one stage of one face may use (a shipped face uses a few milliseconds)
KIT_SECONDS = 60.0  # CPU seconds one stage may use over every face of one build of one game
EVERY = 64  # units of work between two looks at the clock


def scaled(seconds: float) -> float:
    """Return a budget times CARDPRESS_BUDGET_SCALE (default 1): the user's own setting, for running under a
    profiler or Valgrind, which spend tens of times the CPU time on the same work. A project cannot set it."""
    try:
        factor = float(os.environ.get("CARDPRESS_BUDGET_SCALE", "1"))
    except ValueError:
        factor = 1.0
    return seconds * factor if factor >= 1 and factor < 1e6 else seconds


def clock() -> float:
    """Return the CPU seconds this thread has used: the work done here, whatever else the machine runs."""
    return time.thread_time()


class OverBudget(Exception):
    """A stage used more CPU time than its budget: `stage`, the budget in seconds, and whether it was the kit's."""

    def __init__(self, stage: str, seconds: float, kit: bool) -> None:
        super().__init__(stage, seconds, kit)
        self.stage, self.seconds, self.kit = stage, seconds, kit
        self.element: Element | None = None  # the element being worked on, to locate the error at

    def message(self, face: str) -> str:
        """Say what ran out, naming the face and the stage."""
        whose = f"every face's {self.stage} of this build" if self.kit else f"the {self.stage} of one face"
        return f"{face}: {self.stage} used more than {self.seconds:g} s of CPU time (the budget for {whose})"


class Allowance:
    """The CPU time one stage of one face may still use; work calls `tick`, which looks at the clock now and then."""

    def __init__(self, stage: str, seconds: float, kit: bool) -> None:
        self.stage, self.seconds, self.kit = stage, seconds, kit
        self.start = clock()
        self.until = self.start + seconds
        self.left = EVERY

    def tick(self, units: int = 1) -> None:
        """Count `units` of work; every EVERY of them, refuse to go on past the budget."""
        self.left -= units
        if self.left <= 0:
            self.check()

    def check(self) -> None:
        """Refuse to go on past the budget."""
        self.left = EVERY
        if clock() > self.until:
            raise OverBudget(self.stage, self.seconds, self.kit)


_CURRENT: ContextVar[Allowance | None] = ContextVar("cardpress_stage_allowance", default=None)


def tick(units: int = 1) -> None:
    """Count work against the stage in progress (nothing outside one)."""
    allowance = _CURRENT.get()
    if allowance is not None:
        allowance.tick(units)


class Meter:
    """The CPU time each stage has used over one kit; hands each face's stage its allowance."""

    def __init__(self, face_seconds: float | None = None, kit_seconds: float | None = None) -> None:
        self.face_seconds = scaled(FACE_SECONDS) if face_seconds is None else face_seconds
        self.kit_seconds = scaled(KIT_SECONDS) if kit_seconds is None else kit_seconds
        self.spent = dict.fromkeys(STAGES, 0.0)

    def allowance(self, name: str) -> Allowance:
        """Return what stage `name` of the next face may use: its own budget, or what is left of the kit's."""
        left = self.kit_seconds - self.spent[name]
        if left < self.face_seconds:
            return Allowance(name, max(left, 0.0), kit=True) if left > 0 else _spent(name, self.kit_seconds)
        return Allowance(name, self.face_seconds, kit=False)

    def stage(self, name: str) -> Stage:
        """Run one stage of one face on its allowance, checked on the way out too; count what it used."""
        return Stage(self, name)


class Stage:
    """What `Meter.stage` returns: a context for one stage of one face (a class: four of them a face)."""

    def __init__(self, meter: Meter, name: str) -> None:
        self.meter, self.name = meter, name

    def __enter__(self) -> Allowance:
        allowance = self.allowance = self.meter.allowance(self.name)
        if allowance.until < allowance.start:
            raise OverBudget(self.name, allowance.seconds, allowance.kit)
        self.token = _CURRENT.set(allowance)
        return allowance

    def __exit__(self, *exc: object) -> None:
        _CURRENT.reset(self.token)
        allowance, end = self.allowance, clock()
        self.meter.spent[self.name] += end - allowance.start
        if end > allowance.until and exc[0] is None:  # an error on the way out is told, not hidden by this one
            raise OverBudget(self.name, allowance.seconds, allowance.kit)


def _spent(name: str, seconds: float) -> Allowance:
    """Return an allowance with nothing left (the kit's budget for the stage is used up)."""
    allowance = Allowance(name, seconds, kit=True)
    allowance.until = allowance.start - 1.0
    return allowance
