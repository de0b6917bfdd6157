"""Exact solo planning: the most points one player can still make, by dynamic programming over every position.

`V[k][row, purse]` is the best number of points a player can add in k more turns of their own, if every
type in `allowed` could be bought whenever they choose to build. The recursion looks at every legal build
(any allowed type into any slot) and every legal run, so it is an exhaustive search with memoisation:
`V[12][start]` is the exact solo optimum. Two facts keep it small and exact:

- more FEED or PARTS never hurts (any run or build affordable with less is affordable with more, and
  the caps are monotone), so among runs ending with the same purse only the most points matter, and a
  run whose result is dominated in every resource and in points is dropped;
- rebuilding a slot with the type already in it only spends resources, so it is never better than
  skipping every slot.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from operator import add

from .tables import Tables


@dataclass(frozen=True)
class PlanStep:
    """One turn of an optimal plan."""

    turn: int  # 1-based
    action: int
    row: int  # row code before the turn
    res: int  # purse before the turn
    points: int  # points gained this turn
    total: int  # points after the turn


class Solver:
    """Value tables for one set of buildable types, filled lazily up to the horizon asked for."""

    def __init__(self, tables: Tables, allowed: Iterable[int] | None = None):
        self.t = tables
        self.allowed = tuple(sorted(set(range(tables.n_types) if allowed is None else allowed)))
        self.n_states = tables.n_rows * tables.n_res
        self._gains: list[tuple[int, ...]] = []  # per state: points gained by each candidate move
        self._next: list[tuple[int, ...]] | None = None  # per state: the state each candidate leads to
        self.values: list[list[int]] = [[0] * self.n_states]

    def value(self, k: int, row: int, res: int) -> int:
        """Return the most points that can be added in `k` more turns from (row, purse)."""
        return self.layer(k)[row * self.t.n_res + res]

    def layer(self, k: int) -> list[int]:
        """Return V[k] over every state index row·R + purse, computing missing layers."""
        if self._next is None:
            self._transitions()
        gains, nexts = self._gains, self._next
        assert nexts is not None  # _transitions set it
        while len(self.values) <= k:
            get = self.values[-1].__getitem__
            # One candidate per legal build or undominated run: points now plus the value one turn later.
            self.values.append([max(map(add, g, map(get, n))) for g, n in zip(gains, nexts)])
        return self.values[k]

    def _transitions(self) -> None:
        t = self.t
        nr = t.n_res
        runs = pareto_runs(t)
        gains: list[tuple[int, ...]] = []
        nexts: list[tuple[int, ...]] = []
        slot_range = range(2, t.slots + 1)
        by_type = [(m, t.build_next[m], [t.row_mult[slot - 2] for slot in slot_range]) for m in self.allowed]
        for row in range(t.n_rows):
            slots = t.row_slots(row)
            for res in range(nr):
                s = row * nr + res
                out = [i for _, i in runs[s]]
                pts = [p for p, _ in runs[s]]
                for m, after, mults in by_type:
                    nxt = after[res]
                    if nxt < 0:
                        continue
                    for j, mult in enumerate(mults):
                        if slots[j] != m:  # rebuilding the same type never helps
                            out.append((row + (m - slots[j]) * mult) * nr + nxt)
                gains.append(tuple(pts + [0] * (len(out) - len(pts))))
                nexts.append(tuple(out))
        self._gains, self._next = gains, nexts

    def plan(self, k: int, row: int, res: int) -> list[PlanStep]:
        """Return one optimal plan of k turns from (row, purse). Where several moves reach the optimum, it
        prefers a build (first in action order), then the run that keeps the most resources and runs the
        most slots, so that plans read naturally."""
        t = self.t
        nr = t.n_res
        steps: list[PlanStep] = []
        total = 0
        for turn in range(1, k + 1):
            left = k - turn + 1
            target, prev = self.value(left, row, res), self.layer(left - 1)
            options = [
                (t.build_action(m, slot), t.with_slot(row, slot, m), t.build_next[m][res], 0)
                for m in self.allowed
                if t.build_next[m][res] >= 0
                for slot in range(2, t.slots + 1)
            ]
            options += [(a, row, r, p) for a, r, p in t.runs(row, res)]
            best = [o for o in options if o[3] + prev[o[1] * nr + o[2]] == target]
            action, row2, res2, gained = min(
                best,
                key=lambda o: (
                    o[0] >= t.n_build_actions,
                    -sum(t.values[o[2]]),
                    -bin(o[0] - t.n_build_actions).count("1"),
                    o[0],
                ),
            )
            total += gained
            steps.append(PlanStep(turn, action, row, res, gained, total))
            row, res = row2, res2
        return steps


def pareto_runs(t: Tables) -> list[tuple[tuple[int, int], ...]]:
    """Return, per state row·R + purse, the undominated run results as (points, next state); built once."""
    return t.shared("pareto-runs", lambda: _pareto_runs(t))


def _pareto_runs(t: Tables) -> list[tuple[tuple[int, int], ...]]:
    nr = t.n_res
    # below[r] has bit r2 set when purse r2 holds no more of any resource than purse r.
    below = [
        sum(1 << r2 for r2 in range(nr) if all(a <= b for a, b in zip(t.values[r2], t.values[r]))) for r in range(nr)
    ]
    out = []
    for row in range(t.n_rows):
        for res in range(nr):
            best: dict[int, int] = {}
            for _, r, p in t.runs(row, res):
                if best.get(r, -1) < p:
                    best[r] = p
            kept: list[tuple[int, int]] = []
            for r, p in sorted(best.items(), key=lambda rp: -rp[1]):
                if not any(q >= p and below[r2] >> r & 1 for q, r2 in kept):
                    kept.append((p, r))
            out.append(tuple((p, row * nr + r) for p, r in kept))
    return out
