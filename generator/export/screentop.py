"""Screentop.gg: per deck, its fronts as one PNG grid, its back(s), and a table of which back each card has.

Screentop builds a deck from one image of cards in a grid (its columns and rows given when it is
imported) and gives each card a back; a deck with several backs needs each card's back set, which
its bulk editor does from a table. So each deck folder holds `fronts-N.png` (the Tabletop Simulator
sheets' grid: at most 10 × 7 cards, 4096 px a side, the last cell free), `back.png` or one
`backs/NNN-CARD.png` per card, and `cards.csv`: sheet, its columns and rows, the card's row and column (from 1), name, count, back.
"""

from __future__ import annotations

from . import tts
from .common import Game, slug
from .options import ExportOptions
from .spreadsheet import csv_bytes
from .target import FaceTarget


def files(game: Game, options: ExportOptions) -> dict[str, bytes]:
    """Return {deck folder/file: bytes} for every deck: front grids, backs and cards.csv."""
    out: dict[str, bytes] = {}
    for deck, sheets in tts.plan(game.decks()):
        folder = deck.slug
        shared = deck.shared_back()
        if shared:
            out[f"{folder}/back.png"] = tts.back_png(game, deck, sheets[0])
        table: list[list[object]] = [["sheet", "columns", "rows", "row", "column", "name", "count", "back", "card"]]
        for n, sheet in enumerate(sheets, 1):
            out[f"{folder}/fronts-{n}.png"] = tts.sheet_png(game, deck, sheet, "front")
            backs = tts.cell_pngs(game, deck, sheet, "back") if not shared else []  # the TTS back sheet's cells
            for pair, data in zip(sheet.slots, backs):
                out[f"{folder}/backs/{pair.number:03d}-{slug(pair.card.id)}.png"] = data
            for slot, pair in enumerate(sheet.slots):
                back = "back.png" if shared else f"backs/{pair.number:03d}-{slug(pair.card.id)}.png"
                row, column = slot // sheet.cols + 1, slot % sheet.cols + 1
                grid = [f"fronts-{n}.png", sheet.cols, sheet.rows, row, column]
                table.append([*grid, pair.card.name, pair.count, back, pair.card.id])
        out[f"{folder}/cards.csv"] = csv_bytes(table)  # names that start a formula are neutralised
    return out


class Screentop(FaceTarget):
    """Screentop.gg, as an export target."""

    name = "screentop"
    summary = "Screentop.gg: per deck a PNG grid of fronts, its back or a back per card, and cards.csv."
    kind = "table"
    bundled = True

    def made(self, game: Game, options: ExportOptions) -> dict[str, bytes]:
        return files(game, options)


TARGET = Screentop()
