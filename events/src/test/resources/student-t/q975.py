# Writes q975.csv beside this script, the reference values of StudentTTest: for df 1..1000, the exact 0.975 quantile of
# Student's t (mpmath, 40 digits: the root of the regularised incomplete beta function) and scipy.stats.t.ppf(0.975, df).
# Debian's scipy 1.10 (cephes stdtri) is off by up to 4.1e-9 relative (df 39); its own t.cdf agrees with the mpmath
# column, so that column is the reference. Run with Debian's packages:
#   apt-get install -y python3-scipy python3-mpmath; /usr/bin/python3 q975.py
import os

import mpmath
import scipy
from scipy.stats import t

mpmath.mp.dps = 40
HALF = mpmath.mpf(1) / 2
TAIL = mpmath.mpf("0.05")

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "q975.csv"), "w") as out:
    out.write("# exact: mpmath %s (40 digits); scipy: scipy %s t.ppf(0.975, df); written by q975.py\n"
              % (mpmath.__version__, scipy.__version__))
    out.write("df,exact,scipy\n")
    for df in range(1, 1001):
        d = mpmath.mpf(df)
        scipy_ppf = float(t.ppf(0.975, df))
        exact = mpmath.findroot(lambda x: mpmath.betainc(d / 2, HALF, 0, d / (d + x * x), regularized=True) - TAIL,
                                mpmath.mpf(scipy_ppf))
        out.write("%d,%s,%s\n" % (df, mpmath.nstr(exact, 20, strip_zeros=False), repr(scipy_ppf)))
