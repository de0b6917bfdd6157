"""Home-print variants: long- and short-edge duplex and the back offset, in geometry and in the PDF."""

from __future__ import annotations

import pdfplumber
import pypdfium2 as pdfium
import pytest
from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st
from pdfinspect import placements, text_in
from pypdf import PdfReader

from generator.impose.sheets import (
    BLEED,
    FOLD_GAP,
    FOLD_MARK_CLEAR,
    MARK_MIN_START,
    MARK_SHORTEST,
    PAPERS,
    Mark,
    PrintOptions,
    Rect,
    SheetError,
    card_sheet,
)
from generator.impose.sizes import PRESETS
from generator.pipeline import Pipeline
from generator.render import kitpdf

CASES = [(name, o, paper) for name in PRESETS for o in ("portrait", "landscape") for paper in PAPERS]


def sheet_of(name, orientation, paper):
    return card_sheet(paper, PRESETS[name].oriented(orientation))


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"duplex": "both"}, "duplex must be one of long, short, gutterfold, not 'both'"),
        (
            {"duplex": "gutterfold", "back_offset": (1, 0)},
            "a gutterfold kit prints single-sided: a back offset has nothing to correct",
        ),
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
    assert PrintOptions(duplex="gutterfold").viewer_duplex == "Simplex"
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


# (preset, orientation) -> {paper: (rows, cols, turned, fold)} of the fronts half of a gutterfold sheet
FOLDED = {
    ("poker", "portrait"): {"a4": (2, 2, True, "horizontal"), "letter": (4, 1, True, "vertical")},
    ("poker", "landscape"): {"a4": (2, 2, False, "horizontal"), "letter": (4, 1, False, "vertical")},
    ("poker-euro", "portrait"): {"a4": (4, 1, True, "vertical"), "letter": (4, 1, True, "vertical")},
    ("poker-euro", "landscape"): {"a4": (4, 1, False, "vertical"), "letter": (4, 1, False, "vertical")},
    ("bridge", "portrait"): {"a4": (2, 2, True, "horizontal"), "letter": (4, 1, True, "vertical")},
    ("bridge", "landscape"): {"a4": (2, 2, False, "horizontal"), "letter": (4, 1, False, "vertical")},
    ("tarot", "portrait"): {"a4": (2, 1, False, "vertical"), "letter": (2, 1, False, "vertical")},
    ("tarot", "landscape"): {"a4": (2, 1, True, "vertical"), "letter": (2, 1, True, "vertical")},
    ("mini-american", "portrait"): {"a4": (2, 4, False, "horizontal"), "letter": (4, 2, False, "vertical")},
    ("mini-american", "landscape"): {"a4": (2, 4, True, "horizontal"), "letter": (4, 2, True, "vertical")},
    ("mini-euro", "portrait"): {"a4": (4, 2, False, "vertical"), "letter": (3, 2, False, "vertical")},
    ("mini-euro", "landscape"): {"a4": (4, 2, True, "vertical"), "letter": (3, 2, True, "vertical")},
    ("euro", "portrait"): {"a4": (2, 2, True, "horizontal"), "letter": (2, 2, True, "horizontal")},
    ("euro", "landscape"): {"a4": (2, 2, False, "horizontal"), "letter": (2, 2, False, "horizontal")},
    ("square", "portrait"): {"a4": (1, 2, False, "horizontal"), "letter": (2, 1, False, "vertical")},
    ("square", "landscape"): {"a4": (1, 2, False, "horizontal"), "letter": (2, 1, False, "vertical")},
    ("euro-square", "portrait"): {"a4": (3, 1, False, "vertical"), "letter": (3, 1, False, "vertical")},
    ("euro-square", "landscape"): {"a4": (3, 1, False, "vertical"), "letter": (3, 1, False, "vertical")},
    ("jumbo", "portrait"): {"a4": (1, 1, True, "horizontal"), "letter": (1, 1, False, "vertical")},
    ("jumbo", "landscape"): {"a4": (1, 1, False, "horizontal"), "letter": (1, 1, False, "horizontal")},
    ("business-us", "portrait"): {"a4": (2, 2, True, "horizontal"), "letter": (5, 1, True, "vertical")},
    ("business-us", "landscape"): {"a4": (2, 2, False, "horizontal"), "letter": (5, 1, False, "vertical")},
    ("business-eu", "portrait"): {"a4": (5, 1, True, "vertical"), "letter": (4, 1, True, "vertical")},
    ("business-eu", "landscape"): {"a4": (5, 1, False, "vertical"), "letter": (4, 1, False, "vertical")},
}


@pytest.mark.parametrize("name, orientation, paper", CASES)
def test_gutterfold_backs_fold_onto_their_fronts(name, orientation, paper):
    sheet = card_sheet(paper, PRESETS[name].oriented(orientation), fold=True)
    assert (sheet.rows, sheet.cols, sheet.turned, sheet.fold) == FOLDED[name, orientation][paper]
    width, height = sheet.width, sheet.height
    printable = Rect(5, 5, width - 10, height - 10)
    for count in sorted({1, sheet.cols, sheet.per_sheet}):
        (page,) = sheet.sides(count, PrintOptions(duplex="gutterfold"))
        fronts, backs = page.placed[:count], page.placed[count:]
        assert [p.back for p in page.placed] == [False] * count + [True] * count
        (line,) = page.folds
        vertical = sheet.fold == "vertical"
        assert line == (
            Mark(width / 2, 5, width / 2, height - 5) if vertical else Mark(5, height / 2, width - 5, height / 2)
        )
        for front, back in zip(fronts, backs, strict=True):
            # folding along the line lays the back exactly behind the front, its top where the front's is
            if vertical:
                assert back.trim == Rect(
                    pytest.approx(width - front.trim.right), front.trim.y, front.trim.w, front.trim.h
                )
                assert front.trim.right <= width / 2 - BLEED - FOLD_GAP + 1e-9
                assert back.turn == -front.turn % 4
            else:
                assert back.trim == Rect(
                    front.trim.x, pytest.approx(height - front.trim.bottom), front.trim.w, front.trim.h
                )
                assert front.trim.bottom <= height / 2 - BLEED - FOLD_GAP + 1e-9
                assert back.turn == (2 - front.turn) % 4
            assert printable.contains(front.trim) and printable.contains(back.trim)
            assert line.distance_to(front.trim) >= BLEED + FOLD_GAP - 1e-9
        trims = [p.trim for p in page.placed]
        assert not any(a.overlaps(b) for i, a in enumerate(trims) for b in trims[i + 1 :])
        rows, cols = -(-count // sheet.cols), min(count, sheet.cols)
        assert len(page.marks) == 2 * (2 * (rows + 1) + 2 * (cols + 1))  # both ends of every cut, both halves
        for mark in page.marks:  # printable, off the cards, clear of the fold
            assert printable.contains(mark.bounds)
            assert min(mark.distance_to(t) for t in trims) >= MARK_MIN_START - 1e-9
            assert mark.length >= MARK_SHORTEST - 1e-9
            assert mark.distance_to(line.bounds) >= FOLD_MARK_CLEAR - 1e-9
        assert page.trim == Rect(
            min(t.x for t in trims),
            min(t.y for t in trims),
            pytest.approx(max(t.right for t in trims) - min(t.x for t in trims)),
            pytest.approx(max(t.bottom for t in trims) - min(t.y for t in trims)),
        )


def test_the_gutterfold_poker_sheets_of_the_specification():
    # print-specs §3.5: four poker cards a sheet, turned, 2 × 2 above a horizontal fold on A4
    a4 = card_sheet("a4", PRESETS["poker"], fold=True)
    assert a4.block == Rect(pytest.approx(16.1), pytest.approx(10.75), pytest.approx(177.8), 127.0)
    (page,) = a4.sides(4, PrintOptions(duplex="gutterfold"))
    assert page.placed[4].trim == Rect(pytest.approx(16.1), pytest.approx(222.75), 88.9, 63.5)  # below the fold
    assert (page.placed[0].turn, page.placed[4].turn) == (1, 1)
    letter = card_sheet("letter", PRESETS["poker"], fold=True)  # 1 × 4 left of a vertical fold
    (page,) = letter.sides(4, PrintOptions(duplex="gutterfold"))
    assert page.placed[0].trim == Rect(pytest.approx(9.525), pytest.approx(12.7), 88.9, 63.5)
    assert page.placed[4].trim == Rect(pytest.approx(117.475), pytest.approx(12.7), 88.9, 63.5)
    assert (page.placed[0].turn, page.placed[4].turn) == (1, 3)


def test_a_declared_grid_that_cannot_fold_is_refused():
    assert card_sheet("a4", PRESETS["poker"], 3, 1, fold=True).fold == "vertical"
    with pytest.raises(SheetError) as caught:
        card_sheet("a4", PRESETS["poker"], 2, 2, fold=True)
    assert str(caught.value) == (
        "2 × 2 poker, 63.5 × 88.9 mm cards need 127 × 177.8 mm but A4 paper leaves 88 × 279 mm left of a "
        "vertical fold or 192 × 131.5 mm above a horizontal fold inside the printer margin and crop marks; "
        "at most 3 × 1 fit"
    )


VARIANTS = {
    "long": PrintOptions(),
    "short": PrintOptions(duplex="short"),
    "offset": PrintOptions(back_offset=(2.0, 1.0)),
    "short-offset": PrintOptions(duplex="short", back_offset=(2.0, 1.0)),
    "gutterfold": PrintOptions(duplex="gutterfold"),
}
DUPLEXED = sorted(set(VARIANTS) - {"gutterfold"})


@pytest.fixture(scope="module")
def variants(tmp_path_factory):
    """Pocket Foundry for two players on both papers, once per variant: {(variant, paper): path}."""
    out = tmp_path_factory.mktemp("variants")
    paths = {}
    for name, options in VARIANTS.items():
        pipeline = Pipeline(ROOT, "pocket-foundry", players=2, options=options)
        pdfs = pipeline.render(PAPERS)
        assert pdfs is not None, pipeline.report.render()
        for paper, data in pdfs.items():
            paths[name, paper] = out / f"{name}-{paper}.pdf"
            paths[name, paper].write_bytes(data)
    return paths


@pytest.mark.parametrize("name, flip", [("long", "/DuplexFlipLongEdge"), ("short", "/DuplexFlipShortEdge")])
def test_the_pdf_presets_the_flip_edge(variants, name, flip):
    for paper in PAPERS:
        prefs = PdfReader(variants[name, paper]).trailer["/Root"]["/ViewerPreferences"]
        assert (prefs["/Duplex"], prefs["/PrintScaling"]) == (flip, "/None")


@pytest.mark.parametrize("name", DUPLEXED)
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


@pytest.mark.parametrize("name", DUPLEXED)
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


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_a_gutterfold_kit_is_single_sided_with_one_page_a_sheet(variants, paper):
    reader = PdfReader(variants["gutterfold", paper])
    # cover; 16 market cards and 2 starters at 4 a sheet: 4 + 1 pages; 2 mats and the lap record, no blanks;
    # the tuck boxes (market and starter boxes share an A4 page, the whole game's has one), no blanks either
    assert len(reader.pages) == 1 + 4 + 1 + 2 + 1 + {"a4": 2, "letter": 3}[paper]
    prefs = reader.trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/Duplex"] == "/Simplex"
    assert [len(placements(reader, i)) for i in range(1, 6)] == [8, 8, 8, 8, 4]  # fronts and their backs
    with pdfplumber.open(variants["gutterfold", paper]) as pdf:
        cover = text_in(pdf, 0)
        assert "Page 1 This sheet · print settings and rulers" in cover
        assert "Pages 2–5 Market cards · 16 cards on 4 sheets, fronts beside their backs: fold, glue, cut" in cover
        assert "Page 6 Starter Feeders (one per player) · 2 cards on 1 sheet" in cover
        assert "2. Print single-sided. Each card sheet holds the fronts and, across the dashed fold line" in cover
        assert "duplex mark" not in cover and "flipped on the" not in cover
        _, width, height = PAPERS[paper]
        folds = [ln for ln in pdf.pages[1].lines if ln.get("dash") and ln["dash"][0]]
        assert len(folds) == 1
        fold = tuple(round(ln / kitpdf.PT_PER_MM, 2) for ln in (folds[0]["x0"], folds[0]["top"], folds[0]["x1"]))
        # A4: a horizontal fold through the middle, margin to margin; Letter: a vertical one
        assert fold == ((5.0, height / 2, width - 5) if paper == "a4" else (width / 2, 5.0, width / 2))


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_folding_the_printed_page_lays_each_back_behind_its_front(variants, paper):
    """Fold the rastered page in code: the point behind a front's (x, y) is the page's mirror image
    across the fold line. Every front's trim must land on dark back art, and a little past its block's
    bleed on plain paper."""
    path = variants["gutterfold", paper]
    reader = PdfReader(path)
    _, width, height = PAPERS[paper]
    dpi = 100
    image = pdfium.PdfDocument(str(path))[1].render(scale=dpi / 72).to_pil().convert("L")
    px = dpi / 25.4
    cards = placements(reader, 1)
    fronts, backs = cards[:4], cards[4:]
    vertical = paper == "letter"

    def behind(x: float, y: float) -> int:
        fx, fy = (width - x, y) if vertical else (x, height - y)
        return image.getpixel((round(fx * px), round(fy * px)))

    for f in fronts:
        top = f.bottom - f.h
        for x, y in (
            (f.x + 1, top + 1),
            (f.x + f.w - 1, top + 1),
            (f.x + 1, f.bottom - 1),
            (f.x + f.w - 1, f.bottom - 1),
        ):
            assert behind(x, y) < 120, (paper, f, x, y)  # the market back's dark navy
    left, top = min(f.x for f in fronts), min(f.bottom - f.h for f in fronts)
    right, bottom = max(f.x + f.w for f in fronts), max(f.bottom for f in fronts)
    # the backs' bleed ends where the fronts' does: dark 0.5 mm inside it, paper 0.5 mm past it (3 mm,
    # or narrower where the paper edge is near)
    bl, bt, br, bb = card_sheet(paper, PRESETS["poker"], fold=True).outer_bleed(len(fronts))
    for inside, outside in (
        ((left - bl + 0.5, top + 1.5), (left - bl - 0.5, top + 1.5)),
        ((right + br - 0.5, top + 1.5), (right + br + 0.5, top + 1.5)),
        ((left + 1.5, top - bt + 0.5), (left + 1.5, top - bt - 0.5)),
        ((left + 1.5, bottom + bb - 0.5), (left + 1.5, bottom + bb + 0.5)),
    ):
        assert behind(*inside) < 120 and behind(*outside) > 230, (paper, inside)
    assert len(backs) == 4


@pytest.mark.parametrize("duplex", ["long", "short", "gutterfold"])
@pytest.mark.parametrize("name, orientation, paper", CASES)
def test_every_crop_mark_prints_at_a_5_mm_margin(name, orientation, paper, duplex):
    options = PrintOptions(duplex=duplex)
    sheet = card_sheet(paper, PRESETS[name].oriented(orientation), fold=duplex == "gutterfold")
    edge = Rect(5, 5, sheet.width - 10, sheet.height - 10)
    for count in range(1, sheet.per_sheet + 1):
        for side in sheet.sides(count, options):
            assert side.marks
            for mark in side.marks:
                assert edge.contains(mark.bounds), (count, mark)
                assert mark.length >= MARK_SHORTEST - 1e-9
                assert all(mark.distance_to(p.clip) >= 0.5 - 1e-9 for p in side.placed)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(
    paper=st.sampled_from(sorted(PAPERS)),
    card=st.tuples(st.floats(15, 200), st.floats(15, 280)),
    margin=st.floats(0, 12),
    duplex=st.sampled_from(["long", "short", "gutterfold"]),
    data=st.data(),
)
def test_any_size_prints_cleanly_in_every_variant(paper, card, margin, duplex, data):
    options = PrintOptions(duplex=duplex, printer_margin=margin)
    try:
        sheet = card_sheet(paper, card, margin=margin, fold=duplex == "gutterfold")
    except SheetError:
        return  # too big for this paper; the grid tests check the refusal itself
    count = data.draw(st.integers(1, sheet.per_sheet))
    edge = Rect(margin, margin, sheet.width - 2 * margin, sheet.height - 2 * margin)
    for side in sheet.sides(count, options):
        trims = [p.trim for p in side.placed]
        assert all(edge.contains(t) for t in trims)
        assert not any(a.overlaps(b) for i, a in enumerate(trims) for b in trims[i + 1 :])
        for mark in side.marks:
            assert edge.contains(mark.bounds)
            assert all(mark.distance_to(t) >= MARK_MIN_START - 1e-9 for t in trims)
            assert mark.length >= MARK_SHORTEST - 1e-9
        for fold in side.folds:
            assert all(fold.distance_to(t) >= BLEED + FOLD_GAP - 1e-9 for t in trims)
            assert all(mark.distance_to(fold.bounds) >= FOLD_MARK_CLEAR - 1e-9 for mark in side.marks)
