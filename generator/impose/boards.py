"""Boards larger than a page, pure: the parts a board is split into, each overlapping the next, with the
registration marks that line two parts up when one is glued over the other (mm, y down)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .sheets import PAPERS, PRINTER_MARGIN, Mark, Rect

BOARD_EDGE = 5.0  # mm past the printer margin a board part keeps free, for its marks and a clean edge
OVERLAP = 12.0  # mm each part shares with the next: the strip one is glued under the other
CROSS = 3.0  # mm half-length of a registration cross


@dataclass(frozen=True)
class Part:
    """One page of a board: the window of the board it shows, where that goes on the page, how the page
    lies, the registration crosses and the edge lines of its neighbours in the overlap."""

    row: int
    col: int
    window: Rect  # in board coordinates
    area: Rect  # where the window prints on the page
    landscape: bool
    marks: tuple[Mark, ...]  # registration crosses, the same board points on both parts of an overlap
    edges: tuple[Mark, ...]  # dashed: where a neighbour's edge lies once glued over this part

    @property
    def name(self) -> str:
        """Return the part's name as its label prints it: a letter for its row, a number for its column."""
        return f"{chr(ord('A') + self.row)}{self.col + 1}"


def split(board: tuple[float, float], paper: str, margin: float = PRINTER_MARGIN) -> list[Part]:
    """Return the parts a board of board mm prints as on `paper`: one centred page when it fits, else the
    fewest parts (portrait or landscape pages) each overlapping the next by OVERLAP mm, spread evenly."""
    _, pw, ph = PAPERS[paper]
    edge = margin + BOARD_EDGE
    options = []
    for landscape in (False, True):
        w, h = (ph, pw) if landscape else (pw, ph)
        iw, ih = w - 2 * edge, h - 2 * edge
        cols, rows = _count(board[0], iw), _count(board[1], ih)
        options.append((cols * rows, landscape == (board[0] < board[1]), landscape, iw, ih, w, h, cols, rows))
    _, _, landscape, iw, ih, w, h, cols, rows = min(options)
    bw, bh = board
    step_x = (bw - iw) / (cols - 1) if cols > 1 else 0.0
    step_y = (bh - ih) / (rows - 1) if rows > 1 else 0.0
    parts = []
    for r in range(rows):
        for c in range(cols):
            window = Rect(c * step_x, r * step_y, min(iw, bw), min(ih, bh))
            area = Rect((w - window.w) / 2, (h - window.h) / 2, window.w, window.h)
            parts.append(_part(r, c, rows, cols, window, area, landscape, step_x, step_y))
    return parts


def _count(length: float, room: float) -> int:
    """Return how many parts cover `length` mm with `room` mm a part and OVERLAP mm shared between two."""
    return 1 if length <= room + 1e-9 else math.ceil((length - OVERLAP) / (room - OVERLAP) - 1e-9)


def _part(
    r: int, c: int, rows: int, cols: int, window: Rect, area: Rect, landscape: bool, sx: float, sy: float
) -> Part:
    """Return part (r, c) with a cross at the middle of every overlap it shares and its neighbours' edges."""
    dx, dy = area.x - window.x, area.y - window.y  # board point + (dx, dy) = page point

    def cross(x: float, y: float) -> tuple[Mark, Mark]:
        x, y = x + dx, y + dy
        return Mark(x - CROSS, y, x + CROSS, y), Mark(x, y - CROSS, x, y + CROSS)

    marks: list[Mark] = []
    edges: list[Mark] = []
    top, bottom = window.y, window.bottom
    left, right = window.x, window.right
    if c + 1 < cols:  # the next part to the right starts at (c + 1) * sx: its left edge lies here
        x = (c + 1) * sx
        band = (x + right) / 2
        for y in (top + window.h / 4, top + 3 * window.h / 4):
            marks.extend(cross(band, y))
        edges.append(Mark(x + dx, top + dy, x + dx, bottom + dy))
    if c > 0:  # the part to the left: its right edge lies in this part's left strip
        band = (left + (c - 1) * sx + window.w) / 2
        for y in (top + window.h / 4, top + 3 * window.h / 4):
            marks.extend(cross(band, y))
    if r + 1 < rows:
        y = (r + 1) * sy
        band = (y + bottom) / 2
        for x in (left + window.w / 4, left + 3 * window.w / 4):
            marks.extend(cross(x, band))
        edges.append(Mark(left + dx, y + dy, right + dx, y + dy))
    if r > 0:
        band = (top + (r - 1) * sy + window.h) / 2
        for x in (left + window.w / 4, left + 3 * window.w / 4):
            marks.extend(cross(x, band))
    return Part(r, c, window, area, landscape, tuple(marks), tuple(edges))


__all__ = ["BOARD_EDGE", "OVERLAP", "Part", "split"]
