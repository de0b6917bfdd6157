"""Rule invariants checked against any state: used by the property tests and `simulate --check`."""

from __future__ import annotations

from collections import Counter

from .board import Link
from .engine import State
from .phase import OVER, PLAY
from .tables import CALIBRATION, PART, UPGRADE, Q


def check(state: State) -> None:
    """Raise AssertionError naming the first broken invariant of `state`."""
    tables = state.tables
    rules = tables.rules
    # 1. Every Workshop card is in exactly one zone.
    zones = [
        state.deck,
        state.discard,
        state.row,
        *state.hands,
        *state.chains,
        *(upgrades for hosts in state.hosts for upgrades in hosts),
        *([card for card in licenses if card >= 0] for licenses in state.licenses),
    ]
    seen = Counter(card for zone in zones for card in zone)
    if state.pending is not None:
        seen[state.pending[0]] += 1
    assert sorted(seen) == list(range(tables.n_inst)) and all(v == 1 for v in seen.values()), (
        f"card conservation broken: {sorted(card for card, v in seen.items() if v != 1)} duplicated, "
        f"{sorted(set(range(tables.n_inst)) - set(seen))} missing"
    )
    for player in range(state.num_players):
        assert all(card in state.hands[player] for card in state.seen_in_hand[player]), (
            f"P{player + 1} cards seen taken from the Row are not in hand"
        )
    # 2. The Row is full after a Draw phase while the deck and discard can supply it.
    if not tables.travel and state.phase == PLAY and state.actions_taken == 0:  # right after the Phase A refill
        assert len(state.row) == rules.row_size or not (state.deck or state.discard), "Row not refilled"
    if tables.travel:
        assert not state.row, "Travel mode has no Row"
    for player in range(state.num_players):
        _check_chain(state, player)
    # 5. Per turn: at most the allowed Calibrations; actions never negative.
    assert state.calibrations_played <= rules.calibrations_per_turn and state.actions_left >= 0
    per_turn = Counter(turn for turn, _, card_type, _ in state.stats.plays if tables.kind[card_type] == CALIBRATION)
    assert all(v <= rules.calibrations_per_turn for v in per_turn.values()), "two Calibrations in one turn"
    # 6. Phase B: the turn's action must be spent; ending is legal once it is, or when nothing can spend it.
    if state.phase == PLAY:
        legal = list(state.legal_actions())
        spent = state.actions_taken >= rules.actions
        assert (tables.A_END in legal) == (spent or legal == [tables.A_END]), (
            f"ending Phase B is {'' if tables.A_END in legal else 'not '}legal with {state.actions_taken} "
            f"actions spent and {legal}"
        )
        assert (tables.A_RESEARCH in legal) == bool(state.deck or state.discard), "Research without cards, or none"
    # 7. Patents: one owner, one License, never the owner, none at 2 players, claims only on your turn.
    for owner, licensee in zip(state.patent_owner, state.patent_licensee):
        if licensee >= 0:
            assert tables.licenses and owner >= 0 and licensee != owner, "bad License"
    for turn, player, _patent, _is_license in state.stats.claims:
        assert player == (state.first_player + turn) % state.num_players, (
            f"P{player + 1} claimed on turn {turn}, not their turn"
        )
    assert sum(len(x) for x in state.licenses) == sum(1 for x in state.patent_licensee if x >= 0)
    # 8. Equal turns at the end; the score recounted independently equals the reported one.
    if state.phase == OVER:
        assert state.stats.turns == [tables.rounds] * state.num_players, f"turns per player {state.stats.turns}"
        assert all(
            len(hand) <= rules.hand_limit + state.abilities[player].hand_limit
            for player, hand in enumerate(state.hands)
        )
        assert recount(state) == state.scores(), f"recount {recount(state)} != scores {state.scores()}"


def _check_chain(state: State, player: int) -> None:
    """3. Chain matching: each Part's Input matches the Output before it, or an effect allowed it. 4. Slots."""
    tables = state.tables
    chain = state.chains[player]
    links = state.links[player]
    assert len(links) == len(chain), "one link per Part"
    for k, card in enumerate(chain):
        link = links[k]
        card_type = tables.itype[card]
        assert tables.kind[card_type] == PART, f"P{player + 1} chain holds a non-Part"
        if k == 0:
            assert link in (Link.FIRST, Link.ANY_INPUT), f"P{player + 1} first Part attached as {link}"
            continue
        before = tables.itype[chain[k - 1]]
        if link == Link.PRINTED:
            assert tables.inmask[card_type] & tables.outbit[before], (
                f"P{player + 1} {tables.names[card_type]} (in {tables.inmask[card_type]}) attached to "
                f"{tables.names[before]} (out {tables.outbit[before]})"
            )
        elif link == Link.OPEN_END:
            assert any(tables.statics[tables.itype[u]].open_end for u in state.hosts[player][k]), (
                f"P{player + 1} open-end link without an open-end Upgrade"
            )
        else:
            assert link == Link.ANY_INPUT, f"P{player + 1} link {link} after the first Part"
    hosts = state.hosts[player]
    assert len(hosts) == len(chain) + 1
    assert len(hosts[0]) <= tables.core_slots, f"P{player + 1} Core holds {len(hosts[0])} Upgrades"
    for k, card in enumerate(chain):
        assert len(hosts[k + 1]) <= tables.slots[tables.itype[card]], (
            f"P{player + 1} {tables.names[tables.itype[card]]} over its slots"
        )
    assert all(tables.kind[tables.itype[u]] == UPGRADE for upgrades in hosts for u in upgrades), (
        "a non-Upgrade is tucked"
    )
    counts = state.counts[player]
    assert counts.chain_length == len(chain) and counts.upgrades == sum(len(h) for h in hosts), "stale tableau counts"


def recount(state: State) -> list[int]:
    """Recount every player's VP from the tableau, independently of scoring.breakdown."""
    tables = state.tables
    out = []
    for player in range(state.num_players):
        chain = [tables.itype[card] for card in state.chains[player]]
        upgrades = [(host, tables.itype[u]) for host, us in enumerate(state.hosts[player]) for u in us]
        core = tables.T + state.cores[player]
        vp = sum(tables.vp[t] for t in chain) + sum(tables.vp[t] for _, t in upgrades) + tables.vp[core]
        vp += sum(tables.patent_vp[k] for j, k in enumerate(state.patents) if state.patent_owner[j] == player)
        vp += tables.rules.license_vp * sum(1 for x in state.patent_licensee if x == player)
        by_type = Counter(tables.outbit[t] for t in chain)
        sources = [(core, 0)] + [(t, k + 1) for k, t in enumerate(chain)] + [(t, h) for h, t in upgrades]
        for card_type, host in sources:
            for each, quantity, types, every in tables.statics[card_type].end_game:
                if quantity == Q["neighbors"]:
                    n = (1 if chain else 0) if host == 0 else (host > 1) + (host < len(chain))
                elif quantity == Q["parts"]:
                    n = sum(v for bit, v in by_type.items() if bit & types)
                elif quantity == Q["chain_length"]:
                    n = len(chain)
                elif quantity == Q["claims"]:
                    n = state.patent_owner.count(player) + state.patent_licensee.count(player)
                elif quantity == Q["patents"]:
                    n = state.patent_owner.count(player)
                elif quantity == Q["upgrades"]:
                    n = len(upgrades)
                elif quantity == Q["types"]:
                    n = len(by_type)
                elif quantity == Q["hand"]:
                    n = len(state.hands[player])
                else:
                    raise AssertionError(f"recount can't count quantity {quantity}")
                vp += each * (n // every)
        out.append(vp)
    return out
