"""What players see and read: per-player observations, actions in words, the table as text."""

from __future__ import annotations

from typing import Any

from .board import Board
from .phase import CHOOSE_CORE, OVER
from .tables import Tables


def current_round(board: Board) -> int:
    """Return the current round, from 1."""
    return min(board.turn // board.num_players, board.tables.rounds - 1) + 1


def card_name(board: Board, card: int) -> str:
    """Return a Workshop card's name."""
    return board.tables.names[board.tables.itype[card]]


def tableau_view(board: Board, player: int) -> dict[str, Any]:
    """Return `player`'s Core, chain with Upgrades, and License count, by name."""
    tables = board.tables
    core = board.cores[player]
    hosts = board.hosts[player]
    return {
        "core": tables.names[tables.T + core] if core >= 0 else None,
        "core_upgrades": [card_name(board, u) for u in hosts[0]],
        "chain": [
            {"part": card_name(board, card), "upgrades": [card_name(board, u) for u in hosts[k + 1]]}
            for k, card in enumerate(board.chains[player])
        ],
        "licenses": len(board.licenses[player]),
    }


def observation(board: Board, player: int, current_player: int) -> dict[str, Any]:
    """Return what `player` may see: public zones, own hand, other hands only as sizes and Row picks."""
    tables = board.tables
    players = []
    for other in range(board.num_players):
        view = tableau_view(board, other)
        if board.phase == CHOOSE_CORE and other != player:
            view["core"] = None  # Cores are kept in secret until everyone has chosen
        if other == player:
            view["hand"] = sorted(card_name(board, card) for card in board.hands[other])
            offer = board.core_offers[other] if board.phase == CHOOSE_CORE else []
            view["offer"] = [tables.names[tables.T + core] for core in offer]
        else:
            view["hand_size"] = len(board.hands[other])
            view["known_in_hand"] = sorted(card_name(board, card) for card in board.seen_in_hand[other])
        players.append(view)
    obs: dict[str, Any] = {
        "player": player,
        "round": current_round(board),
        "rounds": tables.rounds,
        "turn": board.turn,
        "current": current_player,
        "phase": board.phase.label,
        "row": [card_name(board, card) for card in board.row],
        "deck_size": len(board.deck),
        "discard": [card_name(board, card) for card in board.discard],
        "patents": [
            {"name": tables.patent_names[k], "owner": board.patent_owner[j], "licensee": board.patent_licensee[j]}
            for j, k in enumerate(board.patents)
        ],
        "players": players,
    }
    if player == board.current and board.phase != OVER:
        obs["turn_state"] = {
            "actions": board.actions_left,
            "calibrations": board.calibrations_played,
            "picks": board.picks_left,
            "to_pay": board.pay_left,
            "to_discard": board.limit_left or board.discard_left,
        }
    return obs


def describe(tables: Tables, action: int) -> str:
    """Return an action in words, e.g. `play Part Boiler`."""
    names = tables.names
    if action < tables.A_ROW:
        return f"keep Core {names[tables.T + action]}"
    if action < tables.A_DECK:
        return f"take {names[action - tables.A_ROW]} from the Row"
    if action == tables.A_DECK:
        return "take the top card of the deck"
    if action < tables.A_UPG:
        return f"play Part {names[action - tables.A_PART]}"
    if action < tables.A_CAL:
        card_type, host = divmod(action - tables.A_UPG, tables.max_hosts)
        return f"play Upgrade {names[card_type]} under {'the Core' if host == 0 else f'Part {host}'}"
    if action < tables.A_RESEARCH:
        return f"play Calibration {names[action - tables.A_CAL]}"
    if action == tables.A_RESEARCH:
        return "Research"
    if action == tables.A_END:
        return "end the turn"
    if action == tables.A_SKIP:
        return "skip the Bonus Upgrade"
    if action < tables.A_ORDER:
        return f"discard {names[action - tables.A_DISCARD]}"
    return f"resolve trigger {action - tables.A_ORDER + 1} first"


def text(board: Board) -> str:
    """Return the table in a few lines: round, phase, zones, and each player's Core, chain and hand size."""
    lines = [
        f"round {current_round(board)}/{board.tables.rounds} turn {board.turn} P{board.current + 1} "
        f"{board.phase.label} deck {len(board.deck)} discard {len(board.discard)}",
        "row: " + ", ".join(card_name(board, card) for card in board.row),
    ]
    for player in range(board.num_players):
        view = tableau_view(board, player)
        chain = " → ".join(
            c["part"] + (f" [{', '.join(c['upgrades'])}]" if c["upgrades"] else "") for c in view["chain"]
        )
        lines.append(f"P{player + 1} {view['core']} | {chain} | hand {len(board.hands[player])}")
    return "\n".join(lines)
