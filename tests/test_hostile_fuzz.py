"""Fuzzing card data and layout documents: whatever a stranger writes, cardpress answers with diagnostics.

Property: for any YAML text, any mutation of a shipped game's card files and any layout document,
loading, validating, laying out and drawing either succeed or report located problems; nothing
raises, nothing not finite reaches a PDF.

CI runs a fixed, derandomized sample. To fuzz for longer with fresh examples:
`CARDPRESS_FUZZ=2000 .venv/bin/pytest tests/test_hostile_fuzz.py`.
"""

from __future__ import annotations

import io
import math
import os
import re
import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator import pipeline
from generator.diagnostics import CardpressError, Report
from generator.layout import document, lint
from generator.layout.icons import load_icons
from generator.project.folders import GameDir
from generator.source import schema, yamlsrc

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = int(os.environ.get("CARDPRESS_FUZZ", "0"))
_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture]
# CI: a fixed sample, the same every run, so the suite's time is bounded (each example is itself bounded by
# the caps and budgets under test). `fuzz`: fresh random examples, as many as CARDPRESS_FUZZ says.
settings.register_profile(
    "cardpress-ci", max_examples=40, deadline=None, derandomize=True, suppress_health_check=_QUIET
)
settings.register_profile("cardpress-fuzz", max_examples=EXAMPLES or 40, deadline=None, suppress_health_check=_QUIET)
FUZZ = settings.get_profile("cardpress-fuzz" if EXAMPLES else "cardpress-ci")

# --- hostile values ---------------------------------------------------------------------------------

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.sampled_from([0, -1, 2**63, 10**4000])
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from([1e-300, 1e300, -0.0])
    | st.text(max_size=30)
    | st.sampled_from(["", "\0", "a\0b.png", "../../etc/passwd", "/dev/zero", "x" * 3000, "🚀", "\u202e", "#zzzzzz"])
)
VALUES = st.recursive(
    SCALARS,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=12,
)
DEEP = st.integers(min_value=90, max_value=160).map(lambda n: _nest(n))


def _nest(depth: int):
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


# --- raw YAML text ------------------------------------------------------------------------------------

YAML_TEXT = st.text(alphabet=st.sampled_from(list("ab1:- \n\t[]{},&*!|>'\"#%@`?.\\\0\x85\ufeff")), max_size=200)
SCHEMAS = ["pocket-foundry-game", "pocket-foundry-machines", "micro-engine-game", "layout", "icons", "fonts"]


@FUZZ
@given(text=YAML_TEXT, schema_id=st.sampled_from(SCHEMAS))
def test_any_yaml_text_loads_to_data_or_diagnostics(text, schema_id):
    report = Report()
    source = yamlsrc.load_text(text, "fuzz.yaml", report)
    if report.ok():
        schema.check(source, schema_id, report)
    for d in report.items:
        assert d.render()  # every diagnostic can be shown


@FUZZ
@given(value=VALUES | DEEP)
def test_any_data_dumped_as_yaml_loads_back_or_is_explained(value):
    text = yaml.safe_dump({"machines": value}, allow_unicode=True)
    report = Report()
    source = yamlsrc.load_text(text, "fuzz.yaml", report)
    if report.ok():
        schema.check(source, "pocket-foundry-machines", report)
    assert all(d.severity == "error" for d in report.items)


# --- mutated card files, through the whole game loader and rules check --------------------------------


@pytest.fixture(scope="module")
def fuzz_project(tmp_path_factory) -> Path:
    dest = tmp_path_factory.mktemp("fuzz") / "project"
    for game in ("pocket-foundry", "micro-engine"):
        shutil.copytree(ROOT / "cards" / game, dest / "cards" / game, ignore=shutil.ignore_patterns("art"))
    shutil.copytree(ROOT / "layouts", dest / "layouts")
    shutil.copytree(ROOT / "fonts", dest / "fonts")
    return dest


def _paths(data, prefix=()):
    """Every key path in a document, containers included."""
    yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, prefix + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _paths(value, prefix + (i,))


def _replace(data, path, value):
    if not path:
        return value
    head, *rest = path
    copy = dict(data) if isinstance(data, dict) else list(data)
    copy[head] = _replace(copy[head], tuple(rest), value)
    return copy


FILES = [
    ("pocket-foundry", "game.yaml"),
    ("pocket-foundry", "machines.yaml"),
    ("pocket-foundry", "components.yaml"),
    ("micro-engine", "game.yaml"),
    ("micro-engine", "patents.yaml"),
    ("micro-engine", "cores.yaml"),
]


@settings(FUZZ, max_examples=EXAMPLES or 25)
@given(target=st.sampled_from(FILES), choice=st.integers(min_value=0), value=VALUES | DEEP)
def test_any_mutation_of_a_card_file_is_a_diagnostic_never_a_traceback(fuzz_project, target, choice, value):
    game_id, name = target
    path = fuzz_project / "cards" / game_id / name
    original = path.read_text(encoding="utf-8")
    data = yaml.safe_load(original)
    paths = list(_paths(data))
    where = paths[choice % len(paths)]
    try:
        path.write_text(yaml.safe_dump(_replace(data, where, value), allow_unicode=True), encoding="utf-8")
        try:
            loaded, report = pipeline.validate(fuzz_project, game_id)
        except CardpressError as exc:  # a user error, said as diagnostics: fine
            report = exc.report
        for d in report.items:
            assert d.code and d.render()
    finally:
        path.write_text(original, encoding="utf-8")


# --- layout documents -------------------------------------------------------------------------------

HOSTILE_NUMBERS = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from(
    [0, 0.0, -0.0, 1e-9, 5e-7, 1e308, -1e308, 10**400, "nan", "1e400", "99999999999999999999999999999999mm"]
)
EDGES = st.sampled_from([0, 0.0, -0.0, 1e-9, 1999.0, -1999.0, 0.5, "3mm", "9pt", ".25in", "1cm"])
COLOURS = st.sampled_from(["#000000", "#ffffff", "#2f6690", "#c8741c", "#2a2622", "#f4eddc", "red"])
REQUIRED = {
    "rect": ["x", "y", "w", "h"],
    "ellipse": ["cx", "cy", "rx", "ry"],
    "line": ["points"],
    "polygon": ["points"],
    "path": ["d", "x", "y", "w", "h"],
    "icon": ["name", "x", "y", "size"],
    "text": ["x", "y", "w", "h", "text"],
    "pattern": ["icon", "x", "y", "w", "h", "size", "dx", "dy"],
    "image": ["src", "x", "y", "w", "h"],
}
OPTIONAL = {
    "rect": ["radius", "fill", "stroke", "stroke_width", "dash", "opacity", "bleed"],
    "ellipse": ["fill", "stroke", "stroke_width", "dash", "opacity"],
    "line": ["stroke", "stroke_width", "dash", "cap", "opacity"],
    "polygon": ["fill", "stroke", "stroke_width", "opacity"],
    "path": ["viewbox", "fill", "stroke", "stroke_width", "opacity"],
    "icon": ["colour", "rotate", "opacity"],
    "text": ["font", "size", "min_size", "align", "valign", "leading", "max_lines", "rotate", "colour"],
    "pattern": ["stagger", "colour", "opacity"],
    "image": ["radius", "fit", "focus", "opacity"],
}


class Numbers:
    """The numbers one document draws from: ordinary ones, or (in a hostile document) anything at all."""

    def __init__(self, hostile: bool):
        def mix(ordinary):
            return ordinary | HOSTILE_NUMBERS if hostile else ordinary

        self.length = mix(st.floats(min_value=-20, max_value=120) | st.floats(min_value=0.5, max_value=30) | EDGES)
        self.fraction = mix(st.floats(min_value=0, max_value=1))
        self.viewbox = mix(st.floats(min_value=-10, max_value=100))
        self.angle = mix(st.sampled_from([0, 90, 180, 270]) | st.floats(min_value=-720, max_value=720))
        self.leading = mix(st.floats(min_value=0.5, max_value=4))
        self.font_size = mix(st.floats(min_value=1, max_value=40))


def _prop(key: str, n: Numbers):
    if key in ("fill", "stroke", "colour"):
        return COLOURS
    if key == "points":
        return st.lists(st.lists(n.length, min_size=2, max_size=2), min_size=2, max_size=6)
    if key == "dash":
        return st.lists(n.length, min_size=2, max_size=2)
    if key == "focus":
        return st.lists(n.fraction, min_size=2, max_size=2)
    if key == "viewbox":
        return st.lists(n.viewbox, min_size=4, max_size=4)
    if key in ("name", "icon"):
        return st.sampled_from(["part", "feed", "point", "part", "nope"])
    if key == "text":
        return st.text(max_size=40) | st.sampled_from(["FEED", "🚀 送り帯", "a" * 400, "x\0y"])
    if key == "d":
        return st.sampled_from(["M 0 0 L 10 10 Z", "M 0 0 C 1 2 3 4 5 6", "M 1 1 L 2 2", "M 1e400 0 L 0 0", "q 1", ""])
    if key == "font":
        return st.sampled_from(["body", "display", "heavy", "nope"])
    if key == "align":
        return st.sampled_from(["left", "center", "right"])
    if key == "valign":
        return st.sampled_from(["top", "middle", "bottom"])
    if key == "cap":
        return st.sampled_from(["butt", "round", "square"])
    if key == "fit":
        return st.sampled_from(["cover", "contain", "stretch"])
    if key == "rotate":
        return n.angle
    if key in ("stagger", "bleed"):
        return st.booleans()
    if key == "max_lines":
        return st.integers(min_value=1, max_value=100)
    if key == "leading":
        return n.leading
    if key == "opacity":
        return n.fraction
    if key in ("size", "min_size"):
        return n.font_size | n.length
    if key == "src":
        return st.sampled_from(["art/feed-belt.png", "art/none.png", "../x.png", "a\0b", ""])
    return n.length


@st.composite
def elements(draw, n: Numbers, depth: int = 0):
    kinds = list(REQUIRED) + (["group"] if depth < 3 else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "group":
        props = {k: draw(n.length) for k in ("x", "y", "w", "h")}
        props["elements"] = draw(st.lists(elements(n, depth + 1), max_size=3))
        return {"group": props}
    keys = REQUIRED[kind] + draw(st.lists(st.sampled_from(OPTIONAL[kind]), unique=True, max_size=4))
    return {kind: {k: draw(_prop(k, n)) for k in keys}}


@st.composite
def documents(draw):
    n = Numbers(hostile=draw(st.integers(0, 2)) == 0)
    doc = {"elements": draw(st.lists(elements(n), max_size=6))}
    if draw(st.booleans()):
        doc["bleed"] = draw(n.length)
    return doc


DOCS = documents()


@pytest.fixture(scope="module")
def drawing_kit():
    from generator.render.fonts import load_fonts

    return load_fonts(ROOT / "fonts", ROOT), load_icons(
        [ROOT / "layouts" / "pocket-foundry", ROOT / "layouts" / "common"]
    )


def _finite_props(element) -> None:
    for value in element.props.values():
        numbers = value if isinstance(value, (list, tuple)) else [value]
        for n in numbers:
            for x in n if isinstance(n, tuple) else [n]:
                if isinstance(x, float):
                    assert math.isfinite(x), element


@FUZZ
@given(doc=DOCS)
def test_any_layout_document_is_drawn_or_explained(drawing_kit, doc):
    from reportlab.pdfgen.canvas import Canvas

    from generator.render.draw import draw, prepare
    from generator.render.painters import PdfPainter, RecordingPainter

    fonts, icons = drawing_kit
    report = Report()
    text = yaml.safe_dump(doc, allow_unicode=True)
    parsed = document.parse(text, "fuzz.yaml.j2", "card-1/front", (63.5, 88.9), report)
    if parsed is None:
        assert not report.ok()
        return
    for element in document.walk(parsed.elements):
        _finite_props(element)
    prepared, _ = prepare(parsed, fonts)
    list(lint.check(parsed, icons))
    recorder = RecordingPainter()
    draw(prepared, recorder, fonts, icons)
    assert not any("nan" in line or "inf" in line for line in recorder.log if not line.startswith("text ")), (
        recorder.log
    )
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(200, 260), pageCompression=0, invariant=1, initialFontName=fonts.resolve(None))
    painter = PdfPainter(canvas)
    painter.begin(0, 260)
    draw(prepared, painter, fonts, icons)
    painter.end()
    canvas.showPage()
    canvas.save()
    from pypdf import PdfReader

    content = PdfReader(io.BytesIO(buffer.getvalue())).pages[0].get_contents().get_data()
    assert not re.search(rb"(?i)(?<![\w/])-?(nan|inf)(?!\w)", content), content


@FUZZ
@given(text=st.text(max_size=300))
def test_any_rendered_text_parses_to_a_document_or_diagnostics(text):
    report = Report()
    parsed = document.parse(text, "fuzz.yaml.j2", "card-1/front", (63.5, 88.9), report)
    assert (parsed is None) == (not report.ok()) or parsed is not None


def test_the_game_loader_of_a_fuzzed_project_is_still_a_game(fuzz_project):
    """The fuzzing above restores every file: the project it used is still valid (a check on the test)."""
    loaded, report = pipeline.validate(fuzz_project, "pocket-foundry")
    assert loaded is not None and report.ok(), report.render()
    assert GameDir(fuzz_project, "pocket-foundry").folder.is_dir()
