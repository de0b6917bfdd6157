"""Text set once across faces: a text box met again is not set again, a word met again is not measured
again, both memos are bounded, and neither changes a single line."""

from __future__ import annotations

import pytest
from conftest import ROOT

from generator.layout.document import Element, LayoutDoc
from generator.layout.markup import parse
from generator.render import draw, text
from generator.render.fonts import load_fonts
from generator.render.text import set_text

FONTS = load_fonts(ROOT / "fonts", ROOT)
RULES = "<b>RUN:</b> Pay <icon feed>2 FEED, then gain <nobr>3 points</nobr> for each <i>adjacent</i> part."


def _face(rich: str, x: float = 4.0) -> LayoutDoc:
    props = {"x": x, "y": 4.0, "w": 55.0, "h": 30.0, "rich": rich, "size": 9.0, "min_size": 6.0}
    return LayoutDoc("front.yaml.j2", "card/front", 63.0, 88.0, 3.0, (Element("text", props, "elements[0]"),))


def _set(rich: str, size: float = 9.0, width: float = 40.0) -> text.TextLayout:
    return set_text(parse(rich), FONTS, family=None, size=size, min_size=6.0, width_mm=width, height_mm=30.0)


def test_the_same_rules_text_on_another_card_is_set_once() -> None:
    first, _ = draw.prepare(_face(RULES), FONTS)
    before = draw._set_element.cache_info()
    again, _ = draw.prepare(_face(RULES, x=5.0), FONTS)  # another card, the same box elsewhere: set the same
    after = draw._set_element.cache_info()
    assert (after.hits, after.misses) == (before.hits + 1, before.misses)
    (one,), (other,) = first.texts.values(), again.texts.values()
    assert other is one


@pytest.mark.parametrize("size, width", [(9.0, 40.0), (9.0, 12.0), (13.5, 40.0), (6.5, 25.0)])
def test_words_measured_before_set_the_same_lines(monkeypatch: pytest.MonkeyPatch, size: float, width: float) -> None:
    _set(RULES + " Pay 2 FEED, then gain", 8.0, 30.0)  # the memo now holds these words, at another size
    remembered = _set(RULES, size, width)
    monkeypatch.setattr(text, "_word", text._word.__wrapped__)  # every word measured afresh
    monkeypatch.setattr(text, "_space", text._space.__wrapped__)
    assert _set(RULES, size, width) == remembered


def test_the_word_memo_is_bounded() -> None:
    words = " ".join(f"w{n}" for n in range(text.WORDS + 500))
    set_text(parse(words), FONTS, family=None, size=9.0, min_size=None, width_mm=1000.0, height_mm=10000.0)
    info = text._word.cache_info()
    assert info.maxsize == text.WORDS and info.currsize == text.WORDS
    assert draw._set_element.cache_info().maxsize == 4096  # and whole text boxes
