"""One PNG per face of every deck, at a shop's exact pixel size, plus a count per face (counts.csv)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..kit import Card
from .common import SHOP_DPI, Deck, Game, extended, png, rasters, slug, trimmed
from .spreadsheet import csv_bytes

Sizer = Callable[[Deck], tuple[int, int] | None]  # a deck's target pixels (None: trim or bleed as laid out)


@dataclass(frozen=True)
class Pair:
    """A front and the back it is printed with, and how many cards print them."""

    number: int
    card: Card
    count: int

    def front(self) -> str:
        return f"{self.number:03d}-{slug(self.card.id)}-front.png"

    def back(self, shared: bool) -> str:
        return "back.png" if shared else f"{self.number:03d}-{slug(self.card.id)}-back.png"


def pairs(deck: Deck) -> list[Pair]:
    """Return each distinct (front, back) of a deck once, numbered in kit order, with its count."""
    found: dict[tuple[str, str], list[Card]] = {}
    for card in deck.cards:
        found.setdefault((card.front.key, card.back.key), []).append(card)
    return [Pair(n, cards[0], len(cards)) for n, cards in enumerate(found.values(), 1)]


def deck_files(
    game: Game, deck: Deck, target: tuple[int, int] | None, dpi: int = SHOP_DPI, bleed: bool = True
) -> dict[str, bytes]:
    """Return {name: bytes} for one deck: a PNG per front, the back(s), and counts.csv.

    With `target`, each face is `target` pixels with its trim centred and its bleed extended;
    without, it is the trim (bleed False) or trim + the layout's bleed, at `dpi`.
    """
    items = pairs(deck)
    shared = deck.shared_back()
    faces = [game.prepared(p.card, "front") for p in items]
    backs = [game.prepared(items[0].card, "back")] if shared else [game.prepared(p.card, "back") for p in items]
    names = [p.front() for p in items] + ([items[0].back(True)] if shared else [p.back(False) for p in items])
    prepared = faces + backs
    out: dict[str, bytes] = {}
    for name, face, image in zip(names, prepared, rasters(game, prepared, dpi)):
        b = face.doc.bleed
        if target is not None:
            image = extended(image, b, deck.size, dpi, target)
        elif not bleed:
            image = trimmed(image, b, deck.size, dpi)
        out[name] = png(image, dpi)
    out["counts.csv"] = counts(items, shared)
    return out


def counts(items: list[Pair], shared: bool) -> bytes:
    """Return the CSV an upload form is filled from: front file, back file, count and card name."""
    header = ["front", "back", "count", "name", "card"]
    return csv_bytes([header, *([p.front(), p.back(shared), p.count, p.card.name, p.card.id] for p in items)])


def files(game: Game, sizer: Sizer, dpi: int = SHOP_DPI, bleed: bool = True) -> dict[str, bytes]:
    """Return {deck-folder/name: bytes} for every deck of the game."""
    out: dict[str, bytes] = {}
    for deck in game.decks():
        for name, data in deck_files(game, deck, sizer(deck), dpi, bleed).items():
            out[f"{deck.slug}/{name}"] = data
    return out
