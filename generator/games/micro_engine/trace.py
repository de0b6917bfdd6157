"""Seeded playthroughs as text: golden transcripts for tests and a readable log for designers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ...sdk import CHANCE
from .engine import State
from .phase import Phase


class Player(Protocol):
    """Anything that picks the next action in a Micro-Engine state (a bot)."""

    def step(self, state: State) -> int: ...


def playthrough(state: State, bots: Sequence[Player], seed_action: int | None = None) -> str:
    """Play `state` to the end with `bots` (one per seat); return every action and the final position."""
    lines = []
    if state.current_player() == CHANCE:
        state.apply_action(seed_action or 0)
        lines.append(f"setup: seed {seed_action or 0}; first player P{state.first_player + 1}")
    last_turn = -1
    while not state.is_terminal():
        player = state.current_player()
        if state.turn != last_turn and state.phase != Phase.CHOOSE_CORE:
            last_turn = state.turn
            row = ", ".join(state.card_name(card) for card in state.row)
            lines.append(f"-- round {state.round}, P{player + 1}: row [{row}]")
        action = bots[player].step(state)
        lines.append(state.action_to_string(action))
        state.apply_action(action)
    lines.append("-- end")
    lines.append(str(state))
    for player in range(state.num_players):
        breakdown = state.score_breakdown(player)
        sources = " ".join(f"{source} {vp}" for source, vp in breakdown.items())
        lines.append(f"P{player + 1}: {sum(breakdown.values())} VP {sources}")
    lines.append(f"winners: {', '.join(f'P{p + 1}' for p in state.winners())}")
    return "\n".join(lines) + "\n"
