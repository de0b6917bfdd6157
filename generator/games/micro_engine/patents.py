"""Patents and Licenses: claimed automatically, and only ever on the claimant's own turn."""

from __future__ import annotations

from . import tableau, zones
from .board import Board
from .phase import OVER


def claim(board: Board, player: int) -> None:
    """Claim every Patent (or License) `player` now qualifies for; only ever called on `player`'s turn."""
    board.claims_stale = False
    tables = board.tables
    owner, licensee = board.patent_owner, board.patent_licensee
    again = True
    while again:  # a claim can complete a condition that counts claims
        again = False
        for j, patent in enumerate(board.patents):
            o = owner[j]
            if o >= 0 and (o == player or licensee[j] >= 0 or not tables.licenses or licensee[j] == player):
                continue  # taken, or one claim per Patent per player
            if not tableau.meets(board, player, tables.patent_cond[patent]):
                continue
            again = True
            if o < 0:
                owner[j] = player
                board.stats.claims.append((board.turn, player, patent, False))
            else:
                licensee[j] = player
                card = zones.draw_card(board)  # the top Workshop card, face down, as the License
                board.licenses[player].append(card if card is not None else -1)
                board.stats.claims.append((board.turn, player, patent, True))


def claim_if_changed(board: Board) -> None:
    """After a decision: claim for whoever's turn it now is, if a tableau or a watched hand changed."""
    if board.claims_stale and board.phase != OVER:
        claim(board, board.current)
