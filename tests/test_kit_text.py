"""Every string the rulebook prints appears, word for word, on the right component of the kit."""

from __future__ import annotations

import pdfplumber
import pytest
from pdfinspect import placements, text_in
from pypdf import PdfReader
from rulebook import printable_materials

MATERIALS = printable_materials()
MACHINES = [h for h in MATERIALS if "· copy" in h]


@pytest.fixture(scope="module", params=["a4", "letter"])
def kit(request, kit_pdfs):
    path = kit_pdfs[request.param]
    with pdfplumber.open(path) as pdf:
        yield request.param, pdf, PdfReader(path)


def card_texts(pdf, reader, index: int) -> list[str]:
    """Return the text inside each card's trim box on a page, in placement order."""
    return [text_in(pdf, index, p.box, p.turn) for p in placements(reader, index)]


def test_rulebook_lists_sixteen_market_cards():
    assert len(MACHINES) == 16
    assert MACHINES[0] == "Feed Belt · copy 1" and MACHINES[-1] == "Return Chute · copy 2"


def test_each_market_card_prints_exactly_its_rulebook_text(kit):
    _, pdf, reader = kit
    fronts = card_texts(pdf, reader, 2) + card_texts(pdf, reader, 4)  # pages 3 and 5
    expected = [" ".join([heading] + MATERIALS[heading]) for heading in MACHINES]
    assert fronts == expected


def test_each_starter_feeder_prints_its_two_lines(kit):
    _, pdf, reader = kit
    lines = MATERIALS["Starter Feeder · print one per player"]
    assert lines == [
        "STARTER ONLY: begins in slot 1; cannot be replaced or bought.",
        "RUN: Gain 2 FEED, then discard down to the six-FEED cap.",
    ]
    starters = card_texts(pdf, reader, 6)  # page 7
    assert len(starters) == 6  # one per player at the default six players
    for text in starters:
        assert text == "Starter Feeder " + " ".join(lines) + " Slot 1 · one per player"


@pytest.mark.parametrize("page", range(8, 20, 2))
def test_each_mat_prints_every_rulebook_item(kit, page):
    _, pdf, _ = kit
    text = text_in(pdf, page)
    for item in ["Foundry mat"] + MATERIALS["Foundry mat · print one per player"]:
        assert item in text


def test_mat_items_are_the_rulebook_items():
    assert MATERIALS["Foundry mat · print one per player"] == [
        "Player: __________",
        "Slot 1: STARTER FEEDER",
        "Slot 2: __________",
        "Slot 3: __________",
        "Slot 4: __________",
        "Resolve from slot 1 to slot 4. Leave enough table space below each label for a machine card.",
        "FEED: 3 → __________________ (cap 6).",
        "PARTS: 0 → __________________ (cap 4).",
        "POINTS: 0 → __________________",
        "Turn: BUILD one market card, or RUN your entire row. No free run after building.",
    ]


def test_lap_record_and_marker_print_every_line(kit):
    _, pdf, _ = kit
    text = text_in(pdf, 20)
    for heading in ("Foundry lap record", "Starting-player marker"):
        assert heading in text
        for item in MATERIALS[heading]:
            assert item in text, item
    assert MATERIALS["Foundry lap record"][1] == "Laps 1–6: 1 □ 2 □ 3 □ 4 □ 5 □ 6 □"


def test_cover_says_how_to_print(kit):
    paper, pdf, _ = kit
    text = text_in(pdf, 0)
    assert "Pocket Foundry" in text
    assert f"Print-and-play kit · {'A4' if paper == 'a4' else 'US Letter'} paper · for 6 players" in text
    assert "Print at Actual size / 100 %." in text
    assert "Print double-sided, flipped on the long edge" in text
    for label in ("100 mm", "4 in", "50 × 50 mm", "63.5 × 88.9 mm", "(2.5 × 3.5 in)"):
        assert label in text
    for row in (
        "Pages 1–2 This sheet",
        "Pages 3–6 Market cards · 16 cards on 2 sheets",
        "Pages 7–8 Starter Feeders (one per player) · 6 cards on 1 sheet",
        "Pages 9–20 Foundry mat × 6 · one per player, single-sided",
        "Pages 21–22 Foundry lap record and starting-player marker · single-sided",
    ):
        assert row in text


def test_backs_say_nothing_about_the_machine(kit):
    _, pdf, reader = kit
    for index in (3, 5):  # market backs pages
        for text in card_texts(pdf, reader, index):
            assert text == "YRDNUOF TEKCOP POCKET FOUNDRY"  # the title, once turned round, once upright
