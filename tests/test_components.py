"""Components from data in the generic deck ruleset: round tokens cut on a path, and a board on a page of
its own; Hedgerow's score tokens and score board are built and checked like its cards."""

from __future__ import annotations

import math

import pdfplumber
import pytest
from conftest import ROOT, copy_project
from pdfinspect import MM, placements
from pypdf import PdfReader

from generator.build import build
from generator.impose.boards import OVERLAP, split
from generator.impose.sheets import PAPERS, TOKEN_GAP, PrintOptions, Rect, card_sheet, sheets_for
from generator.pipeline import Pipeline


@pytest.fixture(scope="module")
def kits(tmp_path_factory) -> dict[str, str]:
    out = tmp_path_factory.mktemp("hedgerow-components")
    result = build(ROOT, "hedgerow", papers=["a4", "letter"], players=None, out=out)
    assert result.ok and not result.report.items, result.report.render()
    return {p.stem.rsplit("-", 1)[1]: str(p) for p in result.written}


def test_tokens_and_the_board_come_from_game_yaml():
    kit = Pipeline(ROOT, "hedgerow").kit()
    tokens = [c for c in kit.cards if c.deck == "tokens"]
    assert [c.name for c in tokens] == ["Pond", "Meadow", "Wood", "Hedge", "Orchard"]
    assert {(c.shape, tuple(c.size)) for c in tokens} == {("circle", (16.0, 16.0))}
    assert len({c.back.key for c in tokens}) == 5  # each back its own colour
    assert [(p.name, p.landscape, p.face.template) for p in kit.pages] == [("score board", True, "score-board.yaml.j2")]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_token_sheet_spaces_its_tokens_and_cuts_each_on_a_circle(kits, paper):
    imposed = Pipeline(ROOT, "hedgerow").imposition(paper)
    fronts, backs = (p for p in imposed.plan.pages if p.cards and p.cards[0].deck == "tokens")
    assert (fronts.kind, backs.kind) == ("fronts", "backs")
    sheet = fronts.sheet
    assert sheet.gutter == TOKEN_GAP and not sheet.turned
    for side in (fronts.side, backs.side):
        assert side.marks == ()  # no crop marks: a path round each token instead
        assert [shape for shape, _ in side.cuts] == ["circle"] * 5
        trims = [p.trim for p in side.placed]
        gaps = sorted({round(abs(b.x - a.x) - 16, 6) for a, b in zip(trims, trims[1:])})
        assert gaps == [TOKEN_GAP]
        for p in side.placed:  # each bleeds half the gap at least: a cut 2 mm off the circle shows its colour
            assert p.clip.contains(p.trim.grow(2.0, 2.0, 2.0, 2.0))
            assert not any(p.clip.overlaps(o.trim.grow(2.0, 2.0, 2.0, 2.0)) for o in side.placed if o is not p)
    # the backs are mirrored behind their fronts
    for f, b in zip(fronts.side.placed, backs.side.placed):
        assert b.trim.x == pytest.approx(sheet.width - f.trim.right) and b.trim.y == pytest.approx(f.trim.y)
    reader = PdfReader(kits[paper])
    index = next(i for i, p in enumerate(imposed.plan.pages) if p is fronts)
    assert len(placements(reader, index)) == 5
    with pdfplumber.open(kits[paper]) as pdf:
        for offset, side in ((0, fronts.side), (1, backs.side)):
            curves = [c for c in pdf.pages[index + offset].curves if abs(c["linewidth"] - 0.2 * MM) < 0.01]
            assert len(curves) == 5  # one cut circle per token, on its trim
            for curve, (_, trim) in zip(sorted(curves, key=lambda c: c["x0"]), sorted(side.cuts, key=lambda c: c[1].x)):
                assert curve["x0"] / MM == pytest.approx(trim.x, abs=0.05)
                assert (curve["x1"] - curve["x0"]) / MM == pytest.approx(16.0, abs=0.05)


def test_hex_tiles_cut_on_a_hexagon():
    sheets = sheets_for({("tiles", (30.0, 26.0)): (30.0, 26.0)}, "a4", PrintOptions(), {("tiles", (30.0, 26.0))})
    sheet = sheets["tiles", (30.0, 26.0)]
    # (usable + gap) / (size + gap) across and down: 192 mm wide, 279 mm high inside the marks' room
    assert (sheet.cols, sheet.rows) == (math.floor(196 / 34), math.floor(283 / 30))
    plain = card_sheet("a4", (30.0, 26.0))
    assert plain.per_sheet > sheet.per_sheet  # spacing costs slots


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_board_prints_landscape_with_a_landscape_back(kits, paper):
    reader = PdfReader(kits[paper])
    board, back = reader.pages[-2], reader.pages[-1]
    for page in (board, back):
        assert float(page.mediabox.width) > float(page.mediabox.height)
    text = board.extract_text()
    assert "HEDGEROW" in text and "Move your score token one space for each point" in text
    with pdfplumber.open(kits[paper]) as pdf:
        words = pdf.pages[len(reader.pages) - 2].extract_words(extra_attrs=["size"])
    track = [int(w["text"]) for w in words if w["text"].isdigit() and w["size"] > 7]  # not the footer's
    assert sorted(track) == list(range(50))  # every space of the track, once
    for w in words:  # all of it inside the 5 mm printer margin
        assert w["x0"] / MM >= 5 and w["top"] / MM >= 5
        assert (float(board.mediabox.width) - w["x1"]) / MM >= 5 and (
            float(board.mediabox.height) - w["bottom"]
        ) / MM >= 5


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_board_larger_than_the_page_splits_into_overlapping_parts(paper):
    parts = split((420.0, 297.0), paper)
    assert [p.name for p in parts] == ["A1", "A2", "B1", "B2"] and all(p.landscape for p in parts)
    board = Rect(0, 0, 420.0, 297.0)
    covered = parts[0].window
    _, pw, ph = PAPERS[paper]
    inside = Rect(10, 10, ph - 20, pw - 20)  # landscape pages; 5 mm past the printer margin kept free
    for p in parts:
        covered = covered.union(p.window)
        assert board.contains(p.window) and inside.contains(p.area)
        for mark in p.marks + p.edges:
            assert inside.contains(mark.bounds)
    assert covered == board
    a1, a2, b1 = parts[0], parts[1], parts[2]
    assert a1.window.right - a2.window.x >= OVERLAP and a1.window.bottom - b1.window.y >= OVERLAP
    # a cross in the shared strip sits at the same board point on both parts
    crosses = [
        {
            (round(m.x1 + 3 - (p.area.x - p.window.x), 3), round(m.y1 - (p.area.y - p.window.y), 3))
            for m in p.marks
            if m.y1 == m.y2  # a cross's level stroke: its centre is 3 mm in
        }
        for p in (a1, a2)
    ]
    assert len(crosses[0] & crosses[1]) == 2
    assert split((200.0, 150.0), "a4")[0].window == Rect(0, 0, 200.0, 150.0)  # fits: one page


def test_a_big_board_prints_its_parts_with_the_board_drawn_once(tmp_path):
    project = copy_project(tmp_path / "p", ("hedgerow",))
    game = project / "cards" / "hedgerow" / "game.yaml"
    text = game.read_text(encoding="utf-8").replace(
        "template: score-board.yaml.j2", "template: score-board.yaml.j2\n    size: 420mm x 297mm", 1
    )
    game.write_text(text, encoding="utf-8")
    result = build(project, "hedgerow", papers=["a4"], players=None, out=tmp_path / "out")
    assert result.ok, result.report.render()
    reader = PdfReader(result.written[0])
    assert len(reader.pages) == 16 + 2 * 4  # the board's four parts, each with its blank back
    texts = [reader.pages[i].extract_text() or "" for i in range(16, 24)]
    assert [t for t in texts if "score board, part A1 of 4" in t]
    forms = set()
    for i in (16, 18, 20, 22):
        forms |= set(reader.pages[i]["/Resources"]["/XObject"])
    assert len(forms) == 1  # one drawing of the whole board, shown through each part's window
    with pdfplumber.open(result.written[0]) as pdf:
        thin = [ln for ln in pdf.pages[16].lines if abs(ln["linewidth"] - 0.2 * MM) < 0.01]
        assert len(thin) == 2 * 2 * 2 + 2  # A1's crosses (two strips, two crosses, two strokes), two neighbours' edges


def test_a_board_size_beyond_any_paper_is_a_located_error(tmp_path):
    project = copy_project(tmp_path / "p", ("hedgerow",))
    game = project / "cards" / "hedgerow" / "game.yaml"
    text = game.read_text(encoding="utf-8").replace(
        "template: score-board.yaml.j2", "template: score-board.yaml.j2\n    size: 3000mm x 297mm", 1
    )
    game.write_text(text, encoding="utf-8")
    pipeline = Pipeline(project, "hedgerow")
    assert pipeline.load() is None
    (problem,) = pipeline.report.items
    assert problem.code == "S004" and "w is 3000 mm, which no board is" in problem.message
    assert problem.loc is not None and problem.loc.line > 0
