"""An icon drawn in a vector tool: an SVG file's shapes (checked as SVG art is) flattened into icon outlines.

svglib reads the SVG into a ReportLab drawing; its groups' transforms are applied here, and every shape
becomes path commands in the icon's 100×100 box (y down), filled or stroked as the SVG paints it. An icon
prints in one colour (the template's), so the SVG's own colours are dropped: its shapes must differ.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from ..art import svg
from ..source import safefile
from .outlines import Command, ellipse

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


class IconError(ValueError):
    """An SVG icon that cannot be used: refused, unreadable, or with nothing to draw."""


def svg_paints(path: Path, folder: Path) -> list[tuple[tuple[Command, ...], float | None]]:
    """Return the SVG's outlines as (commands, stroke width or None for a fill), fitted into 100×100."""
    try:
        data = safefile.read_bytes(path, svg.MAX_BYTES, [folder])
    except safefile.Refused as exc:
        raise IconError(f"cannot read {path.name}: {exc.reason}") from None
    try:
        svg.check(data)
        drawing = svg.drawing(data)
    except svg.SvgRefused as exc:
        where = f"{path.name}:{exc.line}" if exc.line else path.name
        raise IconError(f"{where}: {exc}") from None
    scale = 100 / max(drawing.width, drawing.height)
    dx = (100 - drawing.width * scale) / 2
    dy = (100 - drawing.height * scale) / 2
    # drawing space has y up from its bottom edge: flip it into the icon box, centred
    top: Matrix = (scale, 0.0, 0.0, -scale, dx, 100 - dy)
    paints: list[tuple[tuple[Command, ...], float | None]] = []
    _walk(drawing, top, paints)
    if not paints:
        raise IconError(f"{path.name} draws no shape an icon can use (text must be converted to paths)")
    return paints


def _walk(node: Any, matrix: Matrix, paints: list[tuple[tuple[Command, ...], float | None]]) -> None:
    transform = getattr(node, "transform", None)
    if transform is not None:
        matrix = _times(matrix, tuple(float(v) for v in transform))  # type: ignore[arg-type]
    contents = getattr(node, "contents", None)
    if contents is not None:
        for child in contents:
            _walk(child, matrix, paints)
        return
    commands = _outline(node)
    if not commands:
        return
    placed = tuple(_apply(matrix, c) for c in commands)
    if getattr(node, "fillColor", None) is not None and type(node).__name__ not in ("Line", "PolyLine"):
        paints.append((placed, None))
    width = float(getattr(node, "strokeWidth", 0) or 0)
    if getattr(node, "strokeColor", None) is not None and width > 0:
        factor = math.sqrt(abs(matrix[0] * matrix[3] - matrix[1] * matrix[2]))
        paints.append((placed, width * factor))


def _outline(node: Any) -> tuple[Command, ...]:
    """Return a ReportLab shape's outline as path commands in its own space, or () for what is not a shape."""
    kind = type(node).__name__
    if kind == "Path":
        return _path(list(node.points), list(node.operators))
    if kind == "Rect":
        x, y, w, h = node.x, node.y, node.width, node.height
        return (("M", x, y), ("L", x + w, y), ("L", x + w, y + h), ("L", x, y + h), ("Z",))
    if kind in ("Circle", "Ellipse"):
        rx, ry = (node.r, node.r) if kind == "Circle" else (node.rx, node.ry)
        return ellipse(node.cx, node.cy, rx, ry)
    if kind in ("Polygon", "PolyLine"):
        pts = list(node.points)
        pairs = list(zip(pts[0::2], pts[1::2]))
        if not pairs:
            return ()
        body = (("M", *pairs[0]), *(("L", x, y) for x, y in pairs[1:]))
        return (*body, ("Z",)) if kind == "Polygon" else body
    if kind == "Line":
        return (("M", node.x1, node.y1), ("L", node.x2, node.y2))
    return ()  # text and images: an icon is shapes only


def _path(points: list[float], operators: list[int]) -> tuple[Command, ...]:
    out: list[Command] = []
    i = 0
    for op in operators:
        if op == 0:
            out.append(("M", points[i], points[i + 1]))
            i += 2
        elif op == 1:
            out.append(("L", points[i], points[i + 1]))
            i += 2
        elif op == 2:
            out.append(("C", *points[i : i + 6]))
            i += 6
        else:
            out.append(("Z",))
    return tuple(out)


def _times(m: Matrix, n: Matrix) -> Matrix:
    """Return m·n: apply n first, then m (PDF matrix order a b c d e f)."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (
        a * a2 + c * b2,
        b * a2 + d * b2,
        a * c2 + c * d2,
        b * c2 + d * d2,
        a * e2 + c * f2 + e,
        b * e2 + d * f2 + f,
    )


def _apply(m: Matrix, command: Command) -> Command:
    if command[0] == "Z":
        return command
    coords = command[1:]
    moved: list[float] = []
    for x, y in zip(coords[0::2], coords[1::2]):
        moved += [round(m[0] * x + m[2] * y + m[4], 4), round(m[1] * x + m[3] * y + m[5], 4)]
    return (command[0], *moved)
