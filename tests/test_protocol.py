"""Both engines speak the one protocol: its CHANCE and TERMINAL, its IllegalActionError, and its State shape."""

from __future__ import annotations

import ast

import pytest
from conftest import ROOT

from generator import registry as rulesets
from generator.contract import Capability
from generator.pipeline import Pipeline
from generator.sim import protocol
from generator.sim.runner import play

ENGINES = {"pocket-foundry": "pocket-foundry", "micro-engine": "micro-engine"}  # ruleset -> shipped game
SHARED = {"CHANCE", "TERMINAL", "IllegalActionError"}


def test_no_game_package_defines_its_own_protocol_names():
    defined = []
    for path in sorted((ROOT / "generator" / "games").rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            names = [node.name] if isinstance(node, ast.ClassDef) else []
            if isinstance(node, ast.Assign):
                names = [t.id for t in node.targets if isinstance(t, ast.Name)]
            defined += [f"{path.relative_to(ROOT)}: {n}" for n in names if n in SHARED]
    assert defined == []


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_the_engine_uses_the_protocol_constants_and_error(name):
    ruleset = rulesets.get(name).plugin
    assert ruleset is not None and ruleset.offers(Capability.SIMULATE)
    loaded = Pipeline(ROOT, ENGINES[name]).load()
    assert loaded is not None
    game = ruleset.simulation(loaded, ()).new_game(loaded.header.default_players)
    assert isinstance(game, protocol.Game)
    state = game.new_initial_state()
    assert isinstance(state, protocol.State)
    assert state.current_player() == protocol.CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) > 0 and outcomes[0][1] > 0
    with pytest.raises(protocol.IllegalActionError):
        state.apply_action(-7)  # no action of either game is negative
    bots = [_FirstLegal() for _ in range(game.num_players)]
    final = play(game, bots, seed=3)
    assert final.current_player() == protocol.TERMINAL and final.is_terminal()
    assert len(final.scores()) == game.num_players and sum(final.returns()) == pytest.approx(1.0)
    with pytest.raises(protocol.IllegalActionError):
        final.apply_action(0)


class _FirstLegal:
    """Plays the first legal action: the shortest deterministic way through a game."""

    name = "first"

    def step(self, state: protocol.State) -> int:
        return state.legal_actions()[0]
