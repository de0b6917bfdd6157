"""Sheet geometry properties: cards on the page, marks clear of cards, backs mirrored, clips sane."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.imposition import MARK_MIN_START, OVERLAP, PAPERS, PRINTER_MARGIN, Rect, card_sheet, paginate

SHEETS = [card_sheet(p) for p in PAPERS]


@pytest.mark.parametrize("sheet", SHEETS, ids=[s.paper for s in SHEETS])
def test_cards_tile_the_block_without_gaps(sheet):
    slots = [sheet.slot(r, c) for r in range(3) for c in range(3)]
    assert sum(s.w * s.h for s in slots) == pytest.approx(sheet.block.w * sheet.block.h)
    assert all(sheet.block.contains(s) for s in slots)
    page = Rect(PRINTER_MARGIN, PRINTER_MARGIN, sheet.width - 2 * PRINTER_MARGIN, sheet.height - 2 * PRINTER_MARGIN)
    # Letter's 6.35 mm top margin leaves the outermost bleed to the printer's mercy; 2 mm always print.
    assert page.contains(sheet.block.grow(2, 2, 2, 2)), "cards and most of their bleed must be printable"


@pytest.mark.parametrize("sheet", SHEETS, ids=[s.paper for s in SHEETS])
def test_marks_are_outside_every_card_and_printable(sheet):
    assert len(sheet.marks(9)) == 16
    printable = Rect(
        PRINTER_MARGIN, PRINTER_MARGIN, sheet.width - 2 * PRINTER_MARGIN, sheet.height - 2 * PRINTER_MARGIN
    )
    for mark in sheet.marks(9):
        assert printable.contains(
            Rect(min(mark.x1, mark.x2), min(mark.y1, mark.y2), abs(mark.x2 - mark.x1), abs(mark.y2 - mark.y1))
        )
        for r in range(3):
            for c in range(3):
                assert mark.distance_to(sheet.slot(r, c)) >= MARK_MIN_START - 1e-9
        assert max(abs(mark.x2 - mark.x1), abs(mark.y2 - mark.y1)) >= 1.3  # long enough to see


def test_letter_marks_reach_into_the_bleed_only_where_the_margin_is_tight():
    letter, a4 = card_sheet("letter"), card_sheet("a4")
    top = [m for m in letter.marks(9) if m.x1 == m.x2 and m.y1 < letter.block.y]
    assert all(min(m.y1, m.y2) >= PRINTER_MARGIN - 1e-9 for m in top)
    assert all(letter.block.y - max(m.y1, m.y2) == pytest.approx(MARK_MIN_START) for m in top)
    a4_top = [m for m in a4.marks(9) if m.x1 == m.x2 and m.y1 < a4.block.y]
    assert all(a4.block.y - max(m.y1, m.y2) == pytest.approx(3.5) for m in a4_top)  # past the 3 mm bleed


@settings(max_examples=200, derandomize=True)
@given(
    paper=st.sampled_from(sorted(PAPERS)), occupied=st.sets(st.tuples(st.integers(0, 2), st.integers(0, 2)), min_size=1)
)
def test_clips_cover_the_card_and_bleed_only_into_free_space(paper, occupied):
    sheet = card_sheet(paper)
    for back in (False, True):
        for r, c in occupied:
            trim = sheet.back_slot(r, c) if back else sheet.slot(r, c)
            clip = sheet.clip(r, c, occupied, back=back)
            assert clip.contains(trim)
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                neighbour = (r + dr, c + dc)
                if neighbour in occupied:
                    other = sheet.back_slot(*neighbour) if back else sheet.slot(*neighbour)
                    overlap_w = min(clip.right, other.right) - max(clip.x, other.x)
                    overlap_h = min(clip.bottom, other.bottom) - max(clip.y, other.y)
                    assert min(overlap_w, overlap_h) <= OVERLAP + 1e-9


@settings(max_examples=200, derandomize=True)
@given(paper=st.sampled_from(sorted(PAPERS)), r=st.integers(0, 2), c=st.integers(0, 2))
def test_back_is_the_front_mirrored_about_the_centre_line(paper, r, c):
    sheet = card_sheet(paper)
    front, back = sheet.slot(r, c), sheet.back_slot(r, c)
    assert front.x + back.right == pytest.approx(sheet.width)
    assert back.y == front.y
    opposite = sheet.slot(r, 2 - c)  # centred grid: the mirror is the opposite column
    assert (back.x, back.y) == (pytest.approx(opposite.x), pytest.approx(opposite.y))


@given(count=st.integers(0, 500), per=st.integers(1, 20))
def test_paginate_places_every_item_once(count, per):
    pages = paginate(count, per)
    assert [i for page in pages for i in page] == list(range(count))
    assert all(1 <= len(page) <= per for page in pages)
    assert len(pages) == -(-count // per)


@given(paper=st.sampled_from(sorted(PAPERS)), count=st.integers(1, 9), back=st.booleans())
def test_a_partial_sheet_marks_only_the_cuts_its_cards_need(paper, count, back):
    sheet = card_sheet(paper)
    rows, cols = -(-count // 3), min(count, 3)
    marks = sheet.marks(count)
    assert len(marks) == 2 * (rows + 1) + 2 * (cols + 1)
    used_bottom = sheet.block.y + rows * 88.9
    assert all(max(m.y1, m.y2) <= used_bottom + 9 for m in marks)
    if back:
        marks = tuple(m.mirrored(sheet.width) for m in marks)
    slots = [sheet.back_slot(*divmod(i, 3)) if back else sheet.slot(*divmod(i, 3)) for i in range(count)]
    for mark in marks:
        assert all(mark.distance_to(slot) >= MARK_MIN_START - 1e-9 for slot in slots)


def test_cards_that_do_not_fit_are_refused():
    with pytest.raises(ValueError, match="do not fit on letter"):
        card_sheet("letter", card=(70, 120))
