"""`cardpress sweep`: --vary parsed and located, points applied through the game's own checks, same seeds at
every point, byte-identical reports, charts drawn from the JSON beside them, and Ctrl-C keeping what finished."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ROOT, run_cli
from test_sim_charts import Tables, _number, _rounded, plotted

from generator import pipeline
from generator.diagnostics import CardpressError
from generator.sim import charts, publish, summary, vary
from generator.sim import report as writer
from generator.sim import sweep as sweeping
from generator.sim.runner import Match, run_matches
from generator.source.edits import Edit


def _sources(game: str):
    return pipeline.load(ROOT, game).dir.sources


def _run(game: str, spec: str, games: int = 3, bots: str = "random", jobs: int = 1, strict: bool = False, load=None):
    """Run a small sweep through the Python API the command uses; return the result."""
    loaded = pipeline.load(ROOT, game)
    plugin = loaded.ruleset.simulation(loaded)
    axes = vary.parse([spec], loaded.dir.sources)
    measures = sweeping.measures_for(axes, plugin, 4)
    chosen = "owner" if "owner" in measures else "first-seat"
    return sweeping.sweep(
        load or sweeping.point_loader(ROOT, game, strict),
        lambda g: g.ruleset.simulation(g),
        axes,
        4,
        [bots] * 4,
        games,
        1,
        measures,
        chosen,
        jobs=jobs,
        meta={"game": game},
    )


# ---------------------------------------------------------------- --vary


def test_a_card_field_is_found_by_card_id_and_its_unambiguous_last_key():
    [axis] = vary.parse(["cards.ticket-stamp.points=1..6"], _sources("pocket-foundry"))
    assert (axis.file, axis.keypath, axis.card, axis.base) == (
        "machines.yaml",
        ("machines", 3, "run", "gain", "points"),
        "ticket-stamp",
        3,
    )
    assert axis.path == "cards.ticket-stamp.run.gain.points" and axis.label == "Ticket Stamp points"
    assert axis.values == (1, 2, 3, 4, 5, 6)


def test_a_core_vp_and_a_rule_value_resolve_in_their_files():
    core, rounds = vary.parse(["cards.boiler-room.vp=0,2,4", "rounds=6..9"], _sources("micro-engine"))
    assert (core.file, core.keypath, core.base, core.values) == ("cores.yaml", ("cores", 3, "vp"), 3, (0, 2, 4))
    assert (rounds.file, rounds.keypath, rounds.path, rounds.values) == (
        "game.yaml",
        ("rules", "rounds"),
        "game.rules.rounds",
        (6, 7, 8, 9),
    )
    assert len(vary.points([core, rounds])) == 12


def test_ranges_with_a_step_are_exact_decimals_and_whole_values_stay_integers():
    [axis] = vary.parse(["cards.ticket-stamp.points=0.5..2.0 step 0.5"], _sources("pocket-foundry"))
    assert axis.values == (0.5, 1, 1.5, 2)  # an integer field keeps 1 and 2 whole; 0.5 is the schema's to refuse
    [axis] = vary.parse(["cards.ticket-stamp.points=0.1..0.3 step 0.1"], _sources("pocket-foundry"))
    assert axis.values == (0.1, 0.2, 0.3)


def test_bad_paths_and_ranges_are_located_cli_errors_with_did_you_mean():
    result = run_cli(
        "sweep",
        "pocket-foundry",
        "--vary",
        "cards.ticket-stamps.points=1..3",
        "--vary",
        "laps=3..1",
        "--games",
        "1",
        cwd=ROOT,
    )
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr == (
        "--vary:1:7: error[U012] no card 'ticket-stamps' in this game\n"
        "   |\n"
        " 1 | cards.ticket-stamps.points=1..3\n"
        "   |       ^\n"
        "  = hint: did you mean 'ticket-stamp'?\n"
        "\n"
        "--vary:2:6: error[U014] the range 3..1 runs backwards\n"
        "   |\n"
        " 2 | laps=3..1\n"
        "   |      ^\n"
        "  = hint: write 1..3\n"
        "\n"
        "2 errors, 0 warnings in 1 file\n"
    )


@pytest.mark.parametrize(
    ("spec", "code", "message"),
    [
        (
            "cards.ticket-stamp.feed=1..3",
            "U013",
            "'feed' is ambiguous in card 'ticket-stamp': build_cost.feed, run.pay.feed",
        ),
        ("cards.ticket-stamp.pionts=1..3", "U013", "card 'ticket-stamp' has no field 'pionts'"),
        ("cards.ticket-stamp.name=1,2", "U013", "name of card 'ticket-stamp' is not a number"),
        ("rounds=1..3", "U013", "game.yaml has no field 'rounds'"),
        ("laps=1..x", "U014", "'1..x' is not a range"),
        ("laps=1,2,1", "U014", "'1,2,1' lists a value twice"),
        ("laps=1..100", "U014", "1..100 has 100 values; at most 50"),
        ("laps=1..3 step 0", "U014", "step 0 must be positive"),
        ("laps", "U011", "--vary 'laps' names no range"),
    ],
)
def test_every_vary_mistake_has_its_code_and_message(spec, code, message):
    with pytest.raises(CardpressError) as caught:
        vary.parse([spec], _sources("pocket-foundry"))
    [d] = caught.value.report.items
    assert (d.code, d.message, d.loc.file, d.loc.text) == (code, message, "--vary", spec)
    if spec.startswith("cards.ticket-stamp.pionts"):
        assert d.hint == "did you mean 'points'?" and d.loc.col == len("cards.ticket-stamp.") + 1


def test_an_edit_reaches_the_model_before_its_checks():
    edits = {"cores.yaml": [Edit("cores.yaml", ("cores", 3, "vp"), 5, "test")]}
    game = pipeline.Pipeline(ROOT, "micro-engine", edits=edits).load()
    assert {c.id: c.vp for c in game.model.cores}["boiler-room"] == 5
    assert {c.id: c.vp for c in pipeline.load(ROOT, "micro-engine").model.cores}["boiler-room"] == 3  # files untouched


# ---------------------------------------------------------------- sweeps


def test_every_point_plays_the_same_seeds_as_simulate(tmp_path):
    result = _run("pocket-foundry", "cards.ticket-stamp.points=2,3", games=6)
    assert [p.values for p in result.points] == [(2,), (3,)] and all(p.valid for p in result.points)
    loaded = pipeline.load(ROOT, "pocket-foundry")
    plugin = loaded.ruleset.simulation(loaded)
    [main] = run_matches(plugin, [Match("main", 4, ("random",) * 4, 6, 1)])
    seats = summary.seats(main, plugin.turn_order).data["seats"]
    at_3 = result.points[1].measures  # the printed value: the same games as `simulate --skill-games 0`
    assert [at_3[f"seat-{s['seat']}"]["estimate"] for s in seats] == [s["win_share"] for s in seats]
    # Random bots ignore points, so both points play identical games: only the scores differ.
    assert result.points[0].measures["used"] == result.points[1].measures["used"]
    assert result.points[0].measures["score"]["estimate"] < result.points[1].measures["score"]["estimate"]


def test_the_same_seed_writes_byte_identical_json_with_any_worker_count(tmp_path):
    one = _run("micro-engine", "cards.row-organizer.vp=3,5", games=4, bots="heuristic-random-core", jobs=1)
    two = _run("micro-engine", "cards.row-organizer.vp=3,5", games=4, bots="heuristic-random-core", jobs=2)
    a = json.dumps(writer.to_json(one.document), indent=1)
    b = json.dumps(writer.to_json(two.document), indent=1)
    assert a == b
    assert json.loads(a)["sections"]["verdict"]["data"]["target"] == 0.25


def test_a_point_the_schema_refuses_is_reported_located_and_not_played(tmp_path):
    result = run_cli(
        "sweep",
        "micro-engine",
        "--vary",
        "cards.boiler-room.vp=-1,3",
        "--games",
        "2",
        "--bots",
        "random",
        "--jobs",
        "1",
        "--out",
        str(tmp_path),
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr.startswith(
        "point cards.boiler-room.vp=-1 is not a valid game (skipped):\n"
        "cards/micro-engine/cores.yaml:24:9: error[S004] cores[3].vp: must be ≥ 0, got -1\n"
        "    |\n"
        " 24 |     vp: 3\n"
        "    |         ^\n"
        "  = hint: the value was set to -1 by --vary cards.boiler-room.vp=-1\n"
    )
    data = json.loads((tmp_path / "sweep.json").read_text())
    bad, good = data["sections"]["points"]["data"]
    assert bad["valid"] is False and bad["measures"] == {}
    assert bad["problems"] == [
        {
            "code": "S004",
            "message": "must be ≥ 0, got -1",
            "path": "cores[3].vp",
            "hint": "the value was set to -1 by --vary cards.boiler-room.vp=-1",
            "file": "cards/micro-engine/cores.yaml",
            "line": 24,
            "col": 9,
        }
    ]
    assert good["valid"] is True and good["measures"]["length"]["n"] == 2
    assert [p["value"] for p in data["sections"]["owner"]["data"]["points"]] == [3]  # the curve skips it
    assert "not a valid game, so it was not played" in (tmp_path / "sweep.md").read_text()
    assert "2 of 2 points, 2 games in" in result.stdout
    assert f"wrote {tmp_path / 'sweep.html'}" in result.stdout


def test_the_rules_check_is_noted_or_refuses_with_strict():
    noted = _run("pocket-foundry", "cards.ticket-stamp.points=2,3", games=1)
    assert [p.valid for p in noted.points] == [True, True]
    first = noted.points[0].notes[0]
    assert (first.code, first.message, first.loc.line, first.loc.col) == (
        "PF005",
        "Ticket Stamp's run.gain.points is 2; the rulebook prints 3",
        34,
        42,
    )
    assert noted.points[1].notes == []
    strict = _run("pocket-foundry", "cards.ticket-stamp.points=2,3", games=1, strict=True)
    assert [p.valid for p in strict.points] == [False, True]
    assert {d.code for d in strict.points[0].problems} == {"PF005", "PF008"}


def test_ctrl_c_keeps_the_points_that_finished():
    loader = sweeping.point_loader(ROOT, "pocket-foundry")
    calls = []

    def load(edits):
        calls.append(edits)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return loader(edits)

    result = _run("pocket-foundry", "cards.ticket-stamp.points=2..4", games=2, load=load)
    assert result.interrupted is not None and [p.values for p in result.points] == [(2,)]
    assert result.document.intro[0] == "Interrupted: 1 of 3 points finished; the rest are not in this report."
    assert result.document.meta["points"] == "1 of 3 (interrupted)"


# ---------------------------------------------------------------- the report and its charts


@pytest.fixture(scope="module")
def pf_sweep(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("sweep")
    result = _run("pocket-foundry", "cards.ticket-stamp.points=2..4", games=4)
    publish.write(result.document, folder, stem="sweep")
    return folder


def test_each_chart_plots_the_numbers_of_the_json_beside_it(pf_sweep):
    data = json.loads((pf_sweep / "sweep.json").read_text())
    built = charts.for_report(data)
    assert [c.key for c in built] == ["sweep-owner", "sweep-first-seat", "sweep-score", "sweep-used"]
    assert built[0].key == "sweep-owner" and built[0].reference == 0.25
    parser = Tables()
    parser.feed((pf_sweep / "sweep.html").read_text())
    for chart in built:
        points = data["sections"][chart.section]["data"]["points"]
        assert plotted(chart) == _rounded([[p["estimate"] for p in points]]), chart.key
        assert chart.x_values == [float(p["value"]) for p in points]
        source, (header, *rows) = parser.tables[chart.key]
        assert source == f"sections.{chart.section}.data"
        assert _rounded([[_number(c) for c in row[1:]] for row in rows]) == _rounded(
            [[p["estimate"], *p["ci95"]] for p in points]
        )
        assert (pf_sweep / "charts" / f"{chart.key}.png").is_file()  # sweep-owner.png: the stem once
    md = (pf_sweep / "sweep.md").read_text()
    assert "![Ticket Stamp owner's win share by Ticket Stamp points](charts/sweep-owner.png)" in md
    other = data["sections"]["other_measures"]["data"]["measures"]
    assert other == ["ties", "winner-score", "length"]  # tabled with their intervals, not charted
    assert "| Ticket Stamp points | The share of games with a shared win |" in md


def test_two_swept_values_draw_one_curve_per_value_of_the_second():
    curve = {
        "parameter": "Boiler Room vp",
        "measure": "owner's win share",
        "group_parameter": "rounds",
        "target": 0.25,
        "points": [
            {"value": 1, "group": 7, "estimate": 0.2, "ci95": [0.1, 0.3]},
            {"value": 1, "group": 8, "estimate": 0.22, "ci95": [0.12, 0.32]},
            {"value": 2, "group": 7, "estimate": 0.3, "ci95": [0.2, 0.4]},
        ],
    }
    chart = charts.sweep(curve)
    assert [s.name for s in chart.series] == ["rounds = 7", "rounds = 8"]
    assert [s.values for s in chart.series] == [[0.2, 0.3], [0.22, None]]
    assert plotted(chart) == [[0.2, 0.3], [0.22]]
