"""What the Micro-Engine print kit holds, and the data each layout template receives."""

from __future__ import annotations

import re
from typing import Any

from ...contract import LoadedGame
from ...sdk import Card as KitCard
from ...sdk import Face, Kit, TextIcon, card_art, escape
from . import text
from .model import Back, Card, Core, MicroEngine, Patent, given

TIMINGS = ("When played", "Ongoing", "Once per turn", "End game", "Requirement")


def rich(game: MicroEngine, line: str) -> str:
    """Return markup for a printed line: its timing word in bold, a glyph before each connection name."""
    out = escape(line)
    for word in TIMINGS:
        if out.startswith(word + ":"):
            out = f"<b>{word}:</b>" + out[len(word) + 1 :]
            break
    for conn in game.connections:
        out = re.sub(rf"\b{re.escape(conn.name)}\b", f"<nobr><icon {conn.glyph}>{conn.name}</nobr>", out)
    # keep a number with its word: "draw 1", "+1 action", "1 less", "2 VP", "≥5"
    return re.sub(
        r"(\b(?:draw|discard)|\+\d+) (\d+|action|actions)\b|(\d+) (less|VP|more|Upgrades?|Parts?)\b",
        lambda m: f"<nobr>{m.group(0)}</nobr>",
        out,
    )


def _conn(game: MicroEngine, cid: str) -> dict[str, str]:
    c = game.connection(cid)
    return {"id": c.id, "name": c.name, "glyph": c.glyph, "colour": c.colour, "flavour": c.flavour}


def _shared(game: MicroEngine) -> dict[str, Any]:
    return {
        "title": game.title,
        "tagline": game.tagline,
        "style": game.style,
        "connections": [_conn(game, c.id) for c in game.connections],
    }


def card_context(game: MicroEngine, card: Card, copy: int) -> dict[str, Any]:
    """Return what a Workshop card's front template receives."""
    lines = text.card_lines(game, card)
    ctx: dict[str, Any] = {
        "game": _shared(game),
        "card": {
            "id": card.id,
            "name": card.name,
            "kind": card.kind,
            "cost": card.cost,
            "vp": card.vp,
            "slots": card.slots,
            "number": copy,
            "copies": card.copies,
            "art": card_art(card.art, card.id),
        },
        "lines": lines,
        "rich": {
            "effects": [rich(game, e) for e in lines["effects"]],
            "requirement": rich(game, lines["requirement"]) if lines["requirement"] else None,
        },
    }
    if card.kind == "part":
        ctx["inputs"] = [_conn(game, c) for c in card.inputs]
        ctx["output"] = _conn(game, given(card.output))
    return ctx


def kit(loaded: LoadedGame[MicroEngine], players: int) -> Kit:
    """Return the kit: the Workshop deck, Cores, Patents, the round tracker and a player aid per player."""
    game = loaded.model
    shared = _shared(game)
    result = loaded.new_kit(
        players,
        context=shared,
        decks={
            "workshop": "Workshop deck: Parts, Upgrades, Calibrations",
            "core": "Cores",
            "patent": "Patents",
            "aid": f"{game.round_tracker_name} and {game.player_aid_name.lower()}s (one per player)",
        },
    )
    # the rules pages print each connection symbol (⚡) as its glyph, in its colour, as the cards do
    result.text_icons = tuple(TextIcon(c.symbol, c.glyph, c.colour, replace=True) for c in game.connections)
    back = Face("workshop-back.yaml.j2", {"game": shared, "back": _back(game.workshop_back)}, "workshop-back")
    for card in game.cards:
        for copy in range(1, card.copies + 1):
            front = Face(f"{card.kind}-front.yaml.j2", card_context(game, card, copy), f"{card.id}-{copy}/front")
            result.cards.append(KitCard(f"{card.id}-{copy}", card.name, "workshop", front, back))
    for core in game.cores:
        front = Face("core-front.yaml.j2", core_context(game, core), f"{core.id}/front")
        result.cards.append(
            KitCard(
                core.id,
                core.name,
                "core",
                front,
                Face("core-back.yaml.j2", {"game": shared, "back": _back(core.back)}, "core-back"),
            )
        )
    for patent in game.patents:
        front = Face("patent-front.yaml.j2", patent_context(game, patent), f"{patent.id}/front")
        result.cards.append(
            KitCard(
                patent.id,
                patent.name,
                "patent",
                front,
                Face("patent-back.yaml.j2", {"game": shared, "back": _back(patent.back)}, "patent-back"),
            )
        )
    # The round tracker and the player aids are never shuffled; they share one back: the rules summary.
    aid = aid_context(game)
    aid_back = Face("aid-back.yaml.j2", aid, "aid/back")
    result.cards.append(
        KitCard(
            "round-tracker",
            game.round_tracker_name,
            "aid",
            Face("tracker-front.yaml.j2", {**aid, "tracker": text.round_tracker_lines(game)}, "tracker/front"),
            aid_back,
        )
    )
    aid_front = Face("aid-front.yaml.j2", aid, "aid/front")
    for seat in range(1, players + 1):
        result.cards.append(KitCard(f"player-aid-{seat}", game.player_aid_name, "aid", aid_front, aid_back))
    return result


def _back(back: Back) -> dict[str, str]:
    return {"colour": back.colour, "label": back.label, "glyph": back.glyph}


def core_context(game: MicroEngine, core: Core) -> dict[str, Any]:
    """Return what a Core's front template receives."""
    lines = text.core_lines(game, core)
    return {
        "game": _shared(game),
        "core": {
            "id": core.id,
            "name": core.name,
            "vp": core.vp,
            "slots": core.slots,
            "art": card_art(core.art, core.id),
        },
        "lines": lines,
        "rich": {"effects": [rich(game, e) for e in lines["effects"]]},
    }


def patent_context(game: MicroEngine, patent: Patent) -> dict[str, Any]:
    """Return what a Patent's front template receives."""
    lines = text.patent_lines(game, patent)
    r = game.rules
    return {
        "game": _shared(game),
        "patent": {"id": patent.id, "name": patent.name, "vp": patent.vp, "art": card_art(patent.art, patent.id)},
        "lines": lines,
        "rich": {"condition": rich(game, lines["condition"])},
        "license": f"License ({r.license_min_players}–{max(game.players)} players): another player who meets "
        f"this takes the top Workshop card face down, worth {r.license_vp} VP, and turns this "
        f"card sideways. One License per Patent.",
    }


def aid_context(game: MicroEngine) -> dict[str, Any]:
    """Return what the player aid's two sides receive."""
    lines = text.player_aid_lines(game)
    return {
        "game": _shared(game),
        "aid": lines,
        "rich": {"phases": [(head, rich(game, body)) for head, body in lines["phases"]]},
    }
