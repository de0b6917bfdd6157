"""The rules layer of `cardpress validate`: the card data, the printed text and the rulebook must agree (PF codes)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from ...sdk import GameDir, KeyPath, Report, Source, format_path
from ...sdk import rulebook as rulebook_text
from . import text, textparse
from .botconfig import load_bots
from .model import Machine, PocketFoundry
from .rulebook import BOTH, FACTS, MATERIALS, RULEBOOK, SECTION, Block, Fact, FactForm, Rulebook, where
from .scenarios import check_scenario, load_scenarios
from .tables import RulesModelError, Tables, tables_for

# Stable codes; the manual's table (docs/reference/codes.md) is made from them (`python -m generator.docs`).
CODES = {
    "PF001": "market deck counts (types, copies, total) differ from what the rulebook states or prints",
    "PF002": "a cost can never be paid: above its storage cap, or paid in points",
    "PF003": "a machine can never be built from any position a player can reach (warning)",
    "PF004": "a rules constant (cap, starting amount, slots, laps, market size) differs from the rulebook",
    "PF005": "a printed component differs from the rulebook's printed component (the first differing word is named)",
    "PF006": "printed text, hand-written or derived, does not say what the effect data says, or cannot be read",
    "PF007": "a number printed on the mat or lap record differs from the engine's constant",
    "PF008": "a rulebook scenario does not replay to its printed result",
    "PF009": "a supported player count does not divide the laps",
    "PF010": "a scenario's row or purse breaks the rules (starter not in slot 1, too many slots, above a cap)",
    "PF011": "a machine is printed in the rulebook but not in the data, or the other way round",
    "PF012": "the constants cannot make a playable game (market larger than the deck, not exactly one uncapped score)",
    "PF014": "`rulebook.txt` is missing, no sentence in it states a fact the validator reads (the sentence form is named), or one cannot be read",
}
PRINTED = {"build_cost": (text.build_cost, text.derived_build_cost), "run": (text.run, text.derived_run)}
Value = int | str | None  # a number (a cap may be None) or a printed name
Reading = tuple[Source, KeyPath, Value, Value, str]  # (file, key path, value in the data, value printed, label)


def check_rules(game: GameDir, model: PocketFoundry, report: Report) -> None:
    """Report every way the card data, its printed text, the rulebook and the rules engine disagree."""
    Checker(game, model, report).run()


class Checker:
    """One validation run over a loaded game."""

    def __init__(self, game: GameDir, model: PocketFoundry, report: Report):
        self.game = game
        self.model = model
        self.words = model.rules.words  # the language its cards and rulebook are printed in
        self.report = report
        self.g: Source = game.sources["game.yaml"]
        self.m: Source = game.sources["machines.yaml"]
        self.c: Source = game.sources["components.yaml"]
        self._said: set[tuple[str, str, str]] = set()
        self.rulebook: Rulebook | None = None  # the game's own rulebook.txt, once read
        self.found: list[Fact] = []  # the facts its sentences state

    def run(self) -> None:
        """Run every check; engine-based ones only when the data compiles into an engine."""
        rulebook = rulebook_text.read(self.game, self.report, "PF014", cls=Rulebook)
        missing: list[tuple[FactForm, int]] = []
        if isinstance(rulebook, Rulebook):
            self.rulebook = rulebook
            self.found, missing = rulebook.facts(FACTS, self.words)
        before = len(self.report.errors)
        self.constants()
        self.costs()
        tables = None
        if len(self.report.errors) == before:
            try:
                tables = tables_for(self.model)
            except RulesModelError as exc:  # every known cause is reported above; this is a safety net
                self.error("PF012", str(exc), self.g, ("rules", "resources"))
        self.texts()
        if self.rulebook is not None:
            self.unread(self.rulebook, missing)
            self.facts(self.rulebook)
            self.printed(self.rulebook)
        if tables is not None:
            for scenario in load_scenarios(self.game, self.model, tables, self.report):
                check_scenario(tables, scenario, self.game.sources["scenarios.yaml"], self.m, self.report)
            self.engine_constants(tables)
            self.never_buildable(tables)
            with self.collected(as_warnings=True, hint="`cardpress simulate` refuses to run until it is fixed"):
                load_bots(self.game, self.model, self.report)  # bots only play; they never block a kit

    def stated(self, name: str) -> Fact | None:
        """Return the first statement of a fact in the rulebook, or None."""
        return next((f for f in self.found if f.name == name), None)

    @contextmanager
    def collected(self, as_warnings: bool, hint: str | None = None) -> Iterator[None]:
        """Run checks into a side report; then pass their diagnostics on, as warnings if asked."""
        outer, self.report = self.report, Report()
        try:
            yield
        finally:
            inner, self.report = self.report, outer
            for d in inner.items:
                if as_warnings and d.severity == "error":
                    d = replace(d, severity="warning", hint=d.hint or hint)
                outer.add(d)

    # -- helpers ----------------------------------------------------------------------------------

    def error(
        self,
        code: str,
        message: str,
        source: Source,
        path: KeyPath,
        hint: str | None = None,
        key: bool = False,
        warning: bool = False,
    ) -> None:
        """Report once per (code, place, message)."""
        marker = (code, f"{source.display}:{format_path(path)}", message)
        if marker in self._said:
            return
        self._said.add(marker)
        add = self.report.warning if warning else self.report.error
        add(code, message, path=format_path(path), loc=source.loc(path, key=key), hint=hint)

    def said(self, fact: Fact | None) -> str | None:
        """Return the hint that points at where the rulebook states a fact."""
        return where(self.rulebook, fact) if fact is not None and self.rulebook is not None else None

    def machine_path(self, machine: Machine) -> KeyPath:
        """Return the key path of a machine in machines.yaml."""
        return ("starter",) if machine.is_starter else ("machines", machine.index)

    # -- the data on its own ----------------------------------------------------------------------

    def constants(self) -> None:
        """Player counts divide the laps; the market fits the deck; one uncapped score; starts within caps."""
        rules = self.model.rules
        supported = self.g.data["players"]["supported"]
        same = self.stated("same_laps")  # the promise is the rulebook's; a rulebook without it makes none
        for i, n in enumerate(supported):
            if same is not None and rules.laps % n:
                self.error(
                    "PF009",
                    f"{n} players cannot each start the same number of the {rules.laps} laps",
                    self.g,
                    ("players", "supported", i),
                    hint=self.said(same),
                )
        total = self.model.market_size_total
        if rules.market_size > total:
            self.error(
                "PF012",
                f"the market shows {rules.market_size} cards but the deck has only {total}",
                self.g,
                ("rules", "market_size"),
            )
        uncapped = [r.id for r in rules.resources if r.cap is None]
        if len(uncapped) != 1:
            self.error(
                "PF012",
                f"exactly one resource must be uncapped (the points that score); found "
                f"{len(uncapped)}: {', '.join(uncapped) or 'none'}",
                self.g,
                ("rules", "resources"),
                key=True,
            )
        for r in rules.resources:
            if r.cap is not None and r.start > r.cap:
                self.error(
                    "PF012",
                    f"players start with {r.start} {r.plural}, above the cap of {r.cap}",
                    self.g,
                    ("rules", "resources", r.id, "start"),
                )

    def costs(self) -> None:
        """Every BUILD COST and RUN payment fits under the caps and is paid in stored resources."""
        rules = self.model.rules
        for machine in (*self.model.machines, self.model.starter):
            base = self.machine_path(machine)
            for sub, pairs in ((("build_cost",), machine.build_cost), (("run", "pay"), machine.run.pay)):
                for rid, n in pairs:
                    res = rules.resource(rid)
                    path = base + sub + (rid,)
                    what = "BUILD COST" if sub == ("build_cost",) else "RUN payment"
                    if res.cap is None:
                        self.error(
                            "PF002",
                            f"{machine.name}'s {what} is paid in {res.plural}, which can only be gained",
                            self.m,
                            path,
                            key=True,
                        )
                    elif n > res.cap:
                        self.error(
                            "PF002",
                            f"{machine.name}'s {what} of {n} {res.noun(n)} can never be paid: "
                            f"players store at most {res.cap}",
                            self.m,
                            path,
                            hint=self.said(self.stated("caps")),
                        )
        if self.model.starter.build_cost:
            self.error(
                "PF002", "the starter is never bought, so it has no BUILD COST", self.m, ("starter", "build_cost")
            )

    def texts(self) -> None:
        """Every printed BUILD COST and RUN line reads back as exactly the machine's data."""
        rules = self.model.rules
        for machine in (*self.model.machines, self.model.starter):
            base = self.machine_path(machine)
            if machine.is_starter and machine.build_text:
                self.error(
                    "PF006",
                    "the starter is never bought, so it prints no BUILD COST",
                    self.m,
                    base + ("text", "build_cost"),
                )
            for field in ("run",) if machine.is_starter else ("build_cost", "run"):
                hand_written = machine.build_text if field == "build_cost" else machine.run_text
                line, derived = PRINTED[field][0](rules, machine), PRINTED[field][1](rules, machine)
                where_ = base + ("text", field) if hand_written else base + (field,)
                try:
                    readings = self.machine_readings(machine, field, line)
                except textparse.TextError as exc:
                    self.error(
                        "PF006",
                        f"cannot read '{line}': {exc}",
                        self.m,
                        where_,
                        hint=f"derived from the data it reads '{derived}'",
                    )
                    continue
                for _source, path, actual, stated, label in readings:
                    if actual != stated:
                        self.error(
                            "PF006",
                            f"the card prints '{line}', but {label} is {actual}",
                            self.m,
                            where_ if hand_written else path,
                        )

    def machine_readings(self, machine: Machine, field: str, line: str) -> list[Reading]:
        """Return a Reading for every number a BUILD COST or RUN line states (raise TextError if unreadable)."""
        rules = self.model.rules
        reminders: tuple[tuple[str, int], ...] = ()
        if field == "build_cost":
            stated: dict[tuple[str, ...], dict[str, int]] = {("build_cost",): textparse.build_cost(rules, line)}
        else:
            parsed = textparse.run(rules, line)
            stated = {("run", "pay"): parsed.pay, ("run", "gain"): parsed.gain}
            reminders = parsed.cap_reminders
        out: list[Reading] = [
            (self.g, ("rules", "resources", rid, "cap"), rules.resource(rid).cap, cap, f"the {rid} cap")
            for rid, cap in reminders
        ]
        data = {
            ("build_cost",): dict(machine.build_cost),
            ("run", "pay"): dict(machine.run.pay),
            ("run", "gain"): dict(machine.run.gain),
        }
        base = self.machine_path(machine)
        for sub, amounts in stated.items():
            for rid in [r.id for r in rules.resources if r.id in amounts or r.id in data[sub]]:
                path = base + sub + ((rid,) if rid in data[sub] else ())
                out.append(
                    (
                        self.m,
                        path,
                        data[sub].get(rid, 0),
                        amounts.get(rid, 0),
                        f"{machine.name}'s {'.'.join(sub + (rid,))}",
                    )
                )
        return out

    def engine_constants(self, t: Tables) -> None:
        """The numbers printed on the mat and lap record are the engine's constants."""
        mat = text.mat_lines(self.model)
        path = ("mat", "name")
        try:
            rules = self.model.rules
            tracks = textparse.mat_tracks(rules, " ".join(mat["tracks"]))
            slots = textparse.mat_slots(rules, " ".join(mat["slots"]))
            order = textparse.resolve_order(rules, mat["order"])
        except textparse.TextError as exc:
            self.error("PF007", f"cannot read the mat's printed text: {exc}", self.c, path)
            return
        for rid, cap, start in zip(t.stored, t.caps, t.values[t.start_res]):
            if tracks.get(rid) != (start, cap):
                self.error(
                    "PF007",
                    f"the mat prints {rid} as {tracks.get(rid)} (start, cap); the engine uses ({start}, {cap})",
                    self.c,
                    path,
                )
        if tracks.get(t.score, (None,))[0] != t.score_start:
            self.error(
                "PF007",
                f"the mat's {t.score} track starts at {tracks.get(t.score)}; the engine at {t.score_start}",
                self.c,
                path,
            )
        if [n for n, _ in slots] != list(range(1, t.slots + 1)) or order != t.slots:
            self.error(
                "PF007",
                f"the mat prints {len(slots)} slots resolved 1 to {order}; the engine has {t.slots}",
                self.c,
                path,
            )
        lap = text.lap_record_lines(self.model)
        try:
            boxes = textparse.lap_boxes(self.model.rules, lap["rows"])
            last = textparse.last_lap(self.model.rules, lap["footer"])
        except textparse.TextError as exc:
            self.error("PF007", f"cannot read the lap record's printed text: {exc}", self.c, ("lap_record", "name"))
            return
        if boxes != list(range(1, t.laps + 1)) or last != t.laps:
            self.error(
                "PF007",
                f"the lap record prints laps {boxes[:1]}…{boxes[-1:]} and stops after lap {last}; "
                f"the engine plays {t.laps}",
                self.c,
                ("lap_record", "name"),
            )

    def never_buildable(self, t: Tables) -> None:
        """Warn about machines no player can ever afford, whatever they build first."""
        for m in sorted(set(range(t.n_types)) - ever_buildable(t)):
            self.error(
                "PF003",
                f"{self.model.machines[m].name} can never be built: no row a player can assemble "
                "ever holds its BUILD COST",
                self.m,
                ("machines", m, "build_cost"),
                warning=True,
            )

    # -- the rulebook -----------------------------------------------------------------------------

    def unread(self, rulebook: Rulebook, missing: list[tuple[FactForm, int]]) -> None:
        """Report each required sentence form that no line of the rulebook reads like."""
        for form, line in missing:
            like = self.words.text(form.form, RULEBOOK) if self.words.translated else form.like
            self.report.error(
                "PF014",
                f'no sentence states {form.what}: the validator reads it from a sentence like "{like}"',
                loc=rulebook.loc(line),
                hint="keep that sentence, with your edition's numbers, so the cards are held to it",
            )

    def facts(self, rulebook: Rulebook) -> None:
        """The counts and constants the rulebook's prose states are the data's."""
        for fact in self.found:
            try:
                self.fact(fact, where(rulebook, fact))
            except textparse.TextError as exc:  # the sentence form matched, but its words say no number we know
                self.report.error(
                    "PF014",
                    f"cannot read {fact.value!r} as {next(f.what for f in FACTS if f.id == fact.name)}: {exc}",
                    loc=rulebook.loc(fact.line, fact.col),
                )

    def fact(self, fact: Fact, hint: str) -> None:
        """Hold the data to one statement of the rulebook."""
        rules = self.model.rules
        machines = self.model.machines
        if fact.name == "market_cards":
            n = textparse.number(fact.value, self.words)
            total = self.model.market_size_total
            if n != total:
                self.error(
                    "PF001",
                    f"the data has {total} market cards; the rulebook states {n}",
                    self.m,
                    ("machines",),
                    hint=hint,
                    key=True,
                )
        elif fact.name in ("copies_types", "copies"):
            if fact.name == "copies_types":
                c, n = (textparse.number(fact.parts[k], self.words) for k in ("copies", "types"))
                if len(machines) != n:
                    self.error(
                        "PF001",
                        f"the data has {len(machines)} machine types; the rulebook states {n}",
                        self.m,
                        ("machines",),
                        hint=hint,
                        key=True,
                    )
            else:
                both = self.words.text(BOTH.id, BOTH.context).casefold()
                c = 2 if fact.value.casefold() == both else textparse.number(fact.value, self.words)
            for m in machines:
                if m.copies != c:
                    self.error(
                        "PF001",
                        f"{m.name} has {m.copies} copies; the rulebook states {c} of every type",
                        self.m,
                        ("machines", m.index, "copies"),
                        hint=hint,
                    )
        elif fact.name in ("market_size", "slots", "laps", "turns", "build_slots", "slot_numbers"):
            if fact.name == "slot_numbers":  # "2, 3 or 4": every slot after the starter's
                numbers = [textparse.number(w, self.words) for w in re.split(r"\s*,\s*|\s+\w+\s+", fact.value)]
                n = max(numbers) if numbers == list(range(2, max(numbers) + 1)) else -1
                stated = fact.value if n < 0 else str(n)
            else:
                n = textparse.number(fact.value, self.words)
                stated = str(n)
            key = {"market_size": "market_size", "laps": "laps", "turns": "laps"}.get(fact.name, "slots")
            actual = getattr(rules, key)
            if n != actual:
                self.error(
                    "PF004",
                    f"rules.{key} is {actual}; the rulebook states {stated}",
                    self.g,
                    ("rules", key),
                    hint=hint,
                )
        elif fact.name in ("caps", "start"):
            amounts = textparse.amounts(rules, fact.value)
            field = "cap" if fact.name == "caps" else "start"
            for rid, n in amounts.items():
                actual = getattr(rules.resource(rid), field)
                if n != actual:
                    self.error(
                        "PF004",
                        f"{rid} {field} is {actual}; the rulebook states {n}",
                        self.g,
                        ("rules", "resources", rid, field),
                        hint=hint,
                    )
        elif fact.name == "uncapped":
            rid = textparse.resource(rules, fact.value)
            cap = rules.resource(rid).cap
            if cap is not None:
                self.error(
                    "PF004",
                    f"{rid} cap is {cap}; the rulebook states {fact.value} have no storage cap",
                    self.g,
                    ("rules", "resources", rid, "cap"),
                    hint=hint,
                )
        elif fact.name == "never_reshuffle" and rules.reshuffle:
            self.error(
                "PF004", "rules.reshuffle is true; the rulebook never reshuffles", self.g, ("rules", "reshuffle")
            )

    def printed(self, rulebook: Rulebook) -> None:
        """Every component the kit prints reads as the rulebook prints it, copy for copy."""
        model = self.model
        names = [m.name for m in model.machines]
        titles = [*names, model.starter.name, model.mat_name, model.lap_record_name, model.marker_name]
        blocks = rulebook.blocks(titles, footer=model.publisher, words=self.words)
        by_title: dict[str, list[Block]] = {}
        for b in blocks:
            by_title.setdefault(b.title, []).append(b)
        strangers: dict[str, Block] = {}  # printed, but not in the data: each title's first block
        for b in blocks:
            if b.title not in titles:
                strangers.setdefault(b.title, b)
        renamed = {}  # data title -> the rulebook block it probably is: same id, else a close name
        ids = {m.name: m.id for m in (*model.machines, model.starter)}
        for title in titles:
            if title not in by_title:
                same = [t for t in strangers if _slug(t) == ids.get(title)]
                close = same or difflib.get_close_matches(title, list(strangers), n=1, cutoff=0.75)
                if close:
                    renamed[title] = strangers.pop(close[0])
        for b in strangers.values():
            self.report.error(
                "PF011",
                f"the rulebook prints '{b.title}', which the data does not have",
                loc=rulebook.loc(b.line),
                hint="add it to machines.yaml or components.yaml, or rename the entry that should match it",
            )
        rules = model.rules
        for m in model.machines:
            copies = sorted(b.suffix for b in by_title.get(m.name, []))
            path = ("machines", m.index)
            if not copies:
                printed = [
                    line
                    for k in range(1, m.copies + 1)
                    for line in (text.title(rules, m, k), text.build_cost(rules, m), text.run(rules, m), model.reminder)
                ]
                self.missing("PF011", m.name, renamed, rulebook, self.m, path + ("name",), "card", tuple(printed))
                continue
            wanted = [_suffix(text.title(rules, m, k), m.name) for k in range(1, m.copies + 1)]
            if copies != sorted(wanted):
                self.error(
                    "PF001",
                    f"{m.name} has {m.copies} copies; the rulebook prints {len(copies)} ({', '.join(copies)})",
                    self.m,
                    path + ("copies",),
                    hint=f"first printed at {rulebook.display}:{by_title[m.name][0].line}",
                )
            lines = [
                ("build_cost", text.build_cost(rules, m)),
                ("run", text.run(rules, m)),
                ("reminder", model.reminder),
            ]
            for block in by_title[m.name]:
                self.block_lines(rulebook, block, m, lines)
        starter = by_title.get(model.starter.name)
        if starter:
            self.block_lines(
                rulebook,
                starter[0],
                model.starter,
                [("rule", text.starter_rule(model)), ("run", text.run(rules, model.starter))],
            )
        else:
            self.missing("PF011", model.starter.name, renamed, rulebook, self.m, ("starter", "name"), "card")
        mat, lap, marker = text.mat_lines(model), text.lap_record_lines(model), text.marker_lines(model)
        components = [
            (
                "mat",
                model.mat_name,
                [
                    ("player", mat["player"]),
                    ("slots", " ".join(mat["slots"])),
                    ("order", mat["order"]),
                    ("tracks", " ".join(mat["tracks"])),
                    ("turn", mat["turn"]),
                ],
            ),
            (
                "lap_record",
                model.lap_record_name,
                [("rule", lap["rule"]), *[("rows", r) for r in lap["rows"]], ("footer", lap["footer"])],
            ),
            ("marker", model.marker_name, [("rule", marker["rule"])]),
        ]
        for key, name, lines in components:
            found = by_title.get(name)
            if not found:
                self.missing("PF005", name, renamed, rulebook, self.c, (key, "name"), "component")
                continue
            self.block_lines(rulebook, found[0], key, lines)

    def block_lines(self, rulebook: Rulebook, block: Block, owner: Any, lines: list[tuple[str, str]]) -> None:
        """Compare one printed component line by line with what the kit prints."""
        for (field, ours), (lineno, theirs) in zip(lines, block.lines):
            if ours != theirs:
                self.mismatch(rulebook, block, owner, field, ours, theirs, lineno)
        if len(block.lines) < len(lines):
            field, ours = lines[len(block.lines)]
            self.report.error(
                "PF005",
                f"the rulebook's '{block.title}' has no line for the kit's '{ours}'",
                loc=rulebook.loc(block.line),
            )
        for lineno, theirs in block.lines[len(lines) :]:
            self.report.error(
                "PF005",
                f"the rulebook prints '{theirs}' under '{block.title}', which the kit does not",
                loc=rulebook.loc(lineno),
            )

    def mismatch(
        self, rulebook: Rulebook, block: Block, owner: Any, field: str, ours: str, theirs: str, lineno: int
    ) -> None:
        """Locate one differing line: at each number the rulebook's line states differently from the data, or,
        when every number agrees, at the words the kit prints."""
        hint = f'{rulebook.display}:{lineno} prints "{theirs}"'
        try:
            readings = self.read_line(block, owner, field, theirs)
        except textparse.TextError:
            readings = []
        wrong = [r for r in readings if r[2] != r[3]]
        for source, path, actual, stated, label in wrong:
            code = "PF004" if source is self.g else "PF005"
            self.error(code, f"{label} is {actual}; the rulebook prints {stated}", source, path, hint=hint)
        if wrong:
            return
        message = f"the kit prints {first_difference(ours, theirs)}"
        if isinstance(owner, Machine):
            override = {"build_cost": owner.build_text, "run": owner.run_text}.get(field)
            base = self.machine_path(owner)
            path = (
                ("reminder",)
                if field == "reminder"
                else base + ("text", field)
                if override
                else base + (field,)
                if field in ("build_cost", "run")
                else base + ("name",)
            )
            self.error("PF005", message, self.m, path, hint=hint)
        else:
            self.error("PF005", message, self.c, (owner, "name"), hint=hint)

    def read_line(self, block: Block, owner: Any, field: str, line: str) -> list[Reading]:
        """Return (source, path, data value, value the line states, label) for each number a printed line states."""
        rules = self.model.rules
        out: list[Reading] = []
        if isinstance(owner, Machine):
            hand_written = owner.build_text if field == "build_cost" else owner.run_text
            if field in PRINTED and not hand_written:  # a hand-written line is held to the data by texts()
                return self.machine_readings(owner, field, line)
            return out
        if owner == "mat" and field == "tracks":
            for rid, (start, cap) in textparse.mat_tracks(rules, line).items():
                res = rules.resource(rid)
                where_ = ("rules", "resources", rid)
                out.append((self.g, where_ + ("start",), res.start, start, f"the {rid} start"))
                out.append((self.g, where_ + ("cap",), res.cap, cap, f"the {rid} cap"))
        elif owner == "mat" and field == "slots":
            slots = textparse.mat_slots(rules, line)
            out.append((self.g, ("rules", "slots"), rules.slots, len(slots), "rules.slots"))
            out.append(
                (
                    self.m,
                    ("starter", "name"),
                    self.model.starter.name.upper(),
                    slots[0][1],
                    "the starter's name on the mat",
                )
            )
        elif owner == "mat" and field == "order":
            out.append((self.g, ("rules", "slots"), rules.slots, textparse.resolve_order(rules, line), "rules.slots"))
        elif owner == "lap_record" and field == "rows":
            rows = [text for _, text in block.lines if textparse.is_lap_row(rules, text)]
            out.append((self.g, ("rules", "laps"), rules.laps, max(textparse.lap_boxes(rules, rows)), "rules.laps"))
        elif owner == "lap_record" and field == "footer":
            out.append((self.g, ("rules", "laps"), rules.laps, textparse.last_lap(rules, line), "rules.laps"))
        return out

    def missing(
        self,
        code: str,
        name: str,
        renamed: dict[str, Block],
        rulebook: Rulebook,
        source: Source,
        path: KeyPath,
        kind: str,
        lines: tuple[str, ...] = (),
    ) -> None:
        """Report a data entry the rulebook does not print, naming the printed title it probably is (or, for a
        new entry, the lines to print for it)."""
        block = renamed.get(name)
        if block is not None:
            self.error(
                code,
                f"the rulebook prints this {kind} as '{block.title}', not '{name}'",
                source,
                path,
                hint=f'{rulebook.display}:{block.line} prints "{rulebook.lines[block.line - 1]}"',
            )
        else:
            add = (
                f"add it to the rulebook's {self.words.text(MATERIALS, SECTION)}: " + " / ".join(lines)
                if lines
                else None
            )
            self.error(code, f"the rulebook prints no {kind} named '{name}'", source, path, hint=add)


def _suffix(title: str, name: str) -> str:
    """Return what a card's printed title adds to its name, as a rulebook block's title line has it: `copy 1`."""
    return title.replace(name, "", 1).strip().removeprefix("·").strip()


def _slug(name: str) -> str:
    """Return the id a name would have: `Return Chute` -> `return-chute`."""
    return re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")


def first_difference(ours: str, theirs: str) -> str:
    """Return where two printed lines first differ, word by word: `'twice' where the rulebook has 'once'`."""
    a, b = ours.split(), theirs.split()
    k = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    if k < len(a) and k < len(b):
        return f"'{a[k]}' (word {k + 1}) where the rulebook has '{b[k]}'"
    if k < len(a):
        return f"extra words '{' '.join(a[k:])}' the rulebook does not have"
    if k < len(b):
        return f"no '{' '.join(b[k:])}' where the rulebook goes on"
    return f"'{ours}', which differs from the rulebook only in spacing"


def ever_buildable(t: Tables) -> set[int]:
    """Return the machine types some player could afford at some point, whatever the market deals.

    What a row can ever reach depends only on the set of types in it (slots can be skipped, and several
    slots in one run reach the purse those slots reach one per turn), so the search runs over sets of at
    most S−1 types, each with the purses reachable so far as a bit mask.
    """
    start: frozenset[int] = frozenset()
    reach = {start: 1 << t.start_res}
    todo = [start]
    built: set[int] = set()
    while todo and len(built) < t.n_types:  # every type built already: searching on can add none
        kinds = todo.pop()
        purses = reach[kinds] = t.closure((t.starter_index, *kinds), reach[kinds])
        for m in range(t.n_types):
            after = t.build_next[m]
            paid = 0
            for code in range(t.n_res):
                if purses >> code & 1 and after[code] >= 0:
                    paid |= 1 << after[code]
            if not paid:
                continue
            built.add(m)
            full = len(kinds) >= t.build_slots and m not in kinds
            for nxt in [kinds - {x} | {m} for x in kinds] if full else [kinds | {m}]:
                if paid & ~reach.get(nxt, 0):
                    reach[nxt] = reach.get(nxt, 0) | paid
                    todo.append(nxt)
    return built
