"""Micro-Engine: Pocket Workshop: card data, printed text, rules model, validator and bots."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ...contract import Capability, GameCommand, Header, LoadedGame, Pack, Ruleset
from ...sdk import shipped

if TYPE_CHECKING:
    from ...sdk import GameDir, Kit, Report
    from .model import MicroEngine
    from .simulation import MicroEngineSim


class MicroEngineRuleset(Ruleset["MicroEngine"]):
    """Micro-Engine: chains of Parts joined by matching connections, Upgrades, Calibrations and Patents."""

    name = "micro-engine"
    summary = "engine-building with chains of Parts, Upgrades, Calibrations and Patents"
    game_schema = "micro-engine-game"
    capabilities = frozenset({Capability.RULES, Capability.SIMULATE, Capability.COMMANDS})
    variants = ("quick", "travel")

    def load(self, game: GameDir, header: Header, report: Report, icons: Collection[str]) -> MicroEngine | None:
        from .load import load

        return load(game, header, report, icons)

    def kit(self, game: LoadedGame[MicroEngine], players: int) -> Kit:
        from .kit import kit

        return kit(game, players)

    def codes(self) -> Mapping[str, str]:
        from .rules import CODES

        return CODES

    def check_rules(self, game: LoadedGame[MicroEngine], report: Report) -> None:
        from .rules import check_rules

        check_rules(game.dir, game.model, report)

    def simulation(self, game: LoadedGame[MicroEngine], variants: Sequence[str] = ()) -> MicroEngineSim:
        from .commands import simulation

        return simulation(game, variants)

    def commands(self) -> Sequence[GameCommand]:
        from .cli import COMMANDS

        return COMMANDS

    def pack(self) -> Pack:
        """Return where its schemas and templates are: this package's schemas/, the shipped layouts/micro-engine."""
        return Pack(schemas=Path(__file__).parent / "schemas", layouts=shipped() / "layouts" / "micro-engine")


RULESET = MicroEngineRuleset()
