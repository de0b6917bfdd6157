"""What a game supplies to the shared simulation runner and report: engine, bots, recorder, sections."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from .protocol import Bot, Game, State
from .report import Section


class BotSpecError(ValueError):
    """A bot specification names no bot this game has (a user mistake, reported without a traceback)."""


class Recorder(Protocol):
    """Watches one game and returns what the game-specific report sections need."""

    def after(self, state: State, player: int, action: int) -> None:
        """Called after every action; `player` is the seat that acted, or CHANCE."""

    def finish(self, state: State) -> dict[str, Any]:
        """Return JSON-ready facts about the finished game (`score_by_round` is used by the shared report)."""


class Plugin(Protocol):
    """A game's simulation hooks. Must pickle, so that worker processes can rebuild the same games."""

    game_id: str
    players: Sequence[int]  # supported player counts
    default_players: int
    strong_bot: str  # compared against `random` in the skill-gap section
    default_bots: str
    round_name: str  # what the report calls a round ("lap")

    def new_game(self, players: int) -> Game:
        """Return the engine for `players` seats."""

    def bot_help(self) -> str:
        """Return one line per bot spec this game understands."""

    def make_bot(self, spec: str, seat: int) -> Bot:
        """Return a bot for `spec`, or raise BotSpecError."""

    def prepare(self, specs: Sequence[str]) -> None:
        """Build whatever the bots share (e.g. value tables) once, before worker processes start."""

    def recorder(self, game: Game) -> Recorder:
        """Return a fresh recorder for one game."""

    def sections(self, main: Any) -> list[Section]:
        """Return the game-specific report sections for the main match."""

    def follows(self, card: str) -> bool:
        """Return True when `holders` can tell who used the card (or Core, Patent…) with this id."""

    def holders(self, record: dict[str, Any], card: str) -> list[int]:
        """Return the seats that built, kept, played or claimed `card` in one game's record (a sweep's owner)."""
