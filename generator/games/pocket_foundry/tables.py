"""Compile the Pocket Foundry model into flat integer tables the engine, bots and analyses share.

Resources with a storage cap ("stored": FEED, PARTS) are packed into one integer, the *resource code*;
the single uncapped resource is the score (points). A row (slots 2..S) is packed into a *row code*.
Every machine's RUN effect becomes a table from resource code to (new code, points gained), built
from one function, `apply_effect`, that also produces the step-by-step traces `explain` prints.
Nothing here names a machine: a fan edition's new machines compile the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, TypeVar, cast

from .model import Amounts, Machine, PocketFoundry

EMPTY = -1  # a slot with no machine
RunEffect = tuple[tuple[int, ...], tuple[int, ...], int]  # one machine's RUN: (pay, gain) over the stored, points
T = TypeVar("T")


class RulesModelError(ValueError):
    """The card data cannot be compiled into a playable rules model (the validator explains why)."""


@dataclass(frozen=True)
class EffectResult:
    """What one machine's RUN did to a player's stored resources."""

    before: tuple[int, ...]
    paid: tuple[int, ...]
    gained: tuple[int, ...]
    discarded: tuple[int, ...]  # excess above the caps, thrown away right after this machine
    after: tuple[int, ...]
    points: int


def apply_effect(
    values: Sequence[int], pay: Sequence[int], gain: Sequence[int], points: int, caps: Sequence[int]
) -> EffectResult | None:
    """Pay all of `pay`, gain all of `gain`, then discard above the caps; None when `pay` is unaffordable."""
    if any(v < p for v, p in zip(values, pay)):
        return None  # the rulebook allows no partial payment
    raw = [v - p + g for v, p, g in zip(values, pay, gain)]
    after = tuple(min(x, c) for x, c in zip(raw, caps))
    discarded = tuple(x - a for x, a in zip(raw, after))
    return EffectResult(tuple(values), tuple(pay), tuple(gain), discarded, after, points)


class Tables:
    """Every rules constant and effect of one edition, as flat integer tables."""

    def __init__(self, model: PocketFoundry):
        rules = model.rules
        self.model = model
        capped = [r for r in rules.resources if r.cap is not None]
        uncapped = [r for r in rules.resources if r.cap is None]
        if len(uncapped) != 1:
            raise RulesModelError("exactly one resource must be uncapped: the points that score")
        self.stored = tuple(r.id for r in capped)
        self.caps = tuple(r.cap for r in capped if r.cap is not None)
        self.score = uncapped[0].id
        self.score_start = uncapped[0].start
        if any(r.start > cap for r, cap in zip(capped, self.caps)):
            raise RulesModelError("a starting amount is above its cap")
        self.mult = tuple(_prefix_products([c + 1 for c in self.caps]))
        self.n_res = _product(c + 1 for c in self.caps)
        self.values = tuple(self._decode(code) for code in range(self.n_res))
        self.start_res = self.encode(tuple(r.start for r in capped))

        self.slots = rules.slots  # slot 1 holds the starter
        self.build_slots = rules.slots - 1
        self.laps = rules.laps
        self.market_size = rules.market_size
        self.reshuffle = rules.reshuffle
        self.players = model.players

        self.machines: tuple[Machine, ...] = model.machines  # market types, by type index
        self.n_types = len(self.machines)
        self.names = tuple(m.name for m in self.machines)
        self.ids = tuple(m.id for m in self.machines)
        self.copies = tuple(m.copies for m in self.machines)
        self.starter = model.starter
        self.starter_index = self.n_types  # in effect tables the starter comes after the market types
        self.total_cards = sum(self.copies)

        for m in (*self.machines, self.starter):
            if self.points(m.build_cost) or self.points(m.run.pay):
                raise RulesModelError(f"{m.name} pays {self.score}; they can only be gained")
        self.build_cost = tuple(self.vector(m.build_cost, who=m) for m in self.machines)
        effects: list[RunEffect] = [
            (self.vector(m.run.pay, who=m), self.vector(m.run.gain, who=m), self.points(m.run.gain))
            for m in (*self.machines, self.starter)
        ]
        self.effects = tuple(effects)
        # step[m][res] = (new res, points) or None: one machine's RUN from every resource state.
        self.step = tuple(tuple(self._step(e, code) for code in range(self.n_res)) for e in effects)
        # build_next[t][res] = res after paying t's BUILD COST, or -1 when unaffordable.
        self.build_next = tuple(
            tuple(self._after_build(cost, code) for code in range(self.n_res)) for cost in self.build_cost
        )

        self.row_base = self.n_types + 1
        self.row_mult: tuple[int, ...] = tuple(self.row_base**j for j in range(self.build_slots))
        self.n_rows: int = self.row_base**self.build_slots
        self.n_build_actions = self.n_types * self.build_slots
        self.n_actions = self.n_build_actions + (1 << self.slots)
        self._runs: dict[int, tuple[tuple[int, int, int], ...]] = {}
        self._run_actions: dict[int, tuple[int, ...]] = {}
        self._run_results: dict[int, dict[int, tuple[int, int]]] = {}
        self._builds: dict[int, tuple[int, ...]] = {}
        self._row_slots: dict[int, tuple[int, ...]] = {}
        self._shared: dict[str, Any] = {}

    def shared(self, name: str, make: Callable[[], T]) -> T:
        """Return the object `make` builds from these tables, built once (solvers, caches) and then shared."""
        found = self._shared.get(name)
        if found is None:
            found = self._shared[name] = make()
        return cast(T, found)  # each name is only ever made by one `make`

    # -- resources ---------------------------------------------------------------------------------

    def vector(self, amounts: Amounts, *, who: Machine | None = None) -> tuple[int, ...]:
        """Return `amounts` as a vector over the stored resources (points are not stored)."""
        table = dict(amounts)
        unknown = set(table) - set(self.stored) - {self.score}
        if unknown:
            raise RulesModelError(f"{who.name if who else 'effect'} uses unknown resources {sorted(unknown)}")
        return tuple(table.get(rid, 0) for rid in self.stored)

    def points(self, amounts: Amounts) -> int:
        """Return the points in `amounts`."""
        return dict(amounts).get(self.score, 0)

    def encode(self, values: Sequence[int]) -> int:
        """Pack stored amounts (each within its cap) into a resource code."""
        return sum(v * m for v, m in zip(values, self.mult))

    def _decode(self, code: int) -> tuple[int, ...]:
        return tuple((code // m) % (c + 1) for m, c in zip(self.mult, self.caps))

    def _step(self, effect: RunEffect, code: int) -> tuple[int, int] | None:
        pay, gain, pts = effect
        result = apply_effect(self.values[code], pay, gain, pts, self.caps)
        return None if result is None else (self.encode(result.after), pts)

    def _after_build(self, cost: tuple[int, ...], code: int) -> int:
        values = self.values[code]
        if any(v < c for v, c in zip(values, cost)):
            return -1
        return self.encode(tuple(v - c for v, c in zip(values, cost)))

    def describe_res(self, code: int) -> str:
        """Return e.g. `3 FEED, 1 PART`."""
        rules = self.model.rules
        return ", ".join(f"{v} {rules.resource(rid).noun(v)}" for v, rid in zip(self.values[code], self.stored))

    # -- rows -----------------------------------------------------------------------------------------

    def row_slots(self, row: int) -> tuple[int, ...]:
        """Return the machine type in slots 2..S of a row code (EMPTY for an empty slot)."""
        slots = self._row_slots.get(row)
        if slots is None:
            slots = tuple((row // m) % self.row_base - 1 for m in self.row_mult)
            self._row_slots[row] = slots
        return slots

    def row_code(self, slots: Sequence[int]) -> int:
        """Pack machine types for slots 2..S (EMPTY for none) into a row code."""
        return sum((t + 1) * m for t, m in zip(slots, self.row_mult))

    def with_slot(self, row: int, slot: int, machine: int) -> int:
        """Return the row code after installing `machine` in `slot` (2..S), replacing what was there."""
        j = slot - 2
        old = (row // self.row_mult[j]) % self.row_base
        return row + (machine + 1 - old) * self.row_mult[j]

    def row_machines(self, row: int) -> tuple[int, ...]:
        """Return the effect index in slots 1..S: the starter, then each slot's type (EMPTY if none)."""
        return (self.starter_index, *self.row_slots(row))

    # -- actions --------------------------------------------------------------------------------------

    def build_action(self, machine: int, slot: int) -> int:
        """Return the action id for building type `machine` into `slot` (2..S)."""
        return machine * self.build_slots + (slot - 2)

    def decode_build(self, action: int) -> tuple[int, int]:
        """Return (machine type, slot) of a build action."""
        t, j = divmod(action, self.build_slots)
        return t, j + 2

    def run_action(self, mask: int) -> int:
        """Return the action id for running the slots in `mask` (bit i = slot i+1)."""
        return self.n_build_actions + mask

    def runs(self, row: int, res: int) -> tuple[tuple[int, int, int], ...]:
        """Return every legal run from (row, res) as (action, new res, points), sorted by action."""
        key = row * self.n_res + res
        found = self._runs.get(key)
        if found is None:
            found = self._runs[key] = self._compute_runs(row, res)
        return found

    def run_actions(self, row: int, res: int) -> tuple[int, ...]:
        """Return the legal run actions for a row and purse."""
        key = row * self.n_res + res
        found = self._run_actions.get(key)
        if found is None:
            found = self._run_actions[key] = tuple(a for a, _, _ in self.runs(row, res))
        return found

    def run_result(self, row: int, res: int, action: int) -> tuple[int, int] | None:
        """Return (new purse, points gained) of a run action, or None when it is not legal."""
        key = row * self.n_res + res
        found = self._run_results.get(key)
        if found is None:
            found = self._run_results[key] = {a: (r, p) for a, r, p in self.runs(row, res)}
        return found.get(action)

    def build_actions(self, market_mask: int, res: int) -> tuple[int, ...]:
        """Return the legal build actions for the types shown in `market_mask` (bit per type) and a purse."""
        key = market_mask * self.n_res + res
        found = self._builds.get(key)
        if found is None:
            found = self._builds[key] = tuple(
                a
                for m in range(self.n_types)
                if market_mask >> m & 1 and self.build_next[m][res] >= 0
                for a in range(m * self.build_slots, (m + 1) * self.build_slots)
            )
        return found

    def _compute_runs(self, row: int, res: int) -> tuple[tuple[int, int, int], ...]:
        # Walk the slots left to right, branching on run / skip; an unaffordable slot can only be skipped
        # and an empty slot does nothing, so it cannot be chosen.
        frontier = [(0, res, 0)]
        step = self.step
        for i, m in enumerate(self.row_machines(row)):
            if m == EMPTY:
                continue
            table, bit = step[m], 1 << i
            grown = []
            for mask, code, pts in frontier:
                result = table[code]
                if result is not None:
                    grown.append((mask | bit, result[0], pts + result[1]))
            frontier += grown
        base = self.n_build_actions
        return tuple(sorted((base + mask, code, pts) for mask, code, pts in frontier))

    def closure(self, machines: Iterable[int], purses: int) -> int:
        """Return every purse reachable from `purses` (bit per purse) by running these machines, any number
        of times, in any turns.

        A run of several slots gives the same purse as running those slots one per turn, in order (the caps
        apply after every machine either way), so single-machine steps generate everything reachable.
        """
        todo = [code for code in range(self.n_res) if purses >> code & 1]
        tables = [self.step[m] for m in set(machines) if m != EMPTY]
        while todo:
            code = todo.pop()
            for table in tables:
                step = table[code]
                if step is not None and not purses >> step[0] & 1:
                    purses |= 1 << step[0]
                    todo.append(step[0])
        return purses

    @cached_property
    def afford_masks(self) -> tuple[int, ...]:
        """Return, per type, the set of resource codes that can pay its BUILD COST (bit per code)."""
        return tuple(sum(1 << code for code, nxt in enumerate(after) if nxt >= 0) for after in self.build_next)


def _prefix_products(radices: list[int]) -> list[int]:
    out, acc = [], 1
    for r in radices:
        out.append(acc)
        acc *= r
    return out


def _product(values: Iterable[int]) -> int:
    acc = 1
    for v in values:
        acc *= v
    return acc


_CACHE: dict[int, Tables] = {}


def tables_for(model: PocketFoundry) -> Tables:
    """Return the compiled tables of `model`, compiling once per model object."""
    found = _CACHE.get(id(model))
    if found is None or found.model is not model:
        found = _CACHE[id(model)] = Tables(model)
    return found
