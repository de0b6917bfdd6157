"""Hedgerow, the game made with no Python: every card prints its CSV row, backs are right, builds are repeatable."""

from __future__ import annotations

import csv
import hashlib
import re
from pathlib import Path

import pdfplumber
import pytest
from conftest import ROOT, run_cli
from pdfinspect import normalize, placements
from pypdf import PdfReader

from generator.build import build
from generator.pipeline import Pipeline

GAME = ROOT / "cards" / "hedgerow"
POKER = (63.5, 88.9)


def rows(name: str) -> list[dict]:
    with open(GAME / name, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def printed(text: str) -> str:
    """Return card text as it reads on the page: icons are drawings, not letters."""
    return normalize(re.sub(r":[a-z-]+:", " ", text))


@pytest.fixture(scope="module")
def kits(tmp_path_factory) -> dict[str, str]:
    out = tmp_path_factory.mktemp("hedgerow")
    result = build(ROOT, "hedgerow", papers=["a4", "letter"], players=None, out=out)
    assert result.ok and not result.report.items, result.report.render()
    return {p.stem.rsplit("-", 1)[1]: str(p) for p in result.written}


def test_hedgerow_is_data_and_templates_only():
    assert not list(GAME.rglob("*.py"))
    assert sorted(p.name for p in GAME.glob("*.csv")) == ["critters.csv", "goals.csv"]
    critters, goals = rows("critters.csv"), rows("goals.csv")
    assert sum(int(r["copies"]) for r in critters) == 40 and len(critters) == 16
    assert len(goals) == 9 and sorted({r["season"] for r in goals}) == ["autumn", "spring", "summer"]
    assert all(sum(r["season"] == s for r in goals) == 3 for s in ("spring", "summer", "autumn"))
    for habitat in ("pond", "meadow", "wood", "hedge", "orchard"):
        assert sum(int(r["copies"]) for r in critters if r["habitat"] == habitat) == 8
    rulebook = (GAME / "rulebook.txt").read_text()
    for row in critters:  # the rulebook's component list names every critter with its count
        assert f"{row['name']} x{row['copies']}" in rulebook


def test_the_kit_holds_both_decks_with_their_backs():
    pipeline = Pipeline(ROOT, "hedgerow")
    kit = pipeline.kit()
    assert pipeline.report.ok()
    critters = [c for c in kit.cards if c.deck == "critters"]
    goals = [c for c in kit.cards if c.deck == "goals"]
    assert len(critters) == 40 and len(goals) == 9
    assert {tuple(c.size) for c in critters} == {POKER} and {tuple(c.size) for c in goals} == {(44.45, 63.5)}
    assert {c.back.key for c in critters} == {"critters-back"}  # one back: the critters are shuffled face down
    assert kit.per_card_backs == {"goals", "tokens"}
    by_season = {}
    for card in goals:
        by_season.setdefault(card.back.key, set()).add(card.back.context["card"]["season"])
    assert sorted(map(sorted, by_season.values())) == [
        ["autumn"],
        ["spring"],
        ["summer"],
    ]  # one back per season, no more


def drawn_text(pdf, index: int, trim: tuple[float, float, float, float]) -> str:
    """Return the characters drawn inside a card's trim in drawing order, without spaces (turned cards too)."""
    x, top, w, h = trim
    region = pdf.pages[index].within_bbox((x * MM, top * MM, (x + w) * MM, (top + h) * MM))
    return re.sub(r"\s+", "", "".join(ch["text"] for ch in region.chars))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_critter_prints_its_row(kits, paper):
    expected = sorted(
        re.sub(r"\s+", "", r["name"] + r["kind"].upper() + r["points"] + printed(r["text"]) + r["habitat"].upper())
        for r in rows("critters.csv")
        for _ in range(int(r["copies"]))
    )
    reader = PdfReader(kits[paper])
    found = []
    with pdfplumber.open(kits[paper]) as pdf:
        for index, page in enumerate(reader.pages):
            label = page.extract_text() or ""
            if "critter cards" in label and "fronts" in label:
                found += [drawn_text(pdf, index, trim) for trim in forms(reader, index)]
    assert sorted(found) == expected


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_goal_prints_its_name_season_and_text(kits, paper):
    reader = PdfReader(kits[paper])
    pages = [normalize(p.extract_text() or "") for p in reader.pages]
    goal_pages = " ".join(t for t in pages if "season goals" in t and "fronts" in t)
    for row in rows("goals.csv"):
        for part in (row["name"], f"{row['season'].upper()} GOAL", printed(row["text"])):
            assert part in goal_pages
    backs = " ".join(t for t in pages if "season goals" in t and "backs" in t)
    assert all(backs.count(f"{season.upper()} SEASON GOAL") == 3 for season in ("spring", "summer", "autumn"))


def test_two_builds_are_byte_identical(kits, tmp_path):
    result = run_cli("build", "hedgerow", "--out", str(tmp_path), cwd=ROOT)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    for paper, path in kits.items():
        again = tmp_path / "hedgerow" / f"hedgerow-{paper}.pdf"
        assert hashlib.sha256(again.read_bytes()).digest() == hashlib.sha256(Path(path).read_bytes()).digest()


def forms(reader: PdfReader, index: int) -> list[tuple[float, float, float, float]]:
    """Return the trim of every card face drawn on a page, (x, top, w, h) in mm, turned cards included."""
    return [(p.x, p.bottom - p.h, p.w, p.h) for p in placements(reader, index)]


MM = 72 / 25.4
# deck -> (card size, cards on each of its sheets) per paper: poker 3 × 3 on A4, 4 × 2 turned on Letter;
# the nine mini goals fit one sheet on both, and so do the five round score tokens
RUNS = {
    "a4": {"critters": ((63.5, 88.9), [9, 9, 9, 9, 4]), "goals": ((44.45, 63.5), [9]), "tokens": ((16, 16), [5])},
    "letter": {"critters": ((63.5, 88.9), [8, 8, 8, 8, 8]), "goals": ((44.45, 63.5), [9]), "tokens": ((16, 16), [5])},
}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_each_deck_prints_on_sheets_of_its_own_size(kits, paper):
    reader = PdfReader(kits[paper])
    # cover, check, the sheets, the score board and its blank back, then the tuck boxes' pages (two boxes share
    # an A4 page), each with a blank back
    boxes = {"a4": 2, "letter": 3}[paper]
    assert len(reader.pages) == 2 + 2 * sum(len(c) for _, c in RUNS[paper].values()) + 2 + 2 * boxes
    index = 2
    for deck, (size, counts) in RUNS[paper].items():
        for count in counts:
            for side in ("fronts", "backs"):
                page = reader.pages[index]
                assert f"{deck[:-1]}" in (page.extract_text() or "").lower() and side in page.extract_text()
                trims = forms(reader, index)
                assert len(trims) == count, (deck, side)
                for _, _, w, h in trims:
                    assert sorted((round(w, 2), round(h, 2))) == sorted(size)  # its own size, turned or not
                left = min(t[0] for t in trims)
                top = min(t[1] for t in trims)
                right = max(t[0] + t[2] for t in trims)
                bottom = max(t[1] + t[3] for t in trims)
                box = [float(v) / MM for v in page.trimbox]
                sheet_h = float(page.mediabox.height) / MM
                assert box == pytest.approx([left, sheet_h - bottom, right, sheet_h - top], abs=0.02)
                index += 1
