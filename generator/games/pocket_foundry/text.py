"""The words printed on every Pocket Foundry component, derived from the card data."""

from __future__ import annotations

from typing import TypedDict

from ...sdk import NUMBER_WORDS
from .model import Amounts, Effect, Machine, PocketFoundry, Rules

BLANK = "__________"
LONG_BLANK = "__________________"


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


def spell(n: int) -> str:
    """Return `six` for 6 (digits past twenty)."""
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def amounts(rules: Rules, pairs: Amounts) -> str:
    """Return `3 FEED and 1 point` for [(feed, 3), (points, 1)]."""
    words = [f"{n} {rules.resource(rid).noun(n)}" for rid, n in pairs]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def effect(rules: Rules, run: Effect) -> str:
    """Return `Pay 2 FEED to gain 1 PART` or `Gain 3 FEED`."""
    if run.pay:
        return f"Pay {amounts(rules, run.pay)} to gain {amounts(rules, run.gain)}"
    return f"Gain {amounts(rules, run.gain)}"


def title(machine: Machine, copy: int) -> str:
    """Return `Feed Belt · copy 1`."""
    return f"{machine.name} · copy {copy}"


def build_cost(rules: Rules, machine: Machine) -> str:
    """Return the BUILD COST line: the hand-written `text.build_cost` if any, else derived from the data."""
    return machine.build_text or derived_build_cost(rules, machine)


def derived_build_cost(rules: Rules, machine: Machine) -> str:
    """Return `BUILD COST: 2 FEED.`."""
    return f"BUILD COST: {amounts(rules, machine.build_cost)}."


def run(rules: Rules, machine: Machine) -> str:
    """Return the RUN line: the hand-written `text.run` if any, else derived from the data."""
    return machine.run_text or derived_run(rules, machine)


def derived_run(rules: Rules, machine: Machine) -> str:
    """Return `RUN: Gain 3 FEED.`, with the cap reminder when the machine asks for one."""
    text = f"RUN: {effect(rules, machine.run)}"
    if machine.remind_cap:
        for rid, _ in machine.run.gain:
            res = rules.resource(rid)
            if res.cap is not None:
                text += f", then discard down to the {spell(res.cap)}-{res.label} cap"
    return text + "."


def starter_rule(game: PocketFoundry) -> str:
    """Return the Starter Feeder's first line."""
    return "STARTER ONLY: begins in slot 1; cannot be replaced or bought."


def machine_lines(game: PocketFoundry, machine: Machine, copy: int) -> dict[str, str]:
    """Return every string printed on one market card."""
    return {
        "title": title(machine, copy),
        "build_cost": build_cost(game.rules, machine),
        "run": run(game.rules, machine),
        "reminder": game.reminder,
    }


def starter_lines(game: PocketFoundry) -> dict[str, str]:
    """Return every string printed on the Starter Feeder."""
    return {"title": game.starter.name, "rule": starter_rule(game), "run": run(game.rules, game.starter)}


def mat_lines(game: PocketFoundry) -> MatLines:
    """Return every string printed on the player mat."""
    rules = game.rules
    slots = [f"Slot 1: {game.starter.name.upper()}"] + [f"Slot {i}: {BLANK}" for i in range(2, rules.slots + 1)]
    tracks = []
    for res in rules.resources:
        cap = f" (cap {res.cap})." if res.cap is not None else ""
        tracks.append(f"{res.label}: {res.start} → {LONG_BLANK}{cap}")
    return {
        "title": game.mat_name,
        "player": f"Player: {BLANK}",
        "slots": slots,
        "order": f"Resolve from slot 1 to slot {rules.slots}. "
        "Leave enough table space below each label for a machine card.",
        "tracks": tracks,
        "turn": "Turn: BUILD one market card, or RUN your entire row. No free run after building.",
    }


def lap_record_lines(game: PocketFoundry) -> LapRecordLines:
    """Return every string printed on the lap record, laps split into two rows."""
    laps = game.rules.laps
    half = (laps + 1) // 2
    rows = []
    for first, last in ((1, half), (half + 1, laps)):
        if first <= last:
            boxes = " ".join(f"{n} □" for n in range(first, last + 1))
            rows.append(f"Laps {first}–{last}: {boxes}")
    return {
        "title": game.lap_record_name,
        "rule": "Cross off only after everyone has taken one turn.",
        "rows": rows,
        "footer": "Move the starting-player marker clockwise after every lap. "
        f"Stop after lap {spell(laps)}; no free final actions.",
    }


def marker_lines(game: PocketFoundry) -> dict[str, str]:
    """Return every string printed on the starting-player marker."""
    return {
        "title": game.marker_name,
        "rule": "Place in front of the first player of this lap. Move one seat clockwise after everyone has acted.",
    }
