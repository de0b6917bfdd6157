"""Pack a run of cards onto sheets of one grid, pure: a deck starts where the last one ended, and cards
whose backs differ never share a cut line.

Where cards above and below each other have different backs, a gutter of GUTTER mm opens between their
rows (each card bleeds into its half, so a miscut of up to MISCUT mm shows only its own back) and the crop
marks double there. Side by side, different backs never meet: the slot is left empty and the card goes in
the next one (a column gutter would take the side margin the marks and the footer need, and A4's 3 × 3
poker grid leaves 1.5 mm for it). Nor does a row gutter open when the sheet has no room left for it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from .sheets import EPSILON, GUTTER, Fill, Sheet, spare


def pack(sheet: Sheet, backs: Sequence[Hashable]) -> list[Fill]:
    """Return a Fill per sheet holding the cards in order (one back key each), as few sheets as the gutters allow."""
    if sheet.gutter >= GUTTER:  # every card apart already: none shares a cut line
        return [Fill.first(len(backs[i : i + sheet.per_sheet])) for i in range(0, len(backs), sheet.per_sheet)]
    _, room = spare(sheet)
    most_rows = int(room / GUTTER + EPSILON)
    fills: list[Fill] = []
    card = 0
    while card < len(backs):
        grid: dict[int, Hashable] = {}
        rows: set[int] = set()  # the gutters the cards placed so far need (never a column: see below)
        for slot in range(sheet.per_sheet):
            if card == len(backs):
                break
            row, beside = _meets(grid, slot, backs[card], sheet.cols)
            needed = rows if row is None else rows | {row}
            if not beside and len(needed) <= most_rows:
                grid[slot] = backs[card]
                rows = needed
                card += 1
            # else no room for the gutter this card would need here: the slot stays empty
        fills.append(_fill(grid, sheet))
    return fills


def _meets(grid: dict[int, Hashable], slot: int, key: Hashable, cols: int) -> tuple[int | None, bool]:
    """Return what `_gutters` would add for a card put in `slot` after every slot before it: the row above
    when a card there (above or at a corner) has another back (else None), and whether the card on its left
    has one. Slots fill in order, so no card lies below or to the right yet."""
    r, c = divmod(slot, cols)
    left = grid.get(slot - 1) if c > 0 else None
    if left is not None and left != key:
        return None, True
    for dc in (-1, 0, 1):
        if 0 <= c + dc < cols:
            above = grid.get(slot - cols + dc) if r > 0 else None
            if above is not None and above != key:
                return r - 1, False
    return None, False


def _gutters(grid: dict[int, Hashable], cols: int) -> tuple[set[int], set[int]]:
    """Return the rows after which a gutter must open (cards above and below, or meeting at a corner, whose
    backs differ) and the columns where different backs meet side by side."""
    rows_after: set[int] = set()
    cols_after: set[int] = set()
    for slot, key in grid.items():
        r, c = divmod(slot, cols)
        right = grid.get(slot + 1) if c + 1 < cols else None
        if right is not None and right != key:
            cols_after.add(c)
        for dc in (-1, 0, 1):
            if 0 <= c + dc < cols:
                below = grid.get(slot + cols + dc)
                if below is not None and below != key:
                    rows_after.add(r)
    return rows_after, cols_after


def _fill(grid: dict[int, Hashable], sheet: Sheet) -> Fill:
    """Return the Fill of a packed sheet: its slots in card order and the gutters it needs."""
    rows, _ = _gutters(grid, sheet.cols)
    if not rows:
        return Fill(tuple(grid))
    return Fill(tuple(grid), tuple(GUTTER if r in rows else 0.0 for r in range(sheet.rows - 1)))


__all__ = ["pack"]
