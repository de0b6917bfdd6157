"""Hostile layout templates: every way to spend memory or time is refused, located, and cheap to refuse.

A fan edition's template runs sandboxed on a budget (generator.layout.templates): every loop step is
counted (not only range()), every value a template builds is measured before or as it is made, every
character it writes is counted (macro bodies and captured blocks too), and a render has a deadline.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile import peak_memory

from generator.diagnostics import Report
from generator.layout import sandbox
from generator.layout import templates as tpl
from generator.layout.templates import Templates

UNSAFE = "layouts/face.yaml.j2:1:1: error[T003] template refused an unsafe operation while rendering card-1/front: "
ERROR = "layouts/face.yaml.j2:1:1: error[T003] template error while rendering card-1/front: "
TOO_BIG = "characters or items; the limit is 1000000"


def render(tmp_path: Path, source: str, context: dict | None = None) -> tuple[str | None, Report]:
    folder = tmp_path / "layouts"
    folder.mkdir(exist_ok=True)
    (folder / "face.yaml.j2").write_text(source, encoding="utf-8")
    report = Report()
    return Templates([folder], tmp_path).render("face.yaml.j2", context or {}, "card-1/front", report), report


# Each attack once asked for gigabytes (or hung); now it is refused before it allocates.
MEMORY = {
    "string-repeat": ("{{ 'x' * 10000000 }}", "sequence repetition too large: more than 1000000 characters or items"),
    "list-repeat": (
        "{% set t = ['a' * 99999] * 10 %}{% set u = t * 99999 %}",
        "sequence repetition too large: more than 1000000 characters or items",
    ),
    "nested-repeat": (
        "{% set a = ['a' * 1000] * 1000 %}{% set b = [a] * 10 %}",
        "sequence repetition too large: more than 1000000 characters or items",
    ),
    "doubling-concat": (
        "{% set ns = namespace(s='a' * 90000) %}{% for i in range(20) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
        "value too large: more than 1000000 characters or items",
    ),
    "doubling-plus": (
        "{% set ns = namespace(s='a' * 90000) %}{% for i in range(20) %}{% set ns.s = ns.s + ns.s %}{% endfor %}",
        "concatenation too large: more than 1000000 characters or items",
    ),
    "doubling-literal": (
        "{% set ns = namespace(l=[1]) %}{% for i in range(100) %}{% set ns.l = [ns.l, ns.l] %}{% endfor %}",
        "value too large: more than 1000000 characters or items",
    ),
    "replace": (
        "{% set s = ('a' * 50000).replace('a', 'a' * 50000) %}",
        f"replace result too large: 2500000000 {TOO_BIG}",
    ),
    "replace-filter": (
        "{% set s = ('a' * 50000)|replace('a', 'a' * 50000) %}",
        f"replace result too large: 2500000000 {TOO_BIG}",
    ),
    "ljust": ("{% set x = 'a'.ljust(3000000000) %}", f"ljust result too large: 3000000001 {TOO_BIG}"),
    "rjust": ("{% set x = 'a'.rjust(3000000000) %}", f"rjust result too large: 3000000001 {TOO_BIG}"),
    "center": ("{% set x = 'a'.center(3000000000) %}", f"center result too large: 3000000001 {TOO_BIG}"),
    "zfill": ("{% set x = 'a'.zfill(3000000000) %}", f"zfill result too large: 3000000001 {TOO_BIG}"),
    "center-filter": ("{% set x = 'a'|center(3000000000) %}", f"center result too large: 3000000001 {TOO_BIG}"),
    "expandtabs": (
        "{% set x = ('\\t' * 100000).expandtabs(100000) %}",
        f"expandtabs result too large: 10000100000 {TOO_BIG}",
    ),
    "format-pad": ("{% set x = '{:>3000000000}'.format('a') %}", f"format result too large: 3000000000 {TOO_BIG}"),
    "format-map-pad": (
        "{% set x = '{a:>3000000000}'.format_map({'a': 1}) %}",
        f"format result too large: 3000000000 {TOO_BIG}",
    ),
    "format-precision": ("{% set x = '{:.900000000f}'.format(1.5) %}", f"format result too large: 900000000 {TOO_BIG}"),
    "format-many-fields": (
        "{% set x = ('{0:>900000}' * 20).format('a') %}",
        f"format result too large: 1800000 {TOO_BIG}",
    ),
    "percent-pad": ("{% set x = '%3000000000s' % 'a' %}", f"%-formatting result too large: 3000000012 {TOO_BIG}"),
    "percent-star": (
        "{% set x = '%*s' % (3000000000, 'a') %}",
        "computed widths ('*') are not allowed in layout templates",
    ),
    "format-filter": ("{% set x = '%3000000000s'|format('a') %}", f"format result too large: 3000000012 {TOO_BIG}"),
    "to-bytes": ("{% set x = (1).to_bytes(3000000000, 'big') %}", f"to_bytes result too large: 3000000000 {TOO_BIG}"),
    "lipsum": (
        "{% set x = lipsum(100000, false, 1000, 1001) %}",
        "lipsum too large: at most 100 paragraphs of 1000 words",
    ),
    "join-method": (
        "{% set x = ('a' * 100000).join(['b'] * 100) %}",
        f"join result too large: 10000100 {TOO_BIG}",
    ),
    "join-filter": (
        "{% set x = (['b'] * 100)|join('a' * 100000) %}",
        f"join result too large: 10000100 {TOO_BIG}",
    ),
    "indent": ("{% set x = ('a\\n' * 50000)|indent(50000) %}", f"indent result too large: 2500150000 {TOO_BIG}"),
    "wordwrap": (
        "{% set x = ('a ' * 400000)|wordwrap(1, wrapstring='y' * 100000) %}",
        f"wordwrap result too large: 120000900000 {TOO_BIG}",
    ),
    "batch": ("{% set x = [1]|batch(1000000000, 'x')|list %}", f"batch size too large: 1000000000 {TOO_BIG}"),
    "slice": ("{% set x = [1]|slice(1000000000)|list %}", f"slice count too large: 1000000000 {TOO_BIG}"),
    "tojson-indent": (
        "{% set x = [[[1] * 100] * 100]|tojson(indent=1000000) %}",
        f"tojson result too large: 60303020101 {TOO_BIG}",
    ),
    "sum-of-lists": (
        "{% set x = ([[1] * 100] * 100)|sum(start=[]) %}",
        "sum adds numbers only in layout templates",
    ),
    "power": ("{{ (10 ** 64) ** 64 }}", "exponent too large"),
    "big-product": ("{% set n = 10 ** 200 %}{% set m = n * n * n * n %}", "whole number too large"),
    "range": ("{% set r = range(10 ** 9) %}", "template iterated more than 200000 times (range of 1000000000)"),
    "many-variables": (
        "".join(f"{{% set v{i} = 'x' * 900000 %}}" for i in range(30)),
        "template made more than 20000000 characters or items in all",
    ),
    "macro-output": (
        "{% set big = 'x' * 900000 %}{% macro f() %}{% for i in range(50) %}{{ big }}{% endfor %}{% endmacro %}"
        "{% set y = f() %}",
        "template wrote more than 16000000 characters (macro and block output included)",
    ),
    "constant-capture": (
        "{% macro f() %}{% for i in range(1000) %}" + "c" * 5000 + "{% endfor %}{% endmacro %}{% set y = f() %}",
        "captured output too large: more than 1000000 characters",
    ),
    "set-block": (
        "{% set big = 'x' * 900000 %}{% set y %}{% for i in range(20) %}{{ big }}{% endfor %}{% endset %}",
        "template wrote more than 16000000 characters (macro and block output included)",
    ),
    "filter-block": (
        "{% set big = 'x' * 900000 %}{% filter upper %}{% for i in range(20) %}{{ big }}{% endfor %}{% endfilter %}",
        "template wrote more than 16000000 characters (macro and block output included)",
    ),
    "output": (
        "{% set big = 'x' * 900000 %}{% for i in range(20) %}{{ big }}{% endfor %}",
        "template output passed 4000000 characters",
    ),
    "cyclic-namespace": (
        "{% set ns = namespace() %}{% set ns.me = ns %}{{ ns }}",
        "output value too large: more than 1000000 characters or items",
    ),
}


@pytest.mark.parametrize("case", sorted(MEMORY))
def test_memory_bombs_are_refused_before_they_allocate(tmp_path, case):
    source, message = MEMORY[case]
    with peak_memory() as peak:
        text, report = render(tmp_path, source)
    assert text is None
    assert [d.headline() for d in report.items] == [UNSAFE + message]
    assert peak[0] < 48 * 2**20, f"{case} peaked at {peak[0] / 2**20:.0f} MiB"


# Every loop counts, not only range(): nested loops over strings, lists, dicts, macros.
LOOPS = {
    "strings": "{% for a in 'x' * 10000 %}{% for b in 'y' * 10000 %}{% endfor %}{% endfor %}",
    "lists": "{% for a in [1] * 1000 %}{% for b in [2] * 1000 %}{% endfor %}{% endfor %}",
    "macro-ranges": (
        "{% macro f() %}{% for i in range(100000) %}{% for j in range(100) %}{% endfor %}{% endfor %}{% endmacro %}"
        "{{ f() }}"
    ),
    "dict-items": (
        "{% set d = dict(a=1, b=2, c=3) %}{% for i in range(100000) %}{% for k, v in d.items() %}{% endfor %}{% endfor %}"
    ),
    "loop-length": "{% for a in 'x' * 300000 %}{{ loop.length }}{% endfor %}",
}


@pytest.mark.parametrize("case", sorted(LOOPS))
def test_every_loop_is_counted(tmp_path, case):
    text, report = render(tmp_path, LOOPS[case])
    assert text is None
    assert [d.headline() for d in report.items] == [UNSAFE + "template iterated more than 200000 times"]


def test_imported_macros_run_on_the_same_budget(tmp_path):
    folder = tmp_path / "layouts"
    folder.mkdir()
    (folder / "lib.j2").write_text("{% macro spin(n) %}{% for i in range(150000) %}{% endfor %}{% endmacro %}")
    # Different arguments: the same call twice runs once (a shared macro's result is reused; see test_sandbox_memo).
    text, report = render(tmp_path, '{% import "lib.j2" as lib %}{{ lib.spin(1) }}{{ lib.spin(2) }}')
    assert text is None
    (problem,) = report.items
    assert problem.message.endswith("template iterated more than 200000 times")
    assert problem.loc.file == "layouts/lib.j2"


def test_a_slow_template_meets_the_deadline(tmp_path, monkeypatch):
    monkeypatch.setattr(sandbox, "MAX_SECONDS", 0.2)
    source = "{% set xs = range(5000)|list %}{% for i in range(100000) %}{% set y = xs|sort %}{% endfor %}"
    text, report = render(tmp_path, source)
    assert text is None
    assert [d.headline() for d in report.items] == [UNSAFE + "template used more than 0.2 s of CPU time"]


def test_all_faces_of_one_build_share_a_time_budget(tmp_path, monkeypatch):
    monkeypatch.setattr(tpl, "MAX_TOTAL_SECONDS", 0.0)
    text, report = render(tmp_path, "elements: []\n")
    assert text is None
    assert report.items[0].message.endswith("layout templates used more than 0 s of CPU time in all")


@pytest.mark.parametrize(
    "source, headline",
    [
        ("{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}", ERROR + "maximum recursion depth exceeded"),
        ("{% include 'face.yaml.j2' %}", None),
        ("{% set x = " + "(" * 300 + "1" + ")" * 300 + " %}", None),
        (
            "".join(f"{{% for a{i} in [1] %}}" for i in range(25)) + "{% endfor %}" * 25,
            "layouts/face.yaml.j2:1:1: error[T003] template nested too deeply to compile while rendering card-1/front",
        ),
    ],
    ids=["recursive-macro", "includes-itself", "300-parentheses", "25-nested-loops"],
)
def test_runaway_recursion_and_nesting_are_located_errors(tmp_path, source, headline):
    text, report = render(tmp_path, source)
    assert text is None
    (problem,) = report.items
    assert problem.code == "T003" and problem.loc.file == "layouts/face.yaml.j2"
    if headline:
        assert problem.headline() == headline


def test_ordinary_template_features_still_work(tmp_path):
    """The budgets change nothing for a template that stays within them."""
    source = (
        "{% macro box(n) %}[{{ n }}{{ caller() if caller else '' }}]{% endmacro %}"
        "{% set ns = namespace(total=0) %}"
        "{% for k, v in {'b': 2, 'a': 1}|dictsort %}{% set ns.total = ns.total + v %}"
        "{{ k }}{{ ',' if not loop.last }}{% endfor %}|{{ ns.total }}|"
        "{% for x in [[1, [2]], [3]] recursive %}{{ x if x is number else loop(x) }}{% endfor %}|"
        "{% call box(7) %}!{% endcall %}|{% set cap %}{{ 'ab' * 3 }}{% endset %}{{ cap|upper }}|"
        "{{ '%5.1f' % 2.25 }}|{{ '{:>4}'.format('x') }}|{{ 'x'.ljust(3) }}.|{{ [1, 2, 3]|join('-') }}|"
        "{{ range(3)|list }}|{{ {'a': [1]}|tojson }}|{{ 2 ** 10 }}|{{ 'a' ~ 1 ~ [2] }}|{{ (1, 2) + (3,) }}"
    )
    text, report = render(tmp_path, source)
    assert report.ok(), report.render()
    assert text == 'a,b|3|123|[7!]|ABABAB|  2.2|   x|x  .|1-2-3|[0, 1, 2]|{"a": [1]}|1024|a1[2]|(1, 2, 3)'


def test_compiled_templates_are_cached_under_the_sandbox_version(tmp_path, monkeypatch):
    """Code compiled before the budgets existed must never be loaded from the cache."""
    monkeypatch.setenv("CARDPRESS_CACHE", str(tmp_path / "cache"))
    render(tmp_path, "elements: []\n")
    names = [p.name for p in (tmp_path / "cache" / "templates").iterdir()]
    assert names and all(n.startswith(f"cardpress-sandbox{sandbox.SANDBOX_VERSION}-") for n in names)


def test_weight_counts_shared_lists_each_time_and_stops_early():
    shared = ["x" * 10] * 10
    assert sandbox.weight([shared, shared]) == 2 + 2 * (10 + 100)
    bomb: list = [1]
    for _ in range(200):
        bomb = [bomb, bomb]
    assert sandbox.weight(bomb, limit=1000) <= 1100
