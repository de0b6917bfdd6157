"""Broken card files get exact, located diagnostics, exit 1, no traceback, and an untouched output/."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli

CASES = {
    "yaml-syntax": (
        "machines.yaml",
        "run: {gain: {feed: 3}}",
        "run: {gain: {feed: 3}",
        "cards/pocket-foundry/machines.yaml:11:5: error[Y001] YAML syntax error: did not find expected ',' or '}'\n"
        "    |\n"
        ' 11 |     colour: "#c8741c"\n'
        "    |     ^\n"
        "  = hint: the flow mapping that starts at line 10, column 10 is not closed properly\n",
    ),
    "wrong-type": (
        "machines.yaml",
        "copies: 2",
        "copies: two",
        "cards/pocket-foundry/machines.yaml:8:13: error[S001] machines[0].copies: expected a whole number, "
        "got string 'two'\n"
        "   |\n"
        " 8 |     copies: two\n"
        "   |             ^\n",
    ),
    "unknown-key": (
        "machines.yaml",
        'colour: "#c8741c"',
        'color: "#c8741c"',
        "cards/pocket-foundry/machines.yaml:11:5: error[S003] machines[0].color: unknown key 'color'\n"
        "    |\n"
        ' 11 |     color: "#c8741c"\n'
        "    |     ^\n"
        "  = hint: did you mean 'colour'?\n",
    ),
    "unknown-machine": (
        "game.yaml",
        "starter: starter-feeder",
        "starter: starter-fedder",
        "cards/pocket-foundry/game.yaml:20:12: error[S005] rules.starter: unknown machine 'starter-fedder'\n"
        "    |\n"
        " 20 |   starter: starter-fedder\n"
        "    |            ^\n"
        "  = hint: did you mean 'starter-feeder'?\n",
    ),
    "negative-cost": (
        "machines.yaml",
        "build_cost: {feed: 2}",
        "build_cost: {feed: -2}",
        "cards/pocket-foundry/machines.yaml:9:24: error[S004] machines[0].build_cost.feed: must be ≥ 1, got -2\n"
        "   |\n"
        " 9 |     build_cost: {feed: -2}\n"
        "   |                        ^\n",
    ),
    "unknown-resource": (
        "machines.yaml",
        "run: {pay: {feed: 2}, gain: {parts: 1}}",
        "run: {pay: {fed: 2}, gain: {parts: 1}}",
        "cards/pocket-foundry/machines.yaml:18:17: error[S005] machines[1].run.pay.fed: unknown resource 'fed'\n"
        "    |\n"
        " 18 |     run: {pay: {fed: 2}, gain: {parts: 1}}\n"
        "    |                 ^\n"
        "  = hint: did you mean 'feed'?\n",
    ),
}


def break_file(project: Path, name: str, old: str, new: str) -> None:
    path = project / "cards" / "pocket-foundry" / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def seed_output(project: Path) -> dict[Path, bytes]:
    """Put a previous build's files in output/ and return their bytes."""
    out = project / "output" / "pocket-foundry"
    out.mkdir(parents=True)
    files = {out / "pocket-foundry-a4.pdf": b"%PDF-1.4 previous good build", out / "notes.txt": b"mine"}
    for path, data in files.items():
        path.write_bytes(data)
    return files


@pytest.mark.parametrize("command", ["validate", "build"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_broken_file_gets_exact_diagnostic(project, case, command):
    name, old, new, expected = CASES[case]
    break_file(project, name, old, new)
    before = seed_output(project)
    args = ["--out", str(project / "output")] if command == "build" else []
    result = run_cli(command, "pocket-foundry", "--root", str(project), *args, cwd=project)
    assert result.returncode == 1
    assert result.stderr == expected + "\n1 error, 0 warnings in 1 file\n"
    assert "Traceback" not in result.stdout + result.stderr
    after = {p: p.read_bytes() for p in (project / "output").rglob("*") if p.is_file()}
    assert after == before


def test_every_problem_is_reported_at_once(project):
    for case in ("wrong-type", "unknown-machine", "negative-cost", "unknown-key"):
        name, old, new, _ = CASES[case]
        break_file(project, name, old, new)
    result = run_cli("validate", "pocket-foundry", "--root", str(project), cwd=project)
    assert result.returncode == 1
    headlines = [line for line in result.stderr.splitlines() if ": error[" in line]
    assert headlines == [
        "cards/pocket-foundry/game.yaml:20:12: error[S005] rules.starter: unknown machine 'starter-fedder'",
        "cards/pocket-foundry/machines.yaml:8:13: error[S001] machines[0].copies: expected a whole number, "
        "got string 'two'",
        "cards/pocket-foundry/machines.yaml:9:24: error[S004] machines[0].build_cost.feed: must be ≥ 1, got -2",
        "cards/pocket-foundry/machines.yaml:11:5: error[S003] machines[0].color: unknown key 'color'",
    ]
    assert result.stderr.endswith("4 errors, 0 warnings in 2 files\n")


def test_unknown_game_names_the_games_there(project):
    result = run_cli("build", "pocket-foudnry", "--root", str(project), cwd=project)
    assert result.returncode == 1
    assert result.stderr == (
        "error[G001] no game 'pocket-foudnry' in " + str(project / "cards") + "\n"
        "  = hint: did you mean 'pocket-foundry'?\n\n1 error, 0 warnings\n"
    )


def test_missing_file_is_reported(project):
    (project / "cards" / "pocket-foundry" / "components.yaml").unlink()
    result = run_cli("validate", "pocket-foundry", "--root", str(project), cwd=project)
    assert result.returncode == 1
    assert result.stderr.startswith(
        "cards/pocket-foundry/components.yaml:1:1: error[Y004] file not found: cards/pocket-foundry/components.yaml\n"
    )


def test_valid_game_validates(project):
    result = run_cli("validate", "pocket-foundry", "--root", str(project), cwd=project)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("pocket-foundry: ok")


# Mistakes that once crashed the loader (exit 70 and a traceback): now each is one located error, exit 1.
def _nest(project: Path) -> None:
    (project / "cards" / "pocket-foundry" / "components.yaml").write_text("a: " + "[" * 500 + "]" * 500 + "\n")


def _folder(project: Path) -> None:
    path = project / "cards" / "pocket-foundry" / "components.yaml"
    path.unlink()
    path.mkdir()


def _loop(project: Path) -> None:
    path = project / "cards" / "pocket-foundry" / "components.yaml"
    path.unlink()
    path.symlink_to("components.yaml")


def _append_element(project: Path, line: str) -> None:
    path = project / "layouts" / "pocket-foundry" / "market-back.yaml.j2"
    path.write_text(path.read_text(encoding="utf-8") + line + "\n", encoding="utf-8")


LOADER_CASES = {
    "nested-500-deep": (
        _nest,
        "cards/pocket-foundry/components.yaml:1:104: error[Y003] document is nested more than 100 levels deep",
    ),
    "card-file-is-a-folder": (
        _folder,
        "cards/pocket-foundry/components.yaml:1:1: error[Y005] cannot read cards/pocket-foundry/components.yaml: "
        "it is a folder, not a file",
    ),
    "symlink-loop": (
        _loop,
        "cards/pocket-foundry/components.yaml:1:1: error[Y007] cannot read cards/pocket-foundry/components.yaml: "
        "it is a loop of symbolic links",
    ),
    "nul-in-art-path": (
        lambda p: break_file(
            p, "machines.yaml", "    glyph: feed-belt\n", '    glyph: feed-belt\n    art: "a\\0b.png"\n'
        ),
        "cards/pocket-foundry/machines.yaml:13:10: error[Y007] machines[0].art: path 'a\\x00b.png' contains a NUL character",
    ),
    "280-character-file-name": (
        lambda p: _append_element(p, '- {image: {src: "art/' + "a" * 280 + '.png", x: 5, y: 5, w: 10, h: 10}}'),
        "layouts/pocket-foundry/market-back.yaml.j2:1:1: error[Y007] cannot read cards/pocket-foundry/art/"
        + "a" * 280
        + ".png: its name is too long for the file system",
    ),
    "template-not-utf8": (
        lambda p: (p / "layouts" / "pocket-foundry" / "market-back.yaml.j2").write_bytes(b"elements: []\n# \xff\n"),
        "layouts/pocket-foundry/market-back.yaml.j2:1:1: error[T002] file is not UTF-8 text (invalid start byte at byte 15)",
    ),
    "truncated-font": (
        lambda p: (p / "fonts" / "Lato-Bold.ttf").write_bytes((p / "fonts" / "Lato-Bold.ttf").read_bytes()[:5000]),
        "fonts/fonts.yaml:6:49: error[F001] families.body.bold: cannot use font file Lato-Bold.ttf: "
        "it is truncated (its 'GPOS' table runs past the end of the file)",
    ),
    "number-of-5000-digits": (
        lambda p: break_file(p, "machines.yaml", "copies: 2", "copies: " + "9" * 5000),
        "cards/pocket-foundry/machines.yaml:8:13: error[Y001] machines[0].copies: YAML value error: "
        "a whole number of more than 4300 digits",
    ),
    "nan-in-a-layout": (
        lambda p: _append_element(p, '- {rect: {x: .nan, y: 10, w: 10, h: 10, fill: "#000000"}}'),
        "layouts/pocket-foundry/market-back.yaml.j2:18:14: error[L004] elements[8].rect.x: market-back: "
        "must be a finite number, got nan",
    ),
    "pattern-step-of-zero": (
        lambda p: break_file_in(p, "layouts/pocket-foundry/market-back.yaml.j2", "5, W / 8, H / 12", "5, 0, 0"),
        "layouts/pocket-foundry/market-back.yaml.j2:11:1: error[L004] elements[1].pattern: market-back: "
        "dx: a pattern step must be at least 0.5 mm, got 0 mm (at line 4, column 13 of its rendered layout)",
    ),
}


def break_file_in(project: Path, relative: str, old: str, new: str) -> None:
    path = project / relative
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize("case", sorted(LOADER_CASES))
def test_loader_level_mistakes_are_located_errors_not_crashes(project, case):
    from hostile import cli, headlines

    make, expected = LOADER_CASES[case]
    make(project)
    code, _, err = cli("validate", "pocket-foundry", "--root", str(project))
    assert code == 1, err
    assert "Traceback" not in err and "internal error" not in err
    assert headlines(err)[0] == expected
    assert err.endswith(" in 1 file\n")


@pytest.mark.parametrize(
    "case", ["nested-500-deep", "card-file-is-a-folder", "nul-in-art-path", "pattern-step-of-zero"]
)
def test_build_stops_on_loader_level_mistakes_and_writes_nothing(project, case):
    from hostile import cli, headlines

    make, expected = LOADER_CASES[case]
    make(project)
    before = seed_output(project)
    code, _, err = cli("build", "pocket-foundry", "--root", str(project), "--out", str(project / "output"))
    assert code == 1
    assert headlines(err)[0] == expected
    after = {p: p.read_bytes() for p in (project / "output").rglob("*") if p.is_file()}
    assert after == before
