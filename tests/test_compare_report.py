"""`compare` writes its report like `simulate`: an HTML page whose charts plot the numbers of the JSON beside it,
Markdown and JSON; progress on a terminal; Ctrl-C stops cleanly and writes nothing."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest
from pf_common import ROOT
from rich.console import Console
from test_sim_charts import Tables, _number, expected, plotted
from test_sim_progress import _group, interrupt_with_workers

from generator import pipeline
from generator.sim import progress, publish
from generator.sim.compare import compare, report_charts

A, B = "pocket-foundry", "pocket-foundry-unjammed"


def _plugin(game: str):
    loaded = pipeline.load(ROOT, game)
    return loaded.ruleset.simulation(loaded)


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> Path:
    """A comparison of the shipped game and its example edition, written as `compare` writes it."""
    result = compare(_plugin(A), _plugin(B), (A, B), 4, ["planner", "random", "planner", "random"], 6, seed=3)
    folder = tmp_path_factory.mktemp("compare")
    paths = publish.write(result.document, folder, stem="compare", charts=report_charts)
    assert [p.name for p in paths] == ["compare.html", "compare.md", "compare.json"]
    return folder


def _runs(folder: Path) -> tuple[dict, dict]:
    runs = json.loads((folder / "compare.json").read_text(encoding="utf-8"))["sections"]["runs"]["data"]
    assert runs["labels"] == [A, B]
    return runs["a"], runs["b"]


def _shares(run: dict, categories: list[str]) -> list[float]:
    """Return a run's score histogram as shares of its players, on the chart's bins (straight from the JSON)."""
    bins = {f"{lo}" if lo == hi else f"{lo}–{hi}": c for lo, hi, c in run["sections"]["scores"]["data"]["histogram"]}
    total = sum(bins.values())
    return [bins.get(k, 0) / total for k in categories]


def _realigned(run: dict, key: str, categories: list[str], own: list[str]) -> list[list[float | None]]:
    """Return a run's values (and intervals) for `key` on the comparison chart's categories, None where it has none."""
    at = {c: i for i, c in enumerate(own)}
    return [[s[at[c]] if c in at else None for c in categories] for s in expected(run, key)]


def test_every_comparison_chart_plots_and_tabulates_the_numbers_of_the_json_beside_it(written):
    a, b = _runs(written)
    built = {c.key: c for c in report_charts(json.loads((written / "compare.json").read_text(encoding="utf-8")))}
    assert list(built) == ["compare-win-share-by-seat", "compare-win-share-by-card", "compare-score-distribution"]
    # Each chart is shown beside the differences it illustrates; its source names the run data it plots.
    assert {k: (c.section, c.source) for k, c in built.items()} == {
        "compare-win-share-by-seat": ("seats", "sections.runs.data.{a,b}.sections.seats.data.seats"),
        "compare-win-share-by-card": ("runs", "sections.runs.data.{a,b}.sections.machines.data"),
        "compare-score-distribution": ("general", "sections.runs.data.{a,b}.sections.scores.data.histogram"),
    }
    machines = {
        run: [m["machine"] for m in run_json["sections"]["machines"]["data"]] for run, run_json in (("a", a), ("b", b))
    }
    want = {
        "compare-win-share-by-seat": expected(a, "win-share-by-seat") + expected(b, "win-share-by-seat"),
        "compare-win-share-by-card": (
            _realigned(a, "win-share-by-card", built["compare-win-share-by-card"].categories, machines["a"])
            + _realigned(b, "win-share-by-card", built["compare-win-share-by-card"].categories, machines["b"])
        ),
        "compare-score-distribution": [_shares(run, built["compare-score-distribution"].categories) for run in (a, b)],
    }
    for key, chart in built.items():
        assert plotted(chart) == [[None if v is None else pytest.approx(v, abs=1e-12) for v in s] for s in want[key]]
    page = (written / "compare.html").read_text(encoding="utf-8")
    parser = Tables()
    parser.feed(page)
    assert set(parser.tables) == set(built)
    for key, (source, rows) in parser.tables.items():
        assert source == built[key].source
        header, *body = rows
        assert [row[0] for row in body] == built[key].categories
        columns = [[_number(row[j]) for row in body] for j in range(1, len(header)) if header[j] != "Note"]
        assert columns == [[None if v is None else pytest.approx(v, abs=1e-9) for v in s] for s in want[key]], key
        assert (written / "charts" / f"{key}.png").is_file()
        assert (written / "charts" / f"{key}.svg").read_bytes().startswith(b"<?xml")
    assert not list((written / "charts").glob("compare-compare-*"))  # the stem is not said twice
    # The page is self-contained and puts the seat chart in the seats section, before the first measure group.
    assert "<script" not in page and not re.search(r'(src|href)="(https?:)?//', page)
    assert (
        page.index('<section id="seats">')
        < page.index('id="chart-compare-win-share-by-seat"')
        < page.index('<section id="general">')
    )
    md = (written / "compare.md").read_text(encoding="utf-8")
    seats_md = md.split("## Seats", 1)[1].split("## ", 1)[0]
    assert "](charts/compare-win-share-by-seat.png)" in seats_md


def test_the_comparison_files_are_byte_identical_run_after_run(written, tmp_path):
    result = compare(_plugin(A), _plugin(B), (A, B), 4, ["planner", "random", "planner", "random"], 6, seed=3)
    publish.write(result.document, tmp_path, stem="compare", charts=report_charts)
    for name in ("compare.html", "compare.md", "compare.json", "charts/compare-win-share-by-seat.svg"):
        assert (tmp_path / name).read_bytes() == (written / name).read_bytes(), name


def test_a_terminal_sees_a_bar_for_each_edition():
    console = Console(file=io.StringIO(), force_terminal=True, width=120, color_system=None)
    with progress.reporting("games", console=console):
        compare(_plugin(A), _plugin(B), (A, B), 2, ["random", "random"], 12, seed=1)
    out = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", console.file.getvalue())
    assert re.search(r"compare: A pocket-foundry .*12/12 games", out), out
    assert re.search(r"compare: B pocket-foundry-unjammed .*12/12 games", out), out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_stops_both_runs_says_what_finished_and_writes_nothing(tmp_path):
    out = tmp_path / "cmp"
    cmd = [sys.executable, "-m", "generator", "compare", A, B, "--bots", "random", "--games", "400000"]
    cmd += ["--jobs", "2", "--out", str(out)]
    proc, stdout, stderr = interrupt_with_workers(cmd)
    assert proc.returncode == 130, stderr
    assert re.fullmatch(r"interrupted: \d+ of 800000 games finished; no report written\n", stderr), stderr
    assert stdout == "" and not out.exists()
    assert _group(proc.pid) == []
