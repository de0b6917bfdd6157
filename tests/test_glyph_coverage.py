"""Glyph coverage: text no configured font can draw is found (emoji, CJK with the shipped fonts), never boxes."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.render import fonts

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def shipped():
    return fonts.load_fonts(ROOT / "fonts", ROOT)


@pytest.mark.parametrize(
    "text, family, missing",
    [
        ("Feed Belt", None, ""),
        ("Feed Belt 🚀", None, "🚀"),
        ("送り帯", "display", "送り帯"),
        ("送送り", "body", "送り"),  # each character once, in order of first use
        ("Gain 3 FEED → 1 PART ✓", "body", ""),  # arrows and ticks come from the fallback (DejaVu)
        ("Ünïcödé Ωμέγα Кириллица", "condensed", ""),
        ("tab\tnew\nline\u00adsoft\u200dzwj", None, ""),  # white space and format controls draw nothing
        ("👍🏽", "body", "👍🏽"),
    ],
)
def test_undrawable_characters_are_listed(shipped, text, family, missing):
    assert fonts.undrawable(text, shipped, family) == missing
    assert shipped.undrawable(text, family, bold=True) == missing


def test_the_message_names_each_character_and_says_what_would_happen():
    assert fonts.glyph_message("🚀送") == (
        "no font can draw '🚀' (U+1F680 ROCKET), '送' (U+9001 CJK UNIFIED IDEOGRAPH-9001); it would print as an empty box"
    )
    assert fonts.glyph_message("abcdefg").endswith(
        "'e' (U+0065 LATIN SMALL LETTER E) and 2 more; it would print as an empty box"
    )
