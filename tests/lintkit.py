"""Lay out a small layout document directly and lint it, as `validate` lints every face."""

from __future__ import annotations

from types import SimpleNamespace

from conftest import ROOT

from generator.art.place import Placed
from generator.diagnostics import Report
from generator.layout import document, lint
from generator.layout.icons import load_icons
from generator.layout.limits import Thresholds
from generator.render.draw import Prepared, prepare
from generator.render.fonts import load_fonts
from generator.render.trace import trace

FONTS = load_fonts(ROOT / "fonts", ROOT)
ICONS = load_icons([ROOT / "layouts" / "micro-engine", ROOT / "layouts" / "common"])
CARD = (63.5, 88.9)


def laid_out(elements: str, size: tuple[float, float] = CARD) -> Prepared:
    """Parse and set a document whose `elements:` list is `elements`; place every image as art."""
    report = Report()
    doc = document.parse(f"elements:\n{elements}", "test.yaml.j2", "face", size, report)
    assert doc is not None, report.render()
    prepared, _ = prepare(doc, FONTS)
    for el in document.walk(doc.elements):
        if el.kind == "image":  # art that exists: the tracer needs only its box
            p = el.props
            prepared.images[id(el)] = Placed((p["x"], p["y"], p["w"], p["h"]), 0, art=SimpleNamespace())
    return prepared


def findings(elements: str, limits: Thresholds | None = None, size=CARD) -> list[str]:
    """Return each lint finding for the document as 'severity[code] message' (default thresholds unless given)."""
    prepared = laid_out(elements, size)
    ink = trace(prepared, FONTS, ICONS)
    found = lint.check(prepared.doc, ICONS, None, ink, limits or Thresholds())
    return [f"{f.severity}[{f.code}] {f.message}" for f in found]
