"""Build print kits: validate, render every face once, write each paper's PDF, then save atomically."""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from . import pipeline
from .diagnostics import CardpressError, Location, Report
from .kit import Face, Kit
from .layout import document, lint
from .layout.icons import IconSet, load_icons
from .layout.templates import Templates
from .render.draw import Prepared, prepare
from .render.fonts import FontSet, load_fonts

PAGE_SAFE = 5.0  # mm: full pages keep their content this far from the paper edge


@dataclass
class Studio:
    """Everything needed to turn faces into drawable layouts for one game: templates, fonts, icons."""

    root: Path
    templates: Templates
    fonts: FontSet
    icons: IconSet
    report: Report
    cache: dict[tuple, Prepared | None] = field(default_factory=dict)

    @classmethod
    def for_game(cls, loaded: pipeline.LoadedGame, report: Report) -> "Studio":
        """Set up templates, fonts and icons on the game's layout search path."""
        folders = loaded.dir.layout_dirs()
        root = loaded.dir.root
        return cls(root, Templates(folders, root), load_fonts(root / "fonts", root), load_icons(folders, report),
                   report)

    def render(self, face: Face, width: float, height: float, extra: dict | None = None,
               safe: float | None = lint.SAFE) -> Prepared | None:
        """Render, parse, set and lint one face at a size (cached by template, data and size)."""
        key = (face.identity, width, height, repr(sorted((extra or {}).items())))
        if key in self.cache:
            return self.cache[key]
        context = {**face.context, **(extra or {}), "face": {"w": width, "h": height, "safe": lint.SAFE}}
        result = None
        text = self.templates.render(face.template, context, face.key, self.report)
        if text is not None:
            doc = document.parse(text, self._template_path(face.template), face.key, (width, height), self.report)
            if doc is not None:
                result, problems = prepare(doc, self.fonts)
                for element, message in problems:
                    self._problem(face, element, "L100", message)
                if safe is not None:
                    for element, code, message in lint.check(doc, self.icons, safe):
                        self._problem(face, element, code, message)
        self.cache[key] = result
        return result

    def _template_path(self, name: str) -> str:
        found = self.templates.source_of(name)
        return self.templates.display(str(found[1])) if found else name

    def _problem(self, face: Face, element, code: str, message: str) -> None:
        """Report a layout problem at the template line that declares the element, when it has an id."""
        found = self.templates.source_of(face.template)
        loc = None
        if found:
            text, path = found
            display = self.templates.display(str(path))
            loc = Location(display, 1, 1, "")
            ident = element.props.get("id")
            if ident:
                match = re.search(rf"\bid\s*[:=]\s*['\"]?{re.escape(ident)}\b", text)
                if match:
                    line = text.count("\n", 0, match.start())
                    line_text = text.splitlines()[line]
                    loc = Location(display, line + 1, match.start() - text.rfind("\n", 0, match.start()), line_text)
        self.report.error(code, f"{face.key}: {element.name}: {message}", loc=loc)


def prepare_kit(loaded: pipeline.LoadedGame, players: int | None, report: Report) -> tuple[Kit, Studio, dict]:
    """Make the kit for a player count and render every card face once; problems go to `report`."""
    model = loaded.model
    count = players if players is not None else model.default_players
    if count not in model.players:
        supported = ", ".join(map(str, model.players))
        report.error("B001", f"{loaded.dir.id} supports {supported} players, not {count}",
                     hint=f"use --players with one of {supported}")
        raise CardpressError(report)
    kit = loaded.ruleset.kit(model, count, loaded.dir.id)
    studio = Studio.for_game(loaded, report)
    faces: dict[str, Prepared] = {}
    for card in kit.cards:
        for face in (card.front, card.back):
            if face.key not in faces:
                faces[face.key] = studio.render(face, *card.size)
    check_backs(kit, report)
    return kit, studio, faces


def check_backs(kit: Kit, report: Report) -> None:
    """Cards shuffled together must share one back, or the back gives a card away."""
    backs: dict[str, dict[tuple, list[str]]] = {}
    for card in kit.cards:
        backs.setdefault(card.deck, {}).setdefault(card.back.identity, []).append(card.id)
    for deck, variants in backs.items():
        if len(variants) > 1:
            groups = sorted(variants.values(), key=len)
            report.error("B002", f"deck '{deck}' has {len(variants)} different backs; "
                                 f"{', '.join(groups[0])} differ from the rest",
                         hint="every card of one shuffled deck must print the same back")


def render_pdfs(kit: Kit, studio: Studio, faces: dict, papers: list[str]) -> dict[str, bytes]:
    """Return {paper: PDF bytes}; layout problems found on the way go to the studio's report."""
    from .render import kitpdf

    def render_page(face: Face, width: float, height: float, extra: dict) -> Prepared | None:
        page_like = face.template not in ("furniture.yaml.j2",)
        return studio.render(face, width, height, extra, safe=PAGE_SAFE if page_like else None)

    return {paper: kitpdf.write(kit, paper, faces, render_page, studio.fonts, studio.icons) for paper in papers}


def build(root: Path, game_id: str | None, papers: list[str], players: int | None, out: Path) -> list[Path]:
    """Validate and build every named game; write nothing unless all of them succeed."""
    report = Report()
    results: dict[str, dict[str, bytes]] = {}
    for gid in pipeline.resolve_games(root, game_id):
        loaded, game_report = pipeline.validate(root, gid)
        report.extend(game_report.items)
        if loaded is None or not game_report.ok():
            continue
        try:
            kit, studio, faces = prepare_kit(loaded, players, report)
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
