"""Pocket Foundry bots: scripted priorities from bots.yaml, and the solo-optimal planner."""

from __future__ import annotations

import random

from ...sdk import CHANCE, TERMINAL
from .botconfig import FIRST_EMPTY, BotConfig, Conditions, Rule
from .deadend import dead_ends_for
from .engine import State
from .solver import Solver
from .tables import EMPTY, Tables
from .trace import best_run, row_future, trace_run

MEMO_LIMIT = 400_000  # planner decisions kept per edition; a long simulation visits many positions


def solver_for(t: Tables) -> Solver:
    """Return the solver with every type buildable, shared per edition (its values are built on first use)."""
    return t.shared("solver", lambda: Solver(t))


class PlannerBot:
    """Plays the move that maximises its own final points, looking ahead exactly over all its remaining turns.

    Its value table is the exact solo optimum (`Solver`): it knows what it can build now (the market) but
    assumes any type can be built later, and it ignores what opponents do. In a dead end (nobody can ever
    build again) it values runs by what its frozen row can still make, which is then exact. Ties are
    broken at random.
    """

    name = "planner"

    def __init__(self, tables: Tables, seed: int = 0):
        self.t = tables
        self.solver = solver_for(tables)
        # every planner of this edition shares its decisions: (row, purse, market or -1, turns left, dead end) ->
        # (the best value, the actions that reach it)
        self.memo: dict[tuple[int, int, int, int, bool], tuple[int, tuple[int, ...]]] = tables.shared(
            "planner-memo", dict
        )
        self.dead = dead_ends_for(tables)
        self.rng = random.Random(seed)
        self._frozen: dict[tuple[int, int], list[int]] = {}

    def restart(self, seed: int) -> None:
        """Reseed the tie-breaks for a new game."""
        self.rng.seed(seed)

    def step(self, state: State) -> int:
        """Return a best action by the solo value table."""
        return self.choose(state, builds=True)

    def choose(self, state: State, builds: bool, rng: random.Random | None = None) -> int:
        """Return a best build or run (or a best run only), breaking ties with `rng` (default: the bot's own)."""
        chosen = self.best(state, builds)[1]
        return chosen[0] if len(chosen) == 1 else (rng or self.rng).choice(chosen)

    def best_value(self, state: State) -> int:
        """Return the value of the best action for the player to act."""
        return self.best(state, True)[0]

    def best(self, state: State, builds: bool) -> tuple[int, tuple[int, ...]]:
        """Return the best value and every action that reaches it (sorted), cached by what decides them."""
        p = state.cur
        t = self.t
        row, res = state.row[p], state.res[p]
        k = state.turns_left(p)
        legal_builds = state.game.builds(state.market_mask, res) if builds else ()
        dead = not legal_builds and self.dead.is_dead_end(state)
        key = (row, res, state.market_mask if legal_builds else -1, k, dead)
        found = self.memo.get(key)
        if found is not None:
            return found
        nr = t.n_res
        best, chosen = -1, []
        if dead:  # nobody will ever build again: only what the frozen row still makes counts
            later, base = self.frozen(row, k - 1), 0
        else:
            later, base = self.solver.layer(k - 1), row * nr
        for a, r, pts in t.runs(row, res):
            v = pts + later[base + r]
            if v > best:
                best, chosen = v, [a]
            elif v == best:
                chosen.append(a)
        if legal_builds:
            after, mults, slots = t.build_next, t.row_mult, t.row_slots(row)
            for a in legal_builds:
                m, j = divmod(a, t.build_slots)
                v = later[(row + (m - slots[j]) * mults[j]) * nr + after[m][res]]
                if v > best:
                    best, chosen = v, [a]
                elif v == best:
                    chosen.append(a)
        if len(self.memo) > MEMO_LIMIT:
            self.memo.clear()
        found = self.memo[key] = (best, tuple(sorted(chosen)))
        return found

    def rank(self, state: State) -> list[tuple[int, int]]:
        """Return (value, action) for every legal action, best first; value = points now plus the solo
        optimum of the turns left after this one (or, in a dead end, what the frozen row still makes)."""
        p = state.cur
        t = self.t
        row, res = state.row[p], state.res[p]
        nr = t.n_res
        legal_builds = state.game.builds(state.market_mask, res)
        if not legal_builds and self.dead.is_dead_end(state):
            later = self.frozen(row, state.turns_left(p) - 1)
            out = [(pts + later[r], a) for a, r, pts in t.runs(row, res)]
        else:
            prev = self.solver.layer(state.turns_left(p) - 1)
            out = [(pts + prev[row * nr + r], a) for a, r, pts in t.runs(row, res)]
            for a in legal_builds:
                m, j = divmod(a, t.build_slots)
                out.append((prev[t.with_slot(row, j + 2, m) * nr + t.build_next[m][res]], a))
        out.sort(key=lambda va: (-va[0], va[1]))
        return out

    def frozen(self, row: int, runs: int) -> list[int]:
        """Return, per purse, the most points `row` makes in `runs` more runs (cached)."""
        key = (row, runs)
        found = self._frozen.get(key)
        if found is None:
            found = self._frozen[key] = row_future(self.t, row, runs)
        return found


class LookaheadBot:
    """The strong bot: looks one lap ahead, with opponents played by the planner and deals sampled.

    It takes the planner's best few moves (distinct outcomes only), and for each plays the rest of the
    lap several times: every opponent moves as the planner would, every refill is drawn from the deck's
    public contents. It then scores its position when its next turn comes (points so far plus the planner's
    value of its best move then) and keeps the move with the best average. The same sampled deals are
    used for every candidate, so differences come from the moves, not from luck. On its last turn it plays
    the planner's move, which is then exact.
    """

    name = "lookahead"

    def __init__(self, tables: Tables, seed: int = 0, candidates: int = 5, samples: int = 4):
        self.t = tables
        self.planner = PlannerBot(tables, seed)
        self.rng = random.Random(seed)
        self.candidates = candidates
        self.samples = samples

    def restart(self, seed: int) -> None:
        """Reseed for a new game."""
        self.planner.restart(seed)
        self.rng.seed(seed ^ 0xC0FFEE)

    def step(self, state: State) -> int:
        """Return the candidate move with the best sampled outcome one lap later."""
        p = state.cur
        ranked = self.planner.rank(state)
        if state.turns_left(p) == 1 or len(ranked) == 1:
            return self.planner.choose(state, builds=True)
        candidates = self._distinct(state, ranked)
        seeds = [self.rng.getrandbits(32) for _ in range(self.samples)]
        best, chosen = None, candidates[0]
        for action in candidates:
            total = sum(self._rollout(state, action, p, seed) for seed in seeds)
            if best is None or total > best:
                best, chosen = total, action
        return chosen

    def _distinct(self, state: State, ranked: list[tuple[int, int]]) -> list[int]:
        """Return up to `candidates` actions from the top, skipping runs that end exactly like a better one."""
        t = self.t
        p = state.cur
        seen, out = set(), []
        results = {a: (r, pts) for a, r, pts in t.runs(state.row[p], state.res[p])}
        for _, a in ranked:
            key = results.get(a, a)  # builds are all distinct; runs are equal when purse and points are
            if key in seen:
                continue
            seen.add(key)
            out.append(a)
            if len(out) == self.candidates:
                break
        return out

    def _rollout(self, state: State, action: int, p: int, seed: int) -> int:
        rng = random.Random(seed)
        planner = self.planner
        s = state.clone()
        s.apply_action(action)
        while s.cur != p and s.cur != TERMINAL:
            s.apply_action(s.sample_chance(rng) if s.cur == CHANCE else planner.choose(s, True, rng))
        if s.cur == TERMINAL:
            return s.pts[p]
        return s.pts[p] + planner.best_value(s)


class PriorityBot:
    """Follows a scripted list of rules from bots.yaml: the first legal rule whose conditions hold wins."""

    def __init__(self, tables: Tables, config: BotConfig, seed: int = 0):
        self.t = tables
        self.config = config
        self.name = config.name
        self.planner = PlannerBot(tables, seed)  # chooses skips for `run: best`

    def restart(self, seed: int) -> None:
        """Reseed the planner's tie-breaks for a new game."""
        self.planner.restart(seed)

    def step(self, state: State) -> int:
        """Return the action of the first rule that applies, else the best run."""
        p = state.cur
        for rule in self.config.rules:
            if rule.when is not None and not self._holds(rule.when, state, p):
                continue
            if rule.unless is not None and self._holds(rule.unless, state, p):
                continue
            action = self._action(rule, state, p)
            if action is not None:
                return action
        return self.planner.choose(state, builds=False)

    def _action(self, rule: Rule, state: State, p: int) -> int | None:
        t = self.t
        row, res = state.row[p], state.res[p]
        if rule.run == "best":
            return self.planner.choose(state, builds=False)
        if rule.run == "points":
            return best_run(t, row, res, state.turns_left(p) - 1)[0]
        if rule.run == "all":
            return t.run_action(trace_run(t, row, res, range(1, t.slots + 1)).mask)
        m = rule.build
        assert m is not None  # a rule that builds names its machine
        if m == EMPTY or not state.market[m] or t.build_next[m][res] < 0:
            return None
        slots = t.row_slots(row)
        if rule.replace is not None:
            slot = next((j + 2 for j, s in enumerate(slots) if s == rule.replace), None)
        elif rule.slot == FIRST_EMPTY:
            slot = next((j + 2 for j, s in enumerate(slots) if s == EMPTY), None)
        else:
            slot = rule.slot
        return None if slot is None else t.build_action(m, slot)

    def _holds(self, c: Conditions, state: State, p: int) -> bool:
        t = self.t
        values = t.values[state.res[p]]
        for i, amount in c.have:
            if (state.pts[p] if i < 0 else values[i]) < amount:
                return False
        slots = t.row_slots(state.row[p])
        if any(m not in slots for m in c.has) or any(m in slots for m in c.lacks):
            return False
        if any(slots[slot - 2] != m for slot, m in c.slot):
            return False
        if c.lap and not c.lap[0] <= state.lap <= c.lap[1]:
            return False
        if c.turns_left and not c.turns_left[0] <= state.turns_left(p) <= c.turns_left[1]:
            return False
        if c.run_points:
            pts = best_run(t, state.row[p], state.res[p])[2]
            if not c.run_points[0] <= pts <= c.run_points[1]:
                return False
        return True
