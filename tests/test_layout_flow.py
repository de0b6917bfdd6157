"""The quick reader of layout documents agrees with PyYAML wherever it answers, and answers for the usual ones."""

from __future__ import annotations

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.layout import flow
from generator.source.yamlparse import LOADER

SHAPE = """bleed: 3
elements:
# a comment line
- {rect: {x: -3, y: -3, w: 69.5, h: 94.9, fill: "#f4eddc", bleed: true}}
- {text: {x: 4.5, y: 3.0, w: 54.0, h: 8, text: "Card 0001 \\"one\\"", font: display, size: 13, colour: "#ffffff", lines: 1}}
- group: {x: 1, y: 2, w: 3, h: 4, rotate: 180, elements: [{line: {points: [[32.0, 163], [178.0, 163]], dash: [2, 1.5]}}]}
- {icon: {name: 'it''s', x: 6.1, y: 5, size: 7, over: null, flag: False}}
"""


def yaml_load(text: str) -> object:
    """What PyYAML, as cardpress configures it, makes of a document; an exception when it refuses it."""
    return yaml.load(text, Loader=LOADER)


def test_the_shape_templates_render_is_read_exactly_as_pyyaml_reads_it() -> None:
    read = flow.read(SHAPE)
    assert read is not None
    assert read == yaml_load(SHAPE) and repr(read) == repr(yaml_load(SHAPE))  # the same types: 3 not 3.0
    assert read["elements"][1]["text"]["text"] == 'Card 0001 "one"'
    assert read["elements"][3]["icon"]["name"] == "it's"


def test_every_face_the_shipped_kits_render_is_read_quickly_and_the_same(root, monkeypatch) -> None:
    from generator.layout import document, programs
    from generator.pipeline import Pipeline

    monkeypatch.setenv("CARDPRESS_CACHE", "off")  # lay every face out, so every document is parsed here
    monkeypatch.setattr(programs.Programs, "lay_out", lambda *_: None)  # rendered for real, none bound
    texts: list[str] = []
    parse = document.parse

    def spy(text, *args, **kwargs):  # type: ignore[no-untyped-def]
        texts.append(text)
        return parse(text, *args, **kwargs)

    monkeypatch.setattr(document, "parse", spy)
    for game in ("pocket-foundry", "micro-engine", "hedgerow"):
        assert Pipeline(root, game).render(["a4"]) is not None
    unread = [t for t in texts if flow.read(t) is None]
    assert (len(texts), len(unread)) == (291, 0)  # 247, then the tuck boxes, tokens, score board and rules pages
    for text in texts:
        read = flow.read(text)
        if read is not None:
            assert repr(read) == repr(yaml_load(text))


# Scalars YAML 1.1 reads in surprising ways, next to ordinary ones: the reader must never disagree.
SCALARS = [
    "1",
    "-0",
    "0",
    "01",
    "007",
    "1.5",
    "-2.25",
    "1.",
    ".5",
    "1e5",
    "1E+2",
    "1_000",
    "0x1F",
    "0o7",
    "1:20",
    "yes",
    "No",
    "ON",
    "off",
    "y",
    "n",
    "null",
    "Null",
    "~",
    "true",
    "False",
    "TRUE",
    ".inf",
    "-.nan",
    "abc",
    "a-b",
    "a_b",
    "_x",
    "a b",
    "Sönke",
    "é",
    "a:b",
    "a: b",
    "#c",
    "a #c",
    "&a",
    "*a",
    "!t",
    "%x",
    "@x",
    '"quoted"',
    '"with \\"escape\\""',
    '"tab\\tnew\\nline"',
    '"\\x41"',
    '"\\ud83d\\ude80"',
    '"\\u00e9"',
    '"a\\/b"',
    '"unterminated',
    "'single'",
    "'it''s'",
    "'",
    '""',
    "''",
    "2001-12-14",
    "-",
    "--",
    "- a",
    "[]",
    "{}",
]
KEYS = ["x", "fill", "on", "yes", "null", "true", "a-b", "_k", "k k", '"q"', "1"]
PLAIN = ["1", "-0", "2.5", "abc", "a-b", '"q"', "'s'", "true", "null"]  # most documents are mostly this


def _flow(draw, depth: int) -> str:  # type: ignore[no-untyped-def]
    kind = draw(st.sampled_from(["scalar", "scalar", "map", "list"] if depth < 3 else ["scalar"]))
    if kind == "scalar":
        return draw(st.sampled_from(PLAIN) | st.sampled_from(SCALARS))
    sep = draw(st.sampled_from([", ", ",", " , ", ",  "]))
    if kind == "list":
        items = [_flow(draw, depth + 1) for _ in range(draw(st.integers(0, 3)))]
        return "[" + sep.join(items) + draw(st.sampled_from(["", ",", " "])) + "]"
    pairs = [
        f"{draw(st.sampled_from(['x', 'w']) | st.sampled_from(KEYS))}{draw(st.sampled_from([': ', ':', ':  ']))}"
        + _flow(draw, depth + 1)
        for _ in range(draw(st.integers(0, 3)))
    ]
    return "{" + sep.join(pairs) + draw(st.sampled_from(["", ",", " "])) + "}"


@st.composite
def documents(draw) -> str:  # type: ignore[no-untyped-def]
    lines = []
    for _ in range(draw(st.integers(1, 4))):
        key = draw(st.sampled_from(["bleed", "size", "elements", "on", "elements", "x y", "k"]))
        if draw(st.booleans()):
            lines.append(f"{key}: {_flow(draw, 0)}")
        else:
            lines.append(f"{key}:")
            indent = draw(st.sampled_from(["", "  "]))
            for _ in range(draw(st.integers(0, 3))):
                lines.append(f"{indent}{draw(st.sampled_from(['- ', '-  ', '  - ', '# ']))}{_flow(draw, 0)}")
    return "\n".join(lines) + draw(st.sampled_from(["", "\n", " \n"]))


@settings(max_examples=1000, deadline=None)
@given(documents())
def test_the_quick_reader_never_disagrees_with_pyyaml(text: str) -> None:
    read = flow.read(text)
    if read is None:
        return  # left to PyYAML: always safe
    assert repr(read) == repr(yaml_load(text)), text
