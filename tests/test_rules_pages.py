"""The rulebook typeset into the kit: every paragraph word for word, placement, the booklet, the rules PDFs."""

from __future__ import annotations

import io
import re
import shutil
import zipfile
from pathlib import Path

import numpy as np
import pdfplumber
import pypdfium2
import pytest
from conftest import ROOT, copy_project
from hypothesis import given
from hypothesis import strategies as st

from generator.export.options import ExportOptions
from generator.export.runner import run as export
from generator.impose import booklet
from generator.impose.plan import Imposition
from generator.pipeline import Pipeline
from generator.render import rulespages
from generator.source.rulesdoc import parse

GAMES = ("pocket-foundry", "micro-engine", "hedgerow", "pocket-foundry-unjammed", "micro-engine-even-race")
EDGE = 5.0  # mm: no ink nearer the paper's edge than this
PT = 72 / 25.4


def _words(text: str) -> str:
    """Return text as a line of words: the PDF's line breaks are spaces; a presentation selector is no word."""
    return re.sub(r"\s+", " ", text.replace("\ufe0f", "")).strip()


def _rulebook_blocks(game: str, title: str, fonts) -> list[str]:
    """Return every block of the game's rulebook (through its chain) as the PDF's text must hold it.

    A symbol no configured font can encode (🧲) prints as its icon only: it has no text in any PDF.
    """
    path = Pipeline(ROOT, game).kit().rules.source
    text = (ROOT / path).read_text(encoding="utf-8")
    missing = fonts.undrawable(text)
    return [_words("".join(ch for ch in b.text if ch not in missing)) for b in parse(text, title)]


@pytest.fixture(params=GAMES)
def laid_out(request):
    """The game carried to the layout stage, with its rules typeset (a pipeline per test: each has a CPU budget)."""
    pipe = Pipeline(ROOT, request.param)
    kit, studio = pipe.kit(), pipe.studio()
    assert kit is not None and studio is not None and kit.rules is not None, pipe.report.items
    return request.param, pipe, kit, studio


def _columns_text(pdf_bytes: bytes, book: rulespages.RulesBook, pages: range) -> str:
    """Return the text of the rules pages column by column, in reading order (page furniture left out)."""
    out = []
    with pdfplumber.open(io.BytesIO(pdf_bytes)) as pdf:
        for n, index in enumerate(pages):
            page = pdf.pages[index]
            height = float(page.height)
            if n == 0:  # the title block across the top of page 1
                fmt = book.fmt
                top = fmt.top * PT - 2
                out.append(page.crop((0, top, float(page.width), top + book.title_height)).extract_text())
            for x, y, w, h in book.frames(n):
                out.append(page.crop((x - 1, height - y - h - 1, x + w + 1, height - y + 1)).extract_text())
    return _words(" ".join(out))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_paragraph_of_the_rulebook_is_in_the_kit_word_for_word(laid_out, paper):
    game, pipe, kit, studio = laid_out
    pdfs = pipe.render([paper])
    assert pdfs is not None, pipe.report.items
    book = rulespages.rules_book(kit, paper, "long", studio.fonts, studio.icons)
    assert book is not None and len(book) >= 1
    imposed = pipe.imposition(paper)
    assert isinstance(imposed, Imposition)
    first = next(i for i, page in enumerate(imposed.plan.pages) if page.kind == "rules")
    with pdfplumber.open(io.BytesIO(pdfs[paper])) as pdf:  # only that page's footer: reading all is slow
        assert pdf.pages[first].extract_text().splitlines()[-1].endswith(f"rules, page 1 of {len(book)}")
    text = _columns_text(pdfs[paper], book, range(first, first + len(book)))
    blocks = _rulebook_blocks(game, kit.title, studio.fonts)
    missing = [b for b in blocks if b not in text]
    assert missing == []
    assert len(blocks) >= 25  # headings, paragraphs and items: the whole rulebook, not a stub


def test_the_rules_pdf_and_the_booklet_hold_every_paragraph(laid_out):
    game, _, kit, studio = laid_out
    book = rulespages.typeset(
        kit.rules, "a5", kit.title, kit.context["style"], kit.text_icons, studio.fonts, studio.icons
    )
    text = _columns_text(rulespages.pdf(book, kit.title), book, range(len(book)))
    assert [b for b in _rulebook_blocks(game, kit.title, studio.fonts) if b not in text] == []
    imposed = rulespages.booklet_pdf(book, (210.0, 297.0), kit.title)
    sheets = pypdfium2.PdfDocument(imposed)
    assert len(sheets) == booklet.padded(len(book)) // 2  # two booklet pages a side
    words = _words(" ".join(sheets[i].get_textpage().get_text_range() for i in range(len(sheets))))
    for heading in [b.text for b in parse(kit.rules.text, kit.title) if b.kind == "heading"]:
        assert _words(heading) in words


def test_inline_icons_are_drawn_and_keep_their_symbols(laid_out):
    game, _, kit, studio = laid_out
    book = rulespages.typeset(
        kit.rules, "a4", kit.title, kit.context["style"], kit.text_icons, studio.fonts, studio.icons
    )
    data = rulespages.pdf(book, kit.title)
    text = " ".join(p.get_textpage().get_text_range() for p in pypdfium2.PdfDocument(data))
    if game.startswith("micro-engine"):  # its four connection symbols print as the cards' glyphs
        assert {c.icon for c in kit.text_icons} == {
            "conn-mechanical",
            "conn-electricity",
            "conn-steam",
            "conn-magnetic",
        }
        for symbol in ("⚙", "⚡", "♨"):  # 🧲 too once a font can encode it: no configured font has it yet
            assert symbol in text  # invisible under the glyph: copying the page copies the rulebook
    elif game.startswith("pocket-foundry"):
        assert {c.text for c in kit.text_icons} >= {"FEED", "PART", "PARTS", "points"}
    else:
        assert kit.text_icons == ()


def test_rules_pages_keep_ink_5_mm_from_every_edge():
    pipe = Pipeline(ROOT, "micro-engine")
    kit, studio = pipe.kit(), pipe.studio()
    for paper, fmt in (("a4", "a4"), ("letter", "letter"), ("a4", "a5")):
        book = rulespages.typeset(
            kit.rules, fmt, kit.title, kit.context["style"], kit.text_icons, studio.fonts, studio.icons
        )
        pdf = pypdfium2.PdfDocument(rulespages.pdf(book, kit.title))
        for page in pdf:
            pixels = np.asarray(page.render(scale=2).to_pil().convert("L")) < 200  # ink, at 144 dpi
            margin = round(EDGE * 2 * 72 / 25.4)
            border = pixels.copy()
            border[margin:-margin, margin:-margin] = False
            assert pixels.any() and not border.any(), (fmt, paper)


def test_headings_keep_with_what_follows_them():
    pipe = Pipeline(ROOT, "pocket-foundry")
    kit, studio = pipe.kit(), pipe.studio()
    for fmt in rulespages.FORMATS:
        book = rulespages.typeset(
            kit.rules, fmt, kit.title, kit.context["style"], kit.text_icons, studio.fonts, studio.icons
        )
        for index in range(len(book)):
            for x, y, _w, h in book.frames(index):
                column = [p for p in book.pages[index] if x - 1 <= p.x <= x + 1 and y - 1 <= p.y <= y + h]
                column.sort(key=lambda p: -p.y)
                if column:
                    last = column[-1].flowable
                    assert getattr(getattr(last, "style", None), "name", "") not in ("heading1", "heading2"), fmt


def test_the_rulebook_reads_as_headings_lists_and_a_worked_example():
    blocks = parse(
        (ROOT / "cards" / "micro-engine" / "rulebook.txt").read_text(encoding="utf-8"), "Micro-Engine: Pocket Workshop"
    )
    assert blocks[0].kind == "title" and blocks[0].text == "Micro-Engine: Pocket Workshop"
    assert [b.text for b in blocks if b.kind == "heading"][:3] == ["Components", "Setup", "Card Anatomy"]
    setup = [b for b in blocks if b.kind == "item" and b.marker.endswith(".")][:5]
    assert [(b.marker, b.lead) for b in setup] == [
        ("1.", "Patents."),
        ("2.", "Workshop Row."),
        ("3.", "Cores."),
        ("4.", "Hands."),
        ("5.", "First player."),
    ]
    example = [b.text for b in blocks if b.example]
    assert example[0] == "Your chain ends with Dynamo Coil (Output ⚡)."
    assert len(example) == 6 and example[-1].startswith("Patent. You played a Part")  # its five steps, no more


def test_wrapped_paragraphs_and_items_are_joined_and_capital_headings_found():
    text = "GAME\nA short game.\n\nSETUP\nDeal five cards to\neach player.\n- One item that runs\n  over two lines.\n2. Two\n"
    blocks = parse(text, "Game")
    assert [(b.kind, b.text) for b in blocks] == [
        ("title", "GAME"),
        ("paragraph", "A short game."),
        ("heading", "SETUP"),
        ("paragraph", "Deal five cards to each player."),
        ("item", "One item that runs over two lines."),
        ("item", "Two"),
    ]
    assert [b.line for b in blocks] == [1, 2, 4, 5, 7, 9]


def test_a_heading_followed_by_headings_is_a_chapter_of_sections():
    blocks = parse("Title\nRules\nA part\nWords here.\nAnother part\nMore words.\n", "Title")
    assert [(b.kind, b.level) for b in blocks] == [
        ("title", 1),
        ("heading", 1),
        ("heading", 2),
        ("paragraph", 1),
        ("heading", 2),
        ("paragraph", 1),
    ]


# -- the booklet -----------------------------------------------------------------------------------------------


def test_booklet_order_for_eight_pages():
    assert booklet.order(8) == [((8, 1), (2, 7)), ((6, 3), (4, 5))]
    assert booklet.order(5) == booklet.order(8)  # padded with blanks to a multiple of four


def _read_folded(pages: int, duplex: str) -> list[int | None]:
    """Print the slots on paper, flip each sheet as the duplex edge says, nest and fold: return the reading order.

    A portrait side is 2 units wide by 2 tall, the top half y in (0, 1) (y grows downward). Each page is a
    point: its centre and the direction its top faces. The front is turned to landscape clockwise; the back
    is seen after turning the sheet over like a book page (about the landscape's vertical axis).
    """
    sides = booklet.slots(pages, duplex)
    sheets = []
    for front, back in zip(sides[::2], sides[1::2]):
        views = []
        for n, side in enumerate((front, back)):
            seen = {}
            for slot in side:
                x, y = 1.0, 0.5 if slot.half == "top" else 1.5  # the slot's centre on the portrait side
                up = (-1, 0) if slot.turn == 90 else (1, 0)  # the page's top faces the left or right edge
                if n == 1:  # the back as it lies on the paper: a long-edge flip mirrors x, a short-edge one y
                    x, up = (2 - x, (-up[0], up[1])) if duplex == booklet.LONG else (x, up)
                    y, up = (y, up) if duplex == booklet.LONG else (2 - y, (up[0], -up[1]))
                # the front turned clockwise to landscape: (x, y) -> (2 - y, x); the top direction turns too
                across, facing = 2 - y, (-up[1], up[0])
                if n == 1:  # the back seen after turning the landscape sheet over about its vertical axis
                    across, facing = 2 - across, (-facing[0], facing[1])
                assert facing == (0, -1), (slot, duplex)  # upright: its top faces up
                seen["left" if across < 1 else "right"] = slot.page
            views.append(seen)
        sheets.append(views)
    first = [p for (front, back) in sheets for p in (front["right"], back["left"])]
    second = [p for (front, back) in reversed(sheets) for p in (back["right"], front["left"])]
    return first + second


@pytest.mark.parametrize("duplex", [booklet.LONG, booklet.SHORT])
@given(pages=st.integers(1, 40))
def test_a_printed_and_folded_booklet_reads_in_order(duplex, pages):
    order = _read_folded(pages, duplex)
    assert order == [*range(pages), *([None] * (booklet.padded(pages) - pages))]


def test_booklet_in_the_kit_replaces_full_pages(tmp_path):
    root = copy_project(tmp_path, ("hedgerow",))
    game_yaml = root / "cards" / "hedgerow" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8") + "rules_pages: {booklet: true, place: after-cover}\n")
    pipe = Pipeline(root, "hedgerow")
    pdfs = pipe.render(["a4"])
    assert pdfs is not None, pipe.report.items
    reader = pypdfium2.PdfDocument(pdfs["a4"])
    labels = [reader[i].get_textpage().get_text_range() for i in range(len(reader))]
    assert "HEDGEROW" in labels[2] and "COMPONENTS" in labels[2]  # after the cover and its duplex check
    kit, studio = pipe.kit(), pipe.studio()
    book = rulespages.rules_book(kit, "a4", "long", studio.fonts, studio.icons)
    assert book is not None and book.fmt.name == "a5"
    sides = booklet.padded(len(book)) // 2
    assert all(reader[i].get_size() == pytest.approx((595.28, 841.89), abs=0.01) for i in range(2, 2 + sides))
    assert "Rules · a booklet of" in labels[0]


# -- where the rules go ----------------------------------------------------------------------------------------


def _labels(root: Path, game: str, paper: str = "a4") -> list[str]:
    pipe = Pipeline(root, game)
    pdfs = pipe.render([paper])
    assert pdfs is not None, pipe.report.items
    with pdfplumber.open(io.BytesIO(pdfs[paper])) as pdf:
        texts = [p.extract_text() or "" for p in pdf.pages]
    return [text.splitlines()[-1] if text else "" for text in texts]


def test_rules_go_at_the_end_by_default_after_the_cover_when_asked_or_nowhere(tmp_path):
    root = copy_project(tmp_path, ("hedgerow",))
    end = _labels(root, "hedgerow")
    assert end[-2].endswith("rules, page 1 of 1") and end[-1].endswith("back of the rules")  # an even count
    game_yaml = root / "cards" / "hedgerow" / "game.yaml"
    original = game_yaml.read_text(encoding="utf-8")
    game_yaml.write_text(original + "rules_pages: {place: after-cover}\n")
    cover = _labels(root, "hedgerow")
    assert cover[2].endswith("rules, page 1 of 1") and len(cover) == len(end)
    game_yaml.write_text(original + "rules_pages: {place: none}\n")
    assert len(_labels(root, "hedgerow")) == len(end) - 2


def test_a_bad_rules_pages_value_is_a_located_error(tmp_path):
    root = copy_project(tmp_path, ("hedgerow",))
    game_yaml = root / "cards" / "hedgerow" / "game.yaml"
    lines = game_yaml.read_text(encoding="utf-8").splitlines()
    game_yaml.write_text(
        "\n".join([*lines, "rules_pages:", "  place: middle", "  booklet: yes please", "  folded: true"]) + "\n"
    )
    pipe = Pipeline(root, "hedgerow")
    assert pipe.render(["a4"]) is None
    n = len(lines)
    assert [d.headline() for d in pipe.report.items] == [
        f"cards/hedgerow/game.yaml:{n + 4}:3: error[S003] rules_pages.folded: unknown key 'folded'",
        f"cards/hedgerow/game.yaml:{n + 3}:12: error[S001] rules_pages.booklet: expected true or false, got string 'yes please'",
        f"cards/hedgerow/game.yaml:{n + 2}:10: error[S004] rules_pages.place: must be one of after-cover, end, none; got string 'middle'",
    ]


def test_an_edition_inherits_its_base_rulebook_when_it_has_none(tmp_path):
    root = copy_project(tmp_path, ("micro-engine", "micro-engine-even-race"))
    (root / "cards" / "micro-engine-even-race" / "rulebook.txt").unlink()
    shutil.rmtree(root / "cards" / "micro-engine-even-race" / "scenarios.yaml", ignore_errors=True)
    pipe = Pipeline(root, "micro-engine-even-race")
    kit = pipe.kit()
    assert kit is not None and kit.rules is not None
    assert kit.rules.source == "cards/micro-engine/rulebook.txt"
    assert kit.rules.text.startswith("Micro-Engine: Pocket Workshop")


def test_edition_covers_point_at_their_rules_pages():
    for game in ("pocket-foundry-unjammed", "micro-engine-even-race"):
        pipe = Pipeline(ROOT, game)
        pdfs = pipe.render(["a4"])
        assert pdfs is not None
        cover = pypdfium2.PdfDocument(pdfs["a4"])[0].get_textpage().get_text_range()
        assert "rulebook.txt" not in cover
        pages = re.search(r"Pages (\d+)–(\d+)\s+Rules", cover)
        assert pages is not None, cover
        assert f"Rules, with every change: pages {pages[1]}–{pages[2]}" in _words(cover)


def test_the_bundle_and_print_shops_carry_the_rules(tmp_path):
    root = copy_project(tmp_path, ("hedgerow",))
    result = export(root, "hedgerow", ["bundle", "makeplayingcards"], tmp_path / "out", ExportOptions())
    assert not result.failed, [d.headline() for d in result.report.items]
    names = {p.name for p in result.written}
    assert {"hedgerow-rules-a5.pdf", "hedgerow-rules-half-letter.pdf"} <= names
    bundle = zipfile.ZipFile(tmp_path / "out" / "hedgerow" / "bundle" / "hedgerow-bundle.zip")
    rules = sorted(n for n in bundle.namelist() if n.startswith("rules/"))
    assert rules == [
        "rules/hedgerow-rules-a4.pdf",
        "rules/hedgerow-rules-booklet-a4.pdf",
        "rules/hedgerow-rules-booklet-letter.pdf",
        "rules/hedgerow-rules-letter.pdf",
    ]
    a5 = pypdfium2.PdfDocument(tmp_path / "out" / "hedgerow" / "makeplayingcards" / "hedgerow-rules-a5.pdf")
    assert a5[0].get_size() == pytest.approx((148.5 * PT, 210 * PT), abs=0.01)


def test_rules_pdfs_are_the_same_bytes_when_made_again():
    pipe = Pipeline(ROOT, "hedgerow")
    kit, studio = pipe.kit(), pipe.studio()
    book = rulespages.typeset(kit.rules, "letter", kit.title, kit.context["style"], (), studio.fonts, studio.icons)
    assert rulespages.pdf(book, kit.title) == rulespages.pdf(book, kit.title)


def test_a_rulebook_that_is_not_text_is_a_located_error_and_nothing_is_printed(tmp_path):
    root = copy_project(tmp_path, ("hedgerow",))
    (root / "cards" / "hedgerow" / "rulebook.txt").write_bytes(b"HEDGEROW\n\xff\xfe bad\n")
    pipe = Pipeline(root, "hedgerow")
    assert pipe.render(["a4"]) is None
    assert [d.headline() for d in pipe.report.items] == [
        "cards/hedgerow/rulebook.txt:1:1: error[B020] rulebook.txt cannot be printed as rules pages: "
        "file is not UTF-8 text (invalid start byte at byte 9)"
    ]
