"""A player's cards in play, summed and counted: abilities, conditions, Costs, the chain's Output, free slots."""

from __future__ import annotations

from .board import Abilities, Board, Counts
from .tables import UPGRADE, CompiledCondition, Q

CHAIN_LENGTH = Q["chain_length"]
PARTS = Q["parts"]
TYPES = Q["types"]
UPGRADES = Q["upgrades"]
LOADED = Q["loaded"]
TOP_VP = Q["top_vp"]
HAND = Q["hand"]
PATENTS = Q["patents"]
CLAIMS = Q["claims"]
ACTIONS = Q["actions"]


def rebuild(board: Board, player: int) -> None:
    """Sum the ongoing, once-per-turn and triggered effects of `player`'s Core, Parts and Upgrades."""
    board.legal_cache = None
    tables = board.tables
    abilities = Abilities.none()
    core = board.cores[player]
    sources = [(tables.n_inst + core, tables.T + core, 0)] if core >= 0 else []
    for host, upgrades in enumerate(board.hosts[player]):
        if host:
            card = board.chains[player][host - 1]
            sources.append((card, tables.itype[card], host))
        for upgrade in upgrades:
            sources.append((upgrade, tables.itype[upgrade], host))
    for source, card_type, host in sources:
        st = tables.statics[card_type]
        abilities.cost.extend(st.cost)
        abilities.once_cost.extend((source * 4 + i, kind, types, by) for i, kind, types, by in st.perm_cost)
        abilities.once_any_input.extend(source * 4 + i for i in st.perm_any)
        abilities.research += st.research
        abilities.row_pick += st.row_pick
        abilities.hand_limit += st.hand_limit
        if st.open_end and card_type < tables.T and tables.kind[card_type] == UPGRADE:
            abilities.open_hosts.add(host)
        for i, once, event, types, min_cost, ops in st.triggers:
            owner = source if source < tables.n_inst else -2
            abilities.triggers.append((source * 4 + i, once, event, types, min_cost, ops, owner))
    board.abilities[player] = abilities


def recount(board: Board, player: int) -> None:
    """Recount `player`'s tableau: chain length, Parts per type, types, Upgrades, most under a Part, best VP."""
    board.legal_cache = None
    tables = board.tables
    itype, outbit, vp = tables.itype, tables.outbit, tables.vp
    by_type = [0] * len(tables.conn)
    top = 0
    for card in board.chains[player]:
        card_type = itype[card]
        by_type[tables.bitindex[outbit[card_type]]] += 1
        if vp[card_type] > top:
            top = vp[card_type]
    hosts = board.hosts[player]
    board.counts[player] = Counts(
        len(board.chains[player]),
        tuple(by_type),
        sum(1 for c in by_type if c),
        sum(len(h) for h in hosts),
        max((len(h) for h in hosts[1:]), default=0),
        top,
    )


def count(board: Board, player: int, quantity: int, types: int) -> int:
    """Return one quantity (tables.Q) for `player`; `types` is the typemask it counts Parts of."""
    counts = board.counts[player]
    if quantity == CHAIN_LENGTH or quantity == PARTS and types == board.tables.ALL:
        return counts.chain_length
    if quantity == PARTS:
        by_type = counts.parts_by_type
        return sum(by_type[i] for i in board.tables.bits_of[types])
    if quantity == UPGRADES:
        return counts.upgrades
    if quantity == TYPES:
        return counts.types
    if quantity == LOADED:
        return counts.loaded
    if quantity == TOP_VP:
        return counts.top_vp
    if quantity == HAND:
        return len(board.hands[player])
    if quantity == PATENTS:
        return sum(1 for o in board.patent_owner if o == player)
    if quantity == CLAIMS:
        return sum(1 for o in board.patent_owner if o == player) + len(board.licenses[player])
    if quantity == ACTIONS:
        return board.actions_taken if player == board.current else 0
    raise AssertionError(f"quantity {quantity} needs a host")


def meets(board: Board, player: int, condition: CompiledCondition) -> bool:
    """Return True if `player` meets a compiled condition (a Requirement or a Patent's)."""
    tests, played = condition
    if played and (player != board.current or board.kinds_played & played != played):
        return False
    counts = board.counts[player]
    for quantity, types, at_least in tests:
        if quantity == CHAIN_LENGTH or quantity == PARTS and types == board.tables.ALL:
            have = counts.chain_length
        elif quantity == PARTS:
            by_type = counts.parts_by_type
            have = sum(by_type[i] for i in board.tables.bits_of[types])
        elif quantity == UPGRADES:
            have = counts.upgrades
        elif quantity == TYPES:
            have = counts.types
        elif quantity == LOADED:
            have = counts.loaded
        elif quantity == TOP_VP:
            have = counts.top_vp
        else:
            have = count(board, player, quantity, types)
        if have < at_least:
            return False
    return True


def requirement_met(board: Board, player: int, card_type: int) -> bool:
    """Return True if `card_type` has no Requirement or `player` meets it now."""
    requirement = board.tables.req[card_type]
    return requirement is None or meets(board, player, requirement)


def chain_output(board: Board, player: int) -> int:
    """Return the typemask the next Part's Input must match: the rightmost Part's Output, or universal."""
    chain = board.chains[player]
    tables = board.tables
    if not chain:
        return tables.ALL  # the Core's Output is universal
    if len(chain) in board.abilities[player].open_hosts:
        return tables.ALL
    return tables.outbit[tables.itype[chain[-1]]]


def can_attach(board: Board, player: int, card_type: int) -> bool:
    """Return True if Part `card_type` can attach to the right end of `player`'s chain now."""
    return bool(board.tables.inmask[card_type] & chain_output(board, player)) or any_input(board, player)


def any_input(board: Board, player: int) -> bool:
    """Return True if `player`'s next Part may have any Input now (a waiting "next Part" or an unused once-per-turn permission)."""
    if board.next_any_input[player]:
        return True
    return any(key not in board.used_this_turn for key in board.abilities[player].once_any_input)


def free_hosts(board: Board, player: int) -> list[int]:
    """Return the hosts with a free Upgrade slot: 0 for the Core, i for the i-th Part."""
    tables = board.tables
    hosts = board.hosts[player]
    out = [0] if len(hosts[0]) < tables.core_slots else []
    itype = tables.itype
    slots = tables.slots
    for i, card in enumerate(board.chains[player]):
        if len(hosts[i + 1]) < slots[itype[card]]:
            out.append(i + 1)
    return out


def neighbors(board: Board, player: int, host: int) -> int:
    """Return how many Parts sit directly left and right of `host` (0 = Core, i = i-th Part)."""
    length = len(board.chains[player])
    if host == 0:
        return 1 if length else 0
    return (1 if host > 1 else 0) + (1 if host < length else 0)


def cost_of(board: Board, player: int, card_type: int, consume: bool = False) -> int:
    """Return what `card_type` costs `player` now: printed, then flat changes, floored at 0.
    `consume` uses up the "next card" and once-per-turn reductions that apply."""
    tables = board.tables
    abilities = board.abilities[player]
    waiting = board.next_cost[player]
    if not (abilities.cost or waiting or abilities.once_cost):
        return tables.cost[card_type]  # nothing changes costs: the printed Cost
    kind = tables.kind[card_type]
    outbit = tables.outbit[card_type]
    cost = tables.cost[card_type]
    for of, types, by in abilities.cost:
        if of == kind and (types == tables.ALL or outbit & types):
            cost += by
    if waiting:
        keep = []
        for entry in waiting:
            of, types, by = entry
            if of == kind and (types == tables.ALL or outbit & types):
                cost += by
            elif consume:
                keep.append(entry)
        if consume:
            board.next_cost[player] = keep
    for key, of, types, by in abilities.once_cost:
        if key not in board.used_this_turn and of == kind and (types == tables.ALL or outbit & types) and cost > 0:
            cost += by
            if consume:
                board.used_this_turn.add(key)
    return cost if cost > 0 else 0
