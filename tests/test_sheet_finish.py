"""Sheets that waste nothing and cut clean: shared runs, gutters between different backs, marks out of the
bleed, and no ink within the printer margin on any page of any shipped kit."""

from __future__ import annotations

import pypdfium2
import pytest
from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.build import build
from generator.impose.pack import _gutters, pack
from generator.impose.plan import sheet_runs
from generator.impose.sheets import EPSILON, GUTTER, MISCUT, PRINTER_MARGIN, Fill, PrintOptions, Rect, card_sheet, spare
from generator.impose.sizes import PRESETS
from generator.pipeline import PAPERS, Pipeline
from generator.project.locate import list_games

GAMES = list_games(ROOT)
SCALE = 1.0  # 72 dpi: 5 mm is 14 px, plenty to find a footer or a mark that strays
EDGE_PX = int(PRINTER_MARGIN / 25.4 * 72 * SCALE) - 1  # one pixel short of 5 mm, for anti-aliasing


@pytest.fixture(scope="module")
def kits(tmp_path_factory) -> dict[str, list[object]]:
    """Every shipped game built on both papers; {pdf name: path}."""
    out = tmp_path_factory.mktemp("kits")
    result = build(ROOT, None, papers=list(PAPERS), players=None, out=out)
    assert result.ok, result.report.items
    return {p.name: p for p in result.written}


@pytest.mark.slow
def test_no_ink_within_the_printer_margin_on_any_page(kits):
    found = []
    for name, path in sorted(kits.items()):
        pdf = pypdfium2.PdfDocument(path)
        for index in range(len(pdf)):
            image = pdf[index].render(scale=SCALE, grayscale=True).to_pil().convert("L")
            w, h = image.size
            strips = {
                "top": (0, 0, w, EDGE_PX),
                "bottom": (0, h - EDGE_PX, w, h),
                "left": (0, 0, EDGE_PX, h),
                "right": (w - EDGE_PX, 0, w, h),
            }
            for edge, box in strips.items():
                darkest = image.crop(box).getextrema()[0]
                if darkest < 250:
                    found.append(f"{name} page {index + 1} {edge}: {darkest}")
        pdf.close()
    assert found == []
    assert len(kits) == 2 * len(GAMES)


def _pipelines():
    for game in GAMES:
        for paper in PAPERS:
            yield game, paper


@pytest.mark.parametrize("game, paper", list(_pipelines()))
def test_no_two_different_backs_share_a_cut_line(game, paper):
    imposed = Pipeline(ROOT, game).imposition(paper)
    assert imposed is not None
    checked = 0
    for page in imposed.plan.pages:
        if page.kind != "backs":
            continue
        assert page.side is not None
        placed = page.side.placed
        backs = [page.cards[p.index].back.identity for p in placed]
        cuts_x = {round(m.x1, 3) for m in page.side.marks if m.x1 == m.x2}
        cuts_y = {round(m.y1, 3) for m in page.side.marks if m.y1 == m.y2}
        paths = {p.trim for p in placed} if page.side.cuts else set()
        assert paths == {trim for _, trim in page.side.cuts}  # tokens: a cut path round each, no marks
        for a, key_a in zip(placed, backs):
            if not page.side.cuts:  # every edge of every card has its crop marks: a gutter gets a pair
                assert {round(a.trim.x, 3), round(a.trim.right, 3)} <= cuts_x
                assert {round(a.trim.y, 3), round(a.trim.bottom, 3)} <= cuts_y
            reach = a.trim.grow(MISCUT, MISCUT, MISCUT, MISCUT)
            for b, key_b in zip(placed, backs):
                if b is a or key_b == key_a:
                    continue
                checked += 1
                # what a miscut of 1.5 mm takes with card a holds no paint of card b, and a paints it itself
                assert not reach.overlaps(b.clip), (page.label, a.index, b.index)
                assert not reach.overlaps(b.trim)
    if game in ("micro-engine", "hedgerow"):
        assert checked > 0  # shared sheets and per-card backs do meet here


def test_a_deck_starts_where_the_last_one_ended():
    kit = Pipeline(ROOT, "micro-engine").kit()
    runs = sheet_runs(kit, PrintOptions())
    assert [run.decks for run in runs] == [("workshop", "core", "patent", "aid")]
    imposed = Pipeline(ROOT, "micro-engine").imposition("a4")
    fronts = [p for p in imposed.plan.pages if p.kind == "fronts"]
    # 90 workshop cards fill 10 sheets; cores, patents and aids share 4 where they took 5 (was 15 sheets)
    assert len(fronts) == 14
    assert [len(p.cards) for p in fronts[10:]] == [9, 8, 8, 2]
    assert "117 cards on 14 sheets (1 fewer than a deck a sheet)" in imposed.plan.contents[1]["detail"]
    letter = Pipeline(ROOT, "micro-engine").imposition("letter")
    assert sum(p.kind == "fronts" for p in letter.plan.pages) == 15  # was 17


def test_a_game_may_ask_for_a_deck_a_sheet(project):
    game = project / "cards" / "pocket-foundry" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + "sheets: per-deck\n", encoding="utf-8")
    kit = Pipeline(project, "pocket-foundry").kit()
    assert not kit.shared_sheets
    assert [run.decks for run in sheet_runs(kit, PrintOptions())] == [("market",), ("starter",)]


def test_decks_that_would_save_no_sheet_keep_their_own():
    imposed = Pipeline(ROOT, "pocket-foundry").imposition("a4")
    labels = [p.label for p in imposed.plan.pages if p.kind == "fronts"]
    assert labels == [
        "market cards, sheet 1 of 2: fronts",
        "market cards, sheet 2 of 2: fronts",
        "Starter Feeders (one per player), sheet 1 of 1: fronts",
    ]


def test_different_backs_get_a_gutter_or_the_next_free_slot():
    a4 = card_sheet("a4", PRESETS["poker"])  # 3 × 3, 1.5 mm spare across: no column gutter fits
    fills = pack(a4, ["a"] * 4 + ["b"] * 3)
    assert len(fills) == 1
    fill = fills[0]
    # a a a / a _ b / b b: the slot beside the last a stays empty, a gutter opens under rows 0 and 1
    assert fill.slots == (0, 1, 2, 3, 5, 6, 7)
    assert fill.row_gaps == (GUTTER, GUTTER) and not any(fill.col_gaps)
    side = a4.backs(fill, keys=["a"] * 4 + ["b"] * 3)
    trims = [p.trim for p in side.placed]
    assert trims[4].y - trims[1].bottom == pytest.approx(GUTTER)
    assert side.placed[1].clip.bottom == pytest.approx(trims[1].bottom + GUTTER / 2)
    # marks on both cut lines of each gutter
    ys = sorted({round(m.y1, 2) for m in side.marks if m.y1 == m.y2})
    assert len(ys) == 6
    letter = card_sheet("letter", PRESETS["poker"])  # 4 × 2 turned, 7.4 mm spare: room for two row gutters
    fills = pack(letter, ["a"] * 3 + ["b"] * 3 + ["c"] * 3)
    # a a / a _ / b b / b _ / then a sheet of its own for c: a third gutter does not fit
    assert [f.slots for f in fills] == [(0, 1, 2, 4, 5, 6), (0, 1, 2)]
    assert fills[0].row_gaps == (0.0, GUTTER, 0.0)
    one = pack(a4, ["a"] * 9)
    assert one[0].slots == tuple(range(9)) and one[0].row_gaps == ()


def _pack_whole_grid(sheet, backs):
    """pack as first written: every card tried against the whole grid so far."""
    _, room = spare(sheet)
    most_rows = int(room / GUTTER + EPSILON)
    fills, card = [], 0
    while card < len(backs):
        grid = {}
        for slot in range(sheet.per_sheet):
            if card == len(backs):
                break
            grid[slot] = backs[card]
            rows, beside = _gutters(grid, sheet.cols)
            if len(rows) <= most_rows and not beside:
                card += 1
            else:
                del grid[slot]
        rows, _ = _gutters(grid, sheet.cols)
        fills.append((tuple(grid), tuple(sorted(rows))))
    return fills


@settings(max_examples=300, deadline=None)
@given(
    backs=st.lists(st.sampled_from("aab"), max_size=30),
    where=st.sampled_from([("a4", "poker"), ("letter", "poker"), ("a4", "mini-euro"), ("letter", "tarot")]),
)
def test_packing_card_by_card_packs_as_trying_the_whole_grid_does(backs, where):
    sheet = card_sheet(where[0], PRESETS[where[1]])
    got = [(f.slots, tuple(r for r, gap in enumerate(f.row_gaps) if gap)) for f in pack(sheet, backs)]
    assert got == _pack_whole_grid(sheet, backs)


def test_a_column_gutter_doubles_the_marks_between_columns():
    a4 = card_sheet("a4", PRESETS["bridge"])  # 3 × 3 bridge leaves 22 mm across
    fill = Fill((0, 1), col_gaps=(GUTTER, 0.0))
    side = a4.fronts(fill, keys=["a", "b"])
    a, b = (p.trim for p in side.placed)
    assert b.x - a.right == pytest.approx(GUTTER)
    assert side.placed[0].clip.right == pytest.approx(a.right + GUTTER / 2)
    assert side.placed[1].clip.x == pytest.approx(b.x - GUTTER / 2)
    xs = sorted({round(m.x1, 3) for m in side.marks if m.x1 == m.x2})
    assert xs == [round(v, 3) for v in (a.x, a.right, b.x, b.right)]
    assert (a4.slot(0, 0, fill).x + a4.slot(0, 2, fill).right) / 2 == pytest.approx(a4.width / 2)  # centred


def test_a_sheet_of_one_back_has_no_gutter_and_stays_centred():
    a4 = card_sheet("a4", PRESETS["poker"])
    (fill,) = pack(a4, ["a"] * 9)
    side = a4.fronts(fill)
    assert side.trim == Rect(pytest.approx(9.75), pytest.approx(15.15), pytest.approx(190.5), pytest.approx(266.7))
