"""Fitting an image into an art box, as pure geometry: where it goes and how sharp it prints."""

from __future__ import annotations

from dataclasses import dataclass

MM_PER_INCH = 25.4


@dataclass(frozen=True)
class Fit:
    """Where the whole image is drawn (mm, may reach past the box, which clips it) and its resolution."""

    x: float
    y: float
    w: float
    h: float
    dpi: tuple[float, float]  # image pixels per inch of paper, across and down

    @property
    def min_dpi(self) -> float:
        """Return the lower of the two resolutions: the one that shows."""
        return min(self.dpi)


def fit(
    pixels: tuple[int, int],
    box: tuple[float, float, float, float],
    mode: str = "cover",
    focus: tuple[float, float] = (0.5, 0.5),
) -> Fit:
    """Fit an image of `pixels` into `box` (x, y, w, h in mm).

    cover fills the box and crops what sticks out; contain shows the whole image inside the box;
    stretch fills the box exactly, distorting the image. `focus` is the point of the image (as
    fractions of its width and height) to keep in view: it is centred in the box as far as the
    image's edges allow, so (0.5, 0.5) centres the image and (0, 0) pins its top-left corner.
    """
    x, y, w, h = box
    pw, ph = max(pixels[0], 1), max(pixels[1], 1)
    if mode == "stretch":
        dw, dh = w, h
    else:
        scale = (max if mode == "cover" else min)(w / pw, h / ph)  # mm per pixel
        dw, dh = pw * scale, ph * scale
    left = x + _offset(w, dw, focus[0])
    top = y + _offset(h, dh, focus[1])
    return Fit(left, top, dw, dh, (pw / (dw / MM_PER_INCH), ph / (dh / MM_PER_INCH)))


def _offset(box: float, drawn: float, focus: float) -> float:
    """Put the focus at the middle of the box, clamped so the image never uncovers (or leaves) it."""
    wanted = box / 2 - focus * drawn
    low, high = sorted((0.0, box - drawn))
    return min(max(wanted, low), high)


def pixels_for(box_mm: tuple[float, float], dpi: float) -> tuple[int, int]:
    """Return the pixel size an image needs to fill a box at `dpi` (rounded up)."""
    import math

    return tuple(math.ceil(v / MM_PER_INCH * dpi - 1e-9) for v in box_mm)  # type: ignore[return-value]
