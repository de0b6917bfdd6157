"""Build print kits: validate, render every face once, write each paper's PDF, then save atomically."""

from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from . import pipeline
from .art.place import DEFAULT_POLICY, POLICIES, ArtDesk
from .diagnostics import CardpressError, Diagnostic, Location, Report
from .digest import file_digest, files_digest, text_digest
from .kit import Face, Kit
from .layout import document, lint
from .layout.icons import IconSet, load_icons
from .layout.templates import Templates
from .render.draw import Prepared, prepare
from .render.fonts import FontSet, load_fonts
from .render.trace import trace

PAGE_SAFE = 5.0  # mm: full pages keep their content this far from the paper edge


@dataclass(frozen=True)
class Rendered:
    """One face as rendered, kept for reuse: the result, what was said about it, the files it read."""

    prepared: Prepared | None
    diagnostics: tuple[Diagnostic, ...]
    deps: tuple[tuple[str, str | None], ...]  # (art file, its digest or None when missing)

    def fresh(self) -> bool:
        """Return True while every file it read still has the same content."""
        return all(file_digest(Path(path)) == digest for path, digest in self.deps)


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
    cache: dict[str, Rendered] = field(default_factory=dict)
    touched: set[str] = field(default_factory=set)  # cache keys this studio used, fresh or reused
    rendered: list[str] = field(default_factory=list)  # keys of faces rendered afresh (not from the cache)
    said: dict[str, tuple[Diagnostic, ...]] = field(default_factory=dict)  # face key -> its diagnostics

    @classmethod
    def for_game(
        cls,
        loaded: pipeline.LoadedGame,
        report: Report,
        missing_art: str | None = None,
        cache: dict[str, Rendered] | None = None,
    ) -> Studio:
        """Set up templates, fonts, icons and art on the game's layout search path."""
        folders = loaded.dir.layout_dirs()
        root = loaded.dir.root
        fonts_dir = root / "fonts"
        inputs = files_digest(sorted(fonts_dir.iterdir()) if fonts_dir.is_dir() else []) + files_digest(
            [f / "icons.yaml" for f in folders]
        )
        desk = ArtDesk(loaded.dir, missing_art or art_policy(loaded.dir))
        return cls(
            root,
            Templates(folders, root),
            load_fonts(fonts_dir, root),
            load_icons(folders, report),
            report,
            desk,
            inputs,
            {} if cache is None else cache,
        )

    def key(self, face: Face, width: float, height: float, extra: dict | None, safe: float | None) -> str:
        """Return the digest of what a render reads, art files aside (they are checked after)."""
        return text_digest(
            self.inputs,
            self.art.policy,
            self.templates.digest(face.template),
            face.identity[1],
            json.dumps([width, height, safe, extra or {}], sort_keys=True, default=str),
        )

    def render(
        self, face: Face, width: float, height: float, extra: dict | None = None, safe: float | None = lint.SAFE
    ) -> Prepared | None:
        """Render, parse, set, place art in and lint one face at a size; reuse an unchanged render."""
        key = self.key(face, width, height, extra, safe)
        self.touched.add(key)
        hit = self.cache.get(key)
        if hit is not None and hit.fresh():
            self.report.extend(hit.diagnostics)
            self.said[face.key] = hit.diagnostics
            return hit.prepared
        self.rendered.append(face.key)
        report = Report()
        context = {**face.context, **(extra or {}), "face": {"w": width, "h": height, "safe": lint.SAFE}}
        result, deps = None, []
        text = self.templates.render(face.template, context, face.key, report)
        if text is not None:
            doc = document.parse(text, self._template_path(face.template), face.key, (width, height), report)
            if doc is not None:
                result, problems = prepare(doc, self.fonts)
                for element, message in problems:
                    self._problem(report, face, element, "L100", message)
                for element in (el for el in document.walk(doc.elements) if el.kind == "image"):
                    placed, dep = self.art.place(
                        element, report, f"{face.key}: {element.name}: ", self._locate(face, element)
                    )
                    result.images[id(element)] = placed
                    if dep:
                        deps.append(dep)
                game = self.art.game.sources.get("game.yaml")
                limits = lint.thresholds(game.data if game else None)
                for found in lint.check(doc, self.icons, safe, trace(result, self.fonts, self.icons), limits):
                    report.add(found.diagnostic(face.key, self._locate(face, found.element)))
                result.digest = text_digest(key, *(f"{path}\0{digest}" for path, digest in deps))
        self.report.extend(report.items)
        self.cache[key] = Rendered(result, tuple(report.items), tuple(deps))
        self.said[face.key] = tuple(report.items)
        return result

    def _template_path(self, name: str) -> str:
        found = self.templates.source_of(name)
        return self.templates.display(str(found[1])) if found else name

    def _problem(self, report: Report, face: Face, element, code: str, message: str) -> None:
        """Report a layout problem at the template line that declares the element, when it has an id."""
        report.error(code, f"{face.key}: {element.name}: {message}", loc=self._locate(face, element))

    def _locate(self, face: Face, element) -> Location | None:
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


def art_policy(game: pipeline.GameDir) -> str:
    """Return the game's `missing_art` policy from game.yaml (placeholder, warn or error)."""
    source = game.sources.get("game.yaml")
    value = source.data.get("missing_art") if source and isinstance(source.data, dict) else None
    return value if value in POLICIES else DEFAULT_POLICY


def make_kit(loaded: pipeline.LoadedGame, players: int | None, report: Report) -> Kit:
    """Return the kit for a player count (default: the game's), refusing a count the game does not support."""
    model = loaded.model
    count = players if players is not None else model.default_players
    if count not in model.players:
        supported = ", ".join(map(str, model.players))
        report.error(
            "B001",
            f"{loaded.dir.id} supports {supported} players, not {count}",
            hint=f"use --players with one of {supported}",
        )
        raise CardpressError(report)
    return loaded.ruleset.kit(model, count, loaded.dir.id)


def render_cards(studio: Studio, cards) -> dict[str, Prepared | None]:
    """Render the front and back of each card once per distinct face; return {face key: result}."""
    faces: dict[str, Prepared | None] = {}
    for card in cards:
        for face in (card.front, card.back):
            if face.key not in faces:
                faces[face.key] = studio.render(face, *card.size)
    return faces


def prepare_kit(
    loaded: pipeline.LoadedGame,
    players: int | None,
    report: Report,
    missing_art: str | None = None,
    cache: dict[str, Rendered] | None = None,
) -> tuple[Kit, Studio, dict]:
    """Make the kit for a player count and render every card face once; problems go to `report`."""
    kit = make_kit(loaded, players, report)
    studio = Studio.for_game(loaded, report, missing_art, cache)
    faces = render_cards(studio, kit.cards)
    check_backs(kit, report)
    return kit, studio, faces


def render_pages(kit: Kit, studio: Studio, paper: str = "a4", pages=None) -> dict[str, Prepared | None]:
    """Render each full-page component (mat, record sheet) once, as it prints on `paper` in the whole kit;
    only those in `pages`, when given."""
    from .render.kitpdf import component_pages

    wanted = None if pages is None else {p.face.key for p in pages}
    return {
        page.face.key: studio.render(page.face, size[0], size[1], extra, safe=page_safe(page.face))
        for page, size, extra in component_pages(kit, paper)
        if wanted is None or page.face.key in wanted
    }


def page_safe(face: Face) -> float | None:
    """Return the margin a page-sized face must keep from the paper edge; furniture may reach the marks."""
    return None if face.template == "furniture.yaml.j2" else PAGE_SAFE


def check_backs(kit: Kit, report: Report) -> None:
    """Cards shuffled together must share one back, or the back gives a card away."""
    backs: dict[str, dict[tuple, list[str]]] = {}
    for card in kit.cards:
        backs.setdefault(card.deck, {}).setdefault(card.back.identity, []).append(card.id)
    for deck, variants in backs.items():
        if len(variants) > 1:
            groups = sorted(variants.values(), key=len)
            report.error(
                "B002",
                f"deck '{deck}' has {len(variants)} different backs; {', '.join(groups[0])} differ from the rest",
                hint="every card of one shuffled deck must print the same back",
            )


def render_pdfs(kit: Kit, studio: Studio, faces: dict, papers: list[str]) -> dict[str, bytes]:
    """Return {paper: PDF bytes}; layout problems found on the way go to the studio's report."""
    from .render import kitpdf

    def render_page(face: Face, width: float, height: float, extra: dict) -> Prepared | None:
        return studio.render(face, width, height, extra, safe=page_safe(face))

    return {paper: kitpdf.write(kit, paper, faces, render_page, studio.fonts, studio.icons) for paper in papers}


def lint_kit(
    loaded: pipeline.LoadedGame, report: Report, players: int | None = None, missing_art: str | None = None
) -> None:
    """Run the layout lint a build would run (every face, every page, both papers), drawing nothing."""
    if not hasattr(loaded.ruleset, "kit"):
        return  # a ruleset without a print kit yet has nothing to lay out
    try:
        kit, studio, faces = prepare_kit(loaded, players, report, missing_art)
    except CardpressError as exc:
        report.extend(exc.report.items)
        return
    from .render.kitpdf import page_faces

    for paper in ("a4", "letter"):  # every page-sized face a build would draw, laid out but not drawn
        for _, face, size, extra in page_faces(kit, paper):
            studio.render(face, size[0], size[1], extra, safe=page_safe(face))


def build(
    root: Path,
    game_id: str | None,
    papers: list[str],
    players: int | None,
    out: Path,
    missing_art: str | None = None,
    report: Report | None = None,
) -> list[Path]:
    """Validate and build every named game; write nothing unless all of them succeed.

    Warnings (and, on failure, errors) are collected in `report` when one is given.
    """
    report = report if report is not None else Report()
    results: dict[str, dict[str, bytes]] = {}
    for gid in pipeline.resolve_games(root, game_id):
        loaded, game_report = pipeline.validate(root, gid)
        report.extend(game_report.items)
        if loaded is None or not game_report.ok():
            continue
        try:
            kit, studio, faces = prepare_kit(loaded, players, report, missing_art)
        except CardpressError:
            continue
        if not report.ok():
            continue
        pdfs = render_pdfs(kit, studio, faces, papers)
        if report.ok():
            results[gid] = pdfs
    if not report.ok():
        raise CardpressError(report)
    written = []
    for gid, pdfs in results.items():
        for paper, data in pdfs.items():
            written.append(write_atomic(out / gid / f"{gid}-{paper}.pdf", data))
    return written


def write_atomic(path: Path, data: bytes) -> Path:
    """Write `data` to `path` through a temporary file, so a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o644)  # mkstemp makes files private; a PDF is for sharing
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    return path
