"""Sheet geometry for every card size on both papers: grids, crop marks, clips and mirrored backs."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from generator.impose.sheets import (
    BLEED,
    MARK_GAP,
    MARK_MIN_START,
    MARK_SHORTEST,
    MIN_BLEED,
    OVERLAP,
    PAPERS,
    PRINTER_MARGIN,
    PrintOptions,
    Rect,
    Sheet,
    SheetError,
    card_sheet,
    edge_room,
    paginate,
    sheets_for,
)
from generator.impose.sizes import PRESETS, CardSize, parse_size

# (preset, orientation) -> {paper: (rows, cols, cards turned a quarter turn on the sheet)}
GRIDS = {
    ("poker", "portrait"): {"a4": (3, 3, False), "letter": (4, 2, True)},
    ("poker", "landscape"): {"a4": (3, 3, True), "letter": (4, 2, False)},
    ("poker-euro", "portrait"): {"a4": (3, 3, False), "letter": (4, 2, True)},
    ("poker-euro", "landscape"): {"a4": (3, 3, True), "letter": (4, 2, False)},
    ("bridge", "portrait"): {"a4": (3, 3, False), "letter": (4, 2, True)},
    ("bridge", "landscape"): {"a4": (3, 3, True), "letter": (4, 2, False)},
    ("tarot", "portrait"): {"a4": (2, 2, False), "letter": (2, 2, False)},
    ("tarot", "landscape"): {"a4": (2, 2, True), "letter": (2, 2, True)},
    ("mini-american", "portrait"): {"a4": (6, 3, True), "letter": (4, 4, False)},
    ("mini-american", "landscape"): {"a4": (6, 3, False), "letter": (4, 4, True)},
    ("mini-euro", "portrait"): {"a4": (4, 4, False), "letter": (3, 4, False)},
    ("mini-euro", "landscape"): {"a4": (4, 4, True), "letter": (3, 4, True)},
    ("euro", "portrait"): {"a4": (3, 3, False), "letter": (4, 2, True)},
    ("euro", "landscape"): {"a4": (3, 3, True), "letter": (4, 2, False)},
    ("square", "portrait"): {"a4": (3, 2, False), "letter": (2, 2, False)},
    ("square", "landscape"): {"a4": (3, 2, False), "letter": (2, 2, False)},
    ("euro-square", "portrait"): {"a4": (3, 2, False), "letter": (3, 2, False)},
    ("euro-square", "landscape"): {"a4": (3, 2, False), "letter": (3, 2, False)},
    ("jumbo", "portrait"): {"a4": (3, 1, True), "letter": (1, 2, False)},
    ("jumbo", "landscape"): {"a4": (3, 1, False), "letter": (2, 1, False)},
    ("business-us", "portrait"): {"a4": (5, 2, True), "letter": (5, 2, True)},
    ("business-us", "landscape"): {"a4": (5, 2, False), "letter": (5, 2, False)},
    ("business-eu", "portrait"): {"a4": (5, 2, True), "letter": (3, 3, False)},
    ("business-eu", "landscape"): {"a4": (5, 2, False), "letter": (3, 3, True)},
}
CASES = [(name, o, paper) for (name, o), papers in GRIDS.items() for paper in papers]
CUSTOM = parse_size("2.2in x 80mm")  # 55.88 × 80 mm


def sheet_of(name: str, orientation: str, paper: str) -> Sheet:
    return card_sheet(paper, PRESETS[name].oriented(orientation))


def printable(sheet: Sheet) -> Rect:
    m = sheet.margin
    return Rect(m, m, sheet.width - 2 * m, sheet.height - 2 * m)


def test_every_preset_and_orientation_is_in_the_table():
    assert {(n, o) for n, o, _ in CASES} == {(n, o) for n in PRESETS for o in ("portrait", "landscape")}


@pytest.mark.parametrize("name, orientation, paper", CASES)
def test_grid_is_the_most_cards_that_fit(name, orientation, paper):
    sheet = sheet_of(name, orientation, paper)
    assert (sheet.rows, sheet.cols, sheet.turned) == GRIDS[name, orientation][paper]
    w, h = sheet.pitch
    room = edge_room()
    # no room for one more row or column, either way round
    for pw, ph in ((w, h), (h, w)):
        fits = int((sheet.width - 2 * room) // pw) * int((sheet.height - 2 * room) // ph + 1e-9)
        assert fits <= sheet.per_sheet
    assert sheet.block.x >= room - 1e-9 and sheet.block.y >= room - 1e-9
    assert sheet.block.x == pytest.approx(sheet.width - sheet.block.right)  # centred
    assert sheet.block.y == pytest.approx(sheet.height - sheet.block.bottom)


def test_poker_is_three_by_three_on_a4_where_it_always_was():
    sheet = card_sheet("a4", PRESETS["poker"])
    assert (sheet.rows, sheet.cols, sheet.turned) == (3, 3, False)
    assert sheet.block == Rect(pytest.approx(9.75), pytest.approx(15.15), pytest.approx(190.5), pytest.approx(266.7))


def test_poker_on_letter_is_four_by_two_turned_so_every_mark_prints():
    # 3 × 88.9 mm leaves Letter 6.35 mm at top and bottom: 1.35 mm past a 5 mm printer margin, too
    # little for a 3 mm mark 1 mm off the card. Turned, 4 × 63.5 mm leaves 12.7 mm.
    with pytest.raises(SheetError, match="at most 2 × 3 fit"):
        card_sheet("letter", PRESETS["poker"], 3, 3)
    sheet = card_sheet("letter", PRESETS["poker"])
    assert (sheet.rows, sheet.cols, sheet.turned) == (4, 2, True)
    assert sheet.block == Rect(pytest.approx(19.05), pytest.approx(12.7), pytest.approx(177.8), pytest.approx(254))


def check_side(sheet: Sheet, count: int) -> None:
    """Assert everything the fronts and backs pages of `count` cards must get right."""
    fronts, backs = sheet.fronts(count), sheet.backs(count)
    pw, ph = sheet.pitch
    rows, cols = -(-count // sheet.cols), min(count, sheet.cols)
    page, paper = printable(sheet), Rect(0, 0, sheet.width, sheet.height)
    for side in (fronts, backs):
        trims = [p.trim for p in side.placed]
        assert [p.index for p in side.placed] == list(range(count))
        assert all((t.w, t.h) == (pytest.approx(pw), pytest.approx(ph)) for t in trims)
        assert all(page.contains(t) for t in trims)
        assert not any(a.overlaps(b) for i, a in enumerate(trims) for b in trims[i + 1 :])
        assert side.trim.contains(Rect(min(t.x for t in trims), min(t.y for t in trims), 0, 0))
        assert all(side.trim.contains(t) for t in trims)
        assert side.trim.w * side.trim.h == pytest.approx(cols * pw * rows * ph)
        # crop marks: both ends of every cut line, on the line, printable, never on a card
        assert len(side.marks) == 2 * (rows + 1) + 2 * (cols + 1)
        xs = {round(side.trim.x + c * pw, 6) for c in range(cols + 1)}
        ys = {round(side.trim.y + r * ph, 6) for r in range(rows + 1)}
        for mark in side.marks:
            vertical = mark.x1 == mark.x2
            assert vertical or mark.y1 == mark.y2
            assert round(mark.x1, 6) in xs if vertical else round(mark.y1, 6) in ys
            assert page.contains(mark.bounds) and paper.contains(mark.bounds)
            assert mark.length >= MARK_SHORTEST - 1e-9
            gap = min(mark.distance_to(t) for t in trims)
            assert gap >= MARK_MIN_START - 1e-9
            # never in the bleed: a gap between the bleed box and every mark, the full bleed where there is room
            assert mark.distance_to(side.bleed_box) >= MARK_GAP - 1e-9
            assert all(mark.distance_to(p.clip) >= MARK_GAP - 1e-9 for p in side.placed)
        edges = (side.trim.x, side.trim.y, sheet.width - side.trim.right, sheet.height - side.trim.bottom)
        box = side.bleed_box
        grown = (side.trim.x - box.x, side.trim.y - box.y, box.right - side.trim.right, box.bottom - side.trim.bottom)
        for room, bleed in zip(edges, grown):
            assert MIN_BLEED - 1e-9 <= bleed <= BLEED + 1e-9
            if room - sheet.margin >= BLEED + MARK_GAP + 3.0:
                assert bleed == pytest.approx(BLEED)
        # clips: the whole card, bleed only where no card is next to it
        for p in side.placed:
            assert p.clip.contains(p.trim)
            for other in trims:
                if other is not p.trim and p.clip.overlaps(other):
                    inter_w = min(p.clip.right, other.right) - max(p.clip.x, other.x)
                    inter_h = min(p.clip.bottom, other.bottom) - max(p.clip.y, other.y)
                    assert min(inter_w, inter_h) <= OVERLAP + 1e-9
            assert p.clip.contains(p.trim.grow(OVERLAP, OVERLAP, OVERLAP, OVERLAP))
            assert side.bleed_box.contains(p.clip)
    # every back's trim is its front's mirrored about the page's vertical centre line
    for front, back in zip(fronts.placed, backs.placed):
        assert back.trim.x == pytest.approx(sheet.width - front.trim.right)
        assert (back.trim.y, back.trim.w, back.trim.h) == (front.trim.y, front.trim.w, front.trim.h)
        assert back.back and not front.back
        assert (front.turn, back.turn) == ((1, 3) if sheet.turned else (0, 0))
        assert back.clip.x == pytest.approx(sheet.width - front.clip.right)
    assert backs.trim.x == pytest.approx(sheet.width - fronts.trim.right)
    assert sorted((round(m.x1, 6), m.y1) for m in backs.marks) == sorted(
        (round(sheet.width - m.x1, 6), m.y1) for m in fronts.marks
    )


@pytest.mark.parametrize("name, orientation, paper", CASES)
def test_marks_clips_and_backs_for_every_size(name, orientation, paper):
    sheet = sheet_of(name, orientation, paper)
    for count in {1, sheet.cols, sheet.per_sheet - 1, sheet.per_sheet} - {0}:
        check_side(sheet, count)


@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
def test_a_custom_size(paper, orientation):
    sheet = card_sheet(paper, CUSTOM.oriented(orientation))
    assert (sheet.rows, sheet.cols, sheet.turned) == {
        ("a4", "portrait"): (3, 3, False),
        ("a4", "landscape"): (3, 3, True),
        ("letter", "portrait"): (3, 3, False),
        ("letter", "landscape"): (3, 3, True),
    }[paper, orientation]
    for count in range(1, sheet.per_sheet + 1):
        check_side(sheet, count)


def test_the_bleed_narrows_where_the_margin_is_tight_and_marks_stay_out_of_it():
    a4 = card_sheet("a4", PRESETS["poker"])
    # A4's sides: 9.75 mm of margin, 4.75 of it printable: a 1.5 mm bleed, then 2.75 mm marks 2 mm past the trim
    left = [m for m in a4.marks(9) if m.y1 == m.y2 and m.x1 < a4.block.x]
    assert len(left) == 4
    assert all((m.x1, m.x2) == (pytest.approx(9.75 - 2.0), pytest.approx(PRINTER_MARGIN)) for m in left)
    assert a4.outer_bleed(9) == (1.5, 3.0, 1.5, 3.0)
    assert a4.fronts(9).bleed_box == a4.block.grow(1.5, 3.0, 1.5, 3.0)
    # top and bottom: 15.15 mm, so full 5 mm marks start past the 3 mm bleed
    top = [m for m in a4.marks(9) if m.x1 == m.x2 and m.y1 < a4.block.y]
    assert all((m.y1, m.y2) == (pytest.approx(15.15 - 3.5), pytest.approx(15.15 - 8.5)) for m in top)


def test_a_turned_grid_puts_each_back_top_to_the_right():
    sheet = card_sheet("a4", PRESETS["mini-american"])  # 6 × 3, turned: 18 cards instead of 16 upright
    assert sheet.turned and sheet.pitch == (63.5, 44.45)
    front, back = sheet.fronts(18).placed[0], sheet.backs(18).placed[0]
    assert front.trim == Rect(sheet.block.x, sheet.block.y, 63.5, 44.45)
    # flipped on the long edge, the front's top (page left) comes out on the back's page right
    assert (front.turn, back.turn) == (1, 3)


@pytest.mark.parametrize(
    "paper, card, grid, message",
    [
        (
            "letter",
            "tarot",
            (3, 3),
            "3 × 3 tarot, 69.85 × 120.65 mm cards need 209.55 × 361.95 mm but US Letter paper leaves "
            "197.9 × 261.4 mm inside the printer margin and crop marks; at most 2 × 2 fit",
        ),
        (
            "a4",
            "poker",
            (3, 4),
            "3 × 4 poker, 63.5 × 88.9 mm cards need 254 × 266.7 mm but A4 paper leaves "
            "192 × 279 mm inside the printer margin and crop marks; at most 3 × 3 fit",
        ),
        ("a4", "poker", (0, 3), "a grid of 0 × 3 cards is not possible: rows and columns are 1 to 20"),
    ],
)
def test_a_declared_grid_that_does_not_fit_is_refused(paper, card, grid, message):
    with pytest.raises(SheetError) as caught:
        card_sheet(paper, PRESETS[card], *grid)
    assert str(caught.value) == message


def test_a_declared_grid_overrides_the_computed_one():
    sheet = card_sheet("a4", PRESETS["poker"], 2, 3)
    assert (sheet.rows, sheet.cols, sheet.turned) == (2, 3, False)
    assert sheet.block == Rect(9.75, (297 - 2 * 88.9) / 2, 190.5, 2 * 88.9)
    turned = card_sheet("letter", PRESETS["poker"], 4, 2, turned=True)
    assert (turned.pitch, turned.block.w, turned.block.h) == ((88.9, 63.5), 177.8, 254.0)
    check_side(turned, 8)


def test_a_card_too_big_for_the_paper_is_refused():
    with pytest.raises(
        SheetError,
        match=r"^300 × 300 mm cards do not fit on A4 paper \(210 × 297 mm\) with 9 mm kept free at each edge",
    ):
        card_sheet("a4", CardSize(300, 300))


def test_sheets_for_lays_out_each_run_and_names_every_one_that_fails():
    sizes = {("market", (63.5, 88.9)): PRESETS["poker"], ("aid", (44.0, 68.0)): PRESETS["mini-euro"]}
    sheets = sheets_for(sizes, "a4", PrintOptions())
    assert {run: (s.rows, s.cols) for run, s in sheets.items()} == {
        ("market", (63.5, 88.9)): (3, 3),
        ("aid", (44.0, 68.0)): (4, 4),
    }
    declared = sheets_for(sizes, "a4", PrintOptions(grids={"aid": (2, 2)}))
    assert (declared["aid", (44.0, 68.0)].rows, declared["aid", (44.0, 68.0)].cols) == (2, 2)
    with pytest.raises(SheetError, match=r"^deck 'market': 4 × 4 poker.*; deck 'aid': 9 × 9 mini-euro") as caught:
        sheets_for(sizes, "a4", PrintOptions(grids={"market": (4, 4), "aid": (9, 9)}))
    assert [deck for deck, _ in caught.value.decks] == ["market", "aid"]  # each reported where its size is
    assert caught.value.decks[1][1].startswith("9 × 9 mini-euro")


sizes = st.tuples(st.floats(15, 200), st.floats(15, 280))


@settings(max_examples=300, derandomize=True, deadline=None)
@given(paper=st.sampled_from(sorted(PAPERS)), card=sizes, margin=st.floats(0, 12), data=st.data())
def test_any_size_that_fits_is_laid_out_cleanly(paper, card, margin, data):
    w, h = card
    _, width, height = PAPERS[paper]
    free_w, free_h = width - 2 * edge_room(margin), height - 2 * edge_room(margin)
    fits = (w <= free_w and h <= free_h) or (h <= free_w and w <= free_h)
    assume(abs(w - free_w) > 1e-6 and abs(h - free_h) > 1e-6 and abs(h - free_w) > 1e-6)  # no knife edges
    try:
        sheet = card_sheet(paper, card, margin=margin)
    except SheetError:
        assert not fits
        return
    assert fits
    count = data.draw(st.integers(1, sheet.per_sheet))
    for side in (sheet.fronts(count), sheet.backs(count)):
        trims = [p.trim for p in side.placed]
        inside = printable(sheet)
        assert all(inside.contains(t) for t in trims)
        assert not any(a.overlaps(b) for i, a in enumerate(trims) for b in trims[i + 1 :])
        for mark in side.marks:
            assert inside.contains(mark.bounds)
            assert all(mark.distance_to(t) >= MARK_MIN_START - 1e-9 for t in trims)
            assert mark.length >= MARK_SHORTEST - 1e-9


@given(count=st.integers(0, 500), per=st.integers(1, 20))
def test_paginate_places_every_item_once(count, per):
    pages = paginate(count, per)
    assert [i for page in pages for i in page] == list(range(count))
    assert all(1 <= len(page) <= per for page in pages)
    assert len(pages) == -(-count // per)
