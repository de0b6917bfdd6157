"""Rules layer of the validator: everything the rulebook implies that the card data can break (ME codes).

Every fact the cards are held to is read from the game folder's own rulebook.txt (see `rulebook.py`), so an
edition that rewrites a rule there is held to its own text.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import Any

from ...sdk import GameDir, KeyPath, Location, Report, did_you_mean, format_path
from ...sdk import rulebook as rulebook_text
from . import scenario, text, vocab
from .model import Card, Condition, Core, Effect, MicroEngine, Op, Patent, given
from .rulebook import Facts, NamedCard, read_facts, symbol

# Stable codes; the manual's table (docs/reference/codes.md) is made from them (`python -m generator.docs`).
CODES = {
    "ME001": "an effect uses an op, trigger or filter where the vocabulary does not allow it",
    "ME002": "too few Cores for a player count or variant (each player draws `cores_dealt`)",
    "ME003": "too few Patents to reveal players + `extra_patents`",
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
    "ME016": "a rules constant or connection type (name, symbol, share) differs from the rulebook (hand of 5, limit 10, Row of 3, …), or breaks a variant",
    "ME017": "an effect that can never do anything with this card set (warning)",
    "ME018": "a supported player count the rulebook does not cover (it names 2-player games and Licenses at 3–4)",
    "ME019": "`rulebook.txt` is missing, or no sentence in it states a fact the validator reads (the sentence form is named)",
    "ME020": "the rulebook gives another number to a rule the engine plays as fixed (keep 1 Core, +1 action per Calibration, 1 Bonus Upgrade, one claim per Patent)",
}
DECK_OF = {"part": "parts", "upgrade": "upgrades", "calibration": "calibrations"}
FILE_OF = {"core": "cores.yaml", "patent": "patents.yaml"}
LIST_OF = {**DECK_OF, "core": "cores", "patent": "patents"}
# When played ops in the rulebook reader's terms, as its statements hold them: ('draw', 1), ('next_cost', of, type, by)
ReaderOps = tuple[tuple[Any, ...], ...]
# At most what one player could ever have: {quantity: count}, plus "parts" (a Counter by Output) and "kinds"
Supply = dict[str, Any]
# Rules the engine plays the same way in every edition: (what the engine plays, how the rule reads).
FIXED: dict[str, tuple[int, Callable[[int], str]]] = {
    "fixed.cores_kept": (1, lambda n: f"each player keeps {text.plural(n, 'Core')}"),
    "fixed.calibration_actions": (1, lambda n: f"a Calibration gives back +{text.plural(n, 'action')}"),
    "fixed.bonus_upgrades": (1, lambda n: f"the Bonus Upgrade plays {text.plural(n, 'Upgrade')}"),
    "fixed.claims_per_patent": (1, lambda n: f"a player may hold {text.plural(n, 'claim')} per Patent"),
}


class _Ctx:
    """Where things are, so every diagnostic points at the line that causes it."""

    def __init__(self, game_dir: GameDir, model: MicroEngine, report: Report, facts: Facts | None):
        self.dir, self.game, self.report, self.facts = game_dir, model, report, facts

    def loc(self, file: str, path: KeyPath, key: bool = False) -> Location | None:
        src = self.dir.sources.get(file)
        return src.loc(path, key=key) if src else None

    def err(
        self,
        code: str,
        file: str,
        path: KeyPath,
        message: str,
        hint: str | None = None,
        key: bool = False,
        warning: bool = False,
    ) -> None:
        add = self.report.warning if warning else self.report.error
        add(code, message, path=format_path(path), loc=self.loc(file, path, key), hint=hint)

    def quote(self, stated: rulebook_text.Stated) -> str:
        """Return the hint that points at a rulebook statement."""
        assert self.facts is not None
        return self.facts.rulebook.quote(stated)

    def where(self, item: Card | Core | Patent) -> tuple[str, KeyPath]:
        """Return (file, key path) of a card's entry."""
        if isinstance(item, Core):
            return "cores.yaml", ("cores", item.index)
        if isinstance(item, Patent):
            return "patents.yaml", ("patents", item.index)
        return "workshop.yaml", (DECK_OF[item.kind], item.index)


def check_rules(game_dir: GameDir, model: MicroEngine, report: Report) -> None:
    """Run every rules-layer check on a loaded Micro-Engine game; report all problems found."""
    rulebook = rulebook_text.read(game_dir, report, "ME019")
    ctx = _Ctx(game_dir, model, report, read_facts(rulebook) if rulebook else None)
    if ctx.facts is not None:
        _unread(ctx)
        _constants(ctx)
        _fixed(ctx)
        _players(ctx)
        _connections(ctx)
        _named(ctx)
    _counts(ctx)
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
            key=True,
        )
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


# ------------------------------------------------------------------ the rulebook's own facts (ME016, ME018–ME020)


def _unread(ctx: _Ctx) -> None:
    """Report each sentence form the validator reads that no line of the rulebook reads like."""
    assert ctx.facts is not None
    rb = ctx.facts.rulebook
    for form, line in ctx.facts.missing:
        ctx.report.error(
            "ME019",
            f'no sentence states {form.what}: the validator reads it from a sentence like "{form.like}"',
            loc=rb.loc(line),
            hint="keep that sentence, with your edition's numbers and names, so the cards are held to it",
        )


def _constant(g: MicroEngine, key: str) -> tuple[KeyPath, int, str]:
    """Return (game.yaml path, value, label) of a rules constant the rulebook states."""
    path = tuple(key.split("."))
    if path[0] == "rules":
        return path, getattr(g.rules, path[1]), path[1]
    return path, g.rules.quick_fewer_rounds, ".".join(path[1:])


def _constants(ctx: _Ctx) -> None:
    """Each rules constant in game.yaml is what the rulebook says, everywhere it says it."""
    assert ctx.facts is not None
    for key, statements in ctx.facts.values.items():
        if not key.startswith(("rules.", "variants.")):
            continue
        path, got, label = _constant(ctx.game, key)
        said: set[int] = set()
        for stated in statements:
            if stated.value != got and stated.value not in said:
                said.add(stated.value)
                ctx.err(
                    "ME016",
                    "game.yaml",
                    path,
                    f"{label} is {got}; the rulebook says {stated.value}",
                    hint=ctx.quote(stated),
                )


def _fixed(ctx: _Ctx) -> None:
    """Rules the engine plays one way only must read that way in the rulebook."""
    assert ctx.facts is not None
    for key, (engine, words) in FIXED.items():
        for stated in ctx.facts.stated(key):
            if stated.value != engine:
                ctx.report.error(
                    "ME020",
                    f"the rulebook says {words(stated.value)}; the rules engine always plays {engine}",
                    loc=ctx.facts.rulebook.at(stated),
                    hint="cardpress can only check and simulate the rules its engine plays: "
                    f"say {engine} here, or change the engine first",
                )


def _players(ctx: _Ctx) -> None:
    """Every supported player count is one the rulebook covers (from its lowest to its highest count)."""
    assert ctx.facts is not None
    lows, highs = ctx.facts.stated("players.low"), ctx.facts.stated("players.high")
    if not lows or not highs:
        return  # the missing sentence is reported by _unread
    low, high = min(lows, key=lambda s: s.value), max(highs, key=lambda s: s.value)
    for i, n in enumerate(ctx.dir.sources["game.yaml"].data["players"]["supported"]):
        if not low.value <= n <= high.value:
            bound = low if n < low.value else high
            ctx.err(
                "ME018",
                "game.yaml",
                ("players", "supported", i),
                f"{n}-player games: the rulebook covers {low.value} to {high.value} players",
                hint=ctx.quote(bound),
            )


def _connections(ctx: _Ctx) -> None:
    """game.yaml's connection types are the rulebook's: the count, each name, symbol, share and flavour."""
    assert ctx.facts is not None
    g = ctx.game
    for stated in ctx.facts.stated("connections.count"):
        if stated.value != len(g.connections):
            ctx.err(
                "ME016",
                "game.yaml",
                ("connections",),
                f"game.yaml has {len(g.connections)} connection types; the rulebook says {stated.value}",
                hint=ctx.quote(stated),
                key=True,
            )
    listed = set()
    for conn in ctx.facts.connections:
        name = conn["name"]
        ours = next((c for c in g.connections if c.name.casefold() == name.value.casefold()), None)
        listed.add(name.value.casefold())
        if ours is None:
            ctx.err(
                "ME016",
                "game.yaml",
                ("connections",),
                f"the rulebook lists the connection type {name.value}, which game.yaml does not have",
                hint=ctx.quote(name),
                key=True,
            )
            continue
        for field, got in (("symbol", symbol(ours.symbol)), ("share", ours.share), ("flavour", ours.flavour)):
            if conn[field].value != got:
                ctx.err(
                    "ME016",
                    "game.yaml",
                    ("connections", ours.id, field),
                    f"{ours.name}'s {field} is {got!s}; the rulebook says {conn[field].value}",
                    hint=ctx.quote(conn[field]),
                )
    if ctx.facts.connections:
        for c in g.connections:
            if c.name.casefold() not in listed:
                ctx.err(
                    "ME016",
                    "game.yaml",
                    ("connections", c.id),
                    f"{c.name} is not one of the rulebook's connection types",
                    hint=f"the rulebook lists {', '.join(x['name'].value for x in ctx.facts.connections)}",
                    key=True,
                )


# ------------------------------------------------------------------ named cards (ME005, ME006, ME012)


def _kind_of(item: Card | Core | Patent) -> str:
    return "core" if isinstance(item, Core) else "patent" if isinstance(item, Patent) else item.kind


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")


def _named(ctx: _Ctx) -> None:
    """Each card the rulebook names exists, with the stats the rulebook gives it."""
    assert ctx.facts is not None
    for named in ctx.facts.named.values():
        item = ctx.game.by_name(named.name)
        if item is None:
            _missing_named(ctx, named)
        else:
            _named_stats(ctx, named, item)


def _missing_named(ctx: _Ctx, named: NamedCard) -> None:
    """Point at the card that was probably renamed, or at the deck the card belongs in."""
    assert ctx.facts is not None
    g = ctx.game
    everything: tuple[Card | Core | Patent, ...] = (*g.cards, *g.cores, *g.patents)
    same_id = next((c for c in everything if c.id == _slug(named.name)), None)
    close = did_you_mean(named.name, [c.name for c in everything])
    renamed = same_id or (g.by_name(close.split("'")[1]) if close else None)
    where = ctx.quote(named.where)
    if renamed is not None:
        file, path = ctx.where(renamed)
        ctx.err(
            "ME005",
            file,
            path + ("name",),
            f"the rulebook names '{named.name}', but this card is named '{renamed.name}'",
            hint=f"{where}; rename the card, or the card in the rulebook",
        )
        return
    kinds = named.facts.get("kind")
    message = f"the rulebook names '{named.name}', but no card has that name"
    if not kinds:  # the rulebook does not say which deck it is in: the rulebook's mention is the place
        ctx.report.error(
            "ME005",
            message,
            loc=ctx.facts.rulebook.at(named.where),
            hint=f"add it to workshop.yaml, cores.yaml or patents.yaml, or change the rulebook; "
            f"it states: {_describe(ctx, named)}",
        )
        return
    kind = kinds[0].value
    ctx.err(
        "ME005",
        FILE_OF.get(kind, "workshop.yaml"),
        (LIST_OF[kind],),
        message,
        hint=f"{where}; it states: {_describe(ctx, named)}",
        key=True,
    )


def _describe(ctx: _Ctx, named: NamedCard) -> str:
    """Return what the rulebook states about a card, in words: `a part, Input ⚡, Output ♨, cost 1`."""
    words = []
    for stat, statements in named.facts.items():
        value = statements[0].value
        if stat == "kind":
            words.append(f"a {value}")
        elif stat in ("in", "out"):
            words.append(f"{'Input' if stat == 'in' else 'Output'} {value}")
        elif stat == "played":
            words.append(f'"When played: {_phrase(ctx.game, value)}"')
        elif stat == "played_this_turn":
            words.append(f'"{text.played_phrase(value)}"')
        elif stat == "min_cost":
            words.append(f'an effect that needs "a Cost of {value} or more"')
        elif stat in ("cost", "vp"):
            words.append(f"{stat} {value}")
        elif stat == "uses_row":
            words.append("works with the Workshop Row")
        elif stat == "travel_removed":
            words.append("removed in Travel mode")
    return ", ".join(words)


def _ops(item: Card | Core | Patent) -> ReaderOps:
    """Return a card's When played ops in the rulebook reader's terms: ('draw', 1), ('next_cost', of, type, by)."""
    out = []
    for e in getattr(item, "effects", ()):
        if e.when == "played":
            for o in e.ops:
                out.append((o.name, o.of, o.type, o.by) if o.name in ("cost", "next_cost") else (o.name, o.n))
    return tuple(out)


def _phrase(g: MicroEngine, ops: ReaderOps) -> str:
    """Return the words a card prints for When played ops given in the reader's terms."""
    built = tuple(
        Op(o[0], of=o[1], type=o[2], by=o[3]) if o[0] in ("cost", "next_cost") else Op(o[0], n=o[1]) for o in ops
    )
    return text.effect_body(g, Effect("played", built)) if built else "nothing"


def _named_stats(ctx: _Ctx, named: NamedCard, item: Card | Core | Patent) -> None:
    g = ctx.game
    file, path = ctx.where(item)
    name = item.name
    kind = _kind_of(item)
    for stated in named.facts.get("kind", []):
        if stated.value != kind:
            ctx.err(
                "ME006",
                file,
                path + ("name",),
                f"{name} is a {stated.value} in the rulebook, not a {kind}",
                hint=ctx.quote(stated),
            )
            return
    for key in ("cost", "vp"):
        for stated in named.facts.get(key, []):
            got = getattr(item, key, None)
            if got != stated.value:
                ctx.err(
                    "ME006",
                    file,
                    path + (key,),
                    f"{name} has {key} {got}; the rulebook says {stated.value}",
                    hint=ctx.quote(stated),
                )
    symbols = {c.id: symbol(c.symbol) for c in g.connections}
    for stated in named.facts.get("out", []):
        if isinstance(item, Card) and symbols.get(item.output or "") != stated.value:
            ctx.err(
                "ME006",
                file,
                path + ("out",),
                f"{name}'s Output is {g.connection(given(item.output)).name} ({symbols[given(item.output)]}); "
                f"the rulebook says {stated.value}",
                hint=ctx.quote(stated),
            )
    for stated in named.facts.get("in", []):
        if isinstance(item, Card) and [symbols[c] for c in item.inputs] != [stated.value]:
            ins = " or ".join(f"{g.connection(c).name} ({symbols[c]})" for c in item.inputs)
            ctx.err(
                "ME006",
                file,
                path + ("in",),
                f"{name}'s Input is {ins}; the rulebook says {stated.value}",
                hint=ctx.quote(stated),
            )
    for stated in named.facts.get("played", []):
        if _ops(item) != stated.value:
            ctx.err(
                "ME006",
                file,
                path + ("effects",),
                f'{name}\'s When played effect reads "{_phrase(g, _ops(item))}"; '
                f'the rulebook says "{_phrase(g, stated.value)}"',
                hint=ctx.quote(stated),
            )
    for stated in named.facts.get("played_this_turn", []):
        got = tuple(item.condition.played_this_turn) if isinstance(item, Patent) else ()
        if got != stated.value:
            ctx.err(
                "ME006",
                file,
                path + ("condition",),
                f'{name} must be claimed when "{text.played_phrase(stated.value)}"',
                hint=ctx.quote(stated),
            )
    for stated in named.facts.get("min_cost", []):
        if not any(e.if_min_cost == stated.value for e in getattr(item, "effects", ())):
            ctx.err(
                "ME006",
                file,
                path + ("effects",),
                f'{name}\'s effect must depend on "a Cost of {stated.value} or more"',
                hint=f"{ctx.quote(stated)}; give it a trigger with `if: {{min_cost: {stated.value}}}`",
            )
    for stated in named.facts.get("uses_row", []):
        if not any(o.name in vocab.ROW_OPS for e in getattr(item, "effects", ()) for o in e.ops):
            ctx.err(
                "ME006",
                file,
                path + ("effects",),
                f"{name} must work with the Workshop Row",
                hint=f"{ctx.quote(stated)}; use one of: {', '.join(sorted(vocab.ROW_OPS))}",
            )
    for stated in named.facts.get("travel_removed", []):
        if item.id not in g.rules.travel_removes:
            ctx.err(
                "ME006",
                "game.yaml",
                ("variants", "travel", "remove_cores"),
                f"Travel mode must remove {name} ('{item.id}') from the Cores",
                hint=ctx.quote(stated),
            )
    for stated in named.facts.get("says", []):
        printed = text.card_text(g, item)
        if _norm(stated.value) not in _norm(printed):
            ctx.err(
                "ME012",
                file,
                path + ("name",),
                f'{name}\'s text should contain the rulebook\'s words "{stated.value}"; it prints "{printed}"',
                hint=ctx.quote(stated),
            )


# ------------------------------------------------------------------ connections (ME007, ME008)


def _mix(ctx: _Ctx) -> None:
    """The rulebook's mix, counted over Part Outputs (a Part's type is its Output), copies included."""
    g = ctx.game
    parts = g.of_kind("part")
    total = sum(c.copies for c in parts)
    if not total:
        return
    counts: Counter[str | None] = Counter()
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
                f"no Part accepts {g.connection(given(c.output)).name} as Input: a chain ending here is stuck",
                warning=True,
            )


# ------------------------------------------------------------------ requirements and Patents (ME009, ME010)


def _supply(g: MicroEngine, exclude: Card | None = None) -> Supply:
    """Upper bounds on what any one player could ever have, from the card set alone."""
    parts = list(g.of_kind("part"))
    upgrades = list(g.of_kind("upgrade"))

    def copies(c: Card) -> int:
        return c.copies - (1 if exclude is not None and c.id == exclude.id else 0)

    by_type: Counter[str | None] = Counter()
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


def _impossible(g: MicroEngine, cond: Condition, supply: Supply) -> list[tuple[str, str]]:
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
        if c.kind == "part" and c.slots < r.part_slots:
            said = ctx.facts.stated("rules.part_slots") if ctx.facts else []
            ctx.err(
                "ME011",
                "workshop.yaml",
                path + ("slots",),
                f"{c.name} has {text.plural(c.slots, 'slot')}; a Part has {r.part_slots} unless it shows more",
                hint=ctx.quote(said[0]) if said else None,
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
    printed: tuple[Card | Core | Patent, ...] = (*g.cards, *g.cores, *g.patents)
    for item in printed:
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
    decks: dict[str, tuple[str, list[tuple[Any, tuple[Any, ...]]]]] = {
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
    seen: dict[tuple[str, str], str] = {}
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
    c: Card | Core
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
    sources: tuple[Card | Core, ...] = (*g.cards, *g.cores)
    for item in sources:
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
