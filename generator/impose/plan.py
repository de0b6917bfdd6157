"""The imposition stage, pure: a kit's sheets and the order of its pages on one paper, computed once.

The plan is a list of parts (the cover, each run of card sheets, each run of full pages); each part is a
run of pages the cover lists as one line. A new kind of page is a new part: a function returning Parts
that `plan` adds to its list, with its page kind drawn by the writer (generator.render.kitpdf).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..kit import Card, Kit, Page
from . import boxes
from .sheets import PrintOptions, Sheet, Side, paginate, sheets_for
from .sizes import size_conflicts, size_label

Run = tuple[str, tuple[float, float]]  # (deck id, card trim in mm): the cards laid out on one grid


@dataclass(frozen=True)
class PagePlan:
    """One page of the PDF and what goes on it."""

    kind: str  # cover, duplex, fronts, backs, folded, page, blank
    label: str
    cards: tuple[Card, ...] = ()
    page: Page | None = None
    sheet_no: int = 0
    sheets: int = 0
    sheet: Sheet | None = None  # the grid its cards are laid out on
    side: Side | None = None  # where each card, mark and box of a card page goes


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


def impose(kit: Kit, paper: str, options: PrintOptions | None = None) -> Imposition:
    """Return `kit` laid out on `paper`; raise ValueError for a deck of mixed sizes and SheetError for a grid
    that cannot be (the pipeline reports both as located diagnostics before anything is drawn)."""
    options = options or PrintOptions()
    sheets = kit_sheets(kit, paper, options)
    return Imposition(paper, options, sheets, plan(kit, sheets, options, paper))


def plan(kit: Kit, sheets: Mapping[Run, Sheet], options: PrintOptions | None = None, paper: str | None = None) -> Plan:
    """Lay out the page order: cover and its back, each deck's sheets (fronts then backs), full pages and,
    given the `paper`, the tuck boxes' die lines.

    `sheets` holds the grid of every (deck, card size) run, as `sheets_for` computes them. A gutterfold
    kit prints single-sided: no duplex check, one page per sheet, no blank backs.
    """
    options = options or PrintOptions()
    fold = options.duplex == "gutterfold"
    boxed = box_parts(kit, paper, fold) if paper else []
    return assemble([cover_part(fold), *card_parts(kit, sheets, options), *page_parts(kit, fold), *boxed])


def assemble(parts: Iterable[Part]) -> Plan:
    """Return the plan of `parts` in order, each listed on the cover with the pages it fills."""
    result = Plan()
    for part in parts:
        first = len(result.pages) + 1
        result.pages.extend(part.pages)
        result.contents.append({"pages": _span(first, len(result.pages)), "title": part.title, "detail": part.detail})
    return result


def cover_part(fold: bool) -> Part:
    """Return the cover (print settings and calibration) and, for a duplex kit, the duplex check behind it."""
    pages = [PagePlan("cover", "print settings and calibration")]
    if not fold:
        pages.append(PagePlan("duplex", "duplex check"))
    detail = "print settings and rulers" if fold else "print settings, duplex check and rulers"
    return Part("This sheet", detail, tuple(pages))


def card_parts(kit: Kit, sheets: Mapping[Run, Sheet], options: PrintOptions) -> list[Part]:
    """Return a part per sheet run: each sheet's fronts page then its backs page (or one folded page)."""
    fold = options.duplex == "gutterfold"
    groups = card_runs(kit)
    mixed = len({size for _, size in groups}) > 1
    sides: dict[tuple[Sheet, int], tuple[Side, ...]] = {}  # every full sheet of a run has the same sides
    parts = []
    for (deck, size), cards in groups.items():
        sheet = sheets[deck, size]
        name = kit.decks.get(deck, deck)
        chunks = paginate(len(cards), sheet.per_sheet)
        pages: list[PagePlan] = []
        for n, chunk in enumerate(chunks, 1):
            group = tuple(cards[i] for i in chunk)
            label = f"{name}, sheet {n} of {len(chunks)}"
            key = (sheet, len(group))
            if key not in sides:
                sides[key] = sheet.sides(len(group), options)  # (fronts, backs), or (folded,)
            kinds = ("folded",) if fold else ("fronts", "backs")
            for kind, side in zip(kinds, sides[key]):
                title = "fold" if fold else kind
                pages.append(PagePlan(kind, f"{label}: {title}", group, None, n, len(chunks), sheet, side))
        sheets_text = f"{len(chunks)} sheet{'s' if len(chunks) != 1 else ''}"
        what = f"{len(cards)} cards ({size_label(cards[0].size)})" if mixed else f"{len(cards)} cards"
        how = "fronts beside their backs: fold, glue, cut" if fold else "each fronts page followed by its backs"
        parts.append(Part(name[:1].upper() + name[1:], f"{what} on {sheets_text}, {how}", tuple(pages)))
    return parts


def page_parts(kit: Kit, fold: bool) -> list[Part]:
    """Return a part per full-page component (one per player counts as one), each page single-sided."""
    runs: dict[str, list[Page]] = {}
    for page in kit.pages:
        runs.setdefault(page.face.key, []).append(page)
    parts = []
    for pages in runs.values():
        planned = _single_sided(pages, fold)
        count = f" × {len(pages)}" if len(pages) > 1 else ""
        title = pages[0].name.rstrip(" 0123456789") if len(pages) > 1 else pages[0].name
        detail = "one per player, single-sided" if len(pages) > 1 else "single-sided"
        parts.append(Part(f"{title}{count}", detail, tuple(planned)))
    return parts


def box_parts(kit: Kit, paper: str, fold: bool) -> list[Part]:
    """Return the tuck boxes' pages as one part (none without boxes), each page single-sided."""
    pages = boxes.pages(kit, paper)
    if not pages:
        return []
    return [Part("Tuck boxes", boxes.summary(kit, paper), tuple(_single_sided(pages, fold)))]


def _single_sided(pages: list[Page], fold: bool) -> list[PagePlan]:
    planned: list[PagePlan] = []
    for page in pages:
        planned.append(PagePlan("page", page.name, page=page))
        if not fold:  # a blank back keeps the next page off this one's back in a duplex print
            planned.append(PagePlan("blank", f"back of {page.name}"))
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
    return sheets_for({run: cards[0].size for run, cards in card_runs(kit).items()}, paper, options)


__all__ = [
    "Imposition",
    "PagePlan",
    "Part",
    "Plan",
    "assemble",
    "box_parts",
    "card_runs",
    "impose",
    "kit_sheets",
    "plan",
]
