"""The one contract between cardpress's generic core and a game's ruleset: what it must provide, what it may add.

A ruleset must load a game folder into a model (with located diagnostics) and say what kit the model prints.
It may declare capabilities: a rules check, a simulation plugin (with variants), and extra commands such as
`explain` or `analyze` with their own options. The core reads the declaration; it never probes for methods.
Rulesets register under the `cardpress.rulesets` entry-point group (see `generator.registry`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from .i18n.catalogue import ENGLISH, Catalogue
from .kit import AND, BY, UNVERSIONED, Kit

if TYPE_CHECKING:
    from .diagnostics import Report
    from .i18n.catalogue import Message
    from .project.folders import GameDir
    from .sim.plugin import Plugin

ENTRY_POINT_GROUP = "cardpress.rulesets"
ART_POLICIES = ("placeholder", "warn", "error")  # what missing art is: stood in for quietly, a warning, an error
DEFAULT_ART_POLICY = "warn"

M = TypeVar("M")  # a ruleset's model: what its load returns and its kit, rules check and simulation read


class Capability(StrEnum):
    """What a ruleset may add to loading and printing."""

    RULES = "rules"  # check_rules: the cards are held to the rules (and the rulebook)
    SIMULATE = "simulate"  # simulation: an engine, bots and report sections for `simulate`
    COMMANDS = "commands"  # commands: extra per-game commands (`explain`, `analyze`) with their own options


@dataclass(frozen=True)
class Header:
    """What every game.yaml says about the game itself, whatever its ruleset; parsed once by the core."""

    ruleset: str
    title: str
    players: tuple[int, ...]  # supported player counts, ascending
    default_players: int
    tagline: str = ""
    publisher: str = ""
    edition: str = ""
    credits: tuple[str, ...] = ()  # who made what: "Art: …", "Fan edition by …"
    missing_art: str = DEFAULT_ART_POLICY  # one of ART_POLICIES
    # A fan edition's own metadata (empty for a game): what it extends and who made it.
    extends: str = ""  # the folder id of the game or edition it is based on
    version: str = ""
    authors: tuple[str, ...] = ()
    licence: str = ""
    based_on: str = ""  # what the cover names as its origin, e.g. "Pocket Foundry (Round & Revel, First edition)"
    rules_place: str = "end"  # where the kit prints rulebook.txt: end (after everything else), after-cover or none
    rules_booklet: bool = False  # the rules pages fold into a booklet (A5 on A4, half-Letter on Letter)
    sheets: str = "shared"  # "shared": decks of one card size share sheets; "per-deck": a deck starts its own
    language: str = ""  # a translation's language (BCP 47, `fr`); its words come from its messages.po

    def byline(self, words: Catalogue = ENGLISH) -> str:
        """Return the line printed at the foot of every page: title, publisher, edition (and a fan edition's own)."""
        if self.extends:
            return " · ".join(x for x in (self.title, self.version and f"v{self.version}", self.by(words)) if x)
        return " · ".join(x for x in (self.title, self.publisher, self.edition) if x)

    def by(self, words: Catalogue = ENGLISH) -> str:
        """Return "by Ada and Grace" for a fan edition's authors, or ""."""
        if not self.authors:
            return ""
        names = list(self.authors)
        joined = (
            names[0]
            if len(names) == 1
            else words.form(AND.id, AND.context, names=", ".join(names[:-1]), last=names[-1])
        )
        return words.form(BY.id, BY.context, names=joined)


@dataclass(frozen=True)
class Pack:
    """A ruleset's own files, found through the ruleset (package resources for an installed plugin)."""

    schemas: Path | None = None  # its JSON Schemas: YAML files whose $id is cardpress:<name>, loaded with the core's
    layouts: Path | None = None  # its templates and icons.yaml: after a game's own folders, before the shared ones
    games: Path | None = None  # games it ships, a folder each: any project can build or extend them by id


@dataclass(frozen=True)
class GameCommand:
    """An extra command a ruleset offers, e.g. `explain`: `run(game, **options)` with Typer-annotated options.

    `run`'s first parameter receives the loaded game; the others are the command's own arguments and options,
    declared with `typer.Argument`/`typer.Option` defaults, so `cardpress NAME GAME --help` lists them.
    """

    name: str
    help: str
    run: Callable[..., None]


@dataclass(frozen=True)
class LoadedGame(Generic[M]):
    """A game folder, its header, its ruleset and the model its card files describe."""

    dir: GameDir
    header: Header
    ruleset: Ruleset[M]
    model: M

    def new_kit(self, players: int, **contents: Any) -> Kit:
        """Return an empty kit for this game with what its header says (id, title, the byline on every page)."""
        header = self.header
        words = self.dir.catalogue
        context: dict[str, Any] = {"title": header.title, "tagline": header.tagline, "credits": list(header.credits)}
        sheet = ""
        if header.extends:  # a fan edition says who made it and what it is based on, on the cover and every sheet
            context["edition"] = {
                "version": header.version,
                "by": header.by(words),
                "licence": header.licence,
                "based_on": header.based_on,
            }
            sheet = (
                f"{header.title} v{header.version}"
                if header.version
                else words.form(UNVERSIONED.id, UNVERSIONED.context, title=header.title)
            )
        contents["context"] = {**context, **contents.get("context", {})}
        return Kit(
            game=self.dir.id,
            title=header.title,
            players=players,
            credits=header.byline(words),
            sheet_title=sheet,
            words=words,
            shared_sheets=header.sheets != "per-deck",
            **contents,
        )


class Ruleset(ABC, Generic[M]):
    """A game family cardpress can print: subclass Ruleset[Model], declare its capabilities, register an entry point."""

    name: ClassVar[str]  # the value of `ruleset:` in game.yaml
    summary: ClassVar[str]  # one line for `cardpress list`
    game_schema: ClassVar[str | None] = None  # schema id for game.yaml's keys beyond the shared header
    capabilities: ClassVar[frozenset[Capability]] = frozenset()
    variants: ClassVar[tuple[str, ...]] = ()  # rulebook variants `simulate --variant` accepts

    @abstractmethod
    def load(self, game: GameDir, header: Header, report: Report, icons: Collection[str]) -> M | None:
        """Read the game folder into a model; report every problem and return None if there was an error."""

    @abstractmethod
    def kit(self, game: LoadedGame[M], players: int) -> Kit:
        """Return everything the game prints for `players`, in print order."""

    def check_rules(self, game: LoadedGame[M], report: Report) -> None:
        """Hold the cards to the rules (Capability.RULES)."""
        raise NotImplementedError(f"{self.name} declares no rules check")

    def simulation(self, game: LoadedGame[M], variants: Sequence[str] = ()) -> Plugin:
        """Return the simulation plugin for the chosen variants (Capability.SIMULATE)."""
        raise NotImplementedError(f"{self.name} declares no simulation")

    def commands(self) -> Sequence[GameCommand]:
        """Return the extra commands this ruleset offers (Capability.COMMANDS)."""
        raise NotImplementedError(f"{self.name} declares no commands")

    def pack(self) -> Pack:
        """Return where this ruleset's own schemas, templates and games are (none by default)."""
        return Pack()

    def codes(self) -> Mapping[str, str]:
        """Return the diagnostic codes this ruleset's own checks report: {code: one-line meaning}."""
        return {}

    def messages(self) -> Sequence[Message]:
        """Return the labels and sentence forms its code prints (its templates' `_()` strings are read from them);
        a translation's messages.po gives each in its language. None by default."""
        return ()

    def translatable(self, game: LoadedGame[M]) -> Sequence[tuple[str, tuple[str | int, ...], str]]:
        """Return the words a translation gives card by card: (card file, key path, the text printed now).

        `cardpress new-translation` writes them into the translation's card files (by card id) to be translated;
        the pseudo-locale lengthens those the data holds. None by default."""
        return ()

    def offers(self, capability: Capability) -> bool:
        """Return True when the ruleset declares `capability`."""
        return capability in self.capabilities

    def command(self, name: str) -> GameCommand | None:
        """Return the declared command called `name`, or None."""
        if not self.offers(Capability.COMMANDS):
            return None
        return next((c for c in self.commands() if c.name == name), None)
