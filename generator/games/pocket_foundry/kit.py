"""What the Pocket Foundry print kit holds, and the data each layout template receives."""

from __future__ import annotations

import re
from typing import Any

from ...contract import LoadedGame
from ...sdk import Card, Face, Kit, Page, TextIcon, card_art, escape, with_icons
from . import text
from .model import Machine, PocketFoundry


def icon_words(game: PocketFoundry) -> dict[str, str]:
    """Map each printed resource word (FEED, PART, PARTS, point, POINTS …) to its icon."""
    words: dict[str, str] = {}
    for res in game.rules.resources:
        for word in (res.singular, res.plural, res.label):
            words[word] = res.icon
    return words


def rich(line: str, words: dict[str, str]) -> str:
    """Return markup for a printed line: a leading `LABEL:` in capitals (any script) in bold, an icon before each
    amount."""
    match = re.match(r"^([^\W\d_][^\W\d_ \u00a0\u202f]*(?:[ \u00a0\u202f]+[^\W\d_]+)*[ \u00a0\u202f]?:)( .*)$", line)
    if match and match.group(1).isupper():
        return f"<b>{escape(match.group(1))}</b>{with_icons(match.group(2), words)}"
    return with_icons(line, words)


def rich_title(name: str, title: str) -> str:
    """Return a card title as markup: the name as it is, the words around it (`· copy 1`) small."""
    before, found, after = title.partition(name)
    if not found:
        return escape(title)
    return "".join(
        (f"<small>{escape(before)}</small>" if before else "", escape(name), f"<small>{escape(after)}</small>")
    )


def _machine(machine: Machine) -> dict[str, Any]:
    return {
        "id": machine.id,
        "name": machine.name,
        "colour": machine.colour,
        "glyph": machine.glyph,
        "art": card_art(machine.art, machine.id),
        "copies": machine.copies,
    }


def kit(loaded: LoadedGame[PocketFoundry], players: int) -> Kit:
    """Return the kit for `players`: market cards, one Starter Feeder and mat each, lap record, marker."""
    game = loaded.model
    words = icon_words(game)
    said = game.rules.words
    shared = {"title": game.title, "style": game.style, "tagline": game.tagline}
    result = loaded.new_kit(
        players,
        decks={
            "market": text.say(said, text.MARKET_DECK),
            "starter": text.say(said, text.STARTER_DECK, name=game.starter.name),
        },
        context=shared,
    )

    result.text_icons = tuple(
        TextIcon(word, icon) for word, icon in words.items()
    )  # before each amount, as on the cards
    market_back = Face("market-back.yaml.j2", {"game": shared}, "market-back")
    for machine in game.machines:
        for copy in range(1, machine.copies + 1):
            lines = text.machine_lines(game, machine, copy)
            context = {
                "game": shared,
                "machine": {**_machine(machine), "copy": copy},
                "lines": lines,
                "rich": {
                    "title": rich_title(machine.name, lines["title"]),
                    "build_cost": rich(lines["build_cost"], words),
                    "run": rich(lines["run"], words),
                },
            }
            front = Face("machine-front.yaml.j2", context, f"{machine.id}-{copy}/front")
            result.cards.append(Card(f"{machine.id}-{copy}", lines["title"], "market", front, market_back))

    lines = text.starter_lines(game)
    starter_front = Face(
        "starter-front.yaml.j2",
        {
            "game": shared,
            "machine": _machine(game.starter),
            "lines": lines,
            "rich": {"rule": rich(lines["rule"], words), "run": rich(lines["run"], words)},
        },
        f"{game.starter.id}/front",
    )
    starter_back = Face(
        "starter-back.yaml.j2", {"game": shared, "machine": _machine(game.starter)}, f"{game.starter.id}/back"
    )
    for seat in range(1, players + 1):
        result.cards.append(
            Card(f"{game.starter.id}-{seat}", game.starter.name, "starter", starter_front, starter_back)
        )

    mat = text.mat_lines(game)
    mat_face = Face(
        "mat.yaml.j2",
        {
            "game": shared,
            "lines": mat,
            "starter": _machine(game.starter),
            "rich": {"tracks": [rich(t, words) for t in mat["tracks"]]},
            "resources": [{"id": r.id, "label": r.label, "icon": r.icon} for r in game.rules.resources],
        },
        "mat",
    )
    for seat in range(1, players + 1):
        result.pages.append(
            Page(f"mat-{seat}", text.say(said, text.MAT_PAGE, mat=game.mat_name, seat=seat), mat_face, landscape=True)
        )

    record = Face(
        "lap-record.yaml.j2",
        {
            "game": shared,
            "record": text.lap_record_lines(game),
            "marker": text.marker_lines(game),
            "laps": game.rules.laps,
        },
        "lap-record",
    )
    label = text.say(said, text.RECORD_PAGE, record=game.lap_record_name, marker=game.marker_name.lower())
    result.pages.append(Page("lap-record", label, record))
    return result
