"""Phase A, Draw: take 2 cards from the Workshop Row and/or the deck; refill the Row after both picks."""

from __future__ import annotations

from . import patents, zones
from .board import Board
from .phase import AFTER_DRAW, EFFECT_DISCARD, PLAY


def choices(board: Board) -> list[int]:
    """Return the picks: a Row card by type, or the top of the deck (at most `draw_picks` from the deck)."""
    tables = board.tables
    actions = sorted({tables.A_ROW + tables.itype[card] for card in board.row})
    if board.deck_picks < tables.rules.draw_picks and zones.can_draw(board):
        actions.append(tables.A_DECK)
    return actions


def pick(board: Board, action: int) -> None:
    """Take one card: from the deck (hidden) or from the Row (the others see it)."""
    tables = board.tables
    player = board.current
    if action == tables.A_DECK:
        board.deck_picks += 1
        zones.draw_to_hand(board, player)
    else:
        card = zones.take(board, board.row, action - tables.A_ROW)
        board.hands[player].append(card)
        board.seen_in_hand[player].append(card)
        if board.hand_patents:
            board.claims_stale = True
    board.picks_left -= 1
    maybe_end(board, player)
    patents.claim_if_changed(board)


def maybe_end(board: Board, player: int) -> None:
    """End Phase A once the picks are taken (or none is possible); an extra Row pick is paid back first."""
    rules = board.tables.rules
    deck_ok = board.deck_picks < rules.draw_picks and zones.can_draw(board)
    if board.picks_left > 0 and (board.row or deck_ok):
        return
    taken = rules.draw_picks + board.abilities[player].row_pick - board.picks_left
    extra = taken - rules.draw_picks
    if extra > 0 and board.hands[player]:  # Row Organizer: "take 1 extra card …, then discard 1 card"
        board.phase = EFFECT_DISCARD
        board.discard_left = min(extra, len(board.hands[player]))
        board.discard_floor = 0
        board.after_effects = AFTER_DRAW
        board.picks_left = 0
        return
    end(board)


def end(board: Board) -> None:
    """Refill the Row ("at the end of this phase, not between your two picks") and start Phase B."""
    if not board.tables.travel:
        zones.refill_row(board)
    board.phase = PLAY
