"""The engine configured for one player count and variant: what the simulation runner plays."""

from __future__ import annotations

from typing import Any

from .engine import State
from .model import MicroEngine
from .tables import Tables


class MicroEngineGame:
    """Micro-Engine for `players` seats, optionally the Quick game and/or Travel mode."""

    def __init__(self, model: MicroEngine, players: int, quick: bool = False, travel: bool = False):
        self.model = model
        self.tables = Tables(model, players, quick, travel)
        self.num_players = players
        self.quick = quick
        self.travel = travel
        variant = "".join(f"-{v}" for v, on in (("quick", quick), ("travel", travel)) if on)
        self.name = f"micro-engine{variant}"

    def new_initial_state(self) -> State:
        """Return the state before setup: a chance node that seeds the game."""
        return State.initial(self.tables)

    def new_game(self, seed: int) -> State:
        """Return a set-up game for `seed`."""
        return State.new(self.tables, seed)

    def state_from_json(self, data: dict[str, Any]) -> State:
        """Restore a state written by `State.to_json`."""
        return State.from_json(self.tables, data)
