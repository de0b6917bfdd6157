"""Micro-Engine validation: the shipped set passes; each kind of breakage gives a located ME/S message."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import copy_project, run_cli
from me_helpers import model

from generator import pipeline
from generator.games.micro_engine import text
from generator.games.micro_engine.rules import CODES


@pytest.fixture
def me_project(tmp_path: Path) -> Path:
    """A private copy of the Micro-Engine project that a test may break."""
    return copy_project(tmp_path / "project", games=("micro-engine",))


def edit(project: Path, name: str, old: str, new: str) -> None:
    path = project / "cards" / "micro-engine" / name
    body = path.read_text(encoding="utf-8")
    assert old in body, f"{old!r} not in {name}"
    path.write_text(body.replace(old, new, 1), encoding="utf-8")


def errors(project: Path) -> list[str]:
    _, report = pipeline.validate(project, "micro-engine")
    return [d.headline() for d in report.items]


def test_shipped_card_set_is_valid_with_no_warnings(root):
    _, report = pipeline.validate(root, "micro-engine")
    assert report.items == []


def test_card_counts_and_connection_mix_as_designed():
    g = model()
    assert g.deck_size == 90
    assert {k: sum(c.copies for c in g.of_kind(k)) for k in ("part", "upgrade", "calibration")} == {
        "part": 50,
        "upgrade": 22,
        "calibration": 18,
    }
    outs = {}
    for c in g.of_kind("part"):
        outs[c.output] = outs.get(c.output, 0) + c.copies
    assert outs == {"mechanical": 20, "electricity": 15, "steam": 10, "magnetic": 5}  # 40/30/20/10 of Outputs
    assert len(g.cores) == 10 and len(g.cores_for(travel=True)) == 9 and len(g.patents) == 12


def test_named_cards_read_as_the_rulebook_words_them():
    g = model()
    assert text.card_text(g, g.by_name("Boiler")) == "When played: you draw 1."
    assert text.inputs(g, g.by_name("Boiler")) == "Electricity" and g.by_name("Boiler").output == "steam"
    assert text.card_text(g, g.by_name("Overclock")) == "When played: your next Part costs 1 less, and you draw 1."
    assert (
        text.card_text(g, g.by_name("Precision Combo")) == "You played a Part, an Upgrade, and a Calibration this turn."
    )
    assert (
        text.card_text(g, g.by_name("Efficiency Manifold"))
        == "Ongoing: whenever you play a Part with a Cost of 2 or more, you draw 1."
    )
    assert text.card_text(g, g.by_name("Tesla Tower")) == "Requirement: 3 Upgrades in play."
    assert text.card_text(g, g.by_name("Grand Orrery")) == "Requirement: Chain length ≥5."


def test_broken_named_card_fails_with_a_located_message(me_project):
    edit(me_project, "workshop.yaml", "    out: steam\n    cost: 1\n", "    out: steam\n    cost: 2\n")
    result = run_cli("validate", "micro-engine", cwd=me_project)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "cards/micro-engine/workshop.yaml:" in result.stderr
    assert "error[ME006] parts[" in result.stderr and "Boiler has cost 2; the rulebook says 1" in result.stderr
    assert "error[ME014]" in result.stderr  # and the example turn no longer replays


def test_missing_core_for_travel_mode(me_project):
    cores = me_project / "cards" / "micro-engine" / "cores.yaml"
    body = cores.read_text(encoding="utf-8")
    cores.write_text(body[: body.index("  - id: machine-shop")], encoding="utf-8")
    assert errors(me_project) == []  # 9 Cores: Travel mode still has 8, two for each of 4 players
    body = cores.read_text(encoding="utf-8")
    cores.write_text(body[: body.index("  - id: assembly-line")], encoding="utf-8")
    edit(me_project, "scenarios.yaml", "core: assembly-line", "core: gear-forge")
    assert errors(me_project) == [
        "cards/micro-engine/cores.yaml:6:1: error[ME002] cores: Travel mode at 4 players "
        "needs 8 Cores (2 per player), but there are 7 once row-organizer is removed"
    ]


def test_skewed_connection_mix(me_project):
    edit(
        me_project,
        "workshop.yaml",
        "{id: gear-train, name: Gear Train, copies: 4, in: [mechanical], out: mechanical",
        "{id: gear-train, name: Gear Train, copies: 4, in: [mechanical], out: steam",
    )
    found = errors(me_project)
    assert (
        "cards/micro-engine/game.yaml:32:100: error[ME007] connections.mechanical.share: Mechanical is the Output "
        "of 16 of 50 Parts (32 %); the rulebook's mix is ~40 % (±5)" in found
    )
    assert any("error[ME007] connections.steam.share: Steam is the Output of 14 of 50 Parts (28 %)" in e for e in found)


def test_unknown_op_is_a_schema_error_with_a_suggestion(me_project):
    edit(me_project, "workshop.yaml", "do: [{draw: 2}]}", "do: [{drwa: 2}]}")
    result = run_cli("validate", "micro-engine", cwd=me_project)
    assert result.returncode == 1
    assert "error[S003]" in result.stderr and "unknown key 'drwa'" in result.stderr
    assert "did you mean 'draw'?" in result.stderr


def test_op_at_the_wrong_timing(me_project):
    edit(
        me_project,
        "workshop.yaml",
        "      - {when: played, do: [{action: 1}]}\n  - {id: voltage",
        "      - {when: ongoing, do: [{action: 1}]}\n  - {id: voltage",
    )
    found = errors(me_project)
    assert len(found) == 1 and "error[ME001]" in found[0]
    assert "'action' can't be used in an ongoing effect without `trigger:`" in found[0]


def test_yaml_on_key_pitfall_is_explained(me_project):
    edit(me_project, "cores.yaml", "trigger: part, if: {type: mechanical}", "on: part, if: {type: mechanical}")
    found = errors(me_project)
    assert any("error[S003]" in e and "unknown key 'True'" in e for e in found)


def test_requirement_that_can_never_be_met(me_project):
    edit(
        me_project,
        "workshop.yaml",
        "    requires: {upgrades: 3}\n  - id: solenoid",
        "    requires: {upgrades: 30}\n  - id: solenoid",
    )
    found = errors(me_project)
    assert any(
        "error[ME009] parts[" in e
        and "Tesla Tower can never be played: its Requirement needs 30 upgrades, but at most 22 can ever be in play"
        in e
        for e in found
    ), found


def test_patent_that_can_never_be_claimed(me_project):
    edit(me_project, "patents.yaml", "{parts: {type: magnetic, at_least: 2}}", "{parts: {type: magnetic, at_least: 6}}")
    found = errors(me_project)
    assert found == [
        "cards/micro-engine/patents.yaml:10:78: error[ME010] patents[4].condition.parts: Magnetic Mastery "
        "can never be claimed: it needs 6 Magnetic Parts, but at most 5 can ever be in play"
    ]


def test_hand_written_text_must_agree_with_the_data(me_project):
    edit(
        me_project,
        "workshop.yaml",
        "  - id: belt-drive\n    name: Belt Drive\n",
        '  - id: belt-drive\n    name: Belt Drive\n    text: "When played: you draw 2."\n',
    )
    found = errors(me_project)
    assert (
        len(found) == 1
        and "error[ME012] parts[2].text: Belt Drive's printed text does not say what its data says" in found[0]
    )


def test_backs_must_be_uniform_within_a_deck_and_differ_between_decks(me_project):
    edit(
        me_project,
        "workshop.yaml",
        "  - id: belt-drive\n    name: Belt Drive\n",
        '  - id: belt-drive\n    name: Belt Drive\n    back: {colour: "#000000", label: Promo, glyph: back-core}\n',
    )
    edit(
        me_project,
        "patents.yaml",
        'back: {colour: "#8a6d1d", label: Patent, glyph: back-patent}',
        'back: {colour: "#6a3b2a", label: Patent, glyph: back-core}',
    )
    found = errors(me_project)
    assert any("error[ME013] parts[2].back: Belt Drive has its own back" in e for e in found)
    assert any("error[ME013] back: the Patent back looks like the Core back" in e for e in found)


def test_travel_mode_must_remove_the_row_core(me_project):
    edit(me_project, "game.yaml", "remove_cores: [row-organizer]", "remove_cores: [gear-forge]")
    found = errors(me_project)
    assert any("error[ME006] variants.travel.remove_cores: Travel mode must remove Row Organizer" in e for e in found)
    assert any("error[ME015] cores[0].effects: Row Organizer works with the Workshop Row" in e for e in found)


def test_every_code_is_documented_in_the_manual(root):
    readme = (root / "docs" / "reference" / "codes.md").read_text(encoding="utf-8")
    for code in CODES:
        assert code in readme, code


def test_rules_constants_are_the_rulebooks(me_project):
    edit(me_project, "game.yaml", "  hand_limit: 10 ", "  hand_limit: 12 ")
    assert errors(me_project) == [
        "cards/micro-engine/game.yaml:16:15: error[ME016] rules.hand_limit: hand_limit is 12; the rulebook says 10"
    ]


def rendered(project: Path) -> list[str]:
    from generator.diagnostics import sort_diagnostics

    _, report = pipeline.validate(project, "micro-engine")
    return [d.render() for d in sort_diagnostics(report.items)]


def test_changing_numbers_in_the_rulebook_fails_exactly_where_the_data_disagrees(me_project):
    # An edition edits its rulebook.txt: the hand limit (stated twice in one sentence) and a named card's VP.
    edit(
        me_project,
        "rulebook.txt",
        "more than 10 cards in hand, discard down to 10",
        "more than 12 cards in hand, discard down to 12",
    )
    edit(me_project, "rulebook.txt", "Precision Combo (3 VP)", "Precision Combo (4 VP)")
    assert rendered(me_project) == [
        "cards/micro-engine/game.yaml:16:15: error[ME016] rules.hand_limit: hand_limit is 10; the rulebook says 12\n"
        "    |\n"
        ' 16 |   hand_limit: 10            # End of turn: "discard down to 10."\n'
        "    |               ^\n"
        '  = hint: cards/micro-engine/rulebook.txt:64:36 says "If you have more than 12 cards in hand, discard down '
        'to 12."',
        "cards/micro-engine/patents.yaml:6:54: error[ME006] patents[0].vp: Precision Combo has vp 3; the rulebook "
        "says 4\n"
        "   |\n"
        " 6 |   - {id: precision-combo, name: Precision Combo, vp: 3, condition: {played_this_turn: [part, upgrade, "
        "calibration]}}\n"
        "   |                                                      ^\n"
        '  = hint: cards/micro-engine/rulebook.txt:74:102 says "You played a Part, an Upgrade, and a '
        'Calibration this turn, so you claim Precision Combo (4 VP)."',
    ]
    # The edition follows its rulebook in its data (and its worked example's total): nothing left to report.
    edit(me_project, "game.yaml", "hand_limit: 10 ", "hand_limit: 12 ")
    edit(me_project, "patents.yaml", "name: Precision Combo, vp: 3,", "name: Precision Combo, vp: 4,")
    edit(me_project, "scenarios.yaml", "patents: [precision-combo], vp: 10}", "patents: [precision-combo], vp: 11}")
    assert rendered(me_project) == []


def test_a_renamed_named_card_is_pointed_at_and_renaming_it_in_the_rulebook_too_passes(me_project):
    edit(me_project, "workshop.yaml", "    name: Boiler\n", "    name: Kettle\n")
    assert rendered(me_project) == [
        "cards/micro-engine/workshop.yaml:105:11: error[ME005] parts[18].name: the rulebook names 'Boiler', but this "
        "card is named 'Kettle'\n"
        "     |\n"
        " 105 |     name: Kettle\n"
        "     |           ^\n"
        '  = hint: cards/micro-engine/rulebook.txt:70:19 says "You take Boiler (⚡ → ♨️) from the Row and the top '
        'card of the deck."; rename the card, or the card in the rulebook'
    ]
    rulebook = me_project / "cards" / "micro-engine" / "rulebook.txt"
    rulebook.write_text(re.sub(r"\bBoiler\b", "Kettle", rulebook.read_text(encoding="utf-8")), "utf-8")
    assert rendered(me_project) == []


def test_a_named_card_nobody_has_is_reported_at_the_rulebook_in_words(me_project):
    edit(
        me_project,
        "workshop.yaml",
        "  - id: efficiency-manifold\n    name: Efficiency Manifold\n",
        "  - id: pressure-valve\n    name: Pressure Valve\n",
    )
    assert errors(me_project) == [
        "cards/micro-engine/rulebook.txt:98:164: error[ME005] the rulebook names 'Efficiency Manifold', but no card "
        "has that name"
    ]
    _, report = pipeline.validate(me_project, "micro-engine")
    assert report.items[0].hint == (
        "add it to workshop.yaml, cores.yaml or patents.yaml, or change the rulebook; it states: an effect that needs "
        '"a Cost of 2 or more"'
    )


def test_a_game_without_a_rulebook_is_an_error(me_project):
    (me_project / "cards" / "micro-engine" / "rulebook.txt").unlink()
    assert errors(me_project) == [
        "cards/micro-engine/rulebook.txt:1:1: error[ME019] there is no rulebook.txt: the rules layer holds the cards "
        "to the game's own rulebook"
    ]


def test_a_rule_sentence_reworded_past_reading_is_reported_where_it_belongs(me_project):
    edit(me_project, "rulebook.txt", "Each player draws 5 Workshop cards.", "Each player draws a hand of five.")
    assert errors(me_project) == [
        "cards/micro-engine/rulebook.txt:10:1: error[ME019] no sentence states the starting hand: the validator reads "
        'it from a sentence like "Each player draws 5 Workshop cards."'
    ]


def test_a_rule_the_engine_plays_as_fixed_is_refused_at_the_rulebook(me_project):
    edit(me_project, "rulebook.txt", "discard it, then gain +1 action.", "discard it, then gain +2 actions.")
    assert rendered(me_project) == [
        "cards/micro-engine/rulebook.txt:57:71: error[ME020] the rulebook says a Calibration gives back +2 actions; "
        "the rules engine always plays 1\n"
        "    |\n"
        " 57 | • Play a Calibration. Announce it, resolve it, discard it, then gain +2 actions. You may play only 1 "
        "Calibration per turn.\n"
        "    |                                                                       ^\n"
        "  = hint: cardpress can only check and simulate the rules its engine plays: say 1 here, or change the "
        "engine first"
    ]
