"""The lab a designer can publish: corrected flags, fresh seed blocks, provenance in every report, game logs that
replay byte for byte (and fail, located, when tampered with)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli
from pf_common import ROOT

from generator import pipeline
from generator.sim import gamelog, provenance, publish, stats
from generator.sim.compare import Delta, Row, blocks, compare, correct, report_charts
from generator.sim.runner import Match, derive_seed, run_matches

PF, UNJAMMED = "pocket-foundry", "pocket-foundry-unjammed"


def _plugin(game: str):
    loaded = pipeline.load(ROOT, game)
    return loaded.ruleset.simulation(loaded)


# -- compare's flags are corrected --------------------------------------------------------------------------


def _d(p: float | None, estimate: float = 0.1) -> Delta:
    return Delta("k", "k", 0.0, estimate, estimate, (estimate - 0.05, estimate + 0.05), True, (10, 10), False, p)


def test_a_row_differs_only_when_its_holm_corrected_p_is_below_five_percent():
    raw = [0.011, 0.02, 0.03, 0.04, 0.3]  # each below 0.05 alone: uncorrected, four rows would be flagged
    rows = correct([_d(p) for p in raw])
    assert [r.p_holm for r in rows] == pytest.approx([0.055, 0.08, 0.09, 0.09, 0.3])
    assert [r.differs for r in rows] == [False] * 5
    assert [r.differs for r in correct([_d(0.001), _d(0.02), _d(0.6)])] == [True, True, False]
    assert not _d(0.001).differs  # before correction nothing is flagged: a flag always means a corrected p


def test_every_flag_in_a_comparison_is_holm_corrected_over_its_table():
    result = compare(_plugin(PF), _plugin(UNJAMMED), (PF, UNJAMMED), 3, ["planner"] * 3, 12, seed=2)
    for row in result.rows:
        assert row.pooled.p_holm is not None or row.pooled.p is None
    tables = {}
    for row in result.rows:
        tables.setdefault(row.group, []).append(row)
    for group, rows in tables.items():
        adjusted = stats.holm([r.pooled.p for r in rows])
        assert [r.pooled.p_holm for r in rows] == adjusted, group
        assert [r.pooled.differs for r in rows] == [p is not None and p < 0.05 for p in adjusted], group
    md = result.document
    captions = [t.caption for s in md.sections for t in s.tables if s.key not in ("glossary",)]
    assert captions and all("Holm-corrected over the" in c for c in captions)
    assert md.meta["correction"] == "Holm, per table and seed block"


def test_fresh_seed_blocks_never_deal_a_game_of_any_explored_seed():
    plan = blocks(7, 2)
    assert [(b.name, b.label, b.fresh) for b in plan] == [
        ("seed 7", "main", False),
        ("fresh 1", "fresh-1", True),
        ("fresh 2", "fresh-2", True),
    ]
    explored = {derive_seed(seed, "main", i) for seed in range(1, 30) for i in range(200)}
    fresh = {derive_seed(7, b.label, i) for b in plan[1:] for i in range(200)}
    assert not explored & fresh


def _row(deltas: list[float], ps: list[float]) -> Row:
    blocks_ = tuple(correct([_d(p, e)])[0] for e, p in zip(deltas, ps))
    return Row("k", "k", False, blocks_, blocks_[0])


def test_a_difference_replicates_only_when_every_fresh_block_finds_it_with_the_same_sign():
    assert _row([0.1, 0.1, 0.2], [0.001, 0.01, 0.02]).replicates is True
    assert _row([0.1, 0.1, 0.2], [0.001, 0.01, 0.2]).verdict() == "**does not replicate**"
    assert _row([0.1, -0.1, 0.2], [0.001, 0.01, 0.02]).replicates is False  # the sign flips
    assert _row([0.1, 0.1], [0.3, 0.01]).replicates is None  # nothing found on the explored seeds
    assert _row([0.1], [0.001]).verdict() == "**differs**"


def test_compare_replicate_reports_each_block_and_pooled_and_what_does_not_replicate(tmp_path):
    result = compare(_plugin(PF), _plugin(UNJAMMED), (PF, UNJAMMED), 3, ["planner"] * 3, 10, seed=1, replicate=2)
    assert [len(r.per_block) for r in result.rows] == [3] * len(result.rows)
    assert len(result.a.records) == len(result.b.records) == 30  # every block pooled in the runs
    seeds = [r["seed"] for r in result.a.records]
    assert len(set(seeds)) == 30
    assert seeds[:10] == [derive_seed(1, "main", i) for i in range(10)]  # the explored block is simulate's games
    keys = [s.key for s in result.document.sections]
    assert keys[0] == "replication" and keys[-1] == "glossary"
    paths = publish.write(result.document, tmp_path, stem="compare", charts=report_charts)
    data = json.loads(paths[2].read_text())
    seat = data["sections"]["seats"]["data"][0]
    assert [b["games"] for b in seat["blocks"]] == [[10, 10]] * 3 and seat["games"] == [30, 30]
    assert {"replicates", "verdict", "p_holm"} <= seat.keys()
    html = paths[0].read_text()
    assert "Replication on fresh seeds" in html and "Δ fresh 2 [95 % CI]" in html


# -- game logs and replay ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def logged(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("log")
    result = run_cli(
        "simulate", PF, "--players", "3", "--games", "4", "--skill-games", "3", "--count-games", "0",
        "--bots", "planner", "--out", str(folder), "--log", str(folder / "games.jsonl"), cwd=ROOT,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return folder / "games.jsonl"


def test_simulate_logs_one_documented_record_per_game(logged):
    lines = logged.read_text().splitlines()
    assert len(lines) == 4 + 3  # the main line-up, then the skill-gap games (one per seat)
    records = [json.loads(line) for line in lines]
    assert [list(r) for r in records] == [list(gamelog.KEYS)] * 7
    first = records[0]
    assert (first["format"], first["game"], first["players"], first["match"], first["index"]) == (
        gamelog.FORMAT, PF, 3, "main", 0,
    )  # fmt: skip
    assert first["seed"] == derive_seed(1, "main", 0) and first["bots"] == ["planner"] * 3
    assert first["inputs_sha256"] == provenance.inputs(pipeline.load(ROOT, PF).dir)["sha256"]
    assert all(len(a) == 3 and isinstance(a[2], str) for a in first["actions"])
    assert first["actions"][0][0] == -1 and first["actions"][0][2].startswith("deal ")  # setup deals are chance
    assert [r["match"] for r in records[4:]] == ["skill-1", "skill-2", "skill-3"]


def test_a_logged_game_replays_byte_for_byte_through_the_engine_and_explain(logged):
    result = run_cli("replay", str(logged), "--game", "2", cwd=ROOT)
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    assert out[0].startswith("pocket-foundry, 3 players (planner, planner, planner), match main game 1, seed ")
    assert out[-1].endswith("the line rebuilt byte for byte") and ": replays exactly: " in out[-1]
    assert any(line.strip().startswith("Slot 1  Starter Feeder") for line in out)  # runs told as explain tells them
    record = json.loads(logged.read_text().splitlines()[1])
    where = gamelog.Line(str(logged), 2, logged.read_text().splitlines()[1])
    replayed = gamelog.replay(_plugin(PF), where, record)
    assert gamelog.dumps(replayed.record) == where.text


def _tampered(logged: Path, tmp_path: Path, old: str, new: str, line: int = 2) -> Path:
    lines = logged.read_text().splitlines()
    assert old in lines[line - 1]
    lines[line - 1] = lines[line - 1].replace(old, new, 1)
    path = tmp_path / "tampered.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_tampered_score_fails_replay_at_its_line_and_column(logged, tmp_path):
    record = json.loads(logged.read_text().splitlines()[1])
    scores = json.dumps(record["scores"], separators=(",", ":"))
    wrong = json.dumps([record["scores"][0] + 1, *record["scores"][1:]], separators=(",", ":"))
    path = _tampered(logged, tmp_path, f'"scores":{scores}', f'"scores":{wrong}')
    result = run_cli("replay", str(path), "--game", "2", cwd=ROOT)
    assert result.returncode == 1
    col = path.read_text().splitlines()[1].index('"scores":') + 1
    assert result.stderr.startswith(
        f"{path}:2:{col}: error[R004] the engine ends the game on scores {record['scores']}; the log says "
    )
    assert "Traceback" not in result.stderr


def test_a_tampered_action_fails_replay_where_it_stands(logged, tmp_path):
    text = logged.read_text().splitlines()[1]
    record = json.loads(text)
    k, (player, action, name) = next((i, a) for i, a in enumerate(record["actions"]) if a[0] >= 0)
    piece = json.dumps([player, action, name], separators=(",", ":"))
    renamed = json.dumps([player, action, name + " twice"], separators=(",", ":"))
    path = _tampered(logged, tmp_path, piece, renamed)
    result = run_cli("replay", str(path), "--game", "2", "--quiet", cwd=ROOT)
    assert result.returncode == 1
    col = text.index(piece) + 1
    assert result.stderr.startswith(f"{path}:2:{col}: error[R004] action {k + 1}: the log names it '{name} twice'")
    illegal = json.dumps([player, 10_000, name], separators=(",", ":"))
    result = run_cli("replay", str(_tampered(logged, tmp_path, piece, illegal)), "--game", "2", cwd=ROOT)
    assert f":2:{col}: error[R004] action {k + 1}: P{player + 1} cannot play 10000" in result.stderr


def test_a_log_that_is_not_a_log_is_refused_with_its_line(logged, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(logged.read_text().splitlines()[0] + "\n{not json\n")
    result = run_cli("replay", str(bad), "--game", "2", cwd=ROOT)
    assert result.returncode == 1 and result.stderr.startswith(f"{bad}:2:2: error[R001] not a JSON game record")
    result = run_cli("replay", str(bad), "--game", "9", cwd=ROOT)
    assert f"error[R002] {bad} holds 2 game(s); there is no game 9" in result.stderr


# -- provenance in every report JSON -------------------------------------------------------------------------


def _provenance(path: Path) -> dict:
    data = json.loads(path.read_text())
    assert set(provenance.FIELDS) <= data["provenance"].keys(), path
    return data["provenance"]


def test_every_report_json_says_what_made_it(logged, tmp_path):
    sim = _provenance(logged.parent / "report.json")
    assert sim["cardpress"] == provenance.version() and sim["bots"] == ["planner"] * 3
    assert sim["command"][:3] == ["cardpress", "simulate", PF] and "--jobs" not in sim["command"]
    assert sim["inputs"][PF]["chain"] == [PF]
    assert "cards/pocket-foundry/machines.yaml" in sim["inputs"][PF]["files"]
    assert sim["seeds"]["seed"] == 1 and sim["git_commit"] in (None, provenance.git_state()[0])
    out = tmp_path / "cmp"
    result = run_cli(
        "compare", PF, UNJAMMED, "--players", "2", "--games", "3", "--bots", "planner", "--replicate", "1",
        "--jobs", "1", "--out", str(out), cwd=ROOT,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    cmp = _provenance(out / "compare.json")
    assert cmp["inputs"][UNJAMMED]["chain"] == [UNJAMMED, PF]
    assert any(k.startswith("cards/pocket-foundry-unjammed/") for k in cmp["inputs"][UNJAMMED]["files"])
    assert [b["label"] for b in cmp["seeds"]["blocks"]] == ["main", "fresh-1"]
    assert cmp["command"] == [
        "cardpress", "compare", PF, UNJAMMED, "--players", "2", "--games", "3", "--bots", "planner",
        "--replicate", "1", "--out", str(out),
    ]  # fmt: skip
    sweep = tmp_path / "sweep"
    result = run_cli(
        "sweep", PF, "--vary", "cards.ticket-stamp.points=2,3", "--games", "3", "--players", "2", "--bots",
        "planner", "--out", str(sweep), cwd=ROOT,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert _provenance(sweep / "sweep.json")["inputs"][PF]["chain"] == [PF]
    analysis = tmp_path / "analysis"
    result = run_cli("analyze", PF, "--quick", "--turns", "2", "--out", str(analysis), cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert _provenance(analysis / "analysis.json")["command"][:2] == ["cardpress", "analyze"]


def test_a_report_written_from_the_python_api_has_the_fields_too(tmp_path):
    [r] = run_matches(_plugin(PF), [Match("main", 2, ("random", "random"), 2, 1)])
    from generator.sim.report import Document, Section

    paths = publish.write(Document("t", {}, [Section("s", "s", [], [], {"games": len(r.records)})]), tmp_path)
    prov = _provenance(paths[2])
    assert prov["inputs"] == {} and prov["command"][0] == "cardpress"
    assert "## Reproduce" in paths[1].read_text()
