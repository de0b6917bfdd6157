"""Scoring: VP from Parts, Upgrades, Core, Patents, Licenses and End game effects; most VP, then longest chain."""

from __future__ import annotations

from . import tableau
from .board import Board
from .phase import OVER
from .tables import Q

NEIGHBORS = Q["neighbors"]


def breakdown(board: Board, player: int) -> dict[str, int]:
    """Return `player`'s VP by source: Parts, Upgrades, Core, Patents, Licenses, End game."""
    tables = board.tables
    itype, vp = tables.itype, tables.vp
    core = board.cores[player]
    chain = board.chains[player]
    hosts = board.hosts[player]
    end_game = 0
    sources = [(tables.T + core, 0)] if core >= 0 else []
    for host, upgrades in enumerate(hosts):
        if host:
            sources.append((itype[chain[host - 1]], host))
        sources.extend((itype[upgrade], host) for upgrade in upgrades)
    for card_type, host in sources:
        for each, quantity, types, every in tables.statics[card_type].end_game:
            if quantity == NEIGHBORS:
                n = tableau.neighbors(board, player, host)
            else:
                n = tableau.count(board, player, quantity, types)
            end_game += each * (n // every)
    return {
        "parts": sum(vp[itype[card]] for card in chain),
        "upgrades": sum(vp[itype[upgrade]] for upgrades in hosts for upgrade in upgrades),
        "core": vp[tables.T + core] if core >= 0 else 0,
        "patents": sum(
            tables.patent_vp[patent] for j, patent in enumerate(board.patents) if board.patent_owner[j] == player
        ),
        "licenses": tables.rules.license_vp * len(board.licenses[player]),
        "end_game": end_game,
    }


def scores(board: Board) -> list[int]:
    """Return every player's VP as it stands (final once the game is over)."""
    return [total(board, player) for player in range(board.num_players)]


def total(board: Board, player: int) -> int:
    """Return `player`'s VP: the sum of breakdown's sources, without naming them (search bots call it often)."""
    tables = board.tables
    itype, vp, statics = tables.itype, tables.vp, tables.statics
    core = board.cores[player]
    chain = board.chains[player]
    points = 0
    end_game = []
    if core >= 0:
        points += vp[tables.T + core]
        end_game.append((tables.T + core, 0))
    for host, upgrades in enumerate(board.hosts[player]):
        if host:
            card_type = itype[chain[host - 1]]
            points += vp[card_type]
            if statics[card_type].end_game:
                end_game.append((card_type, host))
        for upgrade in upgrades:
            card_type = itype[upgrade]
            points += vp[card_type]
            if statics[card_type].end_game:
                end_game.append((card_type, host))
    owner = board.patent_owner
    for j, patent in enumerate(board.patents):
        if owner[j] == player:
            points += tables.patent_vp[patent]
    points += tables.rules.license_vp * len(board.licenses[player])
    for card_type, host in end_game:
        for each, quantity, types, every in statics[card_type].end_game:
            if quantity == NEIGHBORS:
                n = tableau.neighbors(board, player, host)
            else:
                n = tableau.count(board, player, quantity, types)
            points += each * (n // every)
    return points


def winners(board: Board) -> list[int]:
    """Return the winners: most VP, then longest chain; still tied, a shared win."""
    vp = scores(board)
    keys = [(vp[player], len(board.chains[player])) for player in range(board.num_players)]
    best = max(keys)
    return [player for player in range(board.num_players) if keys[player] == best]


def returns(board: Board) -> list[float]:
    """Return win shares at the end (1/k for each of k tied winners), zeros before."""
    if board.phase != OVER:
        return [0.0] * board.num_players
    won = winners(board)
    return [1.0 / len(won) if player in won else 0.0 for player in range(board.num_players)]
