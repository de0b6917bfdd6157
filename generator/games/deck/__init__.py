"""The generic card game: decks from data (CSV or YAML) and layout templates, no rules engine."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ...contract import Header, LoadedGame, Pack, Ruleset

if TYPE_CHECKING:
    from ...sdk import GameDir, KeyPath, Kit, Report
    from .model import DeckGame


class DeckRuleset(Ruleset["DeckGame"]):
    """Any card game: decks of cards whose fields reach the templates, each deck with its size and backs."""

    name = "deck"
    summary = "any card game from data and templates: decks from CSV or YAML, free fields, no rules engine"
    game_schema = "deck-game"

    def load(self, game: GameDir, header: Header, report: Report, icons: Collection[str]) -> DeckGame | None:
        from .load import load

        return load(game, header, report, icons)

    def kit(self, game: LoadedGame[DeckGame], players: int) -> Kit:
        from .kit import kit

        return kit(game, players)

    def translatable(self, game: LoadedGame[DeckGame]) -> Sequence[tuple[str, KeyPath, str]]:
        """Return every card's name and each field of prose (text with a space): what a translation rewrites."""
        out: list[tuple[str, KeyPath, str]] = []
        for deck in game.model.decks:
            for card in deck.cards:
                file, path = card.origin
                for key in card.rich:
                    value = card.fields.get(key)
                    if isinstance(value, str) and (key == "name" or " " in value.strip()):
                        out.append((file, (*path, key), value))
        return out

    def pack(self) -> Pack:
        """Return where its schemas and templates are: this package's schemas/ (each game brings its own templates)."""
        return Pack(schemas=Path(__file__).parent / "schemas")


RULESET = DeckRuleset()
