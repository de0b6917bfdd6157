"""Every rule sentence that constrains data has a check, and a test that breaks the data and expects the error.

The tables in tests/rule_sentences/ walk each rulebook line by line. A row quotes one sentence that limits
cards, components, counts, ranges, minimums, player counts or rule flags, names the check (diagnostic code)
that enforces it, and breaks a copy of the game so that check must report, at an exact place. Every other
line is listed under `play:` with the reason it constrains play rather than data. The tests are driven
from the tables: a row without a break and an expected diagnostic fails, and so does a line nobody walked.
"""

from __future__ import annotations

import shutil
from functools import cache
from pathlib import Path

import pytest
import yaml
from conftest import ROOT

from generator import pipeline
from generator.games.micro_engine.rules import CODES as ME_CODES
from generator.games.pocket_foundry.rules_check import __doc__ as PF_DOC

TABLES = Path(__file__).resolve().parent / "rule_sentences"
GAMES = ("micro-engine", "pocket-foundry")


@cache
def table(game: str) -> dict:
    """Return one game's rule-sentence table."""
    return yaml.safe_load((TABLES / f"{game}.yaml").read_text(encoding="utf-8"))


def rulebook_lines(game: str) -> list[str]:
    """Return the shipped rulebook's lines."""
    return (ROOT / "cards" / game / "rulebook.txt").read_text(encoding="utf-8").splitlines()


ROWS = [pytest.param(game, row, id=row["id"]) for game in GAMES for row in table(game)["rows"]]


def break_copy(project: Path, game: str, edits: list[dict]) -> None:
    """Apply a row's edits to the copy: replace `old` (first or `all`), or the text from `old` up to `upto`."""
    for edit in edits:
        path = project / "cards" / game / edit["file"]
        body = path.read_text(encoding="utf-8")
        old, new = edit["old"], edit.get("new", "")
        assert old in body, f"{old!r} is not in {edit['file']}"
        if "upto" in edit:
            start = body.index(old)
            end = body.index(edit["upto"], start) if edit["upto"] else len(body)
            body = body[:start] + new + body[end:]
        else:
            body = body.replace(old, new) if edit.get("all") else body.replace(old, new, 1)
        path.write_text(body, encoding="utf-8")


def copy_game(tmp_path: Path, game: str) -> Path:
    """Copy one game (without its art, which validation does not read) and the layouts into a project."""
    project = tmp_path / "project"
    shutil.copytree(ROOT / "cards" / game, project / "cards" / game, ignore=shutil.ignore_patterns("art"))
    shutil.copytree(ROOT / "layouts", project / "layouts")
    return project


@pytest.mark.parametrize("game, row", ROWS)
def test_each_row_quotes_its_rulebook_line(game, row):
    lines = rulebook_lines(game)
    assert 0 < row["line"] <= len(lines), row["line"]
    assert row["sentence"] in lines[row["line"] - 1], f"line {row['line']} reads: {lines[row['line'] - 1]}"


@pytest.mark.parametrize("game, row", ROWS)
def test_breaking_the_data_gives_the_located_error(tmp_path, game, row):
    assert row.get("break") and row.get("expect"), f"row {row['id']} has no test: give it `break` and `expect`"
    project = copy_game(tmp_path, game)
    break_copy(project, game, row["break"])
    _, report = pipeline.validate(project, game)
    found = report.items
    shown = "\n".join(d.headline() for d in found)
    expected = row["expect"] if isinstance(row["expect"], list) else [row["expect"]]
    for want in expected:
        assert want["code"] == row["check"] or want["code"] in row.get("also", []), want
        file, line, *col = want["at"].split(":")
        severity = "warning" if want.get("warning") else "error"
        hits = [
            d
            for d in found
            if d.code == want["code"]
            and d.severity == severity
            and d.loc is not None
            and d.loc.file == f"cards/{game}/{file}"
            and d.loc.line == int(line)
            and (not col or d.loc.col == int(col[0]))
            and want["says"] in d.message
        ]
        assert hits, f"no {severity}[{want['code']}] at {want['at']} saying {want['says']!r}; found:\n{shown}"
        if "hint" in want:
            assert any(want["hint"] in (d.hint or "") for d in hits), [d.hint for d in hits]
    allowed = {row["check"], *row.get("also", [])}
    assert {d.code for d in found} <= allowed, f"unexpected codes beyond {sorted(allowed)}:\n{shown}"


@pytest.mark.parametrize("game", GAMES)
def test_every_rulebook_line_is_walked(game):
    walked = {row["line"] for row in table(game)["rows"]}
    for entry in table(game)["play"]:
        assert entry["why"].strip(), entry
        walked |= set(entry["lines"])
    lines = rulebook_lines(game)
    unwalked = [n for n, text in enumerate(lines, 1) if text.strip() and n not in walked]
    assert unwalked == [], [f"{n}: {lines[n - 1]}" for n in unwalked]


@pytest.mark.parametrize("game", GAMES)
def test_rows_have_unique_ids_and_known_fields(game):
    rows = table(game)["rows"]
    assert len({r["id"] for r in rows}) == len(rows)
    for row in rows:
        assert set(row) <= {"id", "line", "sentence", "limits", "check", "also", "break", "expect"}, row["id"]


def test_every_rules_code_is_enforced_by_a_row_or_says_why_not():
    for game, codes in (
        ("micro-engine", set(ME_CODES)),
        ("pocket-foundry", {line.split()[0] for line in PF_DOC.splitlines() if line.startswith("PF0")}),
    ):
        t = table(game)
        checked = {r["check"] for r in t["rows"]}
        assert codes - checked == set(t["not_from_a_sentence"]), game
