"""Stand-in art for a missing image: the card's glyph as a quiet pattern and a medallion, in vector."""

from __future__ import annotations

from typing import Any

from ..layout.contrast import mix
from ..layout.document import Element

WHITE = "#ffffff"
PAPER = "#fffdf8"
GREY = "#7a7a7a"


def elements(el: Element, framed: bool = True) -> tuple[Element, ...]:
    """Return the primitives that fill an image element's box when its art is missing.

    Deterministic: the same box, glyph and colour always give the same drawing. `framed` adds a
    dashed inner frame, so a proof shows at a glance which art is still a stand-in.
    """
    p = el.props
    x, y, w, h = p["x"], p["y"], p["w"], p["h"]
    colour = p.get("colour", GREY)
    glyph = p.get("glyph")
    radius = p.get("radius", 0)
    short = min(w, h)
    out = [_el("rect", x=x, y=y, w=w, h=h, fill=mix(colour, WHITE, 0.82), radius=radius)]
    if glyph:
        out.append(
            _el(
                "pattern",
                icon=glyph,
                x=x,
                y=y,
                w=w,
                h=h,
                size=short * 0.17,
                dx=short * 0.32,
                dy=short * 0.3,
                stagger=True,
                colour=mix(colour, WHITE, 0.6),
            )
        )
    else:
        step = short / 6
        lines = tuple(
            _el(
                "line",
                points=[(i * step, 0.0), (i * step - h, h)],
                stroke=mix(colour, WHITE, 0.6),
                stroke_width=short * 0.03,
            )
            for i in range(1, int((w + h) / step) + 1)
        )
        out.append(Element("group", {"x": x, "y": y, "w": w, "h": h, "clip": True}, "placeholder", lines))
    r = short * 0.39
    out.append(_el("ellipse", cx=x + w / 2, cy=y + h / 2, rx=r, ry=r, fill=PAPER))
    if glyph:
        out.append(
            _el("icon", name=glyph, x=x + w / 2 - r * 0.71, y=y + h / 2 - r * 0.71, size=r * 1.42, colour=colour)
        )
    if framed:
        inset = min(1.2, short * 0.06)
        out.append(
            _el(
                "rect",
                x=x + inset,
                y=y + inset,
                w=w - 2 * inset,
                h=h - 2 * inset,
                radius=max(radius - inset, 0),
                stroke=mix(colour, WHITE, 0.35),
                stroke_width=0.3,
                dash=[1.2, 0.9],
            )
        )
    return tuple(out)


def _el(kind: str, **props: Any) -> Element:
    return Element(kind, props, "placeholder")


def artwork(w: float, h: float, glyph: str | None, colour: str | None) -> tuple[Element, ...]:
    """Return finished-looking stand-in art for a w × h box: the glyph as a drawing on a blueprint.

    This is what `cardpress art --make-missing` rasterizes into files, so a kit looks complete
    before real art exists; the dashed-frame stand-in above is what a missing file draws.
    """
    colour = colour or GREY
    # Light tints: home printers pay for every dark square millimetre, and the card's name band,
    # not its art, should be the strongest colour on the face.
    ground, fine, bold = mix(colour, WHITE, 0.84), mix(colour, WHITE, 0.7), mix(colour, WHITE, 0.52)
    cx, cy, short = w / 2, h / 2, min(w, h)
    out = [_el("rect", x=0, y=0, w=w, h=h, fill=ground)]
    step = short / 12  # grid lines centred on the box, every fifth one stronger
    for axis, length, across in (("x", w, h), ("y", h, w)):
        count = int(length / 2 / step) + 1
        for i in range(-count, count + 1):
            at = (cx if axis == "x" else cy) + i * step
            if 0 < at < length:
                points = [(at, 0.0), (at, across)] if axis == "x" else [(0.0, at), (across, at)]
                strong = i % 5 == 0
                out.append(
                    _el(
                        "line",
                        points=points,
                        stroke=bold if strong else fine,
                        stroke_width=short * (0.008 if strong else 0.004),
                    )
                )
    r = short * 0.42
    out.append(
        _el(
            "ellipse",
            cx=cx,
            cy=cy,
            rx=r,
            ry=r,
            stroke=bold,
            stroke_width=short * 0.01,
            dash=[short * 0.03, short * 0.02],
        )
    )
    for sign in (-1, 1):  # dimension ticks either side, as on a drawing
        x = cx + sign * r * 1.45
        out.append(_el("line", points=[(x, cy - r * 0.6), (x, cy + r * 0.6)], stroke=bold, stroke_width=short * 0.01))
        for dy in (-0.6, 0.6):
            out.append(
                _el(
                    "line",
                    points=[(x - short * 0.03, cy + r * dy), (x + short * 0.03, cy + r * dy)],
                    stroke=bold,
                    stroke_width=short * 0.01,
                )
            )
    if glyph:
        size = r * 1.5
        shadow = short * 0.025
        out.append(
            _el(
                "icon",
                name=glyph,
                x=cx - size / 2 + shadow,
                y=cy - size / 2 + shadow,
                size=size,
                colour=mix(colour, WHITE, 0.55),
            )
        )
        out.append(_el("icon", name=glyph, x=cx - size / 2, y=cy - size / 2, size=size, colour=colour))
    return tuple(out)
