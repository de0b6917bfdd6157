"""Layout documents: the primitives a template renders for one face, checked and in millimetres."""

from __future__ import annotations

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


def walk(elements: tuple[Element, ...]):
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
        data = _quick_load(text)
    except yaml.YAMLError:
        data = None
    if data is not None and schema.conforms("layout", data):
        doc = _build(data, template, face, size, yamlsrc.Source(template, text, data), Report())
        if doc is not None:
            return doc
    return _located(text, template, face, size, report)


_SAFE = yaml.SafeLoader("")  # only its scalar constructors are used, never its stream
_SCALAR_TAGS = frozenset(
    f"tag:yaml.org,2002:{kind}" for kind in ("null", "bool", "int", "float", "binary", "timestamp", "str")
)
_STR = "tag:yaml.org,2002:str"


class _Unusual(Exception):
    """The document uses a YAML feature the quick builder leaves to PyYAML's own constructor."""


def _quick_load(text: str) -> Any:
    """Return what `yaml.load(text, Loader=LOADER)` returns, building plain data from the composed nodes
    directly: PyYAML's generic constructor costs more than libyaml's parsing for the many small documents
    a kit renders. Anything unusual (merge keys, other tags, self-reference) goes the standard way."""
    node = yaml.compose(text, Loader=yamlsrc.LOADER)
    if node is None:
        return None
    try:
        return _build_node(node, {})
    except (_Unusual, TypeError, RecursionError):
        return yaml.load(text, Loader=yamlsrc.LOADER)


def _build_node(node: yaml.Node, made: dict[int, Any]) -> Any:
    """Build one node; `made` shares the value of a node reached again through an alias, as PyYAML does."""
    if id(node) in made:
        if made[id(node)] is _BUILDING:
            raise _Unusual("a collection that contains itself")
        return made[id(node)]
    if isinstance(node, yaml.ScalarNode):
        if node.tag == _STR:
            return node.value
        if node.tag not in _SCALAR_TAGS:
            raise _Unusual(node.tag)
        value = _SAFE.yaml_constructors[node.tag](_SAFE, node)
    elif isinstance(node, yaml.SequenceNode):
        if node.tag != "tag:yaml.org,2002:seq":
            raise _Unusual(node.tag)
        made[id(node)] = _BUILDING
        value = [_build_node(item, made) for item in node.value]
    else:
        if node.tag != "tag:yaml.org,2002:map":
            raise _Unusual(node.tag)
        made[id(node)] = _BUILDING
        value = {}
        for key_node, value_node in node.value:
            if key_node.tag in ("tag:yaml.org,2002:merge", "tag:yaml.org,2002:value"):
                raise _Unusual(key_node.tag)
            value[_build_node(key_node, made)] = _build_node(value_node, made)
    made[id(node)] = value
    return value


_BUILDING = object()


def _located(text: str, template: str, face: str, size: tuple[float, float], report: Report) -> LayoutDoc | None:
    """Parse keeping positions, so that every problem is reported where it is."""
    before = len(report.errors)
    source = yamlsrc.load_text(text, f"{template} [{face}]", report)
    if len(report.errors) > before or not schema.check(source, "layout", report, code_prefix="L"):
        return None
    return _build(source.data, template, face, size, source, report)


def _build(
    data: dict, template: str, face: str, size: tuple[float, float], source: yamlsrc.Source, report: Report
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


def _elements(items: list, path: tuple, source: yamlsrc.Source, report: Report) -> tuple[Element, ...]:
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


def _normalize(kind: str, props: dict) -> dict:
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


def _length(key: str, value: Any, convert) -> float:
    try:
        return convert(value)
    except ValueError as exc:
        raise ValueError(f"{key}: {exc}") from None
