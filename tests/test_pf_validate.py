"""The rules layer of `cardpress validate`: one broken number or word gives one located PF diagnostic."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import run_cli

from generator import pipeline

# name: (file, old text, new text, the headlines expected, in order)
CASES = {
    "run-gain-number": (
        "machines.yaml",
        "gain: {points: 9}",
        "gain: {points: 8}",
        [
            "cards/pocket-foundry/machines.yaml:58:43: error[PF005] machines[6].run.gain.points: Packing Line's "
            "run.gain.points is 8; the rulebook prints 9"
        ],
    ),
    "build-cost-above-cap": (
        "machines.yaml",
        "build_cost: {feed: 2}",
        "build_cost: {feed: 7}",
        [
            "cards/pocket-foundry/machines.yaml:9:24: error[PF002] machines[0].build_cost.feed: Feed Belt's BUILD COST "
            "of 7 FEED can never be paid: players store at most 6",
            "cards/pocket-foundry/machines.yaml:9:24: error[PF005] machines[0].build_cost.feed: Feed Belt's "
            "build_cost.feed is 7; the rulebook prints 2",
        ],
    ),
    "copies": (
        "machines.yaml",
        "copies: 2",
        "copies: 3",
        [
            "cards/pocket-foundry/machines.yaml:5:1: error[PF001] machines: the data has 17 market cards; the "
            "rulebook states 16",
            "cards/pocket-foundry/machines.yaml:8:13: error[PF001] machines[0].copies: Feed Belt has 3 copies; the "
            "rulebook states 2 of every type",
            "cards/pocket-foundry/machines.yaml:8:13: error[PF001] machines[0].copies: Feed Belt has 3 copies; the "
            "rulebook prints 2 (copy 1, copy 2)",
        ],
    ),
    "reminder-word": (
        "machines.yaml",
        "Run at most once",
        "Run at most twice",
        [
            "cards/pocket-foundry/machines.yaml:3:11: error[PF005] reminder: the kit prints 'twice' (word 4) where "
            "the rulebook has 'once'"
        ],
    ),
    "hand-written-text": (
        "machines.yaml",
        "    glyph: feed-belt\n",
        '    glyph: feed-belt\n    text: {run: "RUN: Gain 4 FEED."}\n',
        [
            "cards/pocket-foundry/machines.yaml:13:17: error[PF006] machines[0].text.run: the card prints "
            "'RUN: Gain 4 FEED.', but Feed Belt's run.gain.feed is 3",
            "cards/pocket-foundry/machines.yaml:13:17: error[PF005] machines[0].text.run: the kit prints '4' (word 3) "
            "where the rulebook has '3'",
        ],
    ),
    "unreadable-text": (
        "machines.yaml",
        "    glyph: feed-belt\n",
        '    glyph: feed-belt\n    text: {run: "RUN: Make 3 FEED."}\n',
        [
            "cards/pocket-foundry/machines.yaml:13:17: error[PF006] machines[0].text.run: cannot read 'RUN: Make 3 "
            "FEED.': expected 'Gain <amounts>' or 'Pay <amounts> to gain <amounts>' after 'RUN:'",
            "cards/pocket-foundry/machines.yaml:13:17: error[PF005] machines[0].text.run: the kit prints 'Make' "
            "(word 2) where the rulebook has 'Gain'",
        ],
    ),
    "cap": (
        "game.yaml",
        "start: 3, cap: 6",
        "start: 3, cap: 7",
        [
            "cards/pocket-foundry/game.yaml:16:29: error[PF004] rules.resources.feed.cap: feed cap is 7; the "
            "rulebook states 6",
            "cards/pocket-foundry/game.yaml:16:29: error[PF004] rules.resources.feed.cap: the feed cap is 7; the "
            "rulebook prints 6",
            "cards/pocket-foundry/scenarios.yaml:37:71: error[PF008] scenarios[2].expect.steps[0].discarded.feed: "
            "scenario 'feeder-cap': slot 1 (Starter Feeder) discarded 0 feed, but the rulebook prints 1",
            "cards/pocket-foundry/scenarios.yaml:37:89: error[PF008] scenarios[2].expect.steps[0].after.feed: "
            "scenario 'feeder-cap': slot 1 (Starter Feeder) after 7 feed, but the rulebook prints 6",
        ],
    ),
    "players": (
        "game.yaml",
        "supported: [2, 3, 4, 6]",
        "supported: [2, 3, 4, 5, 6]",
        [
            "cards/pocket-foundry/game.yaml:11:24: error[PF009] players.supported[3]: 5 players cannot each start the "
            "same number of the 12 laps"
        ],
    ),
    "market-size": (
        "game.yaml",
        "market_size: 4",
        "market_size: 5",
        [
            "cards/pocket-foundry/game.yaml:21:16: error[PF004] rules.market_size: rules.market_size is 5; the "
            "rulebook states 4"
        ],
    ),
    "renamed-component": (
        "components.yaml",
        "name: Foundry mat",
        "name: Foundry map",
        [
            "cards/pocket-foundry/components.yaml:3:9: error[PF005] mat.name: the rulebook prints this component as "
            "'Foundry mat', not 'Foundry map'"
        ],
    ),
    "scenario-result": (
        "scenarios.yaml",
        "end: {feed: 0, parts: 0, points: 7}",
        "end: {feed: 0, parts: 0, points: 8}",
        [
            "cards/pocket-foundry/scenarios.yaml:19:40: error[PF008] scenarios[0].expect.end.points: scenario "
            "'worked-example' ends with 7 points, but the rulebook prints 8"
        ],
    ),
    "scenario-machine-name": (
        "scenarios.yaml",
        "small-press, polishing-wheel, ticket-stamp]\n    start: {feed: 3",
        "small-press, polishng-wheel, ticket-stamp]\n    start: {feed: 3",
        [
            "cards/pocket-foundry/scenarios.yaml:11:40: error[S005] scenarios[0].row[2]: unknown machine "
            "'polishng-wheel'"
        ],
    ),
    "scenario-starter-elsewhere": (
        "scenarios.yaml",
        "row: [starter-feeder, polishing-wheel,",
        "row: [starter-feeder, Starter Feeder,",
        [
            "cards/pocket-foundry/scenarios.yaml:23:27: error[PF010] scenarios[1].row[1]: the Starter Feeder only "
            "ever sits in slot 1"
        ],
    ),
    "bot-machine-name": (
        "bots.yaml",
        "build: packing-line",
        "build: packing-lines",
        [
            "cards/pocket-foundry/bots.yaml:20:16: warning[S005] bots.engine.rules[1].build: unknown machine "
            "'packing-lines'"
        ],  # bots only play: a broken one warns in validate and stops only `simulate`
    ),
    "rulebook-fact": (
        "rulebook.txt",
        "Deal four face up",
        "Deal five face up",
        [
            "cards/pocket-foundry/game.yaml:21:16: error[PF004] rules.market_size: rules.market_size is 4; the "
            "rulebook states 5"
        ],
    ),
}


def break_file(project: Path, name: str, old: str, new: str) -> None:
    path = project / "cards" / "pocket-foundry" / name
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def headlines(project: Path) -> list[str]:
    _, report = pipeline.validate(project, "pocket-foundry")
    from generator.diagnostics import sort_diagnostics

    return [d.headline() for d in sort_diagnostics(report.items)]


@pytest.mark.parametrize("case", sorted(CASES))
def test_one_broken_number_or_word_gives_located_diagnostics(project, case):
    name, old, new, expected = CASES[case]
    break_file(project, name, old, new)
    assert headlines(project) == expected


def test_the_shipped_game_passes_every_rules_check(project):
    assert headlines(project) == []


def test_hand_written_text_that_says_the_same_passes(project):
    break_file(
        project,
        "machines.yaml",
        "    glyph: feed-belt\n",
        '    glyph: feed-belt\n    text: {run: "RUN: Gain 3 FEED.", build_cost: "BUILD COST: 2 FEED."}\n',
    )
    assert headlines(project) == []


def test_a_machine_nobody_can_ever_build_is_a_warning(project):
    # Without a PART producer, every machine that costs PARTS is out of reach.
    break_file(
        project, "machines.yaml", "run: {pay: {feed: 2}, gain: {parts: 1}}", "run: {pay: {feed: 2}, gain: {feed: 1}}"
    )
    break_file(
        project, "machines.yaml", "run: {pay: {feed: 3}, gain: {parts: 2}}", "run: {pay: {feed: 3}, gain: {feed: 2}}"
    )
    warnings = [h for h in headlines(project) if "warning[PF003]" in h]
    assert warnings == [
        f"cards/pocket-foundry/machines.yaml:{line}:17: warning[PF003] machines[{i}].build_cost: {name} can never "
        "be built: no row a player can assemble ever holds its BUILD COST"
        for line, i, name in [
            (41, 4, "Twin Press"),
            (49, 5, "Polishing Wheel"),
            (57, 6, "Packing Line"),
            (65, 7, "Return Chute"),
        ]
    ]


def test_validate_cli_prints_the_caret_and_hint_and_exits_1(project):
    break_file(project, "machines.yaml", "gain: {points: 4}", "gain: {points: 5}")
    result = run_cli("validate", "pocket-foundry", "--root", str(project), cwd=project)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith(
        "cards/pocket-foundry/machines.yaml:50:43: error[PF005] machines[5].run.gain.points: Polishing Wheel's "
        "run.gain.points is 5; the rulebook prints 4\n"
        "    |\n"
        " 50 |     run: {pay: {parts: 1}, gain: {points: 5}}\n"
        "    |                                           ^\n"
        "  = hint: cards/pocket-foundry/rulebook.txt:"
    )
    assert (
        "error[PF008] scenarios[0].expect.steps[2].gained.points: scenario 'worked-example': slot 3 (Polishing "
        "Wheel) gained 5 points, but the rulebook prints 4" in result.stderr
    )
    assert result.stderr.endswith("3 errors, 0 warnings in 2 files\n")


def test_a_broken_bot_stops_only_the_simulations_that_use_it(project):
    break_file(project, "bots.yaml", "build: packing-line", "build: Packing Lines")
    args = ("--games", "2", "--skill-games", "0", "--root", str(project), "--out", str(project / "sim"))
    result = run_cli("simulate", "pocket-foundry", "--bots", "engine", *args, cwd=project)
    assert result.returncode == 1
    assert result.stderr == (
        "cards/pocket-foundry/bots.yaml:20:16: error[S005] bots.engine.rules[1].build: unknown machine 'Packing Lines'\n"
        "    |\n"
        " 20 |       - build: Packing Lines\n"
        "    |                ^\n"
        "  = hint: did you mean 'Packing Line'?\n\n"
        "1 error, 0 warnings in 1 file\n"
    )
    for bots in ("planner", "stamper", "planner,stamper,random,polisher"):
        result = run_cli("simulate", "pocket-foundry", "--bots", bots, *args, cwd=project)
        assert result.returncode == 0, result.stderr
        assert result.stderr == ""


def test_bots_and_scenarios_follow_a_renamed_machine(project):
    # They name machines by id, so a new name on the card changes nothing for them.
    break_file(project, "machines.yaml", "name: Packing Line", "name: Crate Line")
    for copy in (1, 2):
        break_file(project, "rulebook.txt", f"Packing Line · copy {copy}", f"Crate Line · copy {copy}")
    _, report = pipeline.validate(project, "pocket-foundry")
    assert [d.headline() for d in report.items] == []
    args = ("--games", "2", "--skill-games", "0", "--root", str(project), "--out", str(project / "sim"))
    result = run_cli("simulate", "pocket-foundry", "--bots", "engine", *args, cwd=project)
    assert result.returncode == 0, result.stderr


def test_an_editions_rulebook_is_held_strictly(project):
    # A new title does not make the rulebook someone else's: the cards are held to it, as errors.
    break_file(project, "game.yaml", "title: Pocket Foundry", "title: Pocket Foundry Deluxe")
    break_file(project, "machines.yaml", "gain: {points: 9}", "gain: {points: 10}")
    assert headlines(project) == [
        "cards/pocket-foundry/machines.yaml:58:43: error[PF005] machines[6].run.gain.points: Packing Line's "
        "run.gain.points is 10; the rulebook prints 9",
    ]


def test_a_game_without_a_rulebook_is_an_error(project):
    (project / "cards" / "pocket-foundry" / "rulebook.txt").unlink()
    _, report = pipeline.validate(project, "pocket-foundry")
    assert [d.render() for d in report.items] == [
        "cards/pocket-foundry/rulebook.txt:1:1: error[PF014] there is no rulebook.txt: the rules layer holds the "
        "cards to the game's own rulebook\n"
        "  = hint: copy the rulebook of the game this one is based on into cards/pocket-foundry/, then edit it"
    ]


def test_an_unreadable_number_in_a_rule_sentence_is_located(project):
    break_file(project, "rulebook.txt", "Store at most 6 FEED and 4 PARTS", "Store at most 6 FEED and 4 GEARS")
    assert headlines(project) == [
        "cards/pocket-foundry/rulebook.txt:22:15: error[PF014] cannot read '6 FEED and 4 GEARS' as the storage "
        "caps: 'GEARS' is not a resource (resources: FEED, PARTS, points)"
    ]


EDITION_RULEBOOK = [  # (old, new): the rule changes written into the edition's own rulebook
    ("16 market cards: two copies of eight machine types", "18 market cards: two copies of nine machine types"),
    ("Shuffle the sixteen market cards", "Shuffle the eighteen market cards"),
    ("sixteen cards total", "eighteen cards total"),
    ("Ticket Stamp · copy 1\nBUILD COST: 2 FEED.", "Ticket Stamp · copy 1\nBUILD COST: 3 FEED."),
    ("Ticket Stamp · copy 2\nBUILD COST: 2 FEED.", "Ticket Stamp · copy 2\nBUILD COST: 3 FEED."),
    ("Return Chute · copy", "Recycling Chute · copy"),
    (
        "Starter Feeder · print one per player",
        "".join(
            f"Gear Mill · copy {k}\nBUILD COST: 2 FEED.\nRUN: Gain 2 FEED.\nRun at most once per production turn, "
            "in slot order. Paying BUILD COST does not run this machine.\n"
            for k in (1, 2)
        )
        + "Starter Feeder · print one per player",
    ),
]


def test_an_edition_that_changes_rules_is_held_to_its_own_rulebook(project):
    # Issue 9's three edits (a cost, a rename, a ninth machine) in a copied edition, first without touching
    # its rulebook: every disagreement is an error at the data, pointing at the rulebook line.
    edition = project / "cards" / "pocket-foundry-deluxe"
    shutil.copytree(project / "cards" / "pocket-foundry", edition)
    edit = lambda name, old, new: (edition / name).write_text(  # noqa: E731
        (edition / name).read_text(encoding="utf-8").replace(old, new), encoding="utf-8"
    )
    edit("game.yaml", "title: Pocket Foundry", "title: Pocket Foundry Deluxe")
    edit(
        "machines.yaml",
        "    build_cost: {feed: 2}\n    run: {pay: {feed: 3}",
        "    build_cost: {feed: 3}\n    run: {pay: {feed: 3}",
    )
    edit("machines.yaml", "name: Return Chute", "name: Recycling Chute")
    edit(
        "machines.yaml",
        "# One per player",
        "  - id: gear-mill\n    name: Gear Mill\n    copies: 2\n    build_cost: {feed: 2}\n    run: {gain: {feed: 2}}\n"
        '    colour: "#6d6a4f"\n    glyph: feed-belt\n\n# One per player',
    )
    _, report = pipeline.validate(project, "pocket-foundry-deluxe")
    from generator.diagnostics import sort_diagnostics

    assert [d.headline() for d in sort_diagnostics(report.items)] == [
        "cards/pocket-foundry-deluxe/machines.yaml:5:1: error[PF001] machines: the data has 18 market cards; the "
        "rulebook states 16",
        "cards/pocket-foundry-deluxe/machines.yaml:5:1: error[PF001] machines: the data has 9 machine types; the "
        "rulebook states 8",
        "cards/pocket-foundry-deluxe/machines.yaml:33:24: error[PF005] machines[3].build_cost.feed: Ticket Stamp's "
        "build_cost.feed is 3; the rulebook prints 2",
        "cards/pocket-foundry-deluxe/machines.yaml:63:11: error[PF011] machines[7].name: the rulebook prints this card "
        "as 'Return Chute', not 'Recycling Chute'",
        "cards/pocket-foundry-deluxe/machines.yaml:71:11: error[PF011] machines[8].name: the rulebook prints no card "
        "named 'Gear Mill'",
    ]
    hints = [d.hint for d in sort_diagnostics(report.items)]
    assert (
        hints[0] == 'cards/pocket-foundry-deluxe/rulebook.txt:7:19 says "One copy of the 16 market cards: two '
        'copies of eight machine types"'
    )
    assert hints[4] == (
        "add it to the rulebook's Printable materials: Gear Mill · copy 1 / BUILD COST: 2 FEED. / RUN: Gain 2 FEED. / "
        "Run at most once per production turn, in slot order. Paying BUILD COST does not run this machine. / "
        "Gear Mill · copy 2 / BUILD COST: 2 FEED. / RUN: Gain 2 FEED. / Run at most once per production turn, in slot "
        "order. Paying BUILD COST does not run this machine."
    )
    # The edition writes its rule changes into its own rulebook: then it validates with nothing left to say.
    for old, new in EDITION_RULEBOOK:
        assert old in (edition / "rulebook.txt").read_text(encoding="utf-8"), old
        edit("rulebook.txt", old, new)
    _, report = pipeline.validate(project, "pocket-foundry-deluxe")
    assert [d.headline() for d in report.items] == []


def test_every_code_is_documented_in_the_manual(root):
    from generator.games.pocket_foundry.rules_check import CODES

    readme = (root / "docs" / "reference" / "codes.md").read_text(encoding="utf-8")
    codes = list(CODES)
    assert codes == [f"PF{n:03}" for n in range(1, 15) if n != 13]  # PF013 is retired
    for code in codes:
        assert f"| {code} |" in readme, code
