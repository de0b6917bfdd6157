"""Sheet geometry, pure: where cards, bleed, crop marks and duplex backs go on a page (mm, y down)."""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace

from .sizes import CardSize, size_label

PAPERS = {"a4": ("A4", 210.0, 297.0), "letter": ("US Letter", 215.9, 279.4)}
PRINTER_MARGIN = 5.0  # mm at each paper edge that home printers commonly cannot reach (print-specs §3.1)
BLEED = 3.0  # mm of art past the trim on the outside of the card block
MISCUT = 1.5  # mm a cut at home may stray from its line; no card may show another's art that far out
MIN_BLEED = MISCUT  # mm: where the margin is tight the outer bleed narrows to this, never less
GUTTER = 2 * MISCUT  # mm between two cards whose backs differ: each bleeds half of it, double cut lines
MARK_GAP = 0.5  # mm between the bleed and the start of a crop mark: marks never reach into the bleed
MARK_LENGTH = 5.0  # mm, the longest a crop mark gets
MARK_COMFORT = 3.0  # mm: the bleed narrows (to MIN_BLEED) before a mark gets shorter than this
MARK_SHORTEST = 2.0  # mm: every mark is at least this long, so a ruler can be laid on it
MARK_MIN_START = MIN_BLEED + MARK_GAP  # mm past the trim: marks never come closer to a card than this
OVERLAP = 0.15  # mm a card paints past a shared cut, so renderers show no hairline seam there
TOKEN_GAP = 4.0  # mm between tokens and tiles cut on a path: each bleeds 2 mm, scissors' room
MAX_GRID = 20  # rows or columns a declared grid may ask for
MAX_MARGIN = 20.0  # mm: the widest printer margin PrintOptions accepts
MAX_OFFSET = 10.0  # mm: a back offset beyond this is a misprint to fix, not a drift to correct
DUPLEX = ("long", "short", "gutterfold")
VIEWER_DUPLEX = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge", "gutterfold": "Simplex"}
FOLDS = ("vertical", "horizontal")  # where a gutterfold sheet folds: fronts left or on top of the line
FOLD_GAP = 5.0  # mm between the bleed and the fold line, so the fold never creases a card (print-specs §3.5)
FOLD_MARK_CLEAR = 1.0  # mm: crop marks on the fold side stop this short of the fold line
FOLD_ROOM = {None: "", "vertical": " left of a vertical fold", "horizontal": " above a horizontal fold"}
EPSILON = 1e-9  # mm: cards that fit exactly (Letter's 3 × 88.9 mm) are not refused for a rounding error


class SheetError(ValueError):
    """Cards that cannot be laid out on a paper as asked; the message says what fits instead."""

    def __init__(self, message: str, decks: Sequence[tuple[str, str]] = ()):
        super().__init__(message)
        self.decks = tuple(decks)  # (deck id, its problem) for each deck that fails, when several are laid out


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle: x, y of the top-left corner, width, height."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    def grow(self, left: float, top: float, right: float, bottom: float) -> Rect:
        """Return the rectangle pushed out by the given amounts on each side."""
        return Rect(self.x - left, self.y - top, self.w + left + right, self.h + top + bottom)

    def mirrored(self, page_width: float) -> Rect:
        """Return the rectangle mirrored about the page's vertical centre line."""
        return Rect(page_width - self.x - self.w, self.y, self.w, self.h)

    def flipped(self, page_height: float) -> Rect:
        """Return the rectangle mirrored about the page's horizontal centre line."""
        return Rect(self.x, page_height - self.y - self.h, self.w, self.h)

    def shifted(self, dx: float, dy: float) -> Rect:
        """Return the rectangle moved by (dx, dy)."""
        return Rect(self.x + dx, self.y + dy, self.w, self.h)

    def union(self, other: Rect) -> Rect:
        """Return the smallest rectangle holding both."""
        x, y = min(self.x, other.x), min(self.y, other.y)
        return Rect(x, y, max(self.right, other.right) - x, max(self.bottom, other.bottom) - y)

    def intersection(self, other: Rect) -> Rect:
        """Return the part both cover (empty, zero-sized, when they do not meet)."""
        x, y = max(self.x, other.x), max(self.y, other.y)
        return Rect(x, y, max(0.0, min(self.right, other.right) - x), max(0.0, min(self.bottom, other.bottom) - y))

    def contains(self, other: Rect, tolerance: float = 1e-6) -> bool:
        """Return True if `other` lies entirely inside this rectangle."""
        return (
            other.x >= self.x - tolerance
            and other.y >= self.y - tolerance
            and other.right <= self.right + tolerance
            and other.bottom <= self.bottom + tolerance
        )

    def overlaps(self, other: Rect, tolerance: float = 1e-6) -> bool:
        """Return True if the two rectangles share more than an edge."""
        return (
            min(self.right, other.right) - max(self.x, other.x) > tolerance
            and min(self.bottom, other.bottom) - max(self.y, other.y) > tolerance
        )


@dataclass(frozen=True)
class Mark:
    """A crop mark: a straight segment from (x1, y1) to (x2, y2)."""

    x1: float
    y1: float
    x2: float
    y2: float

    @property
    def length(self) -> float:
        return math.hypot(self.x2 - self.x1, self.y2 - self.y1)

    @property
    def bounds(self) -> Rect:
        """Return the smallest rectangle holding the segment."""
        return Rect(min(self.x1, self.x2), min(self.y1, self.y2), abs(self.x2 - self.x1), abs(self.y2 - self.y1))

    def distance_to(self, rect: Rect) -> float:
        """Return the shortest distance between this segment and a rectangle (0 if they touch)."""
        # Marks are axis-aligned, so the gap is the larger of the two axis gaps.
        lo_x, hi_x = sorted((self.x1, self.x2))
        lo_y, hi_y = sorted((self.y1, self.y2))
        dx = max(rect.x - hi_x, lo_x - rect.right, 0.0)
        dy = max(rect.y - hi_y, lo_y - rect.bottom, 0.0)
        return float((dx * dx + dy * dy) ** 0.5)

    def mirrored(self, page_width: float) -> Mark:
        """Return the mark mirrored about the page's vertical centre line."""
        return Mark(page_width - self.x1, self.y1, page_width - self.x2, self.y2)

    def flipped(self, page_height: float) -> Mark:
        """Return the mark mirrored about the page's horizontal centre line."""
        return Mark(self.x1, page_height - self.y1, self.x2, page_height - self.y2)

    def shifted(self, dx: float, dy: float) -> Mark:
        """Return the mark moved by (dx, dy)."""
        return Mark(self.x1 + dx, self.y1 + dy, self.x2 + dx, self.y2 + dy)


@dataclass(frozen=True)
class Placed:
    """One card side on a page: its trim on the page, the clip it may paint in, and how it is turned.

    `turn` counts quarter turns counter-clockwise (as seen on the page) from upright: 1 puts the card's
    top at the page's left edge, 2 upside down, 3 its top at the right.
    """

    index: int  # which card of the sheet's group
    back: bool
    trim: Rect
    clip: Rect
    turn: int = 0


@dataclass(frozen=True)
class Side:
    """What one printed page of a sheet holds: placed card sides, crop marks, and its PDF boxes."""

    placed: tuple[Placed, ...]
    marks: tuple[Mark, ...]
    trim: Rect  # the outer trim of the cards it holds: the page's TrimBox
    bleed_box: Rect  # the trim grown by the outer bleed on each side: the page's BleedBox
    folds: tuple[Mark, ...] = ()  # fold lines, drawn dashed
    cuts: tuple[tuple[str, Rect], ...] = ()  # cut paths (shape, trim) for tokens and tiles not cut on marks

    def shifted(self, dx: float, dy: float) -> Side:
        """Return the whole page content moved by (dx, dy): cards, clips, marks and boxes."""
        if dx == 0 and dy == 0:
            return self
        placed = tuple(replace(p, trim=p.trim.shifted(dx, dy), clip=p.clip.shifted(dx, dy)) for p in self.placed)
        marks = tuple(m.shifted(dx, dy) for m in self.marks)
        trim, box = self.trim.shifted(dx, dy), self.bleed_box.shifted(dx, dy)
        cuts = tuple((shape, rect.shifted(dx, dy)) for shape, rect in self.cuts)
        return replace(self, placed=placed, marks=marks, trim=trim, bleed_box=box, cuts=cuts)


@dataclass(frozen=True)
class Fill:
    """Where the cards of one sheet go: a slot (row-major) per card, in card order, and the gutter
    opened after each row and column (mm; none when empty). Cards in neighbouring slots with no
    gutter between them share a cut line."""

    slots: tuple[int, ...]
    row_gaps: tuple[float, ...] = ()
    col_gaps: tuple[float, ...] = ()

    @classmethod
    def first(cls, count: int) -> Fill:
        """Return the first `count` slots, no gutters: a sheet of one deck."""
        return cls(tuple(range(count)))

    def gap_before(self, index: int, rows: bool) -> float:
        """Return the total gutter before row (or column) `index`."""
        return sum((self.row_gaps if rows else self.col_gaps)[:index])


def as_fill(cards: int | Fill) -> Fill:
    """Return `cards` as a Fill: a count means the first slots."""
    return Fill.first(cards) if isinstance(cards, int) else cards


@dataclass(frozen=True)
class Sheet:
    """A page of cards: the paper, the card grid and its bleed.

    `card` is the card's trim as designed (portrait or landscape); with `turned` set every card lies on
    the sheet a quarter turn counter-clockwise, so a slot is `card` with its sides swapped. A gutterfold
    sheet (`fold` "vertical" or "horizontal") holds its grid left of or above the fold line through the
    page's centre, and the backs in the mirror image on the other side.
    """

    paper: str
    width: float
    height: float
    card: tuple[float, float]
    rows: int
    cols: int
    bleed: float
    block: Rect  # the outer trim of the whole grid
    turned: bool = False
    margin: float = PRINTER_MARGIN  # mm at each paper edge the marks stay out of
    fold: str | None = None
    gutter: float = 0.0  # mm between every two slots (tokens and tiles cut on a path), else none

    @property
    def per_sheet(self) -> int:
        return self.rows * self.cols

    @property
    def pitch(self) -> tuple[float, float]:
        """Return a slot's width and height on the page."""
        w, h = self.card
        return (h, w) if self.turned else (w, h)

    def origin(self, fill: Fill | None = None) -> tuple[float, float]:
        """Return the top-left of the grid with `fill`'s gutters: columns spread about the block's centre
        (or as a gutterfold block sits), rows grown upwards from its foot, so the footer keeps its room."""
        if fill is None or not (any(fill.row_gaps) or any(fill.col_gaps)):
            return self.block.x, self.block.y
        w, h = self.pitch
        grown = _block(
            self.width,
            self.height,
            self.fold,
            self.block.w + sum(fill.col_gaps),
            self.rows * h,
            self.margin,
            self.bleed,
        )
        return grown.x, self.block.y - sum(fill.row_gaps)

    def slot(self, row: int, col: int, fill: Fill | None = None) -> Rect:
        """Return the trim box of the card in (row, col), with `fill`'s gutters before it."""
        w, h = self.pitch
        x, y = self.origin(fill)
        if fill is not None:
            x, y = x + fill.gap_before(col, rows=False), y + fill.gap_before(row, rows=True)
        g = self.gutter
        return Rect(x + col * (w + g), y + row * (h + g), w, h)

    def back_slot(self, row: int, col: int) -> Rect:
        """Return where the back of (row, col) goes for long-edge duplex: mirrored about the centre line."""
        return self.slot(row, col).mirrored(self.width)

    def used(self, cards: int | Fill) -> Rect:
        """Return the outer trim of the slots `cards` fills (a partial last row counts whole)."""
        fill = as_fill(cards)
        rows, cols = self._extent(fill)
        return self.slot(0, 0, fill).union(self.slot(rows - 1, cols - 1, fill))

    def _extent(self, fill: Fill) -> tuple[int, int]:
        """Return how many rows and columns the slots of `fill` reach into."""
        return max(s // self.cols for s in fill.slots) + 1, max(s % self.cols for s in fill.slots) + 1

    def _edges(self, used: Rect) -> tuple[tuple[float, float, float], ...]:
        """Return (outer bleed, mark start, mark end) past the trim at the left, top, right and bottom of
        `used`: the room up to the printer margin (or the fold) holds the bleed, a gap, then the mark."""
        room = self.margin
        below, beside = self.height - used.bottom - room, self.width - used.right - room
        if self.fold == "horizontal":  # marks on the fold side stop short of the fold line
            below = self.height / 2 - used.bottom - FOLD_MARK_CLEAR
        elif self.fold == "vertical":
            beside = self.width / 2 - used.right - FOLD_MARK_CLEAR
        rooms = (used.x - room, used.y - room, beside, below)
        if self.gutter:  # tokens cut on a path: no crop marks, so the whole room may bleed
            return tuple((min(self.bleed, r), r, r) for r in rooms)
        return tuple(_edge(r, self.bleed) for r in rooms)

    def marks(self, cards: int | Fill) -> tuple[Mark, ...]:
        """Return the crop marks for the slots `cards` fills: both ends of every cut line they need (two
        lines, one per card edge, where a gutter opens between cards)."""
        fill = as_fill(cards)
        used = self.used(fill)
        left, top, right, bottom = ((start, end) for _, start, end in self._edges(used))
        rows, cols = self._extent(fill)
        xs = _cuts([(r.x, r.right) for r in (self.slot(0, c, fill) for c in range(cols))])
        ys = _cuts([(r.y, r.bottom) for r in (self.slot(r, 0, fill) for r in range(rows))])
        marks: list[Mark] = []
        for x in xs:
            marks.append(Mark(x, used.y - top[0], x, used.y - top[1]))
            marks.append(Mark(x, used.bottom + bottom[0], x, used.bottom + bottom[1]))
        for y in ys:
            marks.append(Mark(used.x - left[0], y, used.x - left[1], y))
            marks.append(Mark(used.right + right[0], y, used.right + right[1], y))
        return tuple(marks)

    def outer_bleed(self, cards: int | Fill) -> tuple[float, float, float, float]:
        """Return the bleed past the outer trim at the left, top, right and bottom of the slots `cards` fills."""
        left, top, right, bottom = (bleed for bleed, _, _ in self._edges(self.used(cards)))
        return left, top, right, bottom

    def fronts(self, cards: int | Fill, keys: Sequence[object] | None = None) -> Side:
        """Return the fronts page of `cards` (a count: the first slots); `keys` (one per card) say which
        cards may share a cut line: cards whose keys differ never paint into each other's gutter."""
        fill = as_fill(cards)
        trims = [self.slot(*divmod(s, self.cols), fill) for s in fill.slots]
        turn = 1 if self.turned else 0
        return self._side(trims, turn, False, self.marks(fill), self.used(fill), self.outer_bleed(fill), keys)

    def backs(self, cards: int | Fill, flip: str = "long", keys: Sequence[object] | None = None) -> Side:
        """Return the backs page: every back behind its front once the sheet is turned over.

        flip "long" (turned over on the long edge, like a book): backs mirrored about the page's vertical
        centre line, upright. flip "short" (over the short edge): mirrored about the horizontal centre
        line and turned upside down. A turned card's top goes where the flip takes its front's top.
        `keys` as for `fronts` (a card's back).
        """
        fill = as_fill(cards)
        front = 1 if self.turned else 0
        trims = [self.slot(*divmod(s, self.cols), fill) for s in fill.slots]
        left, top, right, bottom = self.outer_bleed(fill)
        used = self.used(fill)
        if flip == "long":
            trims = [x.mirrored(self.width) for x in trims]
            marks = tuple(m.mirrored(self.width) for m in self.marks(fill))
            used, bleeds, turn = used.mirrored(self.width), (right, top, left, bottom), -front % 4
        else:
            trims = [x.flipped(self.height) for x in trims]
            marks = tuple(m.flipped(self.height) for m in self.marks(fill))
            used, bleeds, turn = used.flipped(self.height), (left, bottom, right, top), (2 - front) % 4
        return self._side(trims, turn, True, marks, used, bleeds, keys)

    def sides(
        self, cards: int | Fill, options: PrintOptions, backs: Sequence[object] | None = None
    ) -> tuple[Side, ...]:
        """Return the printed pages of `cards` (a count: the first slots) as `options` ask: fronts then backs.

        `backs` holds a key per card (its back's identity): cards whose backs differ never paint into
        each other's gutter. The back offset moves each backs page by what a reader of the duplex check
        page (page 2, text upright) sees: with flip "short" that page is drawn upside down, so the page
        moves the other way.
        """
        if (options.duplex == "gutterfold") != (self.fold is not None):
            raise ValueError(f"a {'gutterfold' if self.fold else 'duplex'} sheet cannot print {options.duplex}")
        dx, dy = options.back_offset
        if options.duplex == "gutterfold":
            return (self.folded(cards, backs),)
        if options.duplex == "short":
            return self.fronts(cards), self.backs(cards, "short", backs).shifted(-dx, -dy)
        return self.fronts(cards), self.backs(cards, "long", backs).shifted(dx, dy)

    def folded(self, cards: int | Fill, backs: Sequence[object] | None = None) -> Side:
        """Return the single gutterfold page: fronts on one side of the fold line, backs on the other.

        Folding along the line lays each back behind its front: across a vertical fold the backs are
        mirrored left to right and stay upright (like a long-edge flip); across a horizontal fold they
        are mirrored top to bottom and turned round (like a short-edge flip).
        """
        fronts = self.fronts(cards)
        if self.fold == "vertical":
            back = self.backs(cards, "long", backs)
            line = Mark(self.width / 2, self.margin, self.width / 2, self.height - self.margin)
        else:
            back = self.backs(cards, "short", backs)
            line = Mark(self.margin, self.height / 2, self.width - self.margin, self.height / 2)
        return Side(
            fronts.placed + back.placed,
            fronts.marks + back.marks,
            fronts.trim.union(back.trim),
            fronts.bleed_box.union(back.bleed_box),
            (line,),
        )

    def _side(
        self,
        trims: list[Rect],
        turn: int,
        back: bool,
        marks: tuple[Mark, ...],
        used: Rect,
        bleeds: tuple[float, float, float, float],
        keys: Sequence[object] | None,
    ) -> Side:
        keyed = list(keys) if keys is not None else [None] * len(trims)
        placed = tuple(
            Placed(i, back, t, _clip(i, trims, keyed, used, bleeds, self.bleed), turn) for i, t in enumerate(trims)
        )
        return Side(placed, marks, used, used.grow(*bleeds))


def _clip(
    index: int,
    trims: Sequence[Rect],
    keys: Sequence[object],
    used: Rect,
    outer: tuple[float, float, float, float],
    bleed: float,
) -> Rect:
    """Return the area card `index` may paint: its trim plus bleed on every side, the outer bleed where its
    edge is the block's, a hairline over a shared cut, and half the gutter towards a card across one.

    Neighbours that share a cut line match there (same border or same back), so the hairline never shows.
    A card whose key (back) differs is kept to its half of the gutter even when it only meets this one at
    a corner, so a miscut of up to half the gutter shows only the card's own art.
    """
    trim, near = trims[index], 1e-6
    grown = []
    for side, out in enumerate(outer):  # left, top, right, bottom
        limit = out if abs(_edge_of(trim, side) - _edge_of(used, side)) < near else bleed
        for i, other in enumerate(trims):
            if i == index:
                continue
            # how far `other` lies beyond this side, and whether it faces it (or, with another back, nears it)
            sign = 1 if side >= 2 else -1
            gap = (_edge_of(other, (side + 2) % 4) - _edge_of(trim, side)) * sign
            reach = bleed if keys[i] != keys[index] else 0.0
            if side % 2:  # top or bottom: the other must overlap this card's columns
                facing = min(other.right + reach, trim.right) - max(other.x - reach, trim.x) > near
            else:
                facing = min(other.bottom + reach, trim.bottom) - max(other.y - reach, trim.y) > near
            if gap >= -near and facing:
                limit = min(limit, OVERLAP if gap < near else gap / 2)
        grown.append(limit)
    left, top, right, bottom = grown
    return trim.grow(left, top, right, bottom)


def _edge_of(rect: Rect, side: int) -> float:
    """Return the x or y of a rectangle's left (0), top (1), right (2) or bottom (3) edge."""
    return (rect.x, rect.y, rect.right, rect.bottom)[side]


def _edge(room: float, bleed: float) -> tuple[float, float, float]:
    """Return (bleed, mark start, mark end) past the trim on a side with `room` mm up to the printer margin.

    The bleed, a gap and the mark all stay inside the room and a mark never reaches into the bleed. Where
    the room is tight (A4's sides: 9.75 mm of margin, 4.75 mm of it printable) the bleed narrows, down to
    MIN_BLEED, to keep the mark MARK_COMFORT long; then the mark shortens, down to MARK_SHORTEST.
    """
    outer = min(bleed, max(MIN_BLEED, room - MARK_GAP - MARK_COMFORT))
    start = outer + MARK_GAP
    return outer, start, min(start + MARK_LENGTH, max(room, start + MARK_SHORTEST))


def _cuts(spans: Sequence[tuple[float, float]]) -> list[float]:
    """Return every cut line of a row (or column) of slots: each edge once, both edges across a gutter."""
    cuts: list[float] = []
    for lo, hi in spans:
        for x in (lo, hi):
            if not cuts or abs(cuts[-1] - x) > 1e-6:
                cuts.append(x)
    return cuts


def _block(width: float, height: float, fold: str | None, bw: float, bh: float, margin: float, bleed: float) -> Rect:
    """Return where a grid block of bw × bh mm goes on the page: centred, or beside a gutterfold's fold line."""
    if fold == "vertical":
        return Rect(_beside_fold(width / 2, bw, edge_room(margin), bleed + FOLD_GAP), (height - bh) / 2, bw, bh)
    if fold == "horizontal":
        return Rect((width - bw) / 2, _beside_fold(height / 2, bh, edge_room(margin), bleed + FOLD_GAP), bw, bh)
    return Rect((width - bw) / 2, (height - bh) / 2, bw, bh)


FOOTER_DEPTH = 5.0  # mm: two lines of 6.5 pt footer text, the least room a sheet's footer is given
FOOTER_PAST = 4.6  # mm: the least room past the crop marks' ends for a footer along the whole block (6 pt)
FOOTER_CLEAR = 0.8  # mm between the bleed and the footer
FOOTER_EDGE = 0.3  # mm the footer keeps inside the printer margin, so no glyph reaches it
FOOTER_INSET = 2.0  # mm the footer keeps from the crop marks either side of its column (or row)


@dataclass(frozen=True)
class Footer:
    """Where a card sheet's footer goes: a box in the margin beside the middle column (or, turned a quarter,
    the middle row) of the cards, clear of their bleed, their crop marks and the printer margin."""

    box: Rect
    rotate: bool  # set along the side margin, reading upwards
    valign: str  # "top" below the cards, "bottom" above them, "middle" beside them


def footer(sheet: Sheet, side: Side) -> Footer:
    """Return where the footer of `side` goes: below the cards, else above them, between the crop marks of
    the middle column; else in a side margin past the marks' ends, along the whole block; else between the
    marks of the middle row, right or left.

    On a gutterfold page it keeps to the backs' block, on the other side of the fold from the fronts.
    """
    cards = [p.trim for p in side.placed if p.back or not sheet.fold]
    block = cards[0]
    for trim in cards:
        block = block.union(trim)
    box = block.grow(BLEED, BLEED, BLEED, BLEED) if sheet.fold else side.bleed_box
    lo, hi = sheet.margin + FOOTER_EDGE, FOOTER_CLEAR
    xs = sorted({round(t.x, 6): t for t in cards}.values(), key=lambda t: t.x)
    ys = sorted({round(t.y, 6): t for t in cards}.values(), key=lambda t: t.y)
    column, row = xs[len(xs) // 2], ys[len(ys) // 2]
    across = (column.x + FOOTER_INSET, column.w - 2 * FOOTER_INSET)
    if not side.marks:  # tokens cut on paths: no crop marks in the margin, so the footer spans the block
        across = (block.x + FOOTER_INSET, block.w - 2 * FOOTER_INSET)
    below = (box.bottom + hi, sheet.height - lo)
    above = (lo, box.y - hi)
    if below[1] - below[0] >= FOOTER_DEPTH:
        return Footer(Rect(across[0], below[0], across[1], min(6.0, below[1] - below[0])), False, "top")
    if above[1] - above[0] >= FOOTER_DEPTH:
        depth = min(6.0, above[1] - above[0])
        return Footer(Rect(across[0], above[1] - depth, across[1], depth), False, "bottom")
    sideways = [m for m in side.marks if m.y1 == m.y2]
    right_end = max([box.right] + [max(m.x1, m.x2) for m in sideways if min(m.x1, m.x2) >= block.right])
    left_end = min([box.x] + [min(m.x1, m.x2) for m in sideways if max(m.x1, m.x2) <= block.x])
    past = ((right_end + FOOTER_EDGE, sheet.width - lo), (lo, left_end - FOOTER_EDGE))
    between = ((box.right + hi, sheet.width - lo), (lo, box.x - hi))
    for strips, span in ((past, (block.y + FOOTER_INSET, block.h - 2 * FOOTER_INSET)), (between, None)):
        for start, end in strips:
            if end - start >= (FOOTER_PAST if span else FOOTER_DEPTH):
                depth = min(5.5, end - start)
                x = start if start > sheet.width / 2 else end - depth
                y, length = span or (row.y + FOOTER_INSET, row.h - 2 * FOOTER_INSET)
                return Footer(Rect(x, y, depth, length), True, "middle")
    return Footer(Rect(across[0], below[0], across[1], max(0.0, below[1] - below[0])), False, "top")


def spare(sheet: Sheet) -> tuple[float, float]:
    """Return the mm across and up a sheet leaves beside its grid for gutters, inside the marks' room
    (rows grow upwards from the block's foot, so only the room above the block counts)."""
    free_w, _ = usable(sheet.paper, sheet.margin, sheet.fold, sheet.bleed)
    return max(0.0, free_w - sheet.block.w), max(0.0, sheet.block.y - edge_room(sheet.margin))


def edge_room(margin: float = PRINTER_MARGIN) -> float:
    """Return how far a grid's outer trim must stay from the paper edge: the printer margin, the narrowest
    bleed, the gap and the shortest mark."""
    return margin + MIN_BLEED + MARK_GAP + MARK_SHORTEST


def usable(
    paper: str, margin: float = PRINTER_MARGIN, fold: str | None = None, bleed: float = BLEED
) -> tuple[float, float]:
    """Return the (width, height) a grid may fill on `paper`: inside room for marks at every edge and,
    for a gutterfold sheet, on one side of the fold line with the bleed kept FOLD_GAP mm from it."""
    _, width, height = PAPERS[paper]
    room, beside = edge_room(margin), bleed + FOLD_GAP
    if fold == "vertical":
        return width / 2 - room - beside, height - 2 * room
    if fold == "horizontal":
        return width - 2 * room, height / 2 - room - beside
    return width - 2 * room, height - 2 * room


def grid_fits(
    paper: str, pitch: tuple[float, float], margin: float = PRINTER_MARGIN, fold: str | None = None, gutter: float = 0.0
) -> tuple[int, int]:
    """Return the most (rows, cols) of slots this size, `gutter` mm apart, that fit on `paper` with room for marks."""
    free_w, free_h = usable(paper, margin, fold)
    w, h = pitch
    g = gutter
    return max(0, math.floor((free_h + g) / (h + g) + EPSILON)), max(0, math.floor((free_w + g) / (w + g) + EPSILON))


def card_sheet(
    paper: str,
    card: CardSize | tuple[float, float] = (63.5, 88.9),
    rows: int | None = None,
    cols: int | None = None,
    bleed: float = BLEED,
    margin: float = PRINTER_MARGIN,
    turned: bool | None = None,
    fold: bool = False,
    gutter: float = 0.0,
) -> Sheet:
    """Lay out a grid of cards (no gutter: neighbours share a cut; or `gutter` mm apart) with marks in the margins.

    Without `rows` and `cols` the grid is the most cards that fit inside the printer `margin` with room
    for crop marks, upright, or turned a quarter turn when that fits strictly more (`turned` forces
    either). A declared `rows` × `cols` grid is kept upright unless `turned`, and refused if it does not fit.
    The grid is centred on the page; with `fold` (gutterfold) it is centred in the left or top half,
    whichever holds more cards (left on a tie), and the fold line runs through the page's centre.
    """
    label, width, height = PAPERS[paper]
    w, h = card
    name = f"{size_label(card)} cards"
    folds: tuple[str | None, ...] = FOLDS if fold else (None,)

    def pitch(t: bool) -> tuple[float, float]:
        return (h, w) if t else (w, h)

    if (rows is None) != (cols is None):
        raise SheetError("a declared grid needs both rows and columns")
    if rows is None:
        turns = [False, True] if turned is None else [turned]
        fits = {(t, f): grid_fits(paper, pitch(t), margin, f, gutter) for f in folds for t in turns}
        # the most cards; then upright; then a vertical fold, whose backs stay upright
        turned, where = max(fits, key=lambda k: (fits[k][0] * fits[k][1], not k[0], k[1] == "vertical"))
        rows, cols = fits[turned, where]
        if rows * cols == 0:
            raise SheetError(
                f"{name} do not fit on {label} paper ({width:g} × {height:g} mm) with "
                f"{edge_room(margin):g} mm kept free at each edge for the printer margin and crop marks"
                + (f", and {bleed + FOLD_GAP:g} mm between the cards and the fold" if fold else "")
            )
    else:
        assert rows is not None and cols is not None  # both declared: checked above
        turned = bool(turned)
        if not (1 <= rows <= MAX_GRID and 1 <= cols <= MAX_GRID):
            raise SheetError(f"a grid of {rows} × {cols} cards is not possible: rows and columns are 1 to {MAX_GRID}")
        fits = {(turned, f): grid_fits(paper, pitch(turned), margin, f, gutter) for f in folds}
        where = next((f for (_, f), (r, c) in fits.items() if rows <= r and cols <= c), "none")
        if where == "none":
            pw, ph = pitch(turned)
            best_r, best_c = max(fits.values(), key=lambda rc: rc[0] * rc[1])
            most = f"at most {best_r} × {best_c}" if best_r * best_c else "none"
            room = " or ".join("{:g} × {:g} mm".format(*usable(paper, margin, f)) + FOLD_ROOM[f] for f in folds)
            raise SheetError(
                f"{rows} × {cols} {name} need {cols * pw:g} × {rows * ph:g} mm but {label} paper leaves "
                f"{room} inside the printer margin and crop marks; {most} fit"
            )
    pw, ph = pitch(turned)
    bw, bh = cols * pw + (cols - 1) * gutter, rows * ph + (rows - 1) * gutter
    block = _block(width, height, where, bw, bh, margin, bleed)
    return Sheet(paper, width, height, (w, h), rows, cols, bleed, block, turned, margin, where, gutter)


def _beside_fold(half: float, size: float, room: float, beside: float) -> float:
    """Return where a block starts in the half before the fold: centred in it, unless that leaves less
    than `room` for the marks at the paper edge or less than `beside` between it and the fold."""
    return min(max((half - size) / 2, room), half - size - beside)


@dataclass(frozen=True)
class PrintOptions:
    """How a home kit is printed; the defaults are what `cardpress build` writes.

    duplex: "long" (default): print double-sided, flipped on the long edge; each fronts page is followed
        by its backs page, mirrored left to right. "short": flipped on the short edge; the backs pages
        are mirrored top to bottom and upside down, and the PDF asks the print dialog for a short-edge flip.
        "gutterfold": print single-sided; each sheet holds the fronts on one side of a dashed fold line
        and their backs, mirrored, on the other: fold, glue, cut. No duplex check page, no blank backs.
    back_offset: (x, y) mm by which every backs page (the duplex check page too) is moved to make up
        for a printer that shifts the second side. Measure it on the duplex check page (page 2), read
        the right way up and held against the light: if its crosshair sits 1.5 mm left of and 0.5 mm
        above the one shining through from page 1, enter (1.5, 0.5); x counts to the right and y
        downwards, as page 2 reads.
    printer_margin: mm at each paper edge the printer may not reach; cards and crop marks stay inside.
    grids: declared grids, deck id -> (rows, cols); a deck not named gets the most cards that fit.
    """

    duplex: str = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)
    printer_margin: float = PRINTER_MARGIN
    grids: Mapping[str, tuple[int, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.duplex not in DUPLEX:
            raise ValueError(f"duplex must be one of {', '.join(DUPLEX)}, not {self.duplex!r}")
        offset = tuple(self.back_offset)
        if len(offset) != 2 or not all(isinstance(v, (int, float)) and math.isfinite(v) for v in offset):
            raise ValueError(f"back_offset must be two lengths in mm (x, y), not {self.back_offset!r}")
        if max(abs(v) for v in offset) > MAX_OFFSET:
            raise ValueError(f"a back offset of {offset[0]:g}, {offset[1]:g} mm is beyond {MAX_OFFSET:g} mm")
        if self.duplex == "gutterfold" and any(offset):
            raise ValueError("a gutterfold kit prints single-sided: a back offset has nothing to correct")
        if not (isinstance(self.printer_margin, (int, float)) and 0 <= self.printer_margin <= MAX_MARGIN):
            raise ValueError(f"printer_margin must be 0 to {MAX_MARGIN:g} mm, not {self.printer_margin!r}")
        object.__setattr__(self, "back_offset", (float(offset[0]), float(offset[1])))

    @property
    def viewer_duplex(self) -> str:
        """Return the PDF ViewerPreferences /Duplex value that presets the print dialog."""
        return VIEWER_DUPLEX[self.duplex]


def sheets_for(
    sizes: Mapping[tuple[str, tuple[float, float]], CardSize | tuple[float, float]],
    paper: str,
    options: PrintOptions,
    cut_on_paths: Collection[tuple[str, tuple[float, float]]] = (),
) -> dict[tuple[str, tuple[float, float]], Sheet]:
    """Return the sheet of every (deck, size) run on `paper`: {run: Sheet}; `sizes` maps each run to its
    card size. Runs in `cut_on_paths` (round and hex tokens) lie upright, TOKEN_GAP apart. Raise SheetError
    naming every run that cannot be laid out."""
    sheets: dict[tuple[str, tuple[float, float]], Sheet] = {}
    problems = []
    for run, size in sizes.items():
        deck = run[0]
        rows, cols = options.grids.get(deck, (None, None))
        try:
            apart = run in cut_on_paths
            sheets[run] = card_sheet(
                paper,
                size,
                rows,
                cols,
                margin=options.printer_margin,
                turned=False if apart else None,
                fold=options.duplex == "gutterfold",
                gutter=TOKEN_GAP if apart else 0.0,
            )
        except SheetError as exc:
            problems.append((deck, str(exc)))
    if problems:
        raise SheetError("; ".join(f"deck '{deck}': {problem}" for deck, problem in problems), problems)
    return sheets


def paginate(count: int, per_page: int) -> list[range]:
    """Split `count` items into pages of at most `per_page`."""
    return [range(i, min(i + per_page, count)) for i in range(0, count, per_page)]
