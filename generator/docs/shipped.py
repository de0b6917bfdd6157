"""Which plugins the manual describes: the ones cardpress ships, whatever else is installed beside it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from ..registry import Named, Registration

T = TypeVar("T", bound=Named)


def shipped(registrations: Iterable[Registration[T]]) -> list[Registration[T]]:
    """Return the registrations whose plugin lives in cardpress's own package (a third-party one is not ours to list)."""
    return [r for r in registrations if r.origin.startswith("generator.")]
