"""Cards moving between the deck, the discard pile, the Workshop Row and hands."""

from __future__ import annotations

from . import rng
from .board import Board


def draw_card(board: Board) -> int | None:
    """Return the top card of the deck, reshuffling the discard pile into a new deck if needed; None if both are empty."""
    if not board.deck:
        if not board.discard:
            board.stats.dry_draws += 1
            return None
        board.deck = board.discard
        board.discard = []
        rng.shuffle(board, board.deck)
        board.stats.reshuffles += 1
    return board.deck.pop()


def can_draw(board: Board) -> bool:
    """Return True while the deck or the discard pile holds a card."""
    return bool(board.deck or board.discard)


def draw_to_hand(board: Board, player: int) -> None:
    """Draw one card into `player`'s hand (nothing if deck and discard are both empty)."""
    card = draw_card(board)
    if card is not None:
        board.hands[player].append(card)
        if board.hand_patents:
            board.claims_stale = True


def refill_row(board: Board) -> None:
    """Refill the Workshop Row to its size from the deck."""
    size = board.tables.rules.row_size
    while len(board.row) < size:
        card = draw_card(board)
        if card is None:
            return
        board.row.append(card)


def take(board: Board, zone: list[int], card_type: int) -> int:
    """Remove and return a card of `card_type` from `zone`."""
    itype = board.tables.itype
    for k, card in enumerate(zone):
        if itype[card] == card_type:
            return zone.pop(k)
    raise AssertionError(f"no card of type {card_type}")


def take_from_hand(board: Board, player: int, card_type: int) -> int:
    """Remove a card of `card_type` from `player`'s hand, preferring one the others saw taken from the Row."""
    seen = board.seen_in_hand[player]
    if seen:
        itype = board.tables.itype
        for k, card in enumerate(seen):
            if itype[card] == card_type:
                seen.pop(k)
                board.hands[player].remove(card)
                return card
    return take(board, board.hands[player], card_type)


def discard_from_hand(board: Board, player: int, card_type: int) -> None:
    """Discard a card of `card_type` from `player`'s hand; later discards of this payment may not go lower."""
    board.discard.append(take_from_hand(board, player, card_type))
    board.discard_floor = card_type


def discard_choices(board: Board, player: int, left: int) -> list[int]:
    """Return the discard actions while `left` cards remain to discard: card types in non-decreasing order,
    so each set of discards is one path, never leaving too few cards to finish."""
    tables = board.tables
    types = sorted(tables.itype[card] for card in board.hands[player])
    actions = []
    last = -1
    floor = board.discard_floor
    for k, card_type in enumerate(types):
        if card_type != last and card_type >= floor and len(types) - k >= left:
            actions.append(tables.A_DISCARD + card_type)
        last = card_type
    return actions
