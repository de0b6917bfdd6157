"""Libraries imported without compiling the regular expressions cardpress never uses.

Python compiles a regular expression in Python code, and a character class spanning most of Unicode (worse
under IGNORECASE) costs tens to hundreds of millions of instructions. Some libraries compile such patterns
when they are imported, for features cardpress never asks for. Measured with callgrind, for one compile:

- ReportLab's URL pattern, for a paragraph style's `uriWasteReduce`, which cardpress never sets: 327 M;
- its `cjkwrap` helper's pattern, a function cardpress never calls: 48 M;
- its Python syntax colourer's, for preformatted code: 6 M;
- its unsafe-names pattern, compiled and never used: 8 M;
- PyYAML's pure-Python reader's test for characters no YAML text may hold: 57 M. libyaml does that test
  for cardpress's loaders; `flow` uses the same set, written as the characters refused, which compiles in 4 M.

Inside `deferring()`, `re.compile` of a listed pattern by a listed module returns a `Deferred`, compiled (as
written, or as its equivalent) the first time it is used: what it matches never changes, only when it is
compiled. A first build of Pocket Foundry, which imports both libraries, costs about 440 M instructions less.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_COMPILE = re.compile

# module -> how the patterns it compiles at import and cardpress does not need begin
DEFERRED: dict[str, tuple[str, ...]] = {
    "reportlab.platypus.paragraph": ("(^(?:[a-z0-9\\.\\-\\+]*)://)",),  # uri_pat
    "reportlab.lib.textsplit": ("([\u2e80-\uffff])",),  # rx, for cjkwrap
    "reportlab.lib.PyFontify": ("#[^\\n]*|",),  # matchRE, for PythonPreformatted
    "reportlab.lib.rl_safe_eval": ("\\b(?:",),  # __rl_unsafe_re__ (of a set of names: in no fixed order)
}
# (module, the whole pattern) -> a pattern that matches exactly the same strings and compiles faster
EQUIVALENT: dict[tuple[str, str], str] = {
    ("yaml.reader", "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"): (
        "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]"
    ),
}


class Deferred:
    """A regular expression compiled the first time one of its attributes is asked for."""

    def __init__(self, pattern: str, flags: int) -> None:
        self._made = (pattern, flags)
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # its own, not yet set (a copy or an unpickling in the making): not the pattern's
            raise AttributeError(name)
        if self._compiled is None:
            self._compiled = _COMPILE(*self._made)
        value = getattr(self._compiled, name)
        setattr(self, name, value)  # the next use finds it without asking again
        return value

    def __reduce__(self) -> tuple[Any, ...]:
        """Copy or pickle as the compiled pattern it stands for."""
        return re.compile, self._made


def _compile(pattern: Any, flags: int = 0) -> Any:
    if type(pattern) is str:
        module = sys._getframe(1).f_globals.get("__name__", "")
        equivalent = EQUIVALENT.get((module, pattern))
        if equivalent is not None:
            return Deferred(equivalent, flags)
        if pattern.startswith(DEFERRED.get(module, ())):
            return Deferred(pattern, flags)
    return _COMPILE(pattern, flags)


@contextmanager
def deferring() -> Iterator[None]:
    """Within the block, the listed patterns of the listed modules are compiled when first used (wrap imports)."""
    before = re.compile
    re.compile = _compile
    try:
        yield
    finally:
        re.compile = before
