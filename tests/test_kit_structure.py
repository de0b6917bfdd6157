"""The kit's PDF structure: pages, sizes, card grid, crop marks, duplex backs, fonts, determinism."""

from __future__ import annotations

import pdfplumber
import pytest
from conftest import ROOT, check_golden, run_cli
from pdfinspect import MM, fonts, placements, text_in
from pypdf import PdfReader

from generator.build import build

CARD_W, CARD_H = 63.5, 88.9
PAPER_PT = {"a4": (595.2756, 841.8898), "letter": (612.0, 792.0)}
BASE14 = {"Courier", "Helvetica", "Times-Roman", "Symbol", "ZapfDingbats", "Times", "Times-Bold", "Helvetica-Bold"}
# paper -> (rows, columns, cards turned a quarter): on Letter only a turned grid leaves room for every
# crop mark inside a 5 mm printer margin
GRID = {"a4": (3, 3, False), "letter": (4, 2, True)}
# page index -> cards on it (six players: 16 market cards, 6 starters)
CARD_PAGES = {"a4": {2: 9, 3: 9, 4: 7, 5: 7, 6: 6, 7: 6}, "letter": {2: 8, 3: 8, 4: 8, 5: 8, 6: 6, 7: 6}}


@pytest.fixture(scope="module", params=["a4", "letter"])
def paper(request):
    return request.param


@pytest.fixture(scope="module")
def reader(kit_pdfs, paper):
    return PdfReader(kit_pdfs[paper])


def test_page_count_and_sizes(reader, paper):
    # 22 pages of cover, cards and mats, then the tuck boxes' die lines, each with a blank back: on A4 the market
    # and starter boxes share a page and the whole game's has its own; on Letter each box has a page of its own
    assert len(reader.pages) == 22 + {"a4": 4, "letter": 6}[paper]
    w, h = PAPER_PT[paper]
    for i, page in enumerate(reader.pages):
        size = (round(float(page.mediabox.width), 2), round(float(page.mediabox.height), 2))
        landscape = 8 <= i < 20  # the mats, and their blank backs in the same orientation
        assert size == ((round(h, 2), round(w, 2)) if landscape else (round(w, 2), round(h, 2))), i


def test_cards_per_page(reader, paper):
    for index, count in CARD_PAGES[paper].items():
        assert len(placements(reader, index)) == count
    rows, cols, _ = GRID[paper]
    assert len(placements(reader, 2)) == rows * cols  # a full sheet


def test_grid_is_centred_and_inside_the_printable_area(reader, paper):
    w_mm, h_mm = (v / MM for v in PAPER_PT[paper])
    rows, cols, turned = GRID[paper]
    pitch_w, pitch_h = (CARD_H, CARD_W) if turned else (CARD_W, CARD_H)
    cards = placements(reader, 2)
    assert {(round(p.w, 3), round(p.h, 3), p.turn) for p in cards} == {(pitch_w, pitch_h, 1 if turned else 0)}
    xs = sorted({round(p.x, 3) for p in cards})
    bottoms = sorted({round(p.bottom, 3) for p in cards})
    assert [round(b - a, 3) for a, b in zip(xs, xs[1:])] == [pitch_w] * (cols - 1)
    assert [round(b - a, 3) for a, b in zip(bottoms, bottoms[1:])] == [pitch_h] * (rows - 1)
    left, top = xs[0], bottoms[0] - pitch_h
    assert left == pytest.approx(w_mm - (xs[-1] + pitch_w), abs=0.01)
    assert top == pytest.approx(h_mm - bottoms[-1], abs=0.01)
    assert min(left, top) >= 9.0 - 0.01  # 5 mm printer margin, 1 mm to the mark, a 3 mm mark


def test_backs_are_mirrored_about_the_page_centre(reader, paper):
    width = PAPER_PT[paper][0] / MM
    for fronts in (2, 4, 6):
        front, back = placements(reader, fronts), placements(reader, fronts + 1)
        assert len(front) == len(back)
        for f, b in zip(front, back):
            assert b.x == pytest.approx(width - f.x - f.w, abs=0.01)
            assert b.bottom == pytest.approx(f.bottom, abs=0.01)
            assert (f.turn, b.turn) in ((0, 0), (1, 3))  # a back's top goes where the long-edge flip takes its front's


def test_market_cards_share_one_back_form(reader):
    assert len({p.form for p in placements(reader, 3) + placements(reader, 5)}) == 1
    starter_back = {p.form for p in placements(reader, 7)}
    assert len(starter_back) == 1 and starter_back.isdisjoint({p.form for p in placements(reader, 3)})


def test_crop_marks_stay_outside_every_card(kit_pdfs, paper, reader):
    w_mm, h_mm = (v / MM for v in PAPER_PT[paper])
    with pdfplumber.open(kit_pdfs[paper]) as pdf:
        for index in CARD_PAGES[paper]:
            marks = [
                ln
                for ln in pdf.pages[index].lines
                if abs(ln["linewidth"] - 0.2 * MM) < 0.01 and tuple(ln["stroking_color"] or ()) == (0, 0, 0)
            ]
            per_row = GRID[paper][1]
            count = CARD_PAGES[paper][index]
            rows, cols = -(-count // per_row), min(count, per_row)
            assert len(marks) == 2 * (rows + 1) + 2 * (cols + 1)  # both ends of every cut line
            cards = [p.box for p in placements(reader, index)]
            for mark in marks:
                x0, top, x1, bottom = (mark[k] / MM for k in ("x0", "top", "x1", "bottom"))
                assert min(x0, top) >= 5.0 - 0.01 and max(x1, bottom) <= max(w_mm, h_mm)  # prints at 5 mm
                assert x1 <= w_mm - 5.0 + 0.01 and bottom <= h_mm - 5.0 + 0.01
                assert max(x1 - x0, bottom - top) >= 2.0 - 0.01
                bleed = [float(v) / MM for v in reader.pages[index].bleedbox]
                bx0, btop, bx1, bbottom = bleed[0], h_mm - bleed[3], bleed[2], h_mm - bleed[1]
                # out of the bleed: a gap between the bleed box and every mark
                assert max(bx0 - x1, x0 - bx1, btop - bottom, top - bbottom) >= 0.5 - 0.01, (index, mark)
                for cx0, ctop, cx1, cbottom in cards:
                    gap = max(cx0 - x1, x0 - cx1, ctop - bottom, top - cbottom)
                    assert gap >= 2.0 - 0.01, (index, mark, (cx0, ctop))


def test_trim_box_is_the_card_block(reader, paper):
    page = reader.pages[2]
    cards = placements(reader, 2)
    left = min(p.x for p in cards)
    trim = [float(v) / MM for v in page.trimbox]
    rows, cols, turned = GRID[paper]
    pitch_w, pitch_h = (CARD_H, CARD_W) if turned else (CARD_W, CARD_H)
    assert trim[0] == pytest.approx(left, abs=0.01)
    assert trim[2] - trim[0] == pytest.approx(cols * pitch_w, abs=0.01)
    assert trim[3] - trim[1] == pytest.approx(rows * pitch_h, abs=0.01)
    bleed = [float(v) / MM for v in page.bleedbox]
    # 3 mm of bleed, narrowed to 1.5 mm at A4's sides so the crop marks there stay out of it
    assert trim[0] - bleed[0] == pytest.approx(1.5 if paper == "a4" else 3.0, abs=0.01)
    assert trim[1] - bleed[1] == pytest.approx(3.0, abs=0.01)
    cover = reader.pages[0]
    assert list(cover.trimbox) == list(cover.mediabox)  # no trim box where there is nothing to trim


def test_viewer_preferences_ask_for_100_percent_and_long_edge_duplex(reader):
    prefs = reader.trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/PrintScaling"] == "/None"
    assert prefs["/Duplex"] == "/DuplexFlipLongEdge"


def test_every_font_is_an_embedded_truetype_subset(reader):
    used = fonts(reader)
    assert used, "no fonts found"
    for name, kind in used:
        base = name.lstrip("/")
        assert kind == "/FontFile2", name
        prefix, _, family = base.partition("+")
        assert len(prefix) == 6 and prefix.isupper() and family, name
        assert family not in BASE14
    families = {name.split("+")[1] for name, _ in used}
    assert {"RobotoCondensed-Bold", "Lato-Regular", "Lato-Bold", "Lato-Italic"} <= families


def test_rebuild_is_byte_identical(tmp_path, kit_pdfs):
    again = build(ROOT, "pocket-foundry", papers=["a4", "letter"], players=None, out=tmp_path).written
    for path in again:
        paper = path.stem.rsplit("-", 1)[1]
        assert path.read_bytes() == kit_pdfs[paper].read_bytes()


def test_structure_golden(reader, paper, kit_pdfs, update_goldens):
    lines = []
    with pdfplumber.open(kit_pdfs[paper]) as pdf:
        for i, page in enumerate(reader.pages):
            w, h = float(page.mediabox.width), float(page.mediabox.height)
            cards = placements(reader, i)
            lines.append(f"page {i + 1}: {w:.2f} x {h:.2f} pt, {len(cards)} cards")
            lines.append("  " + text_in(pdf, i, turn=cards[0].turn if cards else 0))  # turned cards read as printed
    check_golden(f"pocket-foundry-{paper}.structure.txt", "\n".join(lines) + "\n", update_goldens)


def test_player_count_changes_the_kit(tmp_path):
    (path,) = build(ROOT, "pocket-foundry", papers=["a4"], players=3, out=tmp_path).written
    reader = PdfReader(path)
    assert len(reader.pages) == 2 + 4 + 2 + 3 * 2 + 2 + 2 * 2  # and two pages of tuck boxes
    assert len(placements(reader, 6)) == 3  # three Starter Feeders


def test_unsupported_player_count_is_refused(tmp_path):
    result = run_cli("build", "pocket-foundry", "--players", "5", "--out", str(tmp_path / "out"), cwd=ROOT)
    assert result.returncode == 1
    assert result.stderr == (
        "error[B001] pocket-foundry supports 2, 3, 4, 6 players, not 5\n"
        "  = hint: use --players with one of 2, 3, 4, 6\n\n1 error, 0 warnings\n"
    )
    assert not (tmp_path / "out").exists()
