"""SVG art: drawn as vectors in the PDF (svglib), rasterized only for PNG exports; bombs, scripts and external
references refused, located at the SVG's own line."""

from __future__ import annotations

import pytest
from conftest import run_cli
from deck_helpers import GAME_YAML, deck_project, headlines
from PIL import Image
from pypdf import PdfReader

from generator.pipeline import Pipeline

FRONT = """\
{% import "macros.j2" as m %}
bleed: 3
elements:
- {{ m.rect(-3, -3, face.w + 6, face.h + 6, fill="#ffffff", bleed=true) }}
- {{ m.text(6, 6, face.w - 12, 8, card.name, font="display", size=12, plain=true, id="name") }}
- {{ m.image(card.art.src, 6, 16, face.w - 12, 50, fit="contain", id="art") }}
"""
FRAME = """\
<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 100 80" width="100" height="80">
  <defs><path id="leaf" d="M0 0 C 10 -10 20 -10 30 0 C 20 10 10 10 0 0 Z"/></defs>
  <rect x="2" y="2" width="96" height="76" rx="8" fill="#1f6f4a" stroke="#0b2e1f" stroke-width="3"/>
  <circle cx="50" cy="40" r="22" fill="#f2c14e"/>
  <use xlink:href="#leaf" x="35" y="40" fill="#b02e2e"/>
</svg>
"""
CSV = "name,art\nFern,art/fern.svg\nOak,art/oak.svg\n"


def _project(tmp_path, svg: str | bytes, name: str = "fern"):
    files = {"layouts/front.yaml.j2": FRONT, f"art/{name}.svg": svg if isinstance(svg, bytes) else svg.encode()}
    if name == "fern":
        files["art/oak.svg"] = FRAME.encode()
    return deck_project(tmp_path, CSV, GAME_YAML.replace("    markup: [text]\n", ""), files=files)


def test_svg_art_prints_as_vectors_and_rasterizes_for_png_exports(tmp_path):
    project = _project(tmp_path, FRAME)
    out = tmp_path / "out"
    built = run_cli("build", "tiny", "--paper", "a4", "--out", str(out), cwd=project)
    assert built.returncode == 0 and built.stderr == "", built.stderr
    reader = PdfReader(next(out.rglob("*a4*.pdf")))
    images, drawn = 0, b""
    for page in reader.pages:
        drawn += page.get_contents().get_data()
        for obj in _xobjects(page):
            images += obj.get("/Subtype") == "/Image"
            drawn += obj.get_data() if obj.get("/Subtype") == "/Form" else b""
    assert images == 0  # nothing rasterized in the PDF
    fonts = {str(f.get_object()["/BaseFont"]) for p in reader.pages for f in p["/Resources"].get("/Font", {}).values()}
    assert fonts and all("+" in name for name in fonts), fonts  # subsets embedded; the renderer's Helvetica never named
    # the drawing's own colours as vector fills (#1f6f4a, #f2c14e, #b02e2e), its circle and leaf as curves
    for fill in (b"\n.121569 .435294 .290196 rg", b"\n.94902 .756863 .305882 rg", b"\n.690196 .180392 .180392 rg"):
        assert drawn.count(fill) == 2, fill  # once on each of the two cards
    assert drawn.count(b" c\n") >= 2 * (4 + 2)
    exported = run_cli("export", "tiny", "--to", "cards", "--out", str(tmp_path / "x"), cwd=project)
    assert exported.returncode == 0, exported.stderr
    png = sorted((tmp_path / "x").rglob("*fern*front*.png"))[0]
    with Image.open(png) as im:
        w, h = im.size
        colours = {im.convert("RGB").getpixel((w // 2, int(h * y))) for y in (0.33, 0.4, 0.45)}
    assert any(abs(r - 0xF2) < 12 and abs(g - 0xC1) < 12 and abs(b - 0x4E) < 12 for r, g, b in colours), colours


def _xobjects(page):
    seen, todo = [], [page.get("/Resources")]
    while todo:
        res = todo.pop()
        res = res.get_object() if res is not None else None
        if not res or "/XObject" not in res:
            continue
        for ref in res["/XObject"].values():
            obj = ref.get_object()
            if any(obj is s for s in seen):
                continue
            seen.append(obj)
            todo.append(obj.get("/Resources"))
    return seen


BILLION = "".join(
    f'<g id="g{i}">' + "".join(f'<use xlink:href="#g{i - 1}"/>' for _ in range(10)) + "</g>" for i in range(1, 9)
)
CASES = [
    (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">\n<rect width="5" height="5"/>\n'
        "<script>alert(1)</script>\n</svg>\n",
        3,
        "fern.svg: <script> is refused: cardpress draws no scripts or embedded documents",
    ),
    (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="alert(1)">\n</svg>\n',
        1,
        "fern.svg: the event attribute onload= is refused: cardpress runs no scripts",
    ),
    (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">\n'
        '  <image xlink:href="file:///etc/passwd" width="5" height="5"/>\n</svg>\n',
        2,
        "fern.svg: <image> refers to 'file:///etc/passwd' outside the file: external references are refused",
    ),
    (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">\n'
        '  <rect width="5" height="5" style="fill: url(http://example.com/x.svg#p)"/>\n</svg>\n',
        2,
        "fern.svg: <rect> uses url(http://example.com/x.svg#p) outside the file: refused",
    ),
    (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">\n  <g>\n    <text x="1" y="5">Fern</text>\n'
        "  </g>\n</svg>\n",
        3,
        "fern.svg: <text> is refused: text in an SVG would print in a font that is neither embedded nor checked",
    ),
    (
        '<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>\n'
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text>&b;</text></svg>\n',
        1,
        "fern.svg: a DOCTYPE is refused: its entities can expand without bound or name files",
    ),
    (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">\n'
        f'<defs><rect id="g0" width="1" height="1"/>{BILLION}</defs>\n<use xlink:href="#g8"/>\n</svg>\n',
        2,
        "fern.svg: it draws more than 20,000 elements once its <use> references are expanded "
        "(an SVG bomb, or a drawing too complex for a card)",
    ),
]


@pytest.mark.parametrize(
    ("svg", "line", "message"), CASES, ids=["script", "onload", "href", "url", "text", "doctype", "bomb"]
)
def test_a_hostile_svg_is_refused_at_its_own_line_and_nothing_prints(tmp_path, svg, line, message):
    project = _project(tmp_path, svg)
    pipeline = Pipeline(project, "tiny", missing_art="placeholder")
    pipeline.layout()
    found = [d for d in pipeline.report.items if d.code == "A004"]
    assert [(d.loc.file, d.loc.line, d.message) for d in found] == [
        ("cards/tiny/art/fern.svg", line, f"fern/front: art: {message}")
    ], headlines(pipeline.report)
    result = run_cli("build", "tiny", "--paper", "a4", "--out", str(tmp_path / "out"), cwd=project)
    assert result.returncode == 1 and not list((tmp_path / "out").rglob("*.pdf"))


ICON = """\
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100">
  <g transform="translate(100 0)"><circle cx="50" cy="50" r="40" fill="#c00"/></g>
  <rect x="10" y="10" width="60" height="80" fill="none" stroke="#000" stroke-width="10"/>
</svg>
"""


def test_an_svg_file_beside_icons_yaml_is_an_icon_fitted_into_its_box(tmp_path):
    from generator.layout.icons import load_icons

    folder = tmp_path / "layouts"
    folder.mkdir()
    (folder / "icons.yaml").write_text("icons:\n  seed: {label: seed, svg: seed.svg}\n  bad: {svg: bad.svg}\n")
    (folder / "seed.svg").write_text(ICON)
    (folder / "bad.svg").write_text(CASES[0][0])
    from generator.diagnostics import Report

    report = Report()
    icons = load_icons([folder], report)
    assert [(d.code, d.message) for d in report.items] == [
        (
            "L020",
            "bad SVG icon: bad.svg:3: <script> is refused: cardpress draws no scripts or embedded documents",
        )
    ]
    seed = icons.get("seed")
    assert seed is not None and seed.label == "seed"
    fill, stroke = seed.paints
    assert fill.stroke is None and stroke.stroke == 5.0  # 10 SVG units in a 200-wide drawing: 5 in the 100 box
    xs = [v for c in fill.commands if c[0] != "Z" for v in c[1::2]]
    ys = [v for c in fill.commands if c[0] != "Z" for v in c[2::2]]
    assert (min(xs), max(xs), min(ys), max(ys)) == (55.0, 95.0, 30.0, 70.0)  # the circle moved right, y down
    assert stroke.commands[0] == ("M", 5.0, 30.0)
