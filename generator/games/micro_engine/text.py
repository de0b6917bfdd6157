"""The words printed on every Micro-Engine component, derived from the card data."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from .model import Card, Condition, Core, Effect, MicroEngine, Op, Patent, Quantity, Test, given
from .vocab import TIMING_WORDS

KIND_NAMES = {"part": "Part", "upgrade": "Upgrade", "calibration": "Calibration"}
ARTICLES = {"part": "a Part", "upgrade": "an Upgrade", "calibration": "a Calibration"}


class CardLines(TypedDict):
    """The strings printed on a Workshop card (a Part's connections and slots, a reminder by kind)."""

    name: str
    kind: str
    cost: str
    vp: str | None  # none on a Calibration
    requirement: str | None
    effects: list[str]
    input: NotRequired[str]
    output: NotRequired[str]
    slots: NotRequired[str]
    reminder: NotRequired[str]


class CoreLines(TypedDict):
    """The strings printed on a Core."""

    name: str
    kind: str
    output: str
    slots: str
    vp: str
    effects: list[str]
    reminder: str


class PatentLines(TypedDict):
    """The strings printed on a Patent."""

    name: str
    kind: str
    vp: str
    condition: str


class RoundTrackerLines(TypedDict):
    """What the round tracker prints: its boxes, the Quick game's rounds and its rules lines."""

    title: str
    rounds: list[int]
    quick_rounds: int
    standard: str
    quick: str
    rule: str


class PlayerAidLines(TypedDict):
    """The strings printed on the player aid: the turn's phases as (heading, body), then the rules side."""

    title: str
    phases: list[tuple[str, str]]
    costs: str
    patents: str
    rounds: str
    scoring: str


def plural(n: int, word: str, words: str | None = None) -> str:
    """Return `1 card` or `2 cards`."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


def conn_name(game: MicroEngine, cid: str) -> str:
    """Return the printed name of a connection type."""
    return game.connection(cid).name


def inputs(game: MicroEngine, card: Card) -> str:
    """Return `Electricity` or `Steam or Mechanical` (an Input of "A or B" matches either)."""
    return " or ".join(conn_name(game, c) for c in card.inputs)


def typed_kind(game: MicroEngine, kind: str, ctype: str | None, many: bool = False) -> str:
    """Return `Part`, `Steam Part` or `Steam Parts`."""
    word = KIND_NAMES[kind] + ("s" if many else "")
    return f"{conn_name(game, ctype)} {word}" if ctype else word


def _article(phrase: str) -> str:
    return ("an " if phrase[0] in "AEIOU" else "a ") + phrase


def quantity_phrase(game: MicroEngine, q: Quantity, singular: bool) -> str:
    """Return what a VP count counts, e.g. `Steam Part in your chain` (singular, after `per`)."""
    if q.name == "parts":
        return f"{typed_kind(game, 'part', q.type, many=not singular)} in your chain"
    words = {
        "chain_length": ("Part in your chain", "Parts in your chain"),
        "types": ("Part type in your chain", "Part types in your chain"),
        "upgrades": ("Upgrade in play", "Upgrades in play"),
        "hand": ("card in your hand", "cards in your hand"),
        "patents": ("Patent you own", "Patents you own"),
        "claims": ("Patent or License you hold", "Patents or Licenses you hold"),
        "neighbor": ("neighbor of its host", "neighbors of its host"),
        "neighbors": ("neighbor of its host", "neighbors of its host"),
        "actions": ("action this turn", "actions this turn"),
        "loaded": ("Upgrade under one Part", "Upgrades under one Part"),
        "top_vp": ("VP on your best Part", "VP on your best Part"),
    }[q.name]
    return words[0] if singular else words[1]


def test_phrase(game: MicroEngine, test: Test) -> str:
    """Return one clause of a condition, e.g. `Chain length ≥5` or `3 Upgrades in play`."""
    q, n = test.quantity, test.at_least
    if q.name == "chain_length":
        return f"Chain length ≥{n}"
    if q.name == "parts":
        kind = typed_kind(game, "part", q.type, many=n != 1)
        return f"{_article(kind) if n == 1 else f'{n} {kind}'} in your chain"
    if q.name == "types":
        return f"Parts of {n} different types in your chain"
    if q.name == "upgrades":
        return f"{plural(n, 'Upgrade')} in play"
    if q.name == "loaded":
        return f"a Part holding {plural(n, 'Upgrade')}"
    if q.name == "top_vp":
        return f"a Part worth {n} VP or more"
    if q.name == "hand":
        return f"{plural(n, 'card')} in your hand"
    if q.name == "patents":
        return f"{plural(n, 'Patent')} owned"
    if q.name == "claims":
        return f"{n} Patents or Licenses held" if n != 1 else "a Patent or License held"
    if q.name == "actions":
        return f"{plural(n, 'action')} taken this turn"
    raise ValueError(f"no phrase for quantity {q.name}")


def played_phrase(kinds: tuple[str, ...]) -> str:
    """Return `you played a Part, an Upgrade, and a Calibration this turn`."""
    items = [ARTICLES[k] for k in kinds]
    if len(items) == 1:
        listed = items[0]
    elif len(items) == 2:
        listed = f"{items[0]} and {items[1]}"
    else:
        listed = ", ".join(items[:-1]) + ", and " + items[-1]
    return f"you played {listed} this turn"


def condition(game: MicroEngine, cond: Condition) -> str:
    """Return a Requirement or Patent condition, clauses joined by `and`."""
    parts = [test_phrase(game, t) for t in cond.tests]
    tail = " in your chain"
    for i in range(len(parts) - 1, 0, -1):  # "2 Steam Parts and 2 Electricity Parts in your chain"
        if parts[i].endswith(tail) and parts[i - 1].endswith(tail):
            parts[i - 1 : i + 1] = [parts[i - 1][: -len(tail)] + " and " + parts[i]]
    if cond.played_this_turn:
        parts.append(played_phrase(cond.played_this_turn))
    return " and ".join(parts)


def op_phrase(game: MicroEngine, op: Op, place: str) -> str:
    """Return the words for one op, lower-case, e.g. `you draw 1`."""
    if op.name == "draw":
        return f"you draw {op.n}"
    if op.name == "action":
        return f"you gain +{plural(op.n, 'action')}"
    if op.name == "discard":
        return f"then you discard {op.n}"
    if op.name == "next_cost":
        return f"your next {typed_kind(game, given(op.of), op.type)} costs {-op.by} less"
    if op.name == "next_any_input":
        return "your next Part may have any Input"
    if op.name == "cost" and place == "permission":
        return f"{_article(typed_kind(game, given(op.of), op.type))} you play costs {-op.by} less"
    if op.name == "cost":
        return f"your {typed_kind(game, given(op.of), op.type, many=True)} cost {-op.by} less"
    if op.name == "any_input":
        return "a Part you play may have any Input"
    if op.name == "research":
        return f"your Research draws {plural(op.n, 'more card')}"
    if op.name == "row_pick":
        return (
            f"in your Draw phase, take {plural(op.n, 'extra card')} from the Workshop Row, "
            f"then discard {plural(op.n, 'card')}"
        )
    if op.name == "hand_limit":
        return f"your hand limit is {op.n} higher"
    if op.name == "open_end":
        return "while its host ends your chain, your chain’s Output is universal"
    if op.name == "vp":
        if op.every > 1:
            return f"+{op.n} VP for every {op.every} {quantity_phrase(game, given(op.per), singular=False)}"
        return f"+{op.n} VP per {quantity_phrase(game, given(op.per), singular=True)}"
    raise ValueError(f"no phrase for op {op.name}")


def _join(phrases: list[str]) -> str:
    out = phrases[0]
    for i, p in enumerate(phrases[1:], 1):
        if p.startswith("then "):
            out += ", " + p
        elif i == len(phrases) - 1:
            out += ", and " + p
        else:
            out += ", " + p
    return out


def trigger_phrase(game: MicroEngine, eff: Effect) -> str:
    """Return `whenever you play a Part with a Cost of 2 or more` (or `when …` once per turn)."""
    word = "whenever" if eff.when == "ongoing" else "when"
    if eff.trigger == "research":
        return f"{word} you Research"
    what = _article(typed_kind(game, given(eff.trigger), eff.if_type))
    cost = f" with a Cost of {eff.if_min_cost} or more" if eff.if_min_cost else ""
    return f"{word} you play {what}{cost}"


def effect_body(game: MicroEngine, eff: Effect) -> str:
    """Return what an effect does, without its timing word."""
    from .vocab import place

    where = place(eff.when, eff.trigger)
    body = _join([op_phrase(game, op, where) for op in eff.ops])
    if eff.trigger:
        body = f"{trigger_phrase(game, eff)}, {body}"
    return body


def effect(game: MicroEngine, eff: Effect) -> str:
    """Return one effect line, e.g. `When played: you draw 1.`."""
    return f"{TIMING_WORDS[eff.when]}: {effect_body(game, eff)}."


def effects(game: MicroEngine, card: Card | Core) -> list[str]:
    """Return every effect line of a card."""
    return [effect(game, e) for e in card.effects]


def requirement(game: MicroEngine, card: Card) -> str | None:
    """Return `Requirement: Chain length ≥5`, or None."""
    return f"Requirement: {condition(game, card.requires)}" if card.requires else None


def card_text(game: MicroEngine, item: Card | Core | Patent) -> str:
    """Return the rules text a card prints: Requirement and effects (or a Patent's condition)."""
    if isinstance(item, Patent):
        return patent_text(game, item)
    lines = []
    if isinstance(item, Card) and item.requires:
        lines.append(given(requirement(game, item)) + ".")
    lines += effects(game, item)
    return " ".join(lines)


def patent_text(game: MicroEngine, patent: Patent) -> str:
    """Return a Patent's condition as a sentence, e.g. `Chain length ≥6.`."""
    cond = condition(game, patent.condition)
    return cond[0].upper() + cond[1:] + "."


def card_lines(game: MicroEngine, card: Card) -> CardLines:
    """Return every string printed on a Workshop card."""
    out: CardLines = {
        "name": card.name,
        "kind": KIND_NAMES[card.kind],
        "cost": f"Cost {card.cost}",
        "vp": f"{card.vp} VP" if card.kind != "calibration" else None,
        "requirement": requirement(game, card),
        "effects": effects(game, card),
    }
    if card.kind == "part":
        out["input"] = inputs(game, card)
        out["output"] = conn_name(game, given(card.output))
        out["slots"] = plural(card.slots, "slot")
    if card.kind == "calibration":
        out["reminder"] = "Announce, resolve, discard, then +1 action. Only 1 Calibration per turn."
    if card.kind == "upgrade":
        out["reminder"] = "Tuck under a Part or your Core with a free slot."
    return out


def core_lines(game: MicroEngine, core: Core) -> CoreLines:
    """Return every string printed on a Core."""
    return {
        "name": core.name,
        "kind": "Core",
        "output": "Universal",
        "slots": plural(core.slots, "slot"),
        "vp": f"{core.vp} VP",
        "effects": effects(game, core),
        "reminder": "Universal Output: your first Part may have any Input.",
    }


def patent_lines(game: MicroEngine, patent: Patent) -> PatentLines:
    """Return every string printed on a Patent."""
    return {"name": patent.name, "kind": "Patent", "vp": f"{patent.vp} VP", "condition": patent_text(game, patent)}


def round_tracker_lines(game: MicroEngine) -> RoundTrackerLines:
    """Return every string printed on the round tracker: R rounds and the Quick game's R − 2."""
    r = game.rules.rounds
    q = game.rounds(quick=True)
    return {
        "title": game.round_tracker_name,
        "rounds": list(range(1, r + 1)),
        "quick_rounds": q,
        "standard": f"Standard game: {r} rounds.",
        "quick": f"Quick game: {q} rounds (start the marker on round {r - q + 1}).",
        "rule": "Move the marker after the last player in turn order has played. "
        "The game ends after the last round: everyone has had the same number of turns.",
    }


def player_aid_lines(game: MicroEngine) -> PlayerAidLines:
    """Return every string printed on the player aid (turn summary) and its rules side."""
    r = game.rules
    return {
        "title": game.player_aid_name,
        "phases": [
            (
                "A · Draw",
                f"Take {r.draw_picks} cards in any mix from the Workshop Row and the top of the deck. "
                f"Refill the Row to {r.row_size} after both picks.",
            ),
            (
                "B · Play",
                f"{plural(r.actions, 'action').capitalize()}: play a Part, play an Upgrade, play a "
                f"Calibration (then +1 action; only {r.calibrations_per_turn} per turn), or Research "
                f"(draw {r.research_draw}).",
            ),
            ("Bonus Upgrade", "Right after a Part: play 1 Upgrade without an action (pay its Cost)."),
            ("End of turn", f"Discard down to {r.hand_limit} cards. Unused actions are lost."),
        ],
        "costs": "Pay a Cost by discarding that many cards. Flat reductions stack, never below 0; then "
        "check effects such as “a Cost of 2 or more”. A Requirement must be true before you play.",
        "patents": f"Claim on your turn as soon as you meet one. License ({r.license_min_players}–"
        f"{max(game.players)} players): {r.license_vp} VP, one per Patent; one claim per Patent each.",
        "rounds": f"Game: {r.rounds} rounds · Quick game: {game.rounds(quick=True)} rounds",
        "scoring": "VP from Parts, Upgrades, Core, Patents, Licenses and End game effects. "
        "Tie: longest chain; still tied, a shared win.",
    }
