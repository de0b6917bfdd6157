"""The PDF painter writes ReportLab's content-stream text itself: it must write what ReportLab's own canvas
methods write for the same drawing, and opacity must survive the colour set after it."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from generator.export.cmyk import Converter
from generator.pipeline import Pipeline
from generator.render.painters import CanvasPainter, PdfPainter
from generator.render.subsets import TaggedTTFont

FONTS = Path(__file__).resolve().parent.parent / "fonts"
BODY = "TestPainter-Lato"
# Tagged as cardpress registers its fonts: a plain TTFont of the same file in this process would leave
# later kits in this worker with ReportLab's AAAAAA+ subset of it (tests/test_subset_tags.py).
pdfmetrics.registerFont(TaggedTTFont(BODY, str(FONTS / "Lato-Regular.ttf")))


def _canvas(**options: Any) -> Canvas:
    return Canvas(io.BytesIO(), invariant=1, **options)


numbers = st.floats(-500, 500, allow_nan=False).map(lambda v: round(v, 4))
point = st.tuples(numbers, numbers)
command = st.one_of(
    point.map(lambda p: ("L", *p)),
    st.tuples(point, point, point).map(lambda ps: ("C", *ps[0], *ps[1], *ps[2])),
    st.just(("Z",)),
)
paths = st.tuples(point, st.lists(command, max_size=6)).map(lambda t: (("M", *t[0]), *t[1]))
colours = st.sampled_from([None, "#2a2622", "#ffffff", "#2d6a8e", "#000000"])
opacities = st.sampled_from([1.0, 1.0, 0.5, 0.25])
texts = st.text(st.characters(codec="latin-1", exclude_categories=("Cc", "Cs")), max_size=20)


@settings(max_examples=150, deadline=None)
@given(
    shapes=st.lists(
        st.tuples(
            paths,
            colours,
            colours,
            st.floats(0, 3).map(lambda v: round(v, 3)),
            st.sampled_from(["butt", "round"]),
            opacities,
        ),
        max_size=4,
    ),
    lines=st.lists(st.tuples(numbers, numbers, texts, st.sampled_from([6, 9, 13.5]), colours, opacities), max_size=4),
    clip=st.one_of(st.none(), paths),
    press=st.booleans(),
)
def test_the_painter_writes_what_reportlab_writes(shapes, lines, clip, press) -> None:  # type: ignore[no-untyped-def]
    """Also on a press file's canvas, which turns every colour into CMYK as it is set."""
    options = {"enforceColorSpace": Converter(None).reportlab} if press else {}
    ours, theirs = _canvas(**options), _canvas(**options)
    for painter in (PdfPainter(ours), CanvasPainter(theirs)):
        painter.begin(10, 800)
        painter.save()
        if clip:
            painter.clip(clip)
        for commands, fill, stroke, width, cap, opacity in shapes:
            dash = [1, 0.5] if cap == "round" else None
            painter.path(commands, fill=fill, stroke=stroke, width=width, dash=dash, cap=cap, opacity=opacity)
        for x, y, text, size, colour, opacity in lines:
            painter.text(x, y, text, BODY, size, colour or "#2a2622", opacity)
        painter.restore()
        painter.end()
    assert "\n".join(ours._code) == "\n".join(theirs._code)  # type: ignore[attr-defined]  # the stream's text


def _gs_before_paint(canvas: Canvas) -> dict[str, float]:
    """Return the graphics-state alphas in force when the last path is painted."""
    names = {name: dict([key]) for key, name in canvas._extgstate._c.items()}  # type: ignore[attr-defined]
    alphas: dict[str, float] = {}
    for op in "\n".join(canvas._code).split("\n"):  # type: ignore[attr-defined]
        if op.endswith(" gs"):
            alphas.update(names[op.split()[0][1:]])
    return alphas


def test_opacity_is_kept_after_the_colours() -> None:
    """Setting a colour makes ReportLab set that colour's own alpha (1): opacity must be set after it."""
    canvas = _canvas()
    painter = PdfPainter(canvas)
    painter.begin(0, 800)
    painter.path(
        (("M", 0, 0), ("L", 10, 0), ("L", 10, 10), ("Z",)), fill="#2d6a8e", stroke="#000000", width=1, opacity=0.4
    )
    assert _gs_before_paint(canvas) == {"ca": 0.4, "CA": 0.4}
    painter.text(0, 20, "faint", BODY, 9, "#2a2622", opacity=0.25)
    assert _gs_before_paint(canvas)["ca"] == 0.25
    painter.end()
    assert canvas._code[-1] == "Q"  # type: ignore[attr-defined]


def test_a_faded_shape_on_a_card_prints_faded(tmp_path: Path) -> None:
    """Opacity inside a card face (a Form XObject) reaches the page: the form's resources name its alphas."""
    from deck_helpers import FRONT, deck_project

    faded = FRONT + '- {{ m.rect(10, 40, 30, 20, fill="#ff0000", opacity=0.5) }}\n'
    project = deck_project(
        tmp_path, csv="name,copies,cost,text\nAnt,1,1,Nap.\n", files={"layouts/front.yaml.j2": faded}
    )
    pdfs = Pipeline(project, "tiny", missing_art="placeholder").render(["a4"])
    assert pdfs is not None
    import pypdfium2

    pdf = pypdfium2.PdfDocument(pdfs["a4"])
    fronts = next(i for i in range(len(pdf)) if ": fronts" in pdf[i].get_textpage().get_text_range())
    image = pdf[fronts].render(scale=1).to_pil().convert("RGB")
    reds = {px for px in image.get_flattened_data() if px[0] > 240 and px[1] > 100 and px[2] > 100 and px[1] < 140}
    assert reds == {(255, 128, 128)}  # half red over the white card, not solid red
    assert (255, 0, 0) not in set(image.get_flattened_data())


def test_an_image_drawn_again_is_the_pdf_reportlab_writes_for_drawing_it_again():
    from PIL import Image
    from reportlab.lib.utils import ImageReader

    def pdf(draw: Any) -> bytes:
        out = io.BytesIO()
        c = Canvas(out, invariant=1)
        opaque = ImageReader(Image.new("RGB", (40, 30), "#2d6a8e"))
        clear = ImageReader(Image.new("RGBA", (20, 20), (200, 10, 10, 128)))
        for page in range(2):
            c.beginForm(f"face{page}")
            for reader, mask in ((opaque, None), (clear, "auto"), (opaque, None), (opaque, "auto")):
                c.saveState()
                c.translate(10 * page, 5)
                draw(c, reader, mask)
                c.restoreState()
            c.endForm()
            c.doForm(f"face{page}")
            draw(c, clear, "auto")
            c.showPage()
        c.save()
        return out.getvalue()

    theirs = pdf(lambda c, reader, mask: c.drawImage(reader, 0, 0, 1, 1, mask=mask))
    ours = pdf(lambda c, reader, mask: PdfPainter(c)._unit_image(reader, mask))
    assert ours == theirs
    assert (
        theirs.count(b"/Subtype /Image") == 4
    )  # the opaque one, with and without a mask, and the clear one's pixels and soft mask
