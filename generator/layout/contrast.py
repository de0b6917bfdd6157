"""Colour contrast as WCAG 2.x measures it: relative luminance, contrast ratio, and alpha over a backdrop; and
mixing two colours."""

from __future__ import annotations

import re
from functools import lru_cache

RGB = tuple[float, float, float]  # sRGB channels in 0..1


@lru_cache(maxsize=4096)
def rgb(colour: str) -> RGB:
    """Return the channels of a #rrggbb colour."""
    value = colour.lstrip("#")
    return (int(value[0:2], 16) / 255, int(value[2:4], 16) / 255, int(value[4:6], 16) / 255)


def hex_colour(channels: RGB) -> str:
    """Return channels as #rrggbb (rounded to the nearest 8-bit step)."""
    return "#" + "".join(f"{round(min(1.0, max(0.0, c)) * 255):02x}" for c in channels)


@lru_cache(maxsize=4096)
def luminance(channels: RGB) -> float:
    """Return WCAG relative luminance, 0 (black) to 1 (white)."""

    def linear(c: float) -> float:
        # WCAG 2.x prints 0.03928 here, sRGB 0.04045; no 8-bit value lies between them.
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(a: RGB, b: RGB) -> float:
    """Return the contrast ratio of two colours, 1 (none) to 21 (black on white); the order does not matter."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def over(top: RGB, bottom: RGB, opacity: float) -> RGB:
    """Return `top` painted at `opacity` over `bottom`, mixed as a PDF viewer mixes DeviceRGB."""
    return (
        top[0] * opacity + bottom[0] * (1 - opacity),
        top[1] * opacity + bottom[1] * (1 - opacity),
        top[2] * opacity + bottom[2] * (1 - opacity),
    )


def legible(colour: str, on: str = "#ffffff", minimum: float = 4.5) -> str:
    """Return `colour`, or the nearest shade of it (darker on a light backdrop, lighter on a dark one) whose
    contrast with `on` reaches `minimum`: card colours from the data stay readable as text or behind it."""
    base, backdrop = rgb(colour), rgb(on)
    toward = (0.0, 0.0, 0.0) if luminance(backdrop) > 0.18 else (1.0, 1.0, 1.0)
    for step in range(101):  # in 1 % steps, so the result is the least change that reads
        shade = rgb(hex_colour(over(toward, base, step / 100)))
        if ratio(shade, backdrop) >= minimum:
            return hex_colour(shade)
    return hex_colour(toward)


_HEX = re.compile(r"#[0-9a-fA-F]{6}")


def mix(a: str, b: str, t: float) -> str:
    """Blend colour `a` towards `b` by fraction `t` (both #rrggbb)."""
    for colour in (a, b):
        if not isinstance(colour, str) or not _HEX.fullmatch(colour):
            raise ValueError(f"{colour!r} is not a colour: colours are written #rrggbb, e.g. '#2a2622'")
    ca = [int(a[i : i + 2], 16) for i in (1, 3, 5)]
    cb = [int(b[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * float(t)):02x}" for x, y in zip(ca, cb))
