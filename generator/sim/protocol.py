"""The OpenSpiel-style protocol every cardpress rules engine implements, so bots and the runner are shared.

A game is a sequence of decisions. At each state exactly one of these holds:
- `current_player()` is a seat 0..N-1: that player picks one of `legal_actions()`;
- it is `CHANCE`: the next action is drawn from `chance_outcomes()` (e.g. a card dealt from a shuffled deck);
- it is `TERMINAL`: `returns()` holds each player's share of the win.

Actions are small integers, stable across versions of one game (goldens and JSON states store them).
Randomness never hides inside the engine: it is a chance node or an explicit `random.Random(seed)`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

CHANCE = -1  # same values as OpenSpiel's PlayerId.CHANCE and PlayerId.TERMINAL
TERMINAL = -4


class IllegalActionError(ValueError):
    """An action that is not legal in the current state was applied."""


@runtime_checkable
class State(Protocol):
    """A game position. Perfect-information engines return the same observation for every player."""

    num_players: int
    history: list[int]  # every action applied so far, chance outcomes included

    def current_player(self) -> int:
        """Return the seat to act, CHANCE or TERMINAL."""

    def legal_actions(self) -> Sequence[int]:
        """Return the legal actions, sorted and unique; never empty before the end."""

    def apply_action(self, action: int) -> None:
        """Play `action` (a player's move or a chance outcome); raise IllegalActionError if it is not legal."""

    def chance_outcomes(self) -> Sequence[tuple[int, float]]:
        """Return (outcome, probability) pairs at a chance node, else []."""

    def is_terminal(self) -> bool:
        """Return True once the game is over."""

    def returns(self) -> list[float]:
        """Return each seat's share of the win at the end (1/k to each of k tied leaders), zeros before."""

    def scores(self) -> Sequence[float]:
        """Return each seat's score so far (what the rulebook counts at the end)."""

    def clone(self) -> State:
        """Return an independent copy."""

    def observation(self, player: int) -> dict[str, Any]:
        """Return what `player` can see, as JSON-ready data."""

    def observation_string(self, player: int) -> str:
        """Return what `player` can see, as text."""

    def action_to_string(self, action: int, player: int | None = None) -> str:
        """Return a short, unique name for `action` (for `player`, default: the one to act)."""

    def to_json(self) -> dict[str, Any]:
        """Return the state as JSON-ready data that `Game.state_from_json` restores."""


@runtime_checkable
class Game(Protocol):
    """A rules engine configured for one player count."""

    name: str
    num_players: int

    def new_initial_state(self) -> State:
        """Return the state before setup's chance events."""

    def state_from_json(self, data: dict[str, Any]) -> State:
        """Restore a state written by `State.to_json`."""


S_contra = TypeVar("S_contra", contravariant=True)  # the states a bot can play: a game's bots know its own


@runtime_checkable
class Bot(Protocol[S_contra]):
    """A player. Bots see the whole state object but must only use what `observation` would show."""

    name: str

    def step(self, state: S_contra) -> int:
        """Return the action to play in `state`."""


def sample_chance(state: State, rng: random.Random) -> int:
    """Draw a chance outcome; engines may offer a faster exact `sample_chance(rng)` of their own."""
    fast = getattr(state, "sample_chance", None)
    if fast is not None:
        return int(fast(rng))
    outcomes = state.chance_outcomes()
    x = rng.random()
    for action, p in outcomes:
        x -= p
        if x < 0:
            return action
    return outcomes[-1][0]
