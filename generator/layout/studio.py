"""The layout stage: templates, fonts, icons and art for one game, turning each face into a drawable layout."""

from __future__ import annotations

import hashlib
import marshal
import pickle
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .. import resources
from ..art.place import ArtDesk
from ..diagnostics import Diagnostic, Location, Report
from ..kit import Face
from ..project import cache as disk
from ..project.folders import GameDir
from ..render.draw import SHAPES, Op, Prepared, from_plain, part_from, part_state, prepare, to_plain
from ..render.fonts import FontSet, load_fonts
from ..source.digest import file_digest, files_digest, text_digest, text_hash
from ..source.yamlsrc import Source
from . import cpu, document, lowink
from .document import Element
from .icons import IconSet, load_icons
from .limits import DEFAULTS, SAFE, Thresholds
from .markup import MarkupError, plain
from .templates import Templates
from .written import written

PAGE_SAFE = 5.0  # mm: full pages keep their content this far from the paper edge


def page_safe(face: Face) -> float | None:
    """Return the margin a page-sized face must keep from the paper edge; furniture may reach the marks."""
    return None if face.template == "furniture.yaml.j2" else PAGE_SAFE


@dataclass(frozen=True)
class Rendered:
    """One face as rendered, kept for reuse: the result, what was said about it, the files it read."""

    prepared: Prepared | None
    diagnostics: tuple[Diagnostic, ...]
    deps: tuple[tuple[str, str | None], ...]  # (art file, its digest or None when missing)

    def fresh(self) -> bool:
        """Return True while every file it read still has the same content."""
        return all(file_digest(Path(path)) == digest for path, digest in self.deps)


FACES_LIMIT = 512 * 1024 * 1024  # bytes of laid-out faces kept on disk; the least recently used go first


def keep_faces() -> None:
    """Write the faces laid out so far to the disk cache, then drop the least recently used past FACES_LIMIT."""
    disk.trim("faces", FACES_LIMIT)


class RenderCache:
    """Renders kept by a digest of everything they read, shared by every rebuild of one game (watch mode).

    With a `shelf`, renders are also kept on disk (`cardpress build` uses `~/.cache/cardpress/faces/`), so
    the next run lays out only the faces whose inputs changed. A disk entry's key adds cardpress's code and
    the project folder to the render's key; an unreadable entry is a miss. `prune` forgets what no render
    asked for since the previous prune, so a long session editing the same faces keeps only their latest.
    """

    def __init__(self, shelf: disk.Shelf | None = None, scope: str = "") -> None:
        self._items: dict[str, Rendered] = {}
        self._used: set[str] = set()
        self.shelf = shelf
        self.parts = Parts(shelf) if shelf is not None else None
        self.scope = scope  # the project folder: disk entries name it, since diagnostics and art paths do
        self._last = ("", "")  # the last face's key and its disk key

    def get(self, key: str) -> Rendered | None:
        """Return the render stored under `key` if every file it read is unchanged."""
        self._used.add(key)
        hit = self._items.get(key)
        if hit is None and self.shelf is not None:
            hit = self._load(key)
        return hit if hit is not None and hit.fresh() else None

    def put(self, key: str, rendered: Rendered) -> None:
        """Keep a render."""
        self._used.add(key)
        self._items[key] = rendered
        if self.shelf is not None:
            self.shelf.put(self._disk_key(key), _entry(rendered, self.parts))

    def prune(self) -> None:
        """Forget every render not asked for since the last prune."""
        if self._used:
            self._items = {k: v for k, v in self._items.items() if k in self._used}
        self._used = set()

    def __len__(self) -> int:
        return len(self._items)

    def _disk_key(self, key: str) -> str:
        if self._last[0] != key:  # a face missed is put next: its key is taken once for both
            self._last = (key, text_digest(disk.code_digest(), self.scope, key))
        return self._last[1]

    def _load(self, key: str) -> Rendered | None:
        assert self.shelf is not None and self.parts is not None
        data = self.shelf.get(self._disk_key(key))
        if data is None:
            return None
        try:
            found = _read_entry(data, self.parts)  # written by cardpress into the user's own cache, never by a project
        except Exception:  # a torn, foreign or outdated entry: lay the face out again
            return None
        self._items[key] = found
        return found


PLAIN, PICKLED = b"M", b"P"  # how a disk entry is written: its first byte


class Parts:
    """The shapes faces share (a layout program's unchanged ones), each with the calls that draw it, kept on disk
    once rather than in every face's entry: an entry names each by the digest of what it holds.

    A shape is drawn from its own properties alone (draw.SHAPES), so one element object always makes
    the same calls. A shape is kept apart from the second face that has it: one face's own is not worth a row."""

    MAX = 16_384  # elements remembered (and parts read); past this the memory starts again

    def __init__(self, shelf: disk.Shelf) -> None:
        self.shelf = shelf
        self.seen: dict[int, tuple[Element, str | None]] = {}  # by id, with the element: its part once shared
        self.read: dict[str, tuple[Element, tuple[Op, ...]]] = {}  # by part: faces read share its element

    def keep(self, el: Element, ops: tuple[Op, ...], at: int) -> str | None:
        """Return the part to write in place of `el` and its calls (`ops` from the `enter` at `at`), stored now if
        need be; None to write them in the face's own entry."""
        seen = self.seen.get(id(el))
        if seen is None or seen[0] is not el:
            if el.kind in SHAPES:
                if len(self.seen) >= self.MAX:
                    self.seen.clear()
                self.seen[id(el)] = (el, None)
            return None
        if seen[1] is None:
            try:
                blob = marshal.dumps(part_state(el, ops, at))
            except ValueError:  # a property marshal cannot write: the face goes by pickle
                return None
            part = "part:" + hashlib.sha256(disk.code_digest().encode() + b"\0" + blob).hexdigest()
            if self.shelf.get(part) is None:
                self.shelf.put(part, blob)
            self.seen[id(el)] = (el, part)
            return part
        return seen[1]

    def get(self, part: str) -> tuple[Element, tuple[Op, ...]]:
        """Return the element and calls a part holds (raises KeyError when it is not stored)."""
        found = self.read.get(part)
        if found is None:
            data = self.shelf.get(part)
            if data is None:
                raise KeyError(part)
            found = part_from(marshal.loads(data))
            if len(self.read) >= self.MAX:
                self.read.clear()
            self.read[part] = found
        return found


def _entry(rendered: Rendered, parts: Parts | None = None) -> bytes:
    """Return a render as a disk entry: plain values by marshal when it can be (most faces), else a pickle."""
    keep = parts.keep if parts is not None else None
    plain = to_plain(rendered.prepared, keep) if rendered.prepared is not None and not rendered.diagnostics else None
    if plain is not None:
        try:
            return PLAIN + marshal.dumps((plain, rendered.deps))
        except ValueError:  # a property marshal cannot write: the pickle can
            pass
    return PICKLED + pickle.dumps(rendered, protocol=pickle.HIGHEST_PROTOCOL)


def _read_entry(data: bytes, parts: Parts | None = None) -> Rendered:
    """Return the render a disk entry holds (raises on one that is torn or foreign, or names a part not stored)."""
    if data[:1] == PLAIN:
        plain, deps = marshal.loads(data[1:])
        return Rendered(from_plain(plain, parts.get if parts is not None else None), (), deps)
    found = pickle.loads(data[1:]) if data[:1] == PICKLED else None
    if not isinstance(found, Rendered):
        raise ValueError("not a render")
    return found


@dataclass
class Studio:
    """Everything needed to turn faces into drawable layouts for one game: templates, fonts, icons, art.

    Renders are cached by a digest of everything they read (template sources, context, size, fonts,
    icons, art bytes), so a cache shared between Studios (watch mode) re-renders only what changed.
    """

    root: Path
    templates: Templates
    fonts: FontSet
    icons: IconSet
    report: Report
    art: ArtDesk
    inputs: str = ""  # digest of the fonts and icons every face may use
    limits: Thresholds = DEFAULTS  # what the legibility lint asks of printed text
    cache: RenderCache = field(default_factory=lambda: RenderCache())
    variant: str = ""  # "" (as designed) or lowink.VARIANT: a palette applied to every parsed face
    rendered: list[str] = field(default_factory=list)  # keys of faces rendered afresh (not from the cache)
    said: dict[str, tuple[Diagnostic, ...]] = field(default_factory=dict)  # face key -> its diagnostics
    sources: dict[str, Source] = field(default_factory=dict)  # the game's loaded files: where printed text is written
    meter: cpu.Meter = field(default_factory=cpu.Meter)  # the CPU time each stage has used over this kit
    _key_memo: tuple[tuple[Any, ...], hashlib._Hash] | None = field(default=None, repr=False, compare=False)
    _last_reprs: dict[str, tuple[Any, str]] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def for_game(
        cls,
        game: GameDir,
        policy: str,
        report: Report,
        cache: RenderCache | None = None,
        limits: Thresholds = DEFAULTS,
        variant: str = "",
    ) -> Studio:
        """Set up templates, fonts, icons and art on the game's layout search path."""
        folders = game.layout_dirs()
        root = game.root
        fonts_dir = resources.fonts(root)
        editions = [(g.id, g.folder / "fonts") for g in game.chain if (g.folder / "fonts").is_dir()]
        inputs = files_digest(sorted(fonts_dir.iterdir()) if fonts_dir.is_dir() else []) + files_digest(
            [f / "icons.yaml" for f in folders]
        )
        drawn = [svg for f in folders if (f / "icons.yaml").is_file() for svg in sorted(f.glob("*.svg"))]
        if drawn:  # SVG icons beside an icons.yaml (none for the shipped games: their digests are unchanged)
            inputs += files_digest(drawn)
        for _, own in editions:  # a fan edition's own fonts (none for a game: its digest is unchanged)
            inputs += files_digest(sorted(own.iterdir()))
        if game.catalogue.translated:  # a translation's words are in every face its templates draw
            inputs += game.catalogue.digest
        return cls(
            root,
            Templates(
                folders,
                root,
                [root, *resources.installed(game.ruleset_layouts)],
                resources.common_layouts(root),
                game.catalogue,
            ),
            load_fonts(fonts_dir, root, editions[::-1]),
            load_icons(folders, report),
            report,
            ArtDesk(game, policy),
            inputs,
            limits,
            RenderCache(disk.shelf("faces"), str(root)) if cache is None else cache,
            variant=variant,
            sources=game.sources,
        )

    def key(self, face: Face, width: float, height: float, extra: dict[str, Any] | None, safe: float | None) -> str:
        """Return the digest of what a render reads, art files aside (they are checked after).

        The context goes in as its repr, in its own order: a template sees a mapping's order (a loop over it),
        so two contexts alike but for order are two renders. A value without a repr of its own (an object's
        address) would only make a miss."""
        return text_digest(
            self.templates.digest(face.template),
            self._context_repr(face.context),
            repr((width, height, safe, extra or {})),
            start=self._key_start(),
        )

    def _context_repr(self, context: dict[str, Any]) -> str:
        """Return repr(context), each entry's value written again only when it is not the last face's: the game's
        and the deck's mappings are on every card (a build does not change its context while it lays faces out)."""
        if type(context) is not dict:
            return repr(context)
        last, parts = self._last_reprs, []
        for name, value in context.items():
            kept = last.get(name)
            if kept is None or kept[0] is not value:
                kept = last[name] = (value, repr(value))
            parts.append(f"{name!r}: {kept[1]}")
        return "{" + ", ".join(parts) + "}"

    def _key_start(self) -> hashlib._Hash:
        """Return the hash of what every face's key begins with, taken again only when one of those changes."""
        settings = (self.variant, self.inputs, self.art.policy, self.limits)
        if self._key_memo is None or self._key_memo[0] != settings:
            variant = (self.variant,) if self.variant else ()  # the default keeps the digests it always had
            self._key_memo = (settings, text_hash(*variant, self.inputs, self.art.policy, repr(self.limits)))
        return self._key_memo[1]

    def render(
        self,
        face: Face,
        width: float,
        height: float,
        extra: dict[str, Any] | None = None,
        safe: float | None = SAFE,
    ) -> Prepared | None:
        """Render, parse, set, place art in and lint one face at a size; reuse an unchanged render."""
        key = self.key(face, width, height, extra, safe)
        hit = self.cache.get(key)
        if hit is not None:
            if hit.prepared is not None:  # set in an earlier run, perhaps: its fonts are not registered yet
                self.fonts.register(hit.prepared.fonts())
            self.report.extend(hit.diagnostics)
            self.said[face.key] = hit.diagnostics
            return hit.prepared
        self.rendered.append(face.key)
        timeouts = self.templates.timeouts
        report = Report()
        context = {**face.context, **(extra or {}), "face": {"w": width, "h": height, "safe": SAFE}}
        result, complete = None, True
        deps: list[tuple[str, str | None]] = []
        # Bound from the template's program when it can be, else rendered and parsed for real.
        bound = self.templates.lay_out(face.template, context, face.key, (width, height))
        text = self.templates.render(face.template, context, face.key, report) if bound is None else ""
        if text is not None:
            try:
                result = self._lay_out(face, key, context, text, bound, (width, height), safe, report, deps)
            except cpu.OverBudget as exc:  # located at the element being worked on, when there is one
                result, complete = None, False
                element = getattr(exc, "element", None)
                loc = self._locate(face, element) if element is not None else self.templates.first_line(face.template)
                report.error("T004", exc.message(face.key), loc=loc)
        self.report.extend(report.items)
        if complete and self.templates.timeouts == timeouts:  # a stage cut short by its CPU budget may finish
            self.cache.put(key, Rendered(result, tuple(report.items), tuple(deps)))
        self.said[face.key] = tuple(report.items)
        return result

    def _lay_out(
        self,
        face: Face,
        key: str,
        context: dict[str, Any],
        text: str,
        doc: document.LayoutDoc | None,
        size: tuple[float, float],
        safe: float | None,
        report: Report,
        deps: list[tuple[str, str | None]],
    ) -> Prepared | None:
        """Parse (unless bound already), set, place art in, trace and lint a face, each stage on its CPU budget."""
        if doc is None or self.variant == lowink.VARIANT:  # a face bound from its program has nothing to parse
            with self.meter.stage("parse"):
                if doc is None:
                    parsed = Report()
                    doc = document.parse(text, self._template_path(face.template), face.key, size, parsed)
                    report.extend(self._in_template(face, context, text, parsed.items))
                if doc is not None and self.variant == lowink.VARIANT:
                    doc = lowink.apply(doc)
        if doc is None:
            return None
        with self.meter.stage("text setting"):
            result, problems = prepare(doc, self.fonts)
        for misfit in problems:
            loc = self._written(face, misfit.chars[0], misfit.element) if misfit.chars else None
            self._problem(report, face, misfit.element, misfit.code, misfit.message, loc)
        for element in (el for el in document.walk(doc.elements) if el.kind == "image"):
            placed, dep = self.art.place(element, report, f"{face.key}: {element.name}: ", self._locate(face, element))
            result.images[id(element)] = placed
            if dep:
                deps.append(dep)
        from ..render.trace import record  # here: a rebuild of unchanged faces traces none

        with self.meter.stage("drawing"):
            ink = record(result, self.fonts, self.icons)
        from . import lint  # here, as the tracing: a rebuild of unchanged faces checks none

        with self.meter.stage("lint"):
            found = list(lint.check(doc, self.icons, safe, ink, self.limits))
        for finding in found:
            report.add(finding.diagnostic(face.key, self._locate(face, finding.element)))
        result.digest = text_digest(key, *(f"{path}\0{digest}" for path, digest in deps))
        return result

    def _in_template(self, face: Face, context: dict[str, Any], text: str, found: list[Diagnostic]) -> list[Diagnostic]:
        """Move problems found in a face's rendered layout to the template line that wrote them, naming the
        face; when that line is not the rendered one verbatim, the message says where in the rendering."""
        rendered = f" [{face.key}]"
        if not any(d.loc and d.loc.file.endswith(rendered) for d in found):
            return found
        origins: list[tuple[int, str, int]] = []
        self.templates.render(face.template, context, face.key, Report(), origins)  # again, noting who wrote what
        moved = []
        for d in found:
            if d.loc is None or not d.loc.file.endswith(rendered):
                moved.append(d)
                continue
            back = self.templates.source_location(origins, text, d.loc.line, d.loc.col)
            loc, exact = back if back else (self.templates.first_line(face.template), False)
            where = "" if exact else f" (at line {d.loc.line}, column {d.loc.col} of its rendered layout)"
            moved.append(replace(d, message=f"{face.key}: {d.message}{where}", loc=loc))
        return moved

    def _template_path(self, name: str) -> str:
        found = self.templates.source_of(name)
        return self.templates.display(str(found[1])) if found else name

    def _problem(
        self,
        report: Report,
        face: Face,
        element: document.Element,
        code: str,
        message: str,
        loc: Location | None = None,
    ) -> None:
        """Report a layout problem at `loc`, else at the template line that declares the element."""
        report.error(code, f"{face.key}: {element.name}: {message}", loc=loc or self._locate(face, element))

    def _written(self, face: Face, char: str, element: document.Element) -> Location | None:
        """Return where `char` of an element's text is written: in the game's data, else in the face's template."""
        found = written(self.sources.values(), char, self._text_of(element))
        template = self.templates.source_of(face.template)
        if found is None and template is not None and char in template[0]:
            text, path = template
            at = text.index(char)
            line = text.count("\n", 0, at)
            start = text.rfind("\n", 0, at) + 1
            found = Location(self.templates.display(str(path)), line + 1, at - start + 1, text.splitlines()[line])
        return found

    @staticmethod
    def _text_of(element: document.Element) -> str:
        """Return the words a text element prints (markup left out where it parses)."""
        value = str(element.props.get("text", element.props.get("rich", "")))
        if "text" in element.props:
            return value
        try:
            return plain(value)
        except MarkupError:
            return value

    def _locate(self, face: Face, element: document.Element) -> Location | None:
        """Return the template line that declares `element` (found by its id), or the template's first line."""
        found = self.templates.source_of(face.template)
        if not found:
            return None
        text, path = found
        display = self.templates.display(str(path))
        ident = element.props.get("id")
        if ident:
            match = re.search(rf"\bid\s*[:=]\s*['\"]?{re.escape(ident)}\b", text)
            if match:
                line = text.count("\n", 0, match.start())
                line_text = text.splitlines()[line]
                return Location(display, line + 1, match.start() - text.rfind("\n", 0, match.start()), line_text)
        return Location(display, 1, 1, "")
