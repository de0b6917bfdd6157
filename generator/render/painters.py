"""Painters: ReportLab (the PDF) and a recorder (drawing logs for golden tests)."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from reportlab.lib.colors import HexColor
from reportlab.lib.rl_accel import fp_str
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfmetrics import getFont
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, Canvas  # type: ignore[attr-defined]  # missing from the stubs

from ..art.files import ArtFile, pdf_image, svg_drawing
from ..art.place import Placed
from ..layout.document import Element
from ..layout.units import PT_PER_MM

if TYPE_CHECKING:
    from ..art.fit import Fit

_CAPS = {"butt": 0, "round": 1, "square": 2}
_colour = lru_cache(maxsize=1024)(HexColor)  # the same few colours, parsed once
_PAINT = {(False, False): "n", (True, False): "S", (False, True): "f*", (True, True): "B*"}  # even-odd fill


@lru_cache(maxsize=4096)
def _path_code(commands: tuple[Any, ...]) -> str:
    """Return a path as ReportLab's PDFPathObject writes it (the same frames and discs recur on every card)."""
    ops = ["n"]
    for cmd in commands:
        op = cmd[0]
        if op == "M":
            ops.append(f"{fp_str(cmd[1], cmd[2])} m")
        elif op == "L":
            ops.append(f"{fp_str(cmd[1], cmd[2])} l")
        elif op == "C":
            ops.append(f"{fp_str(*cmd[1:])} c")
        else:
            ops.append("h")
    return " ".join(ops)


class PdfPainter:
    """Draws on a ReportLab canvas; the caller places the origin, this flips y and scales to mm."""

    def __init__(self, canvas: Canvas):
        # Any: the hot paths write ReportLab's content stream (_code) and state directly, as its own
        # methods do, and its stubs declare none of those attributes.
        self.c: Any = canvas

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

    def clip(self, commands: tuple[Any, ...]) -> None:
        self.c._code.append(f"{_path_code(commands)} W* n")  # Canvas.clipPath's text, even-odd

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
        if fill:
            self._colour(fill, "rg", "ca")
        if stroke:
            self._colour(stroke, "RG", "CA")
            c._lineWidth, c._lineCap, c._lineJoin = width, _CAPS[cap], 1 if cap == "round" else 0
            c._code.append(f"{fp_str(width)} w\n{c._lineCap} J\n{c._lineJoin} j\n[{fp_str(dash or [])}] 0 d")
        if opacity < 1:  # after the colours: setting a colour sets its own alpha (1) as well
            c.setFillAlpha(opacity)
            c.setStrokeAlpha(opacity)
        c._code.append(f"{_path_code(commands)}\n{_PAINT[bool(stroke), bool(fill)]}")
        if opacity < 1:
            c.restoreState()

    def text(self, x: float, y: float, text: str, font: str, size: float, colour: str, opacity: float = 1.0) -> None:
        c = self.c
        if opacity < 1:
            c.saveState()
        self._colour(colour, "rg", "ca")
        if opacity < 1:
            c.setFillAlpha(opacity)
        face: Any = getFont(font)
        pt = size / PT_PER_MM
        if face._dynamicFont and c.bottomup:  # a TrueType font: what ReportLab's text object writes, without it
            doc, shown, current = c._doc, [], -1
            for subset, chunk in face.splitString(text, doc):
                if subset != current:
                    shown.append(f"{face.getSubsetInternalName(subset, doc)} {fp_str(pt)} Tf {fp_str(pt * 1.2)} TL")
                    current = subset
                shown.append(f"({c._escape(chunk)}) Tj")
            c._code.append(f"BT 1 0 0 1 0 0 Tm {fp_str(1, 0, 0, -1, x, y)} Tm {' '.join(shown)} ET")
        else:
            _text_object(c, x, y, text, font, pt)
        if opacity < 1:
            c.restoreState()

    def _colour(self, hex_colour: str, op: str, alpha: str) -> None:
        """Set a fill (rg, ca) or stroke (RG, CA) colour as Canvas.setFillColor/setStrokeColor would."""
        c, colour = self.c, _colour(hex_colour)
        if c._enforceColorSpace:  # a press file converts every colour (to CMYK) in the canvas's own setters
            (c.setFillColor if op == "rg" else c.setStrokeColor)(colour)
            return
        if op == "rg":
            c._fillColorObj = colour
        else:
            c._strokeColorObj = colour
        c._code.append(f"{fp_str(colour.red, colour.green, colour.blue)} {op}")
        if colour.alpha != c._extgstate.getValue(alpha):  # ReportLab then sets the colour's own alpha
            c._extgstate.set(c, alpha, colour.alpha)

    def image(self, placed: Placed, opacity: float = 1.0) -> None:
        """Place the art file whole (JPEG bytes untouched); the caller has clipped to the box."""
        assert placed.art is not None and placed.fit is not None  # a missing file is drawn as a stand-in
        f = placed.fit
        c = self.c
        if placed.art.kind == "svg":
            self._vectors(placed.art, f, opacity)
            return
        reader, mask, orientation = self.source(placed.art)
        c.saveState()
        if opacity < 1:
            c.setFillAlpha(opacity)
        c.translate(f.x, f.y + f.h)
        c.scale(1, -1)  # image space has y up
        c.transform(*_orientation(orientation, f.w, f.h))
        self._unit_image(reader, mask)
        c.restoreState()

    def _unit_image(self, reader: ImageReader, mask: str | None) -> None:
        """`drawImage(reader, 0, 0, 1, 1, mask=mask)`; an image this canvas drew before is drawn by the name ReportLab
        gave it then, the same stream, without ReportLab naming it again (a digest of all its pixels each time)."""
        c = self.c
        drawn = c.__dict__.setdefault("_cardpress_images", {})
        known = drawn.get((id(reader), mask))
        if known is None:
            c.drawImage(reader, 0, 0, 1, 1, mask=mask)
            drawn[id(reader), mask] = (reader, c._formsinuse[-1])  # the reader kept: its id is not given to another
            return
        name = known[1]
        c._currentPageHasImages = 1
        c.saveState()
        c.translate(0, 0)  # as drawImage places its unit square
        c.scale(1, 1)
        c._code.append(f"/{c._doc.getXObjectName(name)} Do")
        c.restoreState()
        c._formsinuse.append(name)

    def source(self, art: ArtFile) -> tuple[ImageReader, str | None, int]:
        """Return what to draw for an art file: its image, its mask, and the EXIF orientation still to apply."""
        reader, mask = pdf_image(art)
        return reader, mask, art.orientation

    def _vectors(self, art: ArtFile, f: Fit, opacity: float) -> None:
        """Draw an SVG as the vectors svglib made of it, scaled to its fitted box (y up, as a drawing is)."""
        from reportlab.graphics import renderPDF, shapes

        drawing = svg_drawing(art)
        c = self.c
        c.saveState()
        if opacity < 1:
            c.setFillAlpha(opacity)
            c.setStrokeAlpha(opacity)
        c.translate(f.x, f.y + f.h)
        c.scale(f.w / drawing.width, -f.h / drawing.height)
        # the renderer starts by selecting its default font, Helvetica, which no PDF of ours may name (it is
        # not embedded): start it on the canvas's own (embedded) font; an SVG holds no text to set in it
        default = shapes.STATE_DEFAULTS["fontName"]
        shapes.STATE_DEFAULTS["fontName"] = c._fontname
        try:
            renderPDF.draw(drawing, c, 0, 0)
        finally:
            shapes.STATE_DEFAULTS["fontName"] = default
        c.restoreState()


class CanvasPainter(PdfPainter):
    """PdfPainter through ReportLab's public canvas methods only: the same bytes, slower. A test holds
    PdfPainter to it, and the build benchmark records its calls for the plain ReportLab replay."""

    def clip(self, commands: tuple[Any, ...]) -> None:
        self.c.clipPath(self._build(commands), stroke=0, fill=0)

    def _build(self, commands: tuple[Any, ...]) -> Any:
        p = self.c.beginPath()
        for cmd in commands:
            if cmd[0] == "M":
                p.moveTo(cmd[1], cmd[2])
            elif cmd[0] == "L":
                p.lineTo(cmd[1], cmd[2])
            elif cmd[0] == "C":
                p.curveTo(*cmd[1:])
            else:
                p.close()
        return p

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
        if fill:
            c.setFillColor(_colour(fill))
        if stroke:
            c.setStrokeColor(_colour(stroke))
            c.setLineWidth(width)
            c.setLineCap(_CAPS[cap])
            c.setLineJoin(1 if cap == "round" else 0)
            c.setDash(dash or [])
        if opacity < 1:
            c.setFillAlpha(opacity)
            c.setStrokeAlpha(opacity)
        c.drawPath(self._build(commands), fill=1 if fill else 0, stroke=1 if stroke else 0, fillMode=FILL_EVEN_ODD)
        if opacity < 1:
            c.restoreState()

    def text(self, x: float, y: float, text: str, font: str, size: float, colour: str, opacity: float = 1.0) -> None:
        c = self.c
        if opacity < 1:
            c.saveState()
        c.setFillColor(_colour(colour))
        if opacity < 1:
            c.setFillAlpha(opacity)
        _text_object(c, x, y, text, font, size / PT_PER_MM)
        if opacity < 1:
            c.restoreState()


def _text_object(c: Any, x: float, y: float, text: str, font: str, pt: float) -> None:
    """Draw a line of text through a ReportLab text object at baseline (x, y) in layout space."""
    t = c.beginText()
    t.setTextTransform(1, 0, 0, -1, x, y)  # the page is flipped (y down): flip glyphs back upright
    t.setFont(font, pt)
    t.textOut(text)
    c.drawText(t)


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
