"""Read Micro-Engine's card files: schema, then references and vocabulary, then the model."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from ...contract import Header
from ...sdk import GameDir, KeyPath, Report, Source, did_you_mean, format_path
from . import vocab
from .model import (
    Back,
    Card,
    Condition,
    Connection,
    Core,
    Effect,
    MicroEngine,
    Op,
    Patent,
    Quantity,
    Rules,
    Scenario,
    Test,
)

FILES = {  # file name -> schema id
    "game.yaml": "micro-engine-game",
    "workshop.yaml": "micro-engine-workshop",
    "cores.yaml": "micro-engine-cores",
    "patents.yaml": "micro-engine-patents",
    "components.yaml": "micro-engine-components",
}
SCENARIOS = ("scenarios.yaml", "micro-engine-scenarios")
DECKS = (("parts", "part"), ("upgrades", "upgrade"), ("calibrations", "calibration"))


def load(game: GameDir, header: Header, report: Report, icons: Collection[str] = ()) -> MicroEngine | None:
    """Load the game (game.yaml is already loaded and checked); report every problem, None on any error."""
    data = {name: game.load(name, schema_id, report).data for name, schema_id in FILES.items()}
    scenarios = None
    if game.find(SCENARIOS[0]) is not None:
        scenarios = game.load(*SCENARIOS, report).data
    if not report.ok():
        return None  # the references below assume the shapes the schemas promise
    _Checker(game, data, scenarios, report, icons).run()
    if not report.ok():
        return None
    return _build(header, data, scenarios)


class _Checker:
    """Check what one file says about another, and that effects use the vocabulary correctly."""

    def __init__(self, game: GameDir, data: dict[str, Any], scenarios: Any, report: Report, icons: Collection[str]):
        self.game, self.data, self.scenarios, self.report, self.icons = game, data, scenarios, report, icons
        self.connections = set(data["game.yaml"]["connections"])

    def src(self, name: str) -> Source:
        return self.game.sources[name]

    def error(
        self, file: str, path: KeyPath, code: str, message: str, hint: str | None = None, key: bool = False
    ) -> None:
        self.report.error(code, message, path=format_path(path), loc=self.src(file).loc(path, key=key), hint=hint)

    def run(self) -> None:
        g = self.data["game.yaml"]
        for cid, conn in g["connections"].items():
            self._glyph("game.yaml", ("connections", cid, "glyph"), conn["glyph"])
        self._unique_ids()
        w = self.data["workshop.yaml"]
        for deck, kind in DECKS:
            for i, card in enumerate(w[deck]):
                path = (deck, i)
                if kind == "part":
                    for j, conn in enumerate(card["in"]):
                        self._connection("workshop.yaml", path + ("in", j), conn)
                    self._connection("workshop.yaml", path + ("out",), card["out"])
                if "requires" in card:
                    self._condition("workshop.yaml", path + ("requires",), card["requires"])
                self._effects("workshop.yaml", path, card.get("effects", []), kind)
        for i, core in enumerate(self.data["cores.yaml"]["cores"]):
            self._effects("cores.yaml", ("cores", i), core["effects"], "core")
        for i, patent in enumerate(self.data["patents.yaml"]["patents"]):
            self._condition("patents.yaml", ("patents", i, "condition"), patent["condition"])
        for name in ("workshop.yaml", "cores.yaml", "patents.yaml"):
            self._glyph(name, ("back", "glyph"), self.data[name]["back"]["glyph"])
        core_ids = [c["id"] for c in self.data["cores.yaml"]["cores"]]
        for i, cid in enumerate(g["variants"]["travel"]["remove_cores"]):
            if cid not in core_ids:
                self.error(
                    "game.yaml",
                    ("variants", "travel", "remove_cores", i),
                    "S005",
                    f"unknown Core '{cid}'",
                    did_you_mean(cid, core_ids) or f"Cores: {', '.join(core_ids)}",
                )
        if self.scenarios:
            self._scenarios()

    def _glyph(self, file: str, path: KeyPath, glyph: str) -> None:
        if self.icons and glyph not in self.icons:
            self.error(
                file,
                path,
                "S005",
                f"unknown glyph '{glyph}'",
                did_you_mean(glyph, self.icons) or "glyphs are the icons defined in layouts/*/icons.yaml",
            )

    def _connection(self, file: str, path: KeyPath, conn: str) -> None:
        if conn not in self.connections:
            self.error(
                file,
                path,
                "S005",
                f"unknown connection type '{conn}'",
                did_you_mean(conn, self.connections) or f"connections: {', '.join(self.connections)}",
            )

    def _unique_ids(self) -> None:
        seen: dict[str, tuple[str, KeyPath]] = {}  # casefolded id -> (file, key path) where it is first written
        names: dict[str, tuple[str, KeyPath]] = {}
        entries = [
            ("workshop.yaml", (deck, i), c) for deck, _ in DECKS for i, c in enumerate(self.data["workshop.yaml"][deck])
        ]
        entries += [("cores.yaml", ("cores", i), c) for i, c in enumerate(self.data["cores.yaml"]["cores"])]
        entries += [("patents.yaml", ("patents", i), c) for i, c in enumerate(self.data["patents.yaml"]["patents"])]
        for file, path, entry in entries:
            for key, table in (("id", seen), ("name", names)):
                value = entry[key].casefold()
                if value in table:
                    first_file, first_path = table[value]
                    self.error(
                        file,
                        path + (key,),
                        "S006",
                        f"{key} '{entry[key]}' is used twice (first at {first_file} {format_path(first_path)})",
                    )
                table.setdefault(value, (file, path))

    def _condition(self, file: str, path: KeyPath, cond: dict[str, Any]) -> None:
        parts = cond.get("parts")
        items = [((), parts)] if isinstance(parts, dict) else list(enumerate(parts or []))
        for key, item in items:
            sub = path + ("parts",) + ((key,) if key != () else ())
            if isinstance(item, dict) and "type" in item:
                self._connection(file, sub + ("type",), item["type"])

    def _effects(self, file: str, path: KeyPath, effects: list[Any], kind: str) -> None:
        for i, eff in enumerate(effects):
            epath = path + ("effects", i)
            when, on = eff["when"], eff.get("trigger")
            if when not in vocab.KIND_TIMINGS[kind]:
                allowed = ", ".join(t for t in vocab.TIMINGS if t in vocab.KIND_TIMINGS[kind])
                self.error(
                    file,
                    epath + ("when",),
                    "ME001",
                    f"a {kind} can't have a '{when}' effect",
                    f"a {kind} may use: {allowed}",
                )
                continue
            if on is not None and when not in ("ongoing", "once_per_turn"):
                self.error(
                    file,
                    epath + ("trigger",),
                    "ME001",
                    f"'trigger:' only goes with ongoing or once_per_turn, not {when}",
                    key=True,
                )
                continue
            cond = eff.get("if")
            if cond is not None:
                if on is None:
                    self.error(
                        file, epath + ("if",), "ME001", "'if:' filters a trigger, so it needs 'trigger:'", key=True
                    )
                if "type" in cond:
                    self._connection(file, epath + ("if", "type"), cond["type"])
                    if on not in (None, "part"):
                        self.error(
                            file,
                            epath + ("if", "type"),
                            "ME001",
                            f"only a Part has a type (its Output), not a {on} play",
                            key=True,
                        )
                if "min_cost" in cond and on == "research":
                    self.error(file, epath + ("if", "min_cost"), "ME001", "Research has no Cost", key=True)
            where = vocab.place(when, on)
            for j, op in enumerate(eff["do"]):
                ((name, arg),) = op.items()
                opath = epath + ("do", j, name)
                if where not in vocab.OP_PLACES[name]:
                    allowed = " or ".join(vocab.PLACE_WORDS[p] for p in sorted(vocab.OP_PLACES[name]))
                    self.error(
                        file,
                        opath,
                        "ME001",
                        f"'{name}' can't be used in {vocab.PLACE_WORDS[where]}",
                        f"'{name}' belongs in {allowed}",
                        key=True,
                    )
                if name in ("cost", "next_cost") and "type" in arg:
                    self._connection(file, opath + ("type",), arg["type"])
                    if arg["of"] != "part":
                        self.error(
                            file, opath + ("type",), "ME001", f"only Parts have a type, not {arg['of']}s", key=True
                        )
                if name == "open_end" and kind != "upgrade":
                    self.error(
                        file,
                        opath,
                        "ME001",
                        "'open_end' talks about its host, so only an Upgrade can have it",
                        key=True,
                    )
                if name == "vp":
                    per = arg["per"]
                    if per == "neighbors" and kind != "upgrade":
                        self.error(
                            file,
                            opath + ("per",),
                            "ME001",
                            "'neighbors' counts the Parts next to a host, so only an Upgrade can use it",
                        )
                    if isinstance(per, dict) and "type" in per["parts"]:
                        self._connection(file, opath + ("per", "parts", "type"), per["parts"]["type"])

    def _scenarios(self) -> None:
        """Check every card a scenario names; a card named as printed is read as its id (which survives a rename)."""
        w = self.data["workshop.yaml"]
        decks = {
            "Workshop card": [c for deck, _ in DECKS for c in w[deck]],
            "Core": self.data["cores.yaml"]["cores"],
            "Patent": self.data["patents.yaml"]["patents"],
        }
        ids = {what: {c["id"] for c in items} for what, items in decks.items()}
        names = {what: {c["name"].casefold(): c["id"] for c in items} for what, items in decks.items()}
        file = "scenarios.yaml"

        def ref(path: KeyPath, holder: dict[Any, Any] | list[Any], key: Any, what: str) -> None:
            cid = holder[key]
            if not isinstance(cid, str) or cid in ids[what]:
                return
            if cid.strip().casefold() in names[what]:
                holder[key] = names[what][cid.strip().casefold()]
                return
            choices = [x for c in decks[what] for x in (c["id"], c["name"])]
            self.error(file, path, "S005", f"unknown {what} '{cid}'", did_you_mean(cid, choices))

        for i, sc in enumerate(self.scenarios["scenarios"]):
            base = ("scenarios", i)
            setup = sc["setup"]
            for j in range(len(setup["patents"])):
                ref(base + ("setup", "patents", j), setup["patents"], j, "Patent")
            for key in ("row", "deck_top"):
                for j in range(len(setup.get(key, []))):
                    ref(base + ("setup", key, j), setup[key], j, "Workshop card")
            if len(setup["players"]) != sc["players"]:
                self.error(
                    file,
                    base + ("setup", "players"),
                    "S004",
                    f"{len(setup['players'])} players set up for a {sc['players']}-player scenario",
                )
            for p, player in enumerate(setup["players"]):
                ref(base + ("setup", "players", p, "core"), player, "core", "Core")
                for key in ("chain", "hand"):
                    for j in range(len(player[key])):
                        ref(base + ("setup", "players", p, key, j), player[key], j, "Workshop card")
            for j, step in enumerate(sc["steps"]):
                do = step["do"]
                if isinstance(do, dict):
                    for key in do:
                        if key == "host" and do[key] == "core":
                            continue
                        what = "Core" if key == "keep_core" else "Workshop card"
                        ref(base + ("steps", j, "do", key), do, key, what)
                expect = step.get("expect", {})
                at = base + ("steps", j, "expect")
                if "discard_top" in expect:
                    ref(at + ("discard_top",), expect, "discard_top", "Workshop card")
                for key, what in (("chain", "Workshop card"), ("patents", "Patent")):
                    for k in range(len(expect.get(key, []))):
                        ref(at + (key, k), expect[key], k, what)
                if isinstance(expect.get("upgrades"), dict):
                    hosts = expect["upgrades"]
                    for host in list(hosts):
                        for k in range(len(hosts[host])):
                            ref(at + ("upgrades", host, k), hosts[host], k, "Workshop card")
                        if host != "core" and host not in ids["Workshop card"]:
                            named = names["Workshop card"].get(str(host).strip().casefold())
                            if named:  # a host named as printed: keyed by its id, like the state
                                hosts[named] = hosts.pop(host)


def _quantity(data: Any) -> Quantity:
    if isinstance(data, str):
        return Quantity(data)
    ((name, args),) = data.items()
    return Quantity(name, args.get("type"))


def _condition(data: dict[str, Any]) -> Condition:
    tests = []
    played: tuple[str, ...] = ()
    for key, value in data.items():
        if key == "played_this_turn":
            played = tuple(value)
        elif key == "parts":
            for item in value if isinstance(value, list) else [value]:
                tests.append(Test(Quantity("parts", item.get("type")), item["at_least"]))
        else:
            n = value if isinstance(value, int) else value["at_least"]
            tests.append(Test(Quantity(key), n))
    return Condition(tuple(tests), played)


def _op(data: dict[str, Any]) -> Op:
    ((name, arg),) = data.items()
    if name in ("cost", "next_cost"):
        return Op(name, of=arg["of"], type=arg.get("type"), by=arg["by"])
    if name == "vp":
        return Op(name, n=arg["each"], per=_quantity(arg["per"]), every=arg.get("every", 1))
    if arg is True:
        return Op(name)
    return Op(name, n=arg)


def _effects(data: list[Any]) -> tuple[Effect, ...]:
    out = []
    for eff in data:
        cond = eff.get("if", {})
        out.append(
            Effect(
                eff["when"],
                tuple(_op(o) for o in eff["do"]),
                eff.get("trigger"),
                cond.get("type"),
                cond.get("min_cost"),
            )
        )
    return tuple(out)


def _back(data: dict[str, Any] | None, default: Back | None = None) -> Back:
    back = Back(data["colour"], data["label"], data["glyph"]) if data else default
    assert back is not None  # every deck has a back (the schema requires it)
    return back


def _build(header: Header, data: dict[str, Any], scenarios: Any) -> MicroEngine:
    """Turn checked data into the model."""
    g, w, c, p, comp = (data[name] for name in FILES)
    r = g["rules"]
    rules = Rules(
        rounds=r["rounds"],
        starting_hand=r["starting_hand"],
        hand_limit=r["hand_limit"],
        row_size=r["row_size"],
        draw_picks=r["draw_picks"],
        actions=r["actions"],
        research_draw=r["research_draw"],
        calibrations_per_turn=r["calibrations_per_turn"],
        cores_dealt=r["cores_dealt"],
        core_slots=r["core_slots"],
        part_slots=r["part_slots"],
        extra_patents=r["extra_patents"],
        license_vp=r["license_vp"],
        license_min_players=r["license_min_players"],
        quick_fewer_rounds=g["variants"]["quick"]["fewer_rounds"],
        travel_removes=tuple(g["variants"]["travel"]["remove_cores"]),
    )
    workshop_back = _back(w["back"])
    cards = []
    for deck, kind in DECKS:
        for i, x in enumerate(w[deck]):
            cards.append(
                Card(
                    id=x["id"],
                    name=x["name"],
                    kind=kind,
                    copies=x["copies"],
                    cost=x["cost"],
                    vp=x.get("vp", 0),
                    inputs=tuple(x.get("in", ())),
                    output=x.get("out"),
                    slots=x.get("slots", rules.part_slots) if kind == "part" else 0,
                    requires=_condition(x["requires"]) if "requires" in x else None,
                    effects=_effects(x.get("effects", [])),
                    back=_back(x.get("back"), workshop_back),
                    text=x.get("text"),
                    art=x.get("art"),
                    index=i,
                )
            )
    core_back = _back(c["back"])
    cores = tuple(
        Core(
            x["id"],
            x["name"],
            x["vp"],
            rules.core_slots,
            _effects(x["effects"]),
            _back(x.get("back"), core_back),
            x.get("text"),
            x.get("art"),
            i,
        )
        for i, x in enumerate(c["cores"])
    )
    patent_back = _back(p["back"])
    patents = tuple(
        Patent(
            x["id"],
            x["name"],
            x["vp"],
            _condition(x["condition"]),
            _back(x.get("back"), patent_back),
            x.get("text"),
            x.get("art"),
            i,
        )
        for i, x in enumerate(p["patents"])
    )
    connections = tuple(
        Connection(cid, x["name"], x["symbol"], x["glyph"], x["colour"], x["share"], x.get("flavour", ""))
        for cid, x in g["connections"].items()
    )
    scen = tuple(
        Scenario(s["id"], s["title"], s["players"], s["setup"], tuple(s["steps"]), i)
        for i, s in enumerate((scenarios or {}).get("scenarios", []))
    )
    return MicroEngine(
        title=header.title,
        tagline=header.tagline,
        publisher=header.publisher,
        edition=header.edition,
        players=header.players,
        default_players=header.default_players,
        rules=rules,
        connections=connections,
        mix_tolerance=g["mix_tolerance"],
        cards=tuple(cards),
        cores=cores,
        patents=patents,
        workshop_back=workshop_back,
        round_tracker_name=comp["round_tracker"]["name"],
        player_aid_name=comp["player_aid"]["name"],
        scenarios=scen,
        style=dict(g.get("style", {})),
    )
