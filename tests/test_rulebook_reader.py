"""The rulebook reader: whatever number an edition writes into a rule sentence is read back, where it stands."""

from __future__ import annotations

import re

from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.games.micro_engine.rulebook import FORMS, read_facts
from generator.games.pocket_foundry.rulebook import FACTS
from generator.games.pocket_foundry.rulebook import Rulebook as PFRulebook
from generator.source.rulebook import NUM, NUMBER_WORDS, Rulebook, number, sentence

ME_TEXT = (ROOT / "cards" / "micro-engine" / "rulebook.txt").read_text(encoding="utf-8")
PF_TEXT = (ROOT / "cards" / "pocket-foundry" / "rulebook.txt").read_text(encoding="utf-8")
ME_RULES = [(form, group, key, offset) for form in FORMS for group, key, offset in form.states]
PF_NUMBERS = [form for form in FACTS if form.id in ("market_size", "slots", "laps", "turns", "build_slots")]


def spelled(n: int, words: bool) -> str:
    return NUMBER_WORDS[n] if words else str(n)


def rewrite(text: str, form, group: str, new: str) -> tuple[str, int, int]:
    """Return the text with the form's first match's group replaced, and that group's line and column."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = form.rx.search(line)
        if m:
            start, end = m.span(group)
            lines[i] = line[:start] + new + line[end:]
            return "\n".join(lines), i + 1, start + 1
    raise AssertionError(f"{form.id} reads nothing in the shipped rulebook")


@given(st.sampled_from(ME_RULES), st.integers(0, 20), st.booleans())
def test_any_number_in_a_micro_engine_rule_sentence_is_read_back(rule, n, words):
    form, group, key, offset = rule
    text, line, col = rewrite(ME_TEXT, form, group, spelled(n, words))
    facts = read_facts(Rulebook(text, "rulebook.txt"))
    here = [s for s in facts.stated(key) if (s.line, s.col) == (line, col)]
    assert [s.value for s in here] == [n + offset]
    assert facts.missing == []


@given(st.sampled_from(PF_NUMBERS), st.integers(0, 20), st.booleans())
def test_any_number_in_a_pocket_foundry_rule_sentence_is_read_back(form, n, words):
    text, line, col = rewrite(PF_TEXT, form, "v", spelled(n, words))
    found, missing = PFRulebook(text, "rulebook.txt").facts(FACTS)
    here = [f for f in found if (f.line, f.col) == (line, col) and f.name == form.id]
    assert [number(f.value) for f in here] == [n]
    assert missing == []


def test_the_shipped_rulebooks_state_every_fact_the_validators_read():
    assert read_facts(Rulebook(ME_TEXT, "rulebook.txt")).missing == []
    assert PFRulebook(PF_TEXT, "rulebook.txt").facts(FACTS)[1] == []


def test_a_quoted_sentence_is_the_one_around_the_match_without_its_bullet():
    line = "• Licenses (second place, 3–4 players). After a Patent is claimed, one other player can earn one."
    m = next(f for f in FORMS if f.id == "licenses-players").rx.search(line)
    assert sentence(line, m) == "Licenses (second place, 3–4 players)."


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(NUMBER_WORDS),
            st.sampled_from(["Twelve", "SIX", "ſix", "fourteenth", "10", "1234", "٣", "-", " ", ", ", "lap", "x2"]),
            st.text(alphabet="aefnostwxz019 -", max_size=6),
        ),
        max_size=12,
    ).map("".join),
    st.sampled_from([0, re.IGNORECASE]),
)
def test_the_number_pattern_reads_what_it_read_without_its_look_ahead(text, flags):
    plain = r"(?:\d{1,3}|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")\b"
    for pattern in (r"\b(?P<v>{N}) market", r"{N}", r"slots 2[–-](?P<v>{N})"):
        ours = [m.span() for m in re.finditer(pattern.replace("{N}", NUM), text, flags)]
        theirs = [m.span() for m in re.finditer(pattern.replace("{N}", plain), text, flags)]
        assert ours == theirs
