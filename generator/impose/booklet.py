"""Booklet imposition: which page goes where on each folded sheet, for printing double-sided and folding in half.

A booklet of n pages (padded with blanks to a multiple of four) prints on n/4 sheets, two pages a side; the
sheets are nested and folded in the middle (saddle-stitch order, as the `imposer` crate documents it:
https://docs.rs/crate/imposer/0.2.0/source/README.md, "8 pages: Front [8, 1] Back [2, 7] / [6, 3] [4, 5]"). Sheet k (0 = outermost) has, seen landscape with the fold upright: on its front, page n − 2k on
the left and page 2k + 1 on the right; on its back, page 2k + 2 on the left and page n − 2k − 1 on the right.

The kit prints portrait pages, so a sheet side is a portrait page holding both booklet pages turned a quarter:
`slots` says, for each side, which page goes in its top and bottom half and which way it turns, so that after a
long- or short-edge duplex flip and a turn to landscape every page reads upright in booklet order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..kit import Kit

LONG, SHORT = "long", "short"


@dataclass(frozen=True)
class Slot:
    """One booklet page on a portrait sheet side: its 0-based page (None: blank), half, and quarter turn."""

    page: int | None
    half: str  # "top" or "bottom" of the portrait side
    turn: int  # +90: the page's top faces the side's left edge; -90: its right edge


def folds(kit: Kit, duplex: str) -> bool:
    """Return True when the kit prints its rules as a folded booklet (it needs both sides of the paper)."""
    return kit.rules is not None and kit.rules.booklet and duplex != "gutterfold"


def padded(pages: int) -> int:
    """Return the booklet's page count: `pages` rounded up to a multiple of four (at least four)."""
    return max(4, -(-pages // 4) * 4)


def order(pages: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Return, per sheet, ((front left, front right), (back left, back right)) as 1-based booklet pages."""
    n = padded(pages)
    return [((n - 2 * k, 2 * k + 1), (2 * k + 2, n - 2 * k - 1)) for k in range(n // 4)]


def slots(pages: int, duplex: str = LONG) -> list[tuple[Slot, Slot]]:
    """Return every portrait sheet side in print order (sheet 1 front, sheet 1 back, …), each as (top, bottom).

    Pages past `pages` (the padding) are None. Turned to landscape clockwise, a front shows its bottom half on
    the left; the back, after a long-edge flip, shows its top half on the left and reads the other way up.
    """
    out: list[tuple[Slot, Slot]] = []

    def page(number: int) -> int | None:
        return number - 1 if number <= pages else None

    for (front_left, front_right), (back_left, back_right) in order(pages):
        out.append((Slot(page(front_right), "top", 90), Slot(page(front_left), "bottom", 90)))
        if duplex == SHORT:
            out.append((Slot(page(back_right), "top", 90), Slot(page(back_left), "bottom", 90)))
        else:
            out.append((Slot(page(back_left), "top", -90), Slot(page(back_right), "bottom", -90)))
    return out
