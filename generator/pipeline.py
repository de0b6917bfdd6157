"""The one pipeline every command runs a game through: load → validate → kit → impose → layout → render.

Each stage runs the ones before it once and keeps its result; problems go to the pipeline's report. `build`,
`validate`, `proof`, `art`, `watch` and `serve` all drive this object and stop at the stage they need.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from . import registry as rulesets
from .contract import Capability, LoadedGame, Ruleset
from .diagnostics import CardpressError, Location, Report, did_you_mean
from .editions import chain as edition
from .i18n import translation
from .i18n.catalogue import Catalogue
from .impose import boxes
from .impose.plan import Imposition, impose
from .impose.sheets import PAPERS as PAPER_SIZES
from .impose.sheets import PrintOptions, SheetError
from .impose.sizes import size_conflicts
from .kit import Card, Face, Kit, Page, Rules
from .layout.limits import thresholds
from .layout.studio import RenderCache, Studio, page_safe
from .project import rulings
from .project.folders import GameDir
from .project.locate import list_games
from .render.draw import Prepared
from .source import safefile, schema, yamlsrc
from .source.header import read_header
from .source.rulebook import MAX_BYTES as MAX_RULEBOOK
from .source.rulebook import RULEBOOK_FILE

if TYPE_CHECKING:
    from .source.edits import Edits

T = TypeVar("T")

PAPERS = ("a4", "letter")
PAPER_NAMES = {paper: name for paper, (name, _, _) in PAPER_SIZES.items()}

__all__ = ["Pipeline", "LoadedGame", "load", "validate", "resolve_games", "PAPERS"]


class Pipeline:
    """One game carried through the stages; a stage returns None when it (or one before it) could not run."""

    def __init__(
        self,
        root: Path,
        game_id: str,
        *,
        players: int | None = None,
        missing_art: str | None = None,
        cache: RenderCache | None = None,
        options: PrintOptions | None = None,
        edits: Edits | None = None,
        variant: str = "",
        words: Callable[[GameDir, Ruleset[Any]], Catalogue] | None = None,
        rules: bool = True,
    ):
        self.root, self.game_id = root, game_id
        self.players, self.missing_art = players, missing_art
        self.cache = cache
        self.options = options or PrintOptions()  # how the home kit is printed: duplex edge, offset, margin
        self.edits = {name: list(e) for name, e in (edits or {}).items()}  # applied as each file is read
        self.variant = variant  # "" or "low-ink": the palette the layout stage applies (generator.layout.lowink)
        self.words = words  # the catalogue to print with instead of the game's own (the pseudo-locale's)
        self.rules = rules  # False: hold the cards to no rules (the pseudo-locale lays out words no rulebook has)
        self.report = Report()
        self._done: dict[str, object] = {}

    def _once(self, stage: str, run: Callable[[], T]) -> T:
        if stage not in self._done:
            self._done[stage] = run()
        return cast(T, self._done[stage])

    # -- load: files → model (schema layer) -------------------------------------------------------------

    def load(self) -> LoadedGame[Any] | None:
        """Read game.yaml's header, pick the ruleset, and let it load the card files into a model."""
        return self._once("load", self._load)

    def _load(self) -> LoadedGame[Any] | None:
        game = edition.open_game(self.root, self.game_id, self.report)  # a fan edition: its chain of bases
        if game is None or not self.report.ok():
            return None
        game.edits = self.edits
        game.edit("game.yaml", self.report)
        if not self.report.ok():
            return None
        source = game.sources["game.yaml"]
        ruleset = self._ruleset(game, source)
        if ruleset is None:
            return None
        layouts = ruleset.pack().layouts
        for level in game.chain:
            level.ruleset = ruleset.name
            level.ruleset_layouts = (layouts,) if layouts is not None else ()
        schema.check(source, ruleset.game_schema or "game-header", self.report)
        header = read_header(source, self.report, edition.based_on(game))
        if game.bases:  # a fan edition's credits add to those of the games it is based on
            header = dataclasses.replace(header, credits=edition.credits(game))
        game.catalogue = (
            translation.catalogue(game, ruleset, header.language, self.report)
            if self.words is None
            else self.words(game, ruleset)
        )
        model = ruleset.load(game, header, self.report, known_icons(game))
        if model is None or not self.report.ok():
            return None
        return LoadedGame(game, header, ruleset, model)

    def _ruleset(self, game: GameDir, source: yamlsrc.Source) -> Ruleset[Any] | None:
        """Return the ruleset game.yaml names, reporting a missing, misspelt or broken one."""
        data = source.data if isinstance(source.data, dict) else {}
        name = data.get("ruleset")
        where = source.loc(("ruleset",)) if "ruleset" in data else source.loc()
        known = rulesets.names()
        if not isinstance(name, str):
            message = "missing required key 'ruleset'" if name is None else "ruleset must be a name"
            self.report.error(
                "S002" if name is None else "S001",
                message,
                path="ruleset",
                loc=where,
                hint=f"rulesets: {', '.join(known)}",
            )
            return None
        found = rulesets.get(name)
        if found is None:
            hint = did_you_mean(name, known) or f"rulesets: {', '.join(known)}"
            self.report.error("S005", f"unknown ruleset '{name}'", path="ruleset", loc=where, hint=hint)
            return None
        if found.plugin is None:
            self.report.error(
                "G002",
                f"the ruleset '{name}' ({found.origin}) could not be loaded: {found.problem}",
                path="ruleset",
                loc=where,
                hint="reinstall the package that provides it",
            )
            return None
        return found.plugin

    # -- validate: the rules layer --------------------------------------------------------------------------

    def validate(self) -> LoadedGame[Any] | None:
        """Load, then hold the cards to the rules when the ruleset declares a rules check."""
        return self._once("validate", self._validate)

    def _validate(self) -> LoadedGame[Any] | None:
        game = self.load()
        if game is not None and self.rules and game.ruleset.offers(Capability.RULES):
            since = len(self.report.items)
            rulings.check_rules(game, self.report, self.edits)
            edition.advise_rulebook(game.dir, self.report, since)
        if game is not None:
            edition.check_strays(game.dir, self.report)
        return game

    # -- kit: what the game prints for a player count ------------------------------------------------------

    def kit(self) -> Kit | None:
        """Return the kit for the chosen player count (default: the game's), refusing one it does not support."""
        return self._once("kit", self._kit)

    def _kit(self) -> Kit | None:
        game = self.validate()
        if game is None:
            return None
        count = self.players if self.players is not None else game.header.default_players
        if count not in game.header.players:
            supported = ", ".join(map(str, game.header.players))
            self.report.error(
                "B001",
                f"{game.dir.id} supports {supported} players, not {count}",
                hint=f"use --players with one of {supported}",
            )
            return None
        kit = game.ruleset.kit(game, count)
        kit.rules = rules_of(game, self.report)
        check_backs(kit, self.report)
        conflicts = size_conflicts(kit.cards)
        for conflict in conflicts:
            self.report.error("B004", conflict.message, hint="every card of one deck must have the same size")
        if conflicts:
            return None
        said = len(self.report.items)
        options = boxes.read_options(game.dir.sources["game.yaml"], self.report, {card.deck for card in kit.cards})
        kit.boxes = boxes.kit_boxes(kit, options, boxes.players_text(game.header.players))
        return kit if len(self.report.items) == said else None

    # -- impose: every deck's sheets and the page plan, once per paper ---------------------------------------

    def imposition(self, paper: str) -> Imposition | None:
        """Return the kit laid out on `paper` (sheets and page plan), reporting why it cannot be."""
        return self._once(f"impose-{paper}", lambda: self._imposition(paper))

    def sheets(self, paper: str) -> bool:
        """Return True when every deck's sheet can be laid out on `paper` with these print options."""
        return self.imposition(paper) is not None

    def _imposition(self, paper: str) -> Imposition | None:
        kit = self.kit()
        if kit is None:
            return None
        imposed = self._impose(kit, paper)
        if isinstance(imposed, Imposition):
            return imposed if self._boxes_fit(kit, paper) else None
        # Only the card size is the user's to change (no game.yaml declares a grid), or the paper.
        elsewhere = [p for p in PAPERS if p != paper and isinstance(self._impose(kit, p), Imposition)]
        hint = "choose a smaller card size" + (
            f", or print on {PAPER_NAMES[elsewhere[0]]} only (--paper {elsewhere[0]})" if elsewhere else ""
        )
        for deck, problem in imposed.decks or (("", str(imposed)),):
            self.report.error(
                "B005",
                f"{PAPER_NAMES.get(paper, paper)}: " + (f"deck '{deck}': " if deck else "") + problem,
                loc=kit.size_places.get(deck),
                hint=hint,
            )
        return None

    def _boxes_fit(self, kit: Kit, paper: str) -> bool:
        """Check that every deck's tuck box fits on `paper`, if need be split over two sheets."""
        found = boxes.problems(kit.boxes, paper) if kit.boxes is not None else []
        game = self.load()
        source = game.dir.sources["game.yaml"] if game is not None else None
        for box, message, hint in found:
            where = kit.size_places.get(box.id)
            if where is None and source is not None:
                data = source.data if isinstance(source.data, dict) else {}
                where = source.loc(("boxes",)) if "boxes" in data else source.loc()
            self.report.error("B006", message, loc=where, hint=hint)
        return not found

    def _impose(self, kit: Kit, paper: str) -> Imposition | SheetError:
        """Return `kit` imposed on `paper` with these print options, or why it cannot be (each paper once)."""

        def run() -> Imposition | SheetError:
            try:
                return impose(kit, paper, self.options, self._rules_pages(kit, paper))
            except SheetError as exc:
                return exc

        return self._once(f"try-impose-{paper}", run)

    def _rules_pages(self, kit: Kit, paper: str) -> int:
        """Return how many pages the kit's rulebook sets into on `paper` (booklet pages when it folds), or 0."""
        studio = self.studio() if kit.rules is not None else None
        if studio is None:
            return 0
        from .render.keptrules import rules_book  # kept from an earlier run: no platypus to import

        book = rules_book(kit, paper, self.options.duplex, studio.fonts, studio.icons)
        return len(book) if book is not None else 0

    # -- layout: templates → layout documents, set and linted --------------------------------------------------

    def studio(self) -> Studio | None:
        """Return the templates, fonts, icons and art the faces are laid out with."""
        return self._once("studio", self._studio)

    def _studio(self) -> Studio | None:
        game = self.load()
        if game is None:
            return None
        policy = self.missing_art or game.header.missing_art
        limits = thresholds(game.dir.sources["game.yaml"].data)
        return Studio.for_game(game.dir, policy, self.report, self.cache, limits, self.variant)

    def layout(self, cards: Sequence[Card] | None = None) -> dict[str, Prepared | None] | None:
        """Lay out the front and back of every card (or of `cards`) once per distinct face: {face key: layout}."""
        kit, studio = self.kit(), self.studio()
        if kit is None or studio is None:
            return None
        faces: dict[str, Prepared | None] = {}
        for card in kit.cards if cards is None else cards:
            for face in (card.front, card.back):
                if face.key not in faces:
                    faces[face.key] = studio.render(face, *card.size)
        return faces

    def pages(self, paper: str = "a4", only: Sequence[Page] | None = None) -> dict[str, Prepared | None]:
        """Lay out each full-page component (mat, record sheet) once, as it prints on `paper` in the whole kit."""
        from .render.kitpdf import component_pages

        kit, studio, imposed = self.kit(), self.studio(), self.imposition(paper)
        if kit is None or studio is None or imposed is None:
            return {}
        wanted = None if only is None else {p.face.key for p in only}
        return {
            page.face.key: studio.render(page.face, size[0], size[1], extra, safe=page_safe(page.face))
            for page, size, extra in component_pages(kit, imposed)
            if wanted is None or page.face.key in wanted
        }

    def lint(self, papers: Sequence[str] = PAPERS) -> None:
        """Lay out every face and every page-sized face on each paper, as a build would, without drawing."""
        from .render.kitpdf import page_faces

        kit, studio = self.kit(), self.studio()
        if kit is None or studio is None or self.layout() is None:
            return
        for paper in papers:
            imposed = self.imposition(paper)
            if imposed is None:
                continue
            for _, face, size, extra in page_faces(kit, imposed):
                studio.render(face, size[0], size[1], extra, safe=page_safe(face))

    # -- render: impose the faces on sheets and draw each paper's PDF ------------------------------------------

    def render(self, papers: Sequence[str] = PAPERS) -> dict[str, bytes] | None:
        """Return {paper: PDF bytes}, or None when anything so far (or the pages drawn now) had an error."""
        from .render import kitpdf

        kit, studio, faces = self.kit(), self.studio(), self.layout()
        if kit is None or studio is None or faces is None or not self.report.ok():
            return None
        imposed = [self.imposition(paper) for paper in papers]  # every paper's problems, not only the first's
        if any(i is None for i in imposed):
            return None

        def render_page(face: Face, width: float, height: float, extra: dict[str, Any]) -> Prepared | None:
            return studio.render(face, width, height, extra, safe=page_safe(face))

        pdfs = {
            i.paper: kitpdf.write(kit, i, cast("dict[str, Prepared]", faces), render_page, studio.fonts, studio.icons)
            for i in imposed
            if i is not None
        }
        return pdfs if self.report.ok() else None


def check_backs(kit: Kit, report: Report) -> None:
    """Cards shuffled together must share one back, or the back gives a card away."""
    backs: dict[str, dict[tuple[Any, ...], list[str]]] = {}
    for card in kit.cards:
        backs.setdefault(card.deck, {}).setdefault(card.back.identity, []).append(card.id)
    for deck, variants in backs.items():
        if len(variants) > 1 and deck not in kit.per_card_backs:
            groups = sorted(variants.values(), key=len)
            report.error(
                "B002",
                f"deck '{deck}' has {len(variants)} different backs; {', '.join(groups[0])} differ from the rest",
                hint="every card of one shuffled deck must print the same back",
            )


def rules_of(game: LoadedGame[Any], report: Report) -> Rules | None:
    """Return the rulebook the kit prints as pages (through the edition chain), or None when there is none to print.

    A game without rulebook.txt, or whose game.yaml says `rules_pages: {place: none}`, prints no rules pages.
    """
    header = game.header
    path = game.dir.find(RULEBOOK_FILE)
    if path is None or header.rules_place == "none":
        return None
    display = game.dir.shown(path)
    try:
        text = safefile.read_text(path, MAX_RULEBOOK)
    except safefile.Refused as exc:
        if not any(d.loc is not None and d.loc.file == display for d in report.items):  # the rules check's
            report.error(
                "B020", f"{RULEBOOK_FILE} cannot be printed as rules pages: {exc.reason}", loc=Location(display, 1, 1)
            )
        return None
    return Rules(text, display, header.rules_place, header.rules_booklet)


def known_icons(game: GameDir) -> set[str]:
    """Return the names of the icons the game's layouts define."""
    from .layout.icons import load_icons

    return set(load_icons(game.layout_dirs()).names())


def load(root: Path, game_id: str, report: Report | None = None) -> LoadedGame[Any]:
    """Load one game through the schema layer; raise CardpressError listing every problem."""
    pipeline = Pipeline(root, game_id)
    game = pipeline.load()
    if report is not None:
        report.extend(pipeline.report.items)
    if game is None:
        raise CardpressError(pipeline.report)
    return game


def validate(root: Path, game_id: str) -> tuple[LoadedGame[Any] | None, Report]:
    """Run the schema and rules layers; return the game (if it loaded) and the report."""
    pipeline = Pipeline(root, game_id)
    return pipeline.validate(), pipeline.report


def resolve_games(root: Path, game_id: str | None) -> list[str]:
    """Return [game_id], or every game under cards/ when none is named."""
    return [game_id] if game_id else list_games(root)
