"""The rulebook's worked examples as data (scenarios.yaml), replayed by the engine against the printed results."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...sdk import GameDir, KeyPath, Report, Source, did_you_mean, format_path
from .engine import Game
from .model import PocketFoundry
from .tables import EMPTY, Tables
from .trace import RAN, RunTrace, SlotStep, trace_run

SCENARIOS_FILE = "scenarios.yaml"


@dataclass(frozen=True)
class Scenario:
    """One worked example: a row, a starting purse, the slots skipped on purpose, and what is expected."""

    index: int
    id: str
    row: int  # row code of slots 2..S
    start: int  # resource code
    skip: frozenset[int]
    expect: dict[str, Any]


def parse_row(model: PocketFoundry, t: Tables, names: Sequence[str | None]) -> tuple[int | None, list[tuple[int, str]]]:
    """Return the row code for machine names in slots 1..S, and (slot index, problem) for each bad entry.

    Slot 1 must name the starter; later slots name market machines (by id or as printed) or are empty (None, `-`
    or `empty`).
    """
    problems: list[tuple[int, str]] = []
    if len(names) > t.slots:
        problems.append((t.slots, f"a row has {t.slots} slots, not {len(names)}"))
        return None, problems
    first = model.find(names[0] or "")
    if first is None and names[0]:
        hint = did_you_mean(names[0], [model.starter.id, model.starter.name])
        problems.append((0, f"unknown machine '{names[0]}'" + (f"; {hint}" if hint else "")))
    elif first is None or not first.is_starter:
        problems.append((0, f"slot 1 always holds the {model.starter.name}"))
    slots = []
    for i, name in enumerate(names[1:], start=1):
        if name is None or name.strip().casefold() in ("-", "empty", ""):
            slots.append(EMPTY)
            continue
        found = model.find(name)
        if found is None:
            hint = model.nearest(name)
            problems.append((i, f"unknown machine '{name}'" + (f"; {hint}" if hint else "")))
            slots.append(EMPTY)
        elif found.is_starter:
            problems.append((i, f"the {model.starter.name} only ever sits in slot 1"))
            slots.append(EMPTY)
        else:
            slots.append(found.index)
    slots += [EMPTY] * (t.build_slots - len(slots))
    return (None if problems else t.row_code(slots)), problems


def load_scenarios(game: GameDir, model: PocketFoundry, t: Tables, report: Report) -> list[Scenario]:
    """Load scenarios.yaml (if present) and resolve its machine names; report every problem, located."""
    if game.find(SCENARIOS_FILE) is None:
        return []
    before = len(report.errors)
    source = game.load(SCENARIOS_FILE, "pocket-foundry-scenarios", report)
    if len(report.errors) > before or not isinstance(source.data, dict):
        return []
    out = []
    for i, data in enumerate(source.data["scenarios"]):
        path = ("scenarios", i)
        row, problems = parse_row(model, t, data["row"])
        for slot, problem in problems:
            code = "S005" if problem.startswith("unknown machine") else "PF010"
            message, _, hint = problem.partition("; ")
            report.error(
                code,
                message,
                path=format_path(path + ("row", slot)),
                loc=source.loc(path + ("row", slot)),
                hint=hint or None,
            )
        start = _purse(t, data["start"], source, path + ("start",), report)
        for k, slot in enumerate(data.get("skip", [])):
            if slot > t.slots:
                report.error(
                    "PF010",
                    f"there is no slot {slot}",
                    path=format_path(path + ("skip", k)),
                    loc=source.loc(path + ("skip", k)),
                )
        if row is not None and start is not None:
            out.append(Scenario(i, data["id"], row, start, frozenset(data.get("skip", [])), data["expect"]))
    return out


def _purse(t: Tables, amounts: dict[str, int], source: Source, path: KeyPath, report: Report) -> int | None:
    values = [0] * len(t.stored)
    ok = True
    for rid, n in amounts.items():
        where = path + (rid,)
        if rid not in t.stored:
            hint = did_you_mean(rid, t.stored) or f"a run starts from stored resources: {', '.join(t.stored)}"
            report.error(
                "S005",
                f"'{rid}' is not a stored resource",
                path=format_path(where),
                loc=source.loc(where, key=True),
                hint=hint,
            )
            ok = False
        elif n > t.caps[t.stored.index(rid)]:
            report.error(
                "PF010",
                f"{n} {rid} is above the cap of {t.caps[t.stored.index(rid)]}",
                path=format_path(where),
                loc=source.loc(where),
            )
            ok = False
        else:
            values[t.stored.index(rid)] = n
    return t.encode(values) if ok else None


def replay(t: Tables, scenario: Scenario) -> RunTrace:
    """Run the scenario's row from its purse, every slot except the skipped ones, and check the engine agrees."""
    trace = trace_run(t, scenario.row, scenario.start, set(range(1, t.slots + 1)) - scenario.skip)
    state = Game(t.model, t.model.players[0]).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    p = state.current_player()
    state.row[p], state.res[p] = scenario.row, scenario.start
    state.apply_action(t.run_action(trace.mask))
    if (state.res[p], state.pts[p] - t.score_start) != (t.encode(trace.end), trace.points):
        raise AssertionError(f"engine and trace disagree on scenario {scenario.id}")  # a bug, not a data error
    return trace


def check_scenario(t: Tables, scenario: Scenario, source: Source, machines: Source, report: Report) -> None:
    """Replay one scenario and report every printed number the engine does not reproduce."""
    trace = replay(t, scenario)
    path = ("scenarios", scenario.index, "expect")
    expect = scenario.expect
    running = 0
    by_slot = {s.slot: s for s in trace.steps}
    points_after = {}
    step: SlotStep | None
    for step in trace.steps:
        running += step.result.points if step.result else 0
        points_after[step.slot] = running
    for k, want in enumerate(expect.get("steps", [])):
        step = by_slot.get(want["slot"])
        where = path + ("steps", k)
        if step is None:
            report.error(
                "PF010",
                f"there is no slot {want['slot']}",
                path=format_path(where + ("slot",)),
                loc=source.loc(where + ("slot",)),
            )
            continue
        name = _name(t, step.machine)
        hint = _machine_hint(t, step.machine, machines)
        if "status" in want and want["status"] != step.status:
            report.error(
                "PF008",
                f"scenario '{scenario.id}': slot {step.slot} ({name}) {_status(step.status)}, "
                f"but the rulebook says it {_status(want['status'])}",
                path=format_path(where + ("status",)),
                loc=source.loc(where + ("status",)),
                hint=hint,
            )
        for field in ("paid", "gained", "discarded", "after"):
            if field not in want:
                continue
            got = _amounts(t, step, field, points_after[step.slot])
            for rid, n in want[field].items():
                if got.get(rid, 0) != n:
                    report.error(
                        "PF008",
                        f"scenario '{scenario.id}': slot {step.slot} ({name}) {field} {got.get(rid, 0)} "
                        f"{rid}, but the rulebook prints {n}",
                        path=format_path(where + (field, rid)),
                        loc=source.loc(where + (field, rid)),
                        hint=hint,
                    )
    end = dict(zip(t.stored, trace.end))
    end[t.score] = trace.points
    for rid, n in expect.get("end", {}).items():
        if end.get(rid, 0) != n:
            report.error(
                "PF008",
                f"scenario '{scenario.id}' ends with {end.get(rid, 0)} {rid}, but the rulebook prints {n}",
                path=format_path(path + ("end", rid)),
                loc=source.loc(path + ("end", rid)),
                hint="replay it with `cardpress explain` to see every step",
            )


def _amounts(t: Tables, step: SlotStep, field: str, points: int) -> dict[str, int]:
    """Return what a step paid, gained, discarded or held afterwards, by resource id (points included)."""
    r = step.result
    if field == "after":
        values = r.after if r else step.before
        out = dict(zip(t.stored, values))
        out[t.score] = points
        return out
    if r is None:
        return {}
    out = dict(zip(t.stored, getattr(r, field)))
    if field == "gained":
        out[t.score] = r.points
    return out


def _status(status: str) -> str:
    return {RAN: "ran", "skipped": "was skipped", "cannot pay": "could not pay", "empty": "is empty"}[status]


def _name(t: Tables, machine: int) -> str:
    if machine == EMPTY:
        return "empty"
    return t.starter.name if machine == t.starter_index else t.names[machine]


def _machine_hint(t: Tables, machine: int, machines: Source) -> str | None:
    if machine == EMPTY:
        return None
    key = ("starter", "run") if machine == t.starter_index else ("machines", machine, "run")
    loc = machines.loc(key)
    return f"{_name(t, machine)}'s RUN effect is at {loc.file}:{loc.line}"
