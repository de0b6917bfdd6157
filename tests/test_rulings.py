"""The rules check's findings are kept by a digest of the game's files: unchanged cards are not checked again."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator.games.pocket_foundry import PocketFoundryRuleset
from generator.pipeline import Pipeline
from generator.project import rulings


@pytest.fixture
def checks(monkeypatch, tmp_path) -> list[str]:
    """Count the rules checks that really run, with a cache of this test's own."""
    monkeypatch.setenv("CARDPRESS_CACHE", str(tmp_path / "cache"))
    ran: list[str] = []
    real = PocketFoundryRuleset.check_rules

    def counted(self, game, report):
        ran.append(game.dir.id)
        real(self, game, report)

    monkeypatch.setattr(PocketFoundryRuleset, "check_rules", counted)
    return ran


def findings(project: Path, **options) -> list[str]:
    pipeline = Pipeline(project, "pocket-foundry", **options)
    pipeline.validate()
    return [f"{d.severity} {d.code} {d.loc.where() if d.loc else ''}: {d.message}" for d in pipeline.report.items]


def break_laps(project: Path) -> None:
    game = project / "cards" / "pocket-foundry" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("  laps: 12\n", "  laps: 11\n"), encoding="utf-8")


def test_unchanged_files_are_not_checked_again(project, checks):
    break_laps(project)
    first = findings(project)
    assert any(line.startswith("error PF") for line in first), first
    assert checks == ["pocket-foundry"]
    assert findings(project) == first  # every finding, in order, located as before
    assert checks == ["pocket-foundry"]


def test_any_edit_checks_again(project, checks):
    clean = findings(project)
    assert not any(line.startswith("error") for line in clean)
    break_laps(project)
    broken = findings(project)
    assert len(checks) == 2 and any(line.startswith("error PF") for line in broken)
    rulebook = project / "cards" / "pocket-foundry" / "rulebook.txt"
    rulebook.write_text(rulebook.read_text(encoding="utf-8") + "\n", encoding="utf-8")  # a file the check reads
    findings(project)
    assert len(checks) == 3


def test_edits_in_memory_are_part_of_the_key(project, checks):
    from generator.source.edits import Edit

    findings(project)
    findings(project, edits={"game.yaml": [Edit("game.yaml", ("rules", "laps"), 11)]})
    assert len(checks) == 2


def test_a_torn_entry_is_a_miss(project, checks, tmp_path):
    first = findings(project)
    shelf = rulings.cache.shelf("rules")
    assert shelf is not None
    shelf.flush()
    assert shelf.db is not None
    shelf.db.execute("UPDATE entries SET value = ?", (b"not a pickle",))
    assert findings(project) == first
    assert len(checks) == 2


def test_a_link_in_the_folder_is_never_read(project, checks):
    os.symlink("/dev/zero", project / "cards" / "pocket-foundry" / "endless")  # reading it would never end
    findings(project)
    assert checks == ["pocket-foundry"]


def test_off_means_always_checked(project, checks, monkeypatch):
    monkeypatch.setenv("CARDPRESS_CACHE", "off")
    findings(project)
    findings(project)
    assert len(checks) == 2
