"""Small, exact statistics helpers for simulation reports (no numpy: reports must not need it)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

Z95 = 1.959963984540054  # two-sided 95 % normal quantile


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Return the Wilson score interval for a proportion (successes may be fractional for tie shares)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


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


def mean_ci(values: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """Return a normal-approximation 95 % interval for the mean."""
    m = mean(values)
    half = z * stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return (m - half, m + half)


def share_ci(shares: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """Return `mean_ci` of win shares, clipped to [0, 1]: a share's interval never leaves what a share can be."""
    lo, hi = mean_ci(shares, z)
    return (max(0.0, lo), min(1.0, hi))


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


def two_proportion_z(k1: float, n1: int, k2: float, n2: int) -> float:
    """Return the z statistic of p1 − p2 (pooled); 0 when it is undefined."""
    if n1 == 0 or n2 == 0:
        return 0.0
    p = (k1 + k2) / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    return (k1 / n1 - k2 / n2) / se if se else 0.0
