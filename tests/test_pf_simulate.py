"""`cardpress simulate`: seeded, identical serial or parallel, a complete report, clear user errors."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli
from pf_common import ROOT, loaded

from generator.diagnostics import CardpressError
from generator.games.pocket_foundry.commands import simulation
from generator.sim import provenance, publish
from generator.sim import report as writer
from generator.sim.runner import Match, run_match, run_matches
from generator.sim.simulate import simulate


@pytest.fixture(scope="module")
def plugin():
    return simulation(loaded())


def test_parallel_runs_give_exactly_the_serial_results(plugin):
    matches = [Match("a", 4, ("random",) * 4, 60, 7), Match("b", 3, ("planner", "random", "engine"), 40, 7)]
    serial = run_matches(plugin, matches, jobs=1)
    parallel = run_matches(plugin, matches, jobs=2)
    for s, p in zip(serial, parallel):
        assert s.records == p.records
        assert [r["index"] for r in s.records] == list(range(s.match.games))


def test_games_differ_by_seed_and_repeat_by_seed(plugin):
    a = run_match(plugin, Match("m", 2, ("random", "random"), 30, 1))
    b = run_match(plugin, Match("m", 2, ("random", "random"), 30, 1))
    c = run_match(plugin, Match("m", 2, ("random", "random"), 30, 2))
    assert a.records == b.records
    assert a.records != c.records


def test_report_has_every_section_and_is_deterministic(plugin, tmp_path):
    docs = [simulate(plugin, 4, ["planner"] * 4, 40, seed=3, jobs=1, skill_games=8).document for _ in range(2)]
    texts = [writer.to_markdown(d) for d in docs]
    assert texts[0] == texts[1]
    data = writer.to_json(docs[0])
    assert list(data["sections"]) == [
        "seats",
        "starting_player",
        "scores",
        "length",
        "tempo",
        "machines",
        "dead_ends",
        "market",
        "skill_gap",
        "ratings",
        "glossary",
    ]
    seats = data["sections"]["seats"]["data"]
    assert sum(s["win_share"] for s in seats["seats"]) == pytest.approx(1.0)
    assert len(data["sections"]["tempo"]["data"]) == 12
    machines = {m["machine"]: m for m in data["sections"]["machines"]["data"]}
    assert set(machines) == {m.name for m in loaded().model.machines}
    dead = data["sections"]["dead_ends"]["data"]
    assert dead["exact_setup_fraction"] == "1/26"
    assert data["sections"]["skill_gap"]["data"]["games"] == 8
    paths = publish.write(docs[0], tmp_path)
    assert [p.name for p in paths] == ["report.html", "report.md", "report.json"]
    written = json.loads(paths[2].read_text())
    assert set(provenance.FIELDS) <= written.pop("provenance").keys()  # the writer says what made the report
    assert written == json.loads(json.dumps(data))


def test_dead_ends_are_recorded_from_setup(plugin):
    result = run_match(plugin, Match("d", 2, ("random", "random"), 300, 11))
    at_setup = [r for r in result.records if r["extra"]["dead_end"] and r["extra"]["dead_end"]["setup"]]
    assert at_setup, "about 1 game in 26 opens stuck"
    for r in at_setup:
        assert r["scores"] == [0, 0] and r["returns"] == [0.5, 0.5]
        assert r["extra"]["builds"] == []


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["--players", "5"],
            "error[U002] Pocket Foundry is not played by 5 players\n  = hint: supported player counts: 2, 3, 4, 6\n",
        ),
        (
            ["--bots", "plannr"],
            "error[U001] unknown bot 'plannr'; did you mean 'planner'? (bots: random, planner, "
            "lookahead, engine, stamper, polisher)\n",
        ),
        (["--players", "2", "--bots", "random,random,random"], "error[U003] --bots names 3 bots for 2 seats\n"),
    ],
)
def test_user_mistakes_exit_1_with_a_message(args, message, tmp_path):
    result = run_cli("simulate", "pocket-foundry", "--games", "5", "--out", str(tmp_path), *args, cwd=ROOT)
    assert result.returncode == 1
    assert result.stderr.startswith(message)
    assert "Traceback" not in result.stderr
    assert not any(tmp_path.iterdir())


def test_cli_writes_the_report(tmp_path):
    result = run_cli(
        "simulate",
        "pocket-foundry",
        "--players",
        "3",
        "--games",
        "30",
        "--skill-games",
        "6",
        "--bots",
        "planner,engine,random",
        "--jobs",
        "2",
        "--out",
        str(tmp_path),
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr
    assert "80 games (30 with your line-up, 6 of the skill-gap match, 44 at other player counts) in " in result.stdout
    report = (tmp_path / "report.md").read_text()
    assert report.startswith("# pocket-foundry: simulated playtest")
    assert "| 1 | planner |" in report and "## Dead ends" in report


def test_a_ruleset_without_an_engine_is_refused(monkeypatch):
    from generator.cli.rules import simulate
    from generator.games.pocket_foundry import PocketFoundryRuleset

    monkeypatch.setattr(PocketFoundryRuleset, "capabilities", frozenset())
    with pytest.raises(CardpressError) as info:
        simulate("pocket-foundry", scheduler=None, root=ROOT)
    assert info.value.report.items[0].code == "U005"


def test_usage_errors_exit_2_without_a_traceback():
    result = run_cli("simulate", "pocket-foundry", "--games", "0", cwd=ROOT)
    assert result.returncode == 2
    assert (
        result.stderr.startswith("error[U010] --games must be at least 1, not 0\n") and "Traceback" not in result.stderr
    )
