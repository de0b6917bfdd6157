"""`cardpress list` (alias `games`): every game and edition with its ruleset, player counts, card sizes and kits."""

from __future__ import annotations

import json

from conftest import ROOT, copy_project, run_cli


def test_list_as_json_describes_every_game(tmp_path):
    (tmp_path / "pocket-foundry").mkdir()
    (tmp_path / "pocket-foundry" / "pocket-foundry-a4.pdf").write_bytes(b"%PDF")
    result = run_cli("games", "--json", "--out", str(tmp_path), cwd=ROOT)
    assert result.returncode == 0, result.stderr
    listed = {g["id"]: g for g in json.loads(result.stdout)}
    assert list(listed) == [
        "hedgerow",
        "micro-engine",
        "micro-engine-even-race",
        "pocket-foundry",
        "pocket-foundry-fr",
        "pocket-foundry-unjammed",
    ]
    assert listed["pocket-foundry-unjammed"]["extends"] == "pocket-foundry"
    assert listed["pocket-foundry"] == {
        "id": "pocket-foundry",
        "folder": "cards/pocket-foundry",
        "title": "Pocket Foundry",
        "ruleset": "pocket-foundry",
        "extends": "",
        "players": [2, 3, 4, 6],
        "default_players": 6,
        "card_sizes": [{"size": "poker, 63.5 × 88.9 mm", "cards": 22}],
        "kits": [str(tmp_path / "pocket-foundry" / "pocket-foundry-a4.pdf")],
        "errors": 0,
    }
    assert listed["hedgerow"]["card_sizes"] == [
        {"size": "poker, 63.5 × 88.9 mm", "cards": 40},
        {"size": "mini-american, 44.45 × 63.5 mm", "cards": 9},
        {"size": "16 × 16 mm", "cards": 5},
    ]
    assert listed["micro-engine"]["players"] == [2, 3, 4] and listed["micro-engine"]["kits"] == []


def test_list_prints_a_table(tmp_path):
    result = run_cli("list", "--out", str(tmp_path), cwd=ROOT)
    assert result.returncode == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert [line.split("│")[1:6] for line in lines if line.startswith("│")] == [
        [
            " hedgerow                    ",
            " Hedgerow                      ",
            " deck           ",
            " 2, 3, 4, 5* ",
            " 40 × poker, 63.5 × 88.9 mm         ",
        ],
        [
            "                             ",
            "                               ",
            "                ",
            "             ",
            " 9 × mini-american, 44.45 × 63.5 mm ",
        ],
        [
            "                             ",
            "                               ",
            "                ",
            "             ",
            " 5 × 16 × 16 mm                     ",
        ],
        [
            " micro-engine                ",
            " Micro-Engine: Pocket Workshop ",
            " micro-engine   ",
            " 2, 3, 4*    ",
            " 117 × poker, 63.5 × 88.9 mm        ",
        ],
        [
            " micro-engine-even-race      ",
            " Micro-Engine: Even Race       ",
            " micro-engine   ",
            " 2, 3, 4*    ",
            " 117 × poker, 63.5 × 88.9 mm        ",
        ],
        [
            " (edition of micro-engine)   ",
            "                               ",
            "                ",
            "             ",
            "                                    ",
        ],
        [
            " pocket-foundry              ",
            " Pocket Foundry                ",
            " pocket-foundry ",
            " 2, 3, 4, 6* ",
            " 22 × poker, 63.5 × 88.9 mm         ",
        ],
        [
            " pocket-foundry-fr           ",
            " Fonderie de poche             ",
            " pocket-foundry ",
            " 2, 3, 4, 6* ",
            " 22 × poker, 63.5 × 88.9 mm         ",
        ],
        [
            " (edition of pocket-foundry) ",
            "                               ",
            "                ",
            "             ",
            "                                    ",
        ],
        [
            " pocket-foundry-unjammed     ",
            " Pocket Foundry: Unjammed      ",
            " pocket-foundry ",
            " 2, 3, 4, 6* ",
            " 22 × poker, 63.5 × 88.9 mm         ",
        ],
        [
            " (edition of pocket-foundry) ",
            "                               ",
            "                ",
            "             ",
            "                                    ",
        ],
    ]
    assert "Kit files" in lines[1] and lines[-1] == "6 games; * marks the default player count"


def test_a_folder_that_does_not_load_is_listed_with_its_problems(tmp_path):
    project = copy_project(tmp_path / "p")
    edition = project / "cards" / "rusty-foundry"
    edition.mkdir()
    (edition / "game.yaml").write_text("extends: pocket-foundry\nruleset: pocket-foundy\ntitle: Rusty Foundry\n")
    result = run_cli("list", "--json", cwd=project)
    assert result.returncode == 0, result.stderr
    (rusty,) = [g for g in json.loads(result.stdout) if g["id"] == "rusty-foundry"]
    assert rusty == {
        "id": "rusty-foundry",
        "folder": "cards/rusty-foundry",
        "title": "Rusty Foundry",
        "ruleset": "pocket-foundy",
        "extends": "pocket-foundry",
        "players": [],
        "default_players": None,
        "card_sizes": [],
        "kits": [],
        "errors": 1,
    }
    table = run_cli("list", cwd=project).stdout
    rows = [line.split("│")[1:7] for line in table.splitlines() if "rusty-foundry" in line or "(edition" in line]
    assert [[cell.strip() for cell in row] for row in rows] == [
        [
            "rusty-foundry",
            "Rusty Foundry",
            "pocket-foundy",
            "?",
            "does not load: 1 error (cardpress validate rusty-foundry)",
            "not built",
        ],
        ["(edition of pocket-foundry)", "", "", "", "", ""],
    ]
