"""How an RGB colour prints in process inks: the one CMYK separation press files use, and what prints on K alone.

The separation is a formula, not a colour profile, so a press file is the same bytes on every machine:
greys go to black ink alone, other colours get full grey-component replacement (K carries the darkness,
C, M and Y only the hue) and C, M and Y are scaled down wherever the four would pass MAX_INK. Text and
thin rules in a near-black colour print on K alone (`sharp`): one plate cannot misregister.
"""

from __future__ import annotations

import math

MAX_INK = 2.4  # total area coverage DriveThruCards accepts (240 %)
NEAR_BLACK_MAX = 0.3  # a colour whose lightest channel is at most this, and
NEAR_BLACK_CHROMA = 0.12  # whose channels differ by at most this, is near black: K only for text and rules
VISIBLE_INK = 0.15  # a tint below 15 % hardly shows a misregistered edge: it does not count as a plate a text prints on

CMYK = tuple[float, float, float, float]


def separate(r: float, g: float, b: float) -> CMYK:
    """Return the CMYK (0–1 each) an RGB colour (0–1 each) prints as: K only for greys, total ink capped."""
    if abs(r - g) < 1e-3 and abs(g - b) < 1e-3:
        return (0.0, 0.0, 0.0, round(1 - r, 4))
    k = 1 - max(r, g, b)
    c, m, y = ((1 - v - k) / (1 - k) for v in (r, g, b))
    c, m, y, k = capped(c, m, y, k)
    # CMY round down, so rounding never takes the total past the cap
    return (math.floor(c * 1e4) / 1e4, math.floor(m * 1e4) / 1e4, math.floor(y * 1e4) / 1e4, round(k, 4))


def capped(c: float, m: float, y: float, k: float) -> CMYK:
    """Return the colour with C, M and Y scaled down so the four inks add up to at most MAX_INK."""
    total = c + m + y + k
    if total <= MAX_INK or c + m + y == 0:
        return c, m, y, k
    scale = max(MAX_INK - k, 0) / (c + m + y)
    return c * scale, m * scale, y * scale, k


def near_black(r: float, g: float, b: float) -> bool:
    """Return True for a colour dark and neutral enough that text and rules in it should print on K alone."""
    return max(r, g, b) <= NEAR_BLACK_MAX and max(r, g, b) - min(r, g, b) <= NEAR_BLACK_CHROMA


def sharp(r: float, g: float, b: float) -> CMYK:
    """Return how text or a thin rule in this colour prints: K alone when near black, else `separate`."""
    if not near_black(r, g, b):
        return separate(r, g, b)
    luma = 0.2126 * r + 0.7152 * g + 0.0722 * b  # Rec. 709: the darkness the eye sees
    return (0.0, 0.0, 0.0, round(1 - luma, 4))


def plates(r: float, g: float, b: float) -> list[str]:
    """Return the inks ('C', 'M', 'Y', 'K') that text in this colour prints on, each at least VISIBLE_INK."""
    return [name for name, value in zip("CMYK", sharp(r, g, b)) if value >= VISIBLE_INK]
