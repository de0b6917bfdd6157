"""Keep what Python compiles afresh in every process between runs: dataclass methods and regular expressions.

Python 3.11 writes every dataclass's `__init__`, `__repr__`, `__eq__` … as source text and compiles it
each time the class is made, and compiles every regular expression from its text in pure Python once per
process. For the ~150 classes and ~200 patterns a build makes (cardpress's and its libraries') that cost
about 370 and 190 million instructions, 9 % and 4 % of a first build of the Pocket Foundry kit. `install`
has each taken from a file in the cache instead, compiled once. The text (with a pattern's flags) is the
key, and what is kept is exactly what compiling it gives: a method's code object; a pattern's program,
the list of opcodes `re` hands to its matcher, which checks it as it does any program. Each file is named
for the interpreter that made it (bytecode version, `re`'s version and Python's), never read by another,
and sealed like every cache file; a missing, torn or foreign one only means compiling, as before.
"""

from __future__ import annotations

import atexit
import builtins
import dataclasses
import importlib.util
import marshal
import re
import sys
from collections.abc import Callable
from re import _compiler, _constants, _parser  # type: ignore[attr-defined]
from types import CodeType
from typing import Any

MAX_ENTRIES = 8192  # entries kept in one file; past this only those the last run used are written
FOLDER = "compiled"  # in the cache


class _Kept:
    """One file of the cache holding {text: what compiling it gives}, read once and written at exit when new."""

    def __init__(self, name: str, whole: Callable[[Any], bool]) -> None:
        self.name, self.whole = name, whole
        self.made: dict[Any, Any] = {}
        self.new: set[Any] = set()  # compiled by this process, not read from the file
        self.used: set[Any] = set()  # asked for by this process: what is kept past MAX_ENTRIES

    def load(self) -> None:
        """Read the kept entries, and write them back at exit when this process compiled any new one."""
        from . import cache  # here: the classes and patterns its imports make are kept too

        folder = cache.folder(FOLDER)
        if folder is None:
            return
        path = folder / f"{self.name}.marshal"
        data = cache.read(path)
        try:
            kept = marshal.loads(data) if data is not None else {}
        except (EOFError, ValueError, TypeError):
            kept = {}
        if isinstance(kept, dict):
            for text, made in kept.items():
                if self.whole(made):
                    self.made.setdefault(text, made)
                    self.new.discard(text)

        def save() -> None:
            if self.new:
                made = self.made if len(self.made) <= MAX_ENTRIES else {t: self.made[t] for t in self.used}
                cache.write(path, marshal.dumps(dict(sorted(made.items(), key=lambda entry: repr(entry[0])))))

        atexit.register(save)


def _is_code(made: Any) -> bool:
    return type(made) is CodeType


def _is_program(made: Any) -> bool:  # its opcodes the matcher checks as it takes them
    return type(made) is tuple and len(made) == 5 and type(made[1]) is list


_methods = _Kept(f"methods-{sys.implementation.cache_tag}-{importlib.util.MAGIC_NUMBER.hex()}", _is_code)
_patterns = _Kept(f"patterns-{sys.implementation.cache_tag}-{_constants.MAGIC}-{sys.version.split()[0]}", _is_program)


def _exec(source: Any, globals: dict[str, Any] | None = None, locals: dict[str, Any] | None = None) -> None:
    """`exec` as `dataclasses` calls it: a text it has compiled before runs from the kept code."""
    if type(source) is str:
        code = _methods.made.get(source)
        if code is None:
            code = _methods.made[source] = compile(source, "<string>", "exec")
            _methods.new.add(source)
        _methods.used.add(source)
        source = code
    builtins.exec(source, globals, locals)


_given_compile = _compiler.compile


def _compile(pattern: Any, flags: int = 0) -> Any:
    """`re`'s compiler: a pattern's program made as it makes it, once across runs."""
    if type(pattern) not in (str, bytes) or flags & re.DEBUG:
        return _given_compile(pattern, flags)
    key = (pattern, flags)
    _patterns.used.add(key)
    made = _patterns.made.get(key)
    if made is not None:
        try:
            return _compiler._sre.compile(pattern, *made)
        except (TypeError, ValueError, RuntimeError, OverflowError):  # not a program after all: compile it
            pass
    parsed = _parser.parse(pattern, flags)
    names = parsed.state.groupdict
    groups: list[str | None] = [None] * parsed.state.groups
    for name, index in names.items():
        groups[index] = name
    # ints, not re's named constants: what marshal keeps, and all the matcher reads of them
    code = [int(c) for c in _compiler._code(parsed, flags)]
    made = _patterns.made[key] = (int(flags | parsed.state.flags), code, parsed.state.groups - 1, names, tuple(groups))
    _patterns.new.add(key)
    return _compiler._sre.compile(pattern, *made)


def install() -> None:
    """Have `dataclasses` and `re` compile each text once across runs (from here on in this process)."""
    if getattr(dataclasses, "exec", None) is _exec:
        return
    dataclasses.exec = _exec  # type: ignore[attr-defined]  # found before the builtin: a module global
    if getattr(_compiler, "_code", None) and getattr(_compiler, "_sre", None):  # the compiler as 3.11 to 3.13 write it
        _compiler.compile = _compile
    _methods.load()
    _patterns.load()
