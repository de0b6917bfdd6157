"""Pocket Foundry (Round & Revel): card data, printed text, print kit and rules model."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ...contract import Capability, GameCommand, Header, LoadedGame, Pack, Ruleset
from ...sdk import shipped

if TYPE_CHECKING:
    from ...sdk import GameDir, KeyPath, Kit, Message, Report
    from .model import PocketFoundry
    from .simulation import PocketFoundrySim


class PocketFoundryRuleset(Ruleset["PocketFoundry"]):
    """Pocket Foundry: a market of machines built into four-slot rows and run left to right for twelve laps."""

    name = "pocket-foundry"
    summary = "market of machines in four-slot rows, run for twelve laps (Round & Revel)"
    game_schema = "pocket-foundry-game"
    capabilities = frozenset({Capability.RULES, Capability.SIMULATE, Capability.COMMANDS})

    def load(self, game: GameDir, header: Header, report: Report, icons: Collection[str]) -> PocketFoundry | None:
        from .load import load

        return load(game, header, report, icons)

    def kit(self, game: LoadedGame[PocketFoundry], players: int) -> Kit:
        from .kit import kit

        return kit(game, players)

    def codes(self) -> Mapping[str, str]:
        from .rules_check import CODES

        return CODES

    def check_rules(self, game: LoadedGame[PocketFoundry], report: Report) -> None:
        from .rules_check import check_rules

        check_rules(game.dir, game.model, report)

    def simulation(self, game: LoadedGame[PocketFoundry], variants: Sequence[str] = ()) -> PocketFoundrySim:
        from .commands import simulation

        return simulation(game)

    def commands(self) -> Sequence[GameCommand]:
        from .cli import COMMANDS

        return COMMANDS

    def messages(self) -> Sequence[Message]:
        from .rulebook import messages
        from .text import MESSAGES

        return (*MESSAGES, *messages())

    def translatable(self, game: LoadedGame[PocketFoundry]) -> Sequence[tuple[str, KeyPath, str]]:
        from .text import translatable

        return translatable(game.model)

    def pack(self) -> Pack:
        """Return where its schemas and templates are: this package's schemas/, the shipped layouts/pocket-foundry."""
        return Pack(schemas=Path(__file__).parent / "schemas", layouts=shipped() / "layouts" / "pocket-foundry")


RULESET = PocketFoundryRuleset()
