"""The low-ink variant of a layout document, pure: light fills, dark text and icons, every string kept.

Home printers spend most of their ink on large dark areas (card backs, title bars, art). The variant
keeps what a player reads (every text, icon and line in its place) and only changes colours:
filled shapes and background patterns become light tints of their hue, light text and icons (set on
dark fills) become dark shades of theirs, and art is printed faded.
"""

from __future__ import annotations

import colorsys
from dataclasses import replace

from .document import Element, LayoutDoc, walk

VARIANT = "low-ink"
FILL_INK = 0.12  # a fill keeps this share of its distance from white
SHADE = 0.22  # lightness of the dark shade light text and icons are given
LIGHT = 0.6  # relative luminance above which a text or icon colour counts as light
ART_OPACITY = 0.35  # art is printed this strong over white
_SHAPES = ("rect", "ellipse", "polygon", "path")


def apply(doc: LayoutDoc) -> LayoutDoc:
    """Return the low-ink version of `doc`: same elements, same strings, lighter ink."""
    badges = {i for el in walk(doc.elements) if el.kind == "text" for i in el.props.get("over") or ()}
    return replace(doc, elements=tuple(_element(el, badges) for el in doc.elements))


def _element(el: Element, badges: set[str]) -> Element:
    props = dict(el.props)
    if el.kind in _SHAPES and isinstance(props.get("fill"), str):
        props["fill"] = tint(props["fill"])
    elif el.kind == "pattern" and isinstance(props.get("colour"), str):
        props["colour"] = tint(props["colour"])
    elif el.kind == "icon" and props.get("id") in badges and isinstance(props.get("colour"), str):
        props["colour"] = tint(props["colour"])  # an icon a text sits on is a fill: the text turns dark
    elif el.kind in ("text", "icon") and isinstance(props.get("colour"), str) and luminance(props["colour"]) > LIGHT:
        props["colour"] = shade(props["colour"])
    elif el.kind == "image":
        props["opacity"] = props.get("opacity", 1.0) * ART_OPACITY
    children = tuple(_element(child, badges) for child in el.children)
    return replace(el, props=props, children=children)


def _rgb(colour: str) -> tuple[float, float, float]:
    text = colour.lstrip("#")
    if len(text) == 3:
        text = "".join(ch * 2 for ch in text)
    return tuple(int(text[i : i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]


def _hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{round(max(0.0, min(1.0, v)) * 255):02x}" for v in rgb)


def luminance(colour: str) -> float:
    """Return the WCAG relative luminance of a #rgb or #rrggbb colour."""

    def linear(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(v) for v in _rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def tint(colour: str) -> str:
    """Return a light tint of `colour`: the same hue, most of the way to white."""
    if not colour.startswith("#"):
        return colour
    return _hex(tuple(1 - (1 - v) * FILL_INK for v in _rgb(colour)))  # type: ignore[arg-type]


def shade(colour: str) -> str:
    """Return a dark shade of `colour` (same hue), for text and icons that were light on a dark fill."""
    if not colour.startswith("#"):
        return colour
    h, _, s = colorsys.rgb_to_hls(*_rgb(colour))
    return _hex(colorsys.hls_to_rgb(h, SHADE, min(s, 0.6)))
