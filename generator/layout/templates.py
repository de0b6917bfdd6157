"""Sandboxed Jinja: render a layout template for one face into layout-document text."""

from __future__ import annotations

import bisect
import json
import os
import re
import traceback
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..diagnostics import Location, Report
from ..i18n.catalogue import ENGLISH, Catalogue
from ..project import cache
from ..source import safefile
from ..source.digest import text_digest
from . import collector, cpu, programs, slots
from .document import LayoutDoc
from .templatefiles import MAX_TEMPLATE_BYTES, Unreadable, find_source

if TYPE_CHECKING:
    from .sandbox import SandboxEnv

MAX_OUTPUT = 4_000_000  # characters one face may render to
MAX_TOTAL_SECONDS = cpu.KIT_SECONDS  # CPU seconds for every face of one Templates object (one build of one game)


_REFERENCES: dict[str, tuple[str | None, ...] | None] = {}  # by source digest: parsing is the slow part


def _references_file(key: str) -> Path | None:
    where = cache.folder("templates")
    return where / f"references-{key}.json" if where else None


def _stored_references(key: str) -> tuple[str | None, ...] | None:
    """Return the references found for a source with digest `key` by an earlier run, or None."""
    path = _references_file(key)
    stored = cache.read(path) if path else None
    try:
        found = json.loads(stored) if stored is not None else None
    except ValueError:
        return None
    if not isinstance(found, list) or not all(r is None or isinstance(r, str) for r in found):
        return None
    return tuple(found)


def _store_references(key: str, refs: tuple[str | None, ...]) -> None:
    """Keep what parsing a source found, so the next run need not parse it to know what it reads."""
    path = _references_file(key)
    if path is None:
        return
    cache.write(path, json.dumps(list(refs)).encode("utf-8"))


class Templates:
    """The layout templates visible to one game: its own folders first, then the common ones."""

    def __init__(
        self,
        folders: Sequence[Path],
        root: Path,
        roots: safefile.Roots | None = None,
        shared: Sequence[Path] = (),
        words: Catalogue = ENGLISH,
    ):
        self.root = root
        self.roots = list(roots) if roots is not None else [root]  # where template files may really live
        self.folders = [f for f in folders if f.is_dir()]
        self.searchpath = [str(f) for f in self.folders]  # as the loader and `find_source` take them
        # the shared templates (macros, cover, furniture): named, else the last folder of several
        common = shared or (self.folders[-1:] if len(self.folders) > 1 else [])
        self.shared = tuple(os.path.abspath(f) + os.sep for f in common)
        self.words = words
        self.programs = programs.Programs(MAX_OUTPUT)
        self._digests: dict[str, str] = {}
        self.spent = 0.0  # CPU seconds every render of this object used (for the total budget)
        self.timeouts = 0  # renders stopped by a CPU-time limit: their result says more about the machine than the face
        self._sources: dict[str, tuple[str, Path] | None] = {}
        self._refused: dict[str, Unreadable] = {}  # templates there but not readable, by name
        self._displays: dict[str, str] = {}

    @cached_property
    def env(self) -> SandboxEnv:
        """The sandboxed Jinja environment, made when a template is first parsed or rendered (never in a rebuild
        whose faces are all kept)."""
        from .jinjaenv import environment

        return environment(self.searchpath, self.roots, self.words)

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
                    refs = tuple(self.env.list_templates())
                pending.extend(r for r in refs if r)
            self._digests[name] = text_digest(*(f"{k}\0{v}" for k, v in sorted(parts.items())))
        return self._digests[name]

    def _references(self, source: str) -> tuple[str | None, ...]:
        """Return the templates a source extends, imports or includes (None for a computed name)."""
        key = text_digest(source)
        if key not in _REFERENCES:
            _REFERENCES[key] = _stored_references(key)
        if _REFERENCES[key] is None:
            from jinja2 import TemplateSyntaxError, meta

            try:
                refs = tuple(meta.find_referenced_templates(self.env.parse(source)))
            except (TemplateSyntaxError, RecursionError, MemoryError):
                refs = ()  # rendering reports it; the text is in the digest already
            _REFERENCES[key] = refs
            _store_references(key, refs)
        found = _REFERENCES[key]
        assert found is not None  # parsed above when no cache held them
        return found

    def display(self, filename: str | None) -> str:
        """Return a template's path relative to the project, for messages."""
        if not filename:
            return "<template>"
        if filename not in self._displays:
            # As written first: a template that is a link is shown where it sits, not where it leads.
            shown = filename
            for path, base in (
                (os.path.abspath(filename), os.path.abspath(self.root)),
                (os.path.realpath(filename), os.path.realpath(self.root)),  # realpath: no error on a loop
            ):
                try:
                    shown = str(Path(path).relative_to(base))
                    break
                except ValueError:
                    continue
            self._displays[filename] = shown
        return self._displays[filename]

    def source_of(self, name: str) -> tuple[str, Path] | None:
        """Return (source text, file) of the template that `name` resolves to, or None (read once per object,
        like `digest`: every face asks where its template is)."""
        if name not in self._sources:
            try:
                found = find_source(self.searchpath, self.roots, name)
                self._sources[name] = (found[0], Path(found[1])) if found else None
            except Unreadable as exc:  # rendering reports why; so does `refusal`
                self._sources[name] = None
                self._refused[name] = exc
        return self._sources[name]

    def refusal(self, name: str, report: Report, loc: Location | None = None) -> bool:
        """Report why template `name` exists but cannot be read (too big, not UTF-8, a loop of links), located
        at its file; return False when it is simply not there (or fine)."""
        self.source_of(name)
        refused = self._refused.get(name)
        if refused is None:
            return False
        refused.refused.report(report, self.display(refused.filename), loc)
        return True

    def render(
        self,
        name: str,
        context: dict[str, Any],
        face: str,
        report: Report,
        origins: list[tuple[int, str, int]] | None = None,
        probe: slots.Probe | None = None,
    ) -> str | None:
        """Render template `name` for `face`; report template problems with their template line.

        The render runs on a budget (see generator.layout.sandbox): MAX_SECONDS of CPU time (and what is left
        of MAX_TOTAL_SECONDS for this object), MAX_STEPS loop iterations, MAX_SEQUENCE per value, MAX_WRITTEN
        and MAX_OUTPUT characters. Passing any of them is reported (T003) like any unsafe operation. With
        `origins`, each piece of output is noted there as (its offset, template file, template line). What
        it leaves in reference cycles is collected when it ends, even in a build (generator.layout.collector).
        """
        with collector.contained():
            return self._render(name, context, face, report, origins, probe)

    def _render(
        self,
        name: str,
        context: dict[str, Any],
        face: str,
        report: Report,
        origins: list[tuple[int, str, int]] | None,
        probe: slots.Probe | None,
    ) -> str | None:
        """Render as `render` says (its body, run inside the collector's containment)."""
        from jinja2 import TemplateError, TemplateNotFound, TemplateSyntaxError
        from jinja2.exceptions import SecurityError

        from . import sandbox
        from .jinjaenv import TemplateRefused

        env = self.env  # made (and Jinja loaded) outside the budget: the face did not spend that time
        start = cpu.clock()
        each, total = cpu.scaled(sandbox.MAX_SECONDS), cpu.scaled(MAX_TOTAL_SECONDS)
        left = total - self.spent
        if left >= each:
            budget = sandbox.Budget(start + each, f"template used more than {each:g} s of CPU time")
        else:
            late = f"layout templates used more than {total:g} s of CPU time in all"
            budget = sandbox.Budget(start + left, late)
        if probe is not None:  # its markers are budgeted as the longest values they may stand for
            budget.extra = slots.EXTRA
        token = sandbox.CURRENT.set(budget)
        try:
            if left <= 0:
                raise sandbox.TimedOut(budget.late)
            template = env.get_template(name)
            chunks, size = [], 0
            pieces = template.generate(context)
            for chunk in pieces:
                if origins is not None:
                    origins.append((size, *_origin(pieces)))
                size += len(chunk) + (slots.beyond(chunk, budget.extra) if budget.extra else 0)
                if size > MAX_OUTPUT:
                    raise sandbox.exceeded(f"template output passed {MAX_OUTPUT} characters")
                chunks.append(chunk)
            return "".join(chunks)
        except TemplateRefused as exc:
            shown = self.display(exc.filename)
            code = "T002" if exc.refused.code == "Y001" else exc.refused.code
            report.error(code, exc.refused.message(shown), loc=Location(shown, 1, 1), hint=exc.refused.hint)
        except TemplateNotFound as exc:
            searched = ", ".join(self.display(str(f)) for f in self.folders)
            loc = self._loc(*self._blamed(_template_frames(exc)), str(exc.name))  # the include or import line
            message = f"no layout template '{exc.name}' (needed for {face})"
            report.error("T001", message, loc=loc, hint=f"looked in {searched}")
        except TemplateSyntaxError as exc:
            loc = self._loc(exc.filename, exc.lineno, _offending(exc.message or ""))
            report.error("T002", f"template syntax error: {exc.message}", loc=loc)
        except (SyntaxError, MemoryError) as exc:  # Python refused the compiled code, or memory ran out
            filename, lineno = _template_frame(exc)
            what = "nested too deeply to compile" if isinstance(exc, SyntaxError) else "ran out of memory"
            report.error(
                "T003",
                f"template {what} while rendering {face}",
                loc=self._loc(filename, lineno) or self.first_line(name),
            )
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
            self.timeouts += isinstance(exc, sandbox.TimedOut)
            frames = _template_frames(exc)
            filename, lineno = self._blamed(frames)
            kind = "template refused an unsafe operation" if isinstance(exc, SecurityError) else "template error"
            # Python words a RecursionError differently depending on where the limit is hit: say it one way.
            said = "maximum recursion depth exceeded" if isinstance(exc, RecursionError) else _short(str(exc))
            message = f"{kind} while rendering {face}: {said}"
            loc = self._loc(filename, lineno, _offending(said)) or self.first_line(name)
            hint = None
            if frames and (filename, lineno) != frames[-1]:
                inner, at = frames[-1]
                hint = f"it failed inside {self.display(inner)}:{at}, a shared template this line calls"
            report.error("T003", message, loc=loc, hint=hint)
        finally:
            sandbox.CURRENT.reset(token)
            self.spent += cpu.clock() - start
        return None

    def lay_out(self, name: str, context: dict[str, Any], face: str, size: tuple[float, float]) -> LayoutDoc | None:
        """Return the face's document bound from template `name`'s program (generator.layout.programs), or None
        when the face must be rendered and parsed for real."""
        found = self.source_of(name)
        if found is None:
            return None

        def render(slotted: dict[str, Any], report: Report, probe: slots.Probe) -> str | None:
            timeouts = self.timeouts  # a probe cut short says nothing about the face: it is rendered again
            try:
                return self.render(name, slotted, face, report, probe=probe)
            finally:
                self.timeouts = timeouts

        return self.programs.lay_out(name, context, face, size, self.display(str(found[1])), render)

    def first_line(self, name: str) -> Location | None:
        """Return the first line of template `name`, for a problem no template line can be blamed for."""
        found = self.source_of(name)
        return Location(self.display(str(found[1])), 1, 1) if found else None

    def source_location(
        self, origins: Sequence[tuple[int, str, int]], text: str, line: int, col: int
    ) -> tuple[Location, bool] | None:
        """Return the template line that wrote `line`:`col` of the rendered `text` (origins as `render` notes
        them), and whether the column is exact: it is when that line is the template's own text, verbatim."""
        lines = text.split("\n")
        if not 0 < line <= len(lines):
            return None
        offset = sum(len(t) + 1 for t in lines[: line - 1]) + col - 1
        at = bisect.bisect_right([start for start, _, _ in origins], offset) - 1
        if at < 0 or not origins[at][1]:
            return None
        _, filename, lineno = origins[at]
        try:
            source = safefile.read_text(filename, MAX_TEMPLATE_BYTES, self.roots).splitlines()
        except safefile.Refused:
            return None
        # Plain text is written by the node before it, so its own line is between that node's and the next's.
        later = [o[2] for o in origins[at + 1 :] if o[1] == filename and o[2] >= lineno]
        rendered = lines[line - 1]
        for number in range(max(lineno, 1), min(later[0] if later else len(source), len(source)) + 1):
            if source[number - 1] == rendered:
                return Location(self.display(filename), number, col, rendered), True
        found = self._loc(filename, lineno)
        return (found, False) if found else None

    def _blamed(self, frames: list[tuple[str, int]]) -> tuple[str | None, int | None]:
        """Return the innermost frame of a template the game wrote: a value it passed to a shared macro is its
        own mistake, so it is blamed at its own line, not inside the macro (when every frame is shared, the
        innermost)."""
        own = [f for f in frames if not os.path.abspath(f[0]).startswith(self.shared)]
        found = own[-1] if own else frames[-1] if frames else None
        return found if found else (None, None)

    def _loc(self, filename: str | None, lineno: int | None, name: str | None = None) -> Location | None:
        """Return the template line, at `name` on it when it is there, else at its first non-blank column."""
        if not filename or not lineno:
            return None
        try:
            lines = safefile.read_text(filename, MAX_TEMPLATE_BYTES, self.roots).splitlines()
        except safefile.Refused:
            lines = []
        text = lines[lineno - 1] if 0 < lineno <= len(lines) else ""
        col = len(text) - len(text.lstrip()) + 1
        if name:
            # the attribute after a dot first: `card.name.x` blames `x`'s `name`, not the card's
            at = re.search(rf"(?<=\.){re.escape(name)}(?!\w)", text) or re.search(
                rf"(?<!\w){re.escape(name)}(?!\w)", text
            )
            col = at.start() + 1 if at else col
        return Location(self.display(filename), lineno, col, text)


def _short(text: str, limit: int = 300) -> str:
    """Keep a message readable when an exception quotes a huge value."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _origin(pieces: Any) -> tuple[str, int]:
    """Return the template file and line that wrote the piece a template generator has just yielded: the
    innermost generator it is delegating to that runs template code (an include's, or the template's own)."""
    found = ("", 0)
    while pieces is not None:
        frame = getattr(pieces, "gi_frame", None)
        template = frame.f_globals.get("__jinja_template__") if frame else None
        if frame is not None and template is not None and template.filename:
            found = (template.filename, template.get_corresponding_lineno(frame.f_lineno))
        pieces = getattr(pieces, "gi_yieldfrom", None)
    return found


def _template_frames(exc: BaseException) -> list[tuple[str, int]]:
    """Return the traceback frames that belong to templates, outermost first (Jinja rewrites them so)."""
    return [
        (frame.filename, frame.lineno)
        for frame in traceback.extract_tb(exc.__traceback__)
        if frame.filename.endswith(".j2") and frame.lineno
    ]


def _template_frame(exc: BaseException) -> tuple[str | None, int | None]:
    """Find the innermost traceback frame that belongs to a template."""
    frames = _template_frames(exc)
    return frames[-1] if frames else (None, None)


# What a template error names, to point at it on the blamed line: an attribute, a variable, a keyword, a tag.
_NAMED = re.compile(
    r"has no attribute '(\w+)'|^'(\w+)' is undefined|takes no keyword argument '(\w+)'|unknown tag '(\w+)'"
)


def _offending(message: str) -> str | None:
    """Return the name a template error is about, when it says one."""
    found = _NAMED.search(message)
    return next((g for g in found.groups() if g), None) if found else None
