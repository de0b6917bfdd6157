"""One run of a row, slot by slot, as the rulebook's worked example tells it; and the best choice of skips."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from .tables import EMPTY, EffectResult, Tables, apply_effect

RAN, SKIPPED, CANNOT_PAY, EMPTY_SLOT = "ran", "skipped", "cannot pay", "empty"


@dataclass(frozen=True)
class SlotStep:
    """What one slot did during a run."""

    slot: int  # 1-based
    machine: int  # effect index (the starter is tables.starter_index), or EMPTY
    status: str  # RAN, SKIPPED (chosen), CANNOT_PAY (skipped: full cost not there) or EMPTY_SLOT
    before: tuple[int, ...]  # stored resources when the slot was reached
    result: EffectResult | None  # set when the slot ran


@dataclass(frozen=True)
class RunTrace:
    """A whole run: the steps, the purse before and after, and the points gained."""

    steps: tuple[SlotStep, ...]
    start: tuple[int, ...]
    end: tuple[int, ...]
    points: int

    @property
    def mask(self) -> int:
        """Return the run as a mask of the slots that ran (bit i = slot i+1)."""
        return sum(1 << (s.slot - 1) for s in self.steps if s.status == RAN)


def trace_run(t: Tables, row: int, res: int, wanted: Collection[int]) -> RunTrace:
    """Run the slots in `wanted` (1-based) left to right; a slot whose full cost is not there when it is
    reached is skipped as CANNOT_PAY, whether it was wanted or not."""
    values = t.values[res]
    start = values
    points = 0
    steps = []
    for i, m in enumerate(t.row_machines(row)):
        slot = i + 1
        if m == EMPTY:
            steps.append(SlotStep(slot, m, EMPTY_SLOT, values, None))
            continue
        pay, gain, pts = t.effects[m]
        result = apply_effect(values, pay, gain, pts, t.caps)
        if result is None:
            steps.append(SlotStep(slot, m, CANNOT_PAY, values, None))  # skipped, chosen or not: it could not pay
            continue
        if slot not in wanted:
            steps.append(SlotStep(slot, m, SKIPPED, values, None))
            continue
        steps.append(SlotStep(slot, m, RAN, values, result))
        values = result.after
        points += pts
    return RunTrace(tuple(steps), start, values, points)


def mask_slots(mask: int, slots: int) -> set[int]:
    """Return the 1-based slots set in a run mask."""
    return {i + 1 for i in range(slots) if mask >> i & 1}


def row_future(t: Tables, row: int, runs: int) -> list[int]:
    """Return, per purse, the most points `row` makes in `runs` more runs with nothing built meanwhile."""
    value = [0] * t.n_res
    for _ in range(runs):
        value = [max(p + value[r] for _, r, p in t.runs(row, code)) for code in range(t.n_res)]
    return value


def best_run(t: Tables, row: int, res: int, horizon: int | None = None) -> tuple[int, int, int]:
    """Return (action, new purse, points) of the run with the most points now.

    Ties go to the run whose leftover purse lets the same row score the most over `horizon` more runs
    (default: the rest of a game, laps − 1); then to the most resources left; then to the run that runs
    the most slots (a capped free gain may as well run).
    """
    future = row_future(t, row, t.laps - 1 if horizon is None else horizon)
    base = t.n_build_actions

    def key(run: tuple[int, int, int]) -> tuple[int, int, int, int, int]:
        action, code, pts = run
        return (pts, future[code], sum(t.values[code]), bin(action - base).count("1"), -action)

    return max(t.runs(row, res), key=key)
