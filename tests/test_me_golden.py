"""Golden transcripts: seeded games whose every action is checked in (regenerate only on purpose)."""

from __future__ import annotations

import pytest
from conftest import check_golden
from me_helpers import model

from generator.games.micro_engine.bots import HeuristicBot
from generator.games.micro_engine.game import MicroEngineGame
from generator.games.micro_engine.trace import playthrough
from generator.sim.bots import RandomBot


@pytest.mark.parametrize(
    "players,bot,quick,travel",
    [(2, "heuristic", False, False), (3, "random", True, True), (4, "heuristic", False, False)],
)
def test_golden_playthrough(players, bot, quick, travel, update_goldens):
    game = MicroEngineGame(model(), players, quick, travel)
    make = {"heuristic": HeuristicBot, "random": RandomBot}[bot]
    text = playthrough(game.new_initial_state(), [make(seed) for seed in range(players)], seed_action=2026)
    name = f"micro-engine-{players}p-{bot}{'-quick' if quick else ''}{'-travel' if travel else ''}.txt"
    check_golden(name, text, update_goldens)
