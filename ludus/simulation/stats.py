"""Confidence intervals for the rates and means a report shows (95%, no dependencies)."""

from __future__ import annotations

import math

Z95 = 1.959963984540054  # the normal quantile of 97.5%


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion k/n: unlike p ± z·se it stays inside [0, 1] and
    is sound for small n and for rates near 0 or 1. (0, 1) when n is 0: nothing is known."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def difference(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> tuple[float, float, float]:
    """The difference p2 - p1 of two proportions (variant minus base) with Newcombe's interval,
    built from the two Wilson intervals: (difference, low, high)."""
    p1 = k1 / n1 if n1 else 0.0
    p2 = k2 / n2 if n2 else 0.0
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    d = p2 - p1
    low = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    high = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    return (d, max(-1.0, low), min(1.0, high))


def mean_ci(values: list[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean with its normal-approximation interval: (mean, low, high)."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return (mean, mean, mean)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def mean_difference(a: list[float], b: list[float], z: float = Z95) -> tuple[float, float, float]:
    """mean(b) - mean(a) with Welch's normal-approximation interval: (difference, low, high)."""
    if not a or not b:
        return (0.0, 0.0, 0.0)
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    va = sum((v - ma) ** 2 for v in a) / (len(a) - 1) if len(a) > 1 else 0.0
    vb = sum((v - mb) ** 2 for v in b) / (len(b) - 1) if len(b) > 1 else 0.0
    half = z * math.sqrt(va / len(a) + vb / len(b))
    d = mb - ma
    return (d, d - half, d + half)
