"""Dead ends: positions from which no player can ever build again, so the market and every row are frozen.

Only a build changes the market or a row. If nobody can afford any face-up card from any purse their own
row can ever reach by running (as often as they like, with any skips), nobody will ever build again, the
market never refills, and the rest of the game is each player running a fixed row. The test ignores how
many turns are left, so it flags positions that are stuck by the cards, not merely out of time.
"""

from __future__ import annotations

from .engine import State
from .tables import Tables


class DeadEnds:
    """Reachability of purses under a fixed row, cached per (row, purse)."""

    def __init__(self, tables: Tables):
        self.t = tables
        self._reach: dict[int, int] = {}
        self._afford: dict[int, int] = {}
        self._scores: dict[int, bool] = {}

    def reachable(self, row: int, res: int) -> int:
        """Return the purses reachable from `res` by running `row` any number of times (bit per purse)."""
        key = row * self.t.n_res + res
        found = self._reach.get(key)
        if found is None:
            found = self._reach[key] = self.t.closure(self.t.row_machines(row), 1 << res)
        return found

    def affordable(self, market_mask: int) -> int:
        """Return the purses that can pay for at least one type shown in the market (bit per purse)."""
        found = self._afford.get(market_mask)
        if found is None:
            found = 0
            for m, mask in enumerate(self.t.afford_masks):
                if market_mask >> m & 1:
                    found |= mask
            self._afford[market_mask] = found
        return found

    def can_ever_build(self, row: int, res: int, market_mask: int) -> bool:
        """Return True if this player can some day afford a card shown now."""
        return bool(self.reachable(row, res) & self.affordable(market_mask))

    def can_ever_score(self, row: int, res: int) -> bool:
        """Return True if running this row can still earn points from some reachable purse."""
        key = row * self.t.n_res + res
        found = self._scores.get(key)
        if found is None:
            reach = self.reachable(row, res)
            found = any(
                pts > 0 for code in range(self.t.n_res) if reach >> code & 1 for _, _, pts in self.t.runs(row, code)
            )
            self._scores[key] = found
        return found

    def is_dead_end(self, state: State) -> bool:
        """Return True when no player can ever build again."""
        mask = state.market_mask
        if not mask:
            return True
        p = state.cur
        if p >= 0 and state.game.builds(mask, state.res[p]):
            return False  # the player to act can build right now
        return not any(self.can_ever_build(state.row[p], state.res[p], mask) for p in range(state.num_players))

    def anyone_scores(self, state: State) -> bool:
        """Return True when some player can still earn points (with the rows frozen)."""
        return any(self.can_ever_score(state.row[p], state.res[p]) for p in range(state.num_players))


def dead_ends_for(tables: Tables) -> DeadEnds:
    """Return the DeadEnds shared by everything using these tables, so its caches outlive one game."""
    return tables.shared("dead-ends", lambda: DeadEnds(tables))
