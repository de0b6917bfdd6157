"""`cardpress simulate` and `analyze` for Micro-Engine: the report's sections, variants, determinism."""

from __future__ import annotations

import importlib
import json

import pytest
from conftest import ROOT, run_cli
from me_helpers import model

commands = importlib.import_module("generator.games.micro_engine.commands")


def test_simulate_writes_the_micro_engine_sections(tmp_path):
    result = run_cli(
        "simulate",
        "micro-engine",
        "--games",
        "24",
        "--skill-games",
        "4",
        "--jobs",
        "1",
        "--out",
        str(tmp_path),
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert list(report["sections"]) == [
        "seats",
        "starting_player",
        "scores",
        "length",
        "tempo",
        "turn_order",
        "patents",
        "chains",
        "flow",
        "cards",
        "cores",
        "vp_sources",
        "skill_gap",
        "player_counts",
        "ratings",
        "glossary",
    ]
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "The player drawn to go first wins" in md and "Seat 1 starts lap 1" not in md
    assert "| Precision Combo | 3 |" in md or "Precision Combo" in md
    assert "hand-limit discards per player" in md and "reshuffles per game" in md
    assert "Dead cards (held but never playable):" in md


def test_simulate_is_the_same_for_any_number_of_processes(tmp_path):
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / jobs
        result = run_cli(
            "simulate",
            "micro-engine",
            "--players",
            "2",
            "--games",
            "12",
            "--skill-games",
            "0",
            "--jobs",
            jobs,
            "--out",
            str(out),
            cwd=ROOT,
        )
        assert result.returncode == 0, result.stderr
        outs.append(json.loads((out / "report.json").read_text(encoding="utf-8"))["sections"])
    assert outs[0] == outs[1]


def test_simulate_variants(tmp_path):
    result = run_cli(
        "simulate",
        "micro-engine",
        "--players",
        "3",
        "--variant",
        "quick",
        "--variant",
        "travel",
        "--games",
        "6",
        "--skill-games",
        "0",
        "--jobs",
        "1",
        "--out",
        str(tmp_path),
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["meta"]["game"] == "micro-engine (Quick game, Travel mode)"
    assert len(report["sections"]["tempo"]["data"]) == model().rules.rounds - 2
    bad = run_cli("simulate", "micro-engine", "--variant", "fast", cwd=ROOT)
    assert bad.returncode == 1 and "error[U006] unknown variant 'fast'" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_list_bots_and_unknown_bot():
    listed = run_cli("simulate", "micro-engine", "--list-bots", cwd=ROOT)
    assert listed.returncode == 0 and "heuristic:" in listed.stdout and "rollout:" in listed.stdout
    bad = run_cli("simulate", "micro-engine", "--bots", "heuristc", cwd=ROOT)
    assert bad.returncode == 1 and "unknown bot 'heuristc'; did you mean 'heuristic'?" in bad.stderr


def test_card_set_analysis_counts_part_outputs():
    section = commands.card_set_section(model())
    assert section.data["outputs"] == {"mechanical": 20, "electricity": 15, "steam": 10, "magnetic": 5}
    assert section.data["inputs"] == {"mechanical": 29, "electricity": 17, "steam": 13, "magnetic": 9}
    flow = commands.flow_matrix_section(model())
    assert flow.data == {"mechanical": 29 / 50, "electricity": 17 / 50, "steam": 13 / 50, "magnetic": 9 / 50}


@pytest.mark.slow
def test_analyze_runs_the_balance_experiments(tmp_path):
    result = run_cli("analyze", "micro-engine", "--quick", "--out", str(tmp_path), cwd=ROOT)
    assert result.returncode == 0, result.stderr
    data = json.loads((tmp_path / "analysis.json").read_text(encoding="utf-8"))
    assert list(data["sections"]) == ["card_set", "flow_matrix", "ladder", "turn_order", "cores", "rounds"]
    assert "## Number of rounds" in result.stdout
