"""Shared helpers for the Pocket Foundry rules-model tests."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

from generator import pipeline
from generator.games.pocket_foundry.engine import Game, State
from generator.games.pocket_foundry.tables import tables_for
from generator.sim.protocol import CHANCE

ROOT = Path(__file__).resolve().parent.parent


@cache
def loaded():
    """The Pocket Foundry game loaded from this checkout (schema layer only)."""
    return pipeline.load(ROOT, "pocket-foundry")


def model():
    """The Pocket Foundry model."""
    return loaded().model


def tables():
    """The compiled tables."""
    return tables_for(model())


def mid(name: str) -> int:
    """Return the type index of a market machine by name."""
    return model().by_name(name).index


def dealt(
    players: int = 2,
    market: tuple[str, ...] = ("Feed Belt", "Small Press", "Sort Scoop", "Ticket Stamp"),
    game: Game | None = None,
) -> State:
    """Return a state right after setup, with the opening market dealt as named."""
    game = game or Game(model(), players)
    state = game.new_initial_state()
    for name in market:
        state.apply_action(mid(name))
    assert state.current_player() == 0
    return state


def random_play(state: State, rng: random.Random, until_turn: int | None = None) -> State:
    """Play uniformly random legal actions (and chance) until the end or a given turn."""
    while not state.is_terminal() and (until_turn is None or state.turn < until_turn or state.cur == CHANCE):
        state.apply_action(rng.choice(state.legal_actions()) if state.cur >= 0 else state.sample_chance(rng))
    return state
