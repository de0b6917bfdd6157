"""What a game supplies to the shared simulation runner and report: engine, bots, recorder, sections."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .protocol import Bot, Game
from .report import Section


@dataclass(frozen=True)
class Measure:
    """One number a game's recorder yields for one game, which `compare` sets side by side for two editions."""

    group: str  # the table it is shown in, e.g. "Dead ends" or "Machines: builds per game"
    key: str  # stable across editions (a card's id, not its name), so a renamed card still pairs up
    label: str  # what the row says, e.g. the card's name
    value: float | None  # None: the measure does not apply to this game (nobody held that Core)
    share: bool = False  # a proportion, shown in per cent


class BotSpecError(ValueError):
    """A bot specification names no bot this game has (a user mistake, reported without a traceback)."""


class Recorder(Protocol):
    """Watches one game and returns what the game-specific report sections need."""

    def after(self, state: Any, player: int, action: int) -> None:  # Any: a plugin sees only its own game's states
        """Called after every action; `player` is the seat that acted, or CHANCE."""

    def finish(self, state: Any) -> dict[str, Any]:
        """Return JSON-ready facts about the finished game (`score_by_round` is used by the shared report)."""


class Plugin(Protocol):
    """A game's simulation hooks. Must pickle, so that worker processes can rebuild the same games."""

    game_id: str

    @property
    def players(self) -> Sequence[int]:
        """Return the supported player counts."""

    @property
    def default_players(self) -> int:
        """Return the player count a match has unless told otherwise."""

    strong_bot: str  # compared against `random` in the skill-gap section
    default_bots: str
    round_name: str  # what the report calls a round ("lap")
    turn_order: str  # one sentence for the report: who starts and how the start moves

    def new_game(self, players: int) -> Game:
        """Return the engine for `players` seats."""

    def bot_help(self) -> str:
        """Return one line per bot spec this game understands."""

    def check_spec(self, spec: str) -> str:
        """Return the canonical bot name for `spec`, or raise BotSpecError with a hint."""

    def make_bot(self, spec: str, seat: int) -> Bot[Any]:
        """Return a bot for `spec`, or raise BotSpecError."""

    def prepare(self, specs: Sequence[str]) -> None:
        """Build whatever the bots share (e.g. value tables) once, before worker processes start."""

    def recorder(self, game: Any) -> Recorder:
        """Return a fresh recorder for one game."""

    def sections(self, main: Any) -> list[Section]:
        """Return the game-specific report sections for the main match."""

    def measures(self, record: dict[str, Any]) -> list[Measure]:
        """Return the game-specific numbers of one finished game (its runner record), for `compare`."""

    def follows(self, card: str) -> bool:
        """Return True when `holders` can tell who used the card (or Core, Patent…) with this id."""

    def holders(self, record: dict[str, Any], card: str) -> list[int]:
        """Return the seats that built, kept, played or claimed `card` in one game's record (a sweep's owner)."""
