"""Golden seeded transcripts: any change to the rules, the engine or the bots shows up as a diff.

Regenerate on purpose with `pytest --update-goldens` (or UPDATE_GOLDENS=1) and review the diff.
"""

from __future__ import annotations

import pytest
from conftest import check_golden
from pf_common import loaded

from generator.games.pocket_foundry.commands import simulation
from generator.sim.playthrough import transcript

GAMES = [
    ("random-2p", ["random", "random"], 7),
    ("planner-vs-random-3p", ["planner", "random", "random"], 1),
    ("scripted-4p", ["engine", "stamper", "polisher", "lookahead"], 1),
]


@pytest.mark.parametrize("name, bots, seed", GAMES, ids=[g[0] for g in GAMES])
def test_transcript_matches_golden(name, bots, seed, update_goldens):
    plugin = simulation(loaded())
    game = plugin.new_game(len(bots))
    text = transcript(game, [plugin.make_bot(b, i) for i, b in enumerate(bots)], seed)
    check_golden(f"pocket-foundry-transcript-{name}.txt", text, update_goldens)


def test_transcripts_are_deterministic():
    plugin = simulation(loaded())
    game = plugin.new_game(4)
    texts = {transcript(game, [plugin.make_bot("random", i) for i in range(4)], 5) for _ in range(2)}
    assert len(texts) == 1
