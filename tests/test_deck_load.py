"""The deck ruleset: cards from CSV or YAML reach the templates; every mistake is located, all at once."""

from __future__ import annotations

import pytest
from conftest import run_cli
from deck_helpers import CSV, FRONT, GAME_YAML, deck_project, headlines, load_report

from generator.pipeline import Pipeline


def test_csv_cards_reach_the_templates_with_copies_and_one_shared_back(tmp_path):
    project = deck_project(tmp_path)
    pipeline = Pipeline(project, "tiny", missing_art="placeholder")
    kit = pipeline.kit()
    assert pipeline.report.ok(), pipeline.report.render()
    assert [c.id for c in kit.cards] == ["ant-1", "ant-2", "bee", "cat-1", "cat-2", "cat-3"]
    assert kit.decks == {"main": "main cards"} and not kit.per_card_backs
    assert {c.back.key for c in kit.cards} == {"main-back"}
    ant = kit.cards[0].front
    assert ant is kit.cards[1].front and ant.key == "ant/front"  # copies share one face, drawn once
    assert ant.context["card"] == {
        "name": "Ant",
        "copies": 2,
        "cost": "1",
        "text": "Gain 1 :coin:.",
        "id": "ant",
        "art": {"src": "art/ant.png", "fit": "cover", "focus": None},
    }
    assert ant.context["rich"]["text"] == "Gain 1 <icon coin>."
    assert kit.cards[2].front.context["rich"]["text"] == "<b>Buzz</b> twice."
    assert ant.context["deck"] == {
        "id": "main",
        "name": "main cards",
        "size": {"w": 63.5, "h": 88.9},
        "shape": "rectangle",
    }
    assert ant.context["game"]["style"] == {"ink": "#222222"}
    faces = pipeline.layout()
    assert pipeline.report.ok(), pipeline.report.render()
    assert set(faces) == {"ant/front", "bee/front", "cat/front", "main-back"}


def test_yaml_cards_inline_and_from_a_file(tmp_path):
    inline = GAME_YAML.replace(
        "cards: cards.csv",
        "cards:\n      - {id: ant, name: Ant, cost: 1, text: 'Gain 1 :coin:.', copies: 2}\n"
        "      - {name: Bee, cost: 2, text: Buzz., flavour: 'Busy.', art: {file: art/b.png, fit: contain}}",
    )
    kit = Pipeline(deck_project(tmp_path / "a", csv=None, game_yaml=inline), "tiny").kit()
    assert [c.id for c in kit.cards] == ["ant-1", "ant-2", "bee"]
    assert kit.cards[2].front.context["card"]["cost"] == 2  # YAML keeps its types
    assert kit.cards[2].front.context["card"]["art"] == {"src": "art/b.png", "fit": "contain", "focus": None}
    files = {"more.yaml": "- {name: Cat, cost: 0, text: Nap.}\n- {name: Dog, cost: 3, text: Woof.}\n"}
    game = GAME_YAML.replace("cards.csv", "more.yaml")
    kit = Pipeline(deck_project(tmp_path / "b", csv=None, game_yaml=game, files=files), "tiny").kit()
    assert [c.name for c in kit.cards] == ["Cat", "Dog"]


PER_CARD = """\
title: Tiny Deck
ruleset: deck
players: {supported: [2], default: 2}
decks:
  - id: main
    name: main cards
    cards: cards.csv
    template: front.yaml.j2
    back: back.yaml.j2
  - id: roles
    name: role cards
    cards: roles.csv
    template: front.yaml.j2
    backs: per-card
    back: {template: role-back.yaml.j2, show: [team]}
"""
ROLE_BACK = """\
{% import "macros.j2" as m %}
bleed: 3
elements:
- {{ m.rect(-3, -3, face.w + 6, face.h + 6, fill="#553322", bleed=true) }}
- {{ m.text(6, 40, face.w - 12, 10, card.team|upper, font="display", size=16, plain=true, id="team") }}
"""
ROLES = "name,team,cost,text,back\nSpy,red,0,Hide.,\nGuard,red,0,Watch.,\nSeer,blue,0,Look.,\nKing,blue,0,Rule.,gold-back.yaml.j2\n"


def test_per_card_backs_differ_without_b002_and_identical_backs_are_drawn_once(tmp_path):
    files = {
        "roles.csv": ROLES,
        "layouts/role-back.yaml.j2": ROLE_BACK,
        "layouts/gold-back.yaml.j2": ROLE_BACK.replace("#553322", "#c8a03c"),
    }
    project = deck_project(tmp_path, game_yaml=PER_CARD, files=files)
    pipeline = Pipeline(project, "tiny", missing_art="placeholder")
    kit = pipeline.kit()
    assert pipeline.report.ok(), pipeline.report.render()
    assert kit.per_card_backs == {"roles"}
    roles = [c for c in kit.cards if c.deck == "roles"]
    assert [c.back.key for c in roles] == ["roles-back", "roles-back", "seer/back", "king/back"]
    assert roles[0].back.context["card"] == {"team": "red"} and roles[0].back.template == "role-back.yaml.j2"
    assert roles[3].back.template == "gold-back.yaml.j2"
    assert pipeline.render(["a4"]) is not None and pipeline.report.ok(), pipeline.report.render()


def errors(tmp_path, csv=CSV, game_yaml=GAME_YAML, files=None) -> list[str]:
    loaded, report = load_report(deck_project(tmp_path, csv, game_yaml, files))
    assert loaded is None and not report.ok()
    return headlines(report)


def test_every_cell_mistake_is_located_all_at_once(tmp_path):
    csv = (
        "id,name,copies,cost,text,template\n"
        "ant,Ant,two,1,Gain 1 :con:.,\n"  # copies not a number; unknown icon
        ",,1,1,x,\n"  # empty name
        "ant,Ant Two,0,1,<b>x,\n"  # duplicate id; copies 0; unclosed markup
        "Big Cat,Cat,501,1,ok,frnt.yaml.j2\n"  # bad id; copies too many; unknown template
        "bee,Bee,1,2\n"  # ragged
    )
    assert errors(tmp_path, csv) == [
        "cards/tiny/cards.csv:2:9: error[S004] copies: must be a whole number from 1 to 500, got 'two'",
        "cards/tiny/cards.csv:2:15: error[S005] text: unknown icon 'con' in text",
        "cards/tiny/cards.csv:3:2: error[S002] name: empty cell in required column 'name'",
        "cards/tiny/cards.csv:4:1: error[S006] id: id 'ant' is used twice (first at cards/tiny/cards.csv:2)",
        "cards/tiny/cards.csv:4:13: error[S004] copies: must be a whole number from 1 to 500, got '0'",
        "cards/tiny/cards.csv:4:17: error[S004] text: text markup: <b> is never closed",
        "cards/tiny/cards.csv:5:1: error[S004] id: 'Big Cat' is not an id",
        "cards/tiny/cards.csv:5:13: error[S004] copies: must be a whole number from 1 to 500, got '501'",
        "cards/tiny/cards.csv:5:22: error[S005] template: unknown template 'frnt.yaml.j2'",
        "cards/tiny/cards.csv:6:12: error[C003] row has 4 cells; the header names 6 columns (no cell for text, template)",
    ]


def test_a_column_a_template_needs_is_located_at_the_header(tmp_path):
    assert errors(tmp_path, "name,copies,txt\nAnt,1,x\n") == [
        "cards/tiny/cards.csv:1:13: warning[S003] txt: column 'txt' is read by no template, and cardpress does not use it",
        "cards/tiny/cards.csv:1:16: error[S002] no column 'cost' (the template front.yaml.j2 reads card.cost)",
        "cards/tiny/cards.csv:1:16: error[S002] no column 'text' (the template front.yaml.j2 reads rich.text)",
    ]
    # card.flavour|default("") is optional: no column needed; a deck's `required` fields are
    game = GAME_YAML.replace("    back: back.yaml.j2", "    back: back.yaml.j2\n    required: [cost, rarity]")
    assert errors(tmp_path / "b", "name,cost,text\nAnt,,x\n", game) == [
        "cards/tiny/cards.csv:1:15: error[S002] no column 'rarity' (deck 'main' requires it)",
        "cards/tiny/cards.csv:2:5: error[S002] cost: empty cell in required column 'cost'",
    ]


def test_a_made_id_that_repeats_points_at_the_name(tmp_path):
    result = errors(tmp_path, "name,cost,text\nRed Fox,1,x\nred fox!,1,y\n")
    assert result == [
        "cards/tiny/cards.csv:3:1: error[S006] name: id 'red-fox' (made from the name) is used twice "
        "(first at cards/tiny/cards.csv:2)"
    ]


def test_a_shared_back_deck_refuses_per_card_backs(tmp_path):
    assert errors(tmp_path, "name,cost,text,back\nAnt,1,x,back.yaml.j2\n") == [
        "cards/tiny/cards.csv:2:9: error[S004] back: deck 'main' shares one back, so a card cannot name its own"
    ]
    game = GAME_YAML.replace("back: back.yaml.j2", "back: {template: back.yaml.j2, show: [cost]}")
    assert errors(tmp_path / "b", game_yaml=game) == [
        "cards/tiny/game.yaml:10:42: error[S004] decks[0].back.show: deck 'main' shares one back, so its back "
        "shows no card fields"
    ]


@pytest.mark.parametrize(
    ("size", "expected"),
    [("pokr", "cards/tiny/game.yaml:11:11: error[S004] decks[0].size: unknown card size 'pokr'")],
)
def test_a_bad_size_is_located(tmp_path, size, expected):
    game = GAME_YAML.replace("    back: back.yaml.j2", f"    back: back.yaml.j2\n    size: {size}")
    assert errors(tmp_path, game_yaml=game) == [expected]


def test_yaml_card_mistakes_are_located(tmp_path):
    files = {
        "more.yaml": (
            "- {name: Ant, cost: 1, text: 'hi :con:', template: nope.yaml.j2}\n"
            "- name: Bee\n  cost: [1]\n  text: x\n"
            "- {name: Cat, text: x, copies: 0}\n"
            "- {name: Ant, cost: 1, text: x, Colour: red}\n"
        )
    }
    assert errors(tmp_path, None, GAME_YAML.replace("cards.csv", "more.yaml"), files) == [
        "cards/tiny/more.yaml:1:52: error[S005] [0].template: unknown template 'nope.yaml.j2'",
        "cards/tiny/more.yaml:3:9: error[S001] [1].cost: expected a string or a number or true or false, got a list of 1",
        "cards/tiny/more.yaml:5:3: error[S002] [2]: missing key 'cost' (the template front.yaml.j2 reads card.cost)",
        "cards/tiny/more.yaml:5:32: error[S004] [2].copies: must be a whole number from 1 to 500, got 0",
        "cards/tiny/more.yaml:6:3: error[S004] [3]: field names are lower-case letters, digits and _, starting with a letter",
        "cards/tiny/more.yaml:6:10: error[S006] [3].name: id 'ant' (made from the name) is used twice "
        "(first at cards/tiny/more.yaml:1)",
    ]
    # with its template known, the same card's text is checked as rich text (the template reads rich.text)
    files = {"more.yaml": "- {name: Ant, cost: 1, text: 'hi :con:'}\n"}
    assert errors(tmp_path / "b", None, GAME_YAML.replace("cards.csv", "more.yaml"), files) == [
        "cards/tiny/more.yaml:1:30: error[S005] [0].text: unknown icon 'con' in text"
    ]


def test_file_problems_are_located(tmp_path):
    assert errors(tmp_path, b"name,cost,text\nAnt,1,caf\xe9\n") == [
        "cards/tiny/cards.csv:2:10: error[Y001] file is not UTF-8 text (invalid continuation byte at byte 24)"
    ]
    assert errors(tmp_path / "b", "Ant,1,x\n") == [
        "cards/tiny/cards.csv:1:1: error[C002] the first row must name the columns; this one looks like a card"
    ]
    assert errors(tmp_path / "c", None) == [
        "cards/tiny/game.yaml:8:12: error[Y004] decks[0].cards: file not found: cards/tiny/cards.csv"
    ]
    assert errors(tmp_path / "d", game_yaml=GAME_YAML.replace("cards.csv", "../x.csv")) == [
        "cards/tiny/game.yaml:8:12: error[S010] decks[0].cards: path '../x.csv' leaves the folder cards/tiny/"
    ]
    loaded, report = load_report(deck_project(tmp_path / "e", "\ufeffname,cost,text\nAnt,1,x\n"))
    assert loaded is not None and report.ok()


def test_the_command_line_reports_and_exits_1_without_a_traceback(tmp_path):
    project = deck_project(tmp_path, "name,copies,cost,text\nAnt,lots,1,x\n")
    result = run_cli("build", "tiny", "--out", str(tmp_path / "out"), cwd=project)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(
        "cards/tiny/cards.csv:2:5: error[S004] copies: must be a whole number from 1 to 500, got 'lots'\n"
        "   |\n 2 | Ant,lots,1,x\n   |     ^\n"
    )
    assert not (tmp_path / "out").exists()


def test_deck_level_template_problems(tmp_path):
    assert errors(tmp_path, game_yaml=GAME_YAML.replace("template: front.yaml.j2", "template: frnt.yaml.j2")) == [
        "cards/tiny/game.yaml:9:15: error[S005] decks[0].template: unknown template 'frnt.yaml.j2'"
    ]
    assert errors(tmp_path / "b", game_yaml=GAME_YAML.replace("    template: front.yaml.j2\n", "")) == [
        "cards/tiny/game.yaml:6:9: error[S002] decks[0]: deck 'main' has no template, and card 'Ant' names none"
    ]
    assert errors(tmp_path / "c", "name,cost,text\n") == [
        "cards/tiny/game.yaml:8:12: error[S004] decks[0].cards: deck 'main' has no cards"
    ]


def test_a_misspelt_column_or_key_that_nothing_reads_is_a_warning_with_the_name_it_is_close_to(tmp_path):
    project = deck_project(tmp_path / "a", "name,copeis,cost,text,notes\nAnt,2,1,x,ok\nBee,3,1,y,\n")
    kit = Pipeline(project, "tiny").kit()
    assert [c.id for c in kit.cards] == ["ant", "bee"]  # copies defaults to 1: the warning says why
    _, report = load_report(project)
    assert headlines(report) == [
        "cards/tiny/cards.csv:1:6: warning[S003] copeis: column 'copeis' is read by no template, "
        "and cardpress does not use it"
    ]  # said once, at the header; `notes` is close to nothing read: a column of one's own, left alone
    assert report.items[0].hint == "did you mean 'copies'?"
    inline = GAME_YAML.replace("cards: cards.csv", "cards:\n      - {name: Ant, cost: 1, text: x, copeis: 2}")
    _, report = load_report(deck_project(tmp_path / "b", csv=None, game_yaml=inline))
    assert headlines(report) == [
        "cards/tiny/game.yaml:9:39: warning[S003] decks[0].cards[0].copeis: key 'copeis' is read by no "
        "template, and cardpress does not use it"
    ]


def test_missing_art_of_a_csv_card_is_shown_at_its_row_without_a_key_path(tmp_path):
    front = FRONT + '- {{ m.image(card.art.src, 6, 40, 20, 20, id="art") }}\n'
    project = deck_project(tmp_path, "name,copies,cost,text\nAnt,1,1,x\n", files={"layouts/front.yaml.j2": front})
    pipeline = Pipeline(project, "tiny", missing_art="warn")
    pipeline.layout()
    assert headlines(pipeline.report) == [
        "cards/tiny/cards.csv:2:1: warning[A001] ant/front: art: cards/tiny/art/ant.png does not exist; "
        "drew a placeholder"
    ]


def test_cards_too_big_for_the_paper_point_at_the_decks_size(tmp_path):
    game = GAME_YAML.replace("    back: back.yaml.j2", "    back: back.yaml.j2\n    size: 200x280mm")
    project = deck_project(tmp_path, game_yaml=game)
    result = run_cli("build", "tiny", "--out", str(tmp_path / "out"), cwd=project)
    assert (result.returncode, result.stdout) == (1, "")
    caret = "    |\n 11 |     size: 200x280mm\n    |           ^\n  = hint: choose a smaller card size\n"
    assert result.stderr == (
        "cards/tiny/game.yaml:11:11: error[B005] A4: deck 'main': 200 × 280 mm cards do not fit on A4 paper "
        "(210 × 297 mm) with 9 mm kept free at each edge for the printer margin and crop marks\n" + caret + "\n"
        "cards/tiny/game.yaml:11:11: error[B005] US Letter: deck 'main': 200 × 280 mm cards do not fit on US Letter "
        "paper (215.9 × 279.4 mm) with 9 mm kept free at each edge for the printer margin and crop marks\n"
        + caret
        + "\n"
        "2 errors, 0 warnings in 1 file\n"
    )
    assert not (tmp_path / "out").exists()


def test_cards_that_fit_only_the_other_paper_are_told_to_print_on_it(tmp_path):
    game = GAME_YAML.replace("    back: back.yaml.j2", "    back: back.yaml.j2\n    size: 190x270mm")
    project = deck_project(tmp_path, game_yaml=game)
    result = run_cli("build", "tiny", "--out", str(tmp_path / "out"), cwd=project)
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == (
        "cards/tiny/game.yaml:11:11: error[B005] US Letter: deck 'main': 190 × 270 mm cards do not fit on US Letter "
        "paper (215.9 × 279.4 mm) with 9 mm kept free at each edge for the printer margin and crop marks"
    )
    assert "  = hint: choose a smaller card size, or print on A4 only (--paper a4)\n" in result.stderr
    assert result.stderr.endswith("\n1 error, 0 warnings in 1 file\n") and not (tmp_path / "out").exists()
    a4 = run_cli("build", "tiny", "--paper", "a4", "--out", str(tmp_path / "out"), cwd=project)
    assert a4.returncode == 0, a4.stderr
    assert [p.name for p in (tmp_path / "out" / "tiny").iterdir()] == ["tiny-a4.pdf"]


def test_two_decks_with_one_id_are_reported_at_the_second(tmp_path):
    game_yaml = (
        GAME_YAML
        + "  - id: main\n    name: more cards\n    cards: cards.csv\n    template: front.yaml.j2\n    back: back.yaml.j2\n"
    )
    project = deck_project(tmp_path, game_yaml=game_yaml)
    _, report = load_report(project)
    assert [(d.code, d.loc.line, d.message) for d in report.errors] == [
        ("S006", 12, "deck id 'main' is used twice (first at cards/tiny/game.yaml:6)")
    ]


@pytest.mark.parametrize("column", ["values", "items", "keys", "get", "copy", "pop", "update", "clear", "setdefault"])
def test_a_column_named_like_a_python_method_prints_as_card_field(tmp_path, column):
    front = (
        '{% import "macros.j2" as m %}\nbleed: 3\nelements:\n'
        f"- {{{{ m.text(6, 8, face.w - 12, 10, card.name ~ '/' ~ card.{column}, plain=true, id='name') }}}}\n"
    )
    csv = f"name,copies,text,{column}\nAnt,1,x,seven\n"
    project = deck_project(tmp_path, csv=csv, files={"layouts/front.yaml.j2": front})
    pipeline = Pipeline(project, "tiny", missing_art="placeholder")
    faces = pipeline.layout()
    assert pipeline.report.errors == [] and faces is not None
    (ant,) = [p for k, p in faces.items() if k.startswith("ant/front")]
    assert [e.props["text"] for e in ant.doc.elements if e.props.get("id") == "name"] == ["Ant/seven"]
