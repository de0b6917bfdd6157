"""Layout documents: the primitives a template renders for one face, checked and in millimetres."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Report
from ..source import schema, yamlsrc
from .icons import parse_path
from .units import to_mm, to_pt

_MM_KEYS = ("x", "y", "w", "h", "radius", "stroke_width", "cx", "cy", "rx", "ry", "dx", "dy")
_PT_KEYS = ("size", "min_size")  # font sizes, for text only
MIN_SCALE = 1e-5  # the least a path's viewbox may be scaled by (and 1/MIN_SCALE the most)
MAX_NUMBER = 1e9  # no number in a layout (length, angle, opacity, viewbox) is anywhere near this
MAX_LENGTH = 2000.0  # mm: larger than A0's long side; anything beyond is a runaway number
MAX_FONT_SIZE = 500.0  # pt
MIN_PATTERN_STEP = 0.5  # mm between a pattern's icons
MAX_PATTERN_ICONS = 10_000  # icons one pattern may draw (a poker back draws ~170)
MIN_DASH = 0.1  # mm: a dash pattern shorter than this is a grey line that takes a viewer ages to draw


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
        if el.children:  # most have none: no generator made for them
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
    from . import flow  # here: a rebuild of unchanged faces reads no layout text

    found = flow.read_items(text)
    data = found[0] if found else None
    if found is not None:
        doc = _reusing(found[0], found[1].get("elements"), template, face, size, text)
        if doc is not None:
            return doc
    if data is None:
        from ..source import yamlparse  # here: a document in the quick subset needs no PyYAML

        try:
            data = yamlparse.quick_load(text)
        except (yamlparse.YAMLError, RecursionError, ValueError, OverflowError):
            data = None
    # What a template rendered is as untrusted as a card file: an alias bomb or runaway nesting goes the
    # slow way, where the node and depth caps report it.
    if data is not None and _small(data) and schema.conforms("layout", data):
        doc = _build(data, template, face, size, yamlsrc.Source(template, text, data), Report())
        if doc is not None:
            return doc
    return _located(text, template, face, size, report)


_DEFERRED = Element("deferred", {}, "")  # stands for an element a probe leaves to be built for each face


def parse_probe(
    text: str, template: str, face: str, size: tuple[float, float], deferred: Callable[[Any], bool]
) -> tuple[LayoutDoc, dict[str, Any]] | None:
    """Parse a probe's document (generator.layout.programs) the quick way, checking every element but those
    `deferred` picks out (they hold slots: `replace_elements` builds them for each face); None on any trouble."""
    from . import flow  # here: a rebuild of unchanged faces reads no layout text

    found = flow.read_items(text)
    if found is None:
        return None
    data, items = found
    elements = data.get("elements")
    if not isinstance(elements, list):
        return None
    later = frozenset(i for i, item in enumerate(elements) if deferred(item))
    if any(_bad_number(v) for i in later for _, v in _numbers(elements[i], ())):  # its own numbers, checked once
        return None
    doc = _reusing(data, items.get("elements"), template, face, size, text, later)
    return (doc, data) if doc is not None else None


_CONVERTED = frozenset((*_MM_KEYS, *_PT_KEYS, "points", "dash", "viewbox", "d", "elements"))  # parse rewrites
_ELEMENT_KEYWORDS = frozenset({"description", "type", "additionalProperties", "required", "oneOf", "properties"})
_TEXT_KEYWORDS = frozenset({"description", "type", "minLength", "maxLength"})


@functools.cache
def free_check(kind: str, key: str) -> Callable[[Any], bool] | None:
    """Return a test equal to the layout schema's for the value of `key` in a `kind` element whose other keys
    pass it, when that test is so simple (text of some length that parse keeps as it is); else None.

    An element's value is checked by its own property's schema alone when nothing else in the element's
    definition looks at values: `oneOf` branches that only require keys, no conditionals.
    """
    definition = schema.contents("layout")["$defs"].get(kind)
    if key in _CONVERTED or not isinstance(definition, dict) or set(definition) - _ELEMENT_KEYWORDS:
        return None
    if any(set(branch) != {"required"} for branch in definition.get("oneOf", ())):
        return None
    rule = definition.get("properties", {}).get(key)
    if not isinstance(rule, dict) or set(rule) - _TEXT_KEYWORDS or rule.get("type") != "string":
        return None
    least, most = rule.get("minLength", 0), rule.get("maxLength", math.inf)
    return lambda value: type(value) is str and least <= len(value) <= most


def replace_elements(
    doc: LayoutDoc, template: str, face: str, data: dict[str, Any], items: dict[int, Any]
) -> LayoutDoc | None:
    """Return `doc` for another face with the top-level elements at the indices of `items` built from new data,
    checked as `parse` checks a new element, but for their numbers: those of a probe's deferred element are
    checked by `parse_probe`, a face's own by `bad_number`. None when one does not pass (a parse says why)."""
    elements = list(doc.elements)
    if items:
        top = {key: value for key, value in data.items() if key != "elements"}
        if not schema.conforms("layout", {**top, "elements": list(items.values())}):
            return None
        report = Report()
        source = yamlsrc.Source(template, "", data)
        for index, item in items.items():
            element = _element(index, item, ("elements",), source, report)
            if element is None or report.errors:
                return None
            elements[index] = element
    return LayoutDoc(template, face, doc.width, doc.height, doc.bleed, tuple(elements))


MAX_ELEMENTS = 4000  # the schema's limit on a document's elements (more: the full check says so)
_KNOWN: dict[tuple[str, int], tuple[Element, int, int]] = {}  # (item JSON, index) -> element, nodes, depth
_KNOWN_SIZE = 16_384  # elements remembered; past this the memory starts again


def _reusing(
    data: dict[str, Any],
    items: list[str] | None,
    template: str,
    face: str,
    size: tuple[float, float],
    text: str,
    later: frozenset[int] = frozenset(),
) -> LayoutDoc | None:
    """Build a document whose elements were mostly seen before, checking only the new ones; None when anything
    is new in a way that needs the full check (which then reports it).

    An element is the same whatever face it is on: the same JSON text at the same place in the list has the
    same checked, normalized Element. The document is checked as the full path checks it, element by element:
    the schema, the node and depth caps (aliases expanded), finite numbers within range.
    """
    elements = data.get("elements")
    if not isinstance(elements, list) or items is None or len(items) != len(elements) or len(items) > MAX_ELEMENTS:
        return None
    top = {key: value for key, value in data.items() if key != "elements"}
    nodes, depth = _extent(top, 0)
    nodes += 1  # the elements list itself
    built: list[Element | None] = []
    new: list[int] = []
    for index, item in enumerate(items):
        known = _KNOWN.get((item, index)) if index not in later else (_DEFERRED, *_extent(elements[index], 2))
        if known is None:
            new.append(index)
            built.append(None)
            item_nodes, item_depth = _extent(elements[index], 2)
        else:
            built.append(known[0])
            item_nodes, item_depth = known[1], known[2]
        nodes += item_nodes
        depth = max(depth, item_depth)
    if nodes > yamlsrc.MAX_NODES or depth > yamlsrc.MAX_DEPTH:
        return None
    if not schema.conforms("layout", {**top, "elements": [elements[i] for i in new]}):
        return None
    report = Report()
    source = yamlsrc.Source(template, text, data)
    checked = _build({**top, "elements": []}, template, face, size, source, report)
    if checked is None or any(_bad_number(v) for i in new for _, v in _numbers(elements[i], ())):
        return None
    if len(_KNOWN) + len(new) > _KNOWN_SIZE:
        _KNOWN.clear()
    for index in new:
        element = _element(index, elements[index], ("elements",), source, report)
        if element is None or report.errors:  # a length that does not parse, here or in a group's elements
            return None
        _KNOWN[(items[index], index)] = (element, *_extent(elements[index], 2))
        built[index] = element
    return LayoutDoc(template, face, checked.width, checked.height, checked.bleed, tuple(e for e in built if e))


def _extent(value: Any, depth: int) -> tuple[int, int]:
    """Return how many nodes `value` has and how deep it reaches from `depth`, as _small counts them."""
    count, deepest, stack = 0, depth, [(value, depth)]
    while stack:
        item, at = stack.pop()
        count += 1
        deepest = max(deepest, at)
        if count > yamlsrc.MAX_NODES:
            break
        if isinstance(item, dict):
            stack.extend((v, at + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, at + 1) for v in item)
    return count, deepest


def bad_number(value: Any) -> bool:
    """Return True for a number a layout may not hold (a parse reports it, L004)."""
    return type(value) in (int, float) and _bad_number(value)


def _bad_number(value: int | float) -> bool:
    """Return True for a number _build refuses (L004): not finite, or out of range."""
    return (isinstance(value, float) and not math.isfinite(value)) or abs(value) > MAX_NUMBER


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
    for where, value in _numbers(data, ()):
        if isinstance(value, float) and not math.isfinite(value):
            problem = f"must be a finite number, got {value}"
        elif abs(value) > MAX_NUMBER:
            problem = f"number out of range: at most {MAX_NUMBER:g} either way"
        else:
            continue
        report.error("L004", problem, path=yamlsrc.format_path(where), loc=source.loc(where))
    if len(report.errors) > before:
        return None
    if "size" in data:
        try:
            declared = (_length("size", data["size"][0], to_mm), _length("size", data["size"][1], to_mm))
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
        bleed = _length("bleed", data.get("bleed", 0), to_mm, 50.0)
    except ValueError as exc:
        report.error("L004", str(exc), path="bleed", loc=source.loc(("bleed",)))
        return None
    elements = _elements(data["elements"], ("elements",), source, report)
    if len(report.errors) > before:
        return None
    return LayoutDoc(template, face, width, height, bleed, elements)


def _elements(items: list[Any], path: tuple[Any, ...], source: yamlsrc.Source, report: Report) -> tuple[Element, ...]:
    return tuple(el for i, item in enumerate(items) if (el := _element(i, item, path, source, report)) is not None)


def _element(i: int, item: Any, path: tuple[Any, ...], source: yamlsrc.Source, report: Report) -> Element | None:
    """Normalize item `i` of the list at `path`; None (reported) when a length does not parse."""
    ((kind, props),) = item.items()
    where = path + (i, kind)
    try:
        normal = _normalize(kind, props)
    except ValueError as exc:
        report.error("L004", str(exc), path=yamlsrc.format_path(where), loc=source.loc(where))
        return None
    children = _elements(props["elements"], where + ("elements",), source, report) if kind == "group" else ()
    normal.pop("elements", None)
    return Element(kind, normal, yamlsrc.format_path(path + (i,)), children)


def _normalize(kind: str, props: dict[str, Any]) -> dict[str, Any]:
    """Convert every length to mm (font sizes to pt); raise ValueError naming the bad key."""
    out = dict(props)
    for key in _MM_KEYS + (("size",) if kind in ("icon", "pattern") else ()):
        if key in out:
            out[key] = _length(key, out[key], to_mm)
    if kind == "text":
        for key in _PT_KEYS:
            if key in out:
                out[key] = _length(key, out[key], to_pt, MAX_FONT_SIZE, "pt")
                if out[key] <= 0 and key == "size":
                    raise ValueError(f"size: a font size must be more than 0 pt, got {out[key]:g} pt")
    if "points" in out:
        out["points"] = [(_length("points", x, to_mm), _length("points", y, to_mm)) for x, y in out["points"]]
    if "dash" in out:
        out["dash"] = [_length("dash", d, to_mm) for d in out["dash"]]
        if min(out["dash"]) < 0 or sum(out["dash"]) < MIN_DASH:
            raise ValueError(f"dash: dashes and gaps must be ≥ 0 and add up to at least {MIN_DASH:g} mm")
    if "viewbox" in out and (out["viewbox"][2] <= 0 or out["viewbox"][3] <= 0):
        raise ValueError("viewbox: its width and height must be more than 0")
    if "viewbox" in out and not MIN_SCALE <= out.get("w", 1.0) / out["viewbox"][2] <= 1 / MIN_SCALE:
        # A PDF reader (and ReportLab) cannot scale by 1e131: the path would be nothing or everything.
        raise ValueError(f"viewbox: its width must be within {1 / MIN_SCALE:,.0f} times the element's width (w)")
    if kind == "pattern":
        _check_pattern(out)
    if kind == "path":
        _check_path(out)
    return out


def _check_path(p: dict[str, Any]) -> None:
    """A path is scaled by its width and drawn from its data: both must make sense before anything is drawn."""
    if p["w"] <= 0:
        raise ValueError(f"w: a path's width must be more than 0 mm, got {p['w']:g} mm")
    try:
        commands = parse_path(p["d"])
    except ValueError as exc:
        raise ValueError(f"d: {exc}") from None
    for command in commands:
        if any(not math.isfinite(v) or abs(v) > MAX_NUMBER for v in command[1:]):
            raise ValueError(f"d: path numbers must be finite and at most {MAX_NUMBER:g} either way")


def _check_pattern(p: dict[str, Any]) -> None:
    """A pattern's steps decide how many icons it draws: refuse steps that would draw a runaway number."""
    for key in ("dx", "dy"):
        if p[key] < MIN_PATTERN_STEP:
            raise ValueError(f"{key}: a pattern step must be at least {MIN_PATTERN_STEP:g} mm, got {p[key]:g} mm")
    if p["size"] <= 0:
        raise ValueError(f"size: a pattern's icons must be more than 0 mm, got {p['size']:g} mm")
    # As the renderer counts them: every row and column that reaches into the box, the icon size included.
    rows = (abs(p["h"]) + p["size"]) / p["dy"] + 3
    cols = (abs(p["w"]) + p["size"]) / p["dx"] + 3
    if rows * cols > MAX_PATTERN_ICONS:
        raise ValueError(
            f"the pattern would draw about {int(rows * cols)} icons; the limit is {MAX_PATTERN_ICONS} (make dx or dy larger)"
        )


def _length(
    key: str, value: Any, convert: Callable[[float | int | str], float], limit: float = MAX_LENGTH, unit: str = "mm"
) -> float:
    try:
        length = convert(value)
    except OverflowError:
        length = math.inf
    except ValueError as exc:
        raise ValueError(f"{key}: {exc}") from None
    if not math.isfinite(length) or abs(length) > limit:
        raise ValueError(f"{key}: {value!r} is out of range (at most {limit:g} {unit} either way)")
    return length


def _numbers(data: Any, path: tuple[str | int, ...]) -> Iterator[tuple[tuple[str | int, ...], int | float]]:
    """Yield (key path, value) for every number in a document (booleans aside)."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(data, path)]
    while stack:
        value, where = stack.pop()
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            yield where, value
        elif isinstance(value, dict):
            stack.extend((v, where + (k,)) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, where + (i,)) for i, v in enumerate(value))


def _small(data: Any) -> bool:
    """Return True when a parsed document stays within the loader's node and depth caps (aliases expanded)."""
    count, stack = 0, [(data, 0)]
    while stack:
        value, depth = stack.pop()
        count += 1
        if count > yamlsrc.MAX_NODES or depth > yamlsrc.MAX_DEPTH:
            return False
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
    return True
