"""Lengths in layout documents: bare numbers are millimetres; strings may carry mm, cm, in or pt."""

from __future__ import annotations

import re

MM_PER = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72}
PT_PER_MM = 72 / 25.4
_LENGTH = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+))\s*(mm|cm|in|pt)?\s*$")


def to_mm(value: float | int | str, default_unit: str = "mm") -> float:
    """Return a length in millimetres; raise ValueError for text that is not a length."""
    if isinstance(value, bool):
        raise ValueError(f"expected a length, got {value!r}")
    if isinstance(value, (int, float)):
        return float(value) * MM_PER[default_unit]
    match = _LENGTH.match(str(value))
    if not match:
        raise ValueError(f"'{value}' is not a length (write e.g. 3, '3mm', '0.25in' or '9pt')")
    return float(match.group(1)) * MM_PER[match.group(2) or default_unit]


def to_pt(value: float | int | str) -> float:
    """Return a font size in points; bare numbers are already points."""
    return to_mm(value, default_unit="pt") * PT_PER_MM
