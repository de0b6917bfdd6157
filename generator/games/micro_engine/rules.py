"""Rules layer of the validator: everything the rulebook implies that the card data can break (ME codes)."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from importlib import resources

import yaml

from ...diagnostics import Location, Report
from ...project import GameDir
from ...yamlsrc import format_path
from . import scenario, text, vocab
from .model import Card, Condition, Core, MicroEngine, Patent

# Stable codes; README "Micro-Engine" lists them.
CODES = {
    "ME001": "an effect uses an op, trigger or filter where the vocabulary does not allow it",
    "ME002": "too few Cores for a player count or variant (each player draws cores_dealt)",
    "ME003": "too few Patents to reveal players + extra_patents",
    "ME004": "the Workshop deck is too small for setup and a round of draws",
    "ME005": "a card the rulebook names is missing",
    "ME006": "a named card's stats differ from what the rulebook states",
    "ME007": "the connection mix (Part Outputs) is off the rulebook's shares",
    "ME008": "an Input no Part's Output can reach (or an Output no Input accepts: warning)",
    "ME009": "a Requirement that can never be met",
    "ME010": "a Patent that can never be claimed",
    "ME011": "a Cost or Slots value outside what the rules can use",
    "ME012": "printed text disagrees with the data, or misses the rulebook's wording",
    "ME013": "backs differ within a deck, or two decks share a back",
    "ME014": "a rulebook scenario does not replay as printed",
    "ME015": "Travel mode: a remaining card needs the Workshop Row, or a Row card is not removed",
    "ME016": "a rules constant differs from the rulebook, or breaks a variant (Quick game with no rounds left)",
    "ME017": "an effect that can never do anything with this card set (warning)",
}
DECK_OF = {"part": "parts", "upgrade": "upgrades", "calibration": "calibrations"}


@lru_cache(maxsize=1)
def rulebook_facts() -> dict:
    """Return the named-card facts shipped with the ruleset (rulebook.yaml)."""
    path = resources.files("generator").joinpath("games/micro_engine/rulebook.yaml")
    return yaml.safe_load(path.read_text(encoding="utf-8"))


class _Ctx:
    """Where things are, so every diagnostic points at the line that causes it."""

    def __init__(self, game_dir: GameDir, model: MicroEngine, report: Report):
        self.dir, self.game, self.report = game_dir, model, report

    def loc(self, file: str, path: tuple, key: bool = False) -> Location | None:
        src = self.dir.sources.get(file)
        return src.loc(path, key=key) if src else None

    def err(
        self,
        code: str,
        file: str,
        path: tuple,
        message: str,
        hint: str | None = None,
        key: bool = False,
        warning: bool = False,
    ) -> None:
        add = self.report.warning if warning else self.report.error
        add(code, message, path=format_path(path), loc=self.loc(file, path, key), hint=hint)

    def where(self, item: Card | Core | Patent) -> tuple[str, tuple]:
        """Return (file, key path) of a card's entry."""
        if isinstance(item, Core):
            return "cores.yaml", ("cores", item.index)
        if isinstance(item, Patent):
            return "patents.yaml", ("patents", item.index)
        return "workshop.yaml", (DECK_OF[item.kind], item.index)


def check_rules(game_dir: GameDir, model: MicroEngine, report: Report) -> None:
    """Run every rules-layer check on a loaded Micro-Engine game; report all problems found."""
    ctx = _Ctx(game_dir, model, report)
    _counts(ctx)
    _named(ctx)
    _mix(ctx)
    _reach(ctx)
    _requirements(ctx)
    _limits(ctx)
    _text(ctx)
    _backs(ctx)
    _travel(ctx)
    _dead_effects(ctx)
    _scenarios(ctx)


# ------------------------------------------------------------------ counts (ME002–ME004, ME016)


def _counts(ctx: _Ctx) -> None:
    g, r = ctx.game, ctx.game.rules
    top = max(g.players)
    for travel in (False, True):
        pool = g.cores_for(travel)
        need = r.cores_dealt * top
        if len(pool) < need:
            mode = "Travel mode" if travel else "A game"
            removed = f" once {', '.join(r.travel_removes)} is removed" if travel else ""
            ctx.err(
                "ME002",
                "cores.yaml",
                ("cores",),
                key=True,
                message=f"{mode} at {top} players needs {need} Cores ({r.cores_dealt} per player), "
                f"but there are {len(pool)}{removed}",
                hint=f"add {need - len(pool)} Core{'s' if need - len(pool) > 1 else ''} to cores.yaml",
            )
    if len(g.patents) < top + r.extra_patents:
        ctx.err(
            "ME003",
            "patents.yaml",
            ("patents",),
            key=True,
            message=f"{top} players reveal {top + r.extra_patents} Patents, but the deck has {len(g.patents)}",
        )
    setup = r.row_size + r.starting_hand * top + r.draw_picks * top
    if g.deck_size < setup:
        ctx.err(
            "ME004",
            "workshop.yaml",
            ("parts",),
            f"the Workshop deck has {g.deck_size} cards; {top} players need {setup} for setup "
            f"({r.row_size} in the Row, {r.starting_hand} per hand) and one round of draws",
        )
    for key, want in rulebook_facts().get("constants", {}).items():
        got = getattr(r, key)
        if got != want:
            path = ("variants", "quick", "fewer_rounds") if key == "quick_fewer_rounds" else ("rules", key)
            ctx.err("ME016", "game.yaml", path, f"{key} is {got}; the rulebook says {want}")
    if g.rounds(quick=True) < 1:
        ctx.err(
            "ME016",
            "game.yaml",
            ("variants", "quick", "fewer_rounds"),
            f"a Quick game of {r.rounds} − {r.quick_fewer_rounds} rounds has no rounds left",
        )
    shares = sum(c.share for c in g.connections)
    if shares != 100:
        ctx.err("ME007", "game.yaml", ("connections",), f"the connection shares add up to {shares} %, not 100 %")


# ------------------------------------------------------------------ named cards (ME005, ME006)


def _named(ctx: _Ctx) -> None:
    g = ctx.game
    for fact in rulebook_facts()["named"]:
        item = g.by_name(fact["name"])
        if item is None:
            file = {"core": "cores.yaml", "patent": "patents.yaml"}.get(fact.get("kind"), "workshop.yaml")
            top = {"core": ("cores",), "patent": ("patents",)}.get(
                fact.get("kind"), (DECK_OF.get(fact.get("kind"), "parts"),)
            )
            ctx.err(
                "ME005",
                file,
                top,
                f"the rulebook names '{fact['name']}', but no card has that name",
                hint=_fact_hint(fact),
            )
            continue
        file, path = ctx.where(item)
        kind = "core" if isinstance(item, Core) else "patent" if isinstance(item, Patent) else item.kind
        if "kind" in fact and fact["kind"] != kind:
            ctx.err(
                "ME006", file, path + ("name",), f"{fact['name']} is a {fact['kind']} in the rulebook, not a {kind}"
            )
            continue
        for key in ("cost", "vp"):
            if key in fact and getattr(item, key) != fact[key]:
                ctx.err(
                    "ME006",
                    file,
                    path + (key,),
                    f"{fact['name']} has {key} {getattr(item, key)}; the rulebook says {fact[key]}",
                )
        if "out" in fact and item.output != fact["out"]:
            ctx.err(
                "ME006",
                file,
                path + ("out",),
                f"{fact['name']}'s Output is {item.output}; the rulebook says {fact['out']}",
            )
        if "in" in fact and list(item.inputs) != fact["in"]:
            ctx.err(
                "ME006",
                file,
                path + ("in",),
                f"{fact['name']}'s Input is {' or '.join(item.inputs)}; the rulebook says {' or '.join(fact['in'])}",
            )
        if "played" in fact:
            got = [_op_data(o) for e in item.effects if e.when == "played" for o in e.ops]
            if got != fact["played"]:
                ctx.err(
                    "ME006",
                    file,
                    path + ("effects",),
                    f"{fact['name']}'s When played effect is {got}; the rulebook says {fact['played']}",
                )
        if "played_this_turn" in fact and list(item.condition.played_this_turn) != fact["played_this_turn"]:
            ctx.err(
                "ME006",
                file,
                path + ("condition",),
                f"{fact['name']} must be claimed for playing {', '.join(fact['played_this_turn'])} in one turn",
            )
        if "min_cost" in fact and not any(e.if_min_cost == fact["min_cost"] for e in item.effects):
            ctx.err(
                "ME006",
                file,
                path + ("effects",),
                f'{fact["name"]}\'s effect must depend on "a Cost of {fact["min_cost"]} or more"',
                hint=f"give it a trigger with `if: {{min_cost: {fact['min_cost']}}}`",
            )
        if fact.get("uses_row") and not any(o.name in vocab.ROW_OPS for e in item.effects for o in e.ops):
            ctx.err(
                "ME006",
                file,
                path + ("effects",),
                f"{fact['name']} must work with the Workshop Row",
                hint=f"use one of: {', '.join(sorted(vocab.ROW_OPS))}",
            )
        if fact.get("travel_removed") and item.id not in g.rules.travel_removes:
            ctx.err(
                "ME006",
                "game.yaml",
                ("variants", "travel", "remove_cores"),
                f"Travel mode must remove {fact['name']} ('{item.id}') from the Cores",
            )
        if "says" in fact:
            printed = text.card_text(g, item)
            if fact["says"] not in printed:
                ctx.err(
                    "ME012",
                    file,
                    path + ("name",),
                    f"{fact['name']}'s text should contain the rulebook's words \"{fact['says']}\"; "
                    f'it prints "{printed}"',
                )


def _fact_hint(fact: dict) -> str:
    stats = ", ".join(f"{k} {v}" for k, v in fact.items() if k not in ("name", "says"))
    return f"the rulebook says: {stats}"


def _op_data(op) -> dict:
    if op.name in ("cost", "next_cost"):
        arg = {"of": op.of, "by": op.by}
        if op.type:
            arg["type"] = op.type
        return {op.name: arg}
    if op.name in ("next_any_input", "any_input", "open_end"):
        return {op.name: True}
    return {op.name: op.n}


# ------------------------------------------------------------------ connections (ME007, ME008)


def _mix(ctx: _Ctx) -> None:
    """The rulebook's mix, counted over Part Outputs (a Part's type is its Output), copies included."""
    g = ctx.game
    parts = g.of_kind("part")
    total = sum(c.copies for c in parts)
    if not total:
        return
    counts = Counter()
    for c in parts:
        counts[c.output] += c.copies
    for conn in g.connections:
        share = 100 * counts[conn.id] / total
        if abs(share - conn.share) > g.mix_tolerance:
            want = round(conn.share * total / 100)
            ctx.err(
                "ME007",
                "game.yaml",
                ("connections", conn.id, "share"),
                f"{conn.name} is the Output of {counts[conn.id]} of {total} Parts ({share:.0f} %); "
                f"the rulebook's mix is ~{conn.share} % (±{g.mix_tolerance})",
                hint=f"about {want} {conn.name} Parts would match; the mix counts Part Outputs, copies included",
            )


def _reach(ctx: _Ctx) -> None:
    g = ctx.game
    parts = g.of_kind("part")
    outputs = {c.output for c in parts}
    accepted = {i for c in parts for i in c.inputs}
    for c in parts:
        for j, conn in enumerate(c.inputs):
            if conn not in outputs:
                ctx.err(
                    "ME008",
                    "workshop.yaml",
                    ("parts", c.index, "in", j),
                    f"{c.name}'s Input {g.connection(conn).name} is unreachable: no Part has that Output",
                    hint="only the Core's universal Output (or an any-Input effect) could ever feed it",
                )
    seen = set()
    for c in parts:
        if c.output not in accepted and c.output not in seen:
            seen.add(c.output)
            ctx.err(
                "ME008",
                "workshop.yaml",
                ("parts", c.index, "out"),
                f"no Part accepts {g.connection(c.output).name} as Input: a chain ending here is stuck",
                warning=True,
            )


# ------------------------------------------------------------------ requirements and Patents (ME009, ME010)


def _supply(g: MicroEngine, exclude: Card | None = None) -> dict:
    """Upper bounds on what any one player could ever have, from the card set alone."""
    parts = list(g.of_kind("part"))
    upgrades = list(g.of_kind("upgrade"))

    def copies(c: Card) -> int:
        return c.copies - (1 if exclude is not None and c.id == exclude.id else 0)

    by_type = Counter()
    for c in parts:
        by_type[c.output] += copies(c)
    r = g.rules
    action_ops = sum(
        copies(c) * o.n
        for c in g.cards
        if c.kind != "calibration"
        for e in c.effects
        for o in e.ops
        if o.name == "action"
    )
    cal_bonus = max(
        (o.n for c in g.of_kind("calibration") for e in c.effects for o in e.ops if o.name == "action"), default=0
    )
    max_actions = r.actions + r.calibrations_per_turn * (1 + cal_bonus) + action_ops
    n_parts = sum(copies(c) for c in parts)
    per_game = g.rounds() * max_actions  # plays a player can make in a whole game, at the very most
    slots = r.core_slots + sum(c.slots * c.copies for c in parts)
    return {
        "chain_length": min(n_parts, per_game),
        "parts": by_type,
        "types": sum(1 for v in by_type.values() if v),
        "upgrades": min(sum(copies(c) for c in upgrades), slots),
        "loaded": max((c.slots for c in parts), default=0),
        "top_vp": max((c.vp for c in parts if copies(c)), default=0),
        "hand": g.deck_size,
        "patents": len(g.patents),
        "claims": len(g.patents),
        "actions": max_actions,
        "kinds": {k for k in ("part", "upgrade", "calibration") if any(copies(c) for c in g.of_kind(k))},
    }


def _impossible(g: MicroEngine, cond: Condition, supply: dict) -> list[tuple[str, str]]:
    """Return (condition key, reason) for each clause no player can ever meet."""
    out = []
    for t in cond.tests:
        q = t.quantity
        if q.name == "parts":
            have = supply["parts"][q.type] if q.type else sum(supply["parts"].values())
            what = f"{g.connection(q.type).name} Parts" if q.type else "Parts"
        else:
            have, what = supply[q.name], q.name.replace("_", " ")
        if have < t.at_least:
            out.append((q.name, f"needs {t.at_least} {what}, but at most {have} can ever be in play"))
    missing = [k for k in cond.played_this_turn if k not in supply["kinds"]]
    if missing:
        out.append(("played_this_turn", f"needs a {missing[0]} played, but the deck has none"))
    return out


def _requirements(ctx: _Ctx) -> None:
    g = ctx.game
    for c in g.cards:
        if c.requires is None:
            continue
        # "a card's own effects can't complete them": count every other card, not this one
        for key, reason in _impossible(g, c.requires, _supply(g, exclude=c)):
            ctx.err(
                "ME009",
                "workshop.yaml",
                (DECK_OF[c.kind], c.index, "requires", key),
                f"{c.name} can never be played: its Requirement {reason}",
            )
    supply = _supply(g)
    for p in g.patents:
        for key, reason in _impossible(g, p.condition, supply):
            ctx.err(
                "ME010",
                "patents.yaml",
                ("patents", p.index, "condition", key),
                f"{p.name} can never be claimed: it {reason}",
            )


# ------------------------------------------------------------------ limits (ME011)


def _limits(ctx: _Ctx) -> None:
    g, r = ctx.game, ctx.game.rules
    for c in g.cards:
        path = (DECK_OF[c.kind], c.index)
        if c.cost >= r.hand_limit:
            ctx.err(
                "ME011",
                "workshop.yaml",
                path + ("cost",),
                f"{c.name} costs {c.cost}: paying it takes {c.cost} other cards, but the hand limit is {r.hand_limit}",
            )
        if c.kind == "part" and c.slots > 3:
            ctx.err(
                "ME011",
                "workshop.yaml",
                path + ("slots",),
                f"{c.name} has {c.slots} slots; a poker-size card shows at most 3",
                warning=True,
            )


# ------------------------------------------------------------------ text (ME012)


def _norm(s: str) -> str:
    return " ".join(s.replace("’", "'").replace("“", '"').replace("”", '"').split()).casefold()


def _text(ctx: _Ctx) -> None:
    g = ctx.game
    for item in (*g.cards, *g.cores, *g.patents):
        if item.text is None:
            continue
        derived = text.card_text(g, item)
        if _norm(item.text) != _norm(derived):
            file, path = ctx.where(item)
            ctx.err(
                "ME012",
                file,
                path + ("text",),
                f"{item.name}'s printed text does not say what its data says",
                hint=f'the data reads: "{derived}" (remove `text:` to print that)',
            )


# ------------------------------------------------------------------ backs (ME013)


def _backs(ctx: _Ctx) -> None:
    g = ctx.game
    decks = {
        "Workshop": ("workshop.yaml", [(c, (DECK_OF[c.kind], c.index)) for c in g.cards]),
        "Core": ("cores.yaml", [(c, ("cores", c.index)) for c in g.cores]),
        "Patent": ("patents.yaml", [(c, ("patents", c.index)) for c in g.patents]),
    }
    first_backs = {}
    for deck, (file, items) in decks.items():
        base = ctx.dir.sources[file].data["back"]
        for item, path in items:
            b = item.back
            if (b.colour, b.label, b.glyph) != (base["colour"], base["label"], base["glyph"]):
                ctx.err(
                    "ME013",
                    file,
                    path + ("back",),
                    f"{item.name} has its own back: in a shuffled {deck} deck it can be told apart face down",
                    hint="every card of a deck shares the deck's `back:`",
                )
        first_backs[deck] = (file, (base["colour"].lower(), base["glyph"]))
    seen = {}
    for deck, (file, key) in first_backs.items():
        if key in seen:
            ctx.err(
                "ME013",
                file,
                ("back",),
                f"the {deck} back looks like the {seen[key]} back (same colour and glyph)",
                hint="decks are sorted face down at setup: give each deck its own colour or glyph",
            )
        seen.setdefault(key, deck)


# ------------------------------------------------------------------ Travel mode (ME015)


def _travel(ctx: _Ctx) -> None:
    g = ctx.game
    for c in g.cores:
        if c.id in g.rules.travel_removes:
            continue
        if any(o.name in vocab.ROW_OPS for e in c.effects for o in e.ops):
            ctx.err(
                "ME015",
                "cores.yaml",
                ("cores", c.index, "effects"),
                f"{c.name} works with the Workshop Row, which Travel mode removes",
                hint=f"add '{c.id}' to variants.travel.remove_cores in game.yaml",
            )
    for c in g.cards:
        if any(o.name in vocab.ROW_OPS for e in c.effects for o in e.ops):
            ctx.err(
                "ME015",
                "workshop.yaml",
                (DECK_OF[c.kind], c.index, "effects"),
                f"{c.name} works with the Workshop Row; in Travel mode it would be dead in the deck",
                hint="only Cores can be removed for Travel mode",
            )


# ------------------------------------------------------------------ dead effects (ME017)


def _dead_effects(ctx: _Ctx) -> None:
    g = ctx.game
    outputs = {c.output for c in g.of_kind("part")}
    for item in (*g.cards, *g.cores):
        file, path = ctx.where(item)
        for i, e in enumerate(item.effects):
            types = [e.if_type] + [o.type for o in e.ops] + [o.per.type for o in e.ops if o.per]
            for t in types:
                if t and t not in outputs:
                    ctx.err(
                        "ME017",
                        file,
                        path + ("effects", i),
                        f"{item.name}'s effect is about {g.connection(t).name} Parts, and there are none",
                        warning=True,
                    )


# ------------------------------------------------------------------ scenarios (ME014)


def _scenarios(ctx: _Ctx) -> None:
    g = ctx.game
    for sc in g.scenarios:
        if sc.players not in g.players:
            ctx.err(
                "ME014",
                "scenarios.yaml",
                ("scenarios", sc.index, "players"),
                f"{sc.title} is for {sc.players} players; the game supports {list(g.players)}",
            )
            continue
        for problem in scenario.replay(g, sc):
            ctx.err("ME014", "scenarios.yaml", ("scenarios", sc.index) + problem.path, f"{sc.title}: {problem.message}")
