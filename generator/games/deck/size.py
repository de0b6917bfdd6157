"""A deck's card size, read by one function: the core's size parser where it exists, poker and mini otherwise."""

from __future__ import annotations

from typing import Any

try:  # generator.sizes (every preset, custom mm/in sizes, landscape) is landing on main from another branch
    from ...sizes import SizeError
    from ...sizes import parse_size as _parse
except ImportError:  # pragma: no cover - until then, the two sizes Hedgerow needs
    _parse = None

    class SizeError(ValueError):  # type: ignore[no-redef]
        """A size value that cannot be read."""

        def __init__(self, message: str, hint: str | None = None, key: str | None = None):
            super().__init__(message)
            self.message, self.hint, self.key = message, hint, key


POKER = (63.5, 88.9)
_KNOWN = {"poker": POKER, "mini-american": (44.45, 63.5)}


def card_size(value: Any):
    """Return the trim size a deck's `size:` names (poker when it names none); raise SizeError if it names none."""
    if value is None:
        value = "poker"
    if _parse is not None:
        return _parse(value)
    if isinstance(value, str) and value.strip().lower() in _KNOWN:
        return _KNOWN[value.strip().lower()]
    raise SizeError(f"unknown card size '{value}'", hint=f"sizes: {', '.join(_KNOWN)}")
