"""Seeded game transcripts (as OpenSpiel's playthroughs): a cheap net for unintended rule changes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .protocol import CHANCE
from .runner import derive_seed, play


class _Transcriber:
    """A recorder that writes one line per action and the state after every round."""

    def __init__(self, game: Any):
        self.lines: list[str] = []
        self.game = game

    def after(self, state: Any, player: int, action: int) -> None:
        who = "chance" if player == CHANCE else f"P{player}"
        self.lines.append(f"{len(state.history):3d} {who}: {state.action_to_string(action, player)}")
        if player >= 0 and state.turn % state.num_players == 0:
            self.lines.append(state.observation_string(0))


def transcript(game: Any, bots: Sequence[Any], seed: int) -> str:
    """Play one seeded game and return its transcript: every action, each round's state, the result."""
    recorder = _Transcriber(game)
    state = play(game, bots, derive_seed(seed, "transcript"), recorder)
    lines = [
        f"# {game.name}, {game.num_players} players, bots: {', '.join(b.name for b in bots)}, seed {seed}",
        *recorder.lines,
        f"scores: {state.scores()}",
        f"returns: {[round(r, 4) for r in state.returns()]}",
    ]
    return "\n".join(lines) + "\n"
