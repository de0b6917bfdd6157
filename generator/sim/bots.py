"""Bots any engine that follows `generator.sim.protocol` can use."""

from __future__ import annotations

import random

from .protocol import State


class RandomBot:
    """Plays a uniformly random legal action: the floor every other bot must beat."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def restart(self, seed: int) -> None:
        """Reseed for a new game, so results do not depend on which process played it."""
        self.rng.seed(seed)

    def step(self, state: State) -> int:
        """Return a random legal action."""
        return self.rng.choice(state.legal_actions())
