"""Property tests: random legal play at every player count and variant keeps every rule invariant."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from me_helpers import model

from generator.games.micro_engine.board import Board, GameStats
from generator.games.micro_engine.engine import State
from generator.games.micro_engine.invariants import check, recount
from generator.games.micro_engine.phase import Phase
from generator.games.micro_engine.tables import Tables

_TABLES: dict = {}


def tables(players: int, quick: bool, travel: bool) -> Tables:
    key = (players, quick, travel)
    if key not in _TABLES:
        _TABLES[key] = Tables(model(), players, quick, travel)
    return _TABLES[key]


def play_checked(T: Tables, seed: int) -> State:
    """Play a random game, checking every invariant after every action; return the final state."""
    s = State.new(T, seed)
    rng = random.Random(seed)
    turn, owner = s.turn, s.current
    limit = T.rules.hand_limit
    while not s.is_terminal():
        legal = s.legal_actions()
        assert legal and list(legal) == sorted(set(legal)), "legal actions: non-empty, sorted, unique"
        s.apply_action(rng.choice(legal))
        check(s)
        if s.turn != turn:  # the turn passed: the player who ended it holds at most 10 cards
            assert len(s.hands[owner]) <= limit + s.abilities[owner].hand_limit
            turn, owner = s.turn, s.current
        if rng.random() < 0.01:
            assert s.clone().to_json() == s.to_json()
            assert State.from_json(T, s.to_json()).to_json() == s.to_json()
    assert s.returns() and abs(sum(s.returns()) - 1) < 1e-9
    assert recount(s) == s.scores()
    return s


@settings(derandomize=True, max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), players=st.sampled_from([2, 3, 4]), quick=st.booleans(), travel=st.booleans())
def test_random_play_keeps_every_invariant(seed, players, quick, travel):
    s = play_checked(tables(players, quick, travel), seed)
    assert s.stats.turns == [tables(players, quick, travel).rounds] * players  # equal turns


def test_same_seed_same_game():
    T = tables(3, False, False)
    a, b = play_checked(T, 99), play_checked(T, 99)
    assert a.history == b.history and a.to_json() == b.to_json()


def test_a_clone_is_independent():
    s = State.new(tables(2, False, False), 5)
    while s.phase != Phase.PLAY:
        s.apply_action(s.legal_actions()[0])
    before = s.to_json()
    c = s.clone()
    c.apply_action(c.legal_actions()[-1])
    c.hands[0].append(c.deck.pop())
    assert s.to_json() == before


def _containers(value):
    """Yield every list and set inside `value` (itself included), and the lists inside GameStats."""
    if isinstance(value, GameStats):
        for name in value.__slots__:
            yield from _containers(getattr(value, name))
    elif isinstance(value, list | set):
        yield value
        for item in value:
            yield from _containers(item)


def test_a_clone_copies_every_field_and_shares_no_mutable_zone():
    s = State.new(tables(3, False, False), 8)
    rng = random.Random(8)
    for _ in range(90):
        s.apply_action(rng.choice(s.legal_actions()))
    c = s.clone()
    shared = {"tables", "abilities", "legal_cache"}  # read-only: compiled tables, rebuilt abilities, a cached list
    for name in Board.__slots__:
        mine, theirs = getattr(s, name), getattr(c, name)
        assert mine == theirs, name
        if name not in shared:
            ids = {id(x) for x in _containers(theirs)}
            assert not any(id(x) in ids for x in _containers(mine)), f"{name} shares a list with its clone"
