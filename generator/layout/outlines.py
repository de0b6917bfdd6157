"""Outlines as path commands, shared by icons from data and icons from SVG files."""

from __future__ import annotations

from typing import Any

Command = tuple[Any, ...]  # ("M", x, y) | ("L", x, y) | ("C", x1, y1, x2, y2, x, y) | ("Z",)
KAPPA = 0.5522847498  # control-point distance that makes four cubic curves a circle


def ellipse(cx: float, cy: float, rx: float, ry: float) -> tuple[Command, ...]:
    """Return an ellipse as four cubic curves."""
    kx, ky = rx * KAPPA, ry * KAPPA
    return (
        ("M", cx + rx, cy),
        ("C", cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry),
        ("C", cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy),
        ("C", cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry),
        ("C", cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy),
        ("Z",),
    )
