"""Home-print variants: long- and short-edge duplex and the back offset, in geometry and in the PDF."""

from __future__ import annotations

import pdfplumber
import pypdfium2 as pdfium
import pytest
from conftest import ROOT
from pdfinspect import placements, text_in
from pypdf import PdfReader

from generator import build, pipeline
from generator.diagnostics import Report
from generator.imposition import PAPERS, PrintOptions, Rect, card_sheet
from generator.render import kitpdf
from generator.sizes import PRESETS

CASES = [(name, o, paper) for name in PRESETS for o in ("portrait", "landscape") for paper in PAPERS]


def sheet_of(name, orientation, paper):
    return card_sheet(paper, PRESETS[name].oriented(orientation))


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"duplex": "both"}, "duplex must be one of long, short, not 'both'"),
        ({"back_offset": (1.0,)}, "back_offset must be two lengths in mm (x, y), not (1.0,)"),
        ({"back_offset": (1.0, float("nan"))}, "back_offset must be two lengths in mm (x, y), not (1.0, nan)"),
        ({"back_offset": (12, 0)}, "a back offset of 12, 0 mm is beyond 10 mm"),
        ({"printer_margin": -1}, "printer_margin must be 0 to 20 mm, not -1"),
    ],
)
def test_options_refuse_what_cannot_print(kwargs, message):
    with pytest.raises(ValueError) as caught:
        PrintOptions(**kwargs)
    assert str(caught.value) == message


def test_default_options_are_long_edge_no_offset_and_a_5_mm_margin():
    options = PrintOptions()
    assert (options.duplex, options.back_offset, options.printer_margin) == ("long", (0.0, 0.0), 5.0)
    assert options.viewer_duplex == "DuplexFlipLongEdge"
    assert PrintOptions(duplex="short").viewer_duplex == "DuplexFlipShortEdge"
    assert PrintOptions(back_offset=[1, -2]).back_offset == (1.0, -2.0)


@pytest.mark.parametrize("name, orientation, paper", CASES)
def test_short_edge_backs_land_behind_their_fronts(name, orientation, paper):
    sheet = sheet_of(name, orientation, paper)
    for count in sorted({1, sheet.cols, sheet.per_sheet}):
        fronts, backs = sheet.sides(count, PrintOptions(duplex="short"))
        for front, back in zip(fronts.placed, backs.placed, strict=True):
            # turned over on the short edge, a point (x, y) of the front lies behind (x, H - y)
            assert back.trim == Rect(
                front.trim.x, pytest.approx(sheet.height - front.trim.bottom), front.trim.w, front.trim.h
            )
            assert back.clip.y == pytest.approx(sheet.height - front.clip.bottom)
            assert back.turn == (2 - front.turn) % 4  # upright fronts get upside-down backs
        assert backs.trim.y == pytest.approx(sheet.height - fronts.trim.bottom)
        assert sorted((m.x1, round(m.y1, 6)) for m in backs.marks) == sorted(
            (m.x1, round(sheet.height - m.y1, 6)) for m in fronts.marks
        )
        for mark in backs.marks:  # flipped marks still print at the 5 mm margin
            assert Rect(5, 5, sheet.width - 10, sheet.height - 10).contains(mark.bounds)


def test_the_back_of_the_top_left_card_for_each_flip_on_a_4():
    sheet = card_sheet("a4", PRESETS["poker"])  # 3 × 3 at (9.75, 15.15)
    long_front, long_back = (side.placed[0] for side in sheet.sides(9, PrintOptions()))
    assert long_front.trim == Rect(pytest.approx(9.75), pytest.approx(15.15), 63.5, 88.9)
    assert long_back.trim == Rect(pytest.approx(136.75), pytest.approx(15.15), 63.5, 88.9)  # top right
    assert long_back.turn == 0
    short_back = sheet.sides(9, PrintOptions(duplex="short"))[1].placed[0]
    assert short_back.trim == Rect(pytest.approx(9.75), pytest.approx(192.95), 63.5, 88.9)  # bottom left
    assert short_back.turn == 2


@pytest.mark.parametrize("duplex, shift", [("long", (2.0, -1.5)), ("short", (-2.0, 1.5))])
@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_a_back_offset_moves_every_back_and_nothing_else(paper, duplex, shift):
    sheet = card_sheet(paper, PRESETS["poker"])
    plain = sheet.sides(7, PrintOptions(duplex=duplex))
    moved = sheet.sides(7, PrintOptions(duplex=duplex, back_offset=(2.0, -1.5)))
    assert moved[0] == plain[0]  # fronts stay
    dx, dy = shift  # short-edge backs read upside down, so the page moves the other way
    for before, after in zip(plain[1].placed, moved[1].placed, strict=True):
        assert (after.trim.x - before.trim.x, after.trim.y - before.trim.y) == (pytest.approx(dx), pytest.approx(dy))
        assert (after.clip.x - before.clip.x, after.clip.y - before.clip.y) == (pytest.approx(dx), pytest.approx(dy))
        assert after.turn == before.turn
    for before, after in zip(plain[1].marks, moved[1].marks, strict=True):
        assert (after.x1 - before.x1, after.y2 - before.y2) == (pytest.approx(dx), pytest.approx(dy))
    assert (moved[1].trim.x - plain[1].trim.x, moved[1].trim.y - plain[1].trim.y) == (
        pytest.approx(dx),
        pytest.approx(dy),
    )


VARIANTS = {
    "long": PrintOptions(),
    "short": PrintOptions(duplex="short"),
    "offset": PrintOptions(back_offset=(2.0, 1.0)),
    "short-offset": PrintOptions(duplex="short", back_offset=(2.0, 1.0)),
}


@pytest.fixture(scope="module")
def variants(tmp_path_factory):
    """Pocket Foundry for two players on both papers, once per variant: {(variant, paper): path}."""
    loaded, _ = pipeline.validate(ROOT, "pocket-foundry")
    report = Report()
    kit, studio, faces = build.prepare_kit(loaded, 2, report)
    out = tmp_path_factory.mktemp("variants")

    def render(face, w, h, extra):
        return studio.render(face, w, h, extra, safe=build.page_safe(face))

    paths = {}
    for name, options in VARIANTS.items():
        for paper in PAPERS:
            path = out / f"{name}-{paper}.pdf"
            path.write_bytes(kitpdf.write(kit, paper, faces, render, studio.fonts, studio.icons, options))
            paths[name, paper] = path
    assert report.ok(), report.render()
    return paths


@pytest.mark.parametrize("name, flip", [("long", "/DuplexFlipLongEdge"), ("short", "/DuplexFlipShortEdge")])
def test_the_pdf_presets_the_flip_edge(variants, name, flip):
    for paper in PAPERS:
        prefs = PdfReader(variants[name, paper]).trailer["/Root"]["/ViewerPreferences"]
        assert (prefs["/Duplex"], prefs["/PrintScaling"]) == (flip, "/None")


@pytest.mark.parametrize("name", sorted(VARIANTS))
@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_every_back_in_the_pdf_sits_behind_its_front(variants, name, paper):
    options = VARIANTS[name]
    reader = PdfReader(variants[name, paper])
    _, width, height = PAPERS[paper]
    dx, dy = options.back_offset
    for fronts_page in (2, 4, 6):  # market sheets and the starters
        fronts, backs = placements(reader, fronts_page), placements(reader, fronts_page + 1)
        assert len(fronts) == len(backs) > 0
        for f, b in zip(fronts, backs):
            if options.duplex == "long":
                want = (width - f.x - f.w + dx, f.bottom + dy)  # mirrored left to right, then moved
                turns = {0: 0, 1: 3}
            else:  # mirrored top to bottom and turned round; the offset reads upside down
                want = (f.x - dx, height - (f.bottom - f.h) - dy)
                turns = {0: 2, 1: 1}
            assert (b.x, b.bottom) == (pytest.approx(want[0], abs=0.01), pytest.approx(want[1], abs=0.01))
            assert (b.w, b.h, b.turn) == (pytest.approx(f.w, abs=0.01), pytest.approx(f.h, abs=0.01), turns[f.turn])
        trim_front = [float(v) / kitpdf.PT_PER_MM for v in reader.pages[fronts_page].trimbox]
        trim_back = [float(v) / kitpdf.PT_PER_MM for v in reader.pages[fronts_page + 1].trimbox]
        assert trim_back[2] - trim_back[0] == pytest.approx(trim_front[2] - trim_front[0], abs=0.01)


def crosshair(path, index: int, region: tuple[float, float, float, float]) -> tuple[float, float]:
    """Return the centre, in mm from the page's top-left, of the dark mark inside a region of a page."""
    page = pdfium.PdfDocument(str(path))[index]
    dpi = 300
    px = dpi / 25.4
    image = page.render(scale=dpi / 72).to_pil().convert("L")
    x0, y0, x1, y1 = region
    box = image.crop((round(x0 * px), round(y0 * px), round(x1 * px), round(y1 * px)))
    found = box.point(lambda v: 255 if v < 100 else 0).getbbox()
    assert found, f"no mark in {region} on page {index + 1}"
    return (x0 + (found[0] + found[2]) / 2 / px, y0 + (found[1] + found[3]) / 2 / px)


@pytest.mark.parametrize("name", sorted(VARIANTS))
@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_the_duplex_check_crosshair_lands_behind_page_1s(variants, name, paper):
    options = VARIANTS[name]
    _, width, height = PAPERS[paper]
    path = variants[name, paper]
    fx, fy = crosshair(path, 0, (width - 35, 2, width - 5, 20.5))  # above its "duplex mark" label
    assert (fx, fy) == (pytest.approx(width - 20, abs=0.2), pytest.approx(14, abs=0.2))
    dx, dy = options.back_offset
    if options.duplex == "long":
        region, want = (2, 2, 40, 28), (width - fx + dx, fy + dy)
    else:
        region, want = (width - 40, height - 28, width - 2, height - 2), (fx - dx, height - fy - dy)
    bx, by = crosshair(path, 1, region)
    assert (bx, by) == (pytest.approx(want[0], abs=0.2), pytest.approx(want[1], abs=0.2))


@pytest.mark.parametrize("name, flip, other, turn", [("long", "long", "short", 0), ("short", "short", "long", 2)])
def test_the_cover_and_check_page_name_the_flip_edge(variants, name, flip, other, turn):
    with pdfplumber.open(variants[name, "a4"]) as pdf:
        cover, check = text_in(pdf, 0), text_in(pdf, 1, (0, 0, 210, 270), turn)  # above the footer, as printed
    assert f"2. Print double-sided, flipped on the {flip} edge (“{flip}-edge binding”)." in cover
    assert f"your printer flipped on the {other} edge: choose flip on {flip} edge and print again." in check
