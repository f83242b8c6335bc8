# Reference values for OrderStatisticsTest, written by this script with Debian's scipy:
#   apt-get install -y python3-scipy
#   /usr/bin/python3 order_statistics.py > order_statistics.csv      (scipy 1.10.1, numpy 1.24.2)
# Per case (n values, the p-quantile): the 95% equal-tailed distribution-free interval's ranks from 1 (empty where
# no rank reaches), found by walking every k with scipy.stats.binom's cdf, K ~ Binomial(n, p) the count below the
# quantile: lower = the largest l >= 1 with P(K <= l - 1) <= 0.025, upper = the smallest u <= n with
# P(K >= u) <= 0.025; then the exact coverage P(l <= K <= u - 1) (an open side unbounded), and whether the percentile
# is from too few values (n * min(p, 1 - p) < 1).
from scipy.stats import binom

TAIL = 0.025
print("n,p,lower,upper,coverage,too_few")
for n in [1, 2, 5, 6, 9, 10, 20, 50, 59, 99, 100, 120, 200, 299, 300, 366, 367, 368, 500, 1000, 3000, 10000]:
    for p in [0.5, 0.9, 0.99]:
        lower = None
        for l in range(1, n + 1):
            if binom.cdf(l - 1, n, p) <= TAIL:
                lower = l
        upper = None
        for u in range(n, 0, -1):
            if binom.sf(u - 1, n, p) <= TAIL:
                upper = u
        hi = 1.0 if upper is None else binom.cdf(upper - 1, n, p)
        lo = 0.0 if lower is None else binom.cdf(lower - 1, n, p)
        print("%d,%s,%s,%s,%.12f,%s" % (n, p, "" if lower is None else lower, "" if upper is None else upper,
                                         hi - lo, "true" if n * min(p, 1 - p) < 1 else "false"))
