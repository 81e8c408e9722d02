# SPDX-License-Identifier: ISC
"""The statistics the report takes of its samples, and how it prints a
number.  Rounding and printing follow C (round half away from zero,
printf's %f), so that a figure comes out the same on every run of the
report, and the same as a reader's own printf of the raw data."""
import math


def median(xs):
    """The middle sample, or the mean of the two middle ones; None for
    no samples."""
    s = sorted(xs)
    n = len(s)
    if n == 0:
        return None
    if n % 2 == 1:
        return s[(n - 1) // 2]
    return (s[n // 2 - 1] + s[n // 2]) / 2


def pct(xs, p):
    """The p-quantile as a sample: the floor((n - 1) p)-th smallest."""
    s = sorted(xs)
    return s[math.floor((len(s) - 1) * p)]


def median_ci(xs):
    """A 95% interval of the median from the order statistics: the k-th
    smallest and largest sample, k = (n - 1.96 sqrt(n)) / 2; it assumes
    nothing of the distribution."""
    s = sorted(xs)
    n = len(s)
    k = max(math.floor((n - 1.96 * math.sqrt(n)) / 2), 0)
    return s[k], s[n - 1 - k]


def c_round(x):
    """C's round(): halves away from zero (Python's round() goes to the
    even neighbour)."""
    if x < 0:
        return -c_round(-x)
    r = math.floor(x)
    return float(r + 1) if x - r >= 0.5 else float(r)


def r1(x):
    return c_round(x * 10) / 10


def r2(x):
    return c_round(x * 100) / 100


def r3(x):
    return c_round(x * 1000) / 1000


def shown(x, places):
    """x as the report prints it with that many places, for what is
    computed from a printed figure (a difference of two ratios, a
    verdict): the result then agrees with the figures beside it."""
    return float(f"{x:.{places}f}")


def num(x):
    """A number printed in full, as the report has always printed raw
    figures: the shortest text that reads back as the same double,
    without a fraction when it has none (58, not 58.0).  For magnitudes
    below 1e16."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise TypeError(f"num: {x!r}")
    s = repr(x)
    return s[:-2] if s.endswith(".0") else s


def sgn(x):
    """x with its sign and one place: "+1.5", "-0.0" (never "+-0.0")."""
    s = f"{x:.1f}"
    return s if s.startswith("-") else "+" + s


def text(v):
    """A raw value as the report prints it: strings as they are,
    numbers by num(), null as "null"."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    return v if isinstance(v, str) else num(v)
