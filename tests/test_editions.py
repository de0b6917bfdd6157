"""Fan editions that inherit: the new user's whole workflow, two levels of editions, every located error,
the metadata in print, and one broken edition never stopping the other games."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pdfplumber
import pytest
from conftest import ROOT, copy_project, run_cli
from pdfinspect import text_in

from generator import pipeline
from generator.diagnostics import CardpressError, sort_diagnostics
from generator.sim.compare import correct, delta

PF, ME = "pocket-foundry", "micro-engine"


@pytest.fixture
def both(tmp_path: Path) -> Path:
    """A private copy of the project with both shipped games."""
    return copy_project(tmp_path / "project", (PF, ME))


def write(project: Path, relative: str, text: str) -> Path:
    path = project / "cards" / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def cli(project: Path, *args: str):
    return run_cli(*args, "--root", str(project), cwd=project)


def problems(project: Path, game: str) -> list[str]:
    _, report = pipeline.validate(project, game)
    return [d.render() for d in sort_diagnostics(report.items)]


# -- the workflow of issue 9, from a fresh copy of the project -------------------------------------------------

PF_RULEBOOK = [  # what the edition's own rulebook says differently, as the changes below require
    ("\nPocket Foundry\n", "\nPocket Foundry Deluxe\n"),
    ("16 market cards: two copies of eight machine types", "18 market cards: two copies of nine machine types"),
    ("Shuffle the sixteen market cards", "Shuffle the eighteen market cards"),
    ("sixteen cards total", "eighteen cards total"),
    ("Ticket Stamp · copy 1\nBUILD COST: 2 FEED.", "Ticket Stamp · copy 1\nBUILD COST: 3 FEED."),
    ("Ticket Stamp · copy 2\nBUILD COST: 2 FEED.", "Ticket Stamp · copy 2\nBUILD COST: 3 FEED."),
    ("Packing Line · copy", "Crate Line · copy"),
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


@pytest.mark.slow
def test_a_pocket_foundry_edition_from_new_edition_to_compare(both):
    result = cli(both, "new-edition", "pf-deluxe", "--from", PF, "--title", "Pocket Foundry Deluxe", "--author", "Ada",
                 "--licence", "CC BY 4.0", "--version", "1.1", "--rulebook")  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("wrote cards/pf-deluxe/game.yaml\nwrote cards/pf-deluxe/rulebook.txt\n")
    assert sorted(p.name for p in (both / "cards" / "pf-deluxe").iterdir()) == ["game.yaml", "rulebook.txt"]
    # Rename a card, change a cost, add a card; the bots name machines by id, so they follow the rename.
    write(
        both,
        "pf-deluxe/machines.yaml",
        "machines:\n"
        "  - {id: packing-line, name: Crate Line}\n"
        "  - {id: ticket-stamp, build_cost: {feed: 3}}\n"
        "  - id: gear-mill\n"
        "    add: true\n"
        "    name: Gear Mill\n"
        "    copies: 2\n"
        "    build_cost: {feed: 2}\n"
        "    run: {gain: {feed: 2}}\n"
        '    colour: "#6d6a4f"\n'
        "    glyph: feed-belt\n",
    )
    for old, new in PF_RULEBOOK:
        edit(both / "cards" / "pf-deluxe" / "rulebook.txt", old, new)
    art = both / "cards" / "pf-deluxe" / "art"
    art.mkdir()
    shutil.copy(ROOT / "cards" / PF / "art" / "feed-belt.png", art / "gear-mill.png")  # the new card's art
    shutil.copy(ROOT / "cards" / PF / "art" / "sort-scoop.png", art / "feed-belt.png")  # replaces the base's

    result = cli(both, "validate", "pf-deluxe")
    assert (result.returncode, result.stdout, result.stderr) == (0, "pf-deluxe: ok (0 errors, 0 warnings)\n", "")

    result = cli(both, "build", "pf-deluxe", "--paper", "a4", "--players", "2", "--out", str(both / "output"))
    assert (result.returncode, result.stderr) == (0, "")
    kit = both / "output" / "pf-deluxe" / "pf-deluxe-a4.pdf"
    with pdfplumber.open(kit) as pdf:
        cover = text_in(pdf, 0)
        assert cover.startswith("Pocket Foundry Deluxe duplex mark Print-and-play kit · A4 paper · for 2 players")
        assert "Fan edition v1.1 by Ada Based on Pocket Foundry (Round & Revel, First edition, October 2026)" in cover
        assert "Licence: CC BY 4.0" in cover
        assert "Pocket Foundry Deluxe · v1.1 · by Ada" in cover
        assert "Pocket Foundry Deluxe v1.1 · A4 · page 3 of" in text_in(pdf, 2)  # the foot of every sheet
        cards = text_in(pdf, 2) + text_in(pdf, 4)
        assert "Crate Line · copy 1" in cards and "Gear Mill · copy 2" in cards and "Packing Line" not in cards
        assert cards.count("BUILD COST: 3 FEED.") == 2  # the two Ticket Stamps
    assert not (both / "output" / PF).exists()

    out = both / "sim"
    result = cli(both, "simulate", "pf-deluxe", "--games", "3", "--skill-games", "0", "--bots", "engine",
                 "--out", str(out))  # fmt: skip
    assert (result.returncode, result.stderr) == (0, "")
    machines = json.loads((out / "report.json").read_text())["sections"]["machines"]["data"]
    assert [m["machine"] for m in machines][-3:] == ["Crate Line", "Return Chute", "Gear Mill"]

    result = cli(both, "compare", PF, "pf-deluxe", "--games", "4", "--bots", "planner", "--json",
                 "--out", str(both / "cmp"))  # fmt: skip
    assert result.returncode == 0, result.stderr
    sections = json.loads(result.stdout)["sections"]
    builds = {row["key"]: row for row in sections["machines__builds_per_game"]["data"]}
    assert builds["packing-line"]["label"] == "Packing Line → Crate Line"  # paired by id across the rename
    assert builds["gear-mill"]["a"] is None and builds["gear-mill"]["b"] is not None
    assert [row["key"] for row in sections["seats"]["data"]] == ["1", "2", "3", "4"]
    assert (both / "cmp" / "compare.md").read_text().startswith("# pf-deluxe against pocket-foundry")

    result = cli(both, "diff", "pf-deluxe")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("rulebook.txt")[0] == (
        "pf-deluxe (Pocket Foundry Deluxe) against pocket-foundry\n\n"
        "game.yaml (header and rules constants)\n"
        "  title: Pocket Foundry → Pocket Foundry Deluxe\n\n"
        "machines.yaml (cards and settings)\n"
        "  changed  machines: ticket-stamp (Ticket Stamp)\n"
        "             build_cost.feed: 2 → 3\n"
        "  changed  machines: packing-line (Crate Line)\n"
        "             name: Packing Line → Crate Line\n"
        "  added    machines: gear-mill (Gear Mill)\n"
        "             name: Gear Mill\n"
        "             copies: 2\n"
        "             build_cost: {feed: 2}\n"
        "             run: {gain: {feed: 2}}\n"
        "             colour: #6d6a4f\n"
        "             glyph: feed-belt\n\n"
    )
    assert "  -Packing Line · copy 1\n  +Crate Line · copy 1\n" in result.stdout
    assert result.stdout.endswith(
        "files (art, templates, icons, fonts)\n  replaces art/feed-belt.png\n  adds     art/gear-mill.png\n"
    )


@pytest.mark.slow
def test_a_micro_engine_edition_renames_changes_adds_and_replaces_art(both):
    assert cli(both, "new-edition", "me-plus", "--from", ME).returncode == 0
    write(
        both,
        "me-plus/workshop.yaml",
        "parts:\n"
        "  - {id: piston-rod, name: Piston Arm}\n"
        "  - {id: gearbox, cost: 3}\n"
        "  - {id: spur-gear, add: true, name: Spur Gear, copies: 1, in: [mechanical], out: mechanical, cost: 1, vp: 1}\n",
    )
    art = both / "cards" / "me-plus" / "art"
    art.mkdir()
    shutil.copy(ROOT / "cards" / ME / "art" / "gear-train.png", art / "spur-gear.png")
    shutil.copy(ROOT / "cards" / ME / "art" / "boiler.png", art / "gearbox.png")
    result = cli(both, "validate", "me-plus")
    assert (result.returncode, result.stdout, result.stderr) == (0, "me-plus: ok (0 errors, 0 warnings)\n", "")
    result = cli(both, "build", "me-plus", "--paper", "letter", "--players", "2", "--out", str(both / "output"))
    assert (result.returncode, result.stderr) == (0, "")
    with pdfplumber.open(both / "output" / "me-plus" / "me-plus-letter.pdf") as pdf:
        assert text_in(pdf, 0).startswith("Micro-Engine: Pocket Workshop: Fan Edition duplex mark Print-and-play kit")
    result = cli(both, "simulate", "me-plus", "--games", "2", "--skill-games", "0", "--out", str(both / "sim"))
    assert (result.returncode, result.stderr) == (0, "")
    result = cli(both, "compare", ME, "me-plus", "--games", "2", "--players", "2")
    assert result.returncode == 0, result.stderr
    assert (both / "output" / "me-plus" / "compare" / f"{ME}-vs-me-plus" / "compare.html").is_file()  # serve lists it
    assert "| Piston Rod → Piston Arm |" in result.stdout
    assert "Only in B: Spur Gear." in result.stdout
    result = cli(both, "diff", "me-plus")
    assert result.stdout == (
        "me-plus (Micro-Engine: Pocket Workshop: Fan Edition) against micro-engine\n\n"
        "game.yaml (header and rules constants)\n"
        "  title: Micro-Engine: Pocket Workshop → Micro-Engine: Pocket Workshop: Fan Edition\n\n"
        "workshop.yaml (cards and settings)\n"
        "  changed  parts: piston-rod (Piston Arm)\n"
        "             name: Piston Rod → Piston Arm\n"
        "  changed  parts: gearbox (Gearbox)\n"
        "             cost: 2 → 3\n"
        "  added    parts: spur-gear (Spur Gear)\n"
        "             name: Spur Gear\n"
        "             copies: 1\n"
        "             in: [mechanical]\n"
        "             out: mechanical\n"
        "             cost: 1\n"
        "             vp: 1\n\n"
        "files (art, templates, icons, fonts)\n"
        "  replaces art/gearbox.png\n"
        "  adds     art/spur-gear.png\n"
    )


def test_a_new_edition_holds_only_its_game_yaml_and_inherits_everything(both):
    assert cli(both, "new-edition", "pf-copy", "--from", PF).returncode == 0
    assert [p.name for p in (both / "cards" / "pf-copy").iterdir()] == ["game.yaml"]
    game = pipeline.load(both, "pf-copy")
    base = pipeline.load(both, PF)
    assert game.model.machines == base.model.machines
    assert game.header.title == "Pocket Foundry: Fan Edition" and game.header.based_on.startswith("Pocket Foundry (")
    assert problems(both, "pf-copy") == []
    assert cli(both, "diff", "pf-copy").stdout.endswith("  title: Pocket Foundry → Pocket Foundry: Fan Edition\n")
    result = cli(both, "new-edition", "pf-copy", "--from", PF)
    assert result.returncode == 1
    assert result.stderr.startswith("error[E013] cards/pf-copy/ already exists")


# -- two levels ---------------------------------------------------------------------------------------------


def test_an_edition_of_an_edition_inherits_through_both(both):
    write(both, "pf-one/game.yaml", 'extends: pocket-foundry\ntitle: One\nauthors: Ada\ncredits: ["Art: Ada"]\n')
    write(both, "pf-one/machines.yaml", "machines:\n  - {id: feed-belt, name: Fast Belt}\n")
    write(both, "pf-two/game.yaml", 'extends: pf-one\ntitle: Two\nversion: 2\ncredits: "Rules: Grace"\n')
    write(both, "pf-two/machines.yaml", "machines:\n  - {id: small-press, build_cost: {feed: 1}}\n")
    game = pipeline.load(both, "pf-two")
    names = [m.name for m in game.model.machines]
    assert names[:2] == ["Fast Belt", "Small Press"]
    assert dict(game.model.machines[1].build_cost) == {"feed": 1}
    assert [level.id for level in game.dir.chain] == ["pf-two", "pf-one", PF]
    header = game.header
    assert (header.title, header.version, header.authors) == ("Two", "2", ())  # authors are an edition's own
    assert header.credits == ("Rules: Grace", "Art: Ada")  # credits add up
    assert header.based_on == "One (Ada)"
    # A value is located in the file it comes from, at every level.
    write(both, "pf-one/machines.yaml", "machines:\n  - {id: feed-belt, name: Fast Belt, copies: 0}\n")
    assert [p.splitlines()[0] for p in problems(both, "pf-two")] == [
        "cards/pf-one/machines.yaml:2:46: error[S004] machines[0].copies: must be ≥ 1, got 0"
    ]


# -- located errors -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game_yaml, expected",
    [
        (
            "extends: pocket-fondry\ntitle: X\n",
            "cards/fan/game.yaml:1:10: error[E001] extends: extends 'pocket-fondry', but there is no game "
            "'pocket-fondry' in cards/\n   |\n 1 | extends: pocket-fondry\n   |          ^\n"
            "  = hint: did you mean 'pocket-foundry'?",
        ),
        (
            "extends: fan\ntitle: X\n",
            "cards/fan/game.yaml:1:10: error[E002] extends: extends 'fan' makes a cycle: fan → fan\n"
            "   |\n 1 | extends: fan\n   |          ^\n"
            "  = hint: an edition extends a game, or an edition that does not extend it back",
        ),
        (
            "extends: pocket-foundry\nruleset: micro-engine\n",
            "cards/fan/game.yaml:2:10: error[E008] ruleset: an edition plays the ruleset of the game it extends "
            "('pocket-foundry'), not 'micro-engine'\n   |\n 2 | ruleset: micro-engine\n   |          ^\n"
            "  = hint: remove `ruleset:` from the edition's game.yaml",
        ),
    ],
    ids=["unknown-base", "cycle", "other-ruleset"],
)
def test_a_broken_extends_is_located(both, game_yaml, expected):
    write(both, "fan/game.yaml", game_yaml)
    assert problems(both, "fan") == [expected]


def test_a_cycle_through_two_editions_is_located_where_it_closes(both):
    write(both, "fan-a/game.yaml", "extends: fan-b\n")
    write(both, "fan-b/game.yaml", "extends: fan-a\n")
    assert [p.splitlines()[0] for p in problems(both, "fan-a")] == [
        "cards/fan-b/game.yaml:1:10: error[E002] extends: extends 'fan-a' makes a cycle: fan-a → fan-b → fan-a"
    ]


def test_a_change_to_a_card_that_does_not_exist_is_located_in_the_edition(both):
    write(both, "fan/game.yaml", "extends: pocket-foundry\n")
    write(both, "fan/machines.yaml", "machines:\n  - id: smal-press\n    build_cost: {feed: 3}\n")
    assert problems(both, "fan") == [
        "cards/fan/machines.yaml:2:9: error[E003] machines[0].id: no card 'smal-press' in pocket-foundry to change\n"
        "   |\n 2 |   - id: smal-press\n   |         ^\n"
        "  = hint: did you mean 'small-press'? (to add a new card, give it `add: true`)"
    ]


def test_a_path_outside_the_edition_is_located(both):
    write(both, "fan/game.yaml", "extends: pocket-foundry\n")
    write(both, "fan/machines.yaml", "machines:\n  - {id: feed-belt, art: ../pocket-foundry/art/sort-scoop.png}\n")
    run = pipeline.Pipeline(both, "fan", players=2)
    run.lint(["a4"])
    assert [d.headline() for d in run.report.items if d.code == "S010"] == [
        "cards/fan/machines.yaml:2:26: error[S010] machines[0].art: path '../pocket-foundry/art/sort-scoop.png' "
        "leaves the folder cards/fan/"
    ]


def test_a_broken_value_in_an_edition_is_located_in_the_edition(both):
    write(both, "fan/game.yaml", "extends: pocket-foundry\nrules: {laps: twelve}\n")
    assert [p.splitlines()[0] for p in problems(both, "fan")] == [
        "cards/fan/game.yaml:2:15: error[S001] rules.laps: expected a whole number, got string 'twelve'"
    ]


# -- one broken edition never stops the others -------------------------------------------------------------


@pytest.mark.slow
def test_a_broken_edition_and_an_edition_of_a_broken_base_fail_alone(both):
    write(both, "broken/game.yaml", "extends: pocket-foundry\ntitle: [not, a title\n")
    write(both, "orphan/game.yaml", "extends: broken\ntitle: Orphan\n")
    write(both, "fine/game.yaml", "extends: pocket-foundry\ntitle: Fine\n")
    result = cli(both, "build", "--paper", "a4", "--out", str(both / "output"))
    assert result.returncode == 1
    lines = [line for line in result.stderr.splitlines() if line.startswith(("broken:", "orphan:"))]
    assert lines == [
        "broken: not built (1 error, 0 warnings in 1 file)",
        "orphan: not built (1 error, 0 warnings in 1 file)",
    ]
    assert result.stderr.count("cards/broken/game.yaml:3:1: error[Y001] YAML syntax error") == 1  # said once
    built = sorted(p.parent.name for p in (both / "output").glob("*/*-a4.pdf"))
    assert built == ["fine", ME, PF]
    assert [line for line in result.stdout.splitlines() if not line.startswith("wrote")] == [
        "fine: built (0 errors, 0 warnings)",
        "micro-engine: built (0 errors, 0 warnings)",
        "pocket-foundry: built (0 errors, 0 warnings)",
    ]


# -- compare's statistics ----------------------------------------------------------------------------------


def test_a_paired_difference_uses_the_games_pairs_and_an_unpaired_one_welch():
    d = delta("x", "x", [1, 2, 3, 4], [2, 3, 4, 5])
    assert (d.a, d.b, d.delta, d.paired, d.ci95) == (2.5, 3.5, 1.0, True, (1.0, 1.0))  # every game moved by 1
    assert not d.differs and correct([d])[0].differs  # a flag is a corrected p-value's (one row: Holm is p)
    d = delta("x", "x", [1, None, 3, 5], [2, 2, None, None])
    assert (d.a, d.b, d.delta, d.paired, d.games) == (3.0, 2.0, -1.0, False, (3, 2))
    # Welch's t: B has no spread, so its Welch–Satterthwaite df is A's, 2: t(0.975, 2) = 4.302652729749464
    assert d.ci95 == pytest.approx((-1 - 4.302652729749464 * 2 / 3**0.5, -1 + 4.302652729749464 * 2 / 3**0.5))
    assert not correct([d])[0].differs
    d = delta("x", "x", [None, None], [1, 2])
    assert (d.a, d.delta, d.ci95) == (None, None, None)


def test_a_misnamed_file_in_an_edition_is_a_warning_naming_the_file_it_meant(both):
    write(both, "fan/game.yaml", "extends: pocket-foundry\n")
    write(both, "fan/machine.yaml", "machines:\n  - {id: feed-belt, name: Fast Belt}\n")
    assert problems(both, "fan") == [
        "cards/fan/machine.yaml:1:1: warning[E014] nothing reads machine.yaml: pocket-foundry has no file of that "
        "name to change\n  = hint: did you mean 'machines.yaml'?"
    ]


def test_an_editions_own_template_and_font_replace_the_bases(both):
    write(both, "fan/game.yaml", "extends: pocket-foundry\ntitle: Fan\n")
    write(both, "fan/fonts/fonts.yaml", "families:\n  display: {regular: Heading.ttf, bold: Heading.ttf}\n")
    shutil.copy(ROOT / "fonts" / "DejaVuSans-Bold.ttf", both / "cards" / "fan" / "fonts" / "Heading.ttf")
    write(
        both,
        "fan/layouts/market-back.yaml.j2",
        '{% import "macros.j2" as m %}\nbleed: 3\nelements:\n'
        '- {{ m.rect(-3, -3, face.w + 6, face.h + 6, fill="#114477", bleed=true) }}\n'
        '- {{ m.text(6, 40, face.w - 12, 10, "FAN", font="display", size=20, colour="#ffffff", align="center", '
        "plain=true) }}\n",
    )
    result = cli(both, "build", "fan", "--paper", "a4", "--players", "2", "--out", str(both / "output"))
    assert (result.returncode, result.stderr) == (0, "")
    with pdfplumber.open(both / "output" / "fan" / "fan-a4.pdf") as pdf:
        assert text_in(pdf, 3).count("FAN") == 9  # the edition's market back on every card of the sheet
        # set in the edition's display font (the base's is Roboto Condensed)
        assert {c["fontname"].split("+")[-1] for c in pdf.pages[3].chars if c["size"] > 15} == {"DejaVuSans-Bold"}
    result = cli(both, "diff", "fan")
    assert result.stdout.endswith(
        "files (art, templates, icons, fonts)\n"
        "  adds     fonts/Heading.ttf\n"
        "  adds     fonts/fonts.yaml\n"
        "  replaces layouts/market-back.yaml.j2\n"
    )
    write(both, "fan/fonts/fonts.yaml", "families:\n  display: {regular: Missing.ttf}\n")
    run = pipeline.Pipeline(both, "fan", players=2)
    with pytest.raises(CardpressError) as caught:
        run.lint(["a4"])
    assert [d.headline() for d in caught.value.report.items] == [
        "cards/fan/fonts/fonts.yaml:2:22: error[F001] families.display.regular: font file Missing.ttf is not in "
        "cards/fan/fonts/"
    ]


def test_an_edition_that_disagrees_with_the_rulebook_it_inherits_is_told_where_its_own_copy_goes(both):
    assert cli(both, "new-edition", "pf-cheap", "--from", PF).returncode == 0
    write(both, "pf-cheap/machines.yaml", "machines:\n  - {id: ticket-stamp, build_cost: {feed: 3}}\n")
    assert problems(both, "pf-cheap") == [
        "cards/pf-cheap/machines.yaml:2:43: error[PF005] machines[3].build_cost.feed: Ticket Stamp's "
        "build_cost.feed is 3; the rulebook prints 2\n"
        "   |\n"
        " 2 |   - {id: ticket-stamp, build_cost: {feed: 3}}\n"
        "   |                                           ^\n"
        '  = hint: cards/pocket-foundry/rulebook.txt:61 prints "BUILD COST: 2 FEED."; pf-cheap inherits that '
        "rulebook: to change a rule, copy it to cards/pf-cheap/rulebook.txt and edit the copy"
    ]
    shutil.copy(ROOT / "cards" / PF / "rulebook.txt", both / "cards" / "pf-cheap" / "rulebook.txt")
    [own] = problems(both, "pf-cheap")  # its own rulebook: the hint quotes it and needs no advice
    assert own.endswith('  = hint: cards/pf-cheap/rulebook.txt:61 prints "BUILD COST: 2 FEED."')


def test_a_number_changed_in_a_micro_engine_editions_rulebook_fails_the_cards_that_disagree(both):
    assert cli(both, "new-edition", "me-rules", "--from", ME, "--rulebook").returncode == 0
    assert problems(both, "me-rules") == []
    rulebook = both / "cards" / "me-rules" / "rulebook.txt"
    edit(rulebook, "more than 10 cards in hand, discard down to 10", "more than 8 cards in hand, discard down to 8")
    edit(rulebook, "Precision Combo (3 VP)", "Precision Combo (4 VP)")
    found = problems(both, "me-rules")
    assert [p.splitlines()[0] for p in found] == [
        "cards/micro-engine/game.yaml:16:15: error[ME016] rules.hand_limit: hand_limit is 10; the rulebook says 8",
        "cards/micro-engine/patents.yaml:6:54: error[ME006] patents[0].vp: Precision Combo has vp 3; the rulebook says 4",
    ]
    assert found[0].endswith(
        '  = hint: cards/me-rules/rulebook.txt:64:36 says "If you have more than 8 cards in hand, discard down to 8."'
    )
    assert "  = hint: cards/me-rules/rulebook.txt:74:102 says " in found[1]
    # The edition changes its cards to match its own rulebook; the Example Turn then scores 1 VP more than the
    # inherited scenario expects, which the edition has to say too.
    edit(both / "cards" / "me-rules" / "game.yaml", "# credits:", "rules: {hand_limit: 8}\n# credits:")
    write(both, "me-rules/patents.yaml", "patents:\n  - {id: precision-combo, vp: 4}\n")
    assert [p.splitlines()[0] for p in problems(both, "me-rules")] == [
        "cards/micro-engine/scenarios.yaml:30:138: error[ME014] scenarios[0].steps[5].expect.vp: Example Turn "
        "(rulebook, \"Example Turn\"): after 'discard Gear Train', vp is 11, expected 10"
    ]


def test_comparing_two_different_games_has_its_own_code(tmp_path):
    result = run_cli("compare", PF, ME, "--root", str(ROOT), cwd=tmp_path)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        "error[U019] pocket-foundry is a pocket-foundry game and micro-engine a micro-engine game: "
        "only editions of one game compare\n"
        "  = hint: compare pocket-foundry with an edition of it "
        "(make one with `cardpress new-edition NAME --from pocket-foundry`)\n\n"
        "1 error, 0 warnings\n"
    )
    assert list(tmp_path.iterdir()) == []
    explained = run_cli("codes", "U019", cwd=tmp_path)
    assert explained.stdout == "U019   usage  `compare` given two different games (only editions of one game compare)\n"
