"""A deck's card size, read by one function so that the core's size parser can take over in one line."""

from __future__ import annotations

from typing import Any

POKER = (63.5, 88.9)
_KNOWN = {"poker": POKER, "mini-american": (44.45, 63.5)}  # until the core's size parser lands


class SizeError(ValueError):
    """A size value that cannot be read."""

    def __init__(self, message: str, hint: str | None = None, key: str | None = None):
        super().__init__(message)
        self.message, self.hint, self.key = message, hint, key


def card_size(value: Any) -> tuple[float, float]:
    """Return the (w, h) in mm a deck's `size:` names (poker when it names none)."""
    if value is None:
        return POKER
    if isinstance(value, str) and value.strip().lower() in _KNOWN:
        return _KNOWN[value.strip().lower()]
    raise SizeError(f"unknown card size {value!r}", hint=f"sizes: {', '.join(_KNOWN)}")
