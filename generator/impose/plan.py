"""The imposition stage, pure: a kit's sheets and the order of its pages on one paper, computed once.

The plan is a list of parts (the cover, each run of card sheets, each run of full pages); each part is a
run of pages the cover lists as one line. A new kind of page is a new part: a function returning Parts
that `plan` adds to its list, with its page kind drawn by the writer (generator.render.kitpdf).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..i18n.catalogue import ENGLISH, Catalogue, Message
from ..kit import Card, Kit, Page
from . import booklet, boxes
from .pack import pack
from .sheets import Fill, PrintOptions, Sheet, Side, sheets_for
from .sizes import size_conflicts, size_label

if TYPE_CHECKING:
    from .boards import Part as BoardPart

CONTENTS_LINE = 96  # characters a 10 pt contents line holds, near enough: a line that overflows fails lint
FOOTER_NAMES = 44  # characters of deck names a card page's label gives, so the footer keeps its size

Run = tuple[str, tuple[float, float]]  # (its first deck's id, card trim in mm): cards laid out on one grid

# What the cover's contents and every page's footer say about the pages (a translation gives its own words).
COVER = Message("print settings and calibration", "page")
DUPLEX = Message("duplex check", "page")
THIS_SHEET = Message("This sheet", "contents")
RULERS = Message("print settings and rulers", "contents")
RULERS_DUPLEX = Message("print settings, duplex check and rulers", "contents")
SHEET = Message("{deck}, sheet {n} of {sheets}", "page", "a card sheet's label; {deck} is the deck's name")
SIDE = Message("{sheet}: {side}", "page", "{side} is one of the three words below")
SIDES = {kind: Message(kind, "sheet side") for kind in ("fronts", "backs", "fold")}
SHEETS = (Message("{n} sheet", "contents"), Message("{n} sheets", "contents"))  # one, more than one
CARDS = Message("{n} cards", "contents")
CARDS_SIZED = Message("{n} cards ({size})", "contents", "{size} is a card size such as 'poker, 63.5 × 88.9 mm'")
SAVED = Message(" ({n} fewer than a deck a sheet)", "contents", "after the sheets, when decks share sheets")
RUN = Message("{cards} on {sheets}{saved}, {how}", "contents", "a deck's line: '16 cards on 2 sheets, <how>'")
HOW_FOLD = Message("fronts beside their backs: fold, glue, cut", "contents")
HOW_DUPLEX = Message("each fronts page followed by its backs", "contents")
BLANK_BACK = Message("back of {page}", "page")
ONE_EACH = Message("one per player, single-sided", "contents")
SINGLE = Message("single-sided", "contents")
BOARD_PART = Message(
    "{board}, part {part} of {parts}", "page", "a page of a board printed in parts; {part} is A1, A2 …"
)
BOARD_PARTS = Message(
    "{n} parts, single-sided: trim the margins, lay each on the dashed line, crosses on crosses", "contents"
)
MESSAGES = (
    COVER, DUPLEX, THIS_SHEET, RULERS, RULERS_DUPLEX, SHEET, SIDE, *SIDES.values(), *SHEETS, CARDS, CARDS_SIZED,
    SAVED, RUN, HOW_FOLD, HOW_DUPLEX, BLANK_BACK, ONE_EACH, SINGLE,
)  # fmt: skip


def say(words: Catalogue, message: Message, **values: object) -> str:
    """Return a message in the kit's language."""
    return words.form(message.id, message.context, **values)


@dataclass(frozen=True)
class SheetRun:
    """Cards of one size laid out on one grid: one deck, or every deck of that size sharing sheets."""

    key: Run
    decks: tuple[str, ...]
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class PagePlan:
    """One page of the PDF and what goes on it."""

    kind: str  # cover, duplex, fronts, backs, folded, page, blank, rules (page or booklet side `sheet_no`)
    label: str
    cards: tuple[Card, ...] = ()
    page: Page | None = None
    sheet_no: int = 0
    sheets: int = 0
    sheet: Sheet | None = None  # the grid its cards are laid out on
    side: Side | None = None  # where each card, mark and box of a card page goes
    part: BoardPart | None = None  # the part of a board larger than a page this page prints


@dataclass(frozen=True)
class Part:
    """A run of pages the cover lists as one line: its title, what it holds, and the pages."""

    title: str
    detail: str
    pages: tuple[PagePlan, ...]


@dataclass
class Plan:
    """Every page in order, plus the cover's table of contents."""

    pages: list[PagePlan] = field(default_factory=list)
    contents: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class Imposition:
    """A kit laid out on one paper: the grid of every sheet run and the plan of every page."""

    paper: str
    options: PrintOptions
    sheets: Mapping[Run, Sheet]
    plan: Plan


def impose(kit: Kit, paper: str, options: PrintOptions | None = None, rules: int = 0) -> Imposition:
    """Return `kit` laid out on `paper`; raise ValueError for a deck of mixed sizes and SheetError for a grid
    that cannot be (the pipeline reports both as located diagnostics before anything is drawn).

    `rules` is how many pages the kit's rulebook sets into on this paper (generator.render.rulespages).
    """
    options = options or PrintOptions()
    sheets = kit_sheets(kit, paper, options)
    return Imposition(paper, options, sheets, plan(kit, sheets, options, paper, rules))


def plan(
    kit: Kit, sheets: Mapping[Run, Sheet], options: PrintOptions | None = None, paper: str = "a4", rules: int = 0
) -> Plan:
    """Lay out the page order: cover and its back, each deck's sheets (fronts then backs), full pages (a board
    too big for the paper split over several), then the tuck boxes' die lines; the `rules` pages of the
    rulebook go where the game puts them (at the very end unless after the cover).

    `sheets` holds the grid of every (deck, card size) run, as `sheets_for` computes them. A gutterfold
    kit prints single-sided: no duplex check, one page per sheet, no blank backs.
    """
    options = options or PrintOptions()
    fold = options.duplex == "gutterfold"
    ruled = rules_part(kit, rules, options)
    first = ruled if kit.rules is not None and kit.rules.place == "after-cover" else []
    last = ruled if not first else []
    parts = [
        cover_part(fold, kit.words),
        *first,
        *card_parts(kit, sheets, options),
        *page_parts(kit, fold, paper, options),
    ]
    return assemble([*parts, *box_parts(kit, paper, fold), *last])


def rules_part(kit: Kit, pages: int, options: PrintOptions) -> list[Part]:
    """Return the rules pages as a part: each page (a blank back after an odd last one in a duplex kit), or the
    booklet's sheet sides when the rules fold; [] when the kit prints no rules."""
    if kit.rules is None or not pages:
        return []
    duplex = options.duplex != "gutterfold"
    planned: list[PagePlan] = []
    if kit.rules.booklet and duplex:  # a booklet needs both sides of the paper
        sides = booklet.padded(pages) // 2
        for n in range(sides):
            face = "front" if n % 2 == 0 else "back"
            label = f"rules booklet, sheet {n // 2 + 1} of {sides // 2}: {face}"
            planned.append(PagePlan("rules", label, sheet_no=n, sheets=sides))
        detail = f"a booklet of {pages} pages on {sides // 2} sheet{'s' if sides > 2 else ''}"
        return [Part("Rules", f"{detail}: print double-sided, fold in half", tuple(planned))]
    for n in range(pages):
        planned.append(PagePlan("rules", f"rules, page {n + 1} of {pages}", sheet_no=n, sheets=pages))
    if duplex and pages % 2:  # the card sheets after them start on a sheet of their own
        planned.append(PagePlan("blank", "back of the rules"))
    detail = f"{pages} page{'s' if pages != 1 else ''}" + (", double-sided" if duplex else "")
    return [Part("Rules", detail, tuple(planned))]


def assemble(parts: Iterable[Part]) -> Plan:
    """Return the plan of `parts` in order, each listed on the cover with the pages it fills."""
    result = Plan()
    for part in parts:
        first = len(result.pages) + 1
        result.pages.extend(part.pages)
        lines = -(-(len(part.title) + len(part.detail) + 3) // CONTENTS_LINE)
        result.contents.append(
            {"pages": _span(first, len(result.pages)), "title": part.title, "detail": part.detail, "lines": lines}
        )
    return result


def cover_part(fold: bool, words: Catalogue = ENGLISH) -> Part:
    """Return the cover (print settings and calibration) and, for a duplex kit, the duplex check behind it."""
    pages = [PagePlan("cover", say(words, COVER))]
    if not fold:
        pages.append(PagePlan("duplex", say(words, DUPLEX)))
    detail = say(words, RULERS if fold else RULERS_DUPLEX)
    return Part(say(words, THIS_SHEET), detail, tuple(pages))


def card_parts(kit: Kit, sheets: Mapping[Run, Sheet], options: PrintOptions) -> list[Part]:
    """Return a part per sheet run: each sheet's fronts page then its backs page (or one folded page).

    Within a run a deck starts where the last one ended; cards whose backs differ get a gutter between
    them, or the next slot that needs none (generator.impose.pack).
    """
    fold = options.duplex == "gutterfold"
    words = kit.words
    runs = fill_runs(kit, sheets, options)
    mixed = len({run.key[1] for run, _, _ in runs}) > 1
    sides: dict[tuple[Sheet, Fill], tuple[Side, ...]] = {}  # every full sheet of a run has the same sides
    parts = []
    for run, sheet, fills in runs:
        cards = run.cards
        name = _names(kit, run.decks)
        pages: list[PagePlan] = []
        start = 0
        for n, fill in enumerate(fills, 1):
            group = cards[start : start + len(fill.slots)]
            start += len(fill.slots)
            decks = _short(_names(kit, tuple(dict.fromkeys(c.deck for c in group))))
            label = say(words, SHEET, deck=decks, n=n, sheets=len(fills))
            key = (sheet, fill)
            if key not in sides:
                sides[key] = _cut(sheet.sides(fill, options, [card.back.identity for card in group]), group)
            kinds = ("folded",) if fold else ("fronts", "backs")
            for kind, side in zip(kinds, sides[key]):
                title = say(words, SIDES["fold" if fold else kind])
                page = say(words, SIDE, sheet=label, side=title)
                pages.append(PagePlan(kind, page, group, None, n, len(fills), sheet, side))
        sheets_text = say(words, SHEETS[not words.singular(len(fills))], n=len(fills))
        if mixed:
            what = say(words, CARDS_SIZED, n=len(cards), size=size_label(cards[0].size))
        else:
            what = say(words, CARDS, n=len(cards))
        alone = sum(-(-sum(c.deck == d for c in cards) // sheet.per_sheet) for d in run.decks)
        saved = say(words, SAVED, n=alone - len(fills)) if alone > len(fills) else ""
        how = say(words, HOW_FOLD if fold else HOW_DUPLEX)
        line = say(words, RUN, cards=what, sheets=sheets_text, saved=saved, how=how)
        parts.append(Part(name[:1].upper() + name[1:], line, tuple(pages)))
    return parts


def _cut(sides: tuple[Side, ...], cards: tuple[Card, ...]) -> tuple[Side, ...]:
    """Return the sides of a sheet of round or hex tokens cut on a path round each one, not on crop marks."""
    shape = cards[0].shape
    if shape == "rectangle":
        return sides
    return tuple(replace(side, marks=(), cuts=tuple((shape, p.trim) for p in side.placed)) for side in sides)


def _short(names: str, most: int = FOOTER_NAMES) -> str:
    """Return a page's deck names cut short to fit its footer line (the cover lists them whole)."""
    return names if len(names) <= most else names[: most - 1].rstrip(" ·,") + "…"


def _names(kit: Kit, decks: tuple[str, ...]) -> str:
    """Return what the cover and the footers call the decks of a run: their names, in order."""
    return " · ".join(kit.decks.get(deck, deck) for deck in decks)


def sheet_runs(kit: Kit, options: PrintOptions) -> list[SheetRun]:
    """Return the kit's cards grouped into sheet runs: every deck of one card size together, in kit order,
    unless the kit prints a deck a sheet or the deck declares its own grid.

    A deck whose backs differ card to card (sorted by its back, not shuffled face down) is ordered by
    back, so cards with one back sit together and need fewer gutters.
    """
    grouped: dict[Run, list[list[Card]]] = {}
    shared: dict[tuple[float, float], Run] = {}  # card size -> the run its decks share
    for (deck, size), cards in card_runs(kit).items():
        alone = not kit.shared_sheets or deck in options.grids or cards[0].shape != "rectangle"
        key = (deck, size) if alone else shared.setdefault(size, (deck, size))
        if deck in kit.per_card_backs:
            order = list(dict.fromkeys(card.back.identity for card in cards))
            cards = sorted(cards, key=lambda card: order.index(card.back.identity))
        grouped.setdefault(key, []).append(cards)
    return [
        SheetRun(key, tuple(dict.fromkeys(c.deck for deck in decks for c in deck)), tuple(c for d in decks for c in d))
        for key, decks in grouped.items()
    ]


def fill_runs(kit: Kit, sheets: Mapping[Run, Sheet], options: PrintOptions) -> list[tuple[SheetRun, Sheet, list[Fill]]]:
    """Return every sheet run with its sheets packed; decks share a run only where that saves a sheet,
    otherwise each keeps sheets of its own (no gutters, no deck split over a shared sheet)."""
    result = []
    for run in sheet_runs(kit, options):
        sheet = sheets[run.key]
        fills = pack(sheet, [card.back.identity for card in run.cards])
        alone = [(deck, [c for c in run.cards if c.deck == deck]) for deck in run.decks]
        own = [pack(sheet, [c.back.identity for c in cards]) for _, cards in alone]
        if len(run.decks) > 1 and len(fills) >= sum(map(len, own)):
            for (deck, cards), packed in zip(alone, own):
                result.append((SheetRun((deck, run.key[1]), (deck,), tuple(cards)), sheet, packed))
        else:
            result.append((run, sheet, fills))
    return result


def page_parts(kit: Kit, fold: bool, paper: str = "a4", options: PrintOptions | None = None) -> list[Part]:
    """Return a part per full-page component (one per player counts as one), each page single-sided; a
    board of its own size prints on as many pages as it needs (generator.impose.boards)."""
    margin = (options or PrintOptions()).printer_margin
    runs: dict[str, list[Page]] = {}
    for page in kit.pages:
        runs.setdefault(page.face.key, []).append(page)
    parts = []
    for pages in runs.values():
        planned: list[PagePlan] = []
        for page in pages:
            pieces: list[BoardPart] = []
            if page.size:  # a board of its own size (none in the shipped games: their kits never load boards)
                from .boards import split

                pieces = split(page.size, paper, margin)
            for piece in pieces:
                label = say(kit.words, BOARD_PART, board=page.name, part=piece.name, parts=len(pieces))
                planned.append(PagePlan("board", label, page=page, part=piece))
                if not fold:
                    planned.append(PagePlan("blank", say(kit.words, BLANK_BACK, page=label), page=page, part=piece))
            if not pieces:
                planned += _single_sided([page], fold, kit.words)
        count = f" × {len(pages)}" if len(pages) > 1 else ""
        title = pages[0].name.rstrip(" 0123456789") if len(pages) > 1 else pages[0].name
        detail = say(kit.words, ONE_EACH if len(pages) > 1 else SINGLE)
        parts_of = sum(p.kind == "board" for p in planned) // len(pages)
        if parts_of:
            detail = say(kit.words, BOARD_PARTS, n=parts_of)
        parts.append(Part(f"{title}{count}", detail, tuple(planned)))
    return parts


def box_parts(kit: Kit, paper: str, fold: bool) -> list[Part]:
    """Return the tuck boxes' pages as one part (none without boxes), each page single-sided."""
    pages = boxes.pages(kit, paper)
    if not pages:
        return []
    return [Part("Tuck boxes", boxes.summary(kit, paper), tuple(_single_sided(pages, fold, kit.words)))]


def _single_sided(pages: list[Page], fold: bool, words: Catalogue = ENGLISH) -> list[PagePlan]:
    """Return the plan of full pages, each followed by a blank back in a duplex kit."""
    planned: list[PagePlan] = []
    for page in pages:
        planned.append(PagePlan("page", page.name, page=page))
        if not fold:  # a blank back, of the page's own orientation, keeps the next page off this one's back
            planned.append(PagePlan("blank", say(words, BLANK_BACK, page=page.name), page=page))
    return planned


def _span(first: int, last: int) -> str:
    """Return a page range as the cover prints it: '3–6', or '3' for one page."""
    return f"{first}–{last}" if last > first else f"{first}"


def card_runs(kit: Kit) -> dict[Run, list[Card]]:
    """Return the kit's cards grouped into sheet runs, one per deck and card size, in first-seen order."""
    runs: dict[Run, list[Card]] = {}
    for card in kit.cards:
        w, h = card.size
        runs.setdefault((card.deck, (w, h)), []).append(card)
    return runs


def kit_sheets(kit: Kit, paper: str, options: PrintOptions) -> dict[Run, Sheet]:
    """Return the grid of every sheet run of `kit` on `paper`; raise ValueError for a deck of mixed sizes
    (the build reports those first, as located diagnostics) and SheetError for a grid that cannot be."""
    conflicts = size_conflicts(kit.cards)
    if conflicts:
        raise ValueError("; ".join(c.message for c in conflicts))
    runs = sheet_runs(kit, options)
    paths = {run.key for run in runs if run.cards[0].shape != "rectangle"}
    return sheets_for({run.key: run.cards[0].size for run in runs}, paper, options, paths)


__all__ = [
    "Imposition",
    "PagePlan",
    "Part",
    "Plan",
    "SheetRun",
    "assemble",
    "box_parts",
    "card_runs",
    "impose",
    "kit_sheets",
    "plan",
    "rules_part",
    "sheet_runs",
]
