"""Keep the compiled methods of dataclasses between runs.

Python 3.11 writes every dataclass's `__init__`, `__repr__`, `__eq__` … as source text and compiles it
each time the class is made: the ~150 classes a build makes (cardpress's and its libraries') cost about
370 million instructions, 8 % of a first build of the Pocket Foundry kit. `install` has `dataclasses` take each
method's code from a file in the cache instead, compiled once; the text is the key, so the code is
exactly what compiling it gives. The file is named for the interpreter's bytecode version (code objects
of another version are never read) and sealed like every cache file; a missing, torn or foreign one only
means compiling, as before.
"""

from __future__ import annotations

import atexit
import builtins
import dataclasses
import importlib.util
import marshal
import sys
from types import CodeType
from typing import Any

MAX_ENTRIES = 8192  # methods kept; past this only those the last run used are written
_codes: dict[str, CodeType] = {}  # method source -> its code
_new: set[str] = set()  # compiled by this process, not read from the file
_used: set[str] = set()  # run by this process: what is kept past MAX_ENTRIES


def _exec(source: Any, globals: dict[str, Any] | None = None, locals: dict[str, Any] | None = None) -> None:
    """`exec` as `dataclasses` calls it: a text it has compiled before runs from the kept code."""
    if type(source) is str:
        code = _codes.get(source)
        if code is None:
            code = _codes[source] = compile(source, "<string>", "exec")
            _new.add(source)
        _used.add(source)
        source = code
    builtins.exec(source, globals, locals)


def install() -> None:
    """Have `dataclasses` compile each method text once across runs (from here on in this process)."""
    if getattr(dataclasses, "exec", None) is _exec:
        return
    dataclasses.exec = _exec  # type: ignore[attr-defined]  # found before the builtin: a module global
    from . import cache  # after the patch: the classes its imports make are kept too

    folder = cache.folder("methods")
    if folder is None:
        return
    path = folder / f"{sys.implementation.cache_tag}-{importlib.util.MAGIC_NUMBER.hex()}.marshal"
    data = cache.read(path)
    try:
        kept = marshal.loads(data) if data is not None else {}
    except (EOFError, ValueError, TypeError):
        kept = {}
    if isinstance(kept, dict):
        for source, code in kept.items():
            if type(source) is str and type(code) is CodeType:
                _codes.setdefault(source, code)
                _new.discard(source)

    def save() -> None:
        if _new:
            written = _codes if len(_codes) <= MAX_ENTRIES else {s: _codes[s] for s in _used}
            cache.write(path, marshal.dumps(dict(sorted(written.items()))))

    atexit.register(save)
