"""Rich text: markup, line breaking with inline icons, non-breaking amounts, shrink-to-fit."""

from __future__ import annotations

import pytest
from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.layout.markup import MarkupError, Run, Style, parse, plain, with_icons
from generator.render.fonts import load_fonts
from generator.render.text import TextLayout, set_text

FONTS = load_fonts(ROOT / "fonts", ROOT)
WORDS = {"FEED": "feed", "PART": "part", "PARTS": "part", "point": "point", "points": "point"}


def lines(layout) -> list[str]:
    return ["".join(f"[{p.icon}]" if p.icon else p.text for p in line.pieces) for line in layout.lines]


def test_markup_runs_and_plain_text():
    runs = parse("<b>RUN:</b> Pay <icon feed>2 FEED<br><small>x &lt; y</small>")
    assert runs[0] == Run("RUN:", Style(bold=True))
    assert runs[2] == Run(icon="feed")
    assert runs[4].newline
    assert runs[5] == Run("x < y", Style(scale=0.72))
    assert plain("<b>RUN:</b> Pay <icon feed>2 FEED") == "RUN: Pay 2 FEED"


@pytest.mark.parametrize(
    "bad, message",
    [
        ("<b>open", "<b> is never closed"),
        ("</i>", "</i> does not close an open tag"),
        ("<blink>x</blink>", "unknown tag <blink> (known: b, i, small, nobr, color, icon, br)"),
        ("<icon>", "<icon> needs a name, e.g. <icon feed>"),
        ("a < b", "a lone '<' (write &lt; for a literal <)"),
        ("<color red>x</color>", "<color> needs a colour, e.g. <color #b0303a>"),
    ],
)
def test_bad_markup_is_explained(bad, message):
    with pytest.raises(MarkupError) as caught:
        parse(bad)
    assert str(caught.value) == message


def test_amounts_get_icons_and_stay_whole():
    assert with_icons("Pay 1 PART to gain 3 FEED and 1 point.", WORDS) == (
        "Pay <nobr><icon part>1 PART</nobr> to gain <nobr><icon feed>3 FEED</nobr> and "
        "<nobr><icon point>1 point</nobr>."
    )
    assert with_icons("A <b> & c", {}) == "A &lt;b&gt; &amp; c"


def test_lines_break_between_words_never_inside_an_amount():
    runs = parse("<b>RUN:</b> " + with_icons("Gain 1 FEED and 1 point.", WORDS))
    layout = set_text(runs, FONTS, family="body", size=10.5, min_size=None, width_mm=50.5, height_mm=20)
    assert lines(layout) == ["RUN: Gain [feed]1 FEED and", "[point]1 point."]
    assert layout.overflow is None


def test_text_shrinks_to_fit_then_reports_overflow():
    runs = parse("The quick brown fox jumps over the lazy dog. " * 3)
    fits = set_text(runs, FONTS, family="body", size=12, min_size=6, width_mm=40, height_mm=20)
    assert fits.overflow is None and 6 <= fits.size < 12
    cramped = set_text(runs, FONTS, family="body", size=12, min_size=10, width_mm=40, height_mm=10)
    assert cramped.size == 10
    assert cramped.overflow == "6 lines need 25.0 mm but the box is 10.0 mm high, even shrunk to the 10 pt minimum"


def test_a_word_wider_than_the_box_overflows():
    layout = set_text(
        parse("Supercalifragilistic"), FONTS, family="display", size=14, min_size=None, width_mm=10, height_mm=20
    )
    assert layout.overflow == "'Supercalifragilistic' is wider than the box"


def test_characters_a_font_lacks_fall_back_to_the_symbol_font():
    segments = FONTS.segments("Laps 1–6: 1 □ 2", FONTS.resolve("display"))
    assert segments == (
        ("Laps 1–6: 1 ", "cp-RobotoCondensed-Bold"),
        ("□", "cp-DejaVuSans-Bold"),
        (" 2", "cp-RobotoCondensed-Bold"),
    )


def _runs_of(text: str, style: Style) -> list[Run]:
    """Return plain text as markup gives it: a run per line (none for an empty one), breaks between."""
    runs: list[Run] = []
    for i, line in enumerate(text.split("\n")):
        runs += ([Run(newline=True)] if i else []) + ([Run(line, style)] if line else [])
    return runs


def _halves(run: Run) -> list[Run]:
    half = len(run.text) // 2
    return [Run(run.text[:half], run.style), Run(run.text[half:], Style(bold=True))] if half else [run]


def _with_and_without_whole_lines(runs: list[Run], **box) -> tuple[TextLayout, TextLayout]:
    """Set `runs` in a box 40 mm high with the shortcut for whole lines, and atom by atom without it."""
    import generator.render.text as setting

    quick = set_text(runs, FONTS, min_size=None, height_mm=40, **box)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(setting, "_whole_lines", lambda *args: None)
        slow = set_text(runs, FONTS, min_size=None, height_mm=40, **box)
    return quick, slow


@settings(max_examples=400, deadline=None)
@given(
    text=st.text(alphabet=st.sampled_from("ab Wi.,1 \n"), max_size=40)
    | st.text(st.sampled_from("a W\u00e9\u00b7\u4e00\u4e01\u3042\n"), max_size=12),
    size=st.sampled_from([6.0, 9.0, 13.0]),
    width=st.floats(5, 60),
    style=st.sampled_from([Style(), Style(bold=True), Style(scale=0.72, colour="#aa0000"), Style(nobreak=True)]),
    family=st.sampled_from([None, "display", "condensed", "cjk"]),
    split=st.booleans(),
)
def test_lines_set_without_atoms_are_the_lines_the_atoms_set(text, size, width, style, family, split):
    """The shortcut for whole lines gives what setting atom by atom gives, to the bit; else it steps aside."""
    runs = _runs_of(text, style)
    if split:  # a change of style halfway through each line: two runs on one line
        runs = [part for r in runs for part in ([r] if r.newline else _halves(r))]
    quick, slow = _with_and_without_whole_lines(runs, family=family, size=size, width_mm=width)
    assert quick == slow


def test_plain_words_that_fit_are_set_line_by_line_without_atoms(monkeypatch):
    import generator.render.text as setting

    monkeypatch.setattr(setting, "_atoms", None)  # the shortcut alone: any use of atoms fails
    runs = [Run("  Gain 4  ore. "), Run(newline=True), Run(newline=True), Run("Scale · page 2")]
    layout = set_text(runs, FONTS, family=None, size=9, min_size=None, width_mm=60, height_mm=20)
    assert lines(layout) == ["Gain 4  ore.", "", "Scale · page 2"] and layout.lines[0].pieces[0].x == 0.0
    assert layout.lines[0].width == layout.lines[0].pieces[0].width > 0


def test_a_run_that_must_not_break_is_set_by_its_atoms_spaces_and_all():
    layout = set_text(
        [Run("a ", Style(nobreak=True))], FONTS, family=None, size=9, min_size=None, width_mm=60, height_mm=8
    )
    assert lines(layout) == ["a "]  # glue keeps its trailing space; the shortcut would drop it


@pytest.mark.parametrize("text", ["一あ送、漢一「送漢、、字", "「丁」あ一」漢送あ」"])
def test_a_cjk_word_that_fits_is_left_to_the_atoms_whose_widths_it_keeps_to_the_bit(text):
    """A word of CJK characters is measured a character at a time, as the atoms measure it (where a line may
    break): measured whole, these lines would come out a few bits wider or narrower than the atoms' sum."""
    runs = _runs_of(text, Style(scale=0.72))  # 6.48 pt: sizes where the two sums part
    quick, slow = _with_and_without_whole_lines(runs, family="cjk", size=9.0, width_mm=70)
    assert [line.width for line in quick.lines] == [line.width for line in slow.lines]
    assert len(quick.lines) == 1 and quick == slow
