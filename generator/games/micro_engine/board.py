"""The table and the turn's counters: every zone and number a Micro-Engine game keeps (the phases act on it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, NamedTuple, Self

from .phase import AFTER_NOTHING, Phase
from .tables import Tables

Op = tuple[int, int, int, int]  # a compiled effect op: (code, a, b, c), see tables.OP_CODE
# A triggered effect in play: (effect key, once per turn, event kind, typemask, minimum Cost paid, ops, source
# card, or -2 for the Core). An effect key is source * 4 + the effect's index on its card.
Trigger = tuple[int, bool, int, int, int, tuple[Op, ...], int]
CostChange = tuple[int, int, int]  # (card kind, typemask, by)


class Link(IntEnum):
    """How a Part attached to the right end of its chain (kept per Part for the invariants and the report)."""

    FIRST = 0  # the first Part, on the Core's universal Output
    PRINTED = 1  # its Input matches the printed Output of the Part before it
    OPEN_END = 2  # through an open-end Upgrade under the Part before it
    ANY_INPUT = 3  # an "any Input" effect made the connection


@dataclass(slots=True)
class Abilities:
    """A player's ongoing and once-per-turn effects, summed over Core, Parts and Upgrades (rebuilt, never edited)."""

    cost: list[CostChange]  # flat Cost changes, always on
    once_cost: list[tuple[int, int, int, int]]  # (effect key, kind, typemask, by): once per turn
    once_any_input: list[int]  # effect keys of once-per-turn "any Input" permissions
    research: int  # extra cards each Research draws
    row_pick: int  # extra Row picks in Phase A
    hand_limit: int  # change to the hand limit
    open_hosts: set[int]  # hosts holding an open-end Upgrade (their Output is universal while they end the chain)
    triggers: list[Trigger]

    @classmethod
    def none(cls) -> Abilities:
        """Return the abilities of an empty tableau."""
        return cls([], [], [], 0, 0, 0, set(), [])


class Counts(NamedTuple):
    """A player's tableau counted for conditions and Patents."""

    chain_length: int
    parts_by_type: tuple[int, ...]  # Parts per connection type (by Output)
    types: int  # connection types among the Parts
    upgrades: int  # Upgrades in play
    loaded: int  # most Upgrades under one Part
    top_vp: int  # the highest VP of a Part in the chain


@dataclass(slots=True)
class GameStats:
    """What a game reports besides its scores (the simulation report reads these)."""

    reshuffles: int
    dry_draws: int  # draws that found both the deck and the discard pile empty
    limit_hits: list[int]  # per player: turns that ended over the hand limit
    claims: list[tuple[int, int, int, bool]]  # (turn, player, Patent, is a License)
    plays: list[tuple[int, int, int, int]]  # (turn, player, card type, Cost paid)
    research: list[int]  # per player
    calibrations: list[int]  # per player
    turns: list[int]  # per player

    @classmethod
    def empty(cls, players: int) -> GameStats:
        """Return the stats of a game not yet played."""
        return cls(0, 0, [0] * players, [], [], [0] * players, [0] * players, [0] * players)

    def copy(self) -> GameStats:
        """Return an independent copy."""
        return GameStats(
            self.reshuffles,
            self.dry_draws,
            self.limit_hits[:],
            self.claims[:],
            self.plays[:],
            self.research[:],
            self.calibrations[:],
            self.turns[:],
        )

    def to_json(self) -> dict[str, Any]:
        """Return the stats as JSON-ready data."""
        return {name: getattr(self, name) for name in self.__slots__}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameStats:
        """Rebuild stats written by to_json."""
        stats = cls(**data)
        stats.claims = [(turn, p, k, bool(lic)) for turn, p, k, lic in stats.claims]
        stats.plays = [(turn, p, t, paid) for turn, p, t, paid in stats.plays]
        return stats


@dataclass(slots=True, eq=False, repr=False)
class Board:
    """Every zone and counter of one game: cards are instance ids (0 … tables.n_inst − 1), players seats from 0."""

    tables: Tables  # the card set, player count and variant, compiled (shared, never changed)
    num_players: int
    rng: int  # SplitMix64 state (see rng.py)
    # The table.
    deck: list[int]  # the end of the list is the top of the deck
    discard: list[int]
    row: list[int]  # the Workshop Row
    patents: list[int]  # the revealed Patents (indices into the card set's Patents)
    patent_owner: list[int]  # per revealed Patent: its owner, or -1
    patent_licensee: list[int]  # per revealed Patent: who holds its License, or -1
    core_offers: list[list[int]]  # Setup 3: the Cores dealt to each player
    cores: list[int]  # each player's kept Core, or -1
    hands: list[list[int]]
    seen_in_hand: list[list[int]]  # cards each player was seen taking from the Row and still holds
    chains: list[list[int]]  # each player's Parts, left to right
    links: list[list[int]]  # per Part: how it attached (Link)
    hosts: list[list[list[int]]]  # per player: Upgrades under the Core (0) and under each Part (1 …)
    licenses: list[list[int]]  # face-down License cards (-1: the deck was empty)
    next_cost: list[list[CostChange]]  # "your next Part costs 1 less": waiting for the next card of that kind
    next_any_input: list[bool]  # "your next Part may have any Input": waiting for the next Part
    abilities: list[Abilities]  # derived from the tableau (tableau.rebuild)
    counts: list[Counts]  # derived from the tableau (tableau.recount)
    hand_patents: bool  # does a revealed Patent count cards in hand (so a draw can complete it)?
    stats: GameStats
    # Whose turn, and where in it.
    first_player: int = 0
    turn: int = 0  # turns played so far, over all players
    current: int = 0
    phase: Phase = Phase.SETUP
    cores_kept: int = 0
    # This turn's counters (turn.reset_turn).
    picks_left: int = 0  # Phase A picks still to take
    deck_picks: int = 0  # Phase A picks taken from the deck
    actions_left: int = 0
    actions_taken: int = 0  # actions spent this turn (the Bonus Upgrade spends none)
    calibrations_played: int = 0
    kinds_played: int = 0  # bitmask of card kinds played this turn (1 << tables.PART …)
    used_this_turn: set[int] = field(default_factory=set)  # keys of once-per-turn effects already used
    pending: tuple[int, int] | None = None  # (card, host; for a Part, its Link) while it is paid and resolved
    last_paid: int = 0  # the Cost fixed when the pending card was announced
    pay_left: int = 0
    limit_left: int = 0
    discard_left: int = 0
    discard_floor: int = 0  # discards go in non-decreasing card type, so each set of discards is one path
    trigger_queue: list[list[Op]] = field(default_factory=list)  # groups of ops waiting to resolve
    resolving: list[Op] = field(default_factory=list)  # the ops of the group resolving now
    after_effects: int = AFTER_NOTHING  # see phase.AFTER_NOTHING
    in_bonus: bool = False  # the card being played is the Bonus Upgrade
    claims_stale: bool = False  # the tableau or a watched hand changed since Patents were last checked
    history: list[int] = field(default_factory=list)  # every action applied, the opening seed first
    legal_cache: tuple[int, Sequence[int]] | None = None  # (len(history), legal actions) for apply_action

    @classmethod
    def blank(cls, tables: Tables) -> Self:
        """Return an empty board (no cards anywhere) at the opening chance node, for `tables`."""
        n = tables.players
        return cls(
            tables=tables,
            num_players=n,
            rng=0,
            deck=[],
            discard=[],
            row=[],
            patents=[],
            patent_owner=[],
            patent_licensee=[],
            core_offers=[[] for _ in range(n)],
            cores=[-1] * n,
            hands=[[] for _ in range(n)],
            seen_in_hand=[[] for _ in range(n)],
            chains=[[] for _ in range(n)],
            links=[[] for _ in range(n)],
            hosts=[[[]] for _ in range(n)],
            licenses=[[] for _ in range(n)],
            next_cost=[[] for _ in range(n)],
            next_any_input=[False] * n,
            abilities=[Abilities.none() for _ in range(n)],
            counts=[Counts(0, (0,) * len(tables.conn), 0, 0, 0, 0)] * n,
            hand_patents=False,
            stats=GameStats.empty(n),
        )

    def copy_into(self, other: Board) -> None:
        """Copy every field into `other`, a fresh instance (cheap: lists copied, tables and Abilities shared)."""
        other.tables, other.num_players, other.rng = self.tables, self.num_players, self.rng
        other.deck, other.discard, other.row = self.deck[:], self.discard[:], self.row[:]
        other.patents, other.patent_owner, other.patent_licensee = (
            self.patents[:],
            self.patent_owner[:],
            self.patent_licensee[:],
        )
        other.core_offers = [o[:] for o in self.core_offers]
        other.cores = self.cores[:]
        other.hands = [h[:] for h in self.hands]
        other.seen_in_hand = [h[:] for h in self.seen_in_hand]
        other.chains = [c[:] for c in self.chains]
        other.links = [x[:] for x in self.links]
        other.hosts = [[u[:] for u in hp] for hp in self.hosts]
        other.licenses = [x[:] for x in self.licenses]
        other.next_cost = [x[:] for x in self.next_cost]
        other.next_any_input = self.next_any_input[:]
        other.abilities = self.abilities[:]  # rebuilt, never changed in place
        other.counts = self.counts[:]
        other.hand_patents = self.hand_patents
        other.first_player, other.turn, other.current = self.first_player, self.turn, self.current
        other.phase, other.cores_kept = self.phase, self.cores_kept
        other.picks_left, other.deck_picks = self.picks_left, self.deck_picks
        other.actions_left, other.actions_taken = self.actions_left, self.actions_taken
        other.calibrations_played, other.kinds_played = self.calibrations_played, self.kinds_played
        other.used_this_turn = set(self.used_this_turn)
        other.pending, other.last_paid = self.pending, self.last_paid
        other.pay_left, other.limit_left, other.discard_left = self.pay_left, self.limit_left, self.discard_left
        other.discard_floor = self.discard_floor
        other.trigger_queue = [g[:] for g in self.trigger_queue]
        other.resolving = self.resolving[:]
        other.after_effects, other.in_bonus, other.claims_stale = self.after_effects, self.in_bonus, self.claims_stale
        other.history = self.history[:]
        other.stats = self.stats.copy()
        other.legal_cache = self.legal_cache
