#!/usr/bin/env python3
"""Reference values for UnitCostsTest, computed outside Podium from the per-run values (not from sums).

Each run: window watts W, system rate R (units/s) and accelerators D. Per run x = W / R joules per unit and
y = D / R device-seconds per unit; cost per million units = 1e6 * (price_hour / 3600 * y + price_kwh * x / 3.6e6).
Intervals: mean +- t(0.975, n-1) * s / sqrt(n), with scipy's t quantile and numpy's sample standard deviation.
Run: python3 unit_costs.py > unit_costs.csv
"""
import numpy as np
from scipy import stats

RUNS = [(712.5, 301.2, 2), (698.0, 296.7, 2), (731.25, 309.9, 2), (705.0, 288.4, 2), (720.0, 305.0, 2)]
ON_DEMAND = 3.5
OWNED = 1.2
PER_KWH = 0.13


def interval(values):
    v = np.array(values, dtype=float)
    n = len(v)
    mean = v.mean()
    half = stats.t.ppf(0.975, n - 1) * v.std(ddof=1) / np.sqrt(n)
    return mean, mean - half, mean + half


x = [w / r for w, r, d in RUNS]
y = [d / r for w, r, d in RUNS]
rows = {
    "joules": interval(x),
    "on_demand": interval([1e6 * ON_DEMAND / 3600 * yi for yi in y]),
    "owned": interval([1e6 * (OWNED / 3600 * yi + PER_KWH * xi / 3.6e6) for xi, yi in zip(x, y)]),
}
print("figure,mean,low,high")
for name, (m, lo, hi) in rows.items():
    print(f"{name},{float(m)!r},{float(lo)!r},{float(hi)!r}")
