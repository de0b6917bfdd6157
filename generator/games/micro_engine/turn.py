"""A turn's frame: its start (Phase A follows), its end (the hand limit), and the next player's turn."""

from __future__ import annotations

from . import draw, patents, zones
from .board import Board
from .phase import AFTER_NOTHING, DRAW, HAND_LIMIT, OVER


def reset(board: Board) -> None:
    """Clear this turn's counters."""
    board.picks_left = 0
    board.deck_picks = 0
    board.actions_left = 0
    board.calibrations_played = 0
    board.kinds_played = 0
    board.actions_taken = 0
    board.used_this_turn = set()
    board.pay_left = 0
    board.discard_floor = 0
    board.pending = None
    board.last_paid = 0
    board.trigger_queue = []
    board.resolving = []
    board.after_effects = AFTER_NOTHING
    board.in_bonus = False
    board.limit_left = 0
    board.discard_left = 0


def start(board: Board) -> None:
    """Start the current player's turn: claims already true, then Phase A."""
    player = board.current
    rules = board.tables.rules
    reset(board)
    board.stats.turns[player] += 1
    board.actions_left = rules.actions
    patents.claim(board, player)  # "already true at the start of your turn"
    board.picks_left = rules.draw_picks + board.abilities[player].row_pick
    board.phase = DRAW
    if board.tables.travel:  # Travel mode: every draw comes from the deck, so there is nothing to decide
        for _ in range(rules.draw_picks):
            zones.draw_to_hand(board, player)
        board.picks_left = 0
    draw.maybe_end(board, player)


def end(board: Board) -> None:
    """End the current player's turn: claims, then discard down to the hand limit if over it."""
    player = board.current
    patents.claim(board, player)
    limit = board.tables.rules.hand_limit + board.abilities[player].hand_limit
    over = len(board.hands[player]) - limit
    if over > 0:
        board.stats.limit_hits[player] += 1
        board.phase = HAND_LIMIT
        board.limit_left = over
        board.discard_floor = 0
        return
    next_player(board)


def limit_choices(board: Board) -> list[int]:
    """Return the discards that bring the hand down toward the limit."""
    return zones.discard_choices(board, board.current, board.limit_left)


def discard_to_limit(board: Board, action: int) -> None:
    """Discard one card over the hand limit; the next player's turn starts after the last."""
    zones.discard_from_hand(board, board.current, action - board.tables.A_DISCARD)
    board.limit_left -= 1
    if board.limit_left == 0:
        next_player(board)


def next_player(board: Board) -> None:
    """Pass the turn clockwise, or end the game after the last round (every player had the same turns)."""
    board.turn += 1
    if board.turn >= board.num_players * board.tables.rounds:
        board.phase = OVER
        reset(board)
        return
    board.current = (board.first_player + board.turn) % board.num_players
    start(board)
