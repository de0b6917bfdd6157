"""Painters: ReportLab (the PDF) and a recorder (drawing logs for golden tests)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, Canvas  # type: ignore[attr-defined]  # missing from the stubs
from reportlab.pdfgen.pathobject import PDFPathObject

from ..art.files import ArtFile, pdf_image
from ..art.place import Placed
from ..layout.document import Element
from ..units import PT_PER_MM

_CAPS = {"butt": 0, "round": 1, "square": 2}
_colour = lru_cache(maxsize=1024)(HexColor)  # the same few colours, parsed once


class PdfPainter:
    """Draws on a ReportLab canvas; the caller places the origin, this flips y and scales to mm."""

    def __init__(self, canvas: Canvas):
        self.c = canvas

    def begin(self, x_pt: float, top_pt: float) -> None:
        """Start drawing with the layout origin at page point (x_pt, top_pt)."""
        self.c.saveState()
        self.c.translate(x_pt, top_pt)
        self.c.scale(PT_PER_MM, -PT_PER_MM)

    def end(self) -> None:
        """Finish what `begin` started."""
        self.c.restoreState()

    def enter(self, el: Element) -> None:
        pass  # the PDF needs no element boundaries

    def leave(self) -> None:
        pass

    def save(self) -> None:
        self.c.saveState()

    def restore(self) -> None:
        self.c.restoreState()

    def translate(self, dx: float, dy: float) -> None:
        self.c.translate(dx, dy)

    def rotate(self, degrees: float) -> None:
        # y points down in layout space, so a positive angle turns clockwise on the page as designers expect.
        self.c.rotate(degrees)

    def scale(self, factor: float) -> None:
        self.c.scale(factor, factor)

    def _build(self, commands: tuple[Any, ...]) -> PDFPathObject:
        p = self.c.beginPath()
        for cmd in commands:
            op = cmd[0]
            if op == "M":
                p.moveTo(cmd[1], cmd[2])
            elif op == "L":
                p.lineTo(cmd[1], cmd[2])
            elif op == "C":
                p.curveTo(*cmd[1:])
            else:
                p.close()
        return p

    def clip(self, commands: tuple[Any, ...]) -> None:
        self.c.clipPath(self._build(commands), stroke=0, fill=0)

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
        c = self.c
        if opacity < 1:
            c.saveState()
            c.setFillAlpha(opacity)
            c.setStrokeAlpha(opacity)
        if fill:
            c.setFillColor(_colour(fill))
        if stroke:
            c.setStrokeColor(_colour(stroke))
            c.setLineWidth(width)
            c.setLineCap(_CAPS[cap])
            c.setLineJoin(1 if cap == "round" else 0)
            c.setDash(dash or [])
        c.drawPath(self._build(commands), fill=1 if fill else 0, stroke=1 if stroke else 0, fillMode=FILL_EVEN_ODD)
        if opacity < 1:
            c.restoreState()

    def text(self, x: float, y: float, text: str, font: str, size: float, colour: str, opacity: float = 1.0) -> None:
        c = self.c
        if opacity < 1:
            c.saveState()
            c.setFillAlpha(opacity)
        c.setFillColor(_colour(colour))
        t = c.beginText()
        # The page is flipped (y down); flip the text matrix back so glyphs stand upright.
        t.setTextTransform(1, 0, 0, -1, x, y)
        t.setFont(font, size / PT_PER_MM)
        t.textOut(text)
        c.drawText(t)
        if opacity < 1:
            c.restoreState()

    def image(self, placed: Placed, opacity: float = 1.0) -> None:
        """Place the art file whole (JPEG bytes untouched); the caller has clipped to the box."""
        assert placed.art is not None and placed.fit is not None  # a missing file is drawn as a stand-in
        reader, mask, orientation = self.source(placed.art)
        f = placed.fit
        c = self.c
        c.saveState()
        if opacity < 1:
            c.setFillAlpha(opacity)
        c.translate(f.x, f.y + f.h)
        c.scale(1, -1)  # image space has y up
        c.transform(*_orientation(orientation, f.w, f.h))
        c.drawImage(reader, 0, 0, 1, 1, mask=mask)
        c.restoreState()

    def source(self, art: ArtFile) -> tuple[ImageReader, str | None, int]:
        """Return what to draw for an art file: its image, its mask, and the EXIF orientation still to apply."""
        reader, mask = pdf_image(art)
        return reader, mask, art.orientation


class RecordingPainter:
    """Logs what would be drawn, rounded to 0.01 mm, as lines of text for golden files."""

    def __init__(self) -> None:
        self.log: list[str] = []

    def _add(self, line: str) -> None:
        self.log.append(line)

    def enter(self, el: Element) -> None:
        pass  # drawing logs record drawing only

    def leave(self) -> None:
        pass

    def save(self) -> None:
        self._add("save")

    def restore(self) -> None:
        self._add("restore")

    def translate(self, dx: float, dy: float) -> None:
        self._add(f"translate {dx:.2f} {dy:.2f}")

    def rotate(self, degrees: float) -> None:
        self._add(f"rotate {degrees:g}")

    def scale(self, factor: float) -> None:
        self._add(f"scale {factor:.4f}")

    def clip(self, commands: tuple[Any, ...]) -> None:
        self._add(f"clip {_bbox(commands)}")

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
        paint = " ".join(([f"fill={fill}"] if fill else []) + ([f"stroke={stroke} w={width:.2f}"] if stroke else []))
        self._add(f"path {paint} {_bbox(commands)}")

    def text(self, x: float, y: float, text: str, font: str, size: float, colour: str, opacity: float = 1.0) -> None:
        self._add(f"text {x:.2f} {y:.2f} {font} {size:.2f}pt {colour} {text!r}")

    def image(self, placed: Placed, opacity: float = 1.0) -> None:
        assert placed.art is not None and placed.fit is not None  # a missing file is drawn as a stand-in
        f = placed.fit
        self._add(f"image {placed.art.path.name} {placed.art.digest[:12]} {f.x:.2f} {f.y:.2f} {f.w:.2f} {f.h:.2f}")


def _orientation(code: int, w: float, h: float) -> tuple[float, ...]:
    """Return the matrix that maps a stored image's unit square upright into w × h (EXIF orientation)."""
    return {
        1: (w, 0, 0, h, 0, 0),
        2: (-w, 0, 0, h, w, 0),
        3: (-w, 0, 0, -h, w, h),
        4: (w, 0, 0, -h, 0, h),
        5: (0, -h, -w, 0, w, h),
        6: (0, -h, w, 0, 0, h),
        7: (0, h, w, 0, 0, 0),
        8: (0, h, -w, 0, w, 0),
    }[code]


def _bbox(commands: tuple[Any, ...]) -> str:
    xs, ys = [], []
    for cmd in commands:
        coords = cmd[1:]
        xs.extend(coords[0::2])
        ys.extend(coords[1::2])
    if not xs:
        return "[]"
    return f"[{min(xs):.2f} {min(ys):.2f} {max(xs):.2f} {max(ys):.2f}]"
