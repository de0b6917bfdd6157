"""Tuck boxes, pure geometry: a box sized to a deck, its one-piece die line, and where it goes on a page.

Lengths are millimetres, y runs down. A box holds its cards standing, opening on a short edge. Its die line
is one strip of four walls (back, spine, front, spine) with a glue flap at the end, a lid and tuck flap at the
top and the bottom of the back, and a dust flap at each end of each spine; the front has a thumb notch. When
the strip is too long for the paper it is cut in two at the front's fold, and the second piece gets a glue
flap of its own. Stock calipers and their sources are in docs/printing-components.md, "Tuck boxes".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .sheets import PAPERS, PRINTER_MARGIN

Point = tuple[float, float]


@dataclass(frozen=True)
class Stock:
    """A card stock: how thick one card is."""

    name: str
    thickness: float  # mm, one card's caliper
    label: str


# Calipers (mm per card) from the sources cited in docs/printing-components.md.
STOCKS: dict[str, Stock] = {
    s.name: s
    for s in (
        Stock("home-200gsm", 0.25, "200 g/m² card"),
        Stock("home-250gsm", 0.29, "250 g/m² card"),
        Stock("home-300gsm", 0.33, "300 g/m² card"),
        Stock("thegamecrafter", 0.305, "The Game Crafter 12 pt"),
        Stock("makeplayingcards", 0.30, "MakePlayingCards S30"),
        Stock("printerstudio", 0.30, "PrinterStudio S30"),
        Stock("drivethrucards", 0.33, "DriveThruCards"),
    )
}
DEFAULT_STOCK = "home-300gsm"


@dataclass(frozen=True)
class Sleeve:
    """A card sleeve: what it adds to each card's thickness and to its width and height."""

    name: str
    thickness: float  # mm, both films of one sleeve
    margin: float  # mm the sleeve is wider and taller than its card


SLEEVE_MARGIN = 3.0  # mm: a standard sleeve is 66 × 91 mm for a 63.5 × 88.9 mm card (+2.5, +2.1)
SLEEVES: dict[str, Sleeve] = {
    s.name: s
    for s in (
        Sleeve("none", 0.0, 0.0),
        Sleeve("penny", 0.08, SLEEVE_MARGIN),  # 40 µm films
        Sleeve("standard", 0.13, SLEEVE_MARGIN),  # 60 µm films
        Sleeve("premium", 0.20, SLEEVE_MARGIN),  # 100 µm films
        Sleeve("double", 0.30, SLEEVE_MARGIN),  # a 100 µm sleeve over a 50 µm inner sleeve
    )
}

EASE = (1.5, 1.0, 1.0)  # mm of play in width, height and depth, so the deck slides in and out
MIN_DEPTH = 5.0  # mm: a thinner spine cannot be folded by hand
BOX_PAPER = 0.33  # mm: the caliper of the card the box itself is printed on (home 300 g/m²)
GLUE = 10.0  # mm: the glue flap's width
DUST_INSET = 0.8  # mm: dust flaps stop short of the neighbouring lid and front, so they fold freely
TUCK_INSET = 1.0  # mm each side: the tuck flap is narrower than the front, so it slides inside
GAP = 6.0  # mm between two pieces stacked on one page
ARC_STEPS = 12  # segments per half circle


@dataclass(frozen=True)
class Inner:
    """A box's inside: width, height (the cards' long side) and depth (the stack)."""

    w: float
    h: float
    d: float


def inner(card: tuple[float, float], count: int, stock: Stock, sleeve: Sleeve = SLEEVES["none"]) -> Inner:
    """Return the inside of a box for `count` cards of size `card` on `stock` in `sleeve`s."""
    short, long = sorted(card)
    return Inner(
        short + sleeve.margin + EASE[0],
        long + sleeve.margin + EASE[1],
        max(MIN_DEPTH, count * (stock.thickness + sleeve.thickness) + EASE[2]),
    )


@dataclass(frozen=True)
class Panel:
    """One face of the die line: its outline, the panel it folds from and the fold line they share."""

    name: str  # back, spine-1, front, spine-2, glue, glue-2, lid-top, tuck-top, dust-1-top, …
    points: tuple[Point, ...]
    parent: str | None = None
    hinge: tuple[Point, Point] | None = None
    piece: int = 0  # which piece of a split die line it is printed on

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """Return (left, top, right, bottom)."""
        xs, ys = [p[0] for p in self.points], [p[1] for p in self.points]
        return min(xs), min(ys), max(xs), max(ys)


@dataclass(frozen=True)
class Piece:
    """One cut-out of a die line: its closed cut outline and its fold lines, in die-line coordinates."""

    outline: tuple[Point, ...]
    folds: tuple[tuple[Point, Point], ...]

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        xs, ys = [p[0] for p in self.outline], [p[1] for p in self.outline]
        return min(xs), min(ys), max(xs), max(ys)

    @property
    def size(self) -> tuple[float, float]:
        left, top, right, bottom = self.bounds
        return right - left, bottom - top


@dataclass(frozen=True)
class Net:
    """A box's die line: its panels (for art and for folding) and the pieces it is cut from."""

    inner: Inner
    paper: float
    wall: tuple[float, float, float]  # the panels' width, height and depth: the inside plus one paper caliper
    tuck: float  # the tuck flap's length
    dust: float  # a dust flap's length
    panels: tuple[Panel, ...]
    pieces: tuple[Piece, ...]

    def panel(self, name: str) -> Panel:
        """Return the panel called `name`."""
        return next(p for p in self.panels if p.name == name)


def _rect(x: float, y: float, w: float, h: float) -> tuple[Point, ...]:
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))


def _arc(cx: float, cy: float, r: float, start: float, end: float) -> list[Point]:
    """Return points on a circle from angle `start` to `end` (degrees, y down: 90 points down)."""
    steps = max(2, round(ARC_STEPS * abs(end - start) / 180))
    return [
        (
            cx + r * math.cos(math.radians(start + (end - start) * i / steps)),
            cy + r * math.sin(math.radians(start + (end - start) * i / steps)),
        )
        for i in range(steps + 1)
    ]


def _dedupe(points: Sequence[Point]) -> tuple[Point, ...]:
    out: list[Point] = []
    for p in points:
        if not out or math.dist(out[-1], p) > 1e-9:
            out.append(p)
    if len(out) > 1 and math.dist(out[0], out[-1]) < 1e-9:
        out.pop()
    return tuple(out)


def net(box: Inner, paper: float = BOX_PAPER, split: bool = False) -> Net:
    """Return the die line of a box with inside `box`, printed on card `paper` mm thick (cut in two if `split`)."""
    w, h, d = box.w + paper, box.h + paper, box.d + paper  # each fold takes about one caliper
    tuck = min(18.0, max(10.0, 0.5 * d + 8.0))
    dust = min(0.45 * w, d + tuck - 1.0)
    corner = min(6.0, tuck - 2.0)  # the tuck flap's rounded corners
    notch = min(10.0, 0.16 * w, 0.1 * h)  # thumb notch radius
    chamfer = min(0.4 * (d - 2 * DUST_INSET), 0.4 * dust)
    top = max(d + tuck, dust)  # the rows above (and below) the walls
    x_spine1, x_front, x_spine2, x_glue = w, w + d, 2 * w + d, 2 * w + 2 * d
    y0, y1 = top, top + h  # the walls' top and bottom
    cg = GLUE * 0.5  # the glue flaps' chamfers

    def mirror(points: Sequence[Point]) -> list[Point]:
        return [(x, y0 + y1 - y) for x, y in points]

    def lid(x: float) -> list[Point]:  # left to right, from the back's top-left corner to its top-right
        yl, yt = y0 - d, y0 - d - tuck
        left, right = x + TUCK_INSET, x + w - TUCK_INSET
        return [
            (x, y0),
            (x, yl),
            (left, yl),
            *_arc(left + corner, yt + corner, corner, 180, 270),
            *_arc(right - corner, yt + corner, corner, 270, 360),
            (right, yl),
            (x + w, yl),
            (x + w, y0),
        ]

    def dust_flap(x: float) -> list[Point]:
        a, b = x + DUST_INSET, x + d - DUST_INSET
        return [(a, y0), (a, y0 - dust + chamfer), (a + chamfer, y0 - dust), (b - chamfer, y0 - dust)] + [
            (b, y0 - dust + chamfer),
            (b, y0),
            (x + d, y0),
        ]

    def front_top(x: float) -> list[Point]:
        mid = x + w / 2
        return [(x, y0), *_arc(mid, y0, notch, 180, 0), (x + w, y0)]

    def glue_flap(x: float) -> list[Point]:
        return [(x, y0), (x + GLUE, y0 + cg), (x + GLUE, y1 - cg), (x, y1)]

    def bottom(points: list[Point]) -> list[Point]:
        return mirror(points)[::-1]

    folds_walls = [((x, y0), (x, y1)) for x in (x_spine1, x_front, x_spine2, x_glue)]

    def flap_folds(y_wall: float, y_lid: float) -> list[tuple[Point, Point]]:
        return [
            ((0.0, y_wall), (w, y_wall)),
            ((TUCK_INSET, y_lid), (w - TUCK_INSET, y_lid)),
            ((x_spine1 + DUST_INSET, y_wall), (x_front - DUST_INSET, y_wall)),
            ((x_spine2 + DUST_INSET, y_wall), (x_glue - DUST_INSET, y_wall)),
        ]

    top_folds, bottom_folds = flap_folds(y0, y0 - d), flap_folds(y1, y1 + d)
    if not split:
        outline = (
            lid(0)
            + dust_flap(x_spine1)
            + front_top(x_front)
            + dust_flap(x_spine2)
            + glue_flap(x_glue)
            + bottom(lid(0) + dust_flap(x_spine1) + [(x_front, y0), (x_spine2, y0)] + dust_flap(x_spine2))
        )
        pieces: tuple[Piece, ...] = (Piece(_dedupe(outline), tuple(folds_walls + top_folds + bottom_folds)),)
    else:
        first = lid(0) + dust_flap(x_spine1) + glue_flap(x_front) + bottom(lid(0) + dust_flap(x_spine1))
        second = (
            front_top(x_front)
            + dust_flap(x_spine2)
            + glue_flap(x_glue)
            + bottom([(x_front, y0), (x_spine2, y0)] + dust_flap(x_spine2))
        )

        def keep(folds: list[tuple[Point, Point]], lo: float, hi: float) -> tuple[tuple[Point, Point], ...]:
            return tuple(f for f in folds if lo - 1e-9 <= min(f[0][0], f[1][0]) < hi - 1e-9)

        every = folds_walls + top_folds + bottom_folds
        pieces = (
            Piece(_dedupe(first), keep(every, 0.0, x_front) + (folds_walls[1],)),
            Piece(_dedupe(second), keep(every, x_front + 1e-6, x_glue + GLUE)),
        )

    def flap_panels(end: str, y_wall: float, sign: float) -> list[Panel]:
        """The lid, tuck and dust flaps at one end (sign -1: the top, +1: the bottom)."""
        y_lid = y_wall + sign * d

        def at(points: list[Point]) -> tuple[Point, ...]:
            return _dedupe(points if sign < 0 else mirror(points))

        return [
            Panel(f"lid-{end}", _rect(0, min(y_wall, y_lid), w, d), "back", ((0, y_wall), (w, y_wall))),
            Panel(
                f"tuck-{end}",
                at(lid(0)[2:-2]),
                f"lid-{end}",
                ((TUCK_INSET, y_lid), (w - TUCK_INSET, y_lid)),
            ),
            Panel(
                f"dust-1-{end}",
                at(dust_flap(x_spine1)[:-1]),
                "spine-1",
                ((x_spine1 + DUST_INSET, y_wall), (x_front - DUST_INSET, y_wall)),
            ),
            Panel(
                f"dust-2-{end}",
                at(dust_flap(x_spine2)[:-1]),
                "spine-2",
                ((x_spine2 + DUST_INSET, y_wall), (x_glue - DUST_INSET, y_wall)),
                1 if split else 0,
            ),
        ]

    second_piece = 1 if split else 0
    panels = [
        Panel("back", _rect(0, y0, w, h)),
        Panel("spine-1", _rect(x_spine1, y0, d, h), "back", ((x_spine1, y0), (x_spine1, y1))),
        Panel("front", _rect(x_front, y0, w, h), "spine-1", ((x_front, y0), (x_front, y1)), second_piece),
        Panel("spine-2", _rect(x_spine2, y0, d, h), "front", ((x_spine2, y0), (x_spine2, y1)), second_piece),
        Panel("glue", tuple(glue_flap(x_glue)), "spine-2", ((x_glue, y0), (x_glue, y1)), second_piece),
        *flap_panels("top", y0, -1.0),
        *flap_panels("bottom", y1, 1.0),
    ]
    if split:
        panels.append(Panel("glue-2", tuple(glue_flap(x_front)), "spine-1", ((x_front, y0), (x_front, y1))))
    return Net(box, paper, (w, h, d), tuck, dust, tuple(panels), pieces)


# -- on the page -------------------------------------------------------------------------------------------------

HEAD = 15.0  # mm at the top of a box page for its instructions
FOOT = 26.0  # mm at the bottom for the legend, the scale ruler and the sheet footer
SPILL = 0.5  # mm the walls' colour runs past their cut edges, so a slightly wide cut shows no white


def area(paper: str) -> tuple[float, float, float, float]:
    """Return (x, y, width, height) of the part of a `paper` page the die lines may use."""
    _, width, height = PAPERS[paper]
    margin = PRINTER_MARGIN + SPILL + 0.5
    return margin, HEAD, width - 2 * margin, height - HEAD - FOOT


@dataclass(frozen=True)
class Placed:
    """A piece of a die line on a page: its top-left corner there, and whether it is turned a quarter."""

    box: int  # index of the box in the list arranged
    piece: int
    x: float
    y: float
    turned: bool  # turned 90° clockwise

    def size(self, net: Net) -> tuple[float, float]:
        w, h = net.pieces[self.piece].size
        return (h, w) if self.turned else (w, h)

    def to_page(self, net: Net, point: Point) -> Point:
        """Return where a die-line point lands on the page."""
        left, top, _, bottom = net.pieces[self.piece].bounds
        u, v = point[0] - left, point[1] - top
        if self.turned:
            return self.x + (bottom - top) - v, self.y + u
        return self.x + u, self.y + v


def orientation(size: tuple[float, float], room: tuple[float, float]) -> bool | None:
    """Return False to place a piece upright, True to turn it, None when it fits neither way."""
    w, h = size
    if w <= room[0] + 1e-9 and h <= room[1] + 1e-9:
        return False
    if h <= room[0] + 1e-9 and w <= room[1] + 1e-9:
        return True
    return None


def fitting(box: Inner, paper: str, one_piece: bool = False) -> Net | None:
    """Return the die line of `box` that fits a `paper` page (one piece if it can, else two), or None."""
    room = area(paper)[2:]
    for split in (False,) if one_piece else (False, True):
        candidate = net(box, split=split)
        if all(orientation(p.size, room) is not None for p in candidate.pieces):
            return candidate
    return None


def most_cards(card: tuple[float, float], stock: Stock, sleeve: Sleeve, paper: str) -> int:
    """Return the most cards a box on `paper` can hold (0 if even an empty one does not fit)."""
    lo, hi = 0, 1
    while fitting(inner(card, hi, stock, sleeve), paper) is not None and hi < 100_000:
        lo, hi = hi, hi * 2
    while hi - lo > 1:  # fits at lo, not at hi
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if fitting(inner(card, mid, stock, sleeve), paper) is not None else (lo, mid)
    return lo


def arrange(nets: Sequence[Net], paper: str) -> list[list[Placed]]:
    """Lay the pieces of every die line out on pages, in order, stacked down a page while they fit."""
    x0, y0, room_w, room_h = area(paper)
    pages: list[list[Placed]] = []
    used = room_h  # start with a full page, so the first piece opens one
    for index, box in enumerate(nets):
        for number, piece in enumerate(box.pieces):
            turned = orientation(piece.size, (room_w, room_h))
            if turned is None:
                raise ValueError(f"a piece of {piece.size[0]:.1f} × {piece.size[1]:.1f} mm does not fit on {paper}")
            w, h = (piece.size[1], piece.size[0]) if turned else piece.size
            if used + (GAP if used else 0.0) + h > room_h + 1e-9:
                pages.append([])
                used = 0.0
            y = y0 + used + (GAP if used else 0.0)
            pages[-1].append(Placed(index, number, x0 + (room_w - w) / 2, y, turned))
            used = y - y0 + h
    return pages
