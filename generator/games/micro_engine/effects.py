"""Effects: triggers fire into a queue that resolves fully, stopping only for a choice (a discard, or the order)."""

from __future__ import annotations

from . import draw, patents, play, zones
from .board import Board
from .phase import AFTER_DRAW, AFTER_NOTHING, EFFECT_DISCARD, TRIGGER_ORDER
from .tables import ACTION, DISCARD, DRAW, NEXT_ANY, NEXT_COST, RESEARCH


def fire(board: Board, player: int, event: int, card: int, paid: int) -> None:
    """Queue the triggers of `player`'s cards in play that fire on `event` (a card never triggers itself)."""
    tables = board.tables
    if event == RESEARCH:
        board.after_effects = RESEARCH
        board.trigger_queue = []
    outbit = tables.outbit[tables.itype[card]] if card >= 0 else 0
    used = board.used_this_turn
    for key, once, trigger_event, types, min_cost, ops, source in board.abilities[player].triggers:
        if trigger_event != event or source == card:
            continue
        if types != tables.ALL and not outbit & types:
            continue
        if min_cost and paid < min_cost:
            continue
        if once:
            if key in used:
                continue
            used.add(key)
        board.trigger_queue.append(list(ops))


def resolve(board: Board, player: int) -> None:
    """Resolve queued effects fully ("Resolve each effect fully before continuing"), stopping only for a choice."""
    while True:
        while board.resolving:
            code, a, b, c = board.resolving.pop(0)
            if code == DRAW:
                for _ in range(a):
                    zones.draw_to_hand(board, player)
            elif code == ACTION:
                board.actions_left += a
            elif code == NEXT_COST:
                board.next_cost[player].append((a, b, c))
            elif code == NEXT_ANY:
                board.next_any_input[player] = True
            elif code == DISCARD and board.hands[player]:
                board.phase = EFFECT_DISCARD
                board.discard_left = min(a, len(board.hands[player]))
                board.discard_floor = 0
                return
        queue = board.trigger_queue
        if not queue:
            break
        if len(queue) > 1 and any(op[0] == DISCARD for group in queue for op in group):
            board.phase = TRIGGER_ORDER  # "you choose the order" matters only when a discard is involved
            return
        board.resolving = queue.pop(0)
    if board.after_effects == AFTER_DRAW:
        board.after_effects = AFTER_NOTHING
        draw.end(board)
    else:
        play.after_card(board, player)


def order_choices(board: Board) -> list[int]:
    """Return which queued group of effects to resolve first."""
    return [board.tables.A_ORDER + k for k in range(len(board.trigger_queue))]


def choose_order(board: Board, action: int) -> None:
    """Resolve the chosen group first, then the rest."""
    board.resolving = list(board.trigger_queue.pop(action - board.tables.A_ORDER))
    resolve(board, board.current)
    patents.claim_if_changed(board)


def discard_choices(board: Board) -> list[int]:
    """Return the discards an effect asks for."""
    return zones.discard_choices(board, board.current, board.discard_left)


def discard(board: Board, action: int) -> None:
    """Discard one card for an effect; resolution goes on after the last (or when the hand is empty)."""
    player = board.current
    zones.discard_from_hand(board, player, action - board.tables.A_DISCARD)
    board.discard_left -= 1
    if board.discard_left == 0 or not board.hands[player]:
        resolve(board, player)
    patents.claim_if_changed(board)
