"""Option values parsed without pydantic (generator.cli.coercion): what a command is given, and every message,
are what Typer's own coercion gives; and a build never imports pydantic."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer import _coercion
from typer.main import get_command

from generator.cli.main import app

ROOT = Path(__file__).resolve().parent.parent
VALUES = ["3", "+3", "-2", "0", "007", " 4", "4 ", "1_000", "x", "", "٣", "a4", "A4", "letter", "both", "a5",
          "output", "~/kits", "a b", "pocket-foundry", "ü", "placeholder", "fail", "-"]  # fmt: skip


def parameters() -> list[Any]:
    found = []
    for command in get_command(app).commands.values():  # type: ignore[attr-defined]
        found += [p for p in command.params if hasattr(p, "type_descriptor") and p.name != "help"]
    return found


def outcome(runtime: Any, value: str, param: Any) -> tuple[str, Any]:
    ctx = typer.Context(get_command(app))
    try:
        return "value", runtime.coerce(value, param=param, ctx=ctx)
    except Exception as exc:  # Typer's BadParameter, with its message
        return type(exc).__name__, str(exc)


@pytest.mark.parametrize("param", parameters(), ids=lambda p: p.name)
def test_every_value_parses_to_what_typers_own_coercion_gives(param):
    ours = param.get_runtime_param()
    theirs = _coercion.build_runtime_param(param.type_descriptor)
    assert type(ours).__name__ == "Plain"  # every option of build and validate is of a plain type
    for value in VALUES:
        assert outcome(ours, value, param) == outcome(theirs, value, param), value


def test_a_build_imports_no_pydantic(tmp_path):
    script = (
        "import runpy, sys\n"
        f"sys.argv = ['cardpress', 'build', 'pocket-foundry', '--paper', 'a4', '--players', '3', '--out', {str(tmp_path)!r}]\n"
        "try:\n    runpy.run_module('generator', run_name='__main__')\n"
        "except SystemExit as exc:\n    print('exit', exc.code, 'pydantic' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.stdout.splitlines()[-1] == "exit 0 False", done.stderr
    assert (tmp_path / "pocket-foundry" / "pocket-foundry-a4.pdf").is_file()
