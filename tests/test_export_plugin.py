"""A third-party export target, installed through the `cardpress.exports` entry point, needs no change to cardpress."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import copy_project

HELLO_TARGET = '''
"""An export target from another package: one line per card, front and back face keys."""

from generator.export.target import FaceTarget


class CardList(FaceTarget):
    name = "card-list"
    summary = "A text file naming every card and its faces."
    kind = "files"

    def made(self, game, options):
        lines = [f"{card.deck}\\t{card.name}\\t{card.front.key}\\t{card.back.key}" for card in game.kit.cards]
        return {f"{game.id}-cards.txt": ("\\n".join(lines) + "\\n").encode("utf-8")}


TARGET = CardList()
'''


def installed_site(tmp_path: Path, source: str = HELLO_TARGET) -> Path:
    """Return a folder holding the plugin package and its dist-info, as pip would install it."""
    site = tmp_path / "site"
    (site / "cardlist").mkdir(parents=True)
    (site / "cardlist" / "__init__.py").write_text(source)
    info = site / "cardlist-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: cardlist\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[cardpress.exports]\ncard-list = cardlist:TARGET\n")
    return site


def run_with(site: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run(
        [sys.executable, "-m", "generator", *args], cwd=cwd, capture_output=True, text=True, timeout=300, env=env
    )


@pytest.mark.slow  # a fresh process: another sys.path
def test_an_installed_export_target_is_offered_and_runs(tmp_path):
    project = copy_project(tmp_path / "project")
    site = installed_site(tmp_path)
    helped = run_with(site, "export", "--help", cwd=project)
    assert "card-list" in helped.stdout
    result = run_with(site, "export", "pocket-foundry", "--to", "card-list", "--out", "out", cwd=project)
    assert result.returncode == 0, result.stderr
    lines = (project / "out" / "pocket-foundry" / "card-list" / "pocket-foundry-cards.txt").read_text().splitlines()
    decks = [line.split("\t")[0] for line in lines]
    assert decks.count("market") == 16 and decks[:16] == ["market"] * 16  # two copies of eight machines
    assert set(decks[16:]) == {"starter"}


@pytest.mark.slow  # a fresh process: another sys.path
def test_an_export_target_that_fails_to_load_is_a_clear_error(tmp_path):
    project = copy_project(tmp_path / "project")
    site = installed_site(tmp_path, "raise ImportError('needs numpy 9')\n")
    result = run_with(site, "export", "pocket-foundry", "--to", "card-list", "--out", "out", cwd=project)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert (
        "error[X004] export target 'card-list' is not available\n"
        "  = hint: its package (cardlist:TARGET) could not be loaded: ImportError: needs numpy 9"
    ) in result.stderr
    assert not (project / "out").exists()


def test_the_shipped_targets_register_through_the_same_group():
    from importlib.metadata import entry_points

    from generator.export.target import exports

    points = {p.name for p in entry_points(group="cardpress.exports")}
    assert {
        "pnp",
        "cards",
        "thegamecrafter",
        "makeplayingcards",
        "drivethrucards",
        "tts",
        "ttpg",
        "screentop",
        "bundle",
    } <= points
    order = [t.name for t in exports()]
    assert order[0] == "pnp" and order[-1] == "bundle"
    assert {t.name for t in exports() if t.bundled} == {
        *("thegamecrafter", "makeplayingcards", "drivethrucards"),
        *("tts", "ttpg", "screentop"),
    }
