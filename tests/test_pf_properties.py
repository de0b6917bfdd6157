"""Property tests over random legal play: the invariants of the rules, and agreement with a naive reference."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pf_common import model, tables
from pf_reference import Reference

from generator.games.pocket_foundry.engine import Game
from generator.games.pocket_foundry.trace import RAN, mask_slots, trace_run
from generator.sim.protocol import CHANCE

PLAYERS = st.sampled_from([2, 3, 4])
SETTINGS = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def check_invariants(state, ref) -> None:
    """Everything the rulebook promises about any position."""
    t = tables()
    n = state.num_players
    # Card conservation: market + deck + installed + discarded = every copy, type by type.
    installed = Counter(m for p in range(n) for m in state.slots(p) if m != -1)
    for m in range(t.n_types):
        assert state.market[m] + state.deck[m] + installed[m] + state.discard[m] == t.copies[m]
    assert state.deck_size == sum(state.deck)
    # The market shows market_size cards while the deck can refill it.
    if state.deck_size and state.cur >= 0:
        assert sum(state.market) == t.market_size
    # Slot 1 is always the starter; stores stay within the caps.
    for p in range(n):
        assert t.row_machines(state.row[p])[0] == t.starter_index
        assert state.observation(p)["players"][p]["row"][0] == t.starter.name
        for v, cap in zip(t.values[state.res[p]], t.caps):
            assert 0 <= v <= cap
    # The naive reference agrees on everything public.
    for p, player in enumerate(ref.players):
        assert state.resources(p) == {**player.store, t.score: player.points}
        assert [t.ids[m] if m != -1 else None for m in state.slots(p)] == player.slots
    assert Counter(t.ids[m] for m, c in enumerate(state.market) for _ in range(c)) == Counter(ref.market)
    assert Counter(t.ids[m] for m, c in enumerate(state.discard) for _ in range(c)) == Counter(ref.discarded)
    assert state.turn == ref.turn


@SETTINGS
@given(players=PLAYERS, data=st.data())
def test_random_legal_play_keeps_every_invariant(players, data):
    play_and_check(players, lambda legal, label: data.draw(st.sampled_from(legal), label=label))


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_seeded_random_games_keep_every_invariant(players):
    rng = random.Random(players)
    for _ in range(25):
        play_and_check(players, lambda legal, label: rng.choice(legal))


def play_and_check(players: int, choose) -> None:
    """Play one game, choosing every action (and deal) with `choose`, checking the rules after each."""
    t = tables()
    game = Game(model(), players)
    state = game.new_initial_state()
    ref = Reference(model(), players)
    acted: list[int] = []
    deck_before = list(state.deck)
    discard_before = list(state.discard)
    points_before = list(state.pts)
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, "legal actions are never empty before the end"
        assert legal == sorted(set(legal))
        if state.cur == CHANCE:
            action = choose(legal, "deal")
            state.apply_action(action)
            ref.deal(t.ids[action])
        else:
            p = state.cur
            assert p == ref.current()
            assert t.run_action(0) in legal, "skipping every slot is always legal"
            action = choose(legal, f"P{p}")
            row_before, res_before = state.row[p], state.res[p]
            acted.append(p)
            if action < t.n_build_actions:
                m, slot = t.decode_build(action)
                state.apply_action(action)
                ref.build(t.ids[m], slot)
                assert state.pts == points_before, "a build earns no points"
                changed = [
                    j for j in range(t.build_slots) if t.row_slots(state.row[p])[j] != t.row_slots(row_before)[j]
                ]
                assert len(changed) <= 1 and t.row_slots(state.row[p])[slot - 2] == m
            else:
                mask = action - t.n_build_actions
                # Caps after every machine: replay the run slot by slot; each step ends within the caps.
                trace = trace_run(t, row_before, res_before, mask_slots(mask, t.slots))
                assert trace.mask == mask
                for step in trace.steps:
                    if step.status == RAN:
                        assert all(v <= c for v, c in zip(step.result.after, t.caps))
                state.apply_action(action)
                ref.run(mask_slots(mask, t.slots))
                assert state.row[p] == row_before, "a run changes no slot"
                assert state.pts[p] - points_before[p] == trace.points
        assert all(a >= b for a, b in zip(state.pts, points_before)), "points never decrease"
        assert all(a <= b for a, b in zip(state.deck, deck_before)), "the deck only shrinks: no reshuffle"
        assert all(a >= b for a, b in zip(state.discard, discard_before)), "discarded machines never return"
        deck_before, discard_before, points_before = list(state.deck), list(state.discard), list(state.pts)
        check_invariants(state, ref)
    # Equal turns, and the starting player moves one seat clockwise each lap.
    assert Counter(acted) == dict.fromkeys(range(players), t.laps)
    assert [acted[lap * players] for lap in range(t.laps)] == [lap % players for lap in range(t.laps)]
    shares = state.returns()
    best = max(state.pts)
    assert abs(sum(shares) - 1) < 1e-9
    assert all((s > 0) == (pts == best) for s, pts in zip(shares, state.pts))


@SETTINGS
@given(players=PLAYERS, data=st.data())
def test_clones_replay_identically(players, data):
    state = Game(model(), players).new_initial_state()
    steps = data.draw(st.integers(0, 60), label="steps")
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(data.draw(st.sampled_from(state.legal_actions())))
    if state.is_terminal():
        return
    copy = state.clone()
    action = data.draw(st.sampled_from(state.legal_actions()), label="next")
    state.apply_action(action)
    copy.apply_action(action)
    assert copy.snapshot() == state.snapshot()
    assert copy.history == state.history
    assert state.game.state_from_json(state.to_json()).snapshot() == state.snapshot()
