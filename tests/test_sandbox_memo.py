"""Shared macros run once per set of arguments: a pure macro of an imported template gives the same text for
the same arguments, so its result is reused; anything that could make it differ runs it again."""

from __future__ import annotations

from pathlib import Path

import pytest
from jinja2 import Environment

from generator.diagnostics import Report
from generator.layout import sandbox
from generator.layout.templates import Templates


def _pure(source: str) -> list[str]:
    return sandbox.pure_macros(Environment().parse(source))


def test_a_macro_of_its_arguments_alone_is_pure() -> None:
    source = (
        "{% set grey = '#777' %}"
        "{% macro box(x, w=3) %}{rect: {x: {{ x }}, w: {{ w }}, fill: '{{ grey }}'}}{{ dot(x) }}{% endmacro %}"
        "{% macro dot(x) %}{% for i in range(2) %}{{ (x + i)|round }}{% endfor %}{% endmacro %}"
    )
    assert _pure(source) == ["box", "dot"]


@pytest.mark.parametrize(
    "body",
    [
        "{{ caller() }}",
        "{{ lipsum(1) }}",
        "{{ [1, 2]|random }}",
        "{% set c = cycler(1, 2) %}{{ c.next() }}",
        "{% include 'other.j2' %}",
        "{% import 'other.j2' as o %}",
        "{{ varargs }}",
    ],
    ids=["caller", "lipsum", "random", "cycler", "include", "import", "varargs"],
)
def test_a_macro_that_could_differ_for_the_same_arguments_is_not(body: str) -> None:
    assert _pure("{% macro f(x) %}" + body + "{% endmacro %}") == []


def test_a_template_that_changes_a_namespace_has_no_pure_macros() -> None:
    source = (
        "{% set ns = namespace(n=0) %}"
        "{% macro count() %}{% set ns.n = ns.n + 1 %}{{ ns.n }}{% endmacro %}{% macro same(x) %}{{ x }}{% endmacro %}"
    )
    assert _pure(source) == []


def test_a_name_defined_twice_is_not_pure() -> None:
    assert _pure("{% macro f(x) %}{{ x }}{% endmacro %}{% if 1 %}{% macro f(x) %}2{% endmacro %}{% endif %}") == []


def _render(tmp_path: Path, templates: Templates, source: str) -> str | None:
    (tmp_path / "layouts" / "face.yaml.j2").write_text(source, encoding="utf-8")
    return templates.render("face.yaml.j2", {}, "card-1/front", Report())


def test_a_shared_macro_runs_once_per_arguments_and_writes_the_same_text(tmp_path: Path) -> None:
    folder = tmp_path / "layouts"
    folder.mkdir()
    (folder / "lib.j2").write_text("{% macro n(x, y=1) %}[{{ x }}|{{ y }}]{% endmacro %}")
    templates = Templates([folder], tmp_path)
    source = "{% import 'lib.j2' as lib %}{{ lib.n(1) }}{{ lib.n(1) }}{{ lib.n(1.0) }}{{ lib.n(-0.0) }}{{ lib.n(0.0) }}"
    assert _render(tmp_path, templates, source) == "[1|1][1|1][1.0|1][-0.0|1][0.0|1]"
    assert _render(tmp_path, templates, source + "{{ lib.n(true, y=2) }}") == (
        "[1|1][1|1][1.0|1][-0.0|1][0.0|1][True|2]"
    )
    assert len(templates.env.memo) == 5  # 1, 1.0, -0.0, 0.0 and (True, y=2): each kept once, across renders


def test_a_macro_of_the_rendered_template_itself_or_imported_with_context_is_not_reused(tmp_path: Path) -> None:
    folder = tmp_path / "layouts"
    folder.mkdir()
    (folder / "lib.j2").write_text("{% macro n(x) %}{{ x }}{{ card }}{% endmacro %}")
    templates = Templates([folder], tmp_path)
    own = "{% macro m(x) %}{{ x }}{% endmacro %}{{ m(1) }}{{ m(1) }}"
    assert _render(tmp_path, templates, own) == "11"
    assert templates.render("face.yaml.j2", {}, "card-1/front", Report()) == "11" and templates.env.memo == {}
    with_context = "{% import 'lib.j2' as lib with context %}{{ lib.n(1) }}"
    (folder / "face.yaml.j2").write_text(with_context)
    for card in ("a", "b"):
        assert templates.render("face.yaml.j2", {"card": card}, "card-1/front", Report()) == f"1{card}"
    assert templates.env.memo == {}
