"""Tabletop Playground: a package folder with one card-stack object template per deck sheet, and its textures.

`Templates/<deck>-<size>-N.json` is an object template of Type "Card" (the format of Tabletop
Playground's published schemas, plasticity-studios/tabletop-playground-schemas, templates.ts): the
sheet `Textures/<deck>-<size>-N.png` is its front atlas of NumHorizontal × NumVertical cards, `Indices`
lists the atlas index of every card of the stack (copies repeated), `CardNames` names each index.
A deck with one back points BackTexture at `<deck>-<size>-back.png` with BackIndex -2 (a whole separate
file); a deck with a back per card has a back atlas on the same grid, BackIndex -3 (the same index in a
separate file). Width and Height are the card's size in centimetres. The sheets are the ones the
Tabletop Simulator export makes (at most 10 × 7 cards, 4096 px a side).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from . import tts
from .common import Deck, Game
from .options import ExportOptions
from .target import FaceTarget

THICKNESS_CM = 0.05  # the schema's default card thickness


def guid(*parts: object) -> str:
    """Return a 32-hex-digit template GUID made from `parts`: the same every build, upper case as TTPG writes it."""
    return hashlib.sha256("\0".join(map(str, parts)).encode()).hexdigest()[:32].upper()


def template(
    name: str, key: str, front: str, back: str, unique_back: bool, sheet: tts.Sheet, deck: Deck
) -> dict[str, Any]:
    """Return the object template of one sheet's card stack."""
    slot_of = {(p.card.front.key, p.card.back.key): slot for slot, p in enumerate(sheet.slots)}
    on_sheet = [c for c in deck.cards if (c.front.key, c.back.key) in slot_of]
    return {
        "Type": "Card",
        "GUID": key,
        "Name": name,
        "Metadata": "",
        "CollisionType": "Regular",
        "Friction": 0.7,
        "Restitution": 0,
        "Density": 0.5,
        "SurfaceType": "Cardboard",
        "Roughness": 1,
        "Metallic": 0,
        "PrimaryColor": {"R": 255, "G": 255, "B": 255},
        "SecondaryColor": {"R": 0, "G": 0, "B": 0},
        "Flippable": True,
        "AutoStraighten": False,
        "ShouldSnap": True,
        "ScriptName": "",
        "Blueprint": "",
        "Models": [],
        "Collision": [],
        "SnapPointsGlobal": False,
        "SnapPoints": [],
        "ZoomViewDirection": {"X": 0, "Y": 0, "Z": 0},
        "FrontTexture": front,
        "BackTexture": back,
        "HiddenTexture": "",
        "BackIndex": -3 if unique_back else -2,
        "HiddenIndex": -3,  # hidden cards show their back
        "NumHorizontal": sheet.cols,
        "NumVertical": sheet.rows,
        "Width": round(deck.size.w / 10, 4),
        "Height": round(deck.size.h / 10, 4),
        "Thickness": THICKNESS_CM,
        "HiddenInHand": True,
        "UsedWithCardHolders": True,
        "CanStack": True,
        "UsePrimaryColorForSide": False,
        "ShapeAccuracy": 10,
        "ConvexCollision": False,
        "MirrorBack": True,
        "Model": "Rounded",
        "Indices": [slot_of[(c.front.key, c.back.key)] for c in on_sheet],
        "CardNames": {str(slot): p.card.name for slot, p in enumerate(sheet.slots)},
        "CardMetadata": {str(slot): p.card.id for slot, p in enumerate(sheet.slots)},
        "CardTags": {},
        "Tags": [],
    }


def files(game: Game, options: ExportOptions) -> dict[str, bytes]:
    """Return {path inside the package folder: bytes}: Templates/*.json and Textures/*.png."""
    assert game.kit is not None
    out: dict[str, bytes] = {}
    for deck, sheets in tts.plan(game.decks()):
        shared = deck.shared_back()
        back_name = f"{deck.slug}-back.png"
        if shared:
            out[f"Textures/{back_name}"] = tts.back_png(game, deck, sheets[0])
        for n, sheet in enumerate(sheets, 1):
            face_name = f"{deck.slug}-{n}.png"
            out[f"Textures/{face_name}"] = tts.sheet_png(game, deck, sheet, "front")
            if not shared:
                back_name = f"{deck.slug}-{n}-backs.png"
                out[f"Textures/{back_name}"] = tts.sheet_png(game, deck, sheet, "back")
            name = f"{game.kit.title}: {deck.name}" + (f" ({n})" if len(sheets) > 1 else "")
            made = template(name, guid(game.id, deck.slug, n), face_name, back_name, not shared, sheet, deck)
            out[f"Templates/{deck.slug}-{n}.json"] = (json.dumps(made, indent=2, ensure_ascii=False) + "\n").encode()
    return out


class TabletopPlayground(FaceTarget):
    """Tabletop Playground, as an export target."""

    name = "ttpg"
    summary = "Tabletop Playground: a package folder, a card-stack object template per deck sheet and its textures."
    kind = "table"
    bundled = True

    def made(self, game: Game, options: ExportOptions) -> dict[str, bytes]:
        return files(game, options)


TARGET = TabletopPlayground()
