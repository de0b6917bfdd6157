"""Exact analyses of an edition: solo optimum and plan, conversion rates, engines' sustained output, stalls."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Iterator

from .deadend import DeadEnds
from .model import PocketFoundry
from .solver import PlanStep, Solver, pareto_runs
from .tables import EMPTY, Tables, apply_effect, tables_for


def opening_markets(t: Tables) -> Iterator[tuple[tuple[int, ...], Fraction]]:
    """Yield every possible opening market (count per type) with its exact probability."""
    size = min(t.market_size, t.total_cards)
    total = comb(t.total_cards, size)

    def split(m: int, left: int) -> Iterator[tuple[int, ...]]:
        if m == t.n_types:
            if left == 0:
                yield ()
            return
        for c in range(min(left, t.copies[m]) + 1):
            for rest in split(m + 1, left - c):
                yield (c, *rest)

    for counts in split(0, size):
        ways = 1
        for c, k in zip(t.copies, counts):
            ways *= comb(c, k)
        yield counts, Fraction(ways, total)


def _mask(counts: tuple[int, ...]) -> int:
    return sum(1 << m for m, c in enumerate(counts) if c)


def opening_stall_probability(model: PocketFoundry) -> Fraction:
    """Return the exact chance that the opening market leaves nobody able to ever build."""
    t = tables_for(model)
    dead = DeadEnds(t)
    return sum((p for counts, p in opening_markets(t)
                if not dead.can_ever_build(0, t.start_res, _mask(counts))), Fraction(0))


def opening_no_first_build_probability(model: PocketFoundry) -> Fraction:
    """Return the exact chance that no opening card is affordable with the starting resources."""
    t = tables_for(model)
    return sum((p for counts, p in opening_markets(t)
                if not any(c and t.build_next[m][t.start_res] >= 0 for m, c in enumerate(counts))), Fraction(0))


@dataclass(frozen=True)
class SoloResult:
    """The solo optimum over a horizon, with one plan that reaches it."""

    turns: int
    best: int
    plan: tuple[PlanStep, ...]
    by_horizon: tuple[int, ...]  # best for 1..turns turns


def solo_optimum(model: PocketFoundry, turns: int | None = None, without: int | None = None) -> SoloResult:
    """Return the most points one player can score alone if every type (except `without`) were always there."""
    t = tables_for(model)
    turns = t.laps if turns is None else turns
    allowed = [m for m in range(t.n_types) if m != without]
    solver = Solver(t, allowed)
    solver.layer(turns)
    by = tuple(solver.value(k, 0, t.start_res) for k in range(1, turns + 1))
    plan = tuple(solver.plan(turns, 0, t.start_res)) if turns else ()
    return SoloResult(turns, solver.value(turns, 0, t.start_res), plan, by)


@dataclass(frozen=True)
class Chain:
    """A sequence of machines run left to right, from the smallest purse that lets every one of them run."""

    machines: tuple[int, ...]
    needs: tuple[int, ...]  # smallest starting purse (stored resources)
    leaves: tuple[int, ...]  # purse afterwards
    points: int


def chains(t: Tables, length: int) -> list[Chain]:
    """Return every chain of `length` market machines in which each machine after the first pays only with
    resources an earlier machine in the chain gains, and that runs whole from some purse."""
    out = []
    for seq in itertools.product(range(t.n_types), repeat=length):
        if not _connected(t, seq):
            continue
        need = _smallest_purse(t, seq)
        if need is None:
            continue
        values, pts = need, 0
        for m in seq:
            pay, gain, p = t.effects[m]
            values = apply_effect(values, pay, gain, p, t.caps).after
            pts += p
        out.append(Chain(seq, need, values, pts))
    return out


def _connected(t: Tables, seq) -> bool:
    made: set[int] = set()
    for k, m in enumerate(seq):
        pay, gain, _ = t.effects[m]
        if k and not any(pay) :
            return False  # a free machine gains nothing from the machines before it: not a chain
        if k and any(p and i not in made for i, p in enumerate(pay)):
            return False
        made |= {i for i, g in enumerate(gain) if g}
    return True


def _smallest_purse(t: Tables, seq) -> tuple[int, ...] | None:
    """Return the purse with the least total that runs every machine of `seq` in order, or None."""
    best = None
    for values in sorted(t.values, key=lambda v: (sum(v), v)):
        current = values
        for m in seq:
            pay, gain, p = t.effects[m]
            step = apply_effect(current, pay, gain, p, t.caps)
            if step is None:
                break
            current = step.after
        else:
            best = values
            break
    return best


def sustained_rate(t: Tables, row: int) -> Fraction:
    """Return the most points per run a fixed row can sustain forever (Karp's maximum mean cycle)."""
    nr = t.n_res
    runs = pareto_runs(t)
    edges = [[(s % nr, p) for p, s in runs[row * nr + r]] for r in range(nr)]
    neg = float("-inf")
    d = [[0] * nr]  # d[k][v]: best points of a walk of exactly k runs ending at purse v, from any purse
    for k in range(1, nr + 1):
        prev = d[-1]
        cur = [neg] * nr
        for u in range(nr):
            pu = prev[u]
            if pu == neg:
                continue
            for v, p in edges[u]:
                if pu + p > cur[v]:
                    cur[v] = pu + p
        d.append(cur)
    best = None
    for v in range(nr):
        if d[nr][v] == neg:
            continue
        worst = min(Fraction(d[nr][v] - d[k][v], nr - k) for k in range(nr) if d[k][v] != neg)
        if best is None or worst > best:
            best = worst
    return best if best is not None else Fraction(0)


def best_rows(t: Tables, top: int = 10) -> list[tuple[Fraction, int]]:
    """Return the rows (every slot filled) with the highest sustained points per run, best first."""
    rated = [(sustained_rate(t, row), row) for row in range(t.n_rows) if EMPTY not in t.row_slots(row)]
    rated.sort(key=lambda fr: (-fr[0], fr[1]))
    return rated[:top]
