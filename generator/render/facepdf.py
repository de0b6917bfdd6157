"""One face per page, page = trim + bleed: the drawing proofs are rasterized from (and a print-shop PDF)."""

from __future__ import annotations

import io
from collections.abc import Sequence

from reportlab import rl_config
from reportlab.pdfgen.canvas import Canvas

from .. import __version__
from ..layout import icons as shapes
from ..layout.icons import IconSet
from ..layout.units import PT_PER_MM
from .draw import Prepared, draw
from .fonts import FontSet
from .painters import PdfPainter

TRIM_LINE = "#00a3e0"  # cyan: where the guillotine cuts
SAFE_LINE = "#e6007e"  # magenta, dashed: text and icons stay inside
BLEED_LINE = "#7a7a7a"  # grey, dotted: the bleed edge (on pages without bleed, the page edge)


def write(faces: Sequence[tuple[Prepared, float]], fonts: FontSet, icons: IconSet, overlay: bool = False) -> bytes:
    """Return a PDF with one page per (prepared face, safe margin mm), drawn exactly as the kit draws it.

    With `overlay`, the trim line, the safe zone and the bleed edge are drawn on top.
    """
    buffer = io.BytesIO()
    rl_config.useA85 = 0
    canvas = Canvas(
        buffer,
        pagesize=(72, 72),
        invariant=1,
        pageCompression=1,
        initialFontName=fonts.resolve(None),  # type: ignore[arg-type]  # the stubs say float
        initialFontSize=10,
    )
    canvas.setCreator(f"cardpress {__version__}")
    painter = PdfPainter(canvas)
    for prepared, safe in faces:
        doc = prepared.doc
        b = doc.bleed
        width, height = (doc.width + 2 * b) * PT_PER_MM, (doc.height + 2 * b) * PT_PER_MM
        canvas.setPageSize((width, height))
        canvas.setTrimBox((b * PT_PER_MM, b * PT_PER_MM, width - b * PT_PER_MM, height - b * PT_PER_MM))
        canvas.setBleedBox((0, 0, width, height))
        painter.begin(b * PT_PER_MM, height - b * PT_PER_MM)
        draw(prepared, painter, fonts, icons)
        if overlay:
            _overlay(painter, doc.width, doc.height, b, safe)
        painter.end()
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _overlay(painter: PdfPainter, w: float, h: float, bleed: float, safe: float) -> None:
    """Draw the trim, the safe zone and the bleed edge, thin enough to see what lies under them."""
    if bleed:
        painter.path(
            shapes.rounded_rect(-bleed + 0.1, -bleed + 0.1, w + 2 * bleed - 0.2, h + 2 * bleed - 0.2, 0),
            fill=None,
            stroke=BLEED_LINE,
            width=0.15,
            dash=[0.4, 0.6],
        )
    painter.path(shapes.rounded_rect(0, 0, w, h, 0), fill=None, stroke=TRIM_LINE, width=0.2)
    if safe:
        painter.path(
            shapes.rounded_rect(safe, safe, w - 2 * safe, h - 2 * safe, 0),
            fill=None,
            stroke=SAFE_LINE,
            width=0.2,
            dash=[1.5, 1],
        )
