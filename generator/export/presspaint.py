"""The painter of press files: the kit's drawing with CMYK art, and near-black text and thin rules on K alone.

Vector colours convert to CMYK in the canvas's colour hook; this painter picks, before that, the
colours that must print on one plate: the fill of text and the stroke of rules up to THIN_PT wide, when
near black (generator.layout.inks.sharp). Those print K only with overprint on (OPM 1, so the plates
under them still print and trapping cannot leave a white halo); every other paint knocks out. The
overprint states are named graphics states that generator.export.pdfx adds to every page and form
(ReportLab's own ExtGState tracking writes no resources for forms).
"""

from __future__ import annotations

from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from ..art.files import ArtFile
from ..art.place import Placed
from ..layout.units import PT_PER_MM
from ..render.painters import PdfPainter
from . import pdfx
from .cmyk import Converter

THIN_PT = 1.0  # a stroke this wide or thinner is a rule that must print on one plate


class CmykPainter(PdfPainter):
    """Draws like the kit, with every art image converted to CMYK and near-black text and rules on K alone."""

    def __init__(self, canvas: Canvas, converter: Converter):
        super().__init__(canvas)
        self.converter = converter
        self._images: dict[str, ImageReader] = {}
        self._sharp: set[str] = set()  # the colour operators ("rg" fill, "RG" stroke) of the paint being set
        self._state = (False, False)  # (fill, stroke) overprint as the content stream has it
        self._saved: list[tuple[bool, bool]] = []

    def source(self, art: ArtFile) -> tuple[ImageReader, str | None, int]:
        """Return the art converted to CMYK (no mask: alpha is flattened), placed as the kit places it."""
        from PIL import Image, ImageOps

        if art.digest not in self._images:
            with Image.open(art.path) as im:
                upright = ImageOps.exif_transpose(im) if art.kind != "jpeg" else im.copy()
                self._images[art.digest] = ImageReader(self.converter.image(upright))
        orientation = art.orientation if art.kind == "jpeg" else 1  # other kinds were turned upright above
        return self._images[art.digest], None, orientation

    def begin(self, x_pt: float, top_pt: float) -> None:
        self._state = (False, False)  # (fill, stroke) overprint: off where each form starts
        super().begin(x_pt, top_pt)

    def text(self, x: float, y: float, text: str, font: str, size: float, colour: str, opacity: float = 1.0) -> None:
        self._sharp, state = {"rg"}, self._state
        try:
            super().text(x, y, text, font, size, colour, opacity)
        finally:
            self._sharp = set()
            if opacity < 1:  # drawn inside q … Q: the state is back to what it was
                self._state = state

    def path(self, commands: tuple[Any, ...], *, fill: str | None, stroke: str | None, width: float, **kw: Any) -> None:
        self._sharp = {"RG"} if stroke and width * PT_PER_MM <= THIN_PT + 1e-9 else set()
        state = self._state
        try:
            super().path(commands, fill=fill, stroke=stroke, width=width, **kw)
        finally:
            self._sharp = set()
            if kw.get("opacity", 1.0) < 1:
                self._state = state

    def save(self) -> None:
        self._saved.append(self._state)
        super().save()

    def restore(self) -> None:
        self._state = self._saved.pop()
        super().restore()

    def image(self, placed: Placed, opacity: float = 1.0) -> None:
        self._overprint("rg", False)
        super().image(placed, opacity)

    def _colour(self, hex_colour: str, op: str, alpha: str) -> None:
        colour = HexColor(hex_colour)
        cmyk = self.converter.sharp(colour) if op in self._sharp else self.converter.reportlab(colour)
        k_only = op in self._sharp and cmyk.cyan == cmyk.magenta == cmyk.yellow == 0 and cmyk.black > 0
        (self.c.setFillColor if op == "rg" else self.c.setStrokeColor)(cmyk)
        self._overprint(op, k_only)

    def _overprint(self, op: str, on: bool) -> None:
        """Set fill (rg) or stroke (RG) overprint, writing a gs operator only when it changes."""
        fill, stroke = self._state
        state = (on, stroke) if op == "rg" else (fill, on)
        if state != self._state:
            self._state = state
            self.c._code.append(f"/{pdfx.overprint_name(*state)} gs")
