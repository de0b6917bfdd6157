"""Watch one simulated game and keep what the designer report needs (one JSON-ready record per game)."""

from __future__ import annotations

from typing import Any

from ...sdk import CHANCE
from .engine import State
from .phase import PLAY


class Recorder:
    """Follows a game action by action; `finish` returns the facts the Micro-Engine sections summarize."""

    def __init__(self, game: object = None) -> None:
        self.score_by_round: list[list[int]] = []
        self.round = 0
        self.held: dict[int, int] = {}  # card type -> times held at the start of a Play phase
        self.legal: dict[int, int] = {}  # card type -> times it was also playable then
        self.decisions = 0
        self.seen_turn = -1

    def after(self, state: State, player: int, action: int) -> None:
        """Called after every action (`player` acted, or CHANCE)."""
        s = state
        if player != CHANCE:
            self.decisions += 1
        if (
            s.turn // s.num_players > self.round
            and not s.is_terminal()
            or s.is_terminal()
            and len(self.score_by_round) < s.tables.rounds
        ):
            while len(self.score_by_round) < min(s.turn // s.num_players, s.tables.rounds):
                self.score_by_round.append(s.scores())
            self.round = s.turn // s.num_players
        if s.phase == PLAY and s.turn != self.seen_turn and s.actions_taken == 0 and not s.is_terminal():
            self.seen_turn = s.turn  # the start of a Play phase: which cards in hand could be played?
            T = s.tables
            p = s.current
            playable = set()
            for a in s.legal_actions():
                if T.A_PART <= a < T.A_UPG:
                    playable.add(a - T.A_PART)
                elif T.A_UPG <= a < T.A_CAL:
                    playable.add((a - T.A_UPG) // T.max_hosts)
                elif T.A_CAL <= a < T.A_RESEARCH:
                    playable.add(a - T.A_CAL)
            for t in {T.itype[i] for i in s.hands[p]}:
                self.held[t] = self.held.get(t, 0) + 1
                if t in playable:
                    self.legal[t] = self.legal.get(t, 0) + 1

    def finish(self, state: State) -> dict[str, Any]:
        """Return JSON-ready facts about the finished game."""
        s = state
        T = s.tables
        while len(self.score_by_round) < T.rounds:
            self.score_by_round.append(s.scores())
        st = s.stats
        plays: dict[str, list[int]] = {}
        for turn, _p, t, _paid in st.plays:
            plays.setdefault(T.ids[t], []).append(turn // s.num_players + 1)
        return {
            "score_by_round": self.score_by_round,
            "first": s.first_player,
            "winners": s.winners(),
            "breakdown": [s.score_breakdown(p) for p in range(s.num_players)],
            "chains": [len(c) for c in s.chains],
            "upgrades": [sum(len(h) for h in hp) for hp in s.hosts],
            "hands": [len(h) for h in s.hands],
            "cores": [T.ids[T.T + c] for c in s.cores],
            "claims": [(turn // s.num_players + 1, p, T.game.patents[k].id, lic) for turn, p, k, lic in st.claims],
            "patents": [T.game.patents[k].id for k in s.patents],
            "reshuffles": st.reshuffles,
            "dry_draws": st.dry_draws,
            "limit_hits": st.limit_hits,
            "research": st.research,
            "calibrations": st.calibrations,
            "plays": plays,
            "paid": [paid for _, _, _, paid in st.plays],
            "held": {T.ids[t]: n for t, n in self.held.items()},
            "legal": {T.ids[t]: n for t, n in self.legal.items()},
            "decisions": self.decisions,
            "turns": s.turn,
            "wild_links": sum(1 for links in s.links for x in links if x in (2, 3)),
        }
