"""Press files print near-black text and thin rules on K alone, with overprint; subset tags are unique."""

from __future__ import annotations

import io

import pikepdf
import pytest
from conftest import ROOT
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from generator.export import pdfinspect, pdfx
from generator.export.cmyk import Converter
from generator.export.presspaint import CmykPainter
from generator.layout import inks
from generator.render.subsets import TaggedTTFont

SQUARE = (("M", 0, 0), ("L", 10, 0), ("L", 10, 10), ("Z",))


def test_near_black_is_k_alone_by_its_luma_and_colours_are_separated():
    assert inks.sharp(0x2A / 255, 0x26 / 255, 0x22 / 255) == (0, 0, 0, 0.8488)  # body text of Hedgerow
    assert inks.separate(0x2A / 255, 0x26 / 255, 0x22 / 255) == (0, 0.0952, 0.1904, 0.8353)  # a fill: rich
    assert inks.sharp(0.6, 0.2, 0.2) == inks.separate(0.6, 0.2, 0.2)  # a colour stays a colour
    assert inks.plates(0.6, 0.2, 0.2) == ["M", "Y", "K"]
    assert inks.plates(0.1, 0.1, 0.1) == ["K"]


def _painted() -> pdfinspect.Painted:
    buffer = io.BytesIO()
    converter = Converter()
    canvas = Canvas(buffer, pagesize=(100, 100), invariant=1, enforceColorSpace=converter.reportlab)
    painter = CmykPainter(canvas, converter)
    painter.begin(0, 100)
    painter.text(2, 10, "near black", "Helvetica", 3, "#2a2622")  # 8.5 pt
    painter.path(SQUARE, fill=None, stroke="#2a2622", width=0.2)  # a 0.57 pt rule
    painter.path(SQUARE, fill="#2a2622", stroke=None, width=0)  # a large dark area
    painter.path(SQUARE, fill=None, stroke="#2a2622", width=1.0)  # a 2.8 pt stroke: not a thin rule
    painter.text(2, 20, "red", "Helvetica", 3, "#c0392b")
    painter.end()
    canvas.showPage()
    canvas.save()
    return pdfinspect.painted(pikepdf.open(io.BytesIO(pdfx.finish(buffer.getvalue()))))


def test_near_black_text_and_thin_rules_print_k_only_with_overprint():
    painted = _painted()
    black, red = painted.texts
    assert black.colour.values == (0, 0, 0, 0.8488) and black.overprint
    assert red.colour.values[3] < 0.5 and sum(v > 0 for v in red.colour.values) == 3 and not red.overprint
    rule, area, thick = painted.paints
    assert (rule.kind, rule.colour.values, rule.overprint) == ("stroke", (0, 0, 0, 0.8488), True)
    assert rule.width_pt == pytest.approx(0.2 * 72 / 25.4)
    assert (area.kind, area.colour.values, area.overprint) == ("fill", (0, 0.0952, 0.1904, 0.8353), False)
    assert thick.colour.values == (0, 0.0952, 0.1904, 0.8353) and not thick.overprint


def test_font_subsets_get_tags_from_their_content():
    def pdf(text: str) -> pikepdf.Pdf:
        font = next((ROOT / "fonts").rglob("Lato-Regular.ttf"))
        pdfmetrics.registerFont(TaggedTTFont("LatoTag", str(font)))
        buffer = io.BytesIO()
        canvas = Canvas(buffer, invariant=1)
        canvas.setFont("LatoTag", 10)
        canvas.drawString(10, 10, text)
        canvas.save()
        return pikepdf.open(io.BytesIO(buffer.getvalue()))

    def names(doc: pikepdf.Pdf) -> list[tuple[str, str]]:
        fonts = [
            o
            for o in doc.objects
            if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/Font" and "/FontDescriptor" in o
        ]
        return [(str(f.BaseFont), str(f.FontDescriptor.FontName)) for f in fonts]

    ((one, one_descriptor),) = names(pdf("Frog"))
    ((other, _),) = names(pdf("Frog → Heron"))  # a glyph past ASCII: another subset
    ((again, _),) = names(pdf("Frog"))
    assert one == one_descriptor and one.endswith("+Lato-Regular") and len(one.split("+")[0]) == 7
    assert not one.startswith("/AAAAAA+") and one != other and one == again
