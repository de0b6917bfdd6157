"""Layout lint, pure geometry: the safe zone, unknown icons, and (see legibility) text that collides,
prints too small or lacks contrast on the traced face."""

from __future__ import annotations

import re
from collections.abc import Iterator

from .document import Element, LayoutDoc, walk
from .icons import IconSet
from .ink import Mark
from .legibility import Finding, collisions, contrasts, sizes
from .limits import DEFAULTS, SAFE, Thresholds


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


def check(
    doc: LayoutDoc,
    icons: IconSet,
    safe: float | None = SAFE,
    ink: list[Mark] | None = None,
    limits: Thresholds = DEFAULTS,
) -> Iterator[Finding]:
    """Yield every problem of a face: the safe zone (unless `safe` is None), unknown icons, and, when its
    traced `ink` is given, text that collides, prints below the minimum size or lacks contrast."""
    if safe is not None:
        yield from _safe_zone(doc, safe)
    for el in doc.elements:
        yield from _icons(el, icons)
    if ink is not None:
        yield from _references(doc)
        yield from collisions(ink)
        yield from sizes(ink, limits)
        yield from contrasts(ink, limits)


def _safe_zone(doc: LayoutDoc, safe: float) -> Iterator[Finding]:
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
            yield Finding(
                el,
                "L101",
                (
                    f"{el.name}: {el.kind} reaches within {safe:g} mm of the trim "
                    f"(box {box[0]:.1f},{box[1]:.1f} to {box[2]:.1f},{box[3]:.1f} mm; "
                    f"safe zone {limit[0]:g},{limit[1]:g} to {limit[2]:g},{limit[3]:g} mm)"
                ),
            )


def _icons(el: Element, icons: IconSet) -> Iterator[Finding]:
    if el.kind == "icon" and icons.get(el.props["name"]) is None:
        yield _unknown(el, f"unknown icon '{el.props['name']}'")
    if el.kind == "pattern" and icons.get(el.props["icon"]) is None:
        yield _unknown(el, f"unknown icon '{el.props['icon']}'")
    if el.kind == "image" and el.props.get("glyph") and icons.get(el.props["glyph"]) is None:
        yield _unknown(el, f"unknown glyph '{el.props['glyph']}' for the stand-in art")
    if el.kind == "text" and "<icon" in el.props.get("rich", ""):
        for name in re.findall(r"<icon\s+([^>\s]+)\s*>", el.props["rich"]):
            if icons.get(name) is None:
                yield _unknown(el, f"unknown icon '{name}' in text")
    for child in el.children:
        yield from _icons(child, icons)


def _unknown(el: Element, what: str) -> Finding:
    return Finding(el, "L012", f"{el.name}: {what}")


def _references(doc: LayoutDoc) -> Iterator[Finding]:
    """A text's `over` must name icons or images of the same face."""
    every = list(walk(doc.elements))
    targets = {el.props["id"]: el.kind for el in every if el.props.get("id")}
    for el in every:
        for name in el.props.get("over", ()):
            if targets.get(name) not in ("icon", "image"):
                what = f"is a {targets[name]}" if name in targets else "is not the id of any element on this face"
                yield Finding(
                    el,
                    "L013",
                    f"{el.name}: `over` names '{name}', which {what}",
                    hint="`over` lists the ids of the icons and images a text is meant to sit on",
                )
