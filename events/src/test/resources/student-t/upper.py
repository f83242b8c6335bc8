# Writes upper.csv: p, df, scipy.stats.t.ppf(p, df) for the upper quantiles an equivalence test and its sample size use.
# Run: python3 upper.py > upper.csv   (scipy 1.17.1, numpy 2.4)
from scipy.stats import t
dfs = [1, 1.5, 2, 2.3093729338690014, 3, 3.7, 4, 5, 6.447621980036314, 8, 10, 17.35, 30, 58, 100, 500, 999, 2000, 1e6]
print("p,df,quantile")
for p in (0.8, 0.9, 0.95):
    for df in dfs:
        print(f"{p},{df!r},{float(t.ppf(p, df))!r}")
