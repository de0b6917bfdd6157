"""A real kit mixing two card sizes: one sheet run per deck and size, read back from the PDF."""

from __future__ import annotations

import dataclasses

import pdfplumber
import pytest
from conftest import ROOT
from pdfinspect import MM, placements, text_in
from pypdf import PdfReader

from generator.diagnostics import Report
from generator.impose.plan import impose, kit_sheets
from generator.impose.sheets import PAPERS, PrintOptions, Rect
from generator.impose.sizes import PRESETS
from generator.layout.studio import Studio, page_safe
from generator.pipeline import Pipeline
from generator.render import kitpdf

SIZES = {"market": PRESETS["tarot"], "starter": PRESETS["mini-american"]}
# (deck, cards on each of its sheets), both papers: tarot 2 × 2; mini-american 6 × 3 turned, 18 a sheet
RUNS = [("market", [4, 4, 4, 4]), ("starter", [6])]


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    """Pocket Foundry's six-player cards with tarot market cards and mini starters, no mats or boxes; both papers."""
    pipeline = Pipeline(ROOT, "pocket-foundry")
    kit = pipeline.kit()
    kit.cards = [dataclasses.replace(c, size=SIZES[c.deck]) for c in kit.cards]
    kit.pages = []
    kit.boxes = None  # sized for the poker cards it had: this file is about the card sheets
    # its templates are drawn for poker: overflow at other sizes is fine here, so nothing is checked
    studio = Studio.for_game(pipeline.load().dir, "warn", Report())
    faces = {face.key: studio.render(face, *card.size) for card in kit.cards for face in (card.front, card.back)}

    def render(face, w, h, extra):
        return studio.render(face, w, h, extra, safe=page_safe(face))

    out = tmp_path_factory.mktemp("mixed")
    paths = {}
    for paper in PAPERS:
        paths[paper] = out / f"mixed-{paper}.pdf"
        paths[paper].write_bytes(kitpdf.write(kit, impose(kit, paper), faces, render, studio.fonts, studio.icons))
    return kit, paths


def forms(reader: PdfReader, index: int) -> list[tuple[Rect, int]]:
    """Return (trim on the page in mm from the top-left, quarter turns) for every card face on a page."""
    return [(Rect(p.x, p.bottom - p.h, p.w, p.h), p.turn) for p in placements(reader, index)]


def approx_rect(r: Rect):
    return pytest.approx((r.x, r.y, r.w, r.h), abs=0.01)


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_each_deck_gets_sheets_of_its_own_size(mixed, paper):
    kit, paths = mixed
    reader = PdfReader(paths[paper])
    sheets = kit_sheets(kit, paper, PrintOptions())
    expected_pages = 2 + sum(2 * len(counts) for _, counts in RUNS)
    assert len(reader.pages) == expected_pages
    index = 2
    for deck, per_page in RUNS:
        sheet = sheets[deck, tuple(SIZES[deck])]
        for cards in per_page:
            for kind, side in (("fronts", sheet.fronts(cards)), ("backs", sheet.backs(cards))):
                page = reader.pages[index]
                placed = forms(reader, index)
                assert len(placed) == cards, (paper, deck, kind)
                for (trim, turn), want in zip(placed, side.placed):
                    assert (trim.x, trim.y, trim.w, trim.h) == approx_rect(want.trim)
                    assert turn == want.turn
                trim_box = [float(v) / MM for v in page.trimbox]
                h = sheet.height
                assert trim_box == pytest.approx(
                    [side.trim.x, h - side.trim.bottom, side.trim.right, h - side.trim.y], abs=0.01
                )
                index += 1


def test_cards_are_their_own_size_and_turned_where_the_grid_says(mixed):
    kit, paths = mixed
    reader = PdfReader(paths["a4"])
    tarot = forms(reader, 2)
    assert {(round(t.w, 2), round(t.h, 2), turn) for t, turn in tarot} == {(69.85, 120.65, 0)}
    minis = forms(reader, 10)  # mini-american, 6 × 3 turned on A4: the first row holds three
    assert {(round(t.w, 2), round(t.h, 2)) for t, _ in minis} == {(63.5, 44.45)}
    assert [turn for _, turn in minis] == [1] * 6
    assert [turn for _, turn in forms(reader, 11)] == [3] * 6  # their backs, flipped on the long edge
    width = PAPERS["a4"][1]
    for (front, _), (back, _) in zip(minis, forms(reader, 11)):
        assert back.x == pytest.approx(width - front.right, abs=0.01) and back.y == pytest.approx(front.y, abs=0.01)


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_crop_marks_follow_each_grid(mixed, paper):
    kit, paths = mixed
    sheets = kit_sheets(kit, paper, PrintOptions())
    with pdfplumber.open(paths[paper]) as pdf:
        for index, deck, cards in ((2, "market", 4), (3, "market", 4), (10, "starter", 6), (11, "starter", 6)):
            sheet = sheets[deck, tuple(SIZES[deck])]
            side = sheet.fronts(cards) if index % 2 == 0 else sheet.backs(cards)
            drawn = [
                (
                    round(ln["x0"] / MM, 2),
                    round(ln["top"] / MM, 2),
                    round(ln["x1"] / MM, 2),
                    round(ln["bottom"] / MM, 2),
                )
                for ln in pdf.pages[index].lines
                if abs(ln["linewidth"] - 0.2 * MM) < 0.01
            ]
            want = [
                (round(m.bounds.x, 2), round(m.bounds.y, 2), round(m.bounds.right, 2), round(m.bounds.bottom, 2))
                for m in side.marks
            ]
            assert sorted(drawn) == sorted(want)


def test_the_cover_lists_each_run_with_its_size(mixed):
    _, paths = mixed
    with pdfplumber.open(paths["a4"]) as pdf:
        text = text_in(pdf, 0)
    assert "Pages 3–10 Market cards · 16 cards (tarot, 69.85 × 120.65 mm) on 4 sheets" in text
    assert "Pages 11–12 Starter Feeders (one per player) · 6 cards (mini-american, 44.45 × 63.5 mm) on 1 sheet" in text
    assert "44.45 × 63.5 mm" in text.split("One card at trim size")[1]  # the smaller card, so it fits the page


def test_a_deck_of_two_sizes_is_refused_before_anything_is_drawn(mixed):
    kit, _ = mixed
    odd = dataclasses.replace(kit, cards=[*kit.cards[:3], dataclasses.replace(kit.cards[3], size=PRESETS["poker"])])
    with pytest.raises(ValueError, match=r"^deck 'market' mixes card sizes: .* differs from its 69.85 × 120.65 mm"):
        kit_sheets(odd, "a4", PrintOptions())


def test_a_cover_shows_a_poker_card_when_every_card_is_taller(mixed):
    kit, _ = mixed
    jumbo = dataclasses.replace(kit, cards=[dataclasses.replace(c, size=PRESETS["jumbo"]) for c in kit.cards])
    covers = [face for page, face, _, _ in kitpdf.page_faces(jumbo, impose(jumbo, "a4")) if page.kind == "cover"]
    assert [face.context["card"] for face in covers[:1]] == [{"w": 63.5, "h": 88.9}]
    mixed_cover = next(face for page, face, _, _ in kitpdf.page_faces(kit, impose(kit, "a4")) if page.kind == "cover")
    assert mixed_cover.context["card"] == {"w": 44.45, "h": 63.5}  # the smaller card of the kit
