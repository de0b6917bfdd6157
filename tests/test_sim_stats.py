"""The statistics behind every report."""

from __future__ import annotations

import pytest

from generator.sim import stats
from generator.sim.report import bar


def test_wilson_interval_known_values():
    lo, hi = stats.wilson(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    lo, hi = stats.wilson(0, 20)
    assert lo == 0 and round(hi, 4) == 0.1611
    assert stats.wilson(3, 0) == (0.0, 1.0)


def test_mean_interval_and_quantiles():
    values = [1, 2, 3, 4, 5]
    assert stats.mean(values) == 3
    assert stats.stdev(values) == pytest.approx(1.5811, abs=1e-4)
    lo, hi = stats.mean_ci(values)
    assert lo == pytest.approx(3 - 1.95996 * 1.5811 / 5**0.5, abs=1e-3)
    assert stats.quantile([1, 2, 3, 4], 0.5) == 2.5
    assert stats.quantile([1, 2, 3, 4], 0.25) == 1.75


def test_histogram_includes_empty_bins():
    assert stats.histogram([0, 1, 7], 3) == [(0, 2, 2), (3, 5, 0), (6, 8, 1)]


def test_bar_in_eighths():
    assert bar(0.5, 4) == "██"
    assert bar(1 / 16, 2) == "▏"
    assert bar(0) == ""


def test_a_share_interval_stays_between_none_and_all():
    # 1 win in 5: the normal interval reaches below 0 (-0.192, 0.592); a share's stops at 0
    assert stats.mean_ci([1, 0, 0, 0, 0]) == pytest.approx((-0.19199279690801, 0.59199279690801))
    assert stats.share_ci([1, 0, 0, 0, 0]) == pytest.approx((0.0, 0.59199279690801))
    assert stats.share_ci([1, 1, 1, 1, 0]) == pytest.approx((0.40800720309199, 1.0))
    assert stats.share_ci([0.5, 0.25, 0.75]) == stats.mean_ci([0.5, 0.25, 0.75])  # inside: unchanged
