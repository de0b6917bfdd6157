"""Every command's --help ends with examples; game-declared commands say which games offer them."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from generator.cli.examples import EXAMPLES
from generator.cli.main import app, commands

COMMANDS = [
    *("validate", "build", "new", "list", "games", "simulate", "sweep", "proof", "watch", "serve", "art"),
    *("new-edition", "diff", "compare", "codes", "export", "preflight", "replay", "new-translation"),
    "pseudo-locale",
]
GAME_COMMANDS = {"explain", "analyze"}  # declared by rulesets: tested below


def test_every_registered_command_is_tested_here():
    names = set(commands())
    assert names - GAME_COMMANDS == set(COMMANDS)


def help_of(*args: str) -> str:
    result = CliRunner().invoke(app, [*args, "--help"], terminal_width=200, max_content_width=200)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_help_ends_with_its_examples(command):
    text = help_of(command)
    lines = EXAMPLES["list" if command == "games" else command]
    assert text.endswith("  Examples:\n\n" + "".join(f"    {line}\n" for line in lines))
    assert all(
        line.startswith(f"cardpress {'list' if command == 'games' else command}") or "games" in line for line in lines
    )


def test_the_top_level_help_has_examples_too():
    assert help_of().endswith("    cardpress COMMAND --help                # a command's options and examples\n")


def test_explain_help_says_which_games_offer_it():
    text = help_of("explain")
    assert "Only for games whose ruleset is pocket-foundry: other games have no `explain`." in text
    assert text.endswith(
        "  Examples:\n\n"
        '    cardpress explain pocket-foundry "Polishing Wheel" "Small Press" "Ticket Stamp" --start feed=3\n'
        "    cardpress explain GAME --help   # that game's own options\n"
    )


def test_analyze_help_names_both_rulesets_and_their_examples():
    text = help_of("analyze")
    assert "Each game's own analyze: what it does depends on the game's ruleset." in text
    assert "Only for games whose ruleset is micro-engine or pocket-foundry: other games have no `analyze`." in text
    assert "    cardpress analyze micro-engine --quick --out output/micro-engine/analysis\n" in text
    assert "    cardpress analyze pocket-foundry --quick --out output/pocket-foundry/analysis\n" in text


def test_the_command_list_marks_game_commands():
    text = " ".join(help_of().split())  # the column width follows the longest command name
    assert " explain pocket-foundry games only: Explain one run of a row of machines, slot by slot. " in text
    assert " analyze micro-engine or pocket-foundry games only: Each game's own analyze. " in text


def test_a_game_command_help_shows_its_example_as_an_epilog():
    text = help_of("explain", "pocket-foundry")
    assert "Example:" not in text
    assert text.endswith(
        "  Examples:\n\n"
        '    cardpress explain pocket-foundry "Polishing Wheel" "Small Press" "Ticket Stamp" --start feed=3\n'
    )


def test_simulate_help_names_the_rulesets_with_an_engine():
    assert "Only for games whose ruleset has a rules engine: micro-engine, pocket-foundry." in help_of("simulate")
