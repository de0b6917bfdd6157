"""CSV tables keep every cell's place: line and column of the cell, the caret under it, every problem at once."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.diagnostics import Report, sort_diagnostics
from generator.source import tablesrc


def load(text: str) -> tuple[tablesrc.Table, Report]:
    report = Report()
    return tablesrc.load_text(text, "t.csv", report), report


def test_cells_are_read_with_their_places():
    table, report = load('name,copies,text\nFox,2,"Gain 2, then ""draw"""\n\nOwl,1,"two\nlines"\nBee,1,x\n')
    assert report.ok()
    assert table.columns == ["name", "copies", "text"]
    assert table.data == [
        {"name": "Fox", "copies": "2", "text": 'Gain 2, then "draw"'},
        {"name": "Owl", "copies": "1", "text": "two\nlines"},
        {"name": "Bee", "copies": "1", "text": "x"},
    ]
    assert table.loc((0, "text")) == table.location(1, 6)
    assert (table.loc((2, "copies")).line, table.loc((2, "copies")).col) == (6, 5)
    assert table.loc((2, "copies")).text == "Bee,1,x"
    assert table.row_loc(1).line == 4


def test_byte_order_mark_semicolons_and_tabs():
    table, report = load("\ufeffname;text\nFox;a, b\n")
    assert report.ok() and table.columns == ["name", "text"] and table.data == [{"name": "Fox", "text": "a, b"}]
    table, report = load("name\ttext\nFox\tx\n")
    assert report.ok() and table.data == [{"name": "Fox", "text": "x"}]


def test_trailing_empty_cells_and_blank_rows_are_harmless():
    table, report = load("name,text,,\nFox,x,,\n,,,\n\nOwl,y,,,,\n")
    assert report.ok()
    assert table.data == [{"name": "Fox", "text": "x"}, {"name": "Owl", "text": "y"}]


def test_every_row_problem_is_reported_at_its_cell():
    _, report = load('name,copies,text\nFox,1,x,extra\nOwl,1\n"Bee,1,x\n')
    assert [d.render() for d in sort_diagnostics(report.items)] == [
        "t.csv:2:9: error[C003] row has 4 cells; the header names 3 columns\n"
        "   |\n 2 | Fox,1,x,extra\n   |         ^\n"
        '  = hint: quote a cell that holds the separator, e.g. "Gain 2, then draw"',
        "t.csv:3:6: error[C003] row has 2 cells; the header names 3 columns (no cell for text)\n"
        "   |\n 3 | Owl,1\n   |      ^\n"
        "  = hint: add the missing cells (empty ones are fine: a separator each)",
        "t.csv:4:1: error[C001] CSV syntax error: unexpected end of data\n"
        '   |\n 4 | "Bee,1,x\n   | ^\n'
        '  = hint: this quoted cell is never closed: add the closing "',
    ]


def test_header_problems():
    _, report = load("Fox,3,Gain 2\n")
    assert [d.headline() for d in report.items] == [
        "t.csv:1:1: error[C002] the first row must name the columns; this one looks like a card"
    ]
    _, report = load("name,Card Text,name\nFox,x,y\n")
    assert [(d.headline(), d.hint) for d in report.items] == [
        (
            "t.csv:1:6: error[C002] 'Card Text' is not a column name",
            "write 'card_text': column names are lower-case letters, digits and _, starting with a letter",
        ),
        (
            "t.csv:1:16: error[C002] name: column 'name' is named twice (first at column 1)",
            "rename one of them: each column is one field of the card",
        ),
    ]
    _, report = load("Name,Cost,Text\nFox,3,Gain 2\n")  # a spreadsheet's header: each name said, not "a card"
    assert [(d.headline(), d.hint) for d in report.items] == [
        (
            f"t.csv:1:{col}: error[C002] '{name}' is not a column name",
            f"write '{name.lower()}': column names are lower-case letters, digits and _, starting with a letter",
        )
        for col, name in ((1, "Name"), (6, "Cost"), (11, "Text"))
    ]
    _, report = load("name;Cost;flavour text;copies\nFox;3;Sly;2\n")
    assert [d.headline() for d in report.items] == [
        "t.csv:1:6: error[C002] 'Cost' is not a column name",
        "t.csv:1:11: error[C002] 'flavour text' is not a column name",
    ]
    assert report.items[1].hint is not None and report.items[1].hint.startswith("write 'flavour_text':")
    for card in ("Fox,Sly,3\n", "Fox Den;Sly fox;1.5\n"):  # a number marks a card, whatever its words
        _, report = load(card)
        assert [d.message for d in report.items] == ["the first row must name the columns; this one looks like a card"]
    _, report = load("\n\n")
    assert [d.headline() for d in report.items] == [
        "t.csv:1:1: error[C002] the table is empty: its first row must name the columns"
    ]
    _, report = load("name,\nFox,stray\n")
    assert [d.headline() for d in report.items] == [
        "t.csv:2:5: error[C002] this cell's column has no name in the header row"
    ]


def test_a_header_is_read_as_column_names_only_when_asked():
    report = Report()
    table = tablesrc.load_text("Name;Flavour Text;;Cost (gold)\r\nFox;Sly;;2\r\n", "t.csv", report, normalise=True)
    assert report.ok() and table.columns == ["name", "flavour_text", "", "cost_gold"]
    assert table.renamed == {"Name": "name", "Flavour Text": "flavour_text", "Cost (gold)": "cost_gold"}
    assert tablesrc.with_columns(table) == "name;flavour_text;;cost_gold\r\nFox;Sly;;2\r\n"
    assert table.data == [{"name": "Fox", "flavour_text": "Sly", "cost_gold": "2"}]
    report = Report()
    tablesrc.load_text("Name,name,1st\nFox,x,y\n", "t.csv", report, normalise=True)
    assert [d.headline() for d in report.items] == [
        "t.csv:1:6: error[C002] name: column 'name' is named twice (first at column 1)",
        "t.csv:1:11: error[C002] '1st' is not a column name",
    ]


def test_bounds(tmp_path):
    _, report = load("name,text\nFox," + "x" * (tablesrc.MAX_CELL + 1) + "\n")
    assert [d.headline() for d in report.items] == [
        f"t.csv:2:5: error[Y003] text: cell is {tablesrc.MAX_CELL + 1} characters long; the limit is {tablesrc.MAX_CELL}"
    ]
    _, report = load("name\n" + "".join(f"c{i}\n" for i in range(tablesrc.MAX_ROWS + 1)))
    assert [d.headline() for d in report.items] == [
        f"t.csv:{tablesrc.MAX_ROWS + 2}:1: error[Y003] table has {tablesrc.MAX_ROWS + 1} rows; the limit is {tablesrc.MAX_ROWS}"
    ]
    _, report = load(",".join(f"c{i}" for i in range(tablesrc.MAX_COLUMNS + 1)) + "\n")
    assert report.items[0].code == "Y003" and "limit is 100 columns" in report.items[0].message
    big = tmp_path / "big.csv"
    big.write_bytes(b"name\n" + b"x" * 2_000_001)
    report = Report()
    tablesrc.load_file(big, "big.csv", report)
    assert [d.headline() for d in report.items] == [
        "big.csv:1:1: error[Y003] file is 2000006 bytes; the limit is 2000000"
    ]


def test_not_utf8_is_located_at_the_byte(tmp_path):
    path = tmp_path / "t.csv"
    path.write_bytes(b"name,text\nFox,caf\xe9\n")
    report = Report()
    table = tablesrc.load_file(path, "t.csv", report)
    assert table.data == []
    assert [d.render() for d in report.items] == [
        "t.csv:2:8: error[Y001] file is not UTF-8 text (invalid continuation byte at byte 17)\n"
        "   |\n 2 | Fox,caf\ufffd\n   |        ^\n"
        "  = hint: save the sheet as 'CSV UTF-8' (spreadsheets offer it under Save as / Export)"
    ]
    report = Report()
    tablesrc.load_file(tmp_path / "missing.csv", "missing.csv", report)
    assert [d.headline() for d in report.items] == ["missing.csv:1:1: error[Y004] file not found: missing.csv"]


# Printable cells: a control character or non-character is refused (C007, tests/test_csv_cells.py).
printable = st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00\r")
cells = st.text(alphabet=printable.filter(lambda c: not tablesrc._UNPRINTABLE.match(c)), max_size=12)


@given(st.lists(st.lists(cells, min_size=3, max_size=3), min_size=1, max_size=6))
def test_any_table_written_by_csv_reads_back_with_each_cell_located(rows):
    import csv
    import io

    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([["a", "b", "c"], *rows])
    table, report = load(out.getvalue())
    kept = [r for r in rows if any(v.strip() for v in r)]
    assert report.ok() and table.data == [dict(zip("abc", r)) for r in kept]
    lines = out.getvalue().split("\n")
    for i, row in enumerate(kept):
        for column, value in zip("abc", row):
            loc = table.loc((i, column))
            text = lines[loc.line - 1][loc.col - 1 :]
            if value and not any(ch in value for ch in ',"\n'):
                assert text.startswith(value)  # the caret sits on the cell's first character
            elif value:
                assert text.startswith('"')


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.text(alphabet=st.characters(blacklist_characters='"\r\n'), max_size=12), min_size=1, max_size=6),
    st.sampled_from([",", ";", "\t"]),
    st.sampled_from(["", "\n", "\r\n", "\r"]),
)
def test_a_plain_line_finds_its_cells_where_the_character_scan_does(cells, delimiter, end):
    line = delimiter.join(cells) + end
    assert tablesrc._cell_starts([line], 0, 1, delimiter) == tablesrc._scan_cell_starts([line], 0, 1, delimiter)
