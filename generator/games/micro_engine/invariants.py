"""Rule invariants checked against any state: used by the property tests and `simulate --check`."""

from __future__ import annotations

from collections import Counter

from .engine import OVER, PLAY, State
from .tables import CALIBRATION, Q


def check(s: State) -> None:
    """Raise AssertionError naming the first broken invariant of state `s`."""
    T = s.T
    # 1. Every Workshop card is in exactly one zone.
    zones = [
        s.deck,
        s.discard,
        s.row,
        *s.hands,
        *s.chains,
        *(u for hp in s.hosts for u in hp),
        *([i for i in lic if i >= 0] for lic in s.licenses),
    ]
    seen = Counter(i for z in zones for i in z)
    if s.pend is not None:
        seen[s.pend[0]] += 1
    assert sorted(seen) == list(range(T.n_inst)) and all(v == 1 for v in seen.values()), (
        f"card conservation broken: {sorted(i for i, v in seen.items() if v != 1)} duplicated, "
        f"{sorted(set(range(T.n_inst)) - set(seen))} missing"
    )
    for p in range(s.n):
        assert all(i in s.hands[p] for i in s.known[p]), f"P{p + 1} known cards not in hand"
    # 2. The Row is full after a Draw phase while the deck and discard can supply it.
    if not T.travel and s.phase == PLAY and s.actions_taken == 0:  # right after the Phase A refill
        assert len(s.row) == T.rules.row_size or not (s.deck or s.discard), "Row not refilled"
    if T.travel:
        assert not s.row, "Travel mode has no Row"
    for p in range(s.n):
        chain = s.chains[p]
        # 3. Chain matching: each Part's Input matches the Output before it, or an effect allowed it.
        assert len(s.links[p]) == len(chain), "one link per Part"
        for k, inst in enumerate(chain):
            link = s.links[p][k]
            t = T.itype[inst]
            assert T.kind[t] == 0, f"P{p + 1} chain holds a non-Part"
            if k == 0:
                assert link in (0, 3), f"P{p + 1} first Part attached as {link}"
                continue
            prev = T.itype[chain[k - 1]]
            if link == 1:
                assert T.inmask[t] & T.outbit[prev], (
                    f"P{p + 1} {T.names[t]} (in {T.inmask[t]}) attached to {T.names[prev]} (out {T.outbit[prev]})"
                )
            elif link == 2:
                assert any(T.statics[T.itype[u]].open_end for u in s.hosts[p][k]), (
                    f"P{p + 1} open-end link without an open-end Upgrade"
                )
            else:
                assert link == 3, f"P{p + 1} link {link} after the first Part"
        # 4. Slots.
        hosts = s.hosts[p]
        assert len(hosts) == len(chain) + 1
        assert len(hosts[0]) <= T.core_slots, f"P{p + 1} Core holds {len(hosts[0])} Upgrades"
        for k, inst in enumerate(chain):
            assert len(hosts[k + 1]) <= T.slots[T.itype[inst]], f"P{p + 1} {T.names[T.itype[inst]]} over its slots"
        assert all(T.kind[T.itype[u]] == 1 for h in hosts for u in h), "a non-Upgrade is tucked"
        assert s.tab[p][0] == len(chain) and s.tab[p][3] == sum(len(h) for h in hosts), "stale tableau counts"
    # 5. Per turn: at most the allowed Calibrations; actions never negative.
    assert s.cals <= T.rules.calibrations_per_turn and s.actions >= 0
    per_turn = Counter(turn for turn, p, t, paid in s.stats["plays"] if T.kind[t] == CALIBRATION)
    assert all(v <= T.rules.calibrations_per_turn for v in per_turn.values()), "two Calibrations in one turn"
    # 6. Patents: one owner, one License, never the owner, none at 2 players, claims only on your turn.
    for j in range(len(s.patents)):
        o, lic = s.owner[j], s.licensee[j]
        if lic >= 0:
            assert T.licenses and o >= 0 and lic != o, "bad License"
    for turn, p, _k, _is_license in s.stats["claims"]:
        assert p == (s.first + turn) % s.n, f"P{p + 1} claimed on turn {turn}, not their turn"
    assert sum(len(x) for x in s.licenses) == sum(1 for x in s.licensee if x >= 0)
    # 7. Equal turns at the end; the score recounted independently equals the reported one.
    if s.phase == OVER:
        assert s.stats["turns"] == [T.rounds] * s.n, f"turns per player {s.stats['turns']}"
        assert all(len(h) <= T.rules.hand_limit + s.agg[p].hand_limit for p, h in enumerate(s.hands))
        assert recount(s) == s.scores(), f"recount {recount(s)} != scores {s.scores()}"


def recount(s: State) -> list[int]:
    """Recount every player's VP from the tableau, independently of State.score_breakdown."""
    T = s.T
    out = []
    for p in range(s.n):
        chain = [T.itype[i] for i in s.chains[p]]
        ups = [(h, T.itype[u]) for h, us in enumerate(s.hosts[p]) for u in us]
        vp = sum(T.vp[t] for t in chain) + sum(T.vp[t] for _, t in ups) + T.vp[T.T + s.cores[p]]
        vp += sum(T.patent_vp[k] for j, k in enumerate(s.patents) if s.owner[j] == p)
        vp += T.rules.license_vp * sum(1 for x in s.licensee if x == p)
        by_type = Counter(T.outbit[t] for t in chain)
        sources = [(T.T + s.cores[p], 0)] + [(t, k + 1) for k, t in enumerate(chain)] + [(t, h) for h, t in ups]
        for t, h in sources:
            for each, q, tm, every in T.statics[t].end_game:
                if q == Q["neighbors"]:
                    n = (1 if chain else 0) if h == 0 else (h > 1) + (h < len(chain))
                elif q == Q["parts"]:
                    n = sum(v for bit, v in by_type.items() if bit & tm)
                elif q == Q["chain_length"]:
                    n = len(chain)
                elif q == Q["claims"]:
                    n = s.owner.count(p) + s.licensee.count(p)
                elif q == Q["patents"]:
                    n = s.owner.count(p)
                elif q == Q["upgrades"]:
                    n = len(ups)
                elif q == Q["types"]:
                    n = len(by_type)
                elif q == Q["hand"]:
                    n = len(s.hands[p])
                else:
                    raise AssertionError(f"recount can't count quantity {q}")
                vp += each * (n // every)
        out.append(vp)
    return out
