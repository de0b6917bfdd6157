"""Layout programs: a template is rendered once per shape of its faces' data and each face's values are bound
into that document; a bound face is exactly the face a real render and parse would give, or it is rendered
for real."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.diagnostics import Report
from generator.layout import document, programs, slots
from generator.layout.templates import Templates

SIZE = (63.0, 88.0)
FACE = {"w": 63.0, "h": 88.0, "safe": 3.0}
NAME = "face.yaml.j2"

QUOTED = """{% import "macros.j2" as m %}
bleed: 3
elements:
- {{ m.rect(-3, -3, 69, 94, fill=card.colour, bleed=true) }}
- {{ m.text(5, 5, 53, 8, card.name, font="display", size=12, plain=true, lines=1) }}
- {{ m.text(5, 15, 53, 8, card.name|upper, plain=true) }}
- {{ m.text(5, 25, 53, 20, card.rule|escape_markup) }}
- {{ m.text(5, 50, 10, 8, card.cost, plain=true) }}
"""

# Everything a template may do with a value, next to quoting it.
MIXED = (
    QUOTED
    + """{% if card.n > 3 %}- {{ m.text(5, 60, 50, 8, "dear", plain=true) }}
{% endif %}- {{ m.text(5, 70, 50, 8, card.name ~ "!", plain=true) }}
- {text: {x: 5, y: 78, w: 50, h: 5, text: "{{ card.tag }}"}}
{% for word in card.rule.split()[:2] %}- {{ m.text(20, 50, 30, 4, word|lower, plain=true) }}
{% endfor %}{% if card.rule is string and card.rule|length > 30 %}- {{ m.text(20, 55, 30, 4, "long", plain=true) }}
{% endif %}"""
)


def _templates(folder: Path, root: Path, source: str) -> Templates:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(root / "layouts" / "common" / "macros.j2", folder)
    (folder / NAME).write_text(source, encoding="utf-8")
    return Templates([folder], folder.parent)


def _card(
    name: str, cost: Any = "2", n: Any = 2, colour: str = "#2d6a8e", rule: str = "Gain 1 ore.", tag: str = "x"
) -> dict[str, Any]:
    return {"name": name, "cost": cost, "n": n, "colour": colour, "rule": rule, "tag": tag}


def _both(templates: Templates, card: dict[str, Any]) -> tuple[Any, Any, Report]:
    """Return the face bound from its program, the face rendered and parsed for real, and the real report."""
    context = {"card": card, "face": FACE}
    bound = templates.lay_out(NAME, context, "c/front", SIZE)
    report = Report()
    text = templates.render(NAME, context, "c/front", report)
    real = document.parse(text, "layouts/face.yaml.j2", "c/front", SIZE, report) if text is not None else None
    return bound, real, report


def _counting(templates: Templates, monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Count the template renders (True for a probe)."""
    calls: list[bool] = []
    render = templates.render

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(kwargs.get("probe") is not None)
        return render(*args, **kwargs)

    monkeypatch.setattr(templates, "render", counted)
    return calls


def test_faces_that_differ_only_in_quoted_text_share_one_program(tmp_path: Path, root: Path, monkeypatch) -> None:
    templates = _templates(tmp_path / "layouts", root, QUOTED)
    calls = _counting(templates, monkeypatch)
    for i in range(40):
        card = _card(f'Card "{i}" \\ <b>', cost=str(i), rule=f"Gain {i} ore & <i>coal</i>.\nThen draw.")
        context = {"card": card, "face": FACE}
        bound = templates.lay_out(NAME, context, f"c{i}/front", SIZE)
        assert bound is not None and bound.face == f"c{i}/front"
        texts = [el.props.get("text", el.props.get("rich")) for el in bound.elements[1:]]
        assert texts == [
            card["name"],
            card["name"].upper(),
            card["rule"].replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"),
            str(i),
        ]
    family = templates.programs.families[NAME]
    assert (calls, len(family.programs), family.structural) == ([True], 1, {("card", "colour")})


def test_a_value_the_template_tests_keys_the_programs(tmp_path: Path, root: Path) -> None:
    templates = _templates(tmp_path / "layouts", root, MIXED)
    for i in range(12):
        bound, real, report = _both(templates, _card(f"n{i}", n=i % 6, tag="same"))
        assert bound == real and not report.items
    family = templates.programs.families[NAME]
    # the tag is printed unquoted, the rule split and measured; the name is only quoted and joined with "!"
    assert family.structural == {("card", "n"), ("card", "colour"), ("card", "tag"), ("card", "rule")}
    assert len(family.programs) == 6  # one per n (the faces' other values are the same or only quoted)


def test_a_slot_is_its_value_in_every_use_but_quoting(tmp_path: Path) -> None:
    probe = slots.Probe()
    name, cost = probe.slot(("card", "name"), "Ore Mill"), probe.slot(("card", "cost"), 3)
    assert (cost > 2, cost + 1, 10 - cost, str(name), len(name), name.upper(), "Mill" in name, bool(name)) == (
        True,
        4,
        7,
        "Ore Mill",
        8,
        "ORE MILL",
        True,
        True,
    )
    assert probe.structural == {("card", "name"), ("card", "cost")} and probe.quoted == set()
    other = slots.Probe()
    quoted = other.slot(("card", "name"), "Ore Mill")
    assert quoted._cp_marker() == slots.marker(0) and other.quoted == {0} and other.structural == set()
    upper = slots.derive(quoted, "upper")
    assert (upper._cp_value, upper._cp_steps, other.structural) == ("ORE MILL", ("upper",), set())
    made = slots.recipe(slots.derive(upper, "escape_markup"))
    assert slots.evaluate(made, {"card": {"name": "Gear & <Cog>"}}) == "GEAR &amp; &lt;COG&gt;"


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        ("plain", True),
        (12, True),
        (True, False),
        (1.5, False),
        ("x" * 4097, False),
        ("bell\x07", False),
        ("\ue000", False),
    ],
)
def test_only_text_and_whole_numbers_that_round_trip_are_slotted(value: Any, ok: bool) -> None:
    assert slots.slottable(value) is ok


def test_a_slot_where_a_value_is_checked_is_checked_for_each_face(tmp_path: Path, root: Path) -> None:
    source = "elements:\n- {path: {d: {{ card.d|q }}, x: 1, y: 1, w: 10, h: 10, viewbox: [0, 0, 10, 10]}}\n"
    templates = _templates(tmp_path / "layouts", root, source)
    for i in range(3):
        bound, real, report = _both(templates, {"d": f"M0 0 L{i} 5 Z"})
        assert bound is not None and bound == real and not report.items
    bound, real, report = _both(templates, {"d": "M0 0 Q"})
    assert bound is None and real is None and [d.code for d in report.items] == ["L004"]
    assert len(templates.programs.families[NAME].programs) == 1


def test_a_probe_that_fails_is_rendered_for_real_and_probing_stops(tmp_path: Path, root: Path, monkeypatch) -> None:
    # tojson is handed a list holding a slot, which json cannot write: the probe fails, a real render does not
    source = "elements:\n- {text: {x: {{ card.x }}, y: 1, w: 40, h: 10, text: {{ ([card.t]|tojson)|q }}}}\n"
    templates = _templates(tmp_path / "layouts", root, source)
    calls = _counting(templates, monkeypatch)
    for i in range(12):  # x is printed unquoted: a program per x
        bound, real, report = _both(templates, {"t": f"t{i}", "x": 1 + i % 8})
        assert bound is None and real is not None and not report.items
    # a failed probe for each of the first three x, each face then rendered for real; then no more probes
    assert calls == [True, False] * 3 + [False] * 9


def test_a_value_that_does_not_bind_is_rendered_for_real_with_its_error(tmp_path: Path, root: Path) -> None:
    source = "elements:\n- {text: {x: 5, y: 5, w: 50, h: 8, text: {{ card.t|q }}, size: 9}}\n"
    templates = _templates(tmp_path / "layouts", root, source)
    bound, real, report = _both(templates, {"t": "hi"})
    assert bound is not None and bound == real and bound.elements[0].props["text"] == "hi"
    bound, real, report = _both(templates, {"t": 5})  # a whole number where the schema wants text
    assert bound is None and real is None and len(templates.programs.families[NAME].programs) == 2
    assert [(d.code, d.message) for d in report.items] == [("L001", "expected a string, got whole number 5")]


def test_a_face_whose_bound_text_would_be_too_long_is_rendered_for_real(tmp_path: Path, root: Path) -> None:
    templates = _templates(tmp_path / "layouts", root, QUOTED)
    assert templates.lay_out(NAME, {"card": _card("short"), "face": FACE}, "a", SIZE) is not None
    templates.programs.max_output = 700  # the program's text is about 600 characters
    assert templates.lay_out(NAME, {"card": _card("short"), "face": FACE}, "a", SIZE) is not None
    assert templates.lay_out(NAME, {"card": _card("long " * 40), "face": FACE}, "b", SIZE) is None


_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)
_CARDS = st.fixed_dictionaries(
    {
        "name": _TEXT,
        "cost": st.one_of(
            st.integers(-5, 9), st.integers(10**8, 10**10), _TEXT, st.floats(allow_nan=False), st.booleans()
        ),
        "colour": st.sampled_from(["#2d6a8e", "#66781a", "blue", ""]),
        "rule": _TEXT,
        "tag": _TEXT,
    }
)


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory, root: Path) -> Templates:
    return _templates(tmp_path_factory.mktemp("programs") / "layouts", root, MIXED)


@settings(max_examples=300)
@given(card=_CARDS)
def test_a_bound_face_is_exactly_the_face_rendered_and_parsed(mixed: Templates, card: dict[str, Any]) -> None:
    bound, real, report = _both(mixed, card)
    if bound is not None:
        assert bound == real and not report.items


def test_every_face_of_the_shipped_kits_binds_to_what_rendering_gives(root: Path, monkeypatch) -> None:
    from generator.layout.templates import Templates as Real
    from generator.pipeline import Pipeline

    monkeypatch.setenv("CARDPRESS_CACHE", "off")
    seen: dict[str, list[bool]] = {}
    lay_out = Real.lay_out

    def compared(self: Real, name: str, context: dict[str, Any], face: str, size: tuple[float, float]) -> Any:
        bound = lay_out(self, name, context, face, size)
        report = Report()
        text = self.render(name, context, face, report)
        assert text is not None and not report.items
        if bound is not None:
            assert bound == document.parse(text, bound.template, face, size, report) and not report.items
        seen.setdefault(name, []).append(bound is not None)
        return bound

    monkeypatch.setattr(Real, "lay_out", compared)
    for game in ("pocket-foundry", "micro-engine", "hedgerow"):
        assert Pipeline(root, game).render(["a4"]) is not None
    bound = {name: (sum(found), len(found)) for name, found in seen.items()}
    assert bound["tuckbox.yaml.j2"] == (7, 7)  # each box's outline is path data, checked for each face
    assert {name for name, (b, n) in bound.items() if b < n} == {
        "aid-front.yaml.j2",
        "aid-back.yaml.j2",
        "tracker-front.yaml.j2",
    }
    assert sum(b for b, _ in bound.values()) == 288 and sum(n for _, n in bound.values()) == 291


@pytest.fixture(scope="module")
def quoted(tmp_path_factory: pytest.TempPathFactory, root: Path) -> Templates:
    return _templates(tmp_path_factory.mktemp("quoted") / "layouts", root, QUOTED)


_PRINTABLE = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Co")) | st.sampled_from("\n\t"))


@settings(max_examples=300)
@given(
    card=st.tuples(
        _PRINTABLE, _PRINTABLE | st.integers(-(10**12), 10**12), st.sampled_from(["#2d6a8e", "#66781a"]), _PRINTABLE
    ).map(lambda values: dict(zip(("name", "cost", "colour", "rule"), values)))  # in one order: it is in the key
)
def test_any_text_bound_into_a_shared_program_is_what_rendering_gives(quoted: Templates, card: dict[str, Any]) -> None:
    bound, real, report = _both(quoted, card)
    assert (bound, report.items) == (real, []) if type(card["cost"]) is str else bound is real is None
    # a colour, and the cost's type (text or a number); a text no slot may stand for is keyed by itself
    programs = quoted.programs.families[NAME].programs
    shared = [key for key in programs if all(leaf[2] is None for leaf in dict(key)["card"] if leaf[0] != "colour")]
    assert len(shared) <= 4


def test_only_text_properties_the_schema_checks_alone_are_checked_alone() -> None:
    text, font = document.free_check("text", "text"), document.free_check("text", "font")
    assert text is not None and font is not None
    assert (text("x" * 5000), text("x" * 5001), text(5), font("x" * 40), font("x" * 41)) == (
        True,
        False,
        False,
        True,
        False,
    )
    # lengths are converted, colours and ids follow a pattern, alignments an enum: each is checked in full
    assert [document.free_check("text", key) for key in ("x", "size", "colour", "id", "align")] == [None] * 5
    assert document.free_check("nothing", "text") is None


def test_a_value_its_property_refuses_is_refused_after_others_were_checked_alone(tmp_path: Path, root: Path) -> None:
    source = "elements:\n- {text: {x: 5, y: 5, w: 50, h: 8, text: {{ card.t|q }}, font: {{ card.f|q }}}}\n"
    templates = _templates(tmp_path / "layouts", root, source)
    for i in range(3):  # the first builds the element in full; the others only test their two values
        bound, real, report = _both(templates, {"t": f"t{i}", "f": "body"})
        assert bound is not None and bound == real and not report.items
    program = next(iter(templates.programs.families[NAME].programs.values()))
    assert program is not None and list(program.quick) == [0] and list(program.built) == [0]
    bound, real, report = _both(templates, {"t": "t", "f": "f" * 41})
    assert bound is None and real is None and [d.code for d in report.items] == ["L004"]  # too long


_LEAF = st.one_of(
    st.text(max_size=6),
    st.integers(-3, 3),
    st.booleans(),
    st.none(),
    st.sampled_from([0.0, -0.0, 1.5]),
    st.just("\x07"),
)
_VALUE = st.recursive(
    _LEAF,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from("abc"), inner, max_size=3),
    max_leaves=8,
)
_CONTEXT = st.dictionaries(st.sampled_from(["card", "page", "n", "face"]), _VALUE, max_size=4)


def _leafwise(context: dict[str, Any], structural: set[Any]) -> Any:
    """The key as first defined: every leaf with its place and type, and the values that are part of it."""
    parts = []
    for name, value in context.items():
        leaves: list[Any] = []
        if not programs._flatten(value, (name,), leaves):
            return None
        parts.append((name, programs._leaves_key(leaves, structural)))
    return tuple(parts)


def _variant(value: Any, data: Any) -> Any:
    """Return `value` with each leaf kept or replaced by another plain value (the same shape, mostly)."""
    if isinstance(value, dict):
        return {k: _variant(v, data) for k, v in value.items()}
    if isinstance(value, list):
        return [_variant(v, data) for v in value]
    return value if data.draw(st.booleans()) else data.draw(_LEAF)


@settings(max_examples=400)
@given(
    first=_CONTEXT,
    data=st.data(),
    structural=st.sets(st.sampled_from([("card", "a"), ("n",), ("page", "b"), ("card", "b", "a"), ("page", "a", "c")])),
)
def test_the_quick_parts_of_a_key_tell_contexts_apart_as_the_leafwise_key_does(
    first: dict[str, Any], data: Any, structural: set[Any]
) -> None:
    second = {name: _variant(value, data) for name, value in first.items()}
    family = programs.Family(structural=set(structural))
    keys = programs.Programs(10**6)
    same = keys._key(first, family) == keys._key(second, family)
    assert same == (_leafwise(first, structural) == _leafwise(second, structural))


def test_a_structural_value_keys_a_program_and_a_slotted_one_does_not() -> None:
    keys = programs.Programs(10**6)
    family = programs.Family(structural={("card", "a"), ("n",)})

    def key(context: dict[str, Any]) -> Any:
        return keys._key(context, family)

    assert key({"card": {"a": "x", "b": "x"}}) != key({"card": {"a": "y", "b": "x"}})  # card.a is structural
    assert key({"card": {"a": "x", "b": "x"}}) == key({"card": {"a": "x", "b": "y"}})  # card.b is slotted
    assert key({"n": 1, "m": 1}) != key({"n": 2, "m": 1}) and key({"n": 1, "m": 1}) == key({"n": 1, "m": 2})
    assert key({"m": 0.0}) != key({"m": -0.0}) and key({"m": True}) != key({"m": 1})  # baked in, by text and type
    nested = programs.Family(structural={("card", "art", "fit")})  # a row's art: a mapping one level down
    assert keys._key({"card": {"art": {"fit": "cover", "src": "a.png"}}}, nested) != keys._key(
        {"card": {"art": {"fit": "contain", "src": "a.png"}}}, nested
    )
    assert keys._key({"card": {"art": {"fit": "cover", "src": "a.png"}}}, nested) == keys._key(
        {"card": {"art": {"fit": "cover", "src": "b.png"}}}, nested
    )


def test_a_slot_refuses_what_yaml_refuses_and_the_markers_characters_and_nothing_else():
    import re

    from generator.layout.slots import _REFUSED

    allowed = re.compile("[\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\uf900-\ufffd\U00010000-\U0010ffff]")
    differ = [c for c in range(0x110000) if bool(_REFUSED.match(chr(c))) == bool(allowed.match(chr(c)))]
    assert differ == []
