"""`cardpress new` scaffolds a generic game that builds at once, never overwrites, and is the same every time."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from conftest import copy_project, run_cli


def empty_project(folder: Path) -> Path:
    """Return a project with layouts and fonts and no game yet."""
    project = copy_project(folder, games=())
    (project / "cards").mkdir()
    return project


def digests(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_new_then_build_at_once_with_no_warnings(tmp_path):
    project = empty_project(tmp_path / "project")
    result = run_cli("new", "star-port", cwd=project)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    game = project / "cards" / "star-port"
    assert sorted(digests(game)) == [
        "art/bridge.png",
        "art/lantern.png",
        "art/market.png",
        "art/spark.png",
        "art/tower.png",
        "cards.csv",
        "game.yaml",
        "layouts/card-back.yaml.j2",
        "layouts/card-front.yaml.j2",
        "layouts/icons.yaml",
    ]
    assert "title: Star Port\nruleset: deck\n" in (game / "game.yaml").read_text()
    assert result.stdout.splitlines()[-1] == (
        "next: edit cards/star-port/cards.csv and its layouts/, then `cardpress build star-port`"
    )
    out = tmp_path / "out"
    built = run_cli("build", "star-port", "--out", str(out), cwd=project)
    assert built.returncode == 0 and built.stderr == "", built.stderr
    assert (out / "star-port" / "star-port-a4.pdf").is_file() and (out / "star-port" / "star-port-letter.pdf").is_file()

    # the same command elsewhere writes the same bytes, art included
    again = empty_project(tmp_path / "again")
    assert run_cli("new", "star-port", cwd=again).returncode == 0
    assert digests(again / "cards" / "star-port") == digests(game)


def test_new_outside_any_project_starts_one_here_that_uses_cardpress_fonts_and_layouts(tmp_path):
    from conftest import ROOT

    here = tmp_path / "mine"
    here.mkdir()
    result = run_cli("new", "star-port", cwd=here)
    assert result.returncode == 0, result.stderr
    assert not (ROOT / "cards" / "star-port").exists()  # never into the checkout cardpress runs from
    assert sorted(p.name for p in here.iterdir()) == ["cards"]  # the shared fonts and templates stay cardpress's
    built = run_cli("build", "star-port", cwd=here)
    assert (built.returncode, built.stderr) == (0, ""), built.stderr
    assert (here / "output" / "star-port" / "star-port-a4.pdf").is_file()
    second = run_cli("new", "moon-base", cwd=here)  # now a project of two games, still nothing but cards/
    assert second.returncode == 0 and sorted(p.name for p in (here / "cards").iterdir()) == ["moon-base", "star-port"]


def test_new_refuses_an_existing_folder_and_a_bad_name(tmp_path):
    project = copy_project(tmp_path / "project", games=("pocket-foundry",))
    before = digests(project / "cards")
    result = run_cli("new", "pocket-foundry", cwd=project)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(
        "cards/pocket-foundry/game.yaml:1:1: error[N001] cards/pocket-foundry already exists; "
        "`cardpress new` never overwrites a folder\n"
    )
    result = run_cli("new", "Star Port!", cwd=project)
    assert result.returncode == 1
    assert "error[N002] 'Star Port!' cannot name a game folder" in result.stderr
    assert "hint: try 'star-port': a game folder is named in lower-case letters, digits and -" in result.stderr
    assert digests(project / "cards") == before


def test_new_from_a_csv_prints_its_columns(tmp_path):
    project = empty_project(tmp_path / "project")
    table = tmp_path / "mine.csv"
    table.write_text("name,copies,power,rules_text\nComet,2,3,Draw a card.\nNova,1,5,<b>Burn</b> one :coin:.\n")
    result = run_cli("new", "sky", "--from-csv", str(table), cwd=project)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    game = project / "cards" / "sky"
    assert (game / "cards.csv").read_bytes() == table.read_bytes()
    front = (game / "layouts" / "card-front.yaml.j2").read_text()
    assert '{% set body = "<b>Power:</b> " ~ rich.power ~ "<br>" ~ "<b>Rules text:</b> " ~ rich.rules_text %}' in front
    game_yaml = (game / "game.yaml").read_text()  # its column of tags is declared markup
    assert "    markup: [rules_text]  # columns whose cells are markup; others print < > & as written\n" in game_yaml
    assert sorted(p.name for p in (game / "art").iterdir()) == ["comet.png", "nova.png"]
    built = run_cli("build", "sky", "--paper", "a4", "--out", str(tmp_path / "out"), cwd=project)
    assert built.returncode == 0 and built.stderr == "", built.stderr


@pytest.mark.parametrize(
    ("header", "row", "columns", "said"),
    [
        ("Name,Cost,Text", "Comet,2,Draw a card.", "name,cost,text", "'Name' as name, 'Cost' as cost, 'Text' as text"),
        (
            "name;Cost;flavour text;copies",
            "Comet;2;Bright;3",
            "name;cost;flavour_text;copies",
            "'Cost' as cost, 'flavour text' as flavour_text",
        ),
    ],
)
def test_new_from_a_spreadsheets_header_reads_its_names_as_columns_and_says_so(tmp_path, header, row, columns, said):
    project = empty_project(tmp_path / "project")
    table = tmp_path / "mine.csv"
    table.write_bytes(f"{header}\r\n{row}\r\n".encode())
    result = run_cli("new", "sky", "--from-csv", str(table), cwd=project)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert result.stdout.splitlines()[0] == f"{table}: read the header's {said} (cards/sky/cards.csv names them so)"
    game = project / "cards" / "sky"
    assert (game / "cards.csv").read_bytes() == f"{columns}\r\n{row}\r\n".encode()
    assert table.read_bytes() == f"{header}\r\n{row}\r\n".encode()  # the user's own sheet is left as it was
    built = run_cli("build", "sky", "--paper", "a4", "--out", str(tmp_path / "out"), cwd=project)
    assert built.returncode == 0 and built.stderr == "", built.stderr


def test_new_from_a_bad_csv_is_located_in_that_file_and_writes_nothing(tmp_path):
    project = empty_project(tmp_path / "project")
    table = tmp_path / "mine.csv"
    table.write_text("title,power\nComet,3\n")
    result = run_cli("new", "sky", "--from-csv", str(table), cwd=project)
    assert result.returncode == 1
    assert result.stderr.startswith(f"{table}:1:12: error[S002] no column 'name': every card needs a name\n")
    table.write_text("name,copies\nComet,many\n")
    result = run_cli("new", "sky", "--from-csv", str(table), cwd=project)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(
        f"{table}:2:7: error[S004] copies: must be a whole number from 1 to 500, got 'many'\n"
    )
    assert not (project / "cards" / "sky").exists()


def test_a_bad_size_is_refused_before_anything_is_written(tmp_path):
    project = empty_project(tmp_path / "project")
    result = run_cli("new", "star-port", "--size", "pokr", cwd=project)
    assert result.returncode == 1 and "error[N003] --size: unknown card size 'pokr'" in result.stderr
    assert not (project / "cards" / "star-port").exists()


@pytest.mark.parametrize("size", ["mini-american", "tarot", "square", "bridge", "business-us", "70x120mm landscape"])
def test_new_games_of_every_size_lay_out_cleanly(tmp_path, size):
    from generator.pipeline import Pipeline
    from generator.project.scaffold import new_game

    project = empty_project(tmp_path / "project")
    new_game(project, "sized", size=size)
    pipeline = Pipeline(project, "sized")
    pipeline.lint()
    assert pipeline.report.items == [], pipeline.report.render()
    assert pipeline.render(["a4"]) is not None
