"""A fan edition is a copied game folder: its data drives the printed text, its templates override."""

from __future__ import annotations

import shutil

import pdfplumber
from conftest import run_cli
from pdfinspect import placements, text_in
from pypdf import PdfReader


def test_copied_game_with_changes_builds_its_own_kit(project):
    edition = project / "cards" / "pocket-foundry-deluxe"
    shutil.copytree(project / "cards" / "pocket-foundry", edition)
    game = edition / "game.yaml"
    game.write_text(
        game.read_text()
        .replace("title: Pocket Foundry", "title: Pocket Foundry Deluxe")
        .replace("edition: First edition, October 2026", "edition: Fan edition by Ada, 2026")
    )
    machines = edition / "machines.yaml"
    machines.write_text(
        machines.read_text()
        .replace("build_cost: {parts: 2}", "build_cost: {parts: 3}")
        .replace("name: Packing Line", "name: Crate Line")
    )
    rulebook = edition / "rulebook.txt"  # the edition writes its rule changes into its own rulebook
    rulebook.write_text(
        rulebook.read_text(encoding="utf-8")
        .replace("Packing Line · copy", "Crate Line · copy")
        .replace("BUILD COST: 2 PARTS.", "BUILD COST: 3 PARTS.")
    )
    (edition / "layouts").mkdir()
    (edition / "layouts" / "market-back.yaml.j2").write_text(
        '{% import "macros.j2" as m %}\nbleed: 3\nelements:\n'
        '- {{ m.rect(-3, -3, face.w + 6, face.h + 6, fill="#114477", bleed=true) }}\n'
        '- {{ m.text(6, 40, face.w - 12, 10, "DELUXE", font="display", size=20, colour="#ffffff", '
        'align="center", plain=true) }}\n'
    )

    result = run_cli(
        "build",
        "pocket-foundry-deluxe",
        "--paper",
        "a4",
        "--players",
        "2",
        "--root",
        str(project),
        "--out",
        str(project / "output"),
        cwd=project,
    )
    assert result.returncode == 0, result.stderr
    path = project / "output" / "pocket-foundry-deluxe" / "pocket-foundry-deluxe-a4.pdf"
    with pdfplumber.open(path) as pdf:
        assert "Print-and-play kit · A4 paper · for 2 players" in text_in(pdf, 0)
        assert text_in(pdf, 0).startswith("Pocket Foundry Deluxe")
        cards = [text_in(pdf, 4, (p.x, p.bottom - 88.9, p.x + 63.5, p.bottom)) for p in placements(PdfReader(path), 4)]
        assert cards[3].startswith("Crate Line · copy 1 BUILD COST: 3 PARTS. RUN: Pay 2 PARTS to gain 9 points.")
        assert text_in(pdf, 3).count("DELUXE") == 9  # the edition's own back, on every market card
    assert not (project / "output" / "pocket-foundry").exists()  # the base game was not built
