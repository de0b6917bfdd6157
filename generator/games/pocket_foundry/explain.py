"""`cardpress explain`: one run of a row, told slot by slot as the rulebook's worked example tells it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...sdk import CardpressError, Report, did_you_mean
from . import textparse
from .model import PocketFoundry
from .scenarios import parse_row
from .tables import EMPTY, Tables, tables_for
from .trace import CANNOT_PAY, RAN, SKIPPED, RunTrace, best_run, mask_slots, trace_run


@dataclass(frozen=True)
class Explanation:
    """A traced run, how its skips were chosen, and the other runs worth considering."""

    tables: Tables
    row: int
    start: int
    trace: RunTrace
    chosen: str  # "best" or "given"
    alternatives: tuple[RunTrace, ...]


def read_row(model: PocketFoundry, t: Tables, names: list[str], report: Report) -> int | None:
    """Return the row code for names in slots 1..S (the starter may be left out); report any bad name."""
    names = [n.strip() for n in names]
    starter = model.find(names[0]) if names else None
    if not names or (not (starter and starter.is_starter) and len(names) < t.slots):
        names = [model.starter.name, *names]  # slot 1 always holds the starter, so it may go unsaid
    row, problems = parse_row(model, t, names)
    for slot, problem in problems:
        message, _, hint = problem.partition("; ")
        code = "S005" if message.startswith("unknown machine") else "PF010"
        report.error(code, f"slot {slot + 1}: {message}", hint=hint or None)
    return row


def read_start(model: PocketFoundry, t: Tables, items: list[str], report: Report) -> int:
    """Return the purse from items like `feed=3` or `3 FEED`; unnamed resources start as the rules say."""
    values = list(t.values[t.start_res])
    for item in items:
        try:
            if "=" in item:
                rid, _, count = item.partition("=")
                amounts = {rid.strip().casefold(): textparse.number(count, model.rules.words)}
            else:
                amounts = textparse.amounts(model.rules, item)
        except textparse.TextError as exc:
            report.error("U004", f"--start {item!r}: {exc}", hint="write e.g. --start feed=3 or --start '3 FEED'")
            continue
        for rid, n in amounts.items():
            if rid not in t.stored:
                report.error(
                    "S005",
                    f"--start {item!r}: '{rid}' is not a stored resource",
                    hint=did_you_mean(rid, t.stored) or f"stored resources: {', '.join(t.stored)}",
                )
            elif n > t.caps[t.stored.index(rid)]:
                report.error("PF010", f"--start {item!r}: {n} is above the {rid} cap of {t.caps[t.stored.index(rid)]}")
            else:
                values[t.stored.index(rid)] = n
    return t.encode(values)


def explain(model: PocketFoundry, names: list[str], start: list[str], skips: list[int] | None) -> Explanation:
    """Trace one run: the given skips, or by default the best ones (see `trace.best_run`)."""
    t = tables_for(model)
    report = Report()
    row = read_row(model, t, names, report)
    res = read_start(model, t, start, report)
    for s in skips or ():
        if not 1 <= s <= t.slots:
            report.error("U004", f"--skip {s}: slots are numbered 1 to {t.slots}")
    if not report.ok():
        raise CardpressError(report)
    assert row is not None  # read_row reported why otherwise
    if skips:
        trace = trace_run(t, row, res, set(range(1, t.slots + 1)) - set(skips))
        return Explanation(t, row, res, trace, "given", ())
    action, _, _ = best_run(t, row, res)
    trace = trace_run(t, row, res, mask_slots(action - t.n_build_actions, t.slots))
    return Explanation(t, row, res, trace, "best", _alternatives(t, row, res, trace))


def _alternatives(t: Tables, row: int, res: int, chosen: RunTrace) -> tuple[RunTrace, ...]:
    """Return the other undominated outcomes (purse and points), each with the fewest slots run."""
    outcomes: dict[tuple[int, int], int] = {}
    for action, code, pts in t.runs(row, res):
        mask = action - t.n_build_actions
        key = (code, pts)
        if key not in outcomes or bin(mask).count("1") < bin(outcomes[key]).count("1"):
            outcomes[key] = mask
    chosen_key = (t.encode(chosen.end), chosen.points)
    keys = [k for k in outcomes if k != chosen_key]

    def dominated(k: tuple[int, int]) -> bool:
        return any(
            o != k and o[1] >= k[1] and all(a >= b for a, b in zip(t.values[o[0]], t.values[k[0]]))
            for o in [*outcomes, chosen_key]
        )

    kept = sorted((k for k in keys if not dominated(k)), key=lambda k: (-k[1], -sum(t.values[k[0]])))
    return tuple(trace_run(t, row, res, mask_slots(outcomes[k], t.slots)) for k in kept[:5])


# -- rendering ------------------------------------------------------------------------------------------


def machine_name(t: Tables, m: int) -> str:
    """Return the printed name of an effect index."""
    if m == EMPTY:
        return "(empty)"
    return t.starter.name if m == t.starter_index else t.names[m]


def purse(t: Tables, values: Sequence[int], points: int | None = None) -> str:
    """Return `3 FEED, 1 PART` (plus `+4 points` when given)."""
    rules = t.model.rules
    words = [f"{v} {rules.resource(rid).noun(v)}" for rid, v in zip(t.stored, values)]
    if points is not None:
        words.append(f"+{points} {rules.resource(t.score).noun(points)}")
    return ", ".join(words)


def amounts(t: Tables, values: Sequence[int], points: int = 0) -> str:
    """Return the non-zero amounts, e.g. `2 FEED and 1 point`."""
    rules = t.model.rules
    words = [f"{v} {rules.resource(rid).noun(v)}" for rid, v in zip(t.stored, values) if v]
    if points:
        words.append(f"{points} {rules.resource(t.score).noun(points)}")
    return " and ".join(words) if words else "nothing"


def step_lines(t: Tables, trace: RunTrace) -> list[str]:
    """Return one line per slot: what it paid, gained and discarded, or why it did nothing."""
    width = max(len(machine_name(t, s.machine)) for s in trace.steps)
    out, total = [], 0
    for s in trace.steps:
        name = machine_name(t, s.machine).ljust(width)
        head = f"Slot {s.slot}  {name}  "
        if s.status == RAN:
            r = s.result
            assert r is not None  # a slot that ran has its result
            total += r.points
            what = f"gain {amounts(t, r.gained, r.points)}"
            if any(r.paid):
                what = f"pay {amounts(t, r.paid)}, " + what
            if any(r.discarded):
                caps = ", ".join(
                    f"{c} {t.model.rules.resource(rid).label}" for rid, c, d in zip(t.stored, t.caps, r.discarded) if d
                )
                what += f", discard {amounts(t, r.discarded)} above the cap ({caps})"
            out.append(f"{head}ran: {what} → {purse(t, r.after, total)}")
        elif s.status == CANNOT_PAY:
            pay = t.effects[s.machine][0]
            out.append(f"{head}skipped: cannot pay {amounts(t, pay)} with {purse(t, s.before)}")
        elif s.status == SKIPPED:
            out.append(f"{head}skipped by choice")
        else:
            out.append(f"{head}empty: does nothing")
    return out


def render_text(e: Explanation) -> str:
    """Return the explanation as text, like the rulebook's worked example."""
    t = e.tables
    rules = t.model.rules
    row = " · ".join(f"{i + 1} {machine_name(t, m)}" for i, m in enumerate(t.row_machines(e.row)))
    caps = ", ".join(f"{c} {rules.resource(rid).label}" for rid, c in zip(t.stored, t.caps))
    how = (
        "best: the most points now; on a tie, the leftovers this row turns into the most points later"
        if e.chosen == "best"
        else "as given"
    )
    lines = [f"Row:   {row}", f"Start: {purse(t, t.values[e.start])} (caps: {caps})", f"Skips: {how}", ""]
    lines += step_lines(t, e.trace)
    end = e.trace
    score = rules.resource(t.score)
    lines += ["", f"End:   {purse(t, end.end)} and {end.points} new {score.noun(end.points)}."]
    if e.alternatives:
        lines += ["", "Other runs that are not worse in every way:"]
        for alt in e.alternatives:
            skipped = [s.slot for s in alt.steps if s.status in (SKIPPED, CANNOT_PAY)]
            label = (
                f"skip slot{'s' if len(skipped) > 1 else ''} {', '.join(map(str, skipped))}"
                if skipped
                else "run every slot"
            )
            lines.append(f"  {label}: {purse(t, alt.end)} and {alt.points} {score.noun(alt.points)}")
    return "\n".join(lines) + "\n"


def to_json(e: Explanation) -> dict[str, Any]:
    """Return the explanation as JSON-ready data."""
    t = e.tables

    def named(values: Sequence[int]) -> dict[str, int]:
        return dict(zip(t.stored, values))

    def trace_json(trace: RunTrace) -> dict[str, Any]:
        steps, total = [], 0
        for s in trace.steps:
            item: dict[str, Any] = {
                "slot": s.slot,
                "machine": machine_name(t, s.machine) if s.machine != EMPTY else None,
                "status": s.status,
                "before": named(s.before),
            }
            if s.result:
                total += s.result.points
                item.update(
                    paid=named(s.result.paid),
                    gained={**named(s.result.gained), t.score: s.result.points},
                    discarded=named(s.result.discarded),
                    after=named(s.result.after),
                    points_so_far=total,
                )
            steps.append(item)
        return {
            "skipped": [s.slot for s in trace.steps if s.status in (SKIPPED, CANNOT_PAY)],
            "steps": steps,
            "end": {**named(trace.end), t.score: trace.points},
        }

    return {
        "row": [machine_name(t, m) if m != EMPTY else None for m in t.row_machines(e.row)],
        "start": named(t.values[e.start]),
        "caps": named(t.caps),
        "choice": e.chosen,
        **trace_json(e.trace),
        "alternatives": [trace_json(a) for a in e.alternatives],
    }
