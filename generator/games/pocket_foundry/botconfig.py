"""Read scripted bots from `bots.yaml`: a closed vocabulary of build/run rules with conditions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...sdk import Diagnostic, GameDir, KeyPath, Report, Source, did_you_mean, format_path
from .model import PocketFoundry
from .tables import EMPTY, tables_for

BOTS_FILE = "bots.yaml"
FIRST_EMPTY = 0  # rule.slot value meaning "the leftmost empty slot"


@dataclass(frozen=True)
class Conditions:
    """Facts about the acting player's position that must all hold."""

    have: tuple[tuple[int, int], ...] = ()  # (stored resource index, or -1 for points; at least)
    has: tuple[int, ...] = ()  # machine types all installed
    lacks: tuple[int, ...] = ()  # machine types none installed
    slot: tuple[tuple[int, int], ...] = ()  # (slot 2..S, type or EMPTY)
    lap: tuple[int, int] | None = None
    turns_left: tuple[int, int] | None = None
    run_points: tuple[int, int] | None = None


@dataclass(frozen=True)
class Rule:
    """Build a machine, or run the row."""

    build: int | None = None  # machine type
    slot: int | None = None  # 2..S or FIRST_EMPTY
    replace: int | None = None  # build into the slot holding this type
    run: str | None = None  # "best" or "all"
    when: Conditions | None = None
    unless: Conditions | None = None


@dataclass(frozen=True)
class BotConfig:
    """A scripted bot: its rules, tried from the top."""

    name: str
    about: str
    rules: tuple[Rule, ...]


@dataclass(frozen=True)
class BotFile:
    """The scripted bots of bots.yaml that can play, and why each of the others cannot."""

    bots: dict[str, BotConfig]
    broken: dict[str, tuple[Diagnostic, ...]]  # bot name -> its problems; "" for problems of the whole file

    def problems(self) -> list[Diagnostic]:
        """Return every problem, the whole file's first."""
        return [d for name in sorted(self.broken) for d in self.broken[name]]


def read_bots(game: GameDir, model: PocketFoundry) -> BotFile:
    """Read bots.yaml bot by bot: a broken bot is set aside with its problems, so the others still play."""
    if game.find(BOTS_FILE) is None:
        return BotFile({}, {})
    report = Report()
    source = game.load(BOTS_FILE, "pocket-foundry-bots", report)
    if not isinstance(source.data, dict) or not isinstance(source.data.get("bots"), dict):
        return BotFile({}, {"": tuple(report.errors)})
    whole = tuple(d for d in report.errors if not d.path.startswith("bots."))
    bots: dict[str, BotConfig] = {}
    broken: dict[str, tuple[Diagnostic, ...]] = {"": whole} if whole else {}
    for name, data in source.data["bots"].items():
        own = tuple(d for d in report.errors if d.path == f"bots.{name}" or d.path.startswith(f"bots.{name}."))
        if own:  # its shape is wrong: reading it would only repeat the schema's complaint
            broken[name] = own
            continue
        said = Report()
        config = _Reader(model, source, said).bot(name, data)
        if said.ok():
            bots[name] = config
        else:
            broken[name] = tuple(said.errors)
    return BotFile(bots, broken)


def load_bots(game: GameDir, model: PocketFoundry, report: Report) -> dict[str, BotConfig]:
    """Load `bots.yaml` if the game has one; report every problem, located; return the bots that can play."""
    found = read_bots(game, model)
    report.extend(found.problems())
    return found.bots


class _Reader:
    """Resolve machine names, slots and resource ids, reporting each unknown one where it was written."""

    def __init__(self, model: PocketFoundry, source: Source, report: Report):
        self.model = model
        self.tables = tables_for(model)
        self.source = source
        self.report = report

    def bot(self, name: str, data: dict[str, Any]) -> BotConfig:
        rules = tuple(self.rule(("bots", name, "rules", i), r) for i, r in enumerate(data["rules"]))
        return BotConfig(name, data.get("about", ""), rules)

    def rule(self, path: KeyPath, data: dict[str, Any]) -> Rule:
        when = self.conditions(path + ("if",), data["if"]) if "if" in data else None
        unless = self.conditions(path + ("unless",), data["unless"]) if "unless" in data else None
        if "run" in data:
            return Rule(run=data["run"], when=when, unless=unless)
        machine = self.machine(path + ("build",), data["build"])
        if ("slot" in data) == ("replace" in data):
            self.report.error(
                "S002",
                "a build rule needs exactly one of 'slot' or 'replace'",
                path=format_path(path),
                loc=self.source.loc(path),
            )
        slot = data.get("slot")
        if slot == "first-empty":
            slot = FIRST_EMPTY
        elif slot is not None:
            slot = self.slot_number(path + ("slot",), slot)
        replace = self.machine(path + ("replace",), data["replace"]) if "replace" in data else None
        return Rule(build=machine, slot=slot, replace=replace, when=when, unless=unless)

    def conditions(self, path: KeyPath, data: dict[str, Any]) -> Conditions:
        t = self.tables
        have = []
        for rid, amount in data.get("have", {}).items():
            if rid == t.score:
                have.append((-1, amount))
            elif rid in t.stored:
                have.append((t.stored.index(rid), amount))
            else:
                self._unknown(path + ("have", rid), "resource", rid, [*t.stored, t.score], key=True)
        slots = []
        for key, name in data.get("slot", {}).items():
            slot = self.slot_number(path + ("slot", key), int(key), key=True)
            machine = EMPTY if str(name).casefold() == "empty" else self.machine(path + ("slot", key), name)
            slots.append((slot, machine))

        def names(field: str) -> tuple[int, ...]:
            return tuple(self.machine(path + (field, i), n) for i, n in enumerate(data.get(field, [])))

        def span(field: str) -> tuple[int, int] | None:
            r = data.get(field)
            return None if r is None else (r.get("min", 0), r.get("max", 10**6))

        return Conditions(
            tuple(have), names("has"), names("lacks"), tuple(slots), span("lap"), span("turns_left"), span("run_points")
        )

    def machine(self, path: KeyPath, name: str) -> int:
        found = self.model.find(str(name))  # by id (it survives a rename) or as printed
        if found is None or found.is_starter:
            what = "the starter cannot be built or replaced" if found else "unknown machine"
            hint = self.model.nearest(str(name)) or "name a machine by its id (e.g. small-press) or as printed"
            self.report.error("S005", f"{what} '{name}'", path=format_path(path), loc=self.source.loc(path), hint=hint)
            return EMPTY
        return found.index

    def slot_number(self, path: KeyPath, slot: int, key: bool = False) -> int:
        if not 2 <= slot <= self.tables.slots:
            self.report.error(
                "S004",
                f"slot {slot} cannot hold a built machine; use 2–{self.tables.slots}",
                path=format_path(path),
                loc=self.source.loc(path, key=key),
            )
        return slot

    def _unknown(
        self, path: KeyPath, kind: str, name: Any, choices: Sequence[str], key: bool = False, what: str = ""
    ) -> None:
        hint = did_you_mean(str(name), choices) or f"{kind}s: {', '.join(choices)}"
        self.report.error(
            "S005",
            f"{what or 'unknown ' + kind} '{name}'",
            path=format_path(path),
            loc=self.source.loc(path, key=key),
            hint=hint,
        )
