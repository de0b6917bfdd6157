"""CSV cells as written: line breaks kept, an unclosed quote found at its opening quote, < > & printed as themselves."""

from __future__ import annotations

import pytest
from deck_helpers import GAME_YAML, deck_project, headlines
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.diagnostics import Report
from generator.games.deck.richtext import to_markup
from generator.layout.markup import plain
from generator.pipeline import Pipeline
from generator.source import tablesrc

PLAIN = GAME_YAML.replace("    markup: [text]\n", "")


def set_lines(project, face: str, element: str) -> list[str]:
    """Return the set lines of one text element of one face, as the reader sees them."""
    pipeline = Pipeline(project, "tiny", missing_art="placeholder")
    faces = pipeline.layout()
    assert faces is not None, headlines(pipeline.report)
    prepared = faces[face]
    el = next(e for e in prepared.doc.elements if e.props.get("id") == element)
    return ["".join(p.text for p in line.pieces) for line in prepared.texts[id(el)].lines]


def test_a_line_break_inside_a_quoted_cell_is_kept_in_rich_and_plain_text(tmp_path):
    csv = 'name,copies,cost,text,flavour\nOtter,1,1,"Line one of the otter.\nLine two","Sleek\r\nand wet"\n'
    project = deck_project(tmp_path, csv, PLAIN)
    assert set_lines(project, "otter/front", "text") == ["Line one of the otter.", "Line two"]
    assert set_lines(project, "otter/front", "flavour") == ["Sleek", "and wet"]


def test_a_line_break_in_a_one_line_box_is_an_overflow_not_glued_words(tmp_path):
    front = (
        "{% import \"macros.j2\" as m %}\nelements:\n- {{ m.text(6, 8, 50, 6, rich.text, size=9, lines=1, id='t') }}\n"
    )
    csv = 'name,text\nOtter,"one\ntwo"\n'
    project = deck_project(tmp_path, csv, PLAIN, files={"layouts/front.yaml.j2": front})
    pipeline = Pipeline(project, "tiny", missing_art="placeholder")
    pipeline.layout()
    assert [d.message for d in pipeline.report.items if d.code == "L100"] == [
        "otter/front: t: text overflows: needs 2 lines; at most 1 allowed"
    ]


def test_an_unclosed_quote_is_located_at_its_opening_quote_not_at_a_later_valid_cell():
    rows = ["name,copies,text", 'Fox,1,"fine, quoted"', 'Owl,1,"never closed', 'Bee,1,"Gain 2, then draw"', "Ant,1,x"]
    report = Report()
    tablesrc.load_text("\n".join(rows) + "\n", "t.csv", report)
    assert [(d.headline(), d.hint) for d in report.items] == [
        (
            "t.csv:3:7: error[C001] CSV syntax error: ',' expected after '\"'",
            'this quoted cell is never closed: add the closing "',
        )
    ]
    report = Report()
    tablesrc.load_text('name,text\nFox,"a ""quoted"" word\nOwl,b\n', "t.csv", report)  # open at the end
    assert [d.headline() for d in report.items] == ["t.csv:2:5: error[C001] CSV syntax error: unexpected end of data"]


def test_less_than_greater_than_and_ampersand_print_as_written_in_a_column_not_declared_as_markup(tmp_path):
    csv = "name,copies,cost,text\nFox,1,1,Cost < 3 & more > 1 <b>x</b>\n"
    project = deck_project(tmp_path, csv, PLAIN)
    assert set_lines(project, "fox/front", "text") == ["Cost < 3 & more > 1 <b>x</b>"]


def test_a_column_declared_as_markup_sets_its_tags_and_refuses_a_lone_less_than(tmp_path):
    project = deck_project(tmp_path, "name,copies,cost,text\nFox,1,1,<b>Bold</b> &lt; 3\n")
    assert set_lines(project, "fox/front", "text") == ["Bold < 3"]
    pipeline = Pipeline(project, "tiny", missing_art="placeholder")
    kit = pipeline.kit()
    assert kit is not None and kit.cards[0].front.context["rich"]["text"] == "<b>Bold</b> &lt; 3"
    project = deck_project(tmp_path / "b", "name,copies,cost,text\nFox,1,1,Cost < 3\n")
    pipeline = Pipeline(project, "tiny", missing_art="placeholder")
    pipeline.load()
    assert headlines(pipeline.report) == [
        "cards/tiny/cards.csv:2:9: error[S004] text: text markup: a lone '<' (write &lt; for a literal <)"
    ]


def test_markup_must_name_columns_of_the_table(tmp_path):
    project = deck_project(tmp_path, game_yaml=GAME_YAML.replace("markup: [text]", "markup: [text, txet]"))
    pipeline = Pipeline(project, "tiny", missing_art="placeholder")
    pipeline.load()
    assert [(d.headline(), d.hint) for d in pipeline.report.items] == [
        (
            "cards/tiny/game.yaml:11:20: error[S002] decks[0].markup[1]: `markup` names 'txet', which is no column of cards/tiny/cards.csv",
            "did you mean 'text'?",
        )
    ]


CELL = st.text(alphabet=st.sampled_from(list('ab <>&"\n,;.é竜')), max_size=12)  # no ':': :name: is an icon


@settings(max_examples=80, deadline=None)
@given(rows=st.lists(st.lists(CELL, min_size=2, max_size=2), min_size=1, max_size=5))
def test_any_table_a_csv_writer_makes_reads_back_cell_for_cell_and_prints_as_written(rows):
    import csv
    import io

    rows = [[f"n{i}{a}", b] for i, (a, b) in enumerate(rows)]  # a name that is never blank
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\r\n").writerows([["name", "text"], *rows])
    report = Report()
    table = tablesrc.load_text(buffer.getvalue(), "t.csv", report)
    assert report.ok(), [d.headline() for d in report.items]
    kept = [r for r in rows if (r[0] + r[1]).strip()]
    assert table.data == [{"name": a, "text": b} for a, b in kept]
    for cell in (b for _, b in kept):  # a cell of a column not declared as markup prints as written
        assert plain(to_markup(cell, literal=True)) == cell.strip("\n").replace("\n", " ")


@settings(max_examples=60, deadline=None)
@given(rows=st.lists(st.lists(CELL, min_size=2, max_size=2), min_size=2, max_size=5), broken=st.integers(0, 4))
def test_a_quote_never_closed_is_found_where_it_opens_whatever_follows(rows, broken):
    import csv
    import io

    rows = [[f"n{i}", b] for i, (_, b) in enumerate(rows)]
    broken %= len(rows)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n", quoting=csv.QUOTE_ALL)
    writer.writerow(["name", "text"])
    writer.writerows(rows[:broken])
    start = buffer.getvalue()
    line = start.count("\n")
    buffer.write(f'n{broken},"never closed\n')
    writer.writerows(rows[broken + 1 :])
    report = Report()
    tablesrc.load_text(buffer.getvalue(), "t.csv", report)
    assert [(d.code, d.loc.line, d.loc.col) for d in report.items if d.loc] == [
        ("C001", line + 1, len(f"n{broken},") + 1)
    ]


def test_a_control_character_in_a_cell_is_said_at_that_cell_with_its_code_point():
    report = Report()
    tablesrc.load_text("name,text\nOtter,ok\nHeron,bad\x85one\nStork,\ufffe\n", "cards.csv", report)
    assert [d.render().splitlines()[0] for d in report.items] == [
        "cards.csv:3:7: error[C007] text: cell holds U+0085, a control or non-character code that no font prints",
        "cards.csv:4:7: error[C007] text: cell holds U+FFFE, a control or non-character code that no font prints",
    ]


@pytest.mark.parametrize(
    "cell, literal, markup",
    [
        ("Gain 2 ore.", True, "Gain 2 ore."),
        ("Pay :feed: then <b>go</b>", False, "Pay <icon feed> then <b>go</b>"),
        ("a < b & c", True, "a &lt; b &amp; c"),
        ("\r\none\r\ntwo\n", True, "one<br>two"),
        ("\rlast\r", False, "last"),
        ("time: 10:30", True, "time: 10:30"),
        ("::", True, "::"),
        (True, False, "yes"),
        (None, False, ""),
    ],
)
def test_a_cell_becomes_the_markup_it_prints(cell, literal, markup):
    assert to_markup(cell, literal) == markup
