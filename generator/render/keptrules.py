"""A kit's rules pages kept between runs: how many pages the rulebook sets into, and every canvas call that
drew each page, so an unchanged rulebook is drawn again by replaying those calls, without platypus.

Typesetting with platypus (its import included) was most of what a rebuild of a kit with rules paid. The
calls are recorded on the kit's own canvas while a page is drawn for real: canvas and text-object methods,
each with its arguments, but none made from inside another (replaying the outer one makes them again). So a
replay asks ReportLab for exactly what the first drawing asked, and ReportLab's own state (fonts' subsets,
colours used) comes out the same: the same bytes. Platypus decides some calls by the canvas's state (it sets a
font only when the canvas is in another), so a recording is replayed only from the state it was made in;
from any other, the page is typeset and drawn again. An entry is keyed by everything typesetting reads: the
rulebook's words, format, title and style, the fonts' files, cardpress's code and ReportLab's version.
"""

from __future__ import annotations

import contextlib
import functools
import os
import pickle
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.pathobject import PDFPathObject
from reportlab.pdfgen.textobject import PDFTextObject

from ..kit import CONTEXT_JSON, Kit
from ..layout.icons import IconSet
from ..project import cache as disk
from ..source.digest import files_digest, text_digest
from .fonts import FontSet
from .rulesheets import FORMATS, InlineIcon, PageFormat, inline_icons, rules_format

KEPT = 64  # rulebooks kept on disk (and in a process); past this the least recently written go
FOLDER = "rulebooks"  # in the cache: one file per rulebook and format
QUERIES = frozenset({"stringWidth", "getX", "getY"})  # calls that only answer: nothing to replay
# What platypus reads of a canvas to decide what to ask of it (a text object starts in the canvas's font).
STATE = (
    "_fontname",
    "_fontsize",
    "_leading",
    "_lineWidth",
    "_lineCap",
    "_lineJoin",
    "_fillColorObj",
    "_strokeColorObj",
    "_fillAlpha",
    "_strokeAlpha",
    "_charSpace",
    "_wordSpace",
    "_horizScale",
    "_textRenderMode",
    "_rise",
    "bottomup",
)
Call = tuple[str, str, tuple[Any, ...], dict[str, Any], str | None]  # (on, method, args, keywords, result's name)


@dataclass(frozen=True)
class _Made:
    """An argument that is a text or path object an earlier call made: replayed as the one its replay made."""

    name: str


@dataclass
class _Kept:
    """What a rulebook keeps between runs: its page count and, per page, the state it was drawn from and the calls."""

    pages: int
    drawn: dict[int, tuple[str, tuple[str, ...], list[Call]]] = field(default_factory=dict)  # (state, fonts, calls)
    changed: bool = False


@dataclass
class KeptBook:
    """A rulebook for one kit and format: drawn by replaying its kept calls where it can, else typeset."""

    fmt: PageFormat
    key: str
    kept: _Kept
    fonts: FontSet
    icons: IconSet
    typeset: Callable[[], Any]  # the rulebook typeset for real (rulespages.RulesBook), when a page needs it

    def __len__(self) -> int:
        return self.kept.pages

    def draw(self, canvas: Canvas, index: int) -> None:
        """Draw page `index` (0-based) with its bottom-left corner at the canvas's origin."""
        state = _state(canvas)
        found = self.kept.drawn.get(index)
        if found is not None and found[0] == state:
            self.fonts.register(set(found[1]))  # set for real in an earlier run: not registered yet
            with inline_icons(canvas, self.icons):
                _replay(found[2], canvas)
            return
        recorder = _Recorder()
        self.typeset().draw(recorder.wrap(canvas), index)
        self.kept.drawn[index] = (state, _fonts_named(recorder.calls, self.fonts), recorder.calls)
        self.kept.changed = True


_MEMO: dict[str, _Kept] = {}  # this process's rulebooks, by key: a build asks for one several times


def rules_book(kit: Kit, paper: str, duplex: str, fonts: FontSet | None, icons: IconSet | None) -> KeptBook | None:
    """Return the kit's rulebook for its rules pages on `paper` (booklet pages when it folds), kept from an
    earlier run when everything it is set from is unchanged; None when the kit prints no rules."""
    if kit.rules is None or fonts is None or icons is None:
        return None
    fmt = rules_format(kit, paper, duplex)
    style = kit.context.get("style", {})

    def typeset() -> Any:
        from . import rulespages  # platypus: imported only when a page is set for real

        return rulespages.rules_book(kit, paper, duplex, fonts, icons)

    key = text_digest(
        disk.code_digest(),
        kit.rules.text,
        fmt,
        kit.title,
        CONTEXT_JSON.encode(style),
        repr(tuple(kit.text_icons)),
        repr((sorted(fonts.families.items()), fonts.fallback, fonts.default)),
        files_digest(sorted(set(fonts.files.values()))),
    )
    kept = _MEMO.get(key) or _read(key)
    if kept is None:
        kept = _Kept(len(typeset()), changed=True)
    if len(_MEMO) >= KEPT:  # a long `watch` session editing its rules
        _MEMO.clear()
    _MEMO[key] = kept
    return KeptBook(FORMATS[fmt], key, kept, fonts, icons, typeset)


def keep(book: KeptBook | None) -> None:
    """Write a rulebook's pages and recorded calls to the disk cache, if anything new was drawn or set."""
    if book is None or not book.kept.changed:
        return
    where = disk.folder(FOLDER)
    if where is None:
        return
    try:
        data = pickle.dumps((book.kept.pages, book.kept.drawn), protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):  # an argument that cannot be kept: set it next time
        return
    disk.write(where / f"{book.key}.pickle", data)
    book.kept.changed = False
    _trim(where)


def _read(key: str) -> _Kept | None:
    where = disk.folder(FOLDER)
    data = disk.read(where / f"{key}.pickle") if where is not None else None
    if data is None:
        return None
    try:  # written by cardpress into the user's own cache, never by a project
        pages, drawn = pickle.loads(data)
    except Exception:  # a torn or foreign entry: set the rulebook again
        return None
    return _Kept(pages, drawn) if isinstance(pages, int) and isinstance(drawn, dict) else None


def _trim(where: Path) -> None:
    """Drop all but the KEPT most recently written rulebooks."""
    entries = []
    for path in where.glob("*.pickle"):
        with contextlib.suppress(OSError):  # gone already: another build trimmed it
            entries.append((path.stat().st_mtime_ns, path.name, path))
    for *_, old in sorted(entries, reverse=True)[KEPT:]:
        with contextlib.suppress(OSError):
            os.unlink(old)


def _fonts_named(calls: list[Call], fonts: FontSet) -> tuple[str, ...]:
    """Return the fonts of the set that recorded calls name: in an argument, or as an inline icon's symbol's."""
    named = set()
    for _, _, args, keywords, _ in calls:
        for value in (*args, *keywords.values()):
            name = value.font if isinstance(value, InlineIcon) else value
            if isinstance(name, str) and name in fonts.files:
                named.add(name)
    return tuple(sorted(named))


def _state(canvas: Canvas) -> str:
    return repr(tuple(getattr(canvas, name, None) for name in STATE))


def _replay(calls: list[Call], canvas: Canvas) -> None:
    made: dict[str, Any] = {"canvas": canvas}
    for on, method, args, keywords, result in calls:
        given = {k: made[v.name] if type(v) is _Made else v for k, v in keywords.items()}
        value = getattr(made[on], method)(*[made[a.name] if type(a) is _Made else a for a in args], **given)
        if result is not None:
            made[result] = value


class _Recorder:
    """Hands out stand-ins for a canvas and the text and path objects it makes; logs the calls made on them
    from outside (not those a call makes itself), with their arguments, in order."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.depth = 0  # calls under way: a call made inside one is its own business
        self.canvas: _Stand | None = None

    def wrap(self, canvas: Canvas) -> Any:
        self.canvas = _Stand(canvas, "canvas", self)
        return self.canvas

    def call(self, stand: _Stand, method: str, function: Callable[..., Any], *args: Any, **keywords: Any) -> Any:
        given, told = args, keywords
        if _Stand in map(type, args):  # a text or path object made earlier: the real one
            given = tuple([_real(a) for a in args])
        if keywords and _Stand in map(type, keywords.values()):
            told = {k: _real(v) for k, v in keywords.items()}
        if self.depth:
            return function(*given, **told)
        self.depth += 1
        try:
            result = function(*given, **told)
        finally:
            self.depth -= 1
        name = None
        if isinstance(result, (PDFTextObject, PDFPathObject)):
            name = f"made{len(self.calls)}"
            result = _Stand(result, name, self)
        if method not in QUERIES:
            logged = tuple([_named(a) for a in args]) if given is not args else args
            self.calls.append(
                (
                    stand._name,
                    method,
                    logged,
                    {k: _named(v) for k, v in told.items()} if told is not keywords else keywords,
                    name,
                )
            )
        return result


class _Stand:
    """Stands in for a canvas or a text or path object while a page is recorded; see _Recorder."""

    def __init__(self, real: Any, name: str, recorder: _Recorder) -> None:
        object.__setattr__(self, "_real", real)
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_recorder", recorder)

    def __getattr__(self, attr: str) -> Any:
        if attr == "_canvas":  # a text object's canvas: platypus draws inline images and backgrounds on it
            return self._recorder.canvas
        value = getattr(self._real, attr)
        recorder = self._recorder
        if recorder.depth or not callable(value):  # inside a recorded call, nothing more is recorded
            return value
        return functools.partial(recorder.call, self, attr, value)

    def __setattr__(self, attr: str, value: Any) -> None:
        setattr(self._real, attr, value)  # platypus's notes on a text object; inline_icons' drawImage

    def __delattr__(self, attr: str) -> None:
        delattr(self._real, attr)


def _real(value: Any) -> Any:
    return value._real if type(value) is _Stand else value


def _named(value: Any) -> Any:
    return _Made(value._name) if type(value) is _Stand else value
