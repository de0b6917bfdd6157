"""Command-line mistakes are cardpress diagnostics (U010, exit 2), in our words, with a did-you-mean where one fits."""

from __future__ import annotations

import pytest
from conftest import ROOT, run_cli


@pytest.mark.parametrize(
    "args, said",
    [
        (["build", "--paper", "a5"], "error[U010] --paper: 'a5' is not one of a4, letter, both\n  = hint: see `cardpress build --help`"),
        (["build", "--paper", "Lettre"], "error[U010] --paper: 'Lettre' is not one of a4, letter, both\n  = hint: did you mean 'letter'?"),
        (["build", "--players", "two"], "error[U010] --players: 'two' is not a whole number\n  = hint: did you mean '2'?"),
        (["simulate", "pocket-foundry", "--games", "lots"], "error[U010] --games: 'lots' is not a whole number\n  = hint: give a whole number, like 3"),
        (["simulate", "pocket-foundry", "--games", "0"], "error[U010] --games must be at least 1, not 0\n  = hint: see `cardpress simulate --help`"),
        (["build", "--papr", "a4"], "error[U010] unknown option --papr\n  = hint: did you mean '--paper'?"),
        (["biuld"], "error[U010] unknown command 'biuld'\n  = hint: did you mean 'build'?"),
        (["build", "--players"], "error[U010] --players needs a value"),
        (["simulate"], "error[U010] missing argument 'game'\n  = hint: see `cardpress simulate --help`"),
    ],
)  # fmt: skip
def test_a_mistake_on_the_command_line_is_one_diagnostic(args, said):
    result = run_cli(*args, cwd=ROOT)
    assert result.returncode == 2
    assert result.stderr == f"{said}\n\n1 error, 0 warnings\n"
    assert "Value error" not in result.stderr and "Input should" not in result.stderr
