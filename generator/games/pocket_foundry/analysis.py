"""Exact analyses of an edition: solo optimum and plan, conversion rates, engines' sustained output, stalls."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from ...sdk import Document, Section, Table, parallel_map
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
    return sum(
        (p for counts, p in opening_markets(t) if not dead.can_ever_build(0, t.start_res, _mask(counts))), Fraction(0)
    )


def opening_no_first_build_probability(model: PocketFoundry) -> Fraction:
    """Return the exact chance that no opening card is affordable with the starting resources."""
    t = tables_for(model)
    return sum(
        (
            p
            for counts, p in opening_markets(t)
            if not any(c and t.build_next[m][t.start_res] >= 0 for m, c in enumerate(counts))
        ),
        Fraction(0),
    )


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
            result = apply_effect(values, pay, gain, p, t.caps)
            assert result is not None  # _smallest_purse found a purse that runs every machine of seq
            values = result.after
            pts += p
        out.append(Chain(seq, need, values, pts))
    return out


def _connected(t: Tables, seq: Sequence[int]) -> bool:
    made: set[int] = set()
    for k, m in enumerate(seq):
        pay, gain, _ = t.effects[m]
        if k and not any(pay):
            return False  # a free machine gains nothing from the machines before it: not a chain
        if k and any(p and i not in made for i, p in enumerate(pay)):
            return False
        made |= {i for i, g in enumerate(gain) if g}
    return True


def _smallest_purse(t: Tables, seq: Sequence[int]) -> tuple[int, ...] | None:
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
    d: list[list[float]]  # -inf marks a purse no walk reaches; every other entry is a whole number
    d = [[0] * nr]  # d[k][v]: best points of a walk of exactly k runs ending at purse v, from any purse
    for _k in range(1, nr + 1):
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
        worst = min(Fraction(int(d[nr][v] - d[k][v]), nr - k) for k in range(nr) if d[k][v] != neg)
        if best is None or worst > best:
            best = worst
    return best if best is not None else Fraction(0)


# -- the report -----------------------------------------------------------------------------------------


def report(model: PocketFoundry, turns: int | None = None, restricted: bool = True, jobs: int = 1) -> Document:
    """Return every exact analysis as a report document (`jobs` processes share the restricted searches)."""
    t = tables_for(model)
    turns = t.laps if turns is None else turns
    sections = [_solo_section(model, t, turns)]
    if restricted:
        sections.append(_without_section(model, t, turns, sections[0].data["best"], jobs))
    sections += [_machines_section(t), _chains_section(t), _rows_section(t), _opening_section(model, t)]
    meta = {"game": model.title, "edition": model.edition, "turns per player": turns}
    intro = ["Exact results: every number below comes from exhaustive search or exact enumeration, not sampling."]
    return Document(f"{model.title}: exact analyses", meta, sections, intro)


def describe_action(t: Tables, action: int, res: int, row: int) -> str:
    """Return `build Sort Scoop in slot 2 (pay 2 FEED)` or `run slots 1,2,3`."""
    if action < t.n_build_actions:
        m, slot = t.decode_build(action)
        cost = " and ".join(
            f"{v} {t.model.rules.resource(rid).noun(v)}" for rid, v in zip(t.stored, t.build_cost[m]) if v
        )
        old = t.row_slots(row)[slot - 2]
        replaced = f", replacing {t.names[old]}" if old != EMPTY else ""
        return f"build {t.names[m]} in slot {slot} (pay {cost}{replaced})"
    mask = action - t.n_build_actions
    chosen = [str(i + 1) for i in range(t.slots) if mask >> i & 1]
    return f"run slot{'s' if len(chosen) != 1 else ''} {', '.join(chosen)}" if chosen else "run no slot"


def _solo_section(model: PocketFoundry, t: Tables, turns: int) -> Section:
    solo = solo_optimum(model, turns)
    rows = [
        [s.turn, describe_action(t, s.action, s.res, s.row), t.describe_res(s.res), s.points, s.total]
        for s in solo.plan
    ]
    built = [t.decode_build(s.action)[0] for s in solo.plan if s.action < t.n_build_actions]
    over = [t.names[m] for m in set(built) if built.count(m) > t.copies[m]]
    text = [
        f"Alone, with every machine always in the market, the most points one player can score in {turns} "
        f"turns is **{solo.best}** (exhaustive search over every build and every choice of skips). One plan "
        "that reaches it:",
        "The plan builds "
        + (", ".join(t.names[m] for m in built) or "nothing")
        + (
            f"; it needs more copies of {', '.join(over)} than the deck has."
            if over
            else "; it never needs more copies than the deck has."
        ),
    ]
    by = ", ".join(f"{k}: {v}" for k, v in enumerate(solo.by_horizon, start=1))
    text.append(f"Best score by number of turns — {by}.")
    table = Table(["Turn", "Action", "Purse before", "Points", "Total"], rows)
    return Section(
        "Best solo score",
        "solo",
        text,
        [table],
        {
            "turns": turns,
            "best": solo.best,
            "by_turns": list(solo.by_horizon),
            "plan": [
                {
                    "turn": s.turn,
                    "action": describe_action(t, s.action, s.res, s.row),
                    "purse": dict(zip(t.stored, t.values[s.res])),
                    "points": s.points,
                    "total": s.total,
                }
                for s in solo.plan
            ],
        },
    )


def _best_without(args: tuple[PocketFoundry, int, int]) -> int:
    model, turns, m = args
    return solo_optimum(model, turns, without=m).best


def _without_section(model: PocketFoundry, t: Tables, turns: int, best: int, jobs: int) -> Section:
    tasks = [(model, turns, m) for m in range(t.n_types)]
    values = parallel_map(_best_without, tasks, jobs, "searches without one machine", "searches")
    rows, data = [], []
    for _m, (name, value) in enumerate(zip(t.names, values)):
        rows.append([name, value, f"{value - best:+d}"])
        data.append({"machine": name, "best_without": value, "change": value - best})
    text = ["The same search with one machine type removed from the game: how much the best plan depends on it."]
    return Section(
        "Best solo score without each machine",
        "without",
        text,
        [Table(["Machine removed", "Best score", "Change"], rows)],
        data,
    )


def _machines_section(t: Tables) -> Section:
    rules = t.model.rules
    rows, data = [], []
    for m in [*range(t.n_types), t.starter_index]:
        machine = t.model.starter if m == t.starter_index else t.machines[m]
        pay, gain, pts = t.effects[m]
        spent = sum(pay)
        rate = ""
        if spent and len([v for v in pay if v]) == 1:
            unit = rules.resource(t.stored[[i for i, v in enumerate(pay) if v][0]]).singular
            made = [(g / spent, rules.resource(r)) for r, g in zip(t.stored, gain) if g]
            if pts:
                made.append((pts / spent, rules.resource(t.score)))
            rate = ", ".join(f"{x:.2g} {r.singular if x == 1 else r.plural}" for x, r in made) + f" per {unit}"
        cost = _words(t, t.build_cost[m]) if m != t.starter_index else "(starter)"
        rows.append([machine.name, cost, _words(t, pay) or "–", _words(t, gain, pts), rate or "free"])
        data.append(
            {
                "machine": machine.name,
                "build_cost": dict(zip(t.stored, t.build_cost[m])) if m < t.n_types else None,
                "pay": dict(zip(t.stored, pay)),
                "gain": {**dict(zip(t.stored, gain)), t.score: pts},
            }
        )
    return Section(
        "Conversion rates of each machine",
        "machines",
        ["What one run of each machine turns into what."],
        [Table(["Machine", "Build cost", "Run pays", "Run gains", "Rate"], rows)],
        data,
    )


def _chains_section(t: Tables) -> Section:
    tables, data = [], {}
    for length in (2, 3):
        found = [c for c in chains(t, length) if c.points]
        found.sort(key=lambda c: (-c.points, sum(c.needs), -sum(c.leaves), c.machines))
        rows = [
            [
                " → ".join(t.names[m] for m in c.machines),
                _words(t, c.needs) or "nothing",
                _words(t, c.leaves) or "nothing",
                c.points,
            ]
            for c in found[:12]
        ]
        data[str(length)] = [
            {
                "chain": [t.names[m] for m in c.machines],
                "needs": dict(zip(t.stored, c.needs)),
                "leaves": dict(zip(t.stored, c.leaves)),
                "points": c.points,
            }
            for c in found
        ]
        tables.append(
            Table(
                ["Chain (left to right)", "Needs in store", "Leaves", "Points"],
                rows,
                caption=f"Chains of {length} machines that score: the best {len(rows)} of {len(found)}",
            )
        )
    text = [
        "A chain is machines in slot order where each one after the first pays only with what an earlier one "
        "in the chain gained. *Needs* is the smallest store that runs the whole chain once (caps applied); "
        "a chain that needs nothing runs on its own every turn."
    ]
    return Section("Chains of machines", "chains", text, tables, data)


def _rows_section(t: Tables) -> Section:
    rated = [(sustained_rate(t, row), row) for row in range(t.n_rows) if EMPTY not in t.row_slots(row)]
    groups: dict[tuple[int, ...], list[Fraction]] = {}
    for rate, row in rated:
        groups.setdefault(tuple(sorted(t.row_slots(row))), []).append(rate)
    ranked = sorted(groups.items(), key=lambda kv: (-max(kv[1]), min(kv[1]) != max(kv[1]), kv[0]))[:12]
    rows, data = [], []
    for machines, rates in ranked:
        best, worst = max(rates), min(rates)
        cost = tuple(sum(t.build_cost[m][i] for m in machines) for i in range(len(t.stored)))
        order = "any order" if best == worst else f"{float(worst):.2f} in the worst order"
        rows.append([" + ".join(t.names[m] for m in machines), f"{float(best):.2f}", order, _words(t, cost)])
        data.append(
            {
                "machines": [t.names[m] for m in machines],
                "points_per_run": float(best),
                "exact": str(best),
                "worst_order": float(worst),
            }
        )
    text = [
        "The most points per run that a full row (the Starter Feeder, then three machines) sustains forever, "
        "from its best cycle of purses (exact: maximum mean cycle over every purse and every choice of skips). "
        "Stored resources carry over from run to run, so once running, the order of the slots often stops "
        "mattering."
    ]
    return Section(
        "Engines: points per run, sustained",
        "engines",
        text,
        [Table(["Machines in slots 2–4", "Points per run", "Order", "Build costs"], rows)],
        data,
    )


def _opening_section(model: PocketFoundry, t: Tables) -> Section:
    stall = opening_stall_probability(model)
    first = opening_no_first_build_probability(model)
    markets = list(opening_markets(t))
    stuck = [counts for counts, p in markets if not DeadEnds(t).can_ever_build(0, t.start_res, _mask(counts))]
    affordable = [t.names[m] for m in range(t.n_types) if t.build_next[m][t.start_res] >= 0]
    text = [
        f"Every player starts with {t.describe_res(t.start_res)} and only the {t.starter.name}. The chance that "
        f"the opening market of {t.market_size} leaves **nobody able to ever build** is **{stall}** "
        f"= {float(stall):.2%}: then the market never refills and nobody ever scores, so every game like that is "
        "a shared win at 0 points, at every player count.",
        f"The chance that nobody can build on the first turn is {first} = {float(first):.2%}. Affordable at the "
        f"start: {', '.join(affordable)}; {len(stuck)} of the {len(markets)} possible opening markets are stuck.",
    ]
    return Section(
        "Opening market",
        "opening",
        text,
        [],
        {
            "stuck_probability": float(stall),
            "stuck_fraction": str(stall),
            "no_first_build_probability": float(first),
            "stuck_markets": len(stuck),
            "markets": len(markets),
        },
    )


def _words(t: Tables, values: Sequence[int], points: int = 0) -> str:
    rules = t.model.rules
    words = [f"{v} {rules.resource(rid).noun(v)}" for rid, v in zip(t.stored, values) if v]
    if points:
        words.append(f"{points} {rules.resource(t.score).noun(points)}")
    return " and ".join(words)
