"""The statistics behind every report, pinned against scipy and statsmodels (test-only references)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as ss
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

from generator.sim import stats
from generator.sim.report import bar

# 0/n, n/n, tiny n and the audit's example (1 win in 200), then ordinary cases
EDGES = [
    (0, 1),
    (1, 1),
    (0, 2),
    (2, 2),
    (1, 2),
    (0, 5),
    (5, 5),
    (1, 3),
    (3, 7),
    (1, 200),
    (0, 1000),
    (999, 1000),
    (37, 120),
]


@pytest.mark.parametrize(("k", "n"), EDGES)
def test_wilson_matches_statsmodels_on_the_edges(k, n):
    lo, hi = stats.wilson(k, n)
    ref = proportion_confint(k, n, alpha=0.05, method="wilson")
    assert (lo, hi) == pytest.approx(ref, abs=1e-12)
    assert (lo == 0) == (k == 0) and (hi == 1) == (k == n)  # exactly 0 and 1 at the ends: no rounding noise


@pytest.mark.parametrize(("k", "n"), EDGES)
def test_clopper_pearson_matches_statsmodels_and_scipy_on_the_edges(k, n):
    lo, hi = stats.clopper_pearson(k, n)
    assert (lo, hi) == pytest.approx(proportion_confint(k, n, alpha=0.05, method="beta"), abs=1e-10)
    ref = ss.binomtest(k, n).proportion_ci(confidence_level=0.95, method="exact")
    assert (lo, hi) == pytest.approx((ref.low, ref.high), abs=1e-10)


def test_the_audits_example_one_win_in_two_hundred():
    # the old clipped normal interval gave [0, 1.5 %]; Wilson gives [0.1, 2.8 %]
    lo, hi = stats.share_ci([1.0] + [0.0] * 199)
    assert (round(100 * lo, 1), round(100 * hi, 1)) == (0.1, 2.8)
    assert stats.share_ci([0.0] * 200)[1] > 0  # a share of 0 no longer gets a zero-width interval


def test_a_proportion_gets_the_exact_interval_below_thirty_observations():
    assert stats.proportion_method(29) == stats.CLOPPER_PEARSON and stats.proportion_method(30) == stats.WILSON
    assert stats.proportion_ci(1, 4) == stats.clopper_pearson(1, 4)
    assert stats.proportion_ci(10, 40) == stats.wilson(10, 40)
    assert stats.wilson(3, 0) == stats.clopper_pearson(3, 0) == (0.0, 1.0)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 400).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_both_proportion_intervals_match_statsmodels_everywhere(kn):
    k, n = kn
    assert stats.wilson(k, n) == pytest.approx(proportion_confint(k, n, method="wilson"), abs=1e-9)
    assert stats.clopper_pearson(k, n) == pytest.approx(proportion_confint(k, n, method="beta"), abs=1e-9)


@pytest.mark.parametrize("df", [1, 2, 3, 4, 5, 9, 29, 100, 1999])
def test_t_quantiles_and_tails_match_scipy(df):
    assert stats.t_ppf(0.975, df) == pytest.approx(ss.t.ppf(0.975, df), rel=1e-10)
    assert stats.t_ppf(0.025, df) == pytest.approx(ss.t.ppf(0.025, df), rel=1e-10)
    for t in (0.1, 1.0, 2.5, 10.0):
        assert stats.t_two_sided_p(t, df) == pytest.approx(2 * ss.t.sf(t, df), rel=1e-9, abs=1e-15)


def test_mean_interval_is_students_t_and_needs_two_values():
    values = [1, 2, 3, 4, 5]
    ref = ss.t.interval(0.95, 4, loc=3, scale=ss.sem(values))
    assert stats.mean_ci(values) == pytest.approx(ref, abs=1e-12)
    assert stats.mean_ci([4.0]) is None  # one game: no interval, not a zero-width one
    assert stats.quantile([1, 2, 3, 4], 0.5) == 2.5
    assert stats.quantile([1, 2, 3, 4], 0.25) == 1.75


# four games (as the audit's thinnest row), a few, and many
SAMPLES = [
    ([0.0, 1.0, 0.5, 1.0], [1.0, 1.0, 0.0, 1.0]),
    ([3, 5, 2, 8, 7, 1], [4, 4, 5, 9, 9, 2]),
    ([float(i % 7) for i in range(50)], [float((i * 3) % 11) for i in range(50)]),
]


@pytest.mark.parametrize(("a", "b"), SAMPLES)
def test_paired_differences_match_scipys_ttest_rel(a, b):
    d = stats.paired(a, b)
    ref = ss.ttest_rel(b, a)
    assert d.p == pytest.approx(ref.pvalue, rel=1e-9)
    assert d.ci95 == pytest.approx(tuple(ref.confidence_interval(0.95)), abs=1e-10)
    assert d.df == len(a) - 1


@pytest.mark.parametrize(("a", "b"), [(x, y[: max(2, len(y) - 1)]) for x, y in SAMPLES])
def test_unpaired_differences_are_welchs_t_as_scipy_computes_it(a, b):
    d = stats.welch(a, b)
    ref = ss.ttest_ind(b, a, equal_var=False)
    assert d.p == pytest.approx(ref.pvalue, rel=1e-9)
    assert d.ci95 == pytest.approx(tuple(ref.confidence_interval(0.95)), abs=1e-9)
    assert d.df == pytest.approx(ref.df, rel=1e-12)


def test_differences_without_noise_or_data():
    assert stats.paired([1, 2, 3], [2, 3, 4]).ci95 == (1.0, 1.0)  # every game moved by 1: certain
    assert stats.paired([1, 2, 3], [2, 3, 4]).p == 0.0
    assert stats.paired([1, 2], [1, 2]).p == 1.0
    assert stats.paired([1], [2]).ci95 is None and stats.welch([1], [2, 3]).p is None


PVALUES = [[0.01, 0.04, 0.03, 0.2, 0.005], [0.5], [0.001, 0.001, 0.9, 0.049, 0.02, 0.3, 0.04]]


@pytest.mark.parametrize("ps", PVALUES)
def test_holm_and_benjamini_hochberg_match_statsmodels(ps):
    assert stats.holm(ps) == pytest.approx(list(multipletests(ps, method="holm")[1]), abs=1e-12)
    assert stats.benjamini_hochberg(ps) == pytest.approx(list(multipletests(ps, method="fdr_bh")[1]), abs=1e-12)


def test_a_row_without_a_p_value_is_not_counted_in_the_family():
    assert stats.holm([0.01, None, 0.04]) == pytest.approx([0.02, None, 0.04])


def test_the_closest_point_bootstrap_is_paired_seeded_and_sums_to_one():
    near = [(0.25 + 0.01 * ((i % 3) - 1), 1) for i in range(60)]
    far = [(0.40, 1) for _ in range(60)]
    support = stats.closest_bootstrap([far, near, far], 0.25, resamples=200, seed=3)
    assert support == [0.0, 1.0, 0.0] and stats.support_set(support) == [1]
    mixed = [[(float(i % 2), 1) for i in range(40)], [(float(i % 3 == 0), 1) for i in range(40)]]
    once = stats.closest_bootstrap(mixed, 0.4, resamples=300, seed=5)
    assert once == stats.closest_bootstrap(mixed, 0.4, resamples=300, seed=5)  # seeded: the same every run
    assert math.isclose(sum(once), 1.0) and len(stats.support_set(once)) == 2


def test_histogram_includes_empty_bins():
    assert stats.histogram([0, 1, 7], 3) == [(0, 2, 2), (3, 5, 0), (6, 8, 1)]


def test_bar_in_eighths():
    assert bar(0.5, 4) == "██"
    assert bar(1 / 16, 2) == "▏"
    assert bar(0) == ""
