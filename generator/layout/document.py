"""Layout documents: the primitives a template renders for one face, checked and in millimetres."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import yaml

from .. import schema, yamlsrc
from ..diagnostics import Report
from ..units import to_mm, to_pt

_MM_KEYS = ("x", "y", "w", "h", "radius", "stroke_width", "cx", "cy", "rx", "ry", "dx", "dy")
_PT_KEYS = ("size", "min_size")  # font sizes, for text only


@dataclass(frozen=True)
class Element:
    """One drawing primitive with its properties normalized (lengths in mm, font sizes in pt)."""

    kind: str
    props: dict[str, Any]
    path: str
    children: tuple[Element, ...] = ()

    @property
    def name(self) -> str:
        """Return the element's id, or its kind and path, for messages."""
        return self.props.get("id") or f"{self.kind} at {self.path}"


def walk(elements: tuple[Element, ...]) -> Iterator[Element]:
    """Yield every element, depth first, those inside groups included."""
    for el in elements:
        yield el
        yield from walk(el.children)


@dataclass(frozen=True)
class LayoutDoc:
    """What a template said to draw for one face."""

    template: str
    face: str
    width: float
    height: float
    bleed: float
    elements: tuple[Element, ...] = field(default=())


def parse(text: str, template: str, face: str, size: tuple[float, float], report: Report) -> LayoutDoc | None:
    """Parse a rendered layout document; report problems against the template and face."""
    # Most documents are fine: parse them the quick way, and only on trouble again with positions.
    try:
        data = yaml.load(text, Loader=yamlsrc.LOADER)
    except yaml.YAMLError:
        data = None
    if data is not None and schema.conforms("layout", data):
        doc = _build(data, template, face, size, yamlsrc.Source(template, text, data), Report())
        if doc is not None:
            return doc
    return _located(text, template, face, size, report)


def _located(text: str, template: str, face: str, size: tuple[float, float], report: Report) -> LayoutDoc | None:
    """Parse keeping positions, so that every problem is reported where it is."""
    before = len(report.errors)
    source = yamlsrc.load_text(text, f"{template} [{face}]", report)
    if len(report.errors) > before or not schema.check(source, "layout", report, code_prefix="L"):
        return None
    return _build(source.data, template, face, size, source, report)


def _build(
    data: dict[str, Any], template: str, face: str, size: tuple[float, float], source: yamlsrc.Source, report: Report
) -> LayoutDoc | None:
    """Normalize checked data into a LayoutDoc; None if a length does not parse."""
    before = len(report.errors)
    width, height = size
    if "size" in data:
        try:
            declared = (to_mm(data["size"][0]), to_mm(data["size"][1]))
        except ValueError as exc:
            report.error("L004", str(exc), path="size", loc=source.loc(("size",)))
            return None
        if abs(declared[0] - width) > 0.01 or abs(declared[1] - height) > 0.01:
            report.error(
                "L010",
                f"layout is {declared[0]:g} × {declared[1]:g} mm but the face is {width:g} × {height:g} mm",
                path="size",
                loc=source.loc(("size",)),
            )
    try:
        bleed = to_mm(data.get("bleed", 0))
    except ValueError as exc:
        report.error("L004", str(exc), path="bleed", loc=source.loc(("bleed",)))
        return None
    elements = _elements(data["elements"], ("elements",), source, report)
    if len(report.errors) > before:
        return None
    return LayoutDoc(template, face, width, height, bleed, elements)


def _elements(items: list[Any], path: tuple[Any, ...], source: yamlsrc.Source, report: Report) -> tuple[Element, ...]:
    out = []
    for i, item in enumerate(items):
        ((kind, props),) = item.items()
        where = path + (i, kind)
        try:
            normal = _normalize(kind, props)
        except ValueError as exc:
            report.error("L004", str(exc), path=yamlsrc.format_path(where), loc=source.loc(where))
            continue
        children = _elements(props["elements"], where + ("elements",), source, report) if kind == "group" else ()
        normal.pop("elements", None)
        out.append(Element(kind, normal, yamlsrc.format_path(path + (i,)), children))
    return tuple(out)


def _normalize(kind: str, props: dict[str, Any]) -> dict[str, Any]:
    """Convert every length to mm (font sizes to pt); raise ValueError naming the bad key."""
    out = dict(props)
    for key in _MM_KEYS + (("size",) if kind in ("icon", "pattern") else ()):
        if key in out:
            out[key] = _length(key, out[key], to_mm)
    if kind == "text":
        for key in _PT_KEYS:
            if key in out:
                out[key] = _length(key, out[key], to_pt)
    if "points" in out:
        out["points"] = [(_length("points", x, to_mm), _length("points", y, to_mm)) for x, y in out["points"]]
    if "dash" in out:
        out["dash"] = [_length("dash", d, to_mm) for d in out["dash"]]
    return out


def _length(key: str, value: Any, convert: Callable[[Any], float]) -> float:
    try:
        return convert(value)
    except ValueError as exc:
        raise ValueError(f"{key}: {exc}") from None
