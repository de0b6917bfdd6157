"""The Micro-Engine rules model: an OpenSpiel-style game state with hidden hands and a hidden deck.

The rules live in one module per part of the game, each acting on the `Board` (board.py, every zone and
counter) in the `Phase` it waits in (phase.py): setup.py (Setup 1–5), turn.py (a turn's start and end, the
hand limit), draw.py (Phase A), play.py (Phase B: actions, Costs, the Bonus Upgrade,
triggers and their resolution), patents.py (claims and Licenses), tableau.py (abilities, conditions and Costs),
zones.py (deck, discard pile, Row, hands), rng.py (the seeded shuffle), scoring.py and views.py.
This module dispatches each decision to the phase waiting for it and keeps the public API.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any

from ...sdk import CHANCE, TERMINAL, IllegalActionError
from . import draw, play, scoring, setup, tableau, turn, views
from .board import Board, GameStats
from .phase import OVER, SETUP, Phase
from .tables import Tables

SEEDS = 1 << 31  # the opening chance node picks one of these seeds; every later shuffle follows from it


class UniformOutcomes(Sequence[tuple[int, float]]):
    """The opening chance node's outcomes: every seed equally likely, listed lazily."""

    def __init__(self, n: int):
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> tuple[int, float]:  # type: ignore[override]  # no slices
        if not 0 <= i < self.n:
            raise IndexError(i)
        return (i, 1.0 / self.n)


# Each phase's decision: its legal actions, and what one of them does.
CHOICES: dict[Phase, Callable[[Board], list[int]]] = {
    Phase.CHOOSE_CORE: setup.core_choices,
    Phase.DRAW: draw.choices,
    Phase.PLAY: play.choices,
    Phase.PAY: play.pay_choices,
    Phase.BONUS: play.bonus_choices,
    Phase.EFFECT_DISCARD: play.discard_choices,
    Phase.TRIGGER_ORDER: play.order_choices,
    Phase.HAND_LIMIT: turn.limit_choices,
}
APPLY: dict[Phase, Callable[[Board, int], None]] = {
    Phase.CHOOSE_CORE: setup.keep_core,
    Phase.DRAW: draw.pick,
    Phase.PLAY: play.act,
    Phase.PAY: play.pay,
    Phase.BONUS: play.bonus,
    Phase.EFFECT_DISCARD: play.discard,
    Phase.TRIGGER_ORDER: play.choose_order,
    Phase.HAND_LIMIT: turn.discard_to_limit,
}
# The board's fields that to_json writes as they are (the others are derived, or need converting).
PLAIN = tuple(
    name
    for name in Board.__slots__
    if name not in ("tables", "num_players", "abilities", "counts", "used_this_turn", "pending", "stats", "legal_cache")
)


class State(Board):
    """One Micro-Engine game in progress. Seeded; every player decision is an int action."""

    __slots__ = ()

    @classmethod
    def initial(cls, tables: Tables) -> State:
        """Return the state before setup: a chance node whose outcome seeds every shuffle of the game."""
        return cls.blank(tables)

    @classmethod
    def new(cls, tables: Tables, seed: int) -> State:
        """Return a set-up game for `seed` (the opening chance node already resolved)."""
        state = cls.initial(tables)
        state.apply_action(seed % SEEDS)
        return state

    # ----------------------------------------------------------------- the OpenSpiel-style API

    def current_player(self) -> int:
        """Return the player to decide, CHANCE (-1) before setup, or TERMINAL (-4) once the game is over."""
        if self.phase == OVER:
            return TERMINAL
        return CHANCE if self.phase == SETUP else self.current

    def chance_outcomes(self) -> Sequence[tuple[int, float]]:
        """Return (seed, probability) pairs at the opening chance node, else []."""
        return UniformOutcomes(SEEDS) if self.phase == SETUP else []

    def sample_chance(self, rng: random.Random) -> int:
        """Draw the opening chance outcome (a seed) from `rng`."""
        return rng.randrange(SEEDS)

    def is_terminal(self) -> bool:
        """Return True after the last round."""
        return self.phase == OVER

    def legal_actions(self, player: int | None = None) -> Sequence[int]:
        """Return the legal actions (sorted ints) for the player to move; [] for anyone else.
        The list is cached until the next action: read it, don't change it."""
        phase = self.phase
        if phase == OVER or (player is not None and player != self.current):
            return []
        cached = self.legal_cache
        if cached is not None and cached[0] == len(self.history):
            return cached[1]
        legal: Sequence[int] = range(SEEDS) if phase == SETUP else CHOICES[phase](self)
        self.legal_cache = (len(self.history), legal)
        return legal

    def apply_action(self, action: int) -> None:
        """Apply one legal action; raise IllegalActionError (state unchanged) otherwise."""
        if self.phase == SETUP:
            if not (isinstance(action, int) and 0 <= action < SEEDS):
                raise IllegalActionError(f"the opening chance node takes a seed in [0, {SEEDS}), not {action!r}")
            setup.deal(self, action)
            return
        if action not in self.legal_actions():
            raise IllegalActionError(
                f"illegal action {action} ({self.describe(action)}) in phase "
                f"{self.phase.label} for player {self.current}"
            )
        self._apply(action)

    def _apply(self, action: int) -> None:
        """Apply an action already known to be legal (bots and the sim runner use this)."""
        self.history.append(action)
        APPLY[self.phase](self, action)

    def returns(self) -> list[float]:
        """Return win shares at the end (1/k for each of k tied winners), zeros before."""
        return scoring.returns(self)

    def scores(self) -> list[int]:
        """Return every player's VP as it stands (final once terminal)."""
        return scoring.scores(self)

    def clone(self) -> State:
        """Return an independent copy (cheap: lists copied, static tables shared)."""
        state = State.__new__(State)
        self.copy_into(state)
        return state

    def observation(self, player: int) -> dict[str, Any]:
        """Return what `player` may see: public zones, own hand, other hands only as sizes and Row picks."""
        return views.observation(self, player, self.current_player())

    def observation_string(self, player: int) -> str:
        """Return the observation as a canonical string (equal for states `player` can't tell apart)."""
        return json.dumps(self.observation(player), sort_keys=True, ensure_ascii=False)

    information_state_string = observation_string

    def action_to_string(self, action: int, player: int | None = None) -> str:
        """Return `P1: play Part Boiler` (players numbered from 1, as printed); `seed 42` for chance."""
        if self.phase == SETUP or player == CHANCE:
            return f"seed {action}"
        who = self.current if player is None else player
        return f"P{who + 1}: {self.describe(action)}"

    def describe(self, action: int) -> str:
        """Return an action in words, e.g. `play Part Boiler`."""
        return views.describe(self.tables, action)

    def __str__(self) -> str:
        return views.text(self)

    # ----------------------------------------------------------------- for bots, scenarios and reports

    score_breakdown = scoring.breakdown
    winners = scoring.winners
    cost_of = tableau.cost_of
    count = tableau.count
    meets = tableau.meets
    requirement_met = tableau.requirement_met
    can_attach = tableau.can_attach
    chain_output = tableau.chain_output
    neighbors = tableau.neighbors
    card_name = views.card_name

    @property
    def round(self) -> int:
        """Return the current round, from 1."""
        return views.current_round(self)

    def resample(self, player: int, rng: random.Random) -> State:
        """Return a clone where what `player` can't see (deck order, others' unseen hand cards, face-down
        Licenses) is dealt afresh from the same cards: one determinization for search bots."""
        state = self.clone()
        pool = list(state.deck)
        slots = []
        for other in range(state.num_players):
            if other == player:
                continue
            seen = list(state.seen_in_hand[other])
            hidden = list(state.hands[other])
            for card in seen:
                hidden.remove(card)
            pool.extend(hidden)
            slots.append((other, seen, len(hidden)))
        face_down = [(q, k) for q in range(state.num_players) for k, card in enumerate(state.licenses[q]) if card >= 0]
        pool.extend(state.licenses[q][k] for q, k in face_down)
        rng.shuffle(pool)
        for other, seen, n in slots:
            state.hands[other] = seen + pool[:n]
            del pool[:n]
        for q, k in face_down:
            state.licenses[q][k] = pool.pop()
        state.deck = pool
        state.legal_cache = None
        state.rng = rng.getrandbits(64)  # later reshuffles must not follow the real game's seed either
        return state

    # ----------------------------------------------------------------- serialization

    def to_json(self) -> dict[str, Any]:
        """Return the whole state as JSON-ready data (not the tables: they come from the card set)."""
        data = {name: getattr(self, name) for name in PLAIN}
        data["used_this_turn"] = sorted(self.used_this_turn)
        data["pending"] = list(self.pending) if self.pending else None
        data["stats"] = self.stats.to_json()
        plain: dict[str, Any] = json.loads(json.dumps(data))  # deep, plain copy
        return plain

    @classmethod
    def from_json(cls, tables: Tables, data: dict[str, Any]) -> State:
        """Rebuild a state written by to_json for the same card set, player count and variant."""
        data = json.loads(json.dumps(data))
        state = cls.blank(tables)
        for name in PLAIN:
            setattr(state, name, data[name])
        state.phase = Phase(data["phase"])
        state.used_this_turn = set(data["used_this_turn"])
        state.pending = (data["pending"][0], data["pending"][1]) if data["pending"] else None
        state.stats = GameStats.from_json(data["stats"])
        state.next_cost = [[(a, b, c) for a, b, c in waiting] for waiting in state.next_cost]
        state.trigger_queue = [[(a, b, c, d) for a, b, c, d in group] for group in state.trigger_queue]
        state.resolving = [(a, b, c, d) for a, b, c, d in state.resolving]
        for player in range(state.num_players):
            tableau.rebuild(state, player)
            tableau.recount(state, player)
        return state
