"""A kit's rules pages kept between runs: replayed calls draw the same bytes, without platypus, and only from
the canvas state they were recorded in."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest
from conftest import ROOT
from reportlab.pdfgen.canvas import Canvas

from generator.pipeline import Pipeline
from generator.render import keptrules, rulespages

GAMES = ("pocket-foundry", "micro-engine", "hedgerow", "pocket-foundry-fr")


def build_twice(cache) -> tuple[dict[str, object], dict[str, object]]:
    """Build the kits in two fresh processes sharing `cache`: what each wrote, and whether it loaded platypus."""
    code = (
        "import hashlib, json, os, sys\n"
        f"os.environ['CARDPRESS_CACHE'] = {str(cache)!r}\n"
        "from pathlib import Path\n"
        "from generator.pipeline import Pipeline\n"
        "out = {}\n"
        f"for game in {GAMES!r}:\n"
        f"    pdfs = Pipeline(Path({str(ROOT)!r}), game).render(['a4', 'letter'])\n"
        "    out.update({f'{game}-{p}': hashlib.sha256(b).hexdigest() for p, b in pdfs.items()})\n"
        "out['platypus'] = 'reportlab.platypus' in sys.modules\n"
        "print(json.dumps(out))"
    )
    runs = []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        runs.append(json.loads(done.stdout.splitlines()[-1]))
    return runs[0], runs[1]


def test_kept_rules_pages_replay_the_same_bytes_without_platypus(tmp_path):
    first, second = build_twice(tmp_path / "cache")
    assert first.pop("platypus") is True  # set for real, and recorded as drawn
    assert second.pop("platypus") is False  # every page replayed from what the first run kept
    assert second == first
    assert len(list((tmp_path / "cache" / keptrules.FOLDER).glob("*.pickle"))) == 2 * len(GAMES)


@pytest.fixture(scope="module")
def pocket_foundry():
    pipe = Pipeline(ROOT, "pocket-foundry")
    kit, studio = pipe.kit(), pipe.studio()
    assert kit is not None and studio is not None
    return kit, studio


def drawn(book, font: str, index: int) -> bytes:
    """Return the PDF of page `index` of `book` drawn alone on a canvas that starts in `font`."""
    canvas = Canvas(io.BytesIO(), invariant=1, pageCompression=0, initialFontName=font, initialFontSize=10)
    book.draw(canvas, index)
    canvas.showPage()
    return canvas.getpdfdata()


def test_a_recording_is_replayed_only_from_the_state_it_was_made_in(pocket_foundry, monkeypatch, tmp_path):
    monkeypatch.setenv("CARDPRESS_CACHE", str(tmp_path))
    monkeypatch.setattr(keptrules, "_MEMO", {})
    kit, studio = pocket_foundry
    real = rulespages.rules_book(kit, "a4", "long", studio.fonts, studio.icons)
    body, other = studio.fonts.resolve("body"), studio.fonts.resolve("condensed")
    book = keptrules.rules_book(kit, "a4", "long", studio.fonts, studio.icons)
    assert book is not None and len(book) == len(real) > 1
    assert drawn(book, body, 1) == drawn(real, body, 1)  # drawn for real, and recorded
    sets = []
    book.typeset = lambda: sets.append(1) or real
    assert drawn(book, body, 1) == drawn(real, body, 1)  # replayed
    assert sets == []
    # Platypus sets a paragraph's font only when the canvas is in another: from another font, set it again.
    assert drawn(book, other, 1) == drawn(real, other, 1)
    assert sets == [1]


def test_kept_rulebooks_are_read_back_by_their_inputs_and_a_torn_one_is_set_again(
    pocket_foundry, monkeypatch, tmp_path
):
    monkeypatch.setenv("CARDPRESS_CACHE", str(tmp_path))
    monkeypatch.setattr(keptrules, "_MEMO", {})
    kit, studio = pocket_foundry
    book = keptrules.rules_book(kit, "a4", "long", studio.fonts, studio.icons)
    body = studio.fonts.resolve("body")
    expected = [drawn(book, body, i) for i in range(len(book))]
    keptrules.keep(book)
    entry = tmp_path / keptrules.FOLDER / f"{book.key}.pickle"
    assert entry.is_file()

    monkeypatch.setattr(keptrules, "_MEMO", {})
    again = keptrules.rules_book(kit, "a4", "long", studio.fonts, studio.icons)
    again.typeset = lambda: pytest.fail("a kept rulebook was set again")
    assert again.key == book.key and len(again) == len(book)
    assert [drawn(again, body, i) for i in range(len(again))] == expected

    letter = keptrules.rules_book(kit, "letter", "long", studio.fonts, studio.icons)
    assert letter.key != book.key  # another format: another entry

    entry.write_bytes(entry.read_bytes()[:-40])  # torn: its seal no longer matches
    monkeypatch.setattr(keptrules, "_MEMO", {})
    torn = keptrules.rules_book(kit, "a4", "long", studio.fonts, studio.icons)
    assert torn.kept.drawn == {} and torn.kept.changed
    assert [drawn(torn, body, i) for i in range(len(torn))] == expected


def test_only_the_most_recently_kept_rulebooks_stay(pocket_foundry, monkeypatch, tmp_path):
    monkeypatch.setenv("CARDPRESS_CACHE", str(tmp_path))
    monkeypatch.setattr(keptrules, "_MEMO", {})
    monkeypatch.setattr(keptrules, "KEPT", 1)
    kit, studio = pocket_foundry
    books = [keptrules.rules_book(kit, paper, "long", studio.fonts, studio.icons) for paper in ("a4", "letter")]
    keptrules.keep(books[0])
    first = tmp_path / keptrules.FOLDER / f"{books[0].key}.pickle"
    os.utime(first, ns=(10**18, 10**18))  # written long before the next
    keptrules.keep(books[1])
    assert sorted(p.name for p in (tmp_path / keptrules.FOLDER).iterdir()) == [f"{books[1].key}.pickle"]
