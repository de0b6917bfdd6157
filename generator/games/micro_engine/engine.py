"""The Micro-Engine rules model: an OpenSpiel-style game state with hidden hands and a hidden deck."""

from __future__ import annotations

import json

from .tables import ACTION, CALIBRATION, DISCARD, DRAW, NEXT_ANY, NEXT_COST, PART, RESEARCH, UPGRADE, Q, Tables

CHANCE = -1  # OpenSpiel's PlayerId.CHANCE
TERMINAL = -4  # OpenSpiel's PlayerId.TERMINAL
MASK64 = (1 << 64) - 1
SEEDS = 1 << 31  # the opening chance node picks one of these seeds; every later shuffle follows from it
# Phases of a turn; each waits for one small decision. SETUP is the opening chance node.
CORE, DRAW_PHASE, PLAY, PAY, BONUS, EFFECT_DISCARD, ORDER, LIMIT, OVER, SETUP = range(10)
PHASE_NAMES = ("core", "draw", "play", "pay", "bonus", "discard", "order", "limit", "over", "setup")


class UniformOutcomes:
    """The opening chance node's outcomes: every seed equally likely, listed lazily."""

    def __init__(self, n: int):
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> tuple[int, float]:
        if not 0 <= i < self.n:
            raise IndexError(i)
        return (i, 1.0 / self.n)


KIND_WORDS = ("Part", "Upgrade", "Calibration", "Research")
DRAW_END = 9  # `after` marker: the Draw phase's extra-pick discard is done


class IllegalActionError(ValueError):
    """An action that is not legal in the current state."""


class Agg:
    """A player's tableau effects, summed; rebuilt whenever a Part or Upgrade enters play."""

    __slots__ = ("cost", "perm_cost", "perm_any", "research", "row_pick", "hand_limit", "open_hosts", "triggers")

    def __init__(self):
        self.cost = []
        self.perm_cost = []
        self.perm_any = []
        self.research = 0
        self.row_pick = 0
        self.hand_limit = 0
        self.open_hosts = set()
        self.triggers = []


class State:
    """One Micro-Engine game in progress. Seeded; every player decision is an int action."""

    __slots__ = (
        "T",
        "n",
        "rng",
        "deck",
        "discard",
        "row",
        "patents",
        "owner",
        "licensee",
        "hands",
        "known",
        "chains",
        "hosts",
        "cores",
        "offers",
        "licenses",
        "pend_cost",
        "pend_any",
        "agg",
        "first",
        "turn",
        "current",
        "phase",
        "picks",
        "deck_picks",
        "actions",
        "cals",
        "played",
        "actions_taken",
        "once_used",
        "pay_left",
        "pay_floor",
        "pend",
        "last_paid",
        "queue",
        "cur_ops",
        "after",
        "in_bonus",
        "history",
        "stats",
        "core_turn",
        "limit_left",
        "discard_left",
        "tab",
        "dirty",
        "links",
        "hand_watch",
        "_legal",
    )

    # ----------------------------------------------------------------- setup

    @classmethod
    def initial(cls, tables: Tables) -> State:
        """Return the state before setup: a chance node whose outcome seeds every shuffle of the game."""
        s = cls.blank(tables)
        s.phase = SETUP
        return s

    @classmethod
    def new(cls, tables: Tables, seed: int) -> State:
        """Return a set-up game for `seed` (the opening chance node already resolved)."""
        s = cls.initial(tables)
        s.apply_action(seed % SEEDS)
        return s

    def _setup(self, seed: int) -> None:
        """Setup 1–5: Patents, Row, Core offers and the first player (hands come once Cores are kept)."""
        s = self
        tables = self.T
        s.history.append(seed)
        s.rng = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK64
        r = tables.rules
        n = tables.players
        patents = list(range(len(tables.patent_cond)))
        s._shuffle(patents)
        s.patents = patents[: n + r.extra_patents]
        s.hand_watch = any(tables.patent_hand[k] for k in s.patents)
        s.owner = [-1] * len(s.patents)
        s.licensee = [-1] * len(s.patents)
        s.deck = list(range(tables.n_inst))
        s._shuffle(s.deck)
        if not tables.travel:
            s._refill_row()
        pool = list(tables.core_pool)
        s._shuffle(pool)
        d = r.cores_dealt
        s.offers = [pool[i * d : (i + 1) * d] for i in range(n)]
        s.first = s._below(n)
        s.phase = CORE
        s.core_turn = 0
        s.current = 0

    @classmethod
    def blank(cls, tables: Tables) -> State:
        """Return an empty state (no cards anywhere) for `new`, scenarios and `from_json`."""
        s = cls.__new__(cls)
        n = tables.players
        s.T = tables
        s.n = n
        s.rng = 0
        s.deck, s.discard, s.row = [], [], []
        s.patents, s.owner, s.licensee = [], [], []
        s.hands = [[] for _ in range(n)]
        s.known = [[] for _ in range(n)]
        s.chains = [[] for _ in range(n)]
        s.links = [[] for _ in range(n)]
        s.hosts = [[[]] for _ in range(n)]
        s.cores = [-1] * n
        s.offers = [[] for _ in range(n)]
        s.licenses = [[] for _ in range(n)]
        s.pend_cost = [[] for _ in range(n)]
        s.pend_any = [0] * n
        s.agg = [Agg() for _ in range(n)]
        s.tab = [(0, (0,) * len(tables.conn), 0, 0, 0, 0)] * n
        s.dirty = False
        s.hand_watch = False  # does a revealed Patent count cards in hand?
        s._legal = None  # (history length, legal actions): apply_action reuses what legal_actions computed
        s.first = 0
        s.turn = 0
        s.current = 0
        s.phase = CORE
        s.core_turn = 0
        s._reset_turn()
        s.history = []
        s.stats = {
            "reshuffles": 0,
            "limit_hits": [0] * n,
            "dry_draws": 0,
            "claims": [],
            "plays": [],
            "research": [0] * n,
            "calibrations": [0] * n,
            "turns": [0] * n,
        }
        return s

    def _reset_turn(self) -> None:
        self.picks = 0
        self.deck_picks = 0
        self.actions = 0
        self.cals = 0
        self.played = 0
        self.actions_taken = 0
        self.once_used = set()
        self.pay_left = 0
        self.pay_floor = 0
        self.pend = None
        self.last_paid = 0
        self.queue = []
        self.cur_ops = []
        self.after = -1
        self.in_bonus = False
        self.limit_left = 0
        self.discard_left = 0

    # ----------------------------------------------------------------- randomness (SplitMix64)

    def _next(self) -> int:
        self.rng = (self.rng + 0x9E3779B97F4A7C15) & MASK64
        z = self.rng
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def _below(self, n: int) -> int:
        return self._next() % n

    def _shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self._next() % (i + 1)
            items[i], items[j] = items[j], items[i]

    # ----------------------------------------------------------------- API

    @property
    def num_players(self) -> int:
        """Return the number of players."""
        return self.n

    def current_player(self) -> int:
        """Return the player to decide, CHANCE (-1) before setup, or TERMINAL (-4) once the game is over."""
        if self.phase == OVER:
            return TERMINAL
        return CHANCE if self.phase == SETUP else self.current

    def chance_outcomes(self) -> UniformOutcomes | list:
        """Return (seed, probability) pairs at the opening chance node, else []."""
        return UniformOutcomes(SEEDS) if self.phase == SETUP else []

    def sample_chance(self, rng) -> int:
        """Draw the opening chance outcome (a seed) from `rng`."""
        return rng.randrange(SEEDS)

    def is_terminal(self) -> bool:
        """Return True after the last round."""
        return self.phase == OVER

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Return the legal actions (sorted ints) for the player to move; [] for anyone else.
        The list is cached until the next action: read it, don't change it."""
        if self.phase == OVER or (player is not None and player != self.current):
            return []
        cached = self._legal
        if cached is not None and cached[0] == len(self.history):
            return cached[1]
        legal = self._legal_actions()
        self._legal = (len(self.history), legal)
        return legal

    def _legal_actions(self) -> list[int]:
        T = self.T
        ph = self.phase
        p = self.current
        if ph == SETUP:
            return range(SEEDS)
        if ph == PLAY:
            return self._play_actions(p)
        if ph in (PAY, LIMIT, EFFECT_DISCARD):
            return self._discard_actions(p)
        if ph == DRAW_PHASE:
            acts = sorted({T.A_ROW + T.itype[i] for i in self.row})
            if self.deck_picks < T.rules.draw_picks and (self.deck or self.discard):
                acts.append(T.A_DECK)
            return acts
        if ph == BONUS:
            return self._upgrade_actions(p) + [T.A_SKIP]
        if ph == CORE:
            return sorted(T.A_CORE + c for c in self.offers[p])
        if ph == ORDER:
            return [T.A_ORDER + k for k in range(len(self.queue))]
        raise AssertionError(f"no actions in phase {ph}")

    def apply_action(self, action: int) -> None:
        """Apply one legal action; raise IllegalActionError (state unchanged) otherwise."""
        if self.phase == SETUP:
            if not (isinstance(action, int) and 0 <= action < SEEDS):
                raise IllegalActionError(f"the opening chance node takes a seed in [0, {SEEDS}), not {action!r}")
            self._setup(action)
            return
        if action not in self.legal_actions():
            raise IllegalActionError(
                f"illegal action {action} ({self.describe(action)}) in phase "
                f"{PHASE_NAMES[self.phase]} for player {self.current}"
            )
        self._apply(action)

    def _apply(self, a: int) -> None:
        """Apply an action already known to be legal (bots and the sim runner use this)."""
        T = self.T
        p = self.current
        self.history.append(a)
        ph = self.phase
        if ph == PLAY:
            if a == T.A_RESEARCH:
                self.actions -= 1
                self.actions_taken += 1
                self.dirty = True
                self.stats["research"][p] += 1
                for _ in range(T.rules.research_draw + self.agg[p].research):
                    self._draw_to_hand(p)
                self._fire(p, RESEARCH, -1, 0)
            elif a == T.A_END:
                self.actions = 0
                self._end_turn()
                return
            elif a < T.A_UPG:
                self._announce(p, a - T.A_PART, PART, -1)
            elif a < T.A_CAL:
                t, h = divmod(a - T.A_UPG, T.max_hosts)
                self._announce(p, t, UPGRADE, h)
            else:
                self._announce(p, a - T.A_CAL, CALIBRATION, -1)
        elif ph == DRAW_PHASE:
            if a == T.A_DECK:
                self.deck_picks += 1
                self._draw_to_hand(p)
            else:
                inst = self._take(self.row, a - T.A_ROW)
                self.hands[p].append(inst)
                self.known[p].append(inst)
                if self.hand_watch:
                    self.dirty = True
            self.picks -= 1
            self._maybe_end_draw(p)
        elif ph == PAY:
            t = a - T.A_DISCARD
            self.discard.append(self._take_hand(p, t))
            self.pay_floor = t
            self.pay_left -= 1
            if self.pay_left == 0:
                self._enter_play(p)
        elif ph == BONUS:
            if a == T.A_SKIP:
                self._continue(p)
            else:
                t, h = divmod(a - T.A_UPG, T.max_hosts)
                self.in_bonus = True
                self._announce(p, t, UPGRADE, h)
        elif ph == EFFECT_DISCARD:
            t = a - T.A_DISCARD
            self.discard.append(self._take_hand(p, t))
            self.pay_floor = t
            self.discard_left -= 1
            if self.discard_left == 0 or not self.hands[p]:
                self._resolve(p)
        elif ph == ORDER:
            self.cur_ops = list(self.queue.pop(a - T.A_ORDER))
            self._resolve(p)
        elif ph == LIMIT:
            t = a - T.A_DISCARD
            self.discard.append(self._take_hand(p, t))
            self.pay_floor = t
            self.limit_left -= 1
            if self.limit_left == 0:
                self._next_turn()
            return
        elif ph == CORE:
            self._keep_core(p, a - T.A_CORE)
            return
        if self.dirty and self.phase != OVER:
            self._claims(self.current)  # whoever's turn it now is; claims only ever happen on your turn

    # ----------------------------------------------------------------- setup steps

    def _keep_core(self, p: int, c: int) -> None:
        self.cores[p] = c
        self._rebuild(p)
        self.core_turn += 1
        if self.core_turn < self.n:
            self.current = self.core_turn
            return
        for q in range(self.n):  # Setup 4: hands are dealt once every Core is placed
            for _ in range(self.T.rules.starting_hand):
                self._draw_to_hand(q)
        self.turn = 0
        self.current = self.first
        self._start_turn()

    # ----------------------------------------------------------------- zones

    def _draw_card(self):
        """Return the top card of the deck, reshuffling the discard pile into a new deck if needed."""
        if not self.deck:
            if not self.discard:
                self.stats["dry_draws"] += 1
                return None
            self.deck = self.discard
            self.discard = []
            self._shuffle(self.deck)
            self.stats["reshuffles"] += 1
        return self.deck.pop()

    def _draw_to_hand(self, p: int) -> None:
        inst = self._draw_card()
        if inst is not None:
            self.hands[p].append(inst)
            if self.hand_watch:
                self.dirty = True

    def _refill_row(self) -> None:
        size = self.T.rules.row_size
        while len(self.row) < size:
            inst = self._draw_card()
            if inst is None:
                return
            self.row.append(inst)

    def _take(self, zone: list, t: int) -> int:
        itype = self.T.itype
        for k, inst in enumerate(zone):
            if itype[inst] == t:
                return zone.pop(k)
        raise AssertionError(f"no card of type {t}")

    def _take_hand(self, p: int, t: int) -> int:
        """Remove a card of type t from p's hand, preferring one the others saw taken from the Row."""
        known = self.known[p]
        if known:
            itype = self.T.itype
            for k, inst in enumerate(known):
                if itype[inst] == t:
                    known.pop(k)
                    self.hands[p].remove(inst)
                    return inst
        return self._take(self.hands[p], t)

    # ----------------------------------------------------------------- turn structure

    def _start_turn(self) -> None:
        p = self.current
        self._reset_turn()
        self.stats["turns"][p] += 1
        self.actions = self.T.rules.actions
        self._claims(p)  # "already true at the start of your turn"
        self.picks = self.T.rules.draw_picks + self.agg[p].row_pick
        self.phase = DRAW_PHASE
        if self.T.travel:  # Travel mode: every draw comes from the deck, so there is nothing to decide
            for _ in range(self.T.rules.draw_picks):
                self._draw_to_hand(p)
            self.picks = 0
        self._maybe_end_draw(p)

    def _maybe_end_draw(self, p: int) -> None:
        deck_ok = self.deck_picks < self.T.rules.draw_picks and (self.deck or self.discard)
        if self.picks > 0 and (self.row or deck_ok):
            return
        extra = self.T.rules.draw_picks + self.agg[p].row_pick - self.picks - self.T.rules.draw_picks
        if extra > 0 and self.hands[p]:  # an extra Row pick is paid back: "then discard 1 card"
            self.phase = EFFECT_DISCARD
            self.discard_left = min(extra, len(self.hands[p]))
            self.pay_floor = 0
            self.after = DRAW_END
            self.picks = 0
            return
        self._end_draw()

    def _end_draw(self) -> None:
        if not self.T.travel:
            self._refill_row()  # "Refill the Row to 3 cards at the end of this phase"
        self.phase = PLAY

    def _end_turn(self) -> None:
        p = self.current
        self._claims(p)
        limit = self.T.rules.hand_limit + self.agg[p].hand_limit
        over = len(self.hands[p]) - limit
        if over > 0:
            self.stats["limit_hits"][p] += 1
            self.phase = LIMIT
            self.limit_left = over
            self.pay_floor = 0
            return
        self._next_turn()

    def _next_turn(self) -> None:
        self.turn += 1
        if self.turn >= self.n * self.T.rounds:
            self.phase = OVER
            self._reset_turn()
            return
        self.current = (self.first + self.turn) % self.n
        self._start_turn()

    def _continue(self, p: int) -> None:
        self.in_bonus = False
        if self.actions > 0:
            self.phase = PLAY
        else:
            self._end_turn()

    # ----------------------------------------------------------------- playing cards

    def _chain_out(self, p: int) -> int:
        chain = self.chains[p]
        if not chain:
            return self.T.ALL  # the Core's Output is universal
        if len(chain) in self.agg[p].open_hosts:
            return self.T.ALL
        return self.T.outbit[self.T.itype[chain[-1]]]

    def cost_of(self, p: int, t: int, consume: bool = False) -> int:
        """Return what card type t costs player p now: printed, then flat changes, floored at 0."""
        T = self.T
        agg = self.agg[p]
        pend = self.pend_cost[p]
        if not (agg.cost or pend or agg.perm_cost):
            return T.cost[t]  # nothing changes costs: the printed Cost
        k = T.kind[t]
        ob = T.outbit[t]
        c = T.cost[t]
        for kind, tm, by in agg.cost:
            if kind == k and (tm == T.ALL or ob & tm):
                c += by
        if pend:
            keep = []
            for entry in pend:
                kind, tm, by = entry
                if kind == k and (tm == T.ALL or ob & tm):
                    c += by
                elif consume:
                    keep.append(entry)
            if consume:
                self.pend_cost[p] = keep
        for key, kind, tm, by in agg.perm_cost:
            if key not in self.once_used and kind == k and (tm == T.ALL or ob & tm) and c > 0:
                c += by
                if consume:
                    self.once_used.add(key)
        return c if c > 0 else 0

    def _req_ok(self, p: int, t: int) -> bool:
        req = self.T.req[t]
        return req is None or self._cond(p, req)

    def _can_attach(self, p: int, t: int) -> bool:
        if self.T.inmask[t] & self._chain_out(p) or self.pend_any[p]:
            return True
        return any(key not in self.once_used for key in self.agg[p].perm_any)

    def _free_hosts(self, p: int) -> list[int]:
        T = self.T
        hosts = self.hosts[p]
        out = [0] if len(hosts[0]) < T.core_slots else []
        itype = T.itype
        slots = T.slots
        for i, inst in enumerate(self.chains[p]):
            if len(hosts[i + 1]) < slots[itype[inst]]:
                out.append(i + 1)
        return out

    def _play_actions(self, p: int) -> list[int]:
        T = self.T
        hand = self.hands[p]
        room = len(hand) - 1
        acts = []
        itype = T.itype
        kind = T.kind
        free = None
        for t in {itype[i] for i in hand}:
            k = kind[t]
            if k == CALIBRATION and self.cals >= T.rules.calibrations_per_turn:
                continue
            if self.cost_of(p, t) > room or not self._req_ok(p, t):
                continue
            if k == PART:
                if self._can_attach(p, t):
                    acts.append(T.A_PART + t)
            elif k == UPGRADE:
                if free is None:
                    free = self._free_hosts(p)
                base = T.A_UPG + t * T.max_hosts
                acts.extend(base + h for h in free)
            else:
                acts.append(T.A_CAL + t)
        acts.sort()
        acts.append(T.A_RESEARCH)
        acts.append(T.A_END)
        return acts

    def _discard_actions(self, p: int) -> list[int]:
        """Discards go in non-decreasing type order, so each multiset is one path; never strand a payment."""
        T = self.T
        left = self.pay_left if self.phase == PAY else (self.limit_left if self.phase == LIMIT else self.discard_left)
        types = sorted(T.itype[i] for i in self.hands[p])
        acts = []
        last = -1
        floor = self.pay_floor
        for k, t in enumerate(types):
            if t != last and t >= floor and len(types) - k >= left:
                acts.append(T.A_DISCARD + t)
            last = t
        return acts

    def _upgrade_actions(self, p: int) -> list[int]:
        T = self.T
        hand = self.hands[p]
        room = len(hand) - 1
        free = self._free_hosts(p)
        if not free:
            return []
        acts = []
        for t in {T.itype[i] for i in hand}:
            if T.kind[t] == UPGRADE and self.cost_of(p, t) <= room and self._req_ok(p, t):
                base = T.A_UPG + t * T.max_hosts
                acts.extend(base + h for h in free)
        acts.sort()
        return acts

    def _announce(self, p: int, t: int, k: int, host: int) -> None:
        """Start playing a card: take it from hand, spend the action, fix its cost, then pay."""
        T = self.T
        if not self.in_bonus:
            self.actions -= 1
            self.actions_taken += 1
        link = 0
        if k == PART:
            out = self._chain_out(p)
            if T.inmask[t] & out:
                # how it attached: 0 first Part (universal Core), 1 printed Output, 2 an open end
                link = 0 if not self.chains[p] else (1 if out != T.ALL else 2)
                self.pend_any[p] = 0  # "your next Part may have any Input" is used up by the next Part
            elif self.pend_any[p]:
                link = 3
                self.pend_any[p] = 0
            else:  # a once-per-turn "any Input" permission makes the connection
                link = 3
                key = next(key for key in self.agg[p].perm_any if key not in self.once_used)
                self.once_used.add(key)
            host = link
        inst = self._take_hand(p, t)
        cost = self.cost_of(p, t, consume=True)
        self.pend = (inst, host)
        self.last_paid = cost
        if cost > 0:
            self.phase = PAY
            self.pay_left = cost
            self.pay_floor = 0
        else:
            self._enter_play(p)

    def _enter_play(self, p: int) -> None:
        """The card enters play (or resolves, for a Calibration); then its triggers resolve."""
        T = self.T
        inst, host = self.pend
        t = T.itype[inst]
        k = T.kind[t]
        self.dirty = True
        if k == PART:
            self.chains[p].append(inst)
            self.links[p].append(host)  # for a Part, `host` carries how it attached
            self.hosts[p].append([])
            if T.has_statics[t]:
                self._rebuild(p)
            self._retab(p)
        elif k == UPGRADE:
            self.hosts[p][host].append(inst)
            if T.has_statics[t]:
                self._rebuild(p)
            self._retab(p)
        else:
            self.cals += 1
            self.stats["calibrations"][p] += 1
        self.played |= 1 << k
        self.stats["plays"].append((self.turn, p, t, self.last_paid))
        self.after = k
        self.queue = []
        if T.played[t]:
            self.queue.append(list(T.played[t]))
        self._fire(p, k, inst, self.last_paid, resolve=False)
        self._resolve(p)

    def _fire(self, p: int, event: int, inst: int, paid: int, resolve: bool = True) -> None:
        """Queue the triggers of p's cards in play that fire on this event (a card never triggers itself)."""
        T = self.T
        if event == RESEARCH:
            self.after = RESEARCH
            self.queue = []
        ob = T.outbit[T.itype[inst]] if inst >= 0 else 0
        for key, once, ev, tm, min_cost, ops, src in self.agg[p].triggers:
            if ev != event or src == inst:
                continue
            if tm != T.ALL and not ob & tm:
                continue
            if min_cost and paid < min_cost:
                continue
            if once:
                if key in self.once_used:
                    continue
                self.once_used.add(key)
            self.queue.append(list(ops))
        if resolve:
            self._resolve(p)

    def _resolve(self, p: int) -> None:
        """Resolve queued effects fully, stopping only for a choice (a discard, or trigger order)."""
        while True:
            while self.cur_ops:
                code, a, b, c = self.cur_ops.pop(0)
                if code == DRAW:
                    for _ in range(a):
                        self._draw_to_hand(p)
                elif code == ACTION:
                    self.actions += a
                elif code == NEXT_COST:
                    self.pend_cost[p].append((a, b, c))
                elif code == NEXT_ANY:
                    self.pend_any[p] = 1
                elif code == DISCARD and self.hands[p]:
                    self.phase = EFFECT_DISCARD
                    self.discard_left = min(a, len(self.hands[p]))
                    self.pay_floor = 0
                    return
            if not self.queue:
                break
            if len(self.queue) > 1 and any(op[0] == DISCARD for g in self.queue for op in g):
                self.phase = ORDER  # "you choose the order" matters only when a discard is involved
                return
            self.cur_ops = self.queue.pop(0)
        self._after_resolution(p)

    def _after_resolution(self, p: int) -> None:
        k = self.after
        self.after = -1
        if k == DRAW_END:
            self._end_draw()
            return
        if k == CALIBRATION:
            inst, _ = self.pend
            self.discard.append(inst)  # "announce it, resolve it, discard it, then gain +1 action"
            self.actions += 1
        self.pend = None
        if k == PART and self._upgrade_actions(p):
            self.phase = BONUS
            return
        self._continue(p)

    # ----------------------------------------------------------------- conditions and Patents

    def _retab(self, p: int) -> None:
        """Recount p's tableau: chain length, Parts per type, types, Upgrades, most under a Part, best VP."""
        self._legal = None
        T = self.T
        itype, outbit, vp = T.itype, T.outbit, T.vp
        by = [0] * len(T.conn)
        top = 0
        for i in self.chains[p]:
            t = itype[i]
            by[T.bitindex[outbit[t]]] += 1
            if vp[t] > top:
                top = vp[t]
        hosts = self.hosts[p]
        self.tab[p] = (
            len(self.chains[p]),
            tuple(by),
            sum(1 for c in by if c),
            sum(len(h) for h in hosts),
            max((len(h) for h in hosts[1:]), default=0),
            top,
        )

    def count(self, p: int, q: int, tm: int) -> int:
        """Return one quantity for player p (see tables.Q)."""
        tab = self.tab[p]
        if q == 0:
            return tab[0]
        if q == 1:
            if tm == self.T.ALL:
                return tab[0]
            by = tab[1]
            return sum(by[i] for i in self.T.bits_of[tm])
        if q == 3:
            return tab[3]
        if q == 2:
            return tab[2]
        if q == 4:
            return tab[4]
        if q == 5:
            return tab[5]
        if q == 6:
            return len(self.hands[p])
        if q == 7:
            return sum(1 for o in self.owner if o == p)
        if q == 8:
            return sum(1 for o in self.owner if o == p) + len(self.licenses[p])
        if q == 9:
            return self.actions_taken if p == self.current else 0
        raise AssertionError(f"quantity {q} needs a host")

    def _cond(self, p: int, cond: tuple) -> bool:
        tests, played = cond
        if played and (p != self.current or self.played & played != played):
            return False
        tab = self.tab[p]
        for q, tm, n in tests:
            if q == 0 or q == 1 and tm == self.T.ALL:
                have = tab[0]
            elif q == 1:
                by = tab[1]
                have = sum(by[i] for i in self.T.bits_of[tm])
            elif 2 <= q <= 5:
                have = tab[q]
            else:
                have = self.count(p, q, tm)
            if have < n:
                return False
        return True

    def _claims(self, p: int) -> None:
        """Claim every Patent (or License) p now qualifies for; only ever called on p's own turn."""
        self.dirty = False
        T = self.T
        owner, lic = self.owner, self.licensee
        again = True
        while again:  # a claim can complete a condition that counts claims
            again = False
            for j, k in enumerate(self.patents):
                o = owner[j]
                if o >= 0 and (o == p or lic[j] >= 0 or not T.licenses or lic[j] == p):
                    continue  # taken, or one claim per Patent per player
                if not self._cond(p, T.patent_cond[k]):
                    continue
                again = True
                if o < 0:
                    owner[j] = p
                    self.stats["claims"].append((self.turn, p, k, False))
                else:
                    lic[j] = p
                    card = self._draw_card()  # the top Workshop card, face down, as the License
                    self.licenses[p].append(card if card is not None else -1)
                    self.stats["claims"].append((self.turn, p, k, True))

    def _rebuild(self, p: int) -> None:
        """Sum the effects of p's Core, Parts and Upgrades (called when the tableau changes)."""
        self._legal = None
        T = self.T
        agg = Agg()
        sources = [(T.n_inst + self.cores[p], T.T + self.cores[p], 0)] if self.cores[p] >= 0 else []
        for h, ups in enumerate(self.hosts[p]):
            if h:
                inst = self.chains[p][h - 1]
                sources.append((inst, T.itype[inst], h))
            for u in ups:
                sources.append((u, T.itype[u], h))
        for src, t, h in sources:
            st = T.statics[t]
            agg.cost.extend(st.cost)
            agg.perm_cost.extend((src * 4 + i, k, tm, by) for i, k, tm, by in st.perm_cost)
            agg.perm_any.extend(src * 4 + i for i in st.perm_any)
            agg.research += st.research
            agg.row_pick += st.row_pick
            agg.hand_limit += st.hand_limit
            if st.open_end and t < T.T and T.kind[t] == UPGRADE:
                agg.open_hosts.add(h)
            for i, once, ev, tm, mc, ops in st.triggers:
                agg.triggers.append((src * 4 + i, once, ev, tm, mc, ops, src if src < T.n_inst else -2))
        self.agg[p] = agg

    # ----------------------------------------------------------------- scoring

    def score_breakdown(self, p: int) -> dict[str, int]:
        """Return p's VP by source: Parts, Upgrades, Core, Patents, Licenses, End game."""
        T = self.T
        itype, vp = T.itype, T.vp
        parts = sum(vp[itype[i]] for i in self.chains[p])
        upgrades = sum(vp[itype[u]] for h in self.hosts[p] for u in h)
        core = vp[T.T + self.cores[p]] if self.cores[p] >= 0 else 0
        patents = sum(T.patent_vp[k] for j, k in enumerate(self.patents) if self.owner[j] == p)
        licenses = T.rules.license_vp * len(self.licenses[p])
        end = 0
        chain = self.chains[p]
        sources = [(T.T + self.cores[p], 0)] if self.cores[p] >= 0 else []
        for h, ups in enumerate(self.hosts[p]):
            if h:
                sources.append((itype[chain[h - 1]], h))
            sources.extend((itype[u], h) for u in ups)
        for t, h in sources:
            for each, q, tm, every in T.statics[t].end_game:
                if q == Q["neighbors"]:
                    n = self._neighbors(p, h)
                else:
                    n = self.count(p, q, tm)
                end += each * (n // every)
        return {
            "parts": parts,
            "upgrades": upgrades,
            "core": core,
            "patents": patents,
            "licenses": licenses,
            "end_game": end,
        }

    def _neighbors(self, p: int, h: int) -> int:
        """Return how many Parts sit directly left and right of host h (0 = Core, i = i-th Part)."""
        length = len(self.chains[p])
        if h == 0:
            return 1 if length else 0
        return (1 if h > 1 else 0) + (1 if h < length else 0)

    def scores(self) -> list[int]:
        """Return every player's VP as it stands (final once terminal)."""
        return [sum(self.score_breakdown(p).values()) for p in range(self.n)]

    def winners(self) -> list[int]:
        """Return the winners: most VP, then longest chain; still tied, a shared win."""
        sc = self.scores()
        keys = [(sc[p], len(self.chains[p])) for p in range(self.n)]
        best = max(keys)
        return [p for p in range(self.n) if keys[p] == best]

    def returns(self) -> list[float]:
        """Return win shares at the end (1/k for each of k tied winners), zeros before."""
        if self.phase != OVER:
            return [0.0] * self.n
        w = self.winners()
        return [1.0 / len(w) if p in w else 0.0 for p in range(self.n)]

    # ----------------------------------------------------------------- copies, views, strings

    def clone(self) -> State:
        """Return an independent copy (cheap: lists copied, static tables shared)."""
        s = State.__new__(State)
        s.T, s.n, s.rng = self.T, self.n, self.rng
        s.deck, s.discard, s.row = self.deck[:], self.discard[:], self.row[:]
        s.patents, s.owner, s.licensee = self.patents[:], self.owner[:], self.licensee[:]
        s.hands = [h[:] for h in self.hands]
        s.known = [h[:] for h in self.known]
        s.chains = [c[:] for c in self.chains]
        s.hosts = [[u[:] for u in hp] for hp in self.hosts]
        s.cores = self.cores[:]
        s.offers = [o[:] for o in self.offers]
        s.licenses = [x[:] for x in self.licenses]
        s.pend_cost = [x[:] for x in self.pend_cost]
        s.pend_any = self.pend_any[:]
        s.agg = self.agg[:]  # rebuilt, never mutated in place
        s.tab = self.tab[:]
        s.dirty = self.dirty
        s.hand_watch = self.hand_watch
        s._legal = self._legal
        s.first, s.turn, s.current, s.phase = self.first, self.turn, self.current, self.phase
        s.picks, s.deck_picks, s.actions, s.cals = self.picks, self.deck_picks, self.actions, self.cals
        s.played, s.actions_taken, s.once_used = self.played, self.actions_taken, set(self.once_used)
        s.pay_left, s.pay_floor, s.pend, s.last_paid = self.pay_left, self.pay_floor, self.pend, self.last_paid
        s.queue = [g[:] for g in self.queue]
        s.cur_ops = self.cur_ops[:]
        s.after, s.in_bonus, s.core_turn = self.after, self.in_bonus, self.core_turn
        s.limit_left, s.discard_left = self.limit_left, self.discard_left
        s.history = self.history[:]
        st = self.stats
        s.stats = {
            "reshuffles": st["reshuffles"],
            "limit_hits": st["limit_hits"][:],
            "dry_draws": st["dry_draws"],
            "claims": st["claims"][:],
            "plays": st["plays"][:],
            "research": st["research"][:],
            "calibrations": st["calibrations"][:],
            "turns": st["turns"][:],
        }
        s.links = [x[:] for x in self.links]
        return s

    def resample(self, player: int, rng) -> State:
        """Return a clone where what `player` can't see (deck order, others' unseen hand cards, face-down
        Licenses) is dealt afresh from the same cards: one determinization for search bots."""
        s = self.clone()
        pool = list(s.deck)
        slots = []
        for q in range(s.n):
            if q == player:
                continue
            known = list(s.known[q])
            hidden = list(s.hands[q])
            for i in known:
                hidden.remove(i)
            pool.extend(hidden)
            slots.append((q, known, len(hidden)))
        lic = [(q, k) for q in range(s.n) for k, i in enumerate(s.licenses[q]) if i >= 0]
        pool.extend(s.licenses[q][k] for q, k in lic)
        rng.shuffle(pool)
        for q, known, n in slots:
            s.hands[q] = known + pool[:n]
            del pool[:n]
        for q, k in lic:
            s.licenses[q][k] = pool.pop()
        s.deck = pool
        s._legal = None
        s.rng = rng.getrandbits(64)  # later reshuffles must not follow the real game's seed either
        return s

    @property
    def round(self) -> int:
        """Return the current round, from 1."""
        return min(self.turn // self.n, self.T.rounds - 1) + 1

    def _name(self, inst: int) -> str:
        return self.T.names[self.T.itype[inst]]

    def _tableau(self, p: int) -> dict:
        T = self.T
        return {
            "core": T.names[T.T + self.cores[p]] if self.cores[p] >= 0 else None,
            "core_upgrades": [self._name(u) for u in self.hosts[p][0]],
            "chain": [
                {"part": self._name(i), "upgrades": [self._name(u) for u in self.hosts[p][k + 1]]}
                for k, i in enumerate(self.chains[p])
            ],
            "licenses": len(self.licenses[p]),
        }

    def observation(self, player: int) -> dict:
        """Return what `player` may see: public zones, own hand, other hands only as sizes and Row picks."""
        T = self.T
        players = []
        for q in range(self.n):
            view = self._tableau(q)
            if self.phase == CORE and q != player:
                view["core"] = None  # Cores are kept in secret until everyone has chosen
            if q == player:
                view["hand"] = sorted(self._name(i) for i in self.hands[q])
                view["offer"] = [T.names[T.T + c] for c in self.offers[q]] if self.phase == CORE else []
            else:
                view["hand_size"] = len(self.hands[q])
                view["known_in_hand"] = sorted(self._name(i) for i in self.known[q])
            players.append(view)
        obs = {
            "player": player,
            "round": self.round,
            "rounds": T.rounds,
            "turn": self.turn,
            "current": self.current_player(),
            "phase": PHASE_NAMES[self.phase],
            "row": [self._name(i) for i in self.row],
            "deck_size": len(self.deck),
            "discard": [self._name(i) for i in self.discard],
            "patents": [
                {"name": T.patent_names[k], "owner": self.owner[j], "licensee": self.licensee[j]}
                for j, k in enumerate(self.patents)
            ],
            "players": players,
        }
        if player == self.current and self.phase != OVER:
            obs["turn_state"] = {
                "actions": self.actions,
                "calibrations": self.cals,
                "picks": self.picks,
                "to_pay": self.pay_left,
                "to_discard": self.limit_left or self.discard_left,
            }
        return obs

    def observation_string(self, player: int) -> str:
        """Return the observation as a canonical string (equal for states `player` can't tell apart)."""
        return json.dumps(self.observation(player), sort_keys=True, ensure_ascii=False)

    information_state_string = observation_string

    def describe(self, a: int) -> str:
        """Return an action in words, e.g. `play Part Boiler`."""
        T = self.T
        if a < T.A_ROW:
            return f"keep Core {T.names[T.T + a]}"
        if a < T.A_DECK:
            return f"take {T.names[a - T.A_ROW]} from the Row"
        if a == T.A_DECK:
            return "take the top card of the deck"
        if a < T.A_UPG:
            return f"play Part {T.names[a - T.A_PART]}"
        if a < T.A_CAL:
            t, h = divmod(a - T.A_UPG, T.max_hosts)
            return f"play Upgrade {T.names[t]} under {'the Core' if h == 0 else f'Part {h}'}"
        if a < T.A_RESEARCH:
            return f"play Calibration {T.names[a - T.A_CAL]}"
        if a == T.A_RESEARCH:
            return "Research"
        if a == T.A_END:
            return "end the turn"
        if a == T.A_SKIP:
            return "skip the Bonus Upgrade"
        if a < T.A_ORDER:
            return f"discard {T.names[a - T.A_DISCARD]}"
        return f"resolve trigger {a - T.A_ORDER + 1} first"

    def action_to_string(self, action: int, player: int | None = None) -> str:
        """Return `P1: play Part Boiler` (players numbered from 1, as printed); `seed 42` for chance."""
        if self.phase == SETUP or player == CHANCE:
            return f"seed {action}"
        who = self.current if player is None else player
        return f"P{who + 1}: {self.describe(action)}"

    def __str__(self) -> str:
        lines = [
            f"round {self.round}/{self.T.rounds} turn {self.turn} P{self.current + 1} "
            f"{PHASE_NAMES[self.phase]} deck {len(self.deck)} discard {len(self.discard)}",
            "row: " + ", ".join(self._name(i) for i in self.row),
        ]
        for p in range(self.n):
            tab = self._tableau(p)
            chain = " → ".join(
                c["part"] + (f" [{', '.join(c['upgrades'])}]" if c["upgrades"] else "") for c in tab["chain"]
            )
            lines.append(f"P{p + 1} {tab['core']} | {chain} | hand {len(self.hands[p])}")
        return "\n".join(lines)

    # ----------------------------------------------------------------- serialization

    _PLAIN = (
        "rng",
        "deck",
        "discard",
        "row",
        "patents",
        "owner",
        "licensee",
        "hands",
        "known",
        "chains",
        "links",
        "hosts",
        "cores",
        "offers",
        "licenses",
        "pend_cost",
        "pend_any",
        "first",
        "turn",
        "current",
        "phase",
        "picks",
        "deck_picks",
        "actions",
        "cals",
        "played",
        "actions_taken",
        "pay_left",
        "pay_floor",
        "last_paid",
        "queue",
        "cur_ops",
        "after",
        "in_bonus",
        "core_turn",
        "limit_left",
        "discard_left",
        "history",
        "stats",
        "hand_watch",
    )

    def to_json(self) -> dict:
        """Return the whole state as JSON-ready data (not the tables: they come from the card set)."""
        data = json.loads(json.dumps({k: getattr(self, k) for k in self._PLAIN}))  # deep, plain copy
        data["once_used"] = sorted(self.once_used)
        data["pend"] = list(self.pend) if self.pend else None
        return data

    @classmethod
    def from_json(cls, tables: Tables, data: dict) -> State:
        """Rebuild a state written by to_json for the same card set, player count and variant."""
        data = json.loads(json.dumps(data))
        s = cls.blank(tables)
        for k in cls._PLAIN:
            setattr(s, k, data[k])
        s.once_used = set(data["once_used"])
        s.pend = tuple(data["pend"]) if data["pend"] else None
        s.pend_cost = [[tuple(e) for e in x] for x in s.pend_cost]
        s.queue = [[tuple(op) for op in g] for g in s.queue]
        s.cur_ops = [tuple(op) for op in s.cur_ops]
        s.stats["claims"] = [tuple(c) for c in s.stats["claims"]]
        s.stats["plays"] = [tuple(c) for c in s.stats["plays"]]
        for p in range(s.n):
            s._rebuild(p)
            s._retab(p)
        return s
