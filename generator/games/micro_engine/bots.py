"""Micro-Engine bots: random, a heuristic player, and a determinized Monte Carlo player built on it.

Bots are handed the whole state object but read only what `State.observation(seat)` shows: their own
hand, every public zone, the other hands' sizes and the cards others were seen taking from the Row.
The rollout bot samples the hidden cards (the deck order and the other hands) before it looks ahead.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from itertools import chain

from . import tableau
from .engine import State
from .phase import BONUS, CHOOSE_CORE, EFFECT_DISCARD, HAND_LIMIT, OVER, PAY, PLAY, TRIGGER_ORDER, Phase
from .tables import ACTION, CALIBRATION, DISCARD, DRAW, NEXT_ANY, NEXT_COST, PART, UPGRADE, CompiledOp, Q, Tables
from .value import ValueModel

# A Patent a player may still claim: (its VP, its unmet tests as (quantity, typemask, at least, has now),
# the kinds-played mask it needs, the Outputs of the player's chain)
OpenPatent = tuple[float, list[tuple[int, int, int, int]], int, set[int]]


class Knowledge:
    """What a bot knows about the card set before the game: per-type values, computed once per Tables."""

    @classmethod
    def of(cls, T: Tables) -> Knowledge:
        """Return the knowledge for these tables (built once and kept on them)."""
        k = T.__dict__.get("_knowledge")
        if k is None:
            k = T.__dict__["_knowledge"] = cls(T)
        return k

    def __init__(self, T: Tables):
        self.T = T
        self._keep_base: dict[int, list[float]] = {}
        parts = [t for t in range(T.T) if T.kind[t] == PART]
        copies = [0] * T.T
        for t in T.itype:
            copies[t] += 1
        self.copies = copies
        n_parts = sum(copies[t] for t in parts)
        # Share of Parts with each Output (by bit), and of Parts accepting each Input.
        self.out_share = {b: sum(copies[t] for t in parts if T.outbit[t] == b) / n_parts for b in T.bitindex}
        self.in_share = {b: sum(copies[t] for t in parts if T.inmask[t] & b) / n_parts for b in T.bitindex}
        self.played_value = [self.ops_value(T.played[t]) for t in range(T.T)]
        self.deck_value = 1.0
        self._static: dict[tuple[int, int], float] = {}

    def keep_base(self, t: int, turns_left: int) -> float:
        """Return the part of a card's keep value that depends only on its type and the turns left."""
        return self.keep_row(turns_left)[t]

    def keep_row(self, turns_left: int) -> list[float]:
        """Return keep_base for every card type at `turns_left` (built once per value)."""
        row = self._keep_base.get(turns_left)
        if row is None:
            T = self.T
            row = self._keep_base[turns_left] = []
            for t in range(T.T):
                kind = T.kind[t]
                if kind == PART:
                    v = T.vp[t] + self.played_value[t] + 0.5 * self.static_value(t, turns_left) - 0.45 * T.cost[t]
                elif kind == UPGRADE:
                    v = T.vp[t] + 0.6 * self.static_value(t, turns_left) - 0.45 * T.cost[t]
                else:
                    v = 0.6 + self.played_value[t] - 0.45 * T.cost[t]
                row.append(v)
        return row

    def ops_value(self, ops: Iterable[CompiledOp]) -> float:
        """Return a rough value, in cards, of resolving these ops once."""
        v = 0.0
        for code, a, _b, c in ops:
            if code == DRAW:
                v += 0.9 * a
            elif code == ACTION:
                v += 1.4 * a
            elif code == NEXT_COST:
                v += 0.7 * -c
            elif code == NEXT_ANY:
                v += 0.5
            elif code == DISCARD:
                v -= 0.4 * a
        return v

    def static_value(self, src_type: int, turns_left: int, chain_len: int = 0) -> float:
        """Return a rough value of a source's ongoing and once-per-turn effects over the rest of the game."""
        key = (src_type, turns_left)
        v = self._static.get(key)
        if v is None:
            v = self._static[key] = self._static_value(src_type, turns_left)
        return v

    def _static_value(self, src_type: int, turns_left: int) -> float:
        T = self.T
        st = T.statics[src_type]
        plays = max(0.0, turns_left * 0.9)  # Parts still to come, roughly one per turn
        v = 0.0
        for kind, tm, by in st.cost:
            share = 1.0 if tm == T.ALL else sum(self.out_share[b] for b in T.bitindex if b & tm)
            v += -by * plays * share * (0.8 if kind == PART else 0.35)
        for _, _kind, _tm, by in st.perm_cost:
            v += -by * plays * 0.8
        v += 0.5 * len(st.perm_any) * plays * 0.5
        v += 0.25 * st.research * turns_left + 0.9 * st.row_pick * turns_left
        if st.open_end:
            v += 0.3 * min(turns_left, 3)
        for _, _once, ev, tm, min_cost, ops in st.triggers:
            rate = 0.8 if ev == PART else 0.5
            if tm != T.ALL:
                rate *= sum(self.out_share[b] for b in T.bitindex if b & tm) * 1.3
            if min_cost:
                rate *= 0.45
            v += rate * turns_left * self.ops_value(ops)
        return v

    def end_value(self, s: State, p: int, src_type: int, host: int = -1, extra: int = 0) -> float:
        """Return what a source's End game effects would score if the game ended with p's tableau now."""
        T = self.T
        v = 0.0
        for each, q, tm, every in T.statics[src_type].end_game:
            if q == Q["neighbors"]:
                n = s.neighbors(p, host) if host >= 0 else 1
            else:
                n = s.count(p, q, tm) + extra
            v += each * (n // every)
        return v

    def engine_value(self, c: State, q: int, left: int) -> float:
        """Return what q's Parts and Upgrades in play are still worth by their ongoing effects (Knowledge.static_value)."""
        itype, has = c.tables.itype, c.tables.has_statics
        v = 0.0
        for card in chain(c.chains[q], *c.hosts[q]):  # the Parts in the chain, then each one's Upgrades
            if has[itype[card]]:
                v += self.static_value(itype[card], left)
        return v


class HeuristicBot:
    """Scores each legal action with hand-written rules of thumb and plays the best one."""

    name = "heuristic"

    def __init__(self, seed: int = 0, weights: dict[str, float] | None = None, random_core: bool = False):
        self.rng = random.Random(seed)
        self.random_core = random_core  # keep a random Core: for measuring Cores without selection bias
        self.w = {"discard": 0.8, "flex": 0.4, "patent": 1.0, "research": 0.85, "late": 0.35}
        self.w.update(weights or {})

    def restart(self, seed: int) -> None:
        """Reseed for a new game."""
        self.rng.seed(seed)

    # -- evaluation ------------------------------------------------------------------
    # Every value below is computed with the same arithmetic, in the same order, as the plain rules of thumb
    # they stand for: the per-type parts are cached per (type, turns left) and the per-hand parts once per
    # decision, so the bot's choices are identical, only cheaper (the rollout bot calls it millions of times).

    def turns_left(self, s: State) -> int:
        """Return how many of my turns remain after this one."""
        last = s.tables.rounds - 1
        done = s.turn // s.num_players
        return last - done if done < last else 0

    def keep_value(self, s: State, p: int, t: int) -> float:
        """Return how much a card in hand is worth keeping (what discarding it costs me)."""
        left = self.turns_left(s)
        if left == 0 and s.phase == HAND_LIMIT:
            return 0.0
        return self._keep(s, p, t, left, Knowledge.of(s.tables), tableau.chain_output(s, p))

    def _keep(self, s: State, p: int, t: int, left: int, k: Knowledge, output: int) -> float:
        T = k.T
        kind = T.kind[t]
        v = k.keep_base(t, left)
        if kind == PART:
            if T.inmask[t] & output:
                v += 0.8
            req = T.req[t]
            if req is not None and not tableau.meets(s, p, req):
                v -= 1.0 if left > 2 else 3.0
        elif kind == UPGRADE:
            req = T.req[t]
            if req is not None and not tableau.meets(s, p, req):
                v -= 1.0
        if left <= 1:
            v *= 0.6
        return v

    def hand_values(self, s: State, p: int, left: int) -> dict[int, float]:
        """Return keep_value for each card type in p's hand."""
        itype = s.tables.itype
        types = {itype[i] for i in s.hands[p]}
        if left == 0 and s.phase == HAND_LIMIT:
            return dict.fromkeys(types, 0.0)
        T = s.tables
        base = Knowledge.of(T).keep_row(left)
        output = tableau.chain_output(s, p)
        kind_of, inmask, req_of, meets = T.kind, T.inmask, T.req, tableau.meets
        late = left <= 1
        values = {}
        for t in types:  # _keep, inlined: the rollout bot's hottest loop
            kind = kind_of[t]
            v = base[t]
            if kind == PART:
                if inmask[t] & output:
                    v += 0.8
                req = req_of[t]
                if req is not None and not meets(s, p, req):
                    v -= 1.0 if left > 2 else 3.0
            elif kind == UPGRADE:
                req = req_of[t]
                if req is not None and not meets(s, p, req):
                    v -= 1.0
            if late:
                v *= 0.6
            values[t] = v
        return values

    def discard_cost(self, s: State, p: int) -> float:
        """Return the value of the cheapest card I would discard to pay a Cost."""
        left = self.turns_left(s)
        if left == 0 and s.actions_left <= 1:
            return 0.05  # last action of the game: cards in hand score nothing
        vals = self.hand_values(s, p, left)
        if not vals:
            return 9.0
        return max(0.1, min(min(vals.values()), 1.5)) * self.w["discard"]

    def patent_bonus(self, s: State, p: int, t: int, open_patents: list[OpenPatent] | None = None) -> float:
        """Return progress toward open Patents that playing card type t makes (`open_patents`: patent_progress)."""
        T = s.tables
        if open_patents is None:
            open_patents = self.patent_progress(s, p)
        bonus = 0.0
        kind = T.kind[t]
        out = T.outbit[t]
        bit = 1 << kind
        for value, tests, played, outs in open_patents:
            for q, tm, n, have in tests:
                gain = 0
                if kind == PART and (q == 0 or (q == 1 and out & tm)) or kind == PART and q == 2 and out not in outs:
                    gain = 1
                elif kind == PART and q == 5 and T.vp[t] >= n:
                    gain = n - have
                elif kind == UPGRADE and q in (3, 4):
                    gain = 1
                if gain:
                    bonus += value * gain / n * (1.0 + have / n)
            if played and not played & bit and not s.kinds_played & bit:
                missing = bin(played & ~s.kinds_played).count("1")
                bonus += value / 3 * (1.5 if missing == 1 else 0.5)
        return bonus * self.w["patent"]

    def patent_progress(self, s: State, p: int) -> list[OpenPatent]:
        """Return, per Patent p may still claim: its value, its unmet tests with what p has, its kinds mask,
        and the Outputs of p's chain (what patent_bonus reads, gathered once per decision)."""
        T = s.tables
        owner, licensee = s.patent_owner, s.patent_licensee
        itype, outbit = T.itype, T.outbit
        outs = {outbit[itype[i]] for i in s.chains[p]}
        found: list[OpenPatent] = []
        for j, k in enumerate(s.patents):
            o = owner[j]
            if o == p or licensee[j] == p:
                continue
            if o >= 0 and (not T.licenses or licensee[j] >= 0):
                continue
            value = T.patent_vp[k] if o < 0 else T.rules.license_vp
            tests, played = T.patent_cond[k]
            unmet = []
            for q, tm, n in tests:
                have = tableau.count(s, p, q, tm)
                if have < n:
                    unmet.append((q, tm, n, have))
            found.append((value, unmet, played, outs))
        return found

    def play_score(
        self,
        s: State,
        p: int,
        t: int,
        host: int,
        dc: float,
        left: int | None = None,
        masks: list[int] | None = None,
        patents: list[OpenPatent] | None = None,
    ) -> float:
        """Return the value of playing card type t now (for an Upgrade, under host); dc: a discard's cost.
        `left` (turns left), `masks` (the Inputs of the Parts in hand) and `patents` (patent_progress) may be
        passed when already known."""
        v = self.play_base(s, p, t, dc, left, masks, patents)
        if s.tables.kind[t] == UPGRADE:
            v = self.upgrade_under(s, p, t, host, v)
        return v

    def play_base(
        self,
        s: State,
        p: int,
        t: int,
        dc: float,
        left: int | None = None,
        masks: list[int] | None = None,
        patents: list[OpenPatent] | None = None,
    ) -> float:
        """Return play_score without what an Upgrade's host adds (the same under every host)."""
        T = s.tables
        k = Knowledge.of(T)
        if left is None:
            left = self.turns_left(s)
        abilities = s.abilities[p]
        if abilities.cost or s.next_cost[p] or abilities.once_cost:
            cost = tableau.cost_of(s, p, t)
        else:
            cost = T.cost[t]  # nothing changes Costs: the printed one (what cost_of returns)
        kind = T.kind[t]
        v = T.vp[t] + self.patent_bonus(s, p, t, patents) - cost * dc
        if kind == PART:
            v += k.played_value[t] + k.static_value(t, left)
            v += self.end_now(s, p, t)
            if masks is None:
                masks = self.part_inputs(s, p)
            out = T.outbit[t]
            follow = sum(1 for m in masks if m & out)
            v += self.w["flex"] * min(follow, 3) - (0.6 if follow == 0 and left > 1 else 0.0)
            v += 0.5  # a Part also opens a Bonus Upgrade
        elif kind == UPGRADE:
            v += k.played_value[t] + k.static_value(t, left)
        return v

    def upgrade_under(self, s: State, p: int, t: int, host: int, v: float) -> float:
        """Return play_score of Upgrade t under `host` from `v`, its score before the host counts."""
        v += Knowledge.of(s.tables).end_value(s, p, t, host)
        if host > 0:  # keep multi-slot Parts and the open end free when it does not matter
            v -= 0.05 * host
        return v

    def part_inputs(self, s: State, p: int) -> list[int]:
        """Return the Input mask of every Part in p's hand (one per card)."""
        T = s.tables
        itype, kind, inmask = T.itype, T.kind, T.inmask
        return [inmask[t] for t in (itype[i] for i in s.hands[p]) if kind[t] == PART]

    def end_now(self, s: State, p: int, t: int) -> float:
        """Return the extra End game VP my cards in play would score if Part t joined the chain."""
        T = s.tables
        before = 0.0
        gain = 0.0
        for _h, ups in enumerate(s.hosts[p]):
            for u in ups:
                for each, q, tm, every in T.statics[T.itype[u]].end_game:
                    if q == 1 and T.outbit[t] & tm or q == 0:
                        n = tableau.count(s, p, q, tm)
                        gain += each * ((n + 1) // every - n // every)
        core = T.T + s.cores[p]
        for each, q, tm, every in T.statics[core].end_game:
            if q == 1 and T.outbit[t] & tm or q == 0:
                n = tableau.count(s, p, q, tm)
                gain += each * ((n + 1) // every - n // every)
        return gain + before

    def calibration_score(self, s: State, p: int, t: int, dc: float, patents: list[OpenPatent] | None = None) -> float:
        """Return the value of playing Calibration t now (it gives its action back); `patents`: patent_progress."""
        T = s.tables
        itype, kind_of = T.itype, T.kind
        hand = [itype[i] for i in s.hands[p]]
        v = -s.cost_of(p, t) * dc
        parts = [u for u in hand if kind_of[u] == PART]
        for code, a, _b, c in T.played[t]:
            if code == DRAW:
                v += 0.9 * a if self.turns_left(s) > 0 else 0.1 * a
            elif code == ACTION:
                v += 1.6 * a if self.playable_others(s, p, t, hand) >= 2 else 0.2
            elif code == NEXT_COST:
                if a == PART:
                    fits = any(s.cost_of(p, u) > 0 and s.can_attach(p, u) for u in parts)
                else:
                    fits = any(kind_of[u] == UPGRADE and s.cost_of(p, u) > 0 for u in hand)
                v += min(-c, 1) * 0.9 if fits else 0.1
            elif code == NEXT_ANY:
                output = s.chain_output(p)
                stuck = [u for u in parts if not T.inmask[u] & output]
                v += 0.9 if stuck and not any(T.inmask[u] & output for u in parts) else 0.1
            elif code == DISCARD:
                v -= 0.1 * a
        v += self.patent_bonus(s, p, t, patents)
        return v

    def playable_others(self, s: State, p: int, t: int, hand: list[int]) -> int:
        """Return how many other non-Calibration card types in `hand` p could pay for and meet, counting to 2."""
        kind_of, room = s.tables.kind, len(hand) - 1
        n = 0
        for u in set(hand):
            if u != t and kind_of[u] != CALIBRATION and s.cost_of(p, u) < room and s.requirement_met(p, u):
                n += 1
                if n == 2:
                    break
        return n

    def research_score(self, s: State, p: int) -> float:
        """Return the value of Researching now."""
        n = s.tables.rules.research_draw + s.abilities[p].research
        room = s.tables.rules.hand_limit + s.abilities[p].hand_limit - len(s.hands[p])
        useful = min(n, max(0, room + 1))
        left = self.turns_left(s)
        if left == 0:
            return 0.05 * useful
        return self.w["research"] * useful * (1.0 if left > 2 else 0.7)

    # -- decisions -------------------------------------------------------------------

    def step(self, state: State) -> int:
        """Return the action to play."""
        s = state
        T = s.tables
        p = s.current
        ph = s.phase
        legal = s.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if ph in (PLAY, BONUS):
            return self.choose_play(s, p, legal)
        if ph in (PAY, HAND_LIMIT, EFFECT_DISCARD):
            return self.choose_discard(s, p, legal)
        if ph == Phase.DRAW:
            return self.choose_draw(s, p, legal)
        if ph == CHOOSE_CORE:
            return self.choose_core(s, p, legal)
        if ph == TRIGGER_ORDER:  # resolve the groups without a discard first: draw before you choose what to drop
            for a in legal:
                if not any(op[0] == DISCARD for op in s.trigger_queue[a - T.A_ORDER]):
                    return a
            return legal[0]
        return legal[0]

    def choose_core(self, s: State, p: int, legal: Sequence[int]) -> int:
        """Keep the Core whose ability looks worth more over the whole game."""
        T = s.tables
        if self.random_core:
            return self.rng.choice(legal)
        k = Knowledge.of(T)

        def value(a: int) -> float:
            c = T.T + (a - T.A_CORE)
            st = T.statics[c]
            v = T.vp[c] + k.static_value(c, T.rounds, 0)
            for each, q, tm, every in st.end_game:
                v += each * (T.rounds * 0.6 / every if q in (0, 1) and tm == T.ALL else 1.5)
            return v

        return max(legal, key=value)

    def choose_draw(self, s: State, p: int, legal: Sequence[int]) -> int:
        """Take the best Row card if it beats a blind draw."""
        T = s.tables
        left = self.turns_left(s)
        k = Knowledge.of(T)
        output = tableau.chain_output(s, p)
        keep = self._keep
        a_deck, a_row = T.A_DECK, T.A_ROW
        best, best_v = None, -1e9
        for a in legal:
            if a == a_deck:
                continue
            v = keep(s, p, a - a_row, left, k, output)
            if v > best_v:
                best, best_v = a, v
        if a_deck in legal and (best is None or best_v < 1.4):
            return a_deck
        assert best is not None  # Phase A offers the deck or a Row card
        return best

    def choose_discard(self, s: State, p: int, legal: Sequence[int]) -> int:
        """Discard the least valuable cards (planned as a set, then paid in the engine's type order)."""
        T = s.tables
        left = s.pay_left if s.phase == PAY else (s.limit_left if s.phase == HAND_LIMIT else s.discard_left)
        vals = self.hand_values(s, p, self.turns_left(s))
        itype = T.itype
        cards = sorted((vals[t], t) for t in (itype[i] for i in s.hands[p]))
        plan = sorted(t for _, t in cards[:left])
        for t in plan:
            if T.A_DISCARD + t in legal:
                return T.A_DISCARD + t
        return legal[0]

    def rank_play(self, s: State, p: int, legal: Sequence[int]) -> list[tuple[float, int]]:
        """Return (score, action) for every legal play, best first; a useful Calibration ranks first
        because it gives its action back."""
        scored = self.score_plays(s, p, legal)
        scored.sort(key=lambda x: (-x[0], x[1]))
        return scored

    def score_plays(self, s: State, p: int, legal: Sequence[int]) -> list[tuple[float, int]]:
        """Return (score, action) for every legal play, unsorted (see rank_play)."""
        T = s.tables
        scored = []
        cals = []
        a_part, a_upg, a_cal, a_research = T.A_PART, T.A_UPG, T.A_CAL, T.A_RESEARCH
        dc = None  # what a play's inputs cost to gather is paid only when a card can be played
        upgrades: dict[int, float] = {}  # an Upgrade's score before its host counts (the same under every host)
        for a in legal:
            if a < a_research:
                if dc is None:
                    dc = self.discard_cost(s, p)
                    left = self.turns_left(s)
                    masks = self.part_inputs(s, p)
                    patents = self.patent_progress(s, p)
                if a_part <= a < a_upg:
                    v = self.play_score(s, p, a - a_part, -1, dc, left, masks, patents)
                elif a_upg <= a < a_cal:
                    t, h = divmod(a - a_upg, T.max_hosts)
                    base = upgrades.get(t)
                    if base is None:
                        base = upgrades[t] = self.play_base(s, p, t, dc, left, masks, patents)
                    v = self.upgrade_under(s, p, t, h, base)
                else:
                    cals.append((self.calibration_score(s, p, a - a_cal, dc, patents), a))
                    continue
            elif a == a_research:
                v = self.research_score(s, p)
            elif a == T.A_SKIP:
                v = 0.0
            else:  # end the turn
                v = 0.0 if s.phase == PLAY else -1.0
            scored.append((v, a))
        if cals:
            top = max((v for v, _ in scored), default=0.0)
            for v, a in cals:
                scored.append((v + top + 0.01 if v > 0.15 else v - 0.5, a))
        return scored

    def choose_play(self, s: State, p: int, legal: Sequence[int]) -> int:
        """Play a useful Calibration first (it is free), else the best play, else Research or stop."""
        best_v, best = -math.inf, -1
        for v, a in self.score_plays(s, p, legal):  # the highest score, then the lowest action (as rank_play)
            if v > best_v or v == best_v and a < best:
                best_v, best = v, a
        return best


class RolloutBot:
    """Determinized flat Monte Carlo with racing (a 1-ply look-ahead with sampling): for the heuristic's
    choice and a few others, deal the hidden cards afresh, play each deal `horizon` turns on (all players'
    turns together; None: to the end) with heuristic players and score p's margin where it stops: the game's
    margin plus 4 per win share if it ended, else VP plus, with `value`, each player's VP still to come as
    value.ValueModel predicts them (without: `hand_weight` times the heuristic's value of each hand). The
    same deals serve every option (common random numbers). From `min_samples` deals on, an option whose
    mean trails the leader's by more than `race` standard errors of the paired difference, or equals it on
    every deal, is dropped (race=0: never); the search stops at `samples` deals or one option left. Draw
    picks try the heuristic's and `width` others, Phase B and the Bonus Upgrade the heuristic's `width`
    best (without `hosts`, the same Upgrade under another host does not count: the heuristic's host stands
    for it, and a single option is played unsearched); a phase not in `phases` follows the heuristic.

    By default (the `rollout` bot) every Draw pick, Phase B play and Bonus Upgrade is searched on 4 deals,
    3 turns deep, with the fitted value where the look-ahead stops. `deep()` (the `rollout-deep` bot, the
    former default) plays 12 deals to the end of the game: about 10 times the CPU, no stronger (the manual's Micro-Engine page, Rules model and bots)."""

    name = "rollout"

    def __init__(
        self,
        seed: int = 0,
        samples: int = 4,
        width: int = 2,
        horizon: int | None = 3,
        hand_weight: float = 0.3,
        phases: tuple[str, ...] = ("draw", "play", "bonus"),
        race: float = 0.0,
        min_samples: int = 3,
        value: bool = True,
        hosts: bool = False,
    ):
        self.rng = random.Random(seed)
        self.samples = samples
        self.width = width
        self.horizon = horizon
        self.hand_weight = hand_weight
        self.race = race
        self.min_samples = min_samples
        self.value = value
        self.hosts = hosts
        searched = {"draw": Phase.DRAW, "play": PLAY, "bonus": BONUS}
        self.phases = frozenset(searched[name] for name in phases)
        self.policy = HeuristicBot(seed)

    @classmethod
    def deep(cls, seed: int = 0) -> RolloutBot:
        """Return the `rollout-deep` bot: every phase, 12 deals each played to the end of the game."""
        bot = cls(seed, samples=12, horizon=None, value=False, hosts=True)
        bot.name = "rollout-deep"
        return bot

    def restart(self, seed: int) -> None:
        """Reseed for a new game."""
        self.rng.seed(seed)
        self.policy.restart(seed)

    def options(self, s: State, p: int) -> list[int]:
        """Return the options to search, the heuristic's choice first ([] when the heuristic decides alone)."""
        phase = s.phase
        if phase not in self.phases:
            return []
        legal = s.legal_actions()
        if phase == Phase.DRAW:
            best = self.policy.choose_draw(s, p, legal)  # the heuristic's pick first, then the others
            return [best] + [a for a in legal if a != best][: self.width]
        ranked = [a for _, a in self.policy.rank_play(s, p, legal)[: self.width]]
        if self.hosts:
            return ranked
        T = s.tables
        a_upg, a_cal, per_card = T.A_UPG, T.A_CAL, T.max_hosts
        cards = [(a - a_upg) // per_card if a_upg <= a < a_cal else -1 - a for a in ranked]
        # the same Upgrade under another host is not another option: the heuristic's host stands for it
        return [a for i, a in enumerate(ranked) if cards[i] not in cards[:i]]

    def step(self, state: State) -> int:
        """Return the action to play."""
        s = state
        p = s.current
        ranked = self.options(s, p)
        if not ranked:
            return self.policy.step(s)
        values: dict[int, list[float]] = {a: [] for a in ranked}
        alive = ranked
        deals = 0
        while len(alive) > 1 and deals < self.samples:
            world = s.resample(p, self.rng)
            for a in alive:  # the same deal for every option: common random numbers
                c = world.clone()
                c._apply(a)
                values[a].append(self.look_ahead(c, p))
            deals += 1
            if self.race and deals >= self.min_samples:
                alive = self.survivors(alive, values, deals)
        return max(alive, key=lambda a: (sum(values[a]), -ranked.index(a)))

    def survivors(self, alive: list[int], values: dict[int, list[float]], n: int) -> list[int]:
        """Return the options not clearly behind the leader after n deals (ties go to the earlier option)."""
        lead = max(alive, key=lambda a: (sum(values[a]), -alive.index(a)))
        best = values[lead]
        keep = []
        for a in alive:
            if a == lead:
                keep.append(a)
                continue
            diff = [x - y for x, y in zip(values[a], best)]
            mean = sum(diff) / n
            var = sum((d - mean) ** 2 for d in diff) / (n - 1)
            if var == 0.0 and mean == 0.0:
                continue  # the same margin on every deal so far: most likely the same line of play
            if mean + self.race * math.sqrt(var / n) >= 0.0:
                keep.append(a)
        return keep

    def look_ahead(self, c: State, p: int) -> float:
        """Play `c` on with heuristic players (to the end, or `horizon` turns); return p's margin."""
        step, apply = self.policy.step, c._apply
        if self.horizon is None:
            while c.phase != OVER:
                apply(step(c))
        else:
            stop = c.turn + self.horizon
            while c.phase != OVER and c.turn < stop:
                apply(step(c))
        sc = c.scores()
        if c.phase == OVER:
            return _margin(sc, p) + 4.0 * c.returns()[p]
        left = self.policy.turns_left(c)
        if self.value:
            model = value_model(c.tables)
            return _margin([sc[q] + model.gain(c, q, left) for q in range(c.num_players)], p)
        itype = c.tables.itype
        w = self.hand_weight
        value = []
        for q in range(c.num_players):
            vals = self.policy.hand_values(c, q, left)
            value.append(sc[q] + w * sum(vals[itype[i]] for i in c.hands[q]))
        return _margin(value, p)


def _margin(values: Sequence[float], p: int) -> float:
    """Return p's lead over the best of the others (negative when behind)."""
    return values[p] - max(v for q, v in enumerate(values) if q != p)


def value_model(T: Tables) -> ValueModel:
    """Return the rollout bot's fitted leaf value for these tables (fitted once per card set and variant)."""
    return ValueModel.of(T, HeuristicBot, Knowledge.of(T).engine_value)
