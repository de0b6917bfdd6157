"""A leaf value for the rollout bot's short look-ahead: each player's VP still to come, fitted on heuristic games.

At the start of a turn, the VP a player will still gain by the end (the heuristic playing every seat) is
predicted from what it holds: the heuristic's value of its hand, the hand's size, the ongoing effects of its
cards in play, its chain's length, the Parts in hand that fit the chain, its progress toward open Patents, and
whether it moves next. One linear fit (least squares, a small ridge) per number of turns the player has left,
made once per card set and player count from seeded heuristic games, so it is deterministic.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from . import tableau
from .engine import State
from .phase import OVER
from .tables import PART, Tables

GAMES = 600  # divided by the player count: the heuristic games the fit is made from (300 at 2 players)
RIDGE = 1.0  # keeps the fit of a turns-left bucket with few rows near zero rather than wild
# (card set id, players, quick, travel) -> (the card set, kept alive so its id is not reused; its model)
FITTED: dict[tuple[int, int, bool, bool], tuple[object, ValueModel]] = {}


Engine = Callable[[State, int, int], float]  # (state, player, turns left) -> its cards in play's ongoing value


class Policy(Protocol):
    """What the value needs from the heuristic bot."""

    def step(self, state: State) -> int: ...
    def turns_left(self, s: State) -> int: ...
    def hand_values(self, s: State, p: int, left: int) -> dict[int, float]: ...


def turns_to_play(s: State, q: int) -> int:
    """Return how many turns q still starts, counting the current one if q is to move."""
    n = s.num_players
    first = s.turn + (q - s.first_player - s.turn) % n  # the next turn (from this one) that q starts
    return max(0, (n * s.tables.rounds - first + n - 1) // n)


def features(s: State, q: int, left: int, policy: Policy, engine: Engine) -> list[float]:
    """Return q's features at a turn start (see the module docstring)."""
    T = s.tables
    itype, kind, inmask = T.itype, T.kind, T.inmask
    hand = s.hands[q]
    vals = policy.hand_values(s, q, left)
    output = tableau.chain_output(s, q)
    fits = sum(1 for i in hand if kind[itype[i]] == PART and inmask[itype[i]] & output)
    progress = 0.0
    for j, k in enumerate(s.patents):
        if s.patent_owner[j] >= 0:
            continue
        tests, _played = T.patent_cond[k]
        if tests:
            share = sum(min(tableau.count(s, q, quantity, tm) / n, 1.0) for quantity, tm, n in tests) / len(tests)
            progress += T.patent_vp[k] * share
    return [
        1.0,
        sum(vals[itype[i]] for i in hand),
        float(len(hand)),
        engine(s, q, left),
        float(len(s.chains[q])),
        float(fits),
        progress,
        1.0 if s.current == q else 0.0,
    ]


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Return x with a x = b (Gaussian elimination with partial pivoting; a is small and well conditioned)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col])]
    return [m[i][n] / m[i][i] for i in range(n)]


class ValueModel:
    """Per turns-left coefficients of the VP a player will still gain; fitted once per Tables."""

    @classmethod
    def of(cls, T: Tables, make_policy: Callable[[], Policy], engine: Engine) -> ValueModel:
        """Return the model for this card set, player count and variant (fitted at the first call per process,
        with the policy `make_policy` returns playing every seat)."""
        key = (id(T.game), T.players, T.quick, T.travel)
        kept = FITTED.get(key)
        if kept is None or kept[0] is not T.game:
            kept = FITTED[key] = (T.game, cls(T, make_policy(), engine))
        return kept[1]

    def __init__(self, T: Tables, policy: Policy, engine: Engine):
        self.policy, self.engine = policy, engine
        rows: dict[int, list[tuple[list[float], float]]] = {}
        for seed in range(GAMES // T.players):
            for r, x, y in self.sample(T, seed):
                rows.setdefault(r, []).append((x, y))
        self.coef: dict[int, list[float]] = {}
        for r, data in sorted(rows.items()):
            k = len(data[0][0])
            xtx = [
                [sum(x[i] * x[j] for x, _ in data) + (RIDGE if i == j and i else 0.0) for j in range(k)]
                for i in range(k)
            ]
            xty = [sum(x[i] * y for x, y in data) for i in range(k)]
            self.coef[r] = solve(xtx, xty)

    def sample(self, T: Tables, seed: int) -> list[tuple[int, list[float], float]]:
        """Play one heuristic game; return (turns to play, features, VP still gained) per player per turn start."""
        s = State.new(T, seed)
        seen: list[tuple[int, int, list[float], int]] = []
        turn = -1
        while s.phase != OVER:
            if s.turn != turn and s.stats.turns[s.current] > 0:
                turn = s.turn
                left = self.policy.turns_left(s)
                vp = s.scores()
                for q in range(s.num_players):
                    seen.append((q, turns_to_play(s, q), features(s, q, left, self.policy, self.engine), vp[q]))
            s._apply(self.policy.step(s))
        final = s.scores()
        return [(r, x, float(final[q] - vp)) for q, r, x, vp in seen]

    def gain(self, s: State, q: int, left: int) -> float:
        """Return the VP q is expected to gain from this turn start to the end."""
        r = turns_to_play(s, q)
        coef = self.coef.get(r)
        if coef is None:
            return 0.0
        return sum(c * x for c, x in zip(coef, features(s, q, left, self.policy, self.engine)))
