"""Setup: the opening chance node deals Patents, the Row and Cores; each player keeps a Core; hands are dealt."""

from __future__ import annotations

from . import rng, tableau, turn, zones
from .board import Board
from .phase import CHOOSE_CORE


def deal(board: Board, seed: int) -> None:
    """Setup 1–5 for `seed`: Patents, Row, Core offers and the first player (hands come once Cores are kept)."""
    tables = board.tables
    board.history.append(seed)
    board.rng = rng.seeded(seed)
    rules = tables.rules
    players = tables.players
    patents = list(range(len(tables.patent_cond)))
    rng.shuffle(board, patents)
    board.patents = patents[: players + rules.extra_patents]
    board.hand_patents = any(tables.patent_hand[k] for k in board.patents)
    board.patent_owner = [-1] * len(board.patents)
    board.patent_licensee = [-1] * len(board.patents)
    board.deck = list(range(tables.n_inst))
    rng.shuffle(board, board.deck)
    if not tables.travel:
        zones.refill_row(board)
    pool = list(tables.core_pool)
    rng.shuffle(board, pool)
    dealt = rules.cores_dealt
    board.core_offers = [pool[i * dealt : (i + 1) * dealt] for i in range(players)]
    board.first_player = rng.below(board, players)
    board.phase = CHOOSE_CORE
    board.cores_kept = 0
    board.current = 0


def core_choices(board: Board) -> list[int]:
    """Return the keep-a-Core actions of the player choosing."""
    return sorted(board.tables.A_CORE + core for core in board.core_offers[board.current])


def keep_core(board: Board, action: int) -> None:
    """Keep a Core; once every player has one, deal the hands (Setup 4) and start the first turn."""
    player = board.current
    board.cores[player] = action - board.tables.A_CORE
    tableau.rebuild(board, player)
    board.cores_kept += 1
    if board.cores_kept < board.num_players:
        board.current = board.cores_kept
        return
    for other in range(board.num_players):
        for _ in range(board.tables.rules.starting_hand):
            zones.draw_to_hand(board, other)
    board.turn = 0
    board.current = board.first_player
    turn.start(board)
