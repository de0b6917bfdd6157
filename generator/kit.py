"""What a print kit holds: card faces and full pages, each a template plus the data it shows."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from .diagnostics import Location
from .i18n.catalogue import ENGLISH, Catalogue, Message
from .impose.sizes import POKER, CardSize

# How the cover and every page's footer name a fan edition's makers (a translation gives its own words).
BY = Message("by {names}", "credits", "a fan edition's authors: 'by Ada' or 'by Ada and Grace'")
AND = Message("{names} and {last}", "credits", "joins authors' names")
UNVERSIONED = Message("{title} (fan edition)", "credits", "the footer's title of a fan edition without a version")
MESSAGES = (BY, AND, UNVERSIONED)

if TYPE_CHECKING:
    from .impose.boxes import BoxSet


# What json.dumps(value, sort_keys=True, default=str) writes, without building an encoder for every call.
CONTEXT_JSON = json.JSONEncoder(sort_keys=True, default=str)


@dataclass(frozen=True)
class Face:
    """One printed side: a layout template and its context. Equal faces are drawn once."""

    template: str
    context: dict[str, Any]
    key: str  # unique and stable, e.g. "feed-belt-1/front"; also names the proof image

    @cached_property  # asked for several times a face; a face's context does not change once it is made
    def identity(self) -> tuple[Any, ...]:
        """Return what makes two faces print identically (template and data, not the key)."""
        return (self.template, CONTEXT_JSON.encode(self.context))


@dataclass(frozen=True)
class Card:
    """One physical card: a front, a back and the deck it is shuffled into."""

    id: str
    name: str
    deck: str  # cards of one deck are shuffled together and must share one back
    front: Face
    back: Face
    size: CardSize = POKER  # trim; see sizes.parse_size for what users may write
    shape: str = "rectangle"  # or a token's or tile's: "circle", "hex" (flat-topped, inside the trim): cut on a path


@dataclass(frozen=True)
class Page:
    """A component that fills a page of its own (a mat, a record sheet), printed single-sided."""

    id: str
    name: str
    face: Face
    landscape: bool = False
    size: tuple[float, float] | None = None  # a board's own size (mm): split over pages when larger than one


@dataclass(frozen=True)
class TextIcon:
    """A word or symbol the rules pages print with an inline icon: before an amount (`2 FEED`) or in its place (`⚡`)."""

    text: str
    icon: str  # a name in the game's icons.yaml
    colour: str = ""  # "" prints it in the text's colour
    replace: bool = False  # the icon stands for the symbol; else it goes before each amount of the word


@dataclass(frozen=True)
class Rules:
    """The rulebook the kit prints as pages: its text, where the pages go, and whether they fold as a booklet."""

    text: str
    source: str  # where it was read, e.g. cards/pocket-foundry/rulebook.txt
    place: str = "end"  # end or after-cover (a game that omits its rules pages has no Rules)
    booklet: bool = False  # printed as a folded booklet (A5 on A4, half-Letter on Letter)


@dataclass
class Kit:
    """Everything one game prints for a player count, in print order."""

    game: str  # folder id, e.g. "pocket-foundry"
    title: str
    players: int
    cards: list[Card] = field(default_factory=list)
    pages: list[Page] = field(default_factory=list)
    credits: str = ""  # printed at the foot of every page
    decks: dict[str, str] = field(default_factory=dict)  # deck id -> name shown on the cover
    per_card_backs: set[str] = field(default_factory=set)  # decks not shuffled face down: their backs may differ
    context: dict[str, Any] = field(default_factory=dict)  # game-wide data for cover and furniture
    sheet_title: str = ""  # what every sheet's footer names, when not just the title (a fan edition's)
    size_places: dict[str, Location] = field(default_factory=dict)  # deck id -> where its card size is declared
    rules: Rules | None = None  # the rulebook printed as pages (set by the pipeline from rulebook.txt)
    text_icons: tuple[TextIcon, ...] = ()  # what the rules pages print with icons (set by the ruleset)
    words: Catalogue = field(default=ENGLISH, compare=False)  # the language its pages are labelled in
    shared_sheets: bool = True  # decks of one card size share sheets; False: each deck starts a sheet of its own
    boxes: BoxSet | None = None  # its tuck boxes, set by the pipeline from game.yaml's `boxes:`
