"""How a fan edition's YAML merges over its base's: key by key, cards by id, and every value located in its file."""

from __future__ import annotations

from generator.diagnostics import Report, sort_diagnostics
from generator.editions.overlay import merge
from generator.source import yamlsrc

BASE = """\
rules:
  caps: {feed: 6, parts: 4}
  laps: 12
machines:
  - id: feed-belt
    name: Feed Belt
    build_cost: {feed: 2}
  - id: small-press
    name: Small Press
    build_cost: {feed: 2}
  - id: twin-press
    name: Twin Press
    build_cost: {parts: 1}
"""


def _merge(edition: str) -> tuple[yamlsrc.Source, Report]:
    report = Report()
    base = yamlsrc.load_text(BASE, "cards/game/machines.yaml", report)
    over = yamlsrc.load_text(edition, "cards/fan/machines.yaml", report)
    return merge(base, over, "game", report), report


def test_mappings_merge_key_by_key_and_null_removes_a_key():
    merged, report = _merge("rules:\n  caps: {feed: 8, parts: null}\n")
    assert report.items == []
    assert merged.data["rules"] == {"caps": {"feed": 8}, "laps": 12}
    feed = merged.loc(("rules", "caps", "feed"))
    assert (feed.file, feed.line, feed.col) == ("cards/fan/machines.yaml", 2, 16)
    laps = merged.loc(("rules", "laps"))  # inherited: located in the base's file
    assert (laps.file, laps.line, laps.col, laps.text) == ("cards/game/machines.yaml", 3, 9, "  laps: 12")


def test_cards_change_by_id_and_are_added_and_removed_with_markers():
    merged, report = _merge(
        "machines:\n"
        "  - {id: twin-press, name: Double Press, build_cost: {parts: null, feed: 3}}\n"
        "  - {id: feed-belt, remove: true}\n"
        "  - {id: gear-mill, add: true, name: Gear Mill, build_cost: {feed: 2}}\n"
    )
    assert report.items == []
    assert merged.data["machines"] == [
        {"id": "small-press", "name": "Small Press", "build_cost": {"feed": 2}},
        {"id": "twin-press", "name": "Double Press", "build_cost": {"feed": 3}},
        {"id": "gear-mill", "name": "Gear Mill", "build_cost": {"feed": 2}},
    ]
    # Positions follow the merged indices: small-press moved up from index 1 to 0, in the base's file.
    assert (merged.loc(("machines", 0, "name")).file, merged.loc(("machines", 0, "name")).line) == (
        "cards/game/machines.yaml",
        9,
    )
    name = merged.loc(("machines", 1, "name"))
    assert (name.file, name.line, name.col) == ("cards/fan/machines.yaml", 2, 28)
    assert merged.loc(("machines", 2, "id")).line == 4


def _problems(edition: str) -> list[str]:
    _, report = _merge(edition)
    return [d.render() for d in sort_diagnostics(report.items)]


def test_a_misspelt_id_is_an_error_that_names_the_closest_card():
    assert _problems("machines:\n  - id: smal-press\n    build_cost: {feed: 3}\n") == [
        "cards/fan/machines.yaml:2:9: error[E003] machines[0].id: no card 'smal-press' in game to change\n"
        "   |\n"
        " 2 |   - id: smal-press\n"
        "   |         ^\n"
        "  = hint: did you mean 'small-press'? (to add a new card, give it `add: true`)"
    ]


def test_every_misuse_of_the_markers_is_located():
    problems = _problems(
        "machines:\n"
        "  - {id: small-press, add: true}\n"  # 2: already there
        "  - {id: gear-mill, remove: true}\n"  # 3: nothing to remove
        "  - {id: twin-press, remove: true, name: X}\n"  # 4: a removed card changes nothing
        "  - {name: No Id}\n"  # 5: no id
        "  - {id: feed-belt, add: yes please}\n"  # 6: not true
        "  - {id: feed-belt, name: Again}\n"  # 7: changed twice
        "rules:\n"
        "  capz: null\n"  # 9: removes nothing
    )
    headlines = [p.splitlines()[0] for p in problems]
    assert headlines == [
        "cards/fan/machines.yaml:2:10: error[E004] machines[0].id: card 'small-press' is already in game, so it "
        "cannot be added",
        "cards/fan/machines.yaml:3:10: error[E003] machines[1].id: no card 'gear-mill' in game to remove",
        "cards/fan/machines.yaml:4:36: error[E007] machines[2].name: card 'twin-press' is removed, so 'name' "
        "changes nothing",
        "cards/fan/machines.yaml:5:5: error[E006] machines[3]: each entry of machines names the card it changes by "
        "its id",
        "cards/fan/machines.yaml:6:26: error[E007] machines[4].add: `add:` is true or left out, not 'yes please'",
        "cards/fan/machines.yaml:7:10: error[E010] machines[5].id: card 'feed-belt' is changed twice (first at "
        "machines[4])",
        "cards/fan/machines.yaml:9:3: error[E011] rules.capz: 'capz' is set to nothing (null) to remove it, but game "
        "has no 'capz' here",
    ]
    assert "did you mean 'caps'?" in problems[-1]


def test_other_values_replace_and_lists_without_ids_replace_whole():
    report = Report()
    base = yamlsrc.load_text("order: [a, b, c]\nsteps: [{do: x}, {do: y}]\nname: A\n", "b.yaml", report)
    over = yamlsrc.load_text("order: [c]\nsteps: [{do: z}]\nname: B\n", "e.yaml", report)
    merged = merge(base, over, "base", report)
    assert merged.data == {"order": ["c"], "steps": [{"do": "z"}], "name": "B"}
    assert report.items == []


def test_two_levels_keep_each_value_in_its_own_file():
    report = Report()
    game = yamlsrc.load_text(BASE, "cards/game/machines.yaml", report)
    first = yamlsrc.load_text("machines:\n  - {id: feed-belt, name: Fast Belt}\n", "cards/one/machines.yaml", report)
    second = yamlsrc.load_text("machines:\n  - {id: small-press, build_cost: {feed: 1}}\n", "cards/two/m.yaml", report)
    merged = merge(merge(game, first, "game", report), second, "one", report)
    assert report.items == []
    assert [m["name"] for m in merged.data["machines"]] == ["Fast Belt", "Small Press", "Twin Press"]
    assert merged.loc(("machines", 0, "name")).file == "cards/one/machines.yaml"
    assert merged.loc(("machines", 1, "build_cost", "feed")).file == "cards/two/m.yaml"
    assert merged.loc(("machines", 2, "build_cost", "parts")).file == "cards/game/machines.yaml"
