"""Trace a prepared face: a Painter that records where every mark lands, for the layout lint, and the calls
that made them, which the PDF replays: the lint reads the drawing the PDF is written from."""

from __future__ import annotations

import math
from dataclasses import replace
from functools import lru_cache
from typing import Any

from ..art.place import Placed
from ..layout.boxes import Box, around
from ..layout.document import Element
from ..layout.icons import IconSet
from ..layout.ink import Mark, Polygon, is_convex
from ..layout.units import PT_PER_MM
from .draw import SHAPES, Op, Prepared, built, draw, draw_elements
from .fonts import FontSet
from .text import ASCENT, DESCENT

Matrix = tuple[float, float, float, float, float, float]  # x' = a x + c y + e, y' = b x + d y + f
CURVE_STEPS = 8  # straight pieces per Bézier curve: fine enough to tell inside from outside


_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
MAX_DRAWN = 16_384  # shapes whose calls and marks are kept; past this the memory starts again
_DRAWN: dict[int, tuple[Element, tuple[Op, ...], tuple[Mark, ...]]] = {}  # by id, with the element itself


def record(prepared: Prepared, fonts: FontSet, icons: IconSet) -> list[Mark]:
    """Draw the face once: keep its painter calls in `prepared.ops`, which every later `draw` replays, and
    return the marks those calls make, in drawing order, in face millimetres.

    A top-level shape is drawn from its properties alone, so the same element object (faces bound from one
    layout program share their unchanged elements) gives the same calls and marks: they are kept."""
    tracer = Tracer(fonts, _set_widths(prepared))
    for el in prepared.doc.elements:
        at_rest = tracer.matrix == _IDENTITY and tracer.clip_box is None and not tracer.saved
        kept = _DRAWN.get(id(el)) if el.kind in SHAPES and at_rest else None
        if kept is not None and kept[0] is el:
            tracer.ops.extend(kept[1])
            tracer.marks.extend(kept[2])
            continue
        ops, marks = len(tracer.ops), len(tracer.marks)
        draw_elements((el,), prepared, tracer, fonts, icons)
        if el.kind in SHAPES and at_rest:
            if len(_DRAWN) >= MAX_DRAWN:
                _DRAWN.clear()
            _DRAWN[id(el)] = (el, tuple(tracer.ops[ops:]), tuple(tracer.marks[marks:]))
    prepared.ops = tuple(tracer.ops)
    return tracer.marks


def _set_widths(prepared: Prepared) -> dict[tuple[str, str, float], float]:
    """Return the width text setting gave each piece it set, by (text, font, size): measured once, not again."""
    return {
        (piece.text, piece.font, piece.size): piece.width
        for layout in prepared.texts.values()
        for line in layout.lines
        for piece in line.pieces
        if piece.font
    }


def trace(prepared: Prepared, fonts: FontSet, icons: IconSet) -> list[Mark]:
    """Return every mark the face draws, in drawing order, in face millimetres."""
    tracer = Tracer(fonts)
    draw(prepared, tracer, fonts, icons)
    return tracer.marks


class Tracer:
    """A Painter that draws nothing and records each mark's box (and a fill's outline) in face mm, and every
    call it was given (`ops`, for draw.replay)."""

    def __init__(self, fonts: FontSet, widths: dict[tuple[str, str, float], float] | None = None) -> None:
        self.fonts = fonts
        self.widths = widths or {}  # points: the widths the text was set with, where known
        self.matrix: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
        self.clip_box: Box | None = None
        self.saved: list[tuple[Matrix, Box | None]] = []
        self.drawing: list[Element | None] = []  # per element being drawn, the outermost non-group one so far
        self.lines: dict[tuple[int, float], int] = {}  # (text element, baseline) -> its line number
        self.counts: dict[int, int] = {}  # text element -> how many lines it has set so far
        self.marks: list[Mark] = []
        self.ops: list[Op] = []

    def enter(self, el: Element) -> None:
        self.ops.append(("enter", (el,)))
        outer = self.drawing[-1] if self.drawing else None
        self.drawing.append(outer if outer is not None or el.kind == "group" else el)

    def leave(self) -> None:
        self.ops.append(("leave", ()))
        self.drawing.pop()

    def owner(self) -> Element:
        """Return the element a mark belongs to: the outermost one being drawn that is not a group."""
        owner = self.drawing[-1]
        assert owner is not None  # groups draw only clips, never marks
        return owner

    def save(self) -> None:
        self.ops.append(("save", ()))
        self.saved.append((self.matrix, self.clip_box))

    def restore(self) -> None:
        self.ops.append(("restore", ()))
        self.matrix, self.clip_box = self.saved.pop()

    def translate(self, dx: float, dy: float) -> None:
        self.ops.append(("translate", (dx, dy)))
        a, b, c, d, e, f = self.matrix
        self.matrix = (a, b, c, d, a * dx + c * dy + e, b * dx + d * dy + f)

    def rotate(self, degrees: float) -> None:
        self.ops.append(("rotate", (degrees,)))
        cos, sin = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
        a, b, c, d, e, f = self.matrix
        self.matrix = (a * cos + c * sin, b * cos + d * sin, c * cos - a * sin, d * cos - b * sin, e, f)

    def scale(self, factor: float) -> None:
        self.ops.append(("scale", (factor,)))
        a, b, c, d, e, f = self.matrix
        self.matrix = (a * factor, b * factor, c * factor, d * factor, e, f)

    def clip(self, commands: tuple[Any, ...]) -> None:
        self.ops.append(("clip", (commands,)))
        _, box, _ = _outline(commands, self.matrix)
        assert box is not None  # a clip path always has points
        self.clip_box = self._clipped(box) or Box(box.left, box.top, box.left, box.top)

    def path(
        self,
        commands: tuple[Any, ...],
        *,
        fill: str | None,
        stroke: str | None,
        width: float,
        dash: list[float] | None = None,
        cap: str = "butt",
        opacity: float = 1.0,
    ) -> None:
        self.ops.append(("path", (commands, fill, stroke, width, dash, cap, opacity)))
        polygons, box, convex = _outline(commands, self.matrix)
        if box is None:
            return
        if fill:
            self._add(Mark(self.owner(), "fill", box, fill, opacity, polygons, convex=convex))
        if stroke:
            self._add(Mark(self.owner(), "stroke", box.grown(width * self._unit() / 2), stroke, opacity))

    def text(self, x: float, y: float, text: str, font: str, size: float, colour: str, opacity: float = 1.0) -> None:
        self.ops.append(("text", (x, y, text, font, size, colour, opacity)))
        owner = self.owner()
        width = self.widths.get((text, font, size))
        if width is None:
            width = self.fonts.width(text, font, size)
        width /= PT_PER_MM
        em = size / PT_PER_MM
        key = (id(owner), round(y, 6))
        line = self.lines.get(key)
        if line is None:  # a new baseline: the next line number of this element
            line = self.lines[key] = self.counts.get(id(owner), 0)
            self.counts[id(owner)] = line + 1
        # The box around the four corners mapped to face mm, as _around makes it, written out: a face sets
        # a mark for every piece of every line it prints.
        a, b, c, d, e, f = self.matrix
        top, bottom, right = y - ASCENT * em, y + DESCENT * em, x + width
        xs = (a * x + c * top + e, a * right + c * top + e, a * x + c * bottom + e, a * right + c * bottom + e)
        ys = (b * x + d * top + f, b * right + d * top + f, b * x + d * bottom + f, b * right + d * bottom + f)
        box = built(Box, {"left": min(xs), "top": min(ys), "right": max(xs), "bottom": max(ys)})
        # built as from_plain builds: a frozen dataclass's __init__ costs three times its fields (a mark a piece)
        fields = {
            "element": owner,
            "paint": "text",
            "box": box,
            "colour": colour,
            "opacity": opacity,
            "outline": (),
            "size": size,
            "bold": font in self.fonts.bold,
            "line": line,
            "text": text,
            "convex": False,
        }
        self._add(built(Mark, fields))

    def image(self, placed: Placed, opacity: float = 1.0) -> None:
        self.ops.append(("image", (placed, opacity)))
        x, y, w, h = placed.box
        self._add(Mark(self.owner(), "image", self._around([(x, y), (x + w, y + h)]), None, opacity))

    def _add(self, mark: Mark) -> None:
        if self.clip_box is None:  # nothing clips it: most marks
            self.marks.append(mark)
            return
        box = mark.box.intersection(self.clip_box)
        if box is not None:
            self.marks.append(mark if box == mark.box else replace(mark, box=box))

    def _clipped(self, box: Box) -> Box | None:
        return box if self.clip_box is None else box.intersection(self.clip_box)

    def _unit(self) -> float:
        """Return how long one unit of the current space is on the face (the matrix scales uniformly)."""
        a, b, *_ = self.matrix
        return math.hypot(a, b)

    def _around(self, points: list[tuple[float, float]]) -> Box:
        """Return the box around `points` mapped to face mm."""
        a, b, c, d, e, f = self.matrix
        return around([(a * x + c * y + e, b * x + d * y + f) for x, y in points])


@lru_cache(maxsize=4096)  # the same frames, bands and icons come back on every card, at the same place
def _outline(commands: tuple[Any, ...], matrix: Matrix) -> tuple[tuple[Polygon, ...], Box | None, bool]:
    """Return a path's polygons in face mm (curves flattened), the box around them (None: no points) and
    whether it is one convex polygon."""
    polygons = _flatten(commands, matrix)
    points = [p for polygon in polygons for p in polygon]
    if not points:
        return polygons, None, False
    return polygons, around(points), len(polygons) == 1 and is_convex(polygons[0])


def _flatten(commands: tuple[Any, ...], matrix: Matrix) -> tuple[Polygon, ...]:
    """Return the subpaths of `commands` mapped by `matrix` as polygons, curves flattened."""
    a, b, c, d, e, f = matrix
    polygons: list[list[tuple[float, float]]] = []
    x0 = y0 = 0.0
    for cmd in commands:
        op = cmd[0]
        if op == "M":
            x0, y0 = cmd[1], cmd[2]
            polygons.append([(a * x0 + c * y0 + e, b * x0 + d * y0 + f)])
        elif op == "L":
            x0, y0 = cmd[1], cmd[2]
            polygons[-1].append((a * x0 + c * y0 + e, b * x0 + d * y0 + f))
        elif op == "C":
            x1, y1, x2, y2, x3, y3 = cmd[1:]
            for i in range(1, CURVE_STEPS + 1):
                t = i / CURVE_STEPS
                u = 1 - t
                x = u**3 * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t**3 * x3
                y = u**3 * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t**3 * y3
                polygons[-1].append((a * x + c * y + e, b * x + d * y + f))
            x0, y0 = x3, y3
    return tuple(tuple(p) for p in polygons if p)
