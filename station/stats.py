"""Fairness statistics of the dice seen: counts, chi-square, binomial test, power.

Pure: counts in, numbers and verdicts out; standard library only (no scipy).

- `faces_seen(reads)`: faces per die set (kind + set name or colour) and per player.
- `chi_square(counts, probs)`: goodness of fit, p-value from the regularized
  incomplete gamma function (series / continued fraction).
- `binomial_test(k, n, p)`: exact two-sided test for one face named in advance.
- `throws_needed_*`: how many throws a test needs to catch a given bias with
  80 % power at the 5 % level (noncentral chi-square by Patnaik's approximation,
  binomial by the normal approximation).
- `judge(...)`: a verdict with "needs about N more throws before it can tell".
  Tabas are unfair by nature: they are judged against their own measured
  baseline (a chi-square test of homogeneity between the baseline throws and
  the later ones), never against equal odds.

Testing again after every few throws inflates false alarms (NOTES.md): the
verdict names its throw count, and the page says to decide at a fixed count.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

ALPHA = 0.05
POWER = 0.80
EPS = 1e-14
MAX_ITER = 500
MIN_EXPECTED_PER_FACE = 5  # the chi-square rule of thumb
BIAS_FACTOR = 1.5  # the bias worth catching: one face at 1.5 times its share (d6: 25 % for 16.7 %)
FACES: Mapping[str, tuple[Any, ...]] = {
    "d6": tuple(range(1, 7)),
    "d8": tuple(range(1, 9)),
    "d10": tuple(range(0, 10)),
    "d10t": tuple(range(0, 100, 10)),
    "taba": ("liso", "carnero", "tripas", "hoyo"),
}


# --- special functions ---------------------------------------------------
def gamma_p(a: float, x: float) -> float:
    """The regularized lower incomplete gamma function P(a, x)."""
    if a <= 0:
        raise ValueError("a must be positive")
    if x <= 0:
        return 0.0
    if x < a + 1:
        return _gamma_series(a, x)
    return 1.0 - _gamma_cf(a, x)


def gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x)."""
    if a <= 0:
        raise ValueError("a must be positive")
    if x <= 0:
        return 1.0
    if x < a + 1:
        return 1.0 - _gamma_series(a, x)
    return _gamma_cf(a, x)


def _gamma_series(a: float, x: float) -> float:
    term = total = 1.0 / a
    ap = a
    for _ in range(MAX_ITER):
        ap += 1
        term *= x / ap
        total += term
        if abs(term) < abs(total) * EPS:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_cf(a: float, x: float) -> float:
    """Q(a, x) by Lentz's continued fraction (x >= a + 1)."""
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, MAX_ITER):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < EPS:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def chi2_sf(x: float, df: int) -> float:
    """P(X > x) for X chi-square with `df` degrees of freedom."""
    return gamma_q(df / 2, x / 2)


def chi2_isf(p: float, df: int) -> float:
    """The x with chi2_sf(x, df) = p (bisection; the critical value)."""
    lo, hi = 0.0, max(1.0, df * 10.0)
    while chi2_sf(hi, df) > p:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if chi2_sf(mid, df) > p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def normal_isf(p: float) -> float:
    """The z with P(Z > z) = p, by bisection on erfc."""
    lo, hi = -10.0, 10.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if 0.5 * math.erfc(mid / math.sqrt(2)) > p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def binom_pmf(k: int, n: int, p: float) -> float:
    if p <= 0:
        return 1.0 if k == 0 else 0.0
    if p >= 1:
        return 1.0 if k == n else 0.0
    log = (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
           + k * math.log(p) + (n - k) * math.log1p(-p))
    return math.exp(log)


# --- tests ---------------------------------------------------------------
@dataclass(frozen=True)
class ChiSquare:
    statistic: float
    df: int
    p_value: float
    expected: tuple[float, ...]


def chi_square(counts: Sequence[int], probs: Sequence[float]) -> ChiSquare:
    """Goodness of fit of `counts` to the face probabilities `probs`."""
    if len(counts) != len(probs) or len(counts) < 2:
        raise ValueError("counts and probs must have the same length, at least 2")
    n = sum(counts)
    total_p = sum(probs)
    expected = tuple(n * p / total_p for p in probs)
    stat = sum((c - e) ** 2 / e for c, e in zip(counts, expected, strict=True) if e > 0)
    df = sum(1 for e in expected if e > 0) - 1
    p = chi2_sf(stat, df) if n and df > 0 else 1.0
    return ChiSquare(stat, df, p, expected)


def homogeneity(a: Sequence[int], b: Sequence[int]) -> ChiSquare:
    """Chi-square test that two count vectors come from the same faces' odds (2 x k table)."""
    if len(a) != len(b):
        raise ValueError("both count vectors need the same faces")
    na, nb = sum(a), sum(b)
    n = na + nb
    cols = [x + y for x, y in zip(a, b, strict=True)]
    stat = 0.0
    expected = []
    for row, nr in ((a, na), (b, nb)):
        for c, col in zip(row, cols, strict=True):
            if col == 0 or nr == 0:
                expected.append(0.0)
                continue
            e = nr * col / n
            expected.append(e)
            stat += (c - e) ** 2 / e
    df = (sum(1 for c in cols if c) - 1) * (2 - 1)
    p = chi2_sf(stat, df) if df > 0 and na and nb else 1.0
    return ChiSquare(stat, df, p, tuple(expected))


def binomial_test(k: int, n: int, p: float) -> float:
    """Exact two-sided p-value: the face came up k times in n throws, its chance is p."""
    if not 0 <= k <= n:
        raise ValueError("k must be between 0 and n")
    if n == 0:
        return 1.0
    observed = binom_pmf(k, n, p)
    tol = observed * (1 + 1e-7)
    total = sum(q for q in (binom_pmf(i, n, p) for i in range(n + 1)) if q <= tol)
    return min(1.0, total)


# --- power ---------------------------------------------------------------
def chi2_power(n: int, w2: float, df: int, alpha: float = ALPHA) -> float:
    """Power of the chi-square test with n throws, effect size w² (Patnaik's approximation)."""
    lam = n * w2
    crit = chi2_isf(alpha, df)
    if lam <= 0:
        return alpha
    h = (df + lam) ** 2 / (df + 2 * lam)
    c = (df + 2 * lam) / (df + lam)
    return chi2_sf(crit / c, h)


def effect_w2(probs0: Sequence[float], probs1: Sequence[float]) -> float:
    return sum((p1 - p0) ** 2 / p0 for p0, p1 in zip(probs0, probs1, strict=True) if p0 > 0)


def throws_needed_chi2(w2: float, df: int, power: float = POWER, alpha: float = ALPHA) -> int:
    """Throws the chi-square test needs to catch effect w² with this power."""
    if w2 <= 0:
        raise ValueError("no effect to catch")
    lo, hi = 1, 2
    while chi2_power(hi, w2, df, alpha) < power:
        hi *= 2
        if hi > 10**9:
            return hi
    while lo < hi:
        mid = (lo + hi) // 2
        if chi2_power(mid, w2, df, alpha) >= power:
            hi = mid
        else:
            lo = mid + 1
    return lo


def throws_needed_binomial(p0: float, p1: float, power: float = POWER, alpha: float = ALPHA) -> int:
    """Throws a two-sided binomial test needs to tell chance p1 from p0 (normal approximation)."""
    za, zb = normal_isf(alpha / 2), normal_isf(1 - power)
    n = ((za * math.sqrt(p0 * (1 - p0)) + zb * math.sqrt(p1 * (1 - p1))) / (p1 - p0)) ** 2
    return math.ceil(n)


def biased(probs: Sequence[float], face: int, factor: float = BIAS_FACTOR) -> list[float]:
    """The alternative worth catching: `face` at factor times its share, the rest scaled down."""
    p1 = min(0.95, probs[face] * factor)
    rest = 1 - probs[face]
    return [p1 if i == face else p * (1 - p1) / rest for i, p in enumerate(probs)]


# --- counting what was seen ----------------------------------------------
@dataclass
class FaceCounts:
    kind: str
    counts: Counter = field(default_factory=Counter)

    @property
    def n(self) -> int:
        return sum(self.counts.values())

    def vector(self) -> list[int]:
        return [self.counts.get(f, 0) for f in FACES[self.kind]]


def die_set(die: Mapping[str, Any]) -> str:
    """The die set a die belongs to: its kind with its set name, or its colour."""
    kind = die.get("kind") or "d6"
    tag = die.get("set") or die.get("colour")
    return f"{kind} {tag}" if tag else kind


def faces_seen(throws: Iterable[tuple[str, Sequence[Any]]]) -> dict[str, dict[str, FaceCounts]]:
    """{"sets": {set: counts}, "players": {"player · kind": counts}} from (player, dice) pairs.

    A die is a §3 die object (kind, value, colour...) or a bare value (a d6).
    """
    sets: dict[str, FaceCounts] = {}
    players: dict[str, FaceCounts] = {}
    for player, dice in throws:
        for d in dice:
            die = d if isinstance(d, Mapping) else {"kind": "d6", "value": d}
            kind = die.get("kind") or "d6"
            if kind not in FACES or die.get("value") not in FACES[kind]:
                continue
            for table, key in ((sets, die_set(die)), (players, f"{player} · {kind}")):
                table.setdefault(key, FaceCounts(kind)).counts[die["value"]] += 1
    return {"sets": dict(sorted(sets.items())), "players": dict(sorted(players.items()))}


# --- verdicts ------------------------------------------------------------
@dataclass(frozen=True)
class Verdict:
    kind: str
    n: int
    test: str  # "chi-square" | "homogeneity" | "binomial" | "none"
    p_value: float | None
    verdict: str  # "unfair" | "no sign of bias" | "too few throws" | "no baseline"
    needed: int  # throws the test needs to catch the bias worth catching
    more: int  # throws still needed
    message: str
    statistic: float | None = None
    df: int | None = None
    expected: tuple[float, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ("kind", "n", "test", "p_value", "verdict", "needed",
                                               "more", "message", "statistic", "df")} | {
            "expected": [round(e, 2) for e in self.expected]}


def equal_odds(kind: str) -> list[float]:
    k = len(FACES[kind])
    return [1 / k] * k


def judge(fc: FaceCounts, baseline: Sequence[int] | None = None, alpha: float = ALPHA) -> Verdict:
    """Is this set fair? Dice against equal odds; tabas against their own baseline counts."""
    n = fc.n
    k = len(FACES[fc.kind])
    if fc.kind == "taba":
        return _judge_taba(fc, baseline, alpha)
    probs = equal_odds(fc.kind)
    needed = throws_needed_chi2(effect_w2(probs, biased(probs, 0)), k - 1)
    minimum = MIN_EXPECTED_PER_FACE * k
    if n < minimum:
        return Verdict(fc.kind, n, "none", None, "too few throws", needed, max(needed, minimum) - n,
                       f"too few throws to test: needs about {max(needed, minimum) - n} more "
                       f"before it can tell (one face at {BIAS_FACTOR:g}x its share takes about "
                       f"{needed} throws)")
    cs = chi_square(fc.vector(), probs)
    if cs.p_value < alpha:
        worst = max(range(k), key=lambda i: abs(fc.vector()[i] - cs.expected[i]))
        return Verdict(fc.kind, n, "chi-square", cs.p_value, "unfair", needed, 0,
                       f"unlikely to be fair (p = {cs.p_value:.3g}); face {FACES[fc.kind][worst]} "
                       f"is furthest from its share", cs.statistic, cs.df, cs.expected)
    more = max(0, needed - n)
    tail = (f"needs about {more} more throws before it can tell a face at {BIAS_FACTOR:g}x "
            f"its share" if more else "enough throws to catch a face at "
            f"{BIAS_FACTOR:g}x its share")
    return Verdict(fc.kind, n, "chi-square", cs.p_value, "no sign of bias", needed, more,
                   f"no sign of bias (p = {cs.p_value:.3g}); {tail}", cs.statistic, cs.df, cs.expected)


def _judge_taba(fc: FaceCounts, baseline: Sequence[int] | None, alpha: float) -> Verdict:
    k = len(FACES["taba"])
    if not baseline or sum(baseline) < MIN_EXPECTED_PER_FACE * k * 2:
        have = sum(baseline) if baseline else 0
        return Verdict("taba", fc.n, "none", None, "no baseline", 0, 0,
                       f"a taba is judged against its own measured odds: measure a baseline "
                       f"first ({have} throws measured so far)")
    base_total = sum(baseline)
    probs = [max(b, 0.5) / base_total for b in baseline]
    worst = min(range(k), key=lambda i: probs[i])  # the rare faces carry the game (Rey, Mendigo)
    needed = throws_needed_chi2(effect_w2(probs, biased(probs, worst)), k - 1)
    if fc.n < MIN_EXPECTED_PER_FACE * k:
        more = max(needed, MIN_EXPECTED_PER_FACE * k) - fc.n
        return Verdict("taba", fc.n, "none", None, "too few throws", needed, more,
                       f"too few throws since the baseline: needs about {more} more before it can tell")
    cs = homogeneity(baseline, fc.vector())
    if cs.p_value < alpha:
        return Verdict("taba", fc.n, "homogeneity", cs.p_value, "unfair", needed, 0,
                       f"this taba no longer falls as its baseline did (p = {cs.p_value:.3g})",
                       cs.statistic, cs.df, cs.expected)
    more = max(0, needed - fc.n)
    return Verdict("taba", fc.n, "homogeneity", cs.p_value, "no sign of bias", needed, more,
                   f"falls as its baseline (p = {cs.p_value:.3g})"
                   + (f"; needs about {more} more throws before it can tell a "
                      f"{FACES['taba'][worst]} at {BIAS_FACTOR:g}x its share" if more else ""),
                   cs.statistic, cs.df, cs.expected)


def judge_face(fc: FaceCounts, face: Any, probs: Sequence[float] | None = None,
               alpha: float = ALPHA) -> Verdict:
    """The binomial test of one face named in advance (against equal odds or given odds)."""
    faces = FACES[fc.kind]
    if face not in faces:
        raise ValueError(f"{face!r} is not a face of a {fc.kind}")
    i = faces.index(face)
    probs = list(probs) if probs else equal_odds(fc.kind)
    p0 = probs[i]
    p1 = min(0.95, p0 * BIAS_FACTOR)
    needed = throws_needed_binomial(p0, p1)
    k = fc.counts.get(face, 0)
    p = binomial_test(k, fc.n, p0)
    more = max(0, needed - fc.n)
    if fc.n and p < alpha:
        return Verdict(fc.kind, fc.n, "binomial", p, "unfair", needed, 0,
                       f"{face} came up {k} times in {fc.n} (expected {fc.n * p0:.1f}): "
                       f"unlikely by chance (p = {p:.3g})", expected=(fc.n * p0,))
    tail = f"; needs about {more} more throws before it can tell {face} at {p1:.0%}" if more else ""
    return Verdict(fc.kind, fc.n, "binomial", p if fc.n else None,
                   "no sign of bias" if fc.n else "too few throws", needed, more,
                   f"{face} came up {k} times in {fc.n} (expected {fc.n * p0:.1f}), "
                   f"p = {p:.3g}{tail}", expected=(fc.n * p0,))


def split_baseline(values: Sequence[Any], kind: str = "taba") -> tuple[list[int], FaceCounts]:
    """No baseline stored: the first half of a taba's throws is its baseline, the rest is tested."""
    half = len(values) // 2
    base = Counter(values[:half])
    later = FaceCounts(kind, Counter(values[half:]))
    return [base.get(f, 0) for f in FACES[kind]], later
