"""The rulebook's example turn, replayed by the rules model exactly as written."""

from __future__ import annotations

from me_helpers import model

from generator.games.micro_engine import scenario


def test_example_turn_replays_as_written():
    g = model()
    sc = next(s for s in g.scenarios if s.id == "example-turn")
    assert scenario.replay(g, sc) == []


def test_example_turn_step_by_step():
    g = model()
    sc = next(s for s in g.scenarios if s.id == "example-turn")
    s, problems = scenario.build(g, sc)
    assert not problems
    log = []
    for step in sc.steps:
        action, _ = scenario.action_for(s, step["do"], ())
        log.append(s.action_to_string(action))
        s.apply_action(action)
    assert log == [
        "P1: take Boiler from the Row",
        "P1: take the top card of the deck",
        "P1: play Calibration Overclock",
        "P1: play Part Boiler",
        "P1: play Upgrade Lubrication System under Part 2",
        "P1: discard Gear Train",
    ]
    assert [(t, paid) for _, p, t, paid in s.stats.plays] == [
        (s.tables.ids.index("overclock"), 0),
        (s.tables.ids.index("boiler"), 0),
        (s.tables.ids.index("lubrication-system"), 1),
    ]
    assert [(p, g.patents[k].id, lic) for _, p, k, lic in s.stats.claims] == [(0, "precision-combo", False)]
    assert s.current == 1  # the turn is over: no action left


def test_a_changed_step_is_reported_at_its_line():
    g = model()
    sc = next(s for s in g.scenarios if s.id == "example-turn")
    steps = list(sc.steps)
    steps[3] = {"do": {"part": "boiler"}, "expect": {"paid": 1}}
    broken = type(sc)(sc.id, sc.title, sc.players, sc.setup, tuple(steps), sc.index)
    assert scenario.replay(g, broken) == [
        scenario.Problem(("steps", 3, "expect", "paid"), "after 'play Part Boiler', paid is 0, expected 1")
    ]
