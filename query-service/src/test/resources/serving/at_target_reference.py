"""Reference values for TargetCrossingTest, computed outside Podium with SciPy (python3-scipy 1.17).

Each case in at-target-cases.json is a curve of points (parameter, target metric t and y, each a mean with a 95% interval over `samples` values,
t(0.975, samples - 1) half-widths), a target and whether t meets it at or below. y at the target is the linear
interpolation between the two neighbouring points whose t lie on either side (the crossing with the most y where there
are several); its variance is the delta method over the four means, its df Welch-Satterthwaite. Ratios are of one case's
value to another's on logs (se = se(y)/y), Welch-Satterthwaite df, exp(d +- t(0.975, df) se), and the TOST verdict at a
5% margin. Run: python3 at_target_reference.py > at-target-reference.csv
"""
import json
import math
import os
from scipy import stats

def se(mean, low, high, samples):
    if low is None or samples < 2:
        return float('nan')
    return (high - low) / 2 / stats.t.ppf(0.975, samples - 1)

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'at-target-cases.json')) as f:
    INPUT = json.load(f)
CASES = {k: (v['lowerIsBetter'], v['target'], [tuple(p) for p in v['points']]) for k, v in INPUT['cases'].items()}
RATIOS = [tuple(r) for r in INPUT['ratios']]

def at(lower, target, points):
    best = None
    for i, a in enumerate(points):
        here = None
        if i + 1 < len(points):
            b = points[i + 1]
            if a[1] != b[1] and min(a[1], b[1]) <= target <= max(a[1], b[1]):
                here = between(a, b, target)
        if here is None and a[1] == target:
            s = se(a[4], a[5], a[6], a[7])
            here = (a[4], s * s, a[7] - 1, a[0], a[0], a[7])
        if here is not None and (best is None or here[0] > best[0]):
            best = here
    if best is not None:
        return ('REACHED',) + best
    meets = all((p[1] <= target) if lower else (p[1] >= target) for p in points)
    return ('BEYOND_EVERY_POINT' if meets else 'NOT_REACHED', None, None, None, None, None, None)

def between(a, b, target):
    w = (target - a[1]) / (b[1] - a[1])
    slope = (b[4] - a[4]) / (b[1] - a[1])
    value = a[4] + w * (b[4] - a[4])
    terms = [(1 - w, se(a[4], a[5], a[6], a[7]), a[7]), (w, se(b[4], b[5], b[6], b[7]), b[7]),
             (slope * (1 - w), se(a[1], a[2], a[3], a[7]), a[7]), (slope * w, se(b[1], b[2], b[3], b[7]), b[7])]
    terms = [(g, s, n) for g, s, n in terms if g != 0]
    c = [(g * s) ** 2 for g, s, n in terms]
    var = sum(c)
    if math.isnan(var):
        return (value, var, None, a[0], b[0], min(n for g, s, n in terms))
    df = var * var / sum(ci * ci / (n - 1) for ci, (g, s, n) in zip(c, terms))
    return (value, var, df, a[0], b[0], min(n for g, s, n in terms))

def interval(value, var, df):
    if var is None or math.isnan(var):
        return None, None
    h = stats.t.ppf(0.975, df) * math.sqrt(var)
    return value - h, value + h

print('kind,name,status,value,low,high,df,from,to')
results = {}
for name, (lower, target, points) in CASES.items():
    status, value, var, df, frm, to, samples = at(lower, target, points)
    results[name] = (value, var, df, samples)
    low, high = (None, None) if value is None else interval(value, var, df)
    fmt = lambda x: '' if x is None or (isinstance(x, float) and math.isnan(x)) else repr(float(x))
    print(','.join(['at', name, status, fmt(value), fmt(low), fmt(high),
                    fmt(None if var is None or math.isnan(var) else df), frm or '', to or '']))
for a, b in RATIOS:
    va, vara, dfa, _ = results[a]
    vb, varb, dfb, _ = results[b]
    ra, rb = vara / va ** 2, varb / vb ** 2
    d, s = math.log(va / vb), math.sqrt(ra + rb)
    df = (ra + rb) ** 2 / (ra ** 2 / dfa + rb ** 2 / dfb)
    t95, t90 = stats.t.ppf(0.975, df), stats.t.ppf(0.95, df)
    bound = math.log(1.05)
    lo95, hi95, lo90, hi90 = d - t95 * s, d + t95 * s, d - t90 * s, d + t90 * s
    if lo95 > bound: call = 'FASTER'
    elif hi95 < -bound: call = 'SLOWER'
    elif lo90 > -bound and hi90 < bound: call = 'FASTER_WITHIN' if lo95 > 0 else 'SLOWER_WITHIN' if hi95 < 0 else 'SAME'
    else: call = 'INCONCLUSIVE'
    print(','.join(['ratio', a + '/' + b, call, repr(math.exp(d)), repr(math.exp(lo95)), repr(math.exp(hi95)),
                    repr(float(df)), '', '']))
