"""Decks from .xlsx and .ods workbooks: the same cards, checks and PDF as the same CSV, cells located as Sheet!B3."""

from __future__ import annotations

import hashlib

import pytest
from conftest import run_cli
from deck_helpers import GAME_YAML, deck_project, headlines
from sheetkit import Formula, ods, xlsx

from generator.pipeline import Pipeline

CSV = 'name,copies,cost,text\nAnt,2,1,Gain 1 :coin:.\nBee,1,2.5,"Buzz <twice> & more.\nSecond line"\nCat,3,0,Nap.\n'
ROWS = [
    ["name", "copies", "cost", "text"],
    ["Ant", Formula("1+1", 2), 1, "Gain 1 :coin:."],
    ["Bee", 1, 2.5, "Buzz <twice> & more.\nSecond line"],
    [None, None, None, None],  # a blank row, as in a sheet
    ["Cat", 3, Formula("C2-1", 0), "Nap."],
]
PLAIN = GAME_YAML.replace("    markup: [text]\n", "")
WRITERS = {"xlsx": xlsx, "ods": ods}


def _game(kind: str, sheet: str | None = None) -> str:
    extra = f"    sheet: {sheet}\n" if sheet else ""
    return PLAIN.replace("cards: cards.csv", f"cards: cards.{kind}").replace(
        "    back: back.yaml.j2\n", "    back: back.yaml.j2\n" + extra
    )


def _pdf(project, tmp_path, name):
    out = tmp_path / name
    built = run_cli("build", "tiny", "--paper", "a4", "--out", str(out), cwd=project)
    assert built.returncode == 0 and built.stderr == "", built.stderr
    return hashlib.sha256(next(out.rglob("*.pdf")).read_bytes()).hexdigest()


@pytest.mark.parametrize("kind", ["xlsx", "ods"])
def test_a_workbook_deck_builds_exactly_as_the_same_csv_deck(tmp_path, kind):
    from_csv = deck_project(tmp_path / "csv", CSV, PLAIN)
    book = WRITERS[kind]({"Notes": [["not the cards"]], "Cards": ROWS})
    from_book = deck_project(tmp_path / kind, None, _game(kind, "Cards"), files={f"cards.{kind}": book})
    csv_kit = Pipeline(from_csv, "tiny", missing_art="placeholder").kit()
    book_kit = Pipeline(from_book, "tiny", missing_art="placeholder").kit()
    assert csv_kit is not None and book_kit is not None
    assert [c.front.context["card"] for c in book_kit.cards] == [c.front.context["card"] for c in csv_kit.cards]
    assert book_kit.cards[0].front.context["card"]["copies"] == 2  # a formula read by the value it saved
    assert _pdf(from_book, tmp_path, f"{kind}-out") == _pdf(from_csv, tmp_path, "csv-out")


@pytest.mark.parametrize("kind", ["xlsx", "ods"])
def test_every_problem_at_once_located_by_sheet_and_cell_with_the_csv_header_rules(tmp_path, kind):
    rows = [
        ["name", "copies", "Cost", "text"],
        ["Ant", "two", 1, "x"],
        ["Ant", 1, 2, "y", "stray"],
    ]
    project = deck_project(tmp_path, None, _game(kind), files={f"cards.{kind}": WRITERS[kind]({"Deck": rows})})
    pipeline = Pipeline(project, "tiny", missing_art="placeholder")
    pipeline.load()
    assert headlines(pipeline.report) == [f"cards/tiny/cards.{kind}:Deck!C1: error[C002] 'Cost' is not a column name"]
    rows[0][2] = "cost"
    project = deck_project(tmp_path / "b", None, _game(kind), files={f"cards.{kind}": WRITERS[kind]({"Deck": rows})})
    pipeline = Pipeline(project, "tiny", missing_art="placeholder")
    pipeline.load()
    assert headlines(pipeline.report) == [
        f"cards/tiny/cards.{kind}:Deck!B2: error[S004] copies: must be a whole number from 1 to 500, got 'two'",
        f"cards/tiny/cards.{kind}:Deck!A3: error[S006] name: id 'ant' (made from the name) is used twice (first at cards/tiny/cards.{kind}:2)",
        f"cards/tiny/cards.{kind}:Deck!E3: error[C002] this cell's column has no name in the header row",
    ]


def test_a_sheet_is_chosen_by_name_and_a_wrong_name_is_said_at_game_yaml(tmp_path):
    book = xlsx({"Critters": ROWS, "Goals": [["name"], ["Dawn"]]})
    project = deck_project(tmp_path, None, _game("xlsx", "Critter"), files={"cards.xlsx": book})
    pipeline = Pipeline(project, "tiny", missing_art="placeholder")
    pipeline.load()
    assert [(d.headline(), d.hint) for d in pipeline.report.items] == [
        (
            "cards/tiny/game.yaml:11:12: error[C005] cards/tiny/cards.xlsx has no sheet 'Critter' (its sheets: Critters, Goals)",
            "did you mean 'Critters'?",
        )
    ]


def test_a_formula_with_no_saved_value_or_an_error_value_is_located(tmp_path):
    rows = [["name", "copies", "cost", "text"], ["Ant", Formula("1+1"), 1, "x"], ["Bee", 1, "#DIV/0!", "y"]]
    project = deck_project(tmp_path, None, _game("xlsx"), files={"cards.xlsx": xlsx({"Cards": rows})})
    pipeline = Pipeline(project, "tiny", missing_art="placeholder")
    pipeline.load()
    assert headlines(pipeline.report) == [
        "cards/tiny/cards.xlsx:Cards!B2: error[C006] the formula =1+1 has no saved value (the file was never calculated)",
        "cards/tiny/cards.xlsx:Cards!C3: error[C006] the cell shows the error #DIV/0!",
    ]


def test_a_workbook_given_as_csv_and_a_text_file_named_xlsx_are_clear_errors(tmp_path):
    project = deck_project(tmp_path, xlsx({"Cards": ROWS}))  # the workbook's bytes, named cards.csv
    result = run_cli("build", "tiny", "--paper", "a4", "--out", str(tmp_path / "out"), cwd=project)
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == (
        "cards/tiny/cards.csv:1:1: error[C004] this is a zip archive (a spreadsheet such as .xlsx or .ods, "
        "by its content), not a CSV table"
    )
    assert "PK" not in result.stderr and "\x00" not in result.stderr
    project = deck_project(tmp_path / "b", None, _game("xlsx"), files={"cards.xlsx": CSV.encode()})
    pipeline = Pipeline(project, "tiny", missing_art="placeholder")
    pipeline.load()
    assert headlines(pipeline.report) == [
        "cards/tiny/cards.xlsx:1:1: error[C005] this is not a spreadsheet (an .xlsx or .ods file is a zip archive); it is text"
    ]


def test_a_zip_bomb_is_refused_before_anything_is_unpacked(tmp_path):
    import io
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("xl/workbook.xml", "<workbook/>")
        z.writestr("xl/worksheets/sheet1.xml", b"\0" * 120_000_000)  # 120 MB of zeros pack to ~120 kB
    project = deck_project(tmp_path, None, _game("xlsx"), files={"cards.xlsx": buf.getvalue()})
    pipeline = Pipeline(project, "tiny", missing_art="placeholder")
    pipeline.load()
    assert [d.code for d in pipeline.report.items] == ["C005"]
    assert (
        "unpacks to 120,000,011 bytes in 2 parts; the limits are 100,000,000 bytes" in pipeline.report.items[0].message
    )


@pytest.mark.parametrize("kind", ["xlsx", "ods"])
def test_new_from_a_workbook_makes_a_game_that_reads_it(tmp_path, kind):
    from conftest import copy_project

    project = copy_project(tmp_path / "project", games=())
    book = tmp_path / f"mine.{kind}"
    book.write_bytes(WRITERS[kind]({"Cards": ROWS}))
    result = run_cli("new", "sky", "--from-csv", str(book), cwd=project)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    game = project / "cards" / "sky"
    assert (game / f"cards.{kind}").read_bytes() == book.read_bytes()
    assert f"    cards: cards.{kind}" in (game / "game.yaml").read_text()
    built = run_cli("build", "sky", "--paper", "a4", "--out", str(tmp_path / "out"), cwd=project)
    assert built.returncode == 0 and built.stderr == "", built.stderr


def test_new_reads_the_sheet_it_is_told_and_refuses_a_sheet_without_a_workbook(tmp_path):
    from conftest import copy_project

    project = copy_project(tmp_path / "project", games=())
    book = tmp_path / "mine.xlsx"
    book.write_bytes(xlsx({"Notes": [["not cards"]], "Cards": ROWS}))
    result = run_cli("new", "sky", "--from-csv", str(book), "--sheet", "Cards", cwd=project)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert (
        result.stdout.splitlines()[-1] == "next: edit cards/sky/cards.xlsx and its layouts/, then `cardpress build sky`"
    )
    game_yaml = (project / "cards" / "sky" / "game.yaml").read_text()
    assert (
        "    cards: cards.xlsx  # one row per card; the columns are the card's fields\n    sheet: Cards\n" in game_yaml
    )
    wrong = run_cli("new", "moon", "--from-csv", str(book), "--sheet", "Card", cwd=project)
    assert wrong.returncode == 1
    assert (
        wrong.stderr.splitlines()[0] == f"{book}:1:1: error[C005] {book} has no sheet 'Card' (its sheets: Notes, Cards)"
    )
    table = tmp_path / "mine.csv"
    table.write_text(CSV)
    bad = run_cli("new", "sun", "--from-csv", str(table), "--sheet", "Cards", cwd=project)
    assert bad.returncode == 1
    assert "error[N004] --sheet names a sheet of an .xlsx or .ods workbook given with --from-csv" in bad.stderr
    assert not (project / "cards" / "moon").exists() and not (project / "cards" / "sun").exists()
