"""`cardpress analyze`: exact numbers, checked against independent brute force."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from functools import cache
from math import comb

import pytest
from pf_common import model, tables

from generator.games.pocket_foundry import analysis
from generator.games.pocket_foundry.solver import Solver
from generator.games.pocket_foundry.tables import EMPTY
from generator.games.pocket_foundry.trace import row_future


def brute_force(k: int, slots: tuple[str | None, ...], store: tuple[int, int]) -> int:
    """The best points in k turns by trying literally every build and every subset of slots to run."""
    m = model()
    by_id = {x.id: x for x in m.machines}
    caps = (6, 4)

    @cache
    def best(k, slots, store):
        if k == 0:
            return 0
        options = []
        for machine in m.machines:  # every type, always available
            cost = dict(machine.build_cost)
            if store[0] >= cost.get("feed", 0) and store[1] >= cost.get("parts", 0):
                for j in range(3):
                    new = slots[:j] + (machine.id,) + slots[j + 1 :]
                    options.append(best(k - 1, new, (store[0] - cost.get("feed", 0), store[1] - cost.get("parts", 0))))
        row = [m.starter] + [by_id[s] if s else None for s in slots]
        for chosen in itertools.product([False, True], repeat=4):
            feed, parts, pts, ok = store[0], store[1], 0, True
            for run, machine in zip(chosen, row):
                if not run:
                    continue
                if machine is None:
                    ok = False
                    break
                pay, gain = dict(machine.run.pay), dict(machine.run.gain)
                if feed < pay.get("feed", 0) or parts < pay.get("parts", 0):
                    ok = False
                    break
                feed = min(caps[0], feed - pay.get("feed", 0) + gain.get("feed", 0))
                parts = min(caps[1], parts - pay.get("parts", 0) + gain.get("parts", 0))
                pts += gain.get("points", 0)
            if ok:
                options.append(pts + best(k - 1, slots, (feed, parts)))
        return max(options)

    return best(k, slots, store)


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 6])
def test_solver_equals_brute_force_from_the_start(k):
    t = tables()
    assert Solver(t).value(k, 0, t.start_res) == brute_force(k, (None, None, None), (3, 0))


def test_solver_equals_brute_force_from_random_positions():
    t = tables()
    solver = Solver(t)
    rng = random.Random(4)
    for _ in range(12):
        slots = tuple(rng.choice([None, *[m.id for m in model().machines]]) for _ in range(3))
        store = (rng.randrange(7), rng.randrange(5))
        row = t.row_code([t.ids.index(s) if s else EMPTY for s in slots])
        k = rng.randrange(1, 5)
        assert solver.value(k, row, t.encode(store)) == brute_force(k, slots, store)


def test_best_solo_score_and_a_plan_that_reaches_it():
    solo = analysis.solo_optimum(model())
    assert solo.best == 53
    assert solo.by_horizon[-1] == 53 and list(solo.by_horizon) == sorted(solo.by_horizon)
    t = tables()
    row, res, total = 0, t.start_res, 0
    for step in solo.plan:  # replay the plan with the rules: every step legal, the total reached
        assert (step.row, step.res) == (row, res)
        if step.action < t.n_build_actions:
            m, slot = t.decode_build(step.action)
            res = t.build_next[m][res]
            assert res >= 0
            row = t.with_slot(row, slot, m)
        else:
            res, gained = next((r, p) for a, r, p in t.runs(row, res) if a == step.action)
            total += gained
    assert total == 53


def test_opening_market_stuck_probability_is_exact():
    # Independent count: with only the Starter Feeder nobody ever holds a PART, so an opening market is stuck
    # exactly when all four cards cost PARTS: 8 such cards among 16.
    assert analysis.opening_stall_probability(model()) == Fraction(comb(8, 4), comb(16, 4)) == Fraction(1, 26)
    assert sum(p for _, p in analysis.opening_markets(tables())) == 1


def test_sustained_rate_matches_long_runs():
    t = tables()
    rng = random.Random(1)
    full = [row for row in range(t.n_rows) if EMPTY not in t.row_slots(row)]
    for row in [
        t.row_code([t.ids.index(x) for x in ("sort-scoop", "twin-press", "packing-line")]),
        *rng.sample(full, 6),
    ]:
        rate = analysis.sustained_rate(t, row)
        n = 120
        long, short = row_future(t, row, 2 * n), row_future(t, row, n)
        assert abs(max(long) - max(short) - n * rate) <= 12  # a bounded transient, whatever the start
    assert analysis.sustained_rate(t, full[0]) >= 0
    best = t.row_code([t.ids.index(x) for x in ("sort-scoop", "twin-press", "packing-line")])
    assert analysis.sustained_rate(t, best) == 10


def test_chains_run_whole_from_the_smallest_store():
    t = tables()
    two = {tuple(t.names[m] for m in c.machines): c for c in analysis.chains(t, 2)}
    press_wheel = two[("Small Press", "Polishing Wheel")]
    assert press_wheel.needs == (2, 0) and press_wheel.points == 4
    assert two[("Feed Belt", "Ticket Stamp")].needs == (0, 0)
    assert ("Polishing Wheel", "Small Press") not in two  # the wheel cannot pay with a later part


def test_report_sections():
    doc = analysis.report(model(), turns=6, restricted=False)
    assert [s.key for s in doc.sections] == ["solo", "machines", "chains", "engines", "opening"]
    assert doc.sections[0].data["best"] == 13


def exact_buildable(t) -> set[int]:
    """Every type some (row, purse) reachable from the start can pay for: a plain search over all states."""
    seen = {(0, t.start_res)}
    todo = [(0, t.start_res)]
    built = set()
    while todo:
        row, res = todo.pop()
        nxt = [(row, r) for _, r, _ in t.runs(row, res)]
        for m in range(t.n_types):
            if t.build_next[m][res] >= 0:
                built.add(m)
                nxt += [(t.with_slot(row, slot, m), t.build_next[m][res]) for slot in range(2, t.slots + 1)]
        for state in nxt:
            if state not in seen:
                seen.add(state)
                todo.append(state)
    return built


def test_ever_buildable_agrees_with_a_search_over_every_state():
    from dataclasses import replace

    from generator.games.pocket_foundry.model import Effect
    from generator.games.pocket_foundry.rules_check import ever_buildable
    from generator.games.pocket_foundry.tables import Tables

    t = tables()
    assert ever_buildable(t) == exact_buildable(t) == set(range(8))
    base = model()
    no_parts = replace(
        base,
        machines=tuple(
            replace(m, run=Effect(m.run.pay, (("feed", 1),))) if m.name in ("Small Press", "Twin Press") else m
            for m in base.machines
        ),
    )
    t2 = Tables(no_parts)
    assert ever_buildable(t2) == exact_buildable(t2) == {0, 1, 2, 3}
