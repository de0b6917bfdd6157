"""Bounded diagnostics: an excerpt around the column, a run on one line said once, a cap on what is printed."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from conftest import copy_project
from hostile import cli, headlines

from generator.diagnostics import EXCERPT, MAX_SHOWN, Diagnostic, Location, Report, excerpt
from generator.iterate.session import Session

GAME = Path("cards") / "pocket-foundry"


def counts_line(project: Path, size: int) -> None:
    """Give game.yaml a `supported:` list of player counts (all out of range) about `size` bytes long, on one line."""
    items, total, n = [], 0, 7
    while total < size:
        items.append(str(n))
        total += len(items[-1]) + 2
        n += 1
    path = project / GAME / "game.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r"supported: \[.*\]", f"supported: [{', '.join(items)}]", text, count=1), encoding="utf-8")


def test_an_excerpt_is_clipped_around_its_column():
    line = "".join(f"{i % 10}" for i in range(10_000))
    shown, caret = excerpt(line, 5001)
    assert len(shown) == EXCERPT + 2 and shown.startswith("…") and shown.endswith("…")
    assert shown[caret] == line[5000]
    assert excerpt("short line", 3) == ("short line", 2)
    start, caret = excerpt(line, 2)
    assert start == line[:EXCERPT] + "…" and caret == 1
    end, caret = excerpt(line, 10_000)
    assert end == "…" + line[-EXCERPT:] and end[caret] == line[-1]


def test_a_location_keeps_only_its_excerpt():
    loc = Location("f.yaml", 1, 300_000, "x" * 600_000)
    assert len(loc.text) <= EXCERPT + 2 and loc.text[loc.caret] == "x"
    rendered = Diagnostic("error", "S004", "bad", loc=loc).render().splitlines()
    assert rendered[2].index("…") < rendered[3].index("^") < len(rendered[2])


def test_a_run_of_alike_problems_on_one_line_is_one_with_a_count():
    report = Report()
    for i in range(50):
        report.error(
            "S004", f"must be ≤ 12, got {i + 13}", path=f"players.supported[{i}]", loc=Location("g.yaml", 3, 5 + 4 * i)
        )
    report.error("S004", "another problem", path="players.default", loc=Location("g.yaml", 3, 400))
    (run, other) = report.problems()
    assert run.render().splitlines()[0] == (
        "g.yaml:3:5: error[S004] players.supported[0]: must be ≤ 12, got 13 (and 49 more like it on this line)"
    )
    assert other.diagnostic.path == "players.default"
    assert report.summary() == "51 errors, 0 warnings in 1 file"


def test_what_is_printed_is_capped_with_a_summary():
    report = Report()
    for i in range(MAX_SHOWN + 40):
        report.error("S005", f"unknown thing {i}", loc=Location("g.yaml", i + 1, 1))
    text = report.render()
    assert text.count("error[S005]") == MAX_SHOWN
    assert text.splitlines()[-3:] == [
        "… and 40 more problems not shown (40 errors, 0 warnings): fix those above first",
        "",
        f"{MAX_SHOWN + 40} errors, 0 warnings in 1 file",
    ]


def test_a_600_kb_one_line_game_yaml_prints_under_100_kb(tmp_path):
    project = copy_project(tmp_path / "project")
    counts_line(project, 600_000)
    assert (project / GAME / "game.yaml").stat().st_size > 600_000
    code, out, err = cli("validate", "pocket-foundry", "--root", str(project))
    assert code == 1 and "Traceback" not in err
    assert len(out.encode()) + len(err.encode()) < 100_000
    first = headlines(err)[0]
    assert first.startswith("cards/pocket-foundry/game.yaml:11:") and "more like it on this line)" in first
    assert err.rstrip().endswith("errors, 0 warnings in 1 file")


def test_the_preview_state_is_bounded_too(tmp_path):
    project = copy_project(tmp_path / "project")
    session = Session(project, "pocket-foundry", project / "output", dpi=30, papers=["a4"], pdfs=False)
    counts_line(project, 48_000)
    outcome = session.rebuild()
    assert not outcome.ok and len(outcome.report.errors) > 6000
    state = session.snapshot()
    assert len(json.dumps(state)) < 100_000
    (run, *_rest) = state["diagnostics"]
    assert run["headline"].endswith("more like it on this line)") and len(run["source"]) < 3 * EXCERPT
    shutil.rmtree(project)
