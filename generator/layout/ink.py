"""What a face puts on paper, mark by mark, in face millimetres: the layout lint's view of a drawn face."""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from .boxes import Box
from .document import Element

Polygon = tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Mark:
    """One painted thing, in drawing order, with the layout element it belongs to.

    An image owns the stand-in drawn for missing art, a text element the icons set inline in it.
    """

    element: Element
    paint: str  # "fill", "stroke", "text" or "image"
    box: Box  # what it covers, clipped
    colour: str | None = None
    opacity: float = 1.0
    outline: tuple[Polygon, ...] = ()  # a fill's polygons, filled even-odd as the PDF fills them
    size: float = 0.0  # text: points
    bold: bool = False  # text: set in a bold face
    line: int = -1  # text: which set line of its element, from 0
    text: str = ""
    convex: bool = False  # a fill that is one convex polygon (rectangles, discs): quick to test against a box

    def covers(self, x: float, y: float) -> bool:
        """Return True when the mark paints the point (x, y)."""
        if not self.box.contains(x, y):
            return False
        return not self.outline or inside(self.outline, x, y)

    def covers_box(self, box: Box) -> bool:
        """Return True when the mark surely paints all of `box` (False may still mean it does)."""
        if self.outline and not self.convex:
            return False
        own, left, top, right, bottom = self.box, box.left, box.top, box.right, box.bottom
        if not (  # its box holds all four corners (the eight comparisons of Box.contains, without the calls)
            own.left <= left <= own.right
            and own.left <= right <= own.right
            and own.top <= top <= own.bottom
            and own.top <= bottom <= own.bottom
        ):
            return False
        outline = self.outline
        # inside() at the four corners, each row's crossings found once and its even-odd test written out (a
        # call for each corner costs this test 14 % more)
        for y in (top, bottom) if outline else ():
            crossings = _row(outline, y)
            n = len(crossings)
            if (n - bisect.bisect_right(crossings, left)) % 2 == 0 or (
                n - bisect.bisect_right(crossings, right)
            ) % 2 == 0:
                return False
        return True


def inside(polygons: tuple[Polygon, ...], x: float, y: float) -> bool:
    """Return True when (x, y) lies inside the polygons under the even-odd rule."""
    crossings = _row(polygons, y)
    return (len(crossings) - bisect.bisect_right(crossings, x)) % 2 == 1  # edges crossed right of x


MAX_ROWS = 65_536  # rows kept; past this the memory starts again
_ROWS: dict[tuple[int, float], tuple[tuple[Polygon, ...], tuple[float, ...]]] = {}  # by id, with the polygons


def _row(polygons: tuple[Polygon, ...], y: float) -> tuple[float, ...]:
    """Return, sorted, where the polygons' edges cross the line at height y, each edge once (the half-open
    rule: an edge counts when one end is above y and the other is not). The same rows come back for every
    text line and sample at one height, and the shapes faces share are the same objects: kept."""
    key = (id(polygons), y)
    kept = _ROWS.get(key)
    if kept is not None and kept[0] is polygons:
        return kept[1]
    found = []
    for polygon in polygons:
        if not polygon:
            continue
        x0, y0 = polygon[-1]  # every edge (start, end) once, the closing one first: a count needs no order
        above = y0 > y
        for x1, y1 in polygon:
            if (y1 > y) != above:
                found.append(x0 + (y - y0) * (x1 - x0) / (y1 - y0))
            x0, y0, above = x1, y1, y1 > y
    crossings = tuple(sorted(found))
    if len(_ROWS) >= MAX_ROWS:
        _ROWS.clear()
    _ROWS[key] = (polygons, crossings)
    return crossings


def is_convex(polygon: Polygon) -> bool:
    """Return True when the polygon turns one way only at every corner (collinear points allowed)."""
    points = [p for i, p in enumerate(polygon) if i == 0 or p != polygon[i - 1]]
    if len(points) > 1 and points[0] == points[-1]:
        points.pop()
    n = len(points)
    if n < 3:
        return False
    sign = 0
    for i in range(n):
        (x0, y0), (x1, y1), (x2, y2) = points[i], points[(i + 1) % n], points[(i + 2) % n]
        cross = (x1 - x0) * (y2 - y1) - (y1 - y0) * (x2 - x1)
        if abs(cross) > 1e-12:
            if sign and (cross > 0) != (sign > 0):
                return False
            sign = 1 if cross > 0 else -1
    return sign != 0
