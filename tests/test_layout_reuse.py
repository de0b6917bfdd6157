"""A layout document's elements seen before on another face are reused, not checked again: the document read
is the same as when every element is new, and a new problem is still reported where it is."""

from __future__ import annotations

from generator.diagnostics import Report
from generator.layout import document

FRAME = '- {rect: {x: -3, y: -3, w: 69, h: 94, fill: "#f4eddc", bleed: true}}'
TITLE = '- {text: {x: 6, y: 6, w: 37.5, h: 8, text: "%s", size: 13, max_lines: 1}}'


def _parse(*elements: str, size: tuple[float, float] = (63.0, 88.0)) -> tuple[document.LayoutDoc | None, Report]:
    report = Report()
    text = "bleed: 3\nelements:\n" + "\n".join(elements) + "\n"
    return document.parse(text, "layouts/face.yaml.j2", "card-1/front", size, report), report


def _fresh(*elements: str) -> document.LayoutDoc | None:
    """Parse with nothing remembered: every element checked."""
    document._KNOWN.clear()
    return _parse(*elements)[0]


def test_a_document_of_known_elements_reads_as_a_fresh_one() -> None:
    first, _ = _parse(FRAME, TITLE % "Ant")
    second, _ = _parse(FRAME, TITLE % "Bee")
    assert first is not None and second is not None
    assert second.elements[0] is first.elements[0]  # the frame: the same element, not checked again
    assert second == _fresh(FRAME, TITLE % "Bee")
    assert [e.path for e in second.elements] == ["elements[0]", "elements[1]"]


def test_an_element_at_another_place_is_another_element() -> None:
    first, _ = _parse(FRAME, TITLE % "Ant")
    moved, _ = _parse(TITLE % "Ant", FRAME)
    assert first is not None and moved is not None
    assert moved.elements[1].path == "elements[1]" and moved.elements[1] is not first.elements[0]
    assert moved == _fresh(TITLE % "Ant", FRAME)


def test_a_new_problem_beside_known_elements_is_reported_where_it_is() -> None:
    _parse(FRAME, TITLE % "Ant")
    doc, report = _parse(FRAME, TITLE % "Ant", '- {rect: {x: 1, y: 1, w: 5, h: 5, colour: "#000000"}}')
    assert doc is None
    assert [(d.code, d.loc.line if d.loc else None) for d in report.errors] == [("L003", 5)]


def test_a_number_out_of_range_and_a_wrong_size_are_still_refused() -> None:
    _parse(FRAME)
    doc, report = _parse(FRAME, "- {rect: {x: 1e300, y: 1, w: 5, h: 5}}")
    assert doc is None and [d.code for d in report.errors] == ["L004"]
    text = "size: [50, 50]\nbleed: 3\nelements:\n" + FRAME + "\n"
    report = Report()
    assert document.parse(text, "layouts/face.yaml.j2", "card-1/front", (63.0, 88.0), report) is None
    assert [d.code for d in report.errors] == ["L010"]
