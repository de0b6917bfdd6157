"""A deck's card size, read by one function so that the core's size parser can take over in one line."""

from __future__ import annotations

from typing import Any

POKER = (63.5, 88.9)


class SizeError(ValueError):
    """A size value that cannot be read."""

    def __init__(self, message: str, hint: str | None = None, key: str | None = None):
        super().__init__(message)
        self.message, self.hint, self.key = message, hint, key


def card_size(value: Any) -> tuple[float, float]:
    """Return the (w, h) in mm a deck's `size:` names (poker when it names none)."""
    if value is None or (isinstance(value, str) and value.strip().lower() == "poker"):
        return POKER
    raise SizeError(f"unknown card size {value!r}", hint="this build knows poker only")
