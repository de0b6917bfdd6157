"""Compile the card model into flat tables the engine reads in its hot loop."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .model import Condition, Effect, MicroEngine, Op, Quantity, given
from .vocab import place

PART, UPGRADE, CALIBRATION, RESEARCH = 0, 1, 2, 3
KIND_CODE = {"part": PART, "upgrade": UPGRADE, "calibration": CALIBRATION, "research": RESEARCH}

# Quantities, as small ints.
Q = {
    name: i
    for i, name in enumerate(
        (
            "chain_length",
            "parts",
            "types",
            "upgrades",
            "loaded",
            "top_vp",
            "hand",
            "patents",
            "claims",
            "actions",
            "neighbors",
        )
    )
}
# Compiled ops: (code, a, b, c).
DRAW, ACTION, DISCARD, NEXT_COST, NEXT_ANY = range(5)
OP_CODE = {"draw": DRAW, "action": ACTION, "discard": DISCARD, "next_cost": NEXT_COST, "next_any_input": NEXT_ANY}
CompiledOp = tuple[int, int, int, int]  # (code, a, b, c)
# ((quantity, typemask, at least), ...) and the kinds-played bitmask
CompiledCondition = tuple[tuple[tuple[int, int, int], ...], int]
# (effect key offset, once per turn, event, typemask, min cost, ops)
Trigger = tuple[int, bool, int, int, int, tuple[CompiledOp, ...]]


@dataclass(frozen=True)
class Statics:
    """One source's always-on effects, gathered so the engine can sum a player's tableau quickly."""

    cost: tuple[tuple[int, int, int], ...] = ()  # (kind, typemask, by)
    perm_cost: tuple[tuple[int, int, int, int], ...] = ()  # (effect key offset, kind, typemask, by): once per turn
    perm_any: tuple[int, ...] = ()  # effect key offsets of once-per-turn "any Input" permissions
    research: int = 0
    row_pick: int = 0
    hand_limit: int = 0
    open_end: bool = False
    triggers: tuple[Trigger, ...] = ()  # (effect key offset, once, event, typemask, min_cost, ops)
    end_game: tuple[tuple[int, int, int, int], ...] = ()  # (each, quantity, typemask, every)


class Tables:
    """Flat per-type tables for one card set, player count and variant."""

    def __init__(self, game: MicroEngine, players: int, quick: bool = False, travel: bool = False):
        if players not in game.players:
            raise ValueError(f"{game.title} is for {', '.join(map(str, game.players))} players, not {players}")
        self.game = game
        self.players = players
        self.quick = quick
        self.travel = travel
        r = game.rules
        self.rules = r
        self.rounds = game.rounds(quick)
        self.licenses = players >= r.license_min_players
        self.conn = [c.id for c in game.connections]
        self.ALL = (1 << len(self.conn)) - 1
        self.bitindex = {1 << i: i for i in range(len(self.conn))}
        self.bits_of = [tuple(i for i in range(len(self.conn)) if m >> i & 1) for m in range(self.ALL + 1)]
        cards = game.cards
        self.T = len(cards)
        self.C = len(game.cores)
        self.names = [c.name for c in cards] + [c.name for c in game.cores]
        self.ids = [c.id for c in cards] + [c.id for c in game.cores]
        self.kind = [KIND_CODE[c.kind] for c in cards]
        self.cost = [c.cost for c in cards]
        self.vp = [c.vp for c in cards] + [c.vp for c in game.cores]
        self.inmask = [self.mask(c.inputs) for c in cards]
        self.outbit = [self.bit(c.output) if c.output else 0 for c in cards]
        self.slots = [c.slots for c in cards]
        self.core_slots = r.core_slots
        self.req = [self.condition(c.requires) if c.requires else None for c in cards]
        self.played = [self.played_ops(c.effects) for c in cards]
        self.statics = [self.gather(c.effects) for c in cards] + [self.gather(c.effects) for c in game.cores]
        self.has_statics = [bool(s != Statics()) for s in self.statics]
        # Every physical Workshop card is an instance with a type.
        self.itype = [t for t, c in enumerate(cards) for _ in range(c.copies)]
        self.n_inst = len(self.itype)
        removed = set(r.travel_removes) if travel else set()
        self.core_pool = [i for i, c in enumerate(game.cores) if c.id not in removed]
        self.patent_cond = [self.condition(p.condition) for p in game.patents]
        # Patents whose condition counts cards in hand: only these make a draw worth a claims check.
        self.patent_hand = [any(q == Q["hand"] for q, _, _ in cond[0]) for cond in self.patent_cond]
        self.patent_vp = [p.vp for p in game.patents]
        self.patent_names = [p.name for p in game.patents]
        self.max_hosts = 1 + sum(c.copies for c in cards if c.kind == "part")
        # Action ids: contiguous blocks, in this order.
        T, H = self.T, self.max_hosts
        self.A_CORE = 0
        self.A_ROW = self.A_CORE + self.C
        self.A_DECK = self.A_ROW + T
        self.A_PART = self.A_DECK + 1
        self.A_UPG = self.A_PART + T
        self.A_CAL = self.A_UPG + T * H
        self.A_RESEARCH = self.A_CAL + T
        self.A_END = self.A_RESEARCH + 1
        self.A_SKIP = self.A_END + 1
        self.A_DISCARD = self.A_SKIP + 1
        self.A_ORDER = self.A_DISCARD + T
        self.num_actions = self.A_ORDER + 8

    def bit(self, conn: str) -> int:
        """Return the bit of one connection type."""
        return 1 << self.conn.index(conn)

    def mask(self, conns: Iterable[str]) -> int:
        """Return the bitmask of several connection types."""
        m = 0
        for c in conns:
            m |= self.bit(c)
        return m

    def quantity(self, q: Quantity) -> tuple[int, int]:
        """Return (quantity code, typemask)."""
        return Q[q.name], (self.bit(q.type) if q.type else self.ALL)

    def condition(self, cond: Condition) -> CompiledCondition:
        """Return ((quantity, typemask, at least), ...) and the kinds-played bitmask."""
        tests = tuple((*self.quantity(t.quantity), t.at_least) for t in cond.tests)
        played = 0
        for k in cond.played_this_turn:
            played |= 1 << KIND_CODE[k]
        return tests, played

    def played_ops(self, effects: tuple[Effect, ...]) -> tuple[CompiledOp, ...]:
        """Return the ops of the When played effects, compiled, in printed order."""
        ops = []
        for e in effects:
            if e.when == "played":
                ops += [self.op(o) for o in e.ops]
        return tuple(ops)

    def op(self, o: Op) -> CompiledOp:
        """Compile one resolvable op."""
        code = OP_CODE[o.name]
        if code == NEXT_COST:
            return (code, KIND_CODE[given(o.of)], self.bit(o.type) if o.type else self.ALL, o.by)
        return (code, o.n, 0, 0)

    def gather(self, effects: tuple[Effect, ...]) -> Statics:
        """Collect a source's ongoing, once-per-turn and End game effects."""
        cost, perm_cost, perm_any, triggers, end = [], [], [], [], []
        research = row = limit = 0
        open_end = False
        for i, e in enumerate(effects):
            where = place(e.when, e.trigger)
            if where == "trigger":
                tm = self.bit(e.if_type) if e.if_type else self.ALL
                ops = tuple(self.op(o) for o in e.ops)
                triggers.append(
                    (i, e.when == "once_per_turn", KIND_CODE[given(e.trigger)], tm, e.if_min_cost or 0, ops)
                )
            for o in e.ops:
                tm = self.bit(o.type) if o.type else self.ALL
                if where == "static":
                    if o.name == "cost":
                        cost.append((KIND_CODE[given(o.of)], tm, o.by))
                    elif o.name == "research":
                        research += o.n
                    elif o.name == "row_pick":
                        row += o.n
                    elif o.name == "hand_limit":
                        limit += o.n
                    elif o.name == "open_end":
                        open_end = True
                elif where == "permission":
                    if o.name == "cost":
                        perm_cost.append((i, KIND_CODE[given(o.of)], tm, o.by))
                    elif o.name == "any_input":
                        perm_any.append(i)
                elif where == "end_game":
                    q, qm = self.quantity(given(o.per))
                    end.append((o.n, q, qm, o.every))
        return Statics(
            tuple(cost), tuple(perm_cost), tuple(perm_any), research, row, limit, open_end, tuple(triggers), tuple(end)
        )
