"""Sandboxed Jinja: render a layout template for one face into layout-document text."""

from __future__ import annotations

import json
import operator
import os
import traceback
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from jinja2 import (
    FileSystemBytecodeCache,
    FileSystemLoader,
    StrictUndefined,
    TemplateError,
    TemplateNotFound,
    TemplateSyntaxError,
    Undefined,
    meta,
)
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError

from .. import cache
from ..diagnostics import Location, Report
from ..digest import text_digest
from . import contrast, markup

MAX_OUTPUT = 4_000_000  # characters one face may render to
MAX_STEPS = 200_000  # range() items one face may iterate over, nested loops included
MAX_SEQUENCE = 100_000  # longest string or list `*` may build


class _Budget:
    """Counts work done by one render so that a hostile template cannot run forever."""

    def __init__(self) -> None:
        self.steps = 0

    def range(self, *args: int) -> Iterator[int]:
        for value in range(*args):
            self.steps += 1
            if self.steps > MAX_STEPS:
                raise SecurityError(f"template iterated more than {MAX_STEPS} times")
            yield value


class _Env(ImmutableSandboxedEnvironment):
    """The sandbox, with `*` and `**` limited so one expression cannot exhaust memory."""

    intercepted_binops = frozenset(["*", "**"])

    def call_binop(self, context: Any, operator_name: str, left: Any, right: Any) -> Any:
        if operator_name == "**":
            if isinstance(right, (int, float)) and abs(right) > 64:
                raise SecurityError("exponent too large")
            return operator.pow(left, right)
        if isinstance(left, (str, list, tuple)) or isinstance(right, (str, list, tuple)):
            seq, times = (left, right) if isinstance(left, (str, list, tuple)) else (right, left)
            if isinstance(times, int) and len(seq) * times > MAX_SEQUENCE:
                raise SecurityError("sequence repetition too large")
        return operator.mul(left, right)


def _quote(value: Any) -> str:
    """Quote any value as a YAML (JSON) scalar, so card text can never break the document."""
    if isinstance(value, Undefined):
        value._fail_with_undefined_error()  # name the missing variable, not a JSON error
    return json.dumps(value, ensure_ascii=False)


def mix(a: str, b: str, t: float) -> str:
    """Blend colour `a` towards `b` by fraction `t` (both #rrggbb)."""
    ca = [int(a[i : i + 2], 16) for i in (1, 3, 5)]
    cb = [int(b[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * float(t)):02x}" for x, y in zip(ca, cb))


_REFERENCES: dict[str, tuple[str | None, ...] | None] = {}  # by source digest: parsing is the slow part


def _references_file(key: str) -> Path | None:
    where = cache.folder("templates")
    return where / f"references-{key}.json" if where else None


def _stored_references(key: str) -> tuple[str | None, ...] | None:
    """Return the references found for a source with digest `key` by an earlier run, or None."""
    path = _references_file(key)
    try:
        found = json.loads(path.read_text(encoding="utf-8")) if path else None
    except (OSError, ValueError):
        return None
    if not isinstance(found, list) or not all(r is None or isinstance(r, str) for r in found):
        return None
    return tuple(found)


def _store_references(key: str, refs: tuple[str | None, ...]) -> None:
    """Keep what parsing a source found, so the next run need not parse it to know what it reads."""
    path = _references_file(key)
    if path is None:
        return
    try:
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(list(refs)), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass  # a cache only ever speeds things up


class Templates:
    """The layout templates visible to one game: its own folders first, then the common ones."""

    def __init__(self, folders: Sequence[Path], root: Path):
        self.root = root
        self.folders = [f for f in folders if f.is_dir()]
        compiled = cache.folder("templates")
        self.env = _Env(
            loader=FileSystemLoader([str(f) for f in self.folders]),
            bytecode_cache=FileSystemBytecodeCache(str(compiled)) if compiled else None,
            undefined=StrictUndefined,
            autoescape=False,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
        )
        self.env.filters["q"] = _quote
        self.env.filters["escape_markup"] = markup.escape
        self.env.filters["lighten"] = lambda c, t: mix(c, "#ffffff", t)
        self.env.filters["darken"] = lambda c, t: mix(c, "#000000", t)
        self.env.filters["mix"] = mix
        self.env.filters["legible"] = contrast.legible
        self._digests: dict[str, str] = {}
        self._sources: dict[str, tuple[str, Path] | None] = {}
        self._displays: dict[str, str] = {}

    def digest(self, name: str) -> str:
        """Return a digest of template `name` and every template it extends, imports or includes.

        Taken once per Templates object: make a new one to see edits. A dynamic include (a name
        computed at render time) makes it depend on every template in the search path.
        """
        if name not in self._digests:
            parts: dict[str, str] = {}
            pending = [name]
            while pending:
                current = pending.pop()
                if current in parts:
                    continue
                found = self.source_of(current)
                parts[current] = found[0] if found else "\0missing"
                if not found:
                    continue
                refs = self._references(found[0])
                if None in refs:
                    refs = self.env.list_templates()
                pending.extend(r for r in refs if r)
            self._digests[name] = text_digest(*(f"{k}\0{v}" for k, v in sorted(parts.items())))
        return self._digests[name]

    def _references(self, source: str) -> tuple[str | None, ...]:
        """Return the templates a source extends, imports or includes (None for a computed name)."""
        key = text_digest(source)
        if key not in _REFERENCES:
            _REFERENCES[key] = _stored_references(key)
        if _REFERENCES[key] is None:
            try:
                refs = tuple(meta.find_referenced_templates(self.env.parse(source)))
            except TemplateSyntaxError:
                refs = ()  # rendering reports it; the text is in the digest already
            _REFERENCES[key] = refs
            _store_references(key, refs)
        return _REFERENCES[key]

    def display(self, filename: str | None) -> str:
        """Return a template's path relative to the project, for messages."""
        if not filename:
            return "<template>"
        if filename not in self._displays:
            try:
                self._displays[filename] = str(Path(filename).resolve().relative_to(self.root.resolve()))
            except ValueError:
                self._displays[filename] = filename
        return self._displays[filename]

    def source_of(self, name: str) -> tuple[str, Path] | None:
        """Return (source text, file) of the template that `name` resolves to, or None (read once per object,
        like `digest`: every face asks where its template is)."""
        if name not in self._sources:
            try:
                text, filename, _ = self.env.loader.get_source(self.env, name)
                self._sources[name] = (text, Path(filename))
            except TemplateNotFound:
                self._sources[name] = None
        return self._sources[name]

    def render(self, name: str, context: dict[str, Any], face: str, report: Report) -> str | None:
        """Render template `name` for `face`; report template problems with their template line."""
        budget = _Budget()
        try:
            template = self.env.get_template(name)
            chunks, size = [], 0
            for chunk in template.generate({**context, "range": budget.range}):
                size += len(chunk)
                if size > MAX_OUTPUT:
                    raise SecurityError(f"template output passed {MAX_OUTPUT} characters")
                chunks.append(chunk)
            return "".join(chunks)
        except TemplateNotFound as exc:
            searched = ", ".join(self.display(str(f)) for f in self.folders)
            report.error("T001", f"no layout template '{exc.name}' (needed for {face})", hint=f"looked in {searched}")
        except TemplateSyntaxError as exc:
            report.error("T002", f"template syntax error: {exc.message}", loc=self._loc(exc.filename, exc.lineno))
        except (
            TemplateError,
            SecurityError,
            ArithmeticError,
            TypeError,
            ValueError,
            KeyError,
            IndexError,
            AttributeError,
            RecursionError,
        ) as exc:
            filename, lineno = _template_frame(exc)
            kind = "template refused an unsafe operation" if isinstance(exc, SecurityError) else "template error"
            report.error("T003", f"{kind} while rendering {face}: {exc}", loc=self._loc(filename, lineno))
        return None

    def _loc(self, filename: str | None, lineno: int | None) -> Location | None:
        if not filename or not lineno:
            return None
        try:
            lines = Path(filename).read_text(encoding="utf-8").splitlines()
        except OSError:
            lines = []
        text = lines[lineno - 1] if 0 < lineno <= len(lines) else ""
        return Location(self.display(filename), lineno, len(text) - len(text.lstrip()) + 1, text)


def _template_frame(exc: BaseException) -> tuple[str | None, int | None]:
    """Find the innermost traceback frame that belongs to a template (Jinja rewrites them so)."""
    found: tuple[str | None, int | None] = (None, None)
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename.endswith(".j2"):
            found = (frame.filename, frame.lineno)
    return found
