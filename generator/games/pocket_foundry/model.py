"""Pocket Foundry as plain data: rules constants, machines and the other printed materials."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...sdk import ENGLISH, Catalogue, did_you_mean

Amounts = tuple[tuple[str, int], ...]  # (resource id, amount) in the game's resource order


@dataclass(frozen=True)
class Resource:
    """A counter players track: FEED, PARTS or points."""

    id: str
    start: int
    cap: int | None
    singular: str
    plural: str
    label: str
    icon: str
    words: Catalogue = field(default=ENGLISH, compare=False, repr=False)  # its language's plural rule

    def noun(self, amount: int) -> str:
        """Return the word printed after `amount`: `1 PART`, `2 PARTS` (`0 PIÈCE` in French)."""
        return self.singular if self.words.singular(amount) else self.plural


@dataclass(frozen=True)
class Effect:
    """A RUN effect: pay all of `pay`, then gain all of `gain`."""

    pay: Amounts = ()
    gain: Amounts = ()


@dataclass(frozen=True)
class Machine:
    """A machine type (market machines have copies; the starter has one per player)."""

    id: str
    name: str
    copies: int
    build_cost: Amounts
    run: Effect
    colour: str
    glyph: str
    index: int  # position in machines.yaml, for locating diagnostics (-1 for the starter)
    art: str | dict[str, Any] | None = None  # a file, or {file, fit, focus}; see generator.art.place.card_art
    remind_cap: bool = False
    build_text: str | None = None  # hand-written BUILD COST line; the validator parses it back
    run_text: str | None = None  # hand-written RUN line; the validator parses it back

    @property
    def is_starter(self) -> bool:
        """Return True for the Starter Feeder."""
        return self.index < 0


@dataclass(frozen=True)
class Rules:
    """The constants the rulebook fixes."""

    resources: tuple[Resource, ...]
    slots: int
    starter: str
    market_size: int
    laps: int
    reshuffle: bool
    words: Catalogue = field(default=ENGLISH, compare=False)  # the language its cards print in (text.py)

    def resource(self, rid: str) -> Resource:
        """Return a resource by id."""
        return next(r for r in self.resources if r.id == rid)

    def order(self, amounts: dict[str, int]) -> Amounts:
        """Return `amounts` as pairs in the printed resource order."""
        return tuple((r.id, amounts[r.id]) for r in self.resources if r.id in amounts)


@dataclass(frozen=True)
class PocketFoundry:
    """Everything the card files say about one Pocket Foundry edition."""

    title: str
    tagline: str
    publisher: str
    edition: str
    players: tuple[int, ...]
    default_players: int
    rules: Rules
    reminder: str
    machines: tuple[Machine, ...]
    starter: Machine
    mat_name: str
    lap_record_name: str
    marker_name: str
    style: dict[str, str] = field(default_factory=dict)

    def machine(self, mid: str) -> Machine:
        """Return a market machine or the starter by id."""
        if mid == self.starter.id:
            return self.starter
        return next(m for m in self.machines if m.id == mid)

    def by_name(self, name: str) -> Machine | None:
        """Return the machine printed with this name, or None."""
        everything = (*self.machines, self.starter)
        return next((m for m in everything if m.name.casefold() == name.strip().casefold()), None)

    def find(self, ref: str) -> Machine | None:
        """Return the machine a cross-reference names: by id (which survives a rename), or as printed."""
        key = ref.strip()
        everything = (*self.machines, self.starter)
        return next((m for m in everything if m.id == key), None) or self.by_name(key)

    def nearest(self, ref: str, starter: bool = False) -> str | None:
        """Return "did you mean 'x'?" for the one machine id or name closest to `ref`, or None."""
        everything = (*self.machines, self.starter) if starter else self.machines
        return did_you_mean(ref, [x for m in everything for x in (m.id, m.name)])

    @property
    def market_size_total(self) -> int:
        """Return the number of market cards (every copy of every type)."""
        return sum(m.copies for m in self.machines)
