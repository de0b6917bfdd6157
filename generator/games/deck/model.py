"""The model of a generic card game: decks of cards, each card a set of free fields."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...sdk import CardSize, Location


@dataclass(frozen=True)
class Back:
    """What a card's back prints: a template and the card fields it may show (per-card backs only)."""

    template: str
    show: tuple[str, ...] = ()


@dataclass(frozen=True)
class DeckCard:
    """One card as its row or mapping says: its fields as written, plus the ones cardpress fills in."""

    id: str
    name: str
    copies: int
    template: str  # front
    back: Back
    fields: dict[str, Any]  # every field as written (strings from CSV; YAML keeps its types)
    art: dict[str, Any]  # {src, fit, focus}, art/<id>.png when the card names none
    rich: dict[str, str] = field(default_factory=dict)  # text fields as markup, :icon: made <icon icon>
    origin: tuple[str, tuple[str | int, ...]] = ("", ())  # (card file, key path of its row or mapping)


@dataclass(frozen=True)
class Deck:
    """One deck: its size, its back (shared by all, or per card) and its cards in print order."""

    id: str
    name: str
    size: CardSize  # trim, mm
    per_card_backs: bool
    cards: tuple[DeckCard, ...]
    size_at: Location | None = None  # its `size` in game.yaml (none: the default size)
    shape: str = "rectangle"  # cards and square tokens or tiles; "circle" and "hex" tokens or tiles cut on a path


@dataclass(frozen=True)
class Board:
    """A board or mat that fills a page of its own: its template, the way it lies and how many print."""

    id: str
    name: str
    template: str
    landscape: bool
    copies: int
    size: tuple[float, float] | None = None  # its own size (mm), split over pages when larger than one


@dataclass(frozen=True)
class DeckGame:
    """A generic game: the decks it prints and the style values its templates read."""

    title: str
    tagline: str
    style: dict[str, Any]
    decks: tuple[Deck, ...]
    boards: tuple[Board, ...] = ()
