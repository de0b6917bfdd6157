"""Layout templates run sandboxed: hostile or broken templates get located errors, never escape."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.diagnostics import Report
from generator.layout import document
from generator.layout.templates import Templates


def render(tmp_path: Path, source: str, context: dict | None = None) -> tuple[str | None, Report]:
    folder = tmp_path / "layouts"
    folder.mkdir(exist_ok=True)
    (folder / "face.yaml.j2").write_text(source, encoding="utf-8")
    report = Report()
    return Templates([folder], tmp_path).render("face.yaml.j2", context or {}, "card-1/front", report), report


def test_renders_and_quotes_card_text_safely(tmp_path):
    text, report = render(
        tmp_path,
        "elements:\n- text: {x: 1, y: 1, w: 5, h: 5, text: {{ name|q }}}\n",
        {"name": 'Evil: "quote" {brace} # not a comment'},
    )
    assert report.ok()
    doc = document.parse(text, "face.yaml.j2", "card-1/front", (63.5, 88.9), report)
    assert doc.elements[0].props["text"] == 'Evil: "quote" {brace} # not a comment'


@pytest.mark.parametrize(
    "source, message",
    [
        ("{{ ''.__class__.__mro__ }}", "access to attribute '__class__' of 'str' object is unsafe."),
        ("{{ cycler.__init__.__globals__ }}", None),
        (
            "{% for i in range(1000) %}{% for j in range(1000) %}{% endfor %}{% endfor %}",
            "template iterated more than 200000 times",
        ),
        ("{{ 'x' * 10000000 }}", "sequence repetition too large"),
        ("{{ 10 ** 1000 }}", "exponent too large"),
    ],
)
def test_unsafe_templates_are_refused(tmp_path, source, message):
    text, report = render(tmp_path, source)
    assert text is None
    (problem,) = report.errors
    assert problem.code in ("T003",)
    if message:
        assert message in problem.message
    assert problem.loc.file == "layouts/face.yaml.j2" and problem.loc.line == 1


def test_undefined_variable_is_located(tmp_path):
    _, report = render(tmp_path, "elements:\n- text: {{ card.nmae|q }}\n", {"card": {"name": "x"}})
    (problem,) = report.errors
    assert problem.headline() == (
        "layouts/face.yaml.j2:2:17: error[T003] template error while rendering "
        "card-1/front: 'dict object' has no attribute 'nmae'"
    )


def test_syntax_error_is_located(tmp_path):
    _, report = render(tmp_path, "elements:\n{% for x in y %}\n")
    (problem,) = report.errors
    assert problem.code == "T002" and problem.loc.line == 2
    assert "Unexpected end of template" in problem.message


def test_an_unknown_tag_is_located_at_its_name(tmp_path):
    _, report = render(tmp_path, "elements:\n{% for x in y %}{% endfo %}\n")
    (problem,) = report.errors
    assert problem.headline().startswith(
        "layouts/face.yaml.j2:2:20: error[T002] template syntax error: Encountered unknown tag 'endfo'. "
        "Jinja was looking for the following tags: 'endfor' or 'else'."
    )


def test_templates_cannot_include_files_outside_their_folders(tmp_path):
    (tmp_path / "secret.txt").write_text("password")
    _, report = render(tmp_path, "{% include '../secret.txt' %}")
    (problem,) = report.errors
    assert problem.code == "T001"
    assert problem.message == "no layout template '../secret.txt' (needed for card-1/front)"
    assert (problem.loc.file, problem.loc.line, problem.loc.col) == ("layouts/face.yaml.j2", 1, 13)  # at the name


def test_layout_document_errors_point_into_the_rendered_document():
    report = Report()
    doc = document.parse(
        "elements:\n- rect: {x: 1, y: 2, w: 3, h: 4, fill: red}\n- circle: {r: 3}\n",
        "face.yaml.j2",
        "card-1/front",
        (63.5, 88.9),
        report,
    )
    assert doc is None
    assert [d.headline() for d in report.errors] == [
        "face.yaml.j2 [card-1/front]:2:40: error[L004] elements[0].rect.fill: colours are written #rrggbb",
        "face.yaml.j2 [card-1/front]:3:3: error[L003] elements[1].circle: unknown key 'circle'",
    ]


def test_bad_lengths_are_explained():
    report = Report()
    doc = document.parse(
        "elements:\n- rect: {x: 1, y: 2, w: wide, h: 4}\n", "face.yaml.j2", "card-1/front", (63.5, 88.9), report
    )
    assert doc is None
    (problem,) = report.errors
    assert problem.headline() == (
        "face.yaml.j2 [card-1/front]:2:9: error[L004] elements[0].rect: "
        "w: 'wide' is not a length (write e.g. 3, '3mm', '0.25in' or '9pt')"
    )


@given(st.lists(st.sampled_from(["a", "face.yaml.j2", ".", "..", "", "x/..", "..y", "b\\\\c", "macros"]), max_size=5))
def test_template_names_split_as_jinja_splits_them(parts):
    from jinja2 import TemplateNotFound
    from jinja2.loaders import split_template_path

    from generator.layout.templatefiles import template_path

    name = "/".join(parts)
    try:
        expected: list[str] | None = split_template_path(name)
    except TemplateNotFound:
        expected = None
    assert template_path(name) == expected


def test_a_name_that_climbs_out_of_its_folder_is_no_template(tmp_path):
    (tmp_path / "layouts").mkdir()
    (tmp_path / "secret.yaml.j2").write_text("elements: []\n", encoding="utf-8")
    templates = Templates([tmp_path / "layouts"], tmp_path)
    assert templates.source_of("../secret.yaml.j2") is None
    text, report = render(tmp_path, "{% include '../secret.yaml.j2' %}")
    assert text is None and report.items[0].code == "T001"
