"""Sheet geometry, pure: where cards, bleed, crop marks and duplex backs go on a page (mm, y down)."""

from __future__ import annotations

from dataclasses import dataclass

PAPERS = {"a4": ("A4", 210.0, 297.0), "letter": ("US Letter", 215.9, 279.4)}
PRINTER_MARGIN = 4.0  # mm at each paper edge that home printers commonly cannot reach
BLEED = 3.0  # mm of art past the trim on the outside of the card block
MARK_GAP = 0.5  # mm between the bleed and the start of a crop mark
MARK_LENGTH = 5.0  # mm, the longest a crop mark gets
MARK_MIN_START = 1.0  # mm past the trim: marks never come closer to a card than this
OVERLAP = 0.15  # mm a card paints past a shared cut, so renderers show no hairline seam there


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

    def contains(self, other: Rect, tolerance: float = 1e-6) -> bool:
        """Return True if `other` lies entirely inside this rectangle."""
        return (
            other.x >= self.x - tolerance
            and other.y >= self.y - tolerance
            and other.right <= self.right + tolerance
            and other.bottom <= self.bottom + tolerance
        )


@dataclass(frozen=True)
class Mark:
    """A crop mark: a straight segment from (x1, y1) to (x2, y2)."""

    x1: float
    y1: float
    x2: float
    y2: float

    def distance_to(self, rect: Rect) -> float:
        """Return the shortest distance between this segment and a rectangle (0 if they touch)."""
        # Marks are axis-aligned, so the gap is the larger of the two axis gaps.
        lo_x, hi_x = sorted((self.x1, self.x2))
        lo_y, hi_y = sorted((self.y1, self.y2))
        dx = max(rect.x - hi_x, lo_x - rect.right, 0.0)
        dy = max(rect.y - hi_y, lo_y - rect.bottom, 0.0)
        return (dx * dx + dy * dy) ** 0.5

    def mirrored(self, page_width: float) -> Mark:
        """Return the mark mirrored about the page's vertical centre line."""
        return Mark(page_width - self.x1, self.y1, page_width - self.x2, self.y2)


@dataclass(frozen=True)
class Sheet:
    """A page of cards: the paper, the card grid and its bleed."""

    paper: str
    width: float
    height: float
    card: tuple[float, float]
    rows: int
    cols: int
    bleed: float
    block: Rect  # the outer trim of the whole grid

    def used(self, count: int) -> Rect:
        """Return the outer trim of the first `count` slots (a partial last row counts whole)."""
        w, h = self.card
        return Rect(self.block.x, self.block.y, min(count, self.cols) * w, -(-count // self.cols) * h)

    def marks(self, count: int) -> tuple[Mark, ...]:
        """Return the crop marks for the first `count` slots: both ends of every cut line they need."""
        w, h = self.card
        rows, cols = -(-count // self.cols), min(count, self.cols)
        used = self.used(count)
        top, bottom = _mark_span(used.y, self.bleed), _mark_span(self.height - used.bottom, self.bleed)
        left, right = _mark_span(used.x, self.bleed), _mark_span(self.width - used.right, self.bleed)
        marks: list[Mark] = []
        for c in range(cols + 1):
            x = used.x + c * w
            marks.append(Mark(x, used.y - top[0], x, used.y - top[1]))
            marks.append(Mark(x, used.bottom + bottom[0], x, used.bottom + bottom[1]))
        for r in range(rows + 1):
            y = used.y + r * h
            marks.append(Mark(used.x - left[0], y, used.x - left[1], y))
            marks.append(Mark(used.right + right[0], y, used.right + right[1], y))
        return tuple(marks)

    def slot(self, row: int, col: int) -> Rect:
        """Return the trim box of the card in (row, col)."""
        w, h = self.card
        return Rect(self.block.x + col * w, self.block.y + row * h, w, h)

    def back_slot(self, row: int, col: int) -> Rect:
        """Return where the back of (row, col) goes for long-edge duplex: mirrored about the centre line."""
        return self.slot(row, col).mirrored(self.width)

    def clip(self, row: int, col: int, occupied: set[tuple[int, int]], back: bool = False) -> Rect:
        """Return the area a card may paint: its trim, plus bleed on every side with no card next to it."""

        # Neighbours' edges match (same border or same back), so the tiny overlap never shows.
        def free(r: int, c: int) -> float:
            return self.bleed if (r, c) not in occupied else OVERLAP

        left, right = free(row, col - 1), free(row, col + 1)
        if back:  # the back page is mirrored, so left and right neighbours swap
            left, right = right, left
        rect = self.back_slot(row, col) if back else self.slot(row, col)
        return rect.grow(left, free(row - 1, col), right, free(row + 1, col))


def card_sheet(
    paper: str, card: tuple[float, float] = (63.5, 88.9), rows: int = 3, cols: int = 3, bleed: float = BLEED
) -> Sheet:
    """Centre a rows × cols grid of cards (no gutter: neighbours share a cut) with marks in the margins."""
    _, width, height = PAPERS[paper]
    w, h = card
    block = Rect((width - cols * w) / 2, (height - rows * h) / 2, cols * w, rows * h)
    if block.x < PRINTER_MARGIN or block.y < PRINTER_MARGIN:
        raise ValueError(f"{rows}×{cols} cards of {w}×{h} mm do not fit on {paper}")
    return Sheet(paper, width, height, card, rows, cols, bleed, block)


def _mark_span(margin: float, bleed: float) -> tuple[float, float]:
    """Return (start, end) of a mark, measured outward from the trim, for a margin this wide."""
    end = min(bleed + MARK_GAP + MARK_LENGTH, margin - PRINTER_MARGIN)
    start = bleed + MARK_GAP
    if end - start < 2.0:  # a tight margin (Letter's top and bottom): let the mark reach into the bleed
        start = max(MARK_MIN_START, end - 3.0)
    return start, end


def paginate(count: int, per_page: int) -> list[range]:
    """Split `count` items into pages of at most `per_page`."""
    return [range(i, min(i + per_page, count)) for i in range(0, count, per_page)]
