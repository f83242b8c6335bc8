# Reference values for EquivalenceTest, written by this script with Debian's statsmodels:
#   apt-get install -y python3-statsmodels
#   /usr/bin/python3 ttost.py > ttost.csv      (statsmodels 0.13.5, scipy 1.10.1, numpy 1.24.2)
# Per case: the values and baseline values (';'-separated), the margin in percent, then on the logs of the values
# statsmodels.stats.weightstats.ttost_ind(log a, log b, -log(1+m), log(1+m), usevar='unequal')'s p-value, the Welch 90%
# interval of the log difference (CompareMeans.tconfint_diff(alpha=0.1, usevar='unequal')), exponentiated, and
# the smallest whole n at which statsmodels.stats.power.TTestIndPower().power(effect_size=log(1+m)/s, nobs1=n,
# alpha=0.05, ratio=1, alternative='two-sided') reaches 0.8, s the root mean square of the two sides' standard
# deviations of their logs: the runs a side to tell a difference of the margin apart (exact noncentral t, equal
# variances; tt_ind_solve_power's root finder fails to converge on several of these cases, so whole n are searched).
import numpy as np
from statsmodels.stats.weightstats import ttost_ind, CompareMeans, DescrStatsW
from statsmodels.stats.power import TTestIndPower

cases = [
    ([601.5, 598.2, 605.9], [227.5, 231.0, 225.1], 5),
    ([34.0, 34.2, 33.8], [30.1, 30.4, 29.9], 5),
    ([52.0, 52.5, 51.5, 53.1, 50.9], [51.7, 52.2, 50.8, 52.9], 5),
    ([10.2, 9.1, 11.3], [10.0, 10.4, 9.8], 5),
    ([100.1, 99.8, 100.3, 99.9, 100.2, 100.0], [100.4, 99.7, 100.1, 100.2, 99.9, 100.3], 5),
    ([97.1, 96.8, 97.3, 97.0], [100.2, 99.9, 100.1, 99.8], 5),
    ([97.1, 96.8, 97.3, 97.0], [100.2, 99.9, 100.1, 99.8], 2),
    ([50.0, 55.0, 45.0, 52.0], [49.0, 51.0, 50.5, 48.5, 50.2], 10),
    ([20.0, 20.1], [19.9, 20.05], 1),
]
print("values,baseline,margin_percent,p_value,low90,high90,runs_to_tell_apart")
for a, b, m in cases:
    la, lb = np.log(a), np.log(b)
    bound = np.log1p(m / 100)
    p = ttost_ind(la, lb, -bound, bound, usevar='unequal')[0]
    low, high = CompareMeans(DescrStatsW(la), DescrStatsW(lb)).tconfint_diff(alpha=0.1, usevar='unequal')
    s = np.sqrt((np.var(la, ddof=1) + np.var(lb, ddof=1)) / 2)
    n = next(n for n in range(2, 100000)
             if TTestIndPower().power(effect_size=bound / s, nobs1=n, alpha=0.05, ratio=1, alternative='two-sided') >= 0.8)
    print(";".join(map(repr, a)), ";".join(map(repr, b)), m, repr(float(p)), repr(float(np.exp(low))),
          repr(float(np.exp(high))), n, sep=",")
