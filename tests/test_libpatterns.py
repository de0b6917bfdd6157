"""Library patterns cardpress never uses are compiled only when used, and an equivalent matches the same."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from generator import libpatterns
from generator.libpatterns import EQUIVALENT, Deferred, deferring

ROOT = Path(__file__).resolve().parent.parent
EVERY_CHARACTER = "".join(map(chr, range(sys.maxunicode + 1)))  # surrogates included: a str may hold them


@pytest.mark.parametrize(("written", "equivalent"), [(k[1], v) for k, v in EQUIVALENT.items()])
def test_an_equivalent_pattern_finds_exactly_the_characters_the_written_one_does(written, equivalent):
    found, swapped = re.compile(written).findall(EVERY_CHARACTER), re.compile(equivalent).findall(EVERY_CHARACTER)
    assert found == swapped
    assert len(found) == 2111  # C0 and C1 controls but tab, newline, CR and NEL; surrogates; U+FFFE, U+FFFF


def test_the_libraries_hold_deferred_patterns_after_cardpress_imports_them():
    code = (
        "import json\n"
        "import generator.render.rulespages, generator.source.yamlparse\n"
        "from reportlab.platypus import paragraph\n"
        "from reportlab.lib import textsplit, PyFontify, rl_safe_eval\n"
        "import yaml\n"
        "held = {'uri_pat': paragraph.uri_pat, 'rx': textsplit.rx, 'matchRE': PyFontify.matchRE,\n"
        "        'unsafe': rl_safe_eval.__rl_unsafe_re__, 'NON_PRINTABLE': yaml.reader.Reader.NON_PRINTABLE,\n"
        "        'hyphen': paragraph._hy_letters_pat}\n"
        "print(json.dumps({k: type(v).__name__ for k, v in held.items()}))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == {
        "uri_pat": "Deferred",
        "rx": "Deferred",
        "matchRE": "Deferred",
        "unsafe": "Deferred",
        "NON_PRINTABLE": "Deferred",
        "hyphen": "Pattern",  # used on every paragraph: compiled as it always was
    }


def test_a_deferred_pattern_answers_as_the_compiled_one_and_compiles_once():
    written = r"(?P<n>\d+) (?:gears?|cogs?)"
    deferred, compiled = Deferred(written, re.IGNORECASE), re.compile(written, re.IGNORECASE)
    assert "match" not in vars(deferred)  # nothing compiled until used
    text = "2 Gears, 1 cog and 30 COGS"
    assert deferred.pattern == written and deferred.flags == compiled.flags
    assert [m.group("n") for m in deferred.finditer(text)] == ["2", "1", "30"]
    assert deferred.sub("#", text) == compiled.sub("#", text) == "#, # and #"
    assert deferred.match("7 gear").span() == (0, 6) and deferred.search("no") is None
    assert "sub" in vars(deferred)  # kept: the next use asks nothing of __getattr__


def test_only_listed_patterns_of_listed_modules_are_deferred_and_compile_is_restored(monkeypatch):
    monkeypatch.setitem(libpatterns.DEFERRED, __name__, ("(?:slow",))
    with deferring():
        assert isinstance(re.compile("(?:slow)+"), Deferred)
        assert isinstance(re.compile("fast"), re.Pattern)
    assert isinstance(re.compile("(?:slow)+"), re.Pattern)
    with pytest.raises(ValueError), deferring():
        raise ValueError("an import failed")
    assert re.compile is libpatterns._COMPILE


def test_a_deferred_pattern_compiles_once_and_copies_and_pickles_as_the_compiled_one():
    import copy
    import pickle

    deferred = Deferred(r"\d+ cogs?", re.IGNORECASE)
    deferred.search("1 cog")
    first = deferred._compiled
    deferred.findall("2 COGS")  # another attribute: the same compiled pattern, not a second compile
    assert deferred._compiled is first
    for made in (copy.copy(Deferred(r"\d+ cogs?", 0)), pickle.loads(pickle.dumps(Deferred(r"\d+ cogs?", 0)))):
        assert isinstance(made, re.Pattern) and made.findall("1 cog, 2 cogs") == ["1 cog", "2 cogs"]


def test_deferring_puts_back_what_re_compile_was_when_it_began(monkeypatch):
    def outer(pattern, flags=0):
        return libpatterns._COMPILE(pattern, flags)

    monkeypatch.setattr(re, "compile", outer)  # a caller's own patch, outside the block
    with deferring():
        with deferring():  # nested: leaving the inner block keeps the outer one's
            pass
        assert re.compile is libpatterns._compile
    assert re.compile is outer
