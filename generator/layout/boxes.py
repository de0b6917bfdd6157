"""Axis-aligned boxes in face millimetres: intersection, union and containment."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Box:
    """A box from (left, top) to (right, bottom), y pointing down."""

    left: float
    top: float
    right: float
    bottom: float

    @property
    def width(self) -> float:
        """Return the width (never negative)."""
        return max(0.0, self.right - self.left)

    @property
    def height(self) -> float:
        """Return the height (never negative)."""
        return max(0.0, self.bottom - self.top)

    @property
    def area(self) -> float:
        """Return width × height."""
        return self.width * self.height

    def intersection(self, other: Box) -> Box | None:
        """Return the box both cover, or None when they do not overlap by a positive area."""
        # max() and min() written out (the lint asks this thousands of times a face): each keeps its first
        # argument unless the second is strictly greater (smaller), as they do
        left = other.left if other.left > self.left else self.left
        right = other.right if other.right < self.right else self.right
        if right <= left:
            return None
        top = other.top if other.top > self.top else self.top
        bottom = other.bottom if other.bottom < self.bottom else self.bottom
        if bottom <= top:
            return None
        return Box(left, top, right, bottom)

    def overlaps(self, other: Box) -> bool:
        """Return True when `intersection` would return a box (without making it)."""
        left = other.left if other.left > self.left else self.left
        right = other.right if other.right < self.right else self.right
        if right <= left:
            return False
        top = other.top if other.top > self.top else self.top
        return not (other.bottom if other.bottom < self.bottom else self.bottom) <= top

    def contains(self, x: float, y: float) -> bool:
        """Return True when the point lies inside the box or on its edge."""
        return self.left <= x <= self.right and self.top <= y <= self.bottom

    def grown(self, margin: float) -> Box:
        """Return the box with `margin` added on every side."""
        return Box(self.left - margin, self.top - margin, self.right + margin, self.bottom + margin)


def union(boxes: Iterable[Box]) -> Box:
    """Return the smallest box holding every box given (at least one)."""
    items = iter(boxes)
    first = next(items, None)
    if first is None:
        raise ValueError("union() of no boxes")
    left, top, right, bottom = first.left, first.top, first.right, first.bottom
    for b in items:  # min() and max() written out: each keeps the first of equal values, as they do
        if b.left < left:
            left = b.left
        if b.top < top:
            top = b.top
        if b.right > right:
            right = b.right
        if b.bottom > bottom:
            bottom = b.bottom
    return Box(left, top, right, bottom)


def around(points: Iterable[tuple[float, float]]) -> Box:
    """Return the smallest box holding every point given (at least one)."""
    xs, ys = zip(*points, strict=True)
    return Box(min(xs), min(ys), max(xs), max(ys))
