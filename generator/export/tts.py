"""Tabletop Simulator: face sheets of at most 10 × 7 cards and 4096 px a side, back images, a saved object.

The saved object (`<game>.json`, for TTS's "Saved Objects" folder) holds one DeckCustom per shuffled
deck. Each sheet is one CustomDeck entry, keyed 1, 2, … across the file; a card's CardID is its
sheet's key × 100 + its slot (0-based, left to right, top to bottom). Copies of a card share a slot.
A sheet holds at most 69 slots, so its last cell (TTS's default "hidden" image) is never a card, and
BackIsHidden shows the deck's back for hidden cards. Faces are cut at the trim: TTS shows the whole cell.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .common import MM_PER_INCH, Deck, Game, png, rasters, trimmed
from .facefiles import Pair
from .options import ExportOptions
from .target import FaceTarget

if TYPE_CHECKING:
    from PIL import Image

    from ..impose.sizes import CardSize

MAX_COLS, MAX_ROWS = 10, 7
MAX_SLOTS = MAX_COLS * MAX_ROWS - 1  # the last cell stays free
MAX_PX = 4096
MAX_DPI = 300
POKER_WIDTH, POKER_HEIGHT = 63.5, 88.9  # mm: the card TTS draws at scale 1


@dataclass(frozen=True)
class Sheet:
    """One face sheet: its CustomDeck key, grid, the deck's cards on it (slot order) and its cell size."""

    key: int
    cols: int
    rows: int
    slots: list[Pair]  # one per slot
    cell: tuple[int, int]
    dpi: float


def grid(count: int) -> tuple[int, int]:
    """Return (columns, rows) for a sheet of `count` cards and one free cell: up to 10 wide, as few rows as hold them."""
    if not 1 <= count <= MAX_SLOTS:
        raise ValueError(f"a sheet holds 1 to {MAX_SLOTS} cards, not {count}")
    cols = min(MAX_COLS, count + 1)
    return cols, math.ceil((count + 1) / cols)


def cell_size(w_mm: float, h_mm: float, cols: int, rows: int) -> tuple[tuple[int, int], float]:
    """Return the cell's pixels and the dpi it is drawn at: at most 300 dpi, the sheet at most 4096 px a side."""
    w_in, h_in = w_mm / MM_PER_INCH, h_mm / MM_PER_INCH
    dpi = min(MAX_DPI, MAX_PX / (cols * w_in), MAX_PX / (rows * h_in))
    return (math.floor(w_in * dpi), math.floor(h_in * dpi)), dpi


def plan(decks: list[Deck]) -> list[tuple[Deck, list[Sheet]]]:
    """Return every deck with its sheets, keys numbered from 1 across the whole file."""
    from .facefiles import pairs

    key = 0
    out = []
    for deck in decks:
        items = pairs(deck)
        sheets = []
        for start in range(0, len(items), MAX_SLOTS):
            chunk = items[start : start + MAX_SLOTS]
            cols, rows = grid(len(chunk))
            cell, dpi = cell_size(deck.size.w, deck.size.h, cols, rows)
            key += 1
            sheets.append(Sheet(key, cols, rows, chunk, cell, dpi))
        out.append((deck, sheets))
    return out


def sheet_image(game: Game, deck: Deck, sheet: Sheet, side: str) -> Image.Image:
    """Return the sheet's image of fronts (or of backs) laid out row by row."""
    from PIL import Image

    prepared = [game.prepared(pair.card, side) for pair in sheet.slots]
    canvas = Image.new("RGB", (sheet.cols * sheet.cell[0], sheet.rows * sheet.cell[1]), (255, 255, 255))
    for slot, (face, image) in enumerate(zip(prepared, rasters(game, prepared, sheet.dpi))):
        card = fit_cell(trimmed(image, face.doc.bleed, deck.size, sheet.dpi), sheet.cell)
        canvas.paste(card, ((slot % sheet.cols) * sheet.cell[0], (slot // sheet.cols) * sheet.cell[1]))
    return canvas


def back_image(game: Game, deck: Deck, sheet: Sheet) -> Image.Image:
    """Return the deck's one back (every card prints it) at the sheet's cell size, cut at the trim."""
    face = game.prepared(sheet.slots[0].card, "back")
    (image,) = rasters(game, [face], sheet.dpi)
    return fit_cell(trimmed(image, face.doc.bleed, deck.size, sheet.dpi), sheet.cell)


def sheet_png(game: Game, deck: Deck, sheet: Sheet, side: str) -> bytes:
    """Return the PNG of `sheet_image`, made once per laid-out game: every table target and the bundle share it."""
    faces = tuple((p.card.front if side == "front" else p.card.back).key for p in sheet.slots)
    key = ("sheet", side, deck.size, sheet.cols, sheet.rows, sheet.cell, sheet.dpi, faces)
    if key not in game.images:
        game.images[key] = png(sheet_image(game, deck, sheet, side))
    return game.images[key]


def back_png(game: Game, deck: Deck, sheet: Sheet) -> bytes:
    """Return the PNG of `back_image`, made once per laid-out game."""
    key = ("back", deck.size, sheet.cell, sheet.dpi, sheet.slots[0].card.back.key)
    if key not in game.images:
        game.images[key] = png(back_image(game, deck, sheet))
    return game.images[key]


def cell_pngs(game: Game, deck: Deck, sheet: Sheet, side: str) -> list[bytes]:
    """Return a PNG of each slot's face, cut from the sheet's (shared) image: the pixels `sheet_image` pasted."""
    from PIL import Image

    w, h = sheet.cell
    with Image.open(io.BytesIO(sheet_png(game, deck, sheet, side))) as whole:
        return [
            png(
                whole.crop(
                    (
                        (slot % sheet.cols) * w,
                        (slot // sheet.cols) * h,
                        (slot % sheet.cols + 1) * w,
                        (slot // sheet.cols + 1) * h,
                    )
                )
            )
            for slot in range(len(sheet.slots))
        ]


def fit_cell(image: Image.Image, cell: tuple[int, int]) -> Image.Image:
    """Return the trimmed face at exactly the cell's pixels (rounding may leave it one pixel off)."""
    from PIL import Image

    return image if image.size == cell else image.resize(cell, Image.Resampling.LANCZOS)


def guid(*parts: object) -> str:
    """Return a 6-hex-digit GUID made from `parts`: the same every build."""
    return hashlib.sha256("\0".join(map(str, parts)).encode()).hexdigest()[:6]


def url(prefix: str, name: str, folder: Path) -> str:
    """Return where TTS finds an image: under `prefix` (hosted), else the exported file as a file:/// URL."""
    return f"{prefix.rstrip('/')}/{name}" if prefix else (folder / name).as_uri()


def folder(game: Game, options: ExportOptions) -> Path:
    """Return the absolute folder `export --to tts` writes the images into (what file:/// URLs name)."""
    return options.folder(game.id, "tts")


def scale(size: CardSize) -> tuple[float, float]:
    """Return (scaleX, scaleZ) of a card of `size`: TTS draws a poker card (63.5 × 88.9 mm) at scale 1.

    Width and height scale apart, so every size keeps its own aspect (a mini card: 0.700 × 0.7143); a
    sideways card is measured upright, as TTS turns its image.
    """
    short, long = sorted((size.w, size.h))
    return round(short / POKER_WIDTH, 4), round(long / POKER_HEIGHT, 4)


def _transform(x: float, scales: tuple[float, float]) -> dict[str, float]:
    # face down (rotZ 180) in a row along x, as TTS lays out spawned decks
    return {
        "posX": x,
        "posY": 1.0,
        "posZ": 0.0,
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 180.0,
        "scaleX": scales[0],
        "scaleY": 1.0,
        "scaleZ": scales[1],
    }


def files(game: Game, options: ExportOptions) -> dict[str, bytes]:
    """Return {file: bytes}: the sheets, the backs and `<game>.json`."""
    assert game.kit is not None
    out: dict[str, bytes] = {}
    states = []
    used: set[str] = set()
    where = folder(game, options)

    def unique(*parts: object) -> str:
        value, salt = guid(game.id, *parts), 0
        while value in used:  # 16.7 million values: a clash is rare, but TTS would replace a repeated GUID
            salt += 1
            value = guid(game.id, *parts, salt)
        used.add(value)
        return value

    for number, (deck, sheets) in enumerate(plan(game.decks())):
        shared = deck.shared_back()
        sideways = deck.size.w > deck.size.h
        scales = scale(deck.size)
        entries, slot_of = {}, {}
        if shared:
            back_name = f"{deck.slug}-back.png"
            out[back_name] = back_png(game, deck, sheets[0])
        for n, sheet in enumerate(sheets, 1):
            face_name = f"{deck.slug}-{n}.png"
            out[face_name] = sheet_png(game, deck, sheet, "front")
            if not shared:
                back_name = f"{deck.slug}-{n}-backs.png"
                out[back_name] = sheet_png(game, deck, sheet, "back")
            entries[str(sheet.key)] = {
                "FaceURL": url(options.url_prefix, face_name, where),
                "BackURL": url(options.url_prefix, back_name, where),
                "NumWidth": sheet.cols,
                "NumHeight": sheet.rows,
                "BackIsHidden": True,
                "UniqueBack": not shared,
                "Type": 0,
            }
            for slot, pair in enumerate(sheet.slots):
                slot_of[(pair.card.front.key, pair.card.back.key)] = (sheet.key, slot)
        cards = []
        for index, card in enumerate(deck.cards):
            key, slot = slot_of[(card.front.key, card.back.key)]
            cards.append(
                {
                    "Name": "Card",
                    "Transform": _transform(number * 4.0, scales),
                    "Nickname": card.name,
                    "Description": "",
                    "GMNotes": card.id,
                    "CardID": key * 100 + slot,
                    "SidewaysCard": sideways,
                    "HideWhenFaceDown": True,
                    "CustomDeck": {str(key): entries[str(key)]},
                    "GUID": unique(deck.slug, index),
                }
            )
        if len(cards) == 1:  # TTS has no one-card deck: a lone card is a Card object of its own
            cards[0]["Nickname"] = cards[0]["Nickname"] or deck.name
            states.append(cards[0])
            continue
        states.append(
            {
                "Name": "DeckCustom",
                "Transform": _transform(number * 4.0, scales),
                "Nickname": deck.name,
                "Description": f"{game.kit.title}: {deck.name} ({deck.size.label})",
                "GMNotes": "",
                "Locked": False,
                "Grid": True,
                "Snap": True,
                "Autoraise": True,
                "Sticky": True,
                "Tooltip": True,
                "HideWhenFaceDown": True,
                "SidewaysCard": sideways,
                "DeckIDs": [c["CardID"] for c in cards],
                "CustomDeck": entries,
                "ContainedObjects": cards,
                "GUID": unique(deck.slug, "deck"),
            }
        )
    save = {
        "SaveName": game.kit.title,
        "GameMode": "",
        "Date": "",
        "Table": "",
        "Sky": "",
        "Note": "",
        "Rules": "",
        "XmlUI": "",
        "LuaScript": "",
        "LuaScriptState": "",
        "ObjectStates": states,
    }
    out[f"{game.id}.json"] = (json.dumps(save, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    return out


class TabletopSimulator(FaceTarget):
    """Tabletop Simulator, as an export target."""

    name = "tts"
    summary = "Tabletop Simulator: face sheets (at most 10 × 7, 4096 px), back images and a saved object."
    kind = "table"
    bundled = True
    unpacked = True  # the saved object's file:/// URLs name its images

    def made(self, game: Game, options: ExportOptions) -> dict[str, bytes]:
        made = files(game, options)
        where = folder(game, options)
        if options.url_prefix:
            game.report.warning(
                "X005",
                f"tts: {game.id}.json loads its images from {options.url_prefix.rstrip('/')}/",
                hint=f"upload the PNGs of {where} there before loading the saved object in TTS",
            )
        else:
            game.report.warning(
                "X005",
                f"tts: {game.id}.json loads its images from {where.as_uri()}/, so it loads on this machine only",
                hint="to share it, host the PNGs (any web host) and export again with --url-prefix https://…/",
            )
        return made


TARGET = TabletopSimulator()
