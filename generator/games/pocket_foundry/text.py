"""The words printed on every Pocket Foundry component, derived from the card data through the game's catalogue.

Each sentence form is a message (its English wording the msgid); a translation's messages.po gives it in its
language, and `textparse` reads printed lines back through the same forms.
"""

from __future__ import annotations

from typing import TypedDict

from ...sdk import Catalogue, KeyPath, Message
from .model import Amounts, Effect, Machine, PocketFoundry, Rules

BLANK = "__________"
LONG_BLANK = "__________________"

# The forms, in the order a translator meets them on the cards.
LIST = Message(
    "{items} and {last}", comment="joins amounts: {items} is '3 FEED' or '3 FEED, 1 PART', {last} one amount"
)
PAY = Message("Pay {pay} to gain {gain}", comment="a RUN effect that costs something; {pay} and {gain} are amounts")
GAIN = Message("Gain {gain}", comment="a free RUN effect; {gain} is amounts such as '3 FEED and 1 point'")
TITLE = Message("{name} · copy {copy}", comment="a market card's title: its name and which copy it is")
BUILD_COST = Message("BUILD COST: {amounts}.", comment="paid once, from the market; a leading CAPITALS label is bold")
RUN = Message("RUN: {effect}.", comment="{effect} is a Pay/Gain form, perhaps with the cap reminder")
CAP = Message(
    "{effect}, then discard down to the {cap}-{label} cap",
    comment="the Starter Feeder's reminder; {cap} is a number in words (six), {label} a resource label (FEED)",
)
STARTER_RULE = Message("STARTER ONLY: begins in slot 1; cannot be replaced or bought.")
PLAYER = Message("Player: {blank}", comment="the mat's name line; {blank} is a line to write on")
SLOT = Message("Slot {n}: {machine}", comment="a slot label on the mat; {machine} is the starter's name or a blank")
ORDER = Message(
    "Resolve from slot 1 to slot {slots}. Leave enough table space below each label for a machine card.",
    comment="{slots} is the number of slots, in digits",
)
TRACK = Message(
    "{label}: {start} → {blank}{cap}", comment="a resource tally on the mat; {cap} is the cap form below, or nothing"
)
TRACK_CAP = Message(" (cap {n}).", comment="after a capped tally")
TURN = Message("Turn: BUILD one market card, or RUN your entire row. No free run after building.")
LAPS = Message("Laps {first}–{last}: {boxes}", comment="a row of the lap record; {boxes} is '1 □ 2 □ …'")
RECORD_RULE = Message("Cross off only after everyone has taken one turn.")
FOOTER = Message(
    "Move the starting-player marker clockwise after every lap. Stop after lap {laps}; no free final actions.",
    comment="{laps} is the number of laps in words (twelve)",
)
MARKER_RULE = Message(
    "Place in front of the first player of this lap. Move one seat clockwise after everyone has acted."
)
MARKET_DECK = Message("market cards", context="deck", comment="the market deck, as the cover's contents name it")
STARTER_DECK = Message("{name}s (one per player)", context="deck", comment="{name} is the starter's name")
MAT_PAGE = Message("{mat} {seat}", context="page", comment="a page's label: the mat's name and the seat number")
RECORD_PAGE = Message("{record} and {marker}", context="page", comment="{marker} is in lower case")
MESSAGES = (
    LIST, PAY, GAIN, TITLE, BUILD_COST, RUN, CAP, STARTER_RULE, PLAYER, SLOT, ORDER, TRACK, TRACK_CAP, TURN, LAPS,
    RECORD_RULE, FOOTER, MARKER_RULE, MARKET_DECK, STARTER_DECK, MAT_PAGE, RECORD_PAGE,
)  # fmt: skip


class MatLines(TypedDict):
    """The strings printed on the player mat."""

    title: str
    player: str
    slots: list[str]
    order: str
    tracks: list[str]
    turn: str


class LapRecordLines(TypedDict):
    """The strings printed on the lap record."""

    title: str
    rule: str
    rows: list[str]
    footer: str


def say(words: Catalogue, message: Message, **values: object) -> str:
    """Return a message in the game's language, its slots filled."""
    return words.form(message.id, message.context, **values)


def amounts(rules: Rules, pairs: Amounts) -> str:
    """Return `3 FEED and 1 point` for [(feed, 3), (points, 1)]."""
    words = [f"{n} {rules.resource(rid).noun(n)}" for rid, n in pairs]
    return words[0] if len(words) == 1 else say(rules.words, LIST, items=", ".join(words[:-1]), last=words[-1])


def effect(rules: Rules, run: Effect) -> str:
    """Return `Pay 2 FEED to gain 1 PART` or `Gain 3 FEED`."""
    if run.pay:
        return say(rules.words, PAY, pay=amounts(rules, run.pay), gain=amounts(rules, run.gain))
    return say(rules.words, GAIN, gain=amounts(rules, run.gain))


def title(rules: Rules, machine: Machine, copy: int) -> str:
    """Return `Feed Belt · copy 1`."""
    return say(rules.words, TITLE, name=machine.name, copy=copy)


def build_cost(rules: Rules, machine: Machine) -> str:
    """Return the BUILD COST line: the hand-written `text.build_cost` if any, else derived from the data."""
    return machine.build_text or derived_build_cost(rules, machine)


def derived_build_cost(rules: Rules, machine: Machine) -> str:
    """Return `BUILD COST: 2 FEED.`."""
    return say(rules.words, BUILD_COST, amounts=amounts(rules, machine.build_cost))


def run(rules: Rules, machine: Machine) -> str:
    """Return the RUN line: the hand-written `text.run` if any, else derived from the data."""
    return machine.run_text or derived_run(rules, machine)


def derived_run(rules: Rules, machine: Machine) -> str:
    """Return `RUN: Gain 3 FEED.`, with the cap reminder when the machine asks for one."""
    text = effect(rules, machine.run)
    if machine.remind_cap:
        for rid, _ in machine.run.gain:
            res = rules.resource(rid)
            if res.cap is not None:
                text = say(rules.words, CAP, effect=text, cap=rules.words.spell(res.cap), label=res.label)
    return say(rules.words, RUN, effect=text)


def starter_rule(game: PocketFoundry) -> str:
    """Return the Starter Feeder's first line."""
    return say(game.rules.words, STARTER_RULE)


def machine_lines(game: PocketFoundry, machine: Machine, copy: int) -> dict[str, str]:
    """Return every string printed on one market card."""
    return {
        "title": title(game.rules, machine, copy),
        "build_cost": build_cost(game.rules, machine),
        "run": run(game.rules, machine),
        "reminder": game.reminder,
    }


def starter_lines(game: PocketFoundry) -> dict[str, str]:
    """Return every string printed on the Starter Feeder."""
    return {"title": game.starter.name, "rule": starter_rule(game), "run": run(game.rules, game.starter)}


def mat_lines(game: PocketFoundry) -> MatLines:
    """Return every string printed on the player mat."""
    rules, words = game.rules, game.rules.words
    slots = [say(words, SLOT, n=1, machine=game.starter.name.upper())]
    slots += [say(words, SLOT, n=i, machine=BLANK) for i in range(2, rules.slots + 1)]
    tracks = []
    for res in rules.resources:
        cap = say(words, TRACK_CAP, n=res.cap) if res.cap is not None else ""
        tracks.append(say(words, TRACK, label=res.label, start=res.start, blank=LONG_BLANK, cap=cap))
    return {
        "title": game.mat_name,
        "player": say(words, PLAYER, blank=BLANK),
        "slots": slots,
        "order": say(words, ORDER, slots=rules.slots),
        "tracks": tracks,
        "turn": say(words, TURN),
    }


def lap_record_lines(game: PocketFoundry) -> LapRecordLines:
    """Return every string printed on the lap record, laps split into two rows."""
    words = game.rules.words
    laps = game.rules.laps
    half = (laps + 1) // 2
    rows = []
    for first, last in ((1, half), (half + 1, laps)):
        if first <= last:
            boxes = " ".join(f"{n} □" for n in range(first, last + 1))
            rows.append(say(words, LAPS, first=first, last=last, boxes=boxes))
    return {
        "title": game.lap_record_name,
        "rule": say(words, RECORD_RULE),
        "rows": rows,
        "footer": say(words, FOOTER, laps=words.spell(laps)),
    }


def marker_lines(game: PocketFoundry) -> dict[str, str]:
    """Return every string printed on the starting-player marker."""
    return {"title": game.marker_name, "rule": say(game.rules.words, MARKER_RULE)}


def translatable(game: PocketFoundry) -> list[tuple[str, KeyPath, str]]:
    """Return (file, key path, printed text) for every word a translation gives card by card."""
    rules = game.rules
    out: list[tuple[str, KeyPath, str]] = [("game.yaml", ("title",), game.title)]
    if game.tagline:
        out.append(("game.yaml", ("tagline",), game.tagline))
    for res in rules.resources:
        for key in ("singular", "plural", "label"):
            out.append(("game.yaml", ("rules", "resources", res.id, key), getattr(res, key)))
    out.append(("machines.yaml", ("reminder",), game.reminder))
    for m in (*game.machines, game.starter):
        at: KeyPath = ("starter",) if m.is_starter else ("machines", m.index)
        out.append(("machines.yaml", (*at, "name"), m.name))
        if not m.is_starter:
            out.append(("machines.yaml", (*at, "text", "build_cost"), build_cost(rules, m)))
        out.append(("machines.yaml", (*at, "text", "run"), run(rules, m)))
    for key, name in (("mat", game.mat_name), ("lap_record", game.lap_record_name), ("marker", game.marker_name)):
        out.append(("components.yaml", (key, "name"), name))
    return out
