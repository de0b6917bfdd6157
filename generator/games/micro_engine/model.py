"""Micro-Engine as plain data: rules constants, connections, Workshop cards, Cores and Patents."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeVar

V = TypeVar("V")


def given(value: V | None) -> V:
    """Return a field this kind of op, effect or card always has (the schema requires it), as present."""
    if value is None:
        raise ValueError("a field the schema requires for this kind is missing")
    return value


KINDS = ("part", "upgrade", "calibration")


@dataclass(frozen=True)
class Quantity:
    """Something the rules can count for one player, e.g. chain length or Steam Parts."""

    name: str
    type: str | None = None  # a connection id, for `parts`


@dataclass(frozen=True)
class Test:
    """One clause of a condition: `quantity` is at least `at_least`."""

    quantity: Quantity
    at_least: int


@dataclass(frozen=True)
class Condition:
    """A Requirement or Patent condition: every test holds, and these kinds were played this turn."""

    tests: tuple[Test, ...] = ()
    played_this_turn: tuple[str, ...] = ()


@dataclass(frozen=True)
class Op:
    """One operation of an effect, e.g. `draw 1` or `cost of part -1`."""

    name: str
    n: int = 0  # draw / action / discard / research / row_pick / hand_limit / vp each
    of: str | None = None  # cost ops: the kind of card whose cost changes
    type: str | None = None  # cost ops: only Parts with this Output
    by: int = 0  # cost ops: the change (negative)
    per: Quantity | None = None  # vp: what is counted
    every: int = 1  # vp: +n VP for every `every` counted


@dataclass(frozen=True)
class Effect:
    """A timed effect: when (played, ongoing, once per turn, end game), an optional trigger, ops."""

    when: str
    ops: tuple[Op, ...]
    trigger: str | None = None  # the kind of play (or `research`) that fires it
    if_type: str | None = None  # trigger filter: the played Part's Output
    if_min_cost: int | None = None  # trigger filter: the cost paid, after reductions


@dataclass(frozen=True)
class Back:
    """The printed back of a card."""

    colour: str
    label: str
    glyph: str


@dataclass(frozen=True)
class Card:
    """A Workshop card type: a Part, an Upgrade or a Calibration (with `copies` identical copies)."""

    id: str
    name: str
    kind: str
    copies: int
    cost: int
    vp: int = 0
    inputs: tuple[str, ...] = ()
    output: str | None = None
    slots: int = 0
    requires: Condition | None = None
    effects: tuple[Effect, ...] = ()
    back: Back | None = None
    text: str | None = None  # hand-written text; must agree with the data
    art: str | None = None
    index: int = 0  # position in its list in workshop.yaml, for locating diagnostics


@dataclass(frozen=True)
class Core:
    """A Core card: universal Output, `slots` Upgrade slots, an ability."""

    id: str
    name: str
    vp: int
    slots: int
    effects: tuple[Effect, ...]
    back: Back
    text: str | None = None
    art: str | None = None
    index: int = 0


@dataclass(frozen=True)
class Patent:
    """A public objective worth `vp` to its owner."""

    id: str
    name: str
    vp: int
    condition: Condition
    back: Back
    text: str | None = None
    art: str | None = None
    index: int = 0


@dataclass(frozen=True)
class Connection:
    """A connection type: its name, printed symbol, glyph and target share of Part Outputs."""

    id: str
    name: str
    symbol: str
    glyph: str
    colour: str
    share: int
    flavour: str = ""


@dataclass(frozen=True)
class Rules:
    """The constants the rulebook fixes (and the number of rounds, which it leaves to us)."""

    rounds: int
    starting_hand: int
    hand_limit: int
    row_size: int
    draw_picks: int
    actions: int
    research_draw: int
    calibrations_per_turn: int
    cores_dealt: int
    core_slots: int
    part_slots: int
    extra_patents: int
    license_vp: int
    license_min_players: int
    quick_fewer_rounds: int
    travel_removes: tuple[str, ...]


@dataclass(frozen=True)
class Scenario:
    """A worked example from the rulebook, replayed by the validator."""

    id: str
    title: str
    players: int
    setup: dict[str, Any]  # as scenarios.yaml writes it (cards named by id)
    steps: tuple[dict[str, Any], ...]
    index: int = 0


@dataclass(frozen=True)
class MicroEngine:
    """Everything the card files say about one Micro-Engine edition."""

    title: str
    tagline: str
    publisher: str
    edition: str
    players: tuple[int, ...]
    default_players: int
    rules: Rules
    connections: tuple[Connection, ...]
    mix_tolerance: int
    cards: tuple[Card, ...]  # Parts, then Upgrades, then Calibrations
    cores: tuple[Core, ...]
    patents: tuple[Patent, ...]
    workshop_back: Back
    round_tracker_name: str
    player_aid_name: str
    scenarios: tuple[Scenario, ...] = ()
    style: dict[str, str] = field(default_factory=dict)

    def card(self, cid: str) -> Card:
        """Return a Workshop card type by id."""
        return next(c for c in self.cards if c.id == cid)

    def connection(self, cid: str) -> Connection:
        """Return a connection type by id."""
        return next(c for c in self.connections if c.id == cid)

    def by_name(self, name: str) -> Card | Core | Patent | None:
        """Return the card printed with this name (any deck), or None."""
        key = name.strip().casefold()
        printed: tuple[Card | Core | Patent, ...] = (*self.cards, *self.cores, *self.patents)
        for item in printed:
            if item.name.casefold() == key:
                return item
        return None

    def of_kind(self, kind: str) -> tuple[Card, ...]:
        """Return the Workshop card types of one kind."""
        return tuple(c for c in self.cards if c.kind == kind)

    @property
    def deck_size(self) -> int:
        """Return the number of Workshop cards (every copy)."""
        return sum(c.copies for c in self.cards)

    def cores_for(self, travel: bool) -> tuple[Core, ...]:
        """Return the Cores in play: Travel mode removes the Cores the variant names."""
        if not travel:
            return self.cores
        return tuple(c for c in self.cores if c.id not in self.rules.travel_removes)

    def rounds(self, quick: bool = False) -> int:
        """Return the number of rounds: R, or R minus the Quick game's reduction."""
        return self.rules.rounds - (self.rules.quick_fewer_rounds if quick else 0)
