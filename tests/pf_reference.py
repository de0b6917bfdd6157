"""A deliberately naive Pocket Foundry, written straight from the rulebook, to test the fast engine against.

It keeps named dicts and lists, recomputes everything, and shares no code with the engine beyond the
card data: if both agree on every state of many random games, the compiled tables did nothing wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Player:
    store: dict[str, int]
    points: int = 0
    slots: list[str | None] = field(default_factory=lambda: [None, None, None])  # slots 2..4


class Reference:
    """The rules, one sentence at a time."""

    def __init__(self, model, players: int, first: int = 0):
        self.model = model
        rules = model.rules
        self.caps = {r.id: r.cap for r in rules.resources if r.cap is not None}
        self.score = next(r.id for r in rules.resources if r.cap is None)
        start = {r.id: r.start for r in rules.resources if r.cap is not None}
        self.players = [Player(dict(start), slots=[None] * (rules.slots - 1)) for _ in range(players)]
        self.by_id = {m.id: m for m in model.machines}
        self.deck = [m.id for m in model.machines for _ in range(m.copies)]  # order is chance's business
        self.market: list[str] = []
        self.discarded: list[str] = []
        self.first = first
        self.turn = 0

    def deal(self, machine_id: str) -> None:
        """Move one card of this type from the deck to the market."""
        self.deck.remove(machine_id)
        self.market.append(machine_id)

    def current(self) -> int:
        """The marked starting player of this lap acts first, then clockwise."""
        n = len(self.players)
        lap = self.turn // n
        return (self.first + lap + self.turn % n) % n

    def build(self, machine_id: str, slot: int) -> bool:
        """Pay the BUILD COST, install into slot 2..4, discard what was there; return True if a refill is owed."""
        p = self.players[self.current()]
        machine = self.by_id[machine_id]
        assert machine_id in self.market
        for rid, n in machine.build_cost:
            assert p.store[rid] >= n
            p.store[rid] -= n
        self.market.remove(machine_id)
        old = p.slots[slot - 2]
        if old is not None:
            self.discarded.append(old)  # for good: no refund, no reserve
        p.slots[slot - 2] = machine_id
        self.turn += 1
        return bool(self.deck)

    def run(self, chosen: set[int]) -> None:
        """Activate slot 1, then 2, 3, 4; pay in full before the reward; caps after each machine."""
        p = self.players[self.current()]
        row = [self.model.starter] + [self.by_id[m] if m else None for m in p.slots]
        for i, machine in enumerate(row, start=1):
            if i not in chosen:
                continue
            assert machine is not None, "an empty slot cannot run"
            for rid, n in machine.run.pay:
                assert p.store[rid] >= n, "no partial payment"
            for rid, n in machine.run.pay:
                p.store[rid] -= n
            for rid, n in machine.run.gain:
                if rid == self.score:
                    p.points += n
                else:
                    p.store[rid] += n
            for rid, cap in self.caps.items():
                p.store[rid] = min(p.store[rid], cap)  # excess is discarded at once
        self.turn += 1
