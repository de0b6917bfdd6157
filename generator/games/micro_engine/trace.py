"""Seeded playthroughs as text: golden transcripts for tests and a readable log for designers."""

from __future__ import annotations

from .engine import CHANCE, State


def playthrough(state: State, bots, seed_action: int | None = None) -> str:
    """Play `state` to the end with `bots` (one per seat); return every action and the final position."""
    lines = []
    if state.current_player() == CHANCE:
        state.apply_action(seed_action or 0)
        lines.append(f"setup: seed {seed_action or 0}; first player P{state.first + 1}")
    last_turn = -1
    while not state.is_terminal():
        p = state.current_player()
        if state.turn != last_turn and state.phase != 0:
            last_turn = state.turn
            lines.append(f"-- round {state.round}, P{p + 1}: row [{', '.join(state._name(i) for i in state.row)}]")
        action = bots[p].step(state)
        lines.append(state.action_to_string(action))
        state.apply_action(action)
    lines.append("-- end")
    lines.append(str(state))
    for p in range(state.n):
        bd = state.score_breakdown(p)
        lines.append(f"P{p + 1}: {sum(bd.values())} VP " + " ".join(f"{k} {v}" for k, v in bd.items()))
    lines.append(f"winners: {', '.join(f'P{p + 1}' for p in state.winners())}")
    return "\n".join(lines) + "\n"
