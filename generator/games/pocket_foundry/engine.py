"""The Pocket Foundry rules engine: every rule of the rulebook, as an OpenSpiel-style state machine.

Actions (T market types, S slots):
- `build(t, s) = t·(S−1) + (s−2)`: take one face-up card of type t, pay its BUILD COST, install it in
  slot s (2..S), discarding for good whatever was there. Identical copies are interchangeable, so a
  build names the type, not a market space.
- `run(m) = T·(S−1) + m`: run the row, slot i+1 when bit i of m is set, strictly left to right; each
  chosen slot must be occupied and its full cost affordable when reached; caps apply after every
  machine. `m = 0` (skip everything) is always legal, so nobody is ever stuck.
- Chance outcome `t` deals a card of type t from the face-down deck (probability = its share of the
  deck): four at setup, then one after every build while the deck lasts. Nothing is ever reshuffled.

Turn order: lap L (0-based) is started by seat (first + L) mod N and goes clockwise (seat + 1); each
seat acts once per lap; after the last lap the game ends with no bonus run.
"""

from __future__ import annotations

import random
from typing import Any

from ...sdk import CHANCE, TERMINAL, IllegalActionError
from .model import PocketFoundry
from .tables import EMPTY, tables_for

NAME = "pocket-foundry"


class Game:
    """Pocket Foundry for a fixed number of players."""

    name = NAME

    def __init__(self, model: PocketFoundry, num_players: int, first: int = 0):
        if num_players not in model.players:
            supported = ", ".join(map(str, model.players))
            raise ValueError(f"{model.title} is played by {supported} players, not {num_players}")
        if not 0 <= first < num_players:
            raise ValueError(f"first player {first} is not a seat of {num_players}")
        self.model = model
        self.tables = tables_for(model)
        self.num_players = num_players
        self.first = first
        self.total_turns = self.tables.laps * num_players
        self.num_distinct_actions = self.tables.n_actions
        self.max_chance_outcomes = self.tables.n_types
        self.max_game_length = self.total_turns + self.tables.total_cards
        # The legal moves, cached by the tables and shared by every game of this edition.
        self.builds = self.tables.build_actions
        self.run_actions = self.tables.run_actions
        self.run_result = self.tables.run_result

    def new_initial_state(self) -> State:
        """Return the state before the opening market is dealt (a chance node)."""
        return State(self)

    def state_from_json(self, data: dict[str, Any]) -> State:
        """Replay a state written by `State.to_json`, checking every action and the stored snapshot."""
        if data.get("game") != NAME or data.get("players") != self.num_players or data.get("first", 0) != self.first:
            raise ValueError("this JSON state belongs to another game or player count")
        state = self.new_initial_state()
        for action in data["history"]:
            state.apply_action(action)
        if data.get("snapshot") is not None and data["snapshot"] != state.snapshot():
            raise ValueError("the JSON snapshot does not match its replayed history")
        return state

    def player_for_turn(self, turn: int) -> int:
        """Return the seat that takes decision number `turn` (0-based over the whole game)."""
        n = self.num_players
        return (self.first + turn // n + turn % n) % n

    def lap_starter(self, lap: int) -> int:
        """Return the seat that starts `lap` (1-based)."""
        return (self.first + lap - 1) % self.num_players


class State:
    """A Pocket Foundry position. Everything is public except the order of the face-down deck."""

    __slots__ = (
        "game",
        "num_players",
        "row",
        "res",
        "pts",
        "market",
        "market_mask",
        "deck",
        "deck_size",
        "discard",
        "turn",
        "cur",
        "pending",
        "history",
    )

    def __init__(self, game: Game):
        t = game.tables
        n = game.num_players
        self.game = game
        self.num_players = n
        self.row = [0] * n  # row codes: slot 1 is always the starter, slots 2..S start empty
        self.res = [t.start_res] * n
        self.pts = [t.score_start] * n
        self.market = [0] * t.n_types
        self.market_mask = 0  # bit t set when the market shows type t
        self.deck = list(t.copies)  # counts; the order is hidden, so each deal is a chance node
        self.deck_size = t.total_cards
        self.discard = [0] * t.n_types  # replaced machines, never reshuffled
        self.turn = 0  # decisions taken so far
        self.pending = min(t.market_size, t.total_cards)  # deals owed before the next decision
        self.cur = CHANCE if self.pending else game.player_for_turn(0)
        self.history: list[int] = []

    # -- the protocol ----------------------------------------------------------------------------------

    def current_player(self) -> int:
        """Return the seat to act, CHANCE while cards are owed to the market, or TERMINAL."""
        return self.cur

    def is_terminal(self) -> bool:
        """Return True after the last lap."""
        return self.cur == TERMINAL

    def is_chance_node(self) -> bool:
        """Return True when the next action deals a card."""
        return self.cur == CHANCE

    def legal_actions(self) -> list[int]:
        """Return the legal actions in ascending order (builds first, then runs)."""
        p = self.cur
        if p >= 0:
            res = self.res[p]
            return [*self.game.builds(self.market_mask, res), *self.game.run_actions(self.row[p], res)]
        if p == CHANCE:
            return [t for t, c in enumerate(self.deck) if c]
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Return each type still in the deck with its chance of being dealt next."""
        if self.cur != CHANCE:
            return []
        return [(t, c / self.deck_size) for t, c in enumerate(self.deck) if c]

    def sample_chance(self, rng: random.Random) -> int:
        """Draw the next deal exactly as from a shuffled deck (one uniform card among those left)."""
        x = rng.randrange(self.deck_size)
        for t, c in enumerate(self.deck):
            if x < c:
                return t
            x -= c
        raise AssertionError("deck counts disagree with deck size")

    def apply_action(self, action: int) -> None:
        """Apply a player's action or a chance outcome; raise IllegalActionError if it is not legal."""
        p = self.cur
        if p >= 0:
            game = self.game
            t = game.tables
            res = self.res[p]
            if 0 <= action < t.n_build_actions:
                m, j = divmod(action, t.build_slots)
                if not self.market[m]:
                    raise IllegalActionError(self._illegal(action, f"no {t.names[m]} is face up in the market"))
                nxt = t.build_next[m][res]
                if nxt < 0:
                    raise IllegalActionError(
                        self._illegal(action, f"cannot pay {t.names[m]}'s BUILD COST with {t.describe_res(res)}")
                    )
                row = self.row[p]
                mult = t.row_mult[j]
                old = (row // mult) % t.row_base - 1
                if old != EMPTY:
                    self.discard[old] += 1  # replaced for good: no refund, no reserve
                self.row[p] = row + (m - old) * mult
                self.res[p] = nxt
                self.market[m] -= 1
                if not self.market[m]:
                    self.market_mask &= ~(1 << m)
                self.history.append(action)
                self.turn += 1
                if self.deck_size:
                    self.pending = 1  # refill the emptied space at once, from the deck only
                    self.cur = CHANCE
                else:
                    self._next_turn()
                return
            result = game.run_result(self.row[p], res, action)
            if result is None:
                raise IllegalActionError(self._illegal(action, self._why_not_run(action)))
            self.res[p], gained = result
            self.pts[p] += gained
            self.history.append(action)
            self.turn += 1
            self._next_turn()
        elif p == CHANCE:
            if not (0 <= action < len(self.deck)) or not self.deck[action]:
                raise IllegalActionError(f"chance outcome {action} is not a type left in the deck")
            self.deck[action] -= 1
            self.deck_size -= 1
            self.market[action] += 1
            self.market_mask |= 1 << action
            self.history.append(action)
            self.pending -= 1
            if not self.pending or not self.deck_size:
                self.pending = 0
                self._next_turn()
        else:
            raise IllegalActionError("the game is over; no action is legal")

    def _next_turn(self) -> None:
        game = self.game
        self.cur = game.player_for_turn(self.turn) if self.turn < game.total_turns else TERMINAL

    def returns(self) -> list[float]:
        """Return 1/k to each of the k players tied for the most points, 0 to the rest; zeros before the end."""
        if self.cur != TERMINAL:
            return [0.0] * self.num_players
        best = max(self.pts)
        k = self.pts.count(best)
        return [1.0 / k if s == best else 0.0 for s in self.pts]

    def scores(self) -> list[int]:
        """Return each player's recorded points."""
        return list(self.pts)

    def clone(self) -> State:
        """Return an independent copy (hand-written: deepcopy would be 20× slower)."""
        other = object.__new__(State)
        other.game = self.game
        other.num_players = self.num_players
        other.row = self.row[:]
        other.res = self.res[:]
        other.pts = self.pts[:]
        other.market = self.market[:]
        other.market_mask = self.market_mask
        other.deck = self.deck[:]
        other.deck_size = self.deck_size
        other.discard = self.discard[:]
        other.turn = self.turn
        other.cur = self.cur
        other.pending = self.pending
        other.history = self.history[:]
        return other

    # -- reading the state ---------------------------------------------------------------------------

    @property
    def lap(self) -> int:
        """Return the lap (1-based) of the next decision, or the last lap once the game is over."""
        game = self.game
        return min(self.turn, game.total_turns - 1) // self.num_players + 1

    def turns_left(self, player: int) -> int:
        """Return how many more decisions `player` will make, the current one included."""
        game = self.game
        n = self.num_players
        lap, done = divmod(self.turn, n)
        if lap >= game.tables.laps:
            return 0
        acted = (player - game.lap_starter(lap + 1)) % n < done  # already had this lap's turn
        return game.tables.laps - lap - acted

    def slots(self, player: int) -> tuple[int, ...]:
        """Return the machine type in each of slots 2..S (EMPTY for an empty slot)."""
        return self.game.tables.row_slots(self.row[player])

    def resources(self, player: int) -> dict[str, int]:
        """Return a player's stored resources and points by resource id."""
        t = self.game.tables
        out = dict(zip(t.stored, t.values[self.res[player]]))
        out[t.score] = self.pts[player]
        return out

    def action_to_string(self, action: int, player: int | None = None) -> str:
        """Return `build Small Press in slot 2`, `run slots 1,2,4`, `run no slot` or `deal Feed Belt`."""
        t = self.game.tables
        who = self.cur if player is None else player
        if who == CHANCE:
            return f"deal {t.names[action]}" if 0 <= action < t.n_types else f"chance outcome {action}"
        if 0 <= action < t.n_build_actions:
            m, slot = t.decode_build(action)
            return f"build {t.names[m]} in slot {slot}"
        mask = action - t.n_build_actions
        if 0 <= mask < 1 << t.slots:
            chosen = [str(i + 1) for i in range(t.slots) if mask >> i & 1]
            return f"run slots {','.join(chosen)}" if chosen else "run no slot"
        return f"action {action}"

    def observation(self, player: int) -> dict[str, Any]:
        """Return everything public, from `player`'s seat (the deck shows only its size and contents)."""
        t = self.game.tables
        names = t.names

        def counts(cs: list[int]) -> dict[str, int]:
            return {names[i]: c for i, c in enumerate(cs) if c}

        return {
            "viewer": player,
            "lap": self.lap,
            "turn": self.turn,
            "current_player": self.cur,
            "lap_starter": self.game.lap_starter(self.lap),
            "players": [
                {
                    "seat": p,
                    "row": [t.starter.name] + [names[m] if m != EMPTY else None for m in self.slots(p)],
                    "resources": self.resources(p),
                }
                for p in range(self.num_players)
            ],
            "market": counts(self.market),
            "deck": {"size": self.deck_size, "contents": counts(self.deck)},
            "discarded": counts(self.discard),
        }

    def observation_string(self, player: int) -> str:
        """Return the observation as compact text, one line per player."""
        t = self.game.tables
        lines = [f"lap {self.lap}/{t.laps}, turn {self.turn}, to act: {_who(self.cur)}, viewer: {player}"]
        for p in range(self.num_players):
            row = " | ".join(t.names[m] if m != EMPTY else "-" for m in self.slots(p))
            score = t.model.rules.resource(t.score).noun(self.pts[p])
            lines.append(f"  P{p}: {t.describe_res(self.res[p])}, {self.pts[p]} {score} | {t.starter.name} | {row}")
        market = ", ".join(f"{t.names[i]}×{c}" for i, c in enumerate(self.market) if c) or "empty"
        lines.append(f"  market: {market}; deck: {self.deck_size}; discarded: {sum(self.discard)}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.observation_string(0)

    def snapshot(self) -> dict[str, Any]:
        """Return the whole position as plain data (used to check JSON round trips)."""
        return {
            "row": list(self.row),
            "res": list(self.res),
            "points": list(self.pts),
            "market": list(self.market),
            "deck": list(self.deck),
            "discard": list(self.discard),
            "turn": self.turn,
            "current": self.cur,
        }

    def to_json(self) -> dict[str, Any]:
        """Return the history plus a snapshot; `Game.state_from_json` replays and checks it."""
        return {
            "game": NAME,
            "players": self.num_players,
            "first": self.game.first,
            "history": list(self.history),
            "snapshot": self.snapshot(),
        }

    # -- messages ------------------------------------------------------------------------------------

    def _illegal(self, action: int, why: str) -> str:
        return f"illegal action {action} ({self.action_to_string(action)}) for player {self.cur}: {why}"

    def _why_not_run(self, action: int) -> str:
        t = self.game.tables
        mask = action - t.n_build_actions
        if not 0 <= mask < 1 << t.slots:
            return f"actions are 0..{t.n_actions - 1}"
        machines = t.row_machines(self.row[self.cur])
        code = self.res[self.cur]
        for i, m in enumerate(machines):
            if not mask >> i & 1:
                continue
            if m == EMPTY:
                return f"slot {i + 1} is empty"
            step = t.step[m][code]
            name = t.starter.name if m == t.starter_index else t.names[m]
            if step is None:
                return f"{name} in slot {i + 1} cannot be paid with {t.describe_res(code)}"
            code = step[0]
        return "not a legal run"


def _who(cur: int) -> str:
    return {CHANCE: "chance", TERMINAL: "nobody (game over)"}.get(cur, f"P{cur}")
