"""Glyph coverage: every printed character is drawn with a real glyph (fallback fonts for CJK, emoji and
symbols), and a character no font has is a located error before anything prints, never an empty box."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from conftest import run_cli
from deck_helpers import GAME_YAML, deck_project, headlines
from hypothesis import given, settings
from hypothesis import strategies as st
from reportlab.pdfbase.ttfonts import TTFont

from generator.layout.markup import Run
from generator.pipeline import Pipeline
from generator.render import fonts
from generator.render.text import _units, set_text

ROOT = Path(__file__).resolve().parent.parent
CHAIN = "Lato-Regular.ttf, DejaVuSans.ttf, NotoSansSymbols2-Regular.ttf, NotoEmoji-Regular.ttf, NotoSansJP-Regular.ttf"

WORLD = """\
id,name,copies,cost,text
dragon,日本の竜,1,3,竜は火を吐く。カードを二枚引いて、一枚を捨てる。「炎」の効果は次のターンまで続く。
rocket,Rocket 🚀,1,2,Launch 🚀 then ✨ draw ⭐ and 🐉 roars 👍
creme,Crème brûlée,1,1,"Ça coûte €5 — naïve façade, Øre, Łódź, Ærø, İstanbul"
symbols,Symbols ♞,1,0,♔ ♞ ⚀ ⚅ ☂ ⯑ ↯ ✓ → ½ ①
"""


@pytest.fixture(scope="module")
def shipped():
    return fonts.load_fonts(ROOT / "fonts", ROOT)


@pytest.mark.parametrize(
    "text, family, missing",
    [
        ("Feed Belt", None, ""),
        ("Feed Belt 🚀", None, ""),  # Noto Emoji (monochrome)
        ("送り帯", "display", ""),  # Noto Sans JP
        ("日本の竜 ⯑ ♞ ✓ →", "body", ""),  # kanji and kana, Noto Sans Symbols 2, DejaVu
        ("Ünïcödé Ωμέγα Кириллица", "condensed", ""),
        ("tab\tnew\nline\u00adsoft\u200dzwj ☂\ufe0f", None, ""),  # white space, format controls, variation selectors
        ("𠮷野家", "body", "𠮷"),  # outside JIS X 0208: no shipped font has it
        ("𠮷𠮷𐍈", "body", "𠮷𐍈"),  # each character once, in order of first use
    ],
)
def test_undrawable_characters_are_listed(shipped, text, family, missing):
    assert fonts.undrawable(text, shipped, family) == missing
    assert shipped.undrawable(text, family, bold=True) == missing


def test_the_chain_in_each_weight_and_the_message_names_each_character_and_the_fonts_tried(shipped):
    assert shipped.tried("body") == CHAIN
    assert shipped.tried("body", bold=True) == (
        "Lato-Bold.ttf, DejaVuSans-Bold.ttf, NotoSansSymbols2-Regular.ttf, NotoEmoji-Regular.ttf, NotoSansJP-Bold.ttf"
    )
    assert [face for _, face in shipped.segments("a♞⯑🚀竜", shipped.resolve("body"))] == [
        "cp-Lato-Regular",
        "cp-DejaVuSans",
        "cp-NotoSansSymbols2-Regular",
        "cp-NotoEmoji-Regular",
        "cp-NotoSansJP-Regular",
    ]
    assert fonts.glyph_message("🚀送", "A.ttf, B.ttf") == (
        "no font can draw '🚀' (U+1F680 ROCKET), '送' (U+9001 CJK UNIFIED IDEOGRAPH-9001) (tried A.ttf, B.ttf); "
        "it would print as an empty box"
    )
    assert fonts.glyph_message("abcdefg").endswith(
        "'e' (U+0065 LATIN SMALL LETTER E) and 2 more; it would print as an empty box"
    )


def _drawn(pdf: Path) -> list[tuple[str, str]]:
    """Return (character, PostScript name of the font that drew it) for every character on every page."""
    with pdfplumber.open(pdf) as doc:
        return [(c["text"], c["fontname"].split("+")[-1]) for page in doc.pages for c in page.chars]


def test_a_deck_of_cjk_emoji_accented_and_symbol_text_prints_every_character_with_a_real_glyph(tmp_path):
    project = deck_project(tmp_path, WORLD, GAME_YAML.replace("    markup: [text]\n", ""))
    out = tmp_path / "out"
    built = run_cli("build", "tiny", "--paper", "a4", "--out", str(out), cwd=project)
    assert built.returncode == 0 and "error" not in built.stderr, built.stderr
    pdf = next(out.rglob("*a4*.pdf"))
    cmaps = {}
    for path in (project / "fonts").glob("*.ttf"):
        face = TTFont("probe", str(path)).face
        cmaps[face.name.decode() if isinstance(face.name, bytes) else face.name] = face.charToGlyph
    drawn = _drawn(pdf)
    text = "".join(ch for ch, _ in drawn)
    for row in WORLD.splitlines()[1:]:  # every character of every card is in the PDF's text, emoji included
        for ch in row.replace('"', "").split(",", 5)[-1] + row.split(",")[1]:
            assert ch.isspace() or ch in text, ch
    assert "\ufffd" not in text
    missing = [(ch, font) for ch, font in drawn if not ch.isspace() and ord(ch) not in cmaps[font]]
    assert missing == []  # each character drawn by a font that has its glyph: no .notdef box anywhere
    used = {font for ch, font in drawn if ch in "竜🚀⯑"}
    assert used == {"NotoSansJP-Regular", "NotoSansJP-Bold", "NotoEmoji-Regular", "NotoSansSymbols2-Regular"}


def test_cjk_text_breaks_between_characters_and_keeps_closing_punctuation_on_its_line(tmp_path):
    project = deck_project(tmp_path, WORLD, GAME_YAML.replace("    markup: [text]\n", ""))
    pipeline = Pipeline(project, "tiny", missing_art="placeholder")
    faces = pipeline.layout()
    assert faces is not None and pipeline.report.ok(), headlines(pipeline.report)
    prepared = faces["dragon/front"]
    el = next(e for e in prepared.doc.elements if e.props.get("id") == "text")
    layout = prepared.texts[id(el)]
    lines = ["".join(p.text for p in line.pieces) for line in layout.lines]
    assert "".join(lines) == WORLD.splitlines()[1].split(",")[4]
    assert len(lines) >= 3 and layout.overflow is None
    width = (el.props["w"]) * 72 / 25.4
    assert all(line.width <= width + 1e-6 for line in layout.lines)
    assert not any(line[0] in "。、」）ー" for line in lines[1:])  # no line opens with closing punctuation


def test_a_character_no_font_has_fails_the_build_located_in_its_cell(tmp_path):
    csv = "id,name,copies,cost,text\nfox,Fox,1,1,Nap.\nyoshi,𠮷野家,1,2,Gain 2.\nowl,Owl,1,1,Hoot 𐍈 hoot\n"
    project = deck_project(tmp_path, csv)
    out = tmp_path / "out"
    built = run_cli("build", "tiny", "--paper", "a4", "--out", str(out), cwd=project)
    assert built.returncode == 1
    bold = CHAIN.replace("Lato-Regular", "RobotoCondensed-Bold").replace("DejaVuSans", "DejaVuSans-Bold")
    bold = bold.replace("NotoSansJP-Regular", "NotoSansJP-Bold")
    errors = [line for line in built.stderr.splitlines() if "error[" in line]
    assert errors == [
        "cards/tiny/cards.csv:3:7: error[F004] yoshi/front: name: no font can draw '𠮷' "
        f"(U+20BB7 CJK UNIFIED IDEOGRAPH-20BB7) (tried {bold}); it would print as an empty box",
        "cards/tiny/cards.csv:4:18: error[F004] owl/front: text: no font can draw '𐍈' "
        f"(U+10348 GOTHIC LETTER HWAIR) (tried {CHAIN}); it would print as an empty box",
    ]
    assert " 3 | yoshi,𠮷野家,1,2,Gain 2." in built.stderr
    assert not out.exists() or not list(out.rglob("*.pdf"))


def test_a_character_in_a_yaml_card_or_a_template_is_located_where_it_is_written(tmp_path):
    game = GAME_YAML.replace("cards: cards.csv", "cards: cards.yaml")
    cards = "- {name: Fox, cost: '1', text: Nap.}\n- name: Owl\n  cost: '2'\n  text: |\n    Hoot,\n    hoot 𐍈.\n"
    back = '{% import "macros.j2" as m %}\nelements:\n- {{ m.text(6, 8, 40, 10, "Back \U0001d11e", plain=true) }}\n'
    project = deck_project(tmp_path, None, game, files={"cards.yaml": cards, "layouts/back.yaml.j2": back})
    pipeline = Pipeline(project, "tiny", missing_art="placeholder")
    pipeline.layout()
    found = sorted({(d.loc.file, d.loc.line, d.loc.col) for d in pipeline.report.items if d.code == "F004"})
    assert found == [("cards/tiny/cards.yaml", 6, 10), ("cards/tiny/layouts/back.yaml.j2", 3, 33)]


@settings(max_examples=60, deadline=None)
@given(
    text=st.text(alphabet="日本の竜は火を吐くカード二枚引いて、。「」ーッ🚀 Rocket", min_size=1, max_size=80),
    width=st.floats(min_value=8, max_value=60),
)
def test_cjk_lines_never_pass_the_box_and_shrinking_still_fits(shipped, text, width):
    layout = set_text([Run(text)], shipped, family="body", size=10, min_size=5, width_mm=width, height_mm=200)
    limit = width * 72 / 25.4
    units = [u for w in text.split(" ") for u in _units(w)]
    widest = max((shipped.width(u, shipped.resolve("body"), layout.size) for u in units if u), default=0)
    if widest <= limit:
        assert layout.overflow is None
        assert all(line.width <= limit + 1e-6 for line in layout.lines)
    assert "".join("".join(p.text for p in line.pieces) for line in layout.lines).replace(" ", "") == text.replace(
        " ", ""
    )
    small = set_text([Run(text)], shipped, family="body", size=10, min_size=5, width_mm=width, height_mm=9)
    if small.overflow is None:
        assert small.height <= 9 * 72 / 25.4 + 0.01 and small.size >= 5


def test_an_edition_gives_its_own_fallback_chain_naming_its_own_fonts(tmp_path):
    import shutil

    own = tmp_path / "cards" / "fan" / "fonts"
    own.mkdir(parents=True)
    shutil.copy(ROOT / "fonts" / "NotoEmoji-Regular.ttf", own / "Mono.ttf")
    (own / "fonts.yaml").write_text("families:\n  mono: {regular: Mono.ttf}\nfallback: [mono, cjk]\n")
    chained = fonts.load_fonts(ROOT / "fonts", tmp_path, [("fan", own)])
    assert chained.fallback == ("mono", "cjk")
    assert chained.tried("body") == "Lato-Regular.ttf, Mono.ttf, NotoSansJP-Regular.ttf"
    assert chained.undrawable("→ 🚀 竜", "body") == ""  # Lato's own arrow, the edition's emoji, the base's kanji
    assert chained.undrawable("♞", "body") == "♞"  # DejaVu is no longer in this chain
    (own / "fonts.yaml").write_text("families:\n  mono: {regular: Mono.ttf}\nfallback: [mono, nope]\n")
    with pytest.raises(fonts.CardpressError) as caught:
        fonts.load_fonts(ROOT / "fonts", tmp_path, [("fan", own)])
    assert [d.headline() for d in caught.value.report.items] == [
        "cards/fan/fonts/fonts.yaml:3:18: error[F002] fallback[1]: fallback family 'nope' is not defined"
    ]
