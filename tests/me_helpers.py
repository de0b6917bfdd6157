"""Helpers for the Micro-Engine tests: the shipped card set and hand-built positions."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from generator import pipeline
from generator.games.micro_engine.engine import State
from generator.games.micro_engine.model import MicroEngine, Scenario
from generator.games.micro_engine.scenario import build

ROOT = Path(__file__).resolve().parent.parent


@lru_cache(maxsize=1)
def loaded() -> pipeline.LoadedGame:
    """The shipped Micro-Engine game, loaded."""
    return pipeline.load(ROOT, "micro-engine")


def model() -> MicroEngine:
    """The shipped Micro-Engine card set."""
    return loaded().model


def position(
    players: list[dict],
    patents=("power-grid", "steam-works", "clockwork"),
    row=(),
    deck_top=(),
    game: MicroEngine | None = None,
) -> State:
    """Set up a position: each player dict has core, chain and hand (card ids); player 0 is to move."""
    players = [{"core": "assembly-line", "chain": [], "hand": [], **p} for p in players]
    setup = {"patents": list(patents), "row": list(row), "deck_top": list(deck_top), "players": players}
    state, problems = build(game or model(), Scenario("test", "test", len(players), setup, ()))
    assert not problems, problems
    return state


def act(s: State, *steps: str) -> None:
    """Apply actions given by their words, e.g. `play Part Boiler`, `take Boiler from the Row`."""
    for step in steps:
        legal = {s.describe(a): a for a in s.legal_actions()}
        assert step in legal, f"{step!r} is not legal; legal: {sorted(legal)}"
        s.apply_action(legal[step])


def names(s: State, insts) -> list[str]:
    """Card names of instances."""
    return [s.tables.names[s.tables.itype[i]] for i in insts]
