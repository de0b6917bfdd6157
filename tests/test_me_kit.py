"""The Micro-Engine print kit: what it holds, one back per deck, and every card's text in the PDF."""

from __future__ import annotations

import importlib

import pdfplumber
import pytest
from pypdf import PdfReader

from generator.build import build

me_kit = importlib.import_module("generator.games.micro_engine.kit")
from conftest import ROOT
from me_helpers import loaded, model
from pdfinspect import normalize, placements, text_in

from generator.games.micro_engine import text


@pytest.fixture(scope="module")
def me_pdfs(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("me-kit")
    written = build(ROOT, "micro-engine", papers=["a4", "letter"], players=None, out=out).written
    return {p.stem.rsplit("-", 1)[1]: p for p in written}


def test_kit_holds_every_deck_and_one_aid_per_player():
    for players in (2, 3, 4):
        k = me_kit.kit(loaded(), players)
        decks = {}
        for card in k.cards:
            decks[card.deck] = decks.get(card.deck, 0) + 1
        assert decks == {"workshop": 90, "core": 10, "patent": 12, "aid": 1 + players}
        for deck in decks:  # one back per deck, and no two decks share a back
            assert len({c.back.identity for c in k.cards if c.deck == deck}) == 1
        assert len({next(c.back.identity for c in k.cards if c.deck == d) for d in decks}) == len(decks)


def test_part_faces_carry_input_output_cost_vp_slots_and_effect():
    g = model()
    boiler = g.by_name("Boiler")
    ctx = me_kit.card_context(g, boiler, 1)
    assert [c["name"] for c in ctx["inputs"]] == ["Electricity"] and ctx["output"]["name"] == "Steam"
    assert (ctx["card"]["cost"], ctx["card"]["vp"], ctx["card"]["slots"]) == (1, 1, 1)
    assert ctx["rich"]["effects"] == ["<b>When played:</b> you <nobr>draw 1</nobr>."]
    gearbox = me_kit.card_context(g, g.by_name("Gearbox"), 2)
    assert [c["name"] for c in gearbox["inputs"]] == ["Mechanical", "Electricity"]  # "A or B"


def test_pdfs_have_the_cover_then_fronts_and_backs(me_pdfs):
    # paper -> (cards on a full sheet, sheets): 3 × 3 on A4; on Letter 4 × 2 turned, so every mark prints.
    # The decks share sheets (a deck starts where the last ended): 14 on A4 where a deck a sheet took
    # 10 + 2 + 2 + 1, 15 on Letter where it took 11 + 2 + 2 + 2.
    sheets = {"a4": (9, 14), "letter": (8, 15)}
    for paper, path in me_pdfs.items():
        reader = PdfReader(path)
        per_sheet, count = sheets[paper]
        boxes = {"a4": 3, "letter": 4}[paper]  # Cores and Patents share an A4 page; the whole game's is too deep
        assert len(reader.pages) == 2 + 2 * count + 2 * boxes  # cover, check; sheets; tuck boxes, blank backs
        assert len(placements(reader, 2)) == per_sheet
        assert len({p.form for p in placements(reader, 3)}) == 1  # a Workshop backs page: one shared back


def test_every_card_prints_its_name_requirement_and_effects(me_pdfs):
    g = model()
    k = me_kit.kit(loaded(), 4)
    with pdfplumber.open(me_pdfs["a4"]) as pdf:
        reader = PdfReader(me_pdfs["a4"])
        texts = []
        for index in range(2, len(reader.pages), 2):  # fronts pages; each is followed by its backs
            texts += [
                normalize(text_in(pdf, index, (p.x, p.bottom - 88.9, p.x + 63.5, p.bottom)))
                for p in placements(reader, index)
            ]
    assert len(texts) == len(k.cards)
    items = {c.id: c for c in (*g.cards, *g.cores, *g.patents)}
    for card, printed in zip(k.cards, texts):
        base, _, number = card.id.rpartition("-")
        item = items.get(card.id) or (items.get(base) if number.isdigit() else None)
        if item is None:
            continue  # the round tracker and the player aids
        assert item.name in printed, (card.id, printed)
        expected = text.card_text(g, item).replace("Requirement: ", "Requirement:")
        for sentence in expected.split(". "):
            assert normalize(sentence.rstrip(".")) in printed.replace("Requirement: ", "Requirement:"), (
                card.id,
                sentence,
                printed,
            )
    aids = " ".join(texts[-5:])
    for phrase in ("Standard game: start here", "Quick game: start here", "Game: 8 rounds · Quick game: 6 rounds"):
        assert phrase in aids, phrase
