"""The CLI's output: problems first and each once with its count, one summary last, colour only on a terminal."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from generator.diagnostics import Diagnostic, Location, Report

MISSING = (
    "  = hint: add the file, or run `cardpress art pocket-foundry --make-missing` for a stand-in sized for its box"
)


def run(*args: str, cwd: Path, env: dict[str, str] | None = None, merged: bool = False) -> subprocess.CompletedProcess:
    """Run `cardpress ARGS` piped (stderr into stdout with `merged`), with extra environment variables."""
    environ = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE")}
    environ.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        cwd=cwd,
        env=environ,
        capture_output=not merged,
        stdout=subprocess.PIPE if merged else None,
        stderr=subprocess.STDOUT if merged else None,
        text=True,
        timeout=300,
    )


def art_face(face: str, loc: Location) -> Diagnostic:
    return Diagnostic("warning", "A001", f"{face}: art: art/x.png does not exist; drew a placeholder", "cards[0]", loc)


def test_copies_of_one_card_are_one_problem_with_a_count():
    loc = Location("cards/g/cards.yaml", 3, 5, "  - id: x")
    report = Report([art_face("x-1/front", loc), art_face("x-2/front", loc), art_face("x-3/front", loc)])
    assert report.render() == (
        "cards/g/cards.yaml:3:5: warning[A001] cards[0]: x/front: art: art/x.png does not exist; drew a placeholder "
        "(3 copies)\n"
        "   |\n"
        " 3 |   - id: x\n"
        "   |     ^\n"
        "\n"
        "0 errors, 1 warning in 1 file"
    )
    assert len(report.items) == 3  # the API keeps every face's diagnostic; only the report groups them


def test_one_bad_glyph_on_twenty_faces_is_said_once_with_its_places():
    loc = Location("layouts/g/front.yaml.j2", 12, 9, "- {id: title, kind: text}")
    faces = [f"card-{chr(97 + i)}/front" for i in range(20)]  # twenty different cards
    report = Report(
        [Diagnostic("error", "L100", f"{f}: 'title': no font can draw '🚀' (U+1F680 ROCKET)", loc=loc) for f in faces]
    )
    (problem,) = report.problems()
    assert problem.count == 20
    assert problem.render().splitlines()[0] == (
        "layouts/g/front.yaml.j2:12:9: error[L100] card-a/front: 'title': no font can draw '🚀' (U+1F680 ROCKET) "
        "(and 19 more places: card-b/front, card-c/front, card-d/front, …)"
    )
    assert report.summary() == "1 error, 0 warnings in 1 file"


def test_different_problems_at_one_place_stay_apart():
    loc = Location("cards/g/cards.yaml", 3, 5, "")
    report = Report([art_face("x-1/front", loc), Diagnostic("warning", "A002", "x-1/front: art: soft", loc=loc)])
    assert [p.count for p in report.problems()] == [1, 1]


@pytest.mark.slow  # a fresh process: signals and a real process's streams
def test_validate_prints_problems_first_each_once_and_one_summary_last(tmp_path):
    from conftest import copy_project

    project = copy_project(tmp_path / "p")
    for name in ("feed-belt", "small-press"):
        (project / f"cards/pocket-foundry/art/{name}.png").unlink()
    result = run("validate", "pocket-foundry", "--missing-art", "warn", cwd=project, merged=True)
    assert result.returncode == 0
    assert result.stdout == (
        "cards/pocket-foundry/machines.yaml:6:9: warning[A001] machines[0]: feed-belt/front: art: "
        "cards/pocket-foundry/art/feed-belt.png does not exist; drew a placeholder (2 copies)\n"
        "   |\n"
        " 6 |   - id: feed-belt\n"
        "   |         ^\n" + MISSING + "\n\n"
        "cards/pocket-foundry/machines.yaml:14:9: warning[A001] machines[1]: small-press/front: art: "
        "cards/pocket-foundry/art/small-press.png does not exist; drew a placeholder (2 copies)\n"
        "    |\n"
        " 14 |   - id: small-press\n"
        "    |         ^\n" + MISSING + "\n\n"
        "pocket-foundry: ok (0 errors, 2 warnings in 1 file)\n"
    )


@pytest.mark.slow  # a fresh process: signals and a real process's streams
def test_validate_of_every_game_ends_with_one_total():
    result = run("validate", cwd=ROOT, merged=True)
    assert result.returncode == 0
    assert result.stdout == (
        "hedgerow: ok (0 errors, 0 warnings)\n"
        "micro-engine: ok (0 errors, 0 warnings)\n"
        "micro-engine-even-race: ok (0 errors, 0 warnings)\n"
        "pocket-foundry: ok (0 errors, 0 warnings)\n"
        "pocket-foundry-fr: ok (0 errors, 0 warnings)\n"
        "pocket-foundry-unjammed: ok (0 errors, 0 warnings)\n"
        "6 games: 0 errors, 0 warnings\n"
    )


@pytest.mark.slow  # a fresh process: signals and a real process's streams
def test_a_terminal_gets_colour_and_no_color_turns_it_off():
    wrong = ("build", "pocket-foudnry", "--out", "/nonexistent")
    coloured = run(*wrong, cwd=ROOT, env={"FORCE_COLOR": "1"})  # FORCE_COLOR: rich treats the pipe as a terminal
    assert coloured.returncode == 1
    assert coloured.stderr == (
        "\x1b[1;31merror[G001]\x1b[0m no game 'pocket-foudnry' in " + str(ROOT / "cards") + "\n"
        "\x1b[36m  = hint: \x1b[0mdid you mean 'pocket-foundry'?\n"
        "\n"
        "\x1b[1;31m1 error, 0 warnings\x1b[0m\n"
    )
    plain = run(*wrong, cwd=ROOT, env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    piped = run(*wrong, cwd=ROOT)
    assert (
        plain.stderr
        == piped.stderr
        == (
            "error[G001] no game 'pocket-foudnry' in " + str(ROOT / "cards") + "\n"
            "  = hint: did you mean 'pocket-foundry'?\n\n1 error, 0 warnings\n"
        )
    )


@pytest.mark.slow  # a fresh process: signals and a real process's streams
def test_a_located_problem_keeps_the_compiler_form_in_colour(tmp_path):
    from conftest import copy_project

    project = copy_project(tmp_path / "p")
    game = project / "cards/pocket-foundry/game.yaml"
    game.write_text(game.read_text().replace("starter: starter-feeder", "starter: starter-fedder"))
    result = run("validate", "pocket-foundry", cwd=project, env={"FORCE_COLOR": "1"})
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert lines[0] == (
        "\x1b[1mcards/pocket-foundry/game.yaml:20:12: \x1b[0m\x1b[1;31merror[S005]\x1b[0m rules.starter: "
        "unknown machine 'starter-fedder'"
    )
    assert lines[3] == "\x1b[34m    |\x1b[0m            \x1b[1;31m^\x1b[0m"


def test_art_gives_the_pixel_size_each_missing_or_weak_image_should_have(tmp_path):
    from io import BytesIO

    from conftest import copy_project
    from PIL import Image

    project = copy_project(tmp_path / "p")
    art = project / "cards/pocket-foundry/art"
    (art / "feed-belt.png").unlink()
    soft = BytesIO()
    Image.new("RGB", (316, 159), "#884422").save(soft, "PNG")
    (art / "small-press.png").write_bytes(soft.getvalue())
    result = run("art", "pocket-foundry", cwd=project, merged=True)
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[0].endswith("it will look soft (2 copies)")  # the problem first, once
    listing = lines[lines.index("pocket-foundry: 9 art files, 1 missing, 1 below 300 dpi") :]
    assert listing[1:5] == [
        "  full-bleed art on a poker, 63.5 × 88.9 mm card: 821 × 1121 px (69.5 × 94.9 mm with 3 mm bleed, at 300 dpi)",
        "  art/feed-belt.png                missing: a stand-in is drawn; needs 632 × 319 px (53.5 × 27 mm box at "
        "300 dpi)  (feed-belt-1/front, feed-belt-2/front)",
        "  art/packing-line.png             PNG 632 × 319 px, 300 dpi, ok  (packing-line-1/front, packing-line-2/front)",
        "  art/polishing-wheel.png          PNG 632 × 319 px, 300 dpi, ok  (polishing-wheel-1/front, "
        "polishing-wheel-2/front)",
    ]
    assert (
        "  art/small-press.png              PNG 316 × 159 px, 150 dpi, below 300 dpi; needs 632 × 319 px (53.5 × 27 mm "
        "box at 300 dpi)  (small-press-1/front, small-press-2/front)" in listing
    )
    assert lines[-1] == "0 errors, 1 warning in 1 file"  # the summary last


def test_build_prints_problems_then_what_it_wrote_then_one_summary(tmp_path):
    from conftest import copy_project

    project = copy_project(tmp_path / "p")
    (project / "cards/pocket-foundry/art/feed-belt.png").unlink()
    result = run("build", "pocket-foundry", "--paper", "a4", "--missing-art", "warn", cwd=project, merged=True)
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[0].endswith(
        "feed-belt/front: art: cards/pocket-foundry/art/feed-belt.png does not exist; drew a placeholder (2 copies)"
    )
    assert lines[-2:] == [
        "wrote output/pocket-foundry/pocket-foundry-a4.pdf",
        "pocket-foundry: built (0 errors, 1 warning in 1 file)",
    ]
    assert result.stdout.count("warning[A001]") == 1


@pytest.mark.parametrize(
    "env",
    [
        {},
        {"FORCE_COLOR": "1"},
        {"FORCE_COLOR": ""},
        {"TTY_COMPATIBLE": "1"},
        {"TTY_COMPATIBLE": "0", "FORCE_COLOR": "1"},
    ],
)
@pytest.mark.parametrize("tty", [False, True])
def test_a_line_is_written_plainly_only_where_rich_would_see_no_terminal(monkeypatch, env, tty):
    import io

    from rich.console import Console
    from rich.text import Text

    from generator.cli import console

    for name in ("FORCE_COLOR", "TTY_COMPATIBLE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)

    class Stream(io.StringIO):
        def isatty(self) -> bool:
            return tty

    line, style = "pocket-foundry: built (0 errors, 0 warnings)", console.STYLES["ok"]
    monkeypatch.setattr(sys, "stdout", Stream())
    console.console().print(Text(line, style))  # what rich writes
    expected = sys.stdout.getvalue()
    monkeypatch.setattr(sys, "stdout", Stream())
    console.print_line(line, style)
    assert sys.stdout.getvalue() == expected
    assert console._terminal(Stream()) is Console(file=Stream()).is_terminal
    if not console._terminal(Stream()):
        assert expected == line + "\n"
