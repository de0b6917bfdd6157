"""The lab's statistics, one definition each: intervals for proportions and means, paired and unpaired
differences with p-values, multiple-comparison corrections, and a bootstrap of which point is closest to a target.

Pure Python (reports must not need numpy or scipy); tests pin every method against scipy and statsmodels.
- Proportions: the Wilson score interval (Wilson 1927), or the exact Clopper–Pearson interval (1934) when there
  are fewer than `SMALL_N` observations. A win share, where k tied leaders get 1/k each, is a proportion whose
  successes may be fractional; its variance is at most a Bernoulli's, so the interval is, if anything, wide.
- Means: Student's t interval (n − 1 degrees of freedom).
- Differences: paired by seed (the mean of per-game differences, t with n − 1 df) when both runs played the
  same games; else Welch's t with Welch–Satterthwaite degrees of freedom.
- Many rows: Holm's step-down correction (1979) controls the chance of any false "differs" in a table;
  Benjamini–Hochberg (1995) is offered for screening.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist

LEVEL = 0.95  # every interval in every report
ALPHA = 1 - LEVEL
Z95 = NormalDist().inv_cdf(1 - ALPHA / 2)  # 1.959963984540054
SMALL_N = 30  # below this many observations a proportion gets the exact (Clopper–Pearson) interval

WILSON = "Wilson score"
CLOPPER_PEARSON = "Clopper–Pearson exact"
STUDENT = "Student's t"
PAIRED = "paired t (same seeds)"
WELCH = "Welch's t"
HOLM = "Holm"
BH = "Benjamini–Hochberg"

Interval = tuple[float, float]


# ---------------------------------------------------------------- distributions


def betainc(a: float, b: float, x: float) -> float:
    """Return the regularized incomplete beta function I_x(a, b) (a continued fraction, modified Lentz)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        for num in (
            m * (b - m) * x / ((a + m2 - 1) * (a + m2)),
            -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1)),
        ):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def _bisect(f: Callable[[float], float], target: float, lo: float, hi: float) -> float:
    """Return x in [lo, hi] with f(x) = target for an increasing f (to float precision)."""
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if f(mid) < target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def beta_ppf(q: float, a: float, b: float) -> float:
    """Return the q-quantile of the Beta(a, b) distribution."""
    return _bisect(lambda x: betainc(a, b, x), q, 0.0, 1.0)


def t_cdf(t: float, df: float) -> float:
    """Return P(T ≤ t) for Student's t with `df` degrees of freedom."""
    tail = 0.5 * betainc(df / 2, 0.5, df / (df + t * t))
    return 1 - tail if t > 0 else tail


@lru_cache(maxsize=4096)
def t_ppf(q: float, df: float) -> float:
    """Return the q-quantile of Student's t with `df` degrees of freedom (the normal's for infinite df)."""
    if math.isinf(df):
        return NormalDist().inv_cdf(q)
    if q == 0.5:
        return 0.0
    if q < 0.5:
        return -t_ppf(1 - q, df)
    hi = 1.0
    while t_cdf(hi, df) < q:
        hi *= 2
    return _bisect(lambda t: t_cdf(t, df), q, 0.0, hi)


def t_two_sided_p(t: float, df: float) -> float:
    """Return the two-sided p-value of a t statistic."""
    if math.isinf(t):
        return 0.0
    return min(1.0, betainc(df / 2, 0.5, df / (df + t * t)))


# ---------------------------------------------------------------- proportions


def wilson(successes: float, n: int, level: float = LEVEL) -> Interval:
    """Return the Wilson score interval for a proportion (successes may be fractional: tie shares)."""
    if n <= 0:
        return (0.0, 1.0)
    z = NormalDist().inv_cdf(1 - (1 - level) / 2)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p)) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)  # exactly 0 and 1 at the ends, not rounding noise
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return (lo, hi)


def clopper_pearson(successes: float, n: int, level: float = LEVEL) -> Interval:
    """Return the exact Clopper–Pearson interval (beta quantiles; successes may be fractional)."""
    if n <= 0:
        return (0.0, 1.0)
    a = (1 - level) / 2
    k = successes
    lo = 0.0 if k <= 0 else beta_ppf(a, k, n - k + 1)
    hi = 1.0 if k >= n else beta_ppf(1 - a, k + 1, n - k)
    return (lo, hi)


def proportion_method(n: int) -> str:
    """Return the name of the interval `proportion_ci` gives for n observations."""
    return CLOPPER_PEARSON if n < SMALL_N else WILSON


def proportion_ci(successes: float, n: int) -> Interval:
    """Return the lab's 95 % interval for a proportion: Wilson, exact Clopper–Pearson below SMALL_N."""
    return clopper_pearson(successes, n) if n < SMALL_N else wilson(successes, n)


def share_ci(shares: Sequence[float]) -> Interval:
    """Return the 95 % interval of a win share: `proportion_ci` of the summed shares (each in [0, 1])."""
    return proportion_ci(math.fsum(shares), len(shares))


# ---------------------------------------------------------------- means


def mean(values: Sequence[float]) -> float:
    """Return the arithmetic mean (0 for no values)."""
    return sum(values) / len(values) if values else 0.0


def stdev(values: Sequence[float]) -> float:
    """Return the sample standard deviation (0 for fewer than two values)."""
    n = len(values)
    if n < 2:
        return 0.0
    m = mean(values)
    return math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))


def mean_ci(values: Sequence[float]) -> Interval | None:
    """Return Student's t 95 % interval for the mean (None for fewer than two values: no interval exists)."""
    n = len(values)
    if n < 2:
        return None
    m = mean(values)
    half = t_ppf(1 - ALPHA / 2, n - 1) * stdev(values) / math.sqrt(n)
    return (m - half, m + half)


# ---------------------------------------------------------------- differences


@dataclass(frozen=True)
class Difference:
    """B − A for one measure: estimate, 95 % interval, two-sided p-value and how it was computed."""

    estimate: float
    ci95: Interval | None
    p: float | None
    method: str
    df: float | None = None


def paired(xa: Sequence[float], xb: Sequence[float]) -> Difference:
    """Return the mean of per-game differences xb[i] − xa[i] with its paired t interval and p-value."""
    diffs = [y - x for x, y in zip(xa, xb)]
    n = len(diffs)
    d = mean(diffs)
    if n < 2:
        return Difference(d, None, None, PAIRED)
    sd = stdev(diffs)
    if sd == 0:  # every game moved by the same amount: no noise to test against
        return Difference(d, (d, d), 1.0 if d == 0 else 0.0, PAIRED, n - 1)
    se = sd / math.sqrt(n)
    half = t_ppf(1 - ALPHA / 2, n - 1) * se
    return Difference(d, (d - half, d + half), t_two_sided_p(d / se, n - 1), PAIRED, n - 1)


def welch(va: Sequence[float], vb: Sequence[float]) -> Difference:
    """Return mean(vb) − mean(va) with Welch's t interval (Welch–Satterthwaite df) and p-value."""
    na, nb = len(va), len(vb)
    d = mean(vb) - mean(va)
    if na < 2 or nb < 2:
        return Difference(d, None, None, WELCH)
    qa, qb = stdev(va) ** 2 / na, stdev(vb) ** 2 / nb
    se2 = qa + qb
    if se2 == 0:
        return Difference(d, (d, d), 1.0 if d == 0 else 0.0, WELCH)
    df = se2 * se2 / (qa * qa / (na - 1) + qb * qb / (nb - 1))
    se = math.sqrt(se2)
    half = t_ppf(1 - ALPHA / 2, df) * se
    return Difference(d, (d - half, d + half), t_two_sided_p(d / se, df), WELCH, df)


# ---------------------------------------------------------------- many rows


def holm(pvalues: Sequence[float | None]) -> list[float | None]:
    """Return Holm's step-down adjusted p-values (None stays None and is not counted)."""
    known = sorted((p, i) for i, p in enumerate(pvalues) if p is not None)
    m = len(known)
    out: list[float | None] = [None] * len(pvalues)
    running = 0.0
    for rank, (p, i) in enumerate(known):
        running = max(running, min(1.0, (m - rank) * p))
        out[i] = running
    return out


def benjamini_hochberg(pvalues: Sequence[float | None]) -> list[float | None]:
    """Return Benjamini–Hochberg adjusted p-values (q-values; None stays None and is not counted)."""
    known = sorted((p, i) for i, p in enumerate(pvalues) if p is not None)
    m = len(known)
    out: list[float | None] = [None] * len(pvalues)
    running = 1.0
    for rank in range(m - 1, -1, -1):
        p, i = known[rank]
        running = min(running, m * p / (rank + 1))
        out[i] = min(1.0, running)
    return out


CORRECTIONS: dict[str, Callable[[Sequence[float | None]], list[float | None]]] = {HOLM: holm, BH: benjamini_hochberg}


# ---------------------------------------------------------------- which point is closest


def closest_bootstrap(
    per_point: Sequence[Sequence[tuple[float, int]]], target: float, resamples: int = 1000, seed: int = 0
) -> list[float]:
    """Return, per point, the share of bootstrap resamples in which its estimate is the closest to `target`.

    Each point's games are (sum, count) pairs (a game counts once, or once per player a measure applies to;
    the estimate is Σsum / Σcount). Every point played the same seeded games, so a resample draws game indices
    once and applies them to every point (a paired bootstrap); ties go to the first point, as the point
    estimate's do."""
    import numpy as np  # matplotlib's dependency: the resampled sums would take minutes in pure Python

    n = min((len(v) for v in per_point), default=0)
    wins = [0] * len(per_point)
    if n == 0:
        return [0.0] * len(per_point)
    sums = [np.array([x for x, _ in v[:n]], dtype=float) for v in per_point]
    counts = [np.array([c for _, c in v[:n]], dtype=np.int64) for v in per_point]
    rng = random.Random(seed)  # the indices come from Python's generator: the same on every numpy version
    for _ in range(resamples):
        idx = np.array([rng.randrange(n) for _ in range(n)], dtype=np.int64)
        gaps = []
        for total_of, count_of in zip(sums, counts):
            count = int(count_of[idx].sum())
            gaps.append(abs(float(total_of[idx].sum()) / count - target) if count else math.inf)
        wins[min(range(len(gaps)), key=lambda j: (gaps[j], j))] += 1
    return [w / resamples for w in wins]


def support_set(support: Sequence[float], level: float = LEVEL) -> list[int]:
    """Return the fewest points whose bootstrap support adds up to `level` (most supported first, ties by order)."""
    order = sorted(range(len(support)), key=lambda j: (-support[j], j))
    chosen, total = [], 0.0
    for j in order:
        if total >= level - 1e-12 or support[j] == 0:
            break
        chosen.append(j)
        total += support[j]
    return sorted(chosen)


# ---------------------------------------------------------------- descriptive


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """Return the q-quantile of already sorted values by linear interpolation (type 7, as R and numpy)."""
    if not sorted_values:
        return 0.0
    pos = (len(sorted_values) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def summary(values: Sequence[float]) -> dict[str, float]:
    """Return count, mean, sd, min, deciles 10/25/50/75/90 and max."""
    ordered = sorted(values)
    out = {
        "n": len(ordered),
        "mean": mean(ordered),
        "sd": stdev(ordered),
        "min": ordered[0] if ordered else 0,
        "max": ordered[-1] if ordered else 0,
    }
    for q in (0.1, 0.25, 0.5, 0.75, 0.9):
        out[f"p{int(q * 100)}"] = quantile(ordered, q)
    return out


def histogram(values: Sequence[int], width: int = 1) -> list[tuple[int, int, int]]:
    """Return (low, high, count) bins of `width` covering every value, empty bins included."""
    if not values:
        return []
    counts = Counter(v // width for v in values)
    return [(b * width, b * width + width - 1, counts.get(b, 0)) for b in range(min(counts), max(counts) + 1)]
