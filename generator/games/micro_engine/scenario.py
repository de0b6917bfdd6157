"""Replay the rulebook's worked examples (scenarios.yaml) with the rules model."""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any

from ...sdk import IllegalActionError, KeyPath
from . import rng, tableau, turn
from .engine import State
from .model import MicroEngine, Scenario
from .tables import PART, Tables

# what an `expect:` key reads: a count, a name, a list of card ids, {host: Upgrade ids}, or None (nothing there)
Observed = int | str | list[str] | dict[str, list[str]] | None


@dataclass(frozen=True)
class Problem:
    """Why a scenario did not replay as the rulebook says: the key path inside the scenario, and words."""

    path: KeyPath
    message: str


def build(game: MicroEngine, sc: Scenario) -> tuple[State | None, list[Problem]]:
    """Set up the scenario's position; the cards it does not place are shuffled into the deck."""
    T = Tables(game, sc.players)
    s = State.blank(T)
    s.rng = zlib.crc32(sc.id.encode())
    problems: list[Problem] = []
    free: dict[int, list[int]] = {}
    inst: int | None
    for inst, t in enumerate(T.itype):
        free.setdefault(t, []).append(inst)

    def take(cid: str, path: KeyPath) -> int | None:
        t = T.ids.index(cid)
        if not free.get(t):
            problems.append(Problem(path, f"the deck has no more copies of '{cid}' to place here"))
            return None
        return free[t].pop()

    setup = sc.setup
    patent_ids = [p.id for p in game.patents]
    s.patents = [patent_ids.index(pid) for pid in setup["patents"]]
    s.patent_owner = [-1] * len(s.patents)
    s.patent_licensee = [-1] * len(s.patents)
    s.row = [i for j, cid in enumerate(setup["row"]) if (i := take(cid, ("setup", "row", j))) is not None]
    core_ids = [c.id for c in game.cores]
    for p, player in enumerate(setup["players"]):
        s.cores[p] = core_ids.index(player["core"])
        for j, cid in enumerate(player["chain"]):
            inst = take(cid, ("setup", "players", p, "chain", j))
            if inst is None:
                continue
            t = T.itype[inst]
            if T.kind[t] != PART:
                problems.append(Problem(("setup", "players", p, "chain", j), f"'{cid}' is not a Part"))
                continue
            if s.chains[p] and not T.inmask[t] & T.outbit[T.itype[s.chains[p][-1]]]:
                problems.append(
                    Problem(
                        ("setup", "players", p, "chain", j),
                        f"'{cid}' can't attach: its Input does not match the Output before it",
                    )
                )
            s.links[p].append(1 if s.chains[p] else 0)
            s.chains[p].append(inst)
            s.hosts[p].append([])
        s.hands[p] = [
            i
            for j, cid in enumerate(player["hand"])
            if (i := take(cid, ("setup", "players", p, "hand", j))) is not None
        ]
        tableau.rebuild(s, p)
        tableau.recount(s, p)
    top = [
        i for j, cid in enumerate(setup.get("deck_top", [])) if (i := take(cid, ("setup", "deck_top", j))) is not None
    ]
    rest = [i for insts in free.values() for i in insts]
    rng.shuffle(s, rest)
    s.deck = rest + top[::-1]  # the end of the list is the top of the deck
    s.first_player = 0
    s.turn = 0
    s.current = 0
    turn.start(s)
    return (None if problems else s), problems


def action_for(s: State, do: str | dict[str, Any], path: KeyPath) -> tuple[int | None, Problem | None]:
    """Translate one scenario step into an engine action."""
    T = s.tables
    simple = {"take_deck": T.A_DECK, "research": T.A_RESEARCH, "end_turn": T.A_END, "skip": T.A_SKIP}
    if isinstance(do, str):
        return simple[do], None
    if "upgrade" in do:
        t = T.ids.index(do["upgrade"])
        host = do["host"]
        if host == "core":
            h = 0
        else:
            names = [T.ids[T.itype[i]] for i in s.chains[s.current]]
            if host not in names:
                return None, Problem(path + ("host",), f"no '{host}' in the chain to tuck under")
            h = len(names) - names[::-1].index(host)
        return T.A_UPG + t * T.max_hosts + h, None
    ((key, cid),) = do.items()
    if key == "keep_core":
        return T.A_CORE + [c.id for c in T.game.cores].index(cid), None
    t = T.ids.index(cid)
    base = {"take_row": T.A_ROW, "part": T.A_PART, "calibration": T.A_CAL, "discard": T.A_DISCARD}[key]
    return base + t, None


def observe(s: State, key: str, p: int = 0) -> Observed:
    """Return what an `expect:` key reads from the state, for player p ("you")."""
    T = s.tables
    if key == "hand":
        return len(s.hands[p])
    if key == "row":
        return len(s.row)
    if key == "phase":
        return s.phase.label
    if key == "actions":
        return s.actions_left if s.current == p else 0
    if key == "calibrations":
        return s.calibrations_played if s.current == p else 0
    if key == "discard_top":
        return T.ids[T.itype[s.discard[-1]]] if s.discard else None
    if key == "paid":
        if s.pending is not None and s.current == p:
            return s.last_paid  # fixed when the card was announced, before it is paid
        mine = [paid for _, q, _, paid in s.stats.plays if q == p]
        return mine[-1] if mine else None
    if key == "chain":
        return [T.ids[T.itype[i]] for i in s.chains[p]]
    if key == "output":
        chain = s.chains[p]
        return T.conn[T.bitindex[T.outbit[T.itype[chain[-1]]]]] if chain else "universal"
    if key == "upgrades":
        out: dict[str, list[str]] = {}
        for h, ups in enumerate(s.hosts[p]):
            if ups:
                host = "core" if h == 0 else T.ids[T.itype[s.chains[p][h - 1]]]
                out[host] = [T.ids[T.itype[u]] for u in ups]
        return out
    if key == "patents":
        return [T.game.patents[k].id for j, k in enumerate(s.patents) if s.patent_owner[j] == p]
    if key == "vp":
        return s.scores()[p]
    raise KeyError(key)


def replay(game: MicroEngine, sc: Scenario) -> list[Problem]:
    """Play the scenario's steps; return every way it departs from what the rulebook prints."""
    s, problems = build(game, sc)
    if s is None:
        return problems
    for i, step in enumerate(sc.steps):
        path = ("steps", i)
        action, problem = action_for(s, step["do"], path + ("do",))
        if problem:
            return problems + [problem]
        assert action is not None  # action_for returns an action or the problem
        try:
            s.apply_action(action)
        except IllegalActionError:
            legal = "; ".join(s.describe(a) for a in s.legal_actions())
            return problems + [
                Problem(
                    path + ("do",),
                    f"'{s.describe(action)}' is not legal here (phase {s.phase.label}; legal: {legal})",
                )
            ]
        for key, want in step.get("expect", {}).items():
            got = observe(s, key)
            if got != want:
                problems.append(
                    Problem(
                        path + ("expect", key), f"after '{s.describe(action)}', {key} is {got!r}, expected {want!r}"
                    )
                )
    return problems
