"""The toolkit for games and export plugins: everything a ruleset or an export target may use from cardpress.

A plugin imports from here (and from `generator.contract`) only; the rest of the package may change. Each name
is imported on first use, so a plugin that needs the engine API does not pay for the drawing stack.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what the checker reads; at run time the same lines say where each name is imported from
    from .art.place import card_art as card_art
    from .cli.gamecli import JobsOpt as JobsOpt
    from .cli.gamecli import JsonOpt as JsonOpt
    from .cli.gamecli import OutOpt as OutOpt
    from .cli.gamecli import analysis as analysis
    from .cli.gamecli import emit as emit
    from .cli.gamecli import workers as workers
    from .contract import Capability as Capability
    from .contract import GameCommand as GameCommand
    from .contract import Header as Header
    from .contract import LoadedGame as LoadedGame
    from .contract import Pack as Pack
    from .contract import Ruleset as Ruleset
    from .diagnostics import CardpressError as CardpressError
    from .diagnostics import Diagnostic as Diagnostic
    from .diagnostics import Location as Location
    from .diagnostics import Report as Report
    from .diagnostics import did_you_mean as did_you_mean
    from .export.common import Deck as Deck
    from .export.common import Game as Game
    from .export.common import png as png
    from .export.common import rasters as rasters
    from .export.common import slug as slug
    from .export.options import ExportOptions as ExportOptions
    from .export.target import ExportJob as ExportJob
    from .export.target import ExportTarget as ExportTarget
    from .export.target import FaceTarget as FaceTarget
    from .i18n.catalogue import ENGLISH as ENGLISH
    from .i18n.catalogue import Catalogue as Catalogue
    from .i18n.catalogue import Message as Message
    from .impose.sizes import MAX_BOARD as MAX_BOARD
    from .impose.sizes import CardSize as CardSize
    from .impose.sizes import SizeError as SizeError
    from .impose.sizes import parse_size as parse_size
    from .kit import Card as Card
    from .kit import Face as Face
    from .kit import Kit as Kit
    from .kit import Page as Page
    from .layout.markup import MarkupError as MarkupError
    from .layout.markup import escape as escape
    from .layout.markup import parse as parse
    from .layout.markup import with_icons as with_icons
    from .layout.templates import Templates as Templates
    from .project.folders import GameDir as GameDir
    from .resources import shipped as shipped
    from .sim import stats as stats
    from .sim.bots import RandomBot as RandomBot
    from .sim.executors import parallel_map as parallel_map
    from .sim.plugin import BotSpecError as BotSpecError
    from .sim.plugin import Disagreement as Disagreement
    from .sim.plugin import Measure as Measure
    from .sim.plugin import Plugin as Plugin
    from .sim.protocol import CHANCE as CHANCE
    from .sim.protocol import TERMINAL as TERMINAL
    from .sim.protocol import Bot as Bot
    from .sim.protocol import IllegalActionError as IllegalActionError
    from .sim.report import Document as Document
    from .sim.report import Section as Section
    from .sim.report import Table as Table
    from .sim.report import bar as bar
    from .sim.report import interval as interval
    from .sim.report import pct as pct
    from .sim.runner import Match as Match
    from .sim.runner import MatchResult as MatchResult
    from .sim.runner import run_match as run_match
    from .source import rulebook as rulebook
    from .source import sheetsrc as sheetsrc
    from .source import tablesrc as tablesrc
    from .source.rulebook import NUM as NUM
    from .source.rulebook import NUMBER_WORDS as NUMBER_WORDS
    from .source.rulebook import Form as Form
    from .source.rulebook import Rulebook as Rulebook
    from .source.rulebook import Stated as Stated
    from .source.rulebook import number as number
    from .source.rulebook import sentence as sentence
    from .source.yamlsrc import KeyPath as KeyPath
    from .source.yamlsrc import Source as Source
    from .source.yamlsrc import format_path as format_path
    from .source.yamlsrc import load_file as load_file


def _origins() -> dict[str, str]:
    """Return {name: module} from the imports above: one list serves the type checker and the run time."""
    tree = ast.parse(Path(__file__).read_text(encoding="utf-8"))
    block = next(node for node in tree.body if isinstance(node, ast.If))
    return {
        alias.name: f"{__package__}.{node.module}"
        for node in block.body
        if isinstance(node, ast.ImportFrom) and node.module
        for alias in node.names
    }


_ORIGINS = _origins()
__all__ = sorted(_ORIGINS)


def __getattr__(name: str) -> Any:
    """Import `name` from where it lives the first time a plugin asks for it."""
    if name not in _ORIGINS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(_ORIGINS[name])
    try:
        value = getattr(module, name)
    except AttributeError:  # a module of a package (`from .sim import stats`) that nothing has imported yet
        value = importlib.import_module(f"{module.__name__}.{name}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
