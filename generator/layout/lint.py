"""Layout lint, pure geometry: elements outside the safe zone, unknown icons."""

from __future__ import annotations

import re
from collections.abc import Iterator

from .document import Element, LayoutDoc
from .icons import IconSet

SAFE = 3.0  # mm inside the trim that only bleed art may use (print-shop safe zone)


def bbox(el: Element) -> tuple[float, float, float, float] | None:
    """Return (left, top, right, bottom) of an element as declared, or None if it has no extent."""
    p = el.props
    if "points" in p:
        xs, ys = [x for x, _ in p["points"]], [y for _, y in p["points"]]
        return min(xs), min(ys), max(xs), max(ys)
    if el.kind == "ellipse":
        return p["cx"] - p["rx"], p["cy"] - p["ry"], p["cx"] + p["rx"], p["cy"] + p["ry"]
    if el.kind == "icon":
        return p["x"], p["y"], p["x"] + p["size"], p["y"] + p["size"]
    if "w" in p:
        return p["x"], p["y"], p["x"] + p["w"], p["y"] + p["h"]
    return None


def check(doc: LayoutDoc, icons: IconSet, safe: float = SAFE) -> Iterator[tuple[Element, str, str]]:
    """Yield (element, code, message) for each element that breaks a layout rule."""
    limit = (safe, safe, doc.width - safe, doc.height - safe)
    for el in doc.elements:
        box = bbox(el)
        if (
            box
            and not el.props.get("bleed")
            and (
                box[0] < limit[0] - 1e-6
                or box[1] < limit[1] - 1e-6
                or box[2] > limit[2] + 1e-6
                or box[3] > limit[3] + 1e-6
            )
        ):
            yield (
                el,
                "L101",
                (
                    f"{el.kind} reaches within {safe:g} mm of the trim "
                    f"(box {box[0]:.1f},{box[1]:.1f} to {box[2]:.1f},{box[3]:.1f} mm; "
                    f"safe zone {limit[0]:g},{limit[1]:g} to {limit[2]:g},{limit[3]:g} mm)"
                ),
            )
        yield from _icons(el, icons)


def _icons(el: Element, icons: IconSet) -> Iterator[tuple[Element, str, str]]:
    if el.kind == "icon" and icons.get(el.props["name"]) is None:
        yield el, "L012", f"unknown icon '{el.props['name']}'"
    if el.kind == "pattern" and icons.get(el.props["icon"]) is None:
        yield el, "L012", f"unknown icon '{el.props['icon']}'"
    if el.kind == "image" and el.props.get("glyph") and icons.get(el.props["glyph"]) is None:
        yield el, "L012", f"unknown glyph '{el.props['glyph']}' for the stand-in art"
    if el.kind == "text" and "rich" in el.props:
        for name in re.findall(r"<icon\s+([^>\s]+)\s*>", el.props["rich"]):
            if icons.get(name) is None:
                yield el, "L012", f"unknown icon '{name}' in text"
    for child in el.children:
        yield from _icons(child, icons)
