"""Red Man's Throw: ranking three d6 and prediction bets (RULES.md section 2).

Pure functions used by rules.red_man: `rank` gives a sort key (more sixes
first, then the class, then the readings' tie-breaks), `compare` says which
throw wins and why, `describe` names a throw; predictions are checked with
`check_prediction` and `prediction_holds`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.errors import IllegalEvent
from rules.events import Prediction
from rules.text import Text

Throw = tuple[int, int, int]


# --- ranking ---------------------------------------------------------------


def count_sixes(t: Throw) -> int:
    return sum(1 for d in t if d == 6)


def _pair(t: Throw) -> tuple[int, int] | None:
    """(pair value, kicker) when exactly two dice are equal."""
    a, b, c = sorted(t, reverse=True)
    if a == b != c:
        return a, c
    if b == c != a:
        return b, a
    return None


def _is_straight(t: Throw) -> bool:
    a, b, c = sorted(t)
    return b == a + 1 and c == b + 1


def _show(t: Throw | tuple[int, ...]) -> str:
    return "+".join(str(d) for d in sorted(t, reverse=True))


def rank(t: Throw, one_six: str = "straight_pair_total", nothing: str = "total") -> tuple[int, ...]:
    """A key: the stronger throw has the greater key; equal keys rank identically."""
    hi = sorted(t, reverse=True)
    sixes = count_sixes(t)
    if sixes == 3:
        return (3,)
    if sixes == 2:
        return (2, hi[2])
    if sixes == 1:
        a, b = hi[1], hi[2]
        if (a, b) == (5, 4):
            return (1, 2)
        if a == b and one_six == "straight_pair_total":
            return (1, 1, a)
        return (1, 0, a + b, a)
    if _is_straight(t):
        return (0, 3, hi[0])
    if hi[0] == hi[2]:
        return (0, 2, hi[0])
    pair = _pair(t)
    if pair is not None:
        return (0, 1, *pair)
    if nothing == "total":
        return (0, 0, sum(t), *hi)
    return (0, 0, *hi)


def describe(t: Throw, one_six: str = "straight_pair_total") -> Text:
    """The throw's name as the table says it."""
    hi = sorted(t, reverse=True)
    sixes = count_sixes(t)
    if sixes == 3:
        return Text("6+6+6, the red man")
    if sixes == 2:
        return Text("two sixes and a {die}", die=hi[2])
    if sixes == 1:
        a, b = hi[1], hi[2]
        if (a, b) == (5, 4):
            return Text("4+5+6")
        if a == b and one_six == "straight_pair_total":
            return Text("a six and a pair of {pair}s", pair=a)
        return Text("a six with {a}+{b}", a=a, b=b)
    if _is_straight(t):
        return Text("straight {a}-{b}-{c}", a=hi[2], b=hi[1], c=hi[0])
    if hi[0] == hi[2]:
        return Text("trio of {die}s", die=hi[0])
    pair = _pair(t)
    if pair is not None:
        return Text("pair of {pair}s, kicker {kicker}", pair=pair[0], kicker=pair[1])
    return Text("nothing ({dice})", dice=_show(t))


_SIX_WORDS = {0: Text("no six"), 1: Text("one six"), 2: Text("two sixes"), 3: Text("6+6+6")}
_CLASS_WORDS = {3: Text("a straight"), 2: Text("a trio"), 1: Text("a pair"), 0: Text("nothing")}


def compare(
    x: Throw, y: Throw, one_six: str = "straight_pair_total", nothing: str = "total"
) -> tuple[int, Text]:
    """+1 if x is stronger, -1 if y is, 0 if they rank identically; and why."""
    kx, ky = rank(x, one_six, nothing), rank(y, one_six, nothing)
    if kx == ky:
        return 0, Text("{a} and {b} rank the same: throw-off", a=_show(x), b=_show(y))
    sign = 1 if kx > ky else -1
    (hi, khi), (lo, klo) = ((x, kx), (y, ky)) if sign > 0 else ((y, ky), (x, kx))
    return sign, _why(hi, lo, khi, klo, one_six)


def _why(hi: Throw, lo: Throw, khi: tuple, klo: tuple, one_six: str) -> Text:
    if khi[0] != klo[0]:
        return Text("{hi} beats {lo}" if khi[0] == 1 else "{hi} beat {lo}",
                    hi=_SIX_WORDS[khi[0]], lo=_SIX_WORDS[klo[0]])
    name_hi, name_lo = describe(hi, one_six), describe(lo, one_six)
    if khi[0] == 2:
        return Text("two sixes: third die {hi} beats {lo}", hi=khi[1], lo=klo[1])
    if khi[0] == 1:
        if khi[1] == 2:
            return Text("4+5+6 beats every other six")
        if khi[1] != klo[1]:
            return Text("{hi} beats {lo}", hi=name_hi, lo=name_lo)
        if khi[1] == 1:
            return Text("a six and a pair: pair of {hi}s beats pair of {lo}s", hi=khi[2], lo=klo[2])
        if khi[2] != klo[2]:
            return Text("{hi} ({hi_total}) beats {lo} ({lo_total})",
                        hi=name_hi, hi_total=khi[2], lo=name_lo, lo_total=klo[2])
        return Text("{hi} beats {lo}: equal totals {total}, higher die {die}",
                    hi=name_hi, lo=name_lo, total=khi[2], die=khi[3])
    if khi[1] != klo[1]:
        return Text("{hi} beats {lo}", hi=_CLASS_WORDS[khi[1]], lo=_CLASS_WORDS[klo[1]])
    if khi[1] in (2, 3):  # straights, trios
        return Text("{hi} beats {lo}", hi=name_hi, lo=name_lo)
    if khi[1] == 1:
        if khi[2] != klo[2]:
            return Text("pair of {hi}s beats pair of {lo}s", hi=khi[2], lo=klo[2])
        return Text("pair of {pair}s, kicker {hi} beats kicker {lo}", pair=khi[2], hi=khi[3], lo=klo[3])
    if len(khi) == 6 and khi[2] != klo[2]:
        return Text("nothing: total {hi} beats {lo}", hi=khi[2], lo=klo[2])
    return Text("nothing: {hi} beats {lo} from the top", hi=_show(hi), lo=_show(lo))


# --- predictions -------------------------------------------------------------


def _one_six_rest(t: Throw) -> tuple[int, int] | None:
    rest = sorted((d for d in t if d != 6), reverse=True)
    return (rest[0], rest[1]) if len(rest) == 2 else None


PREDICTION_CLASSES: dict[str, Callable[[Throw], bool]] = {
    "red_man": lambda t: count_sixes(t) == 3,
    "two_sixes": lambda t: count_sixes(t) == 2,
    "one_six": lambda t: count_sixes(t) == 1,
    "six_and_pair": lambda t: (r := _one_six_rest(t)) is not None and r[0] == r[1],
    "six_no_pair": lambda t: (r := _one_six_rest(t)) is not None and r[0] != r[1],
    "four_five_six": lambda t: sorted(t) == [4, 5, 6],
    "no_six": lambda t: count_sixes(t) == 0,
    "straight": _is_straight,
    "trio": lambda t: t[0] == t[1] == t[2],
    "pair": lambda t: _pair(t) is not None,
    "nothing": lambda t: count_sixes(t) == 0 and rank(t)[1] == 0,
}
VALUE_CLASSES = ("pair", "trio")  # {"pair": n}: exactly two n; {"trio": n}: three n


def _known_predictions() -> str:
    return (
        ", ".join(f'"{k}"' for k in PREDICTION_CLASSES)
        + ', exact dice like [2, 3, 4], {"pair": n}, {"trio": n}'
    )


def check_prediction(p: Any) -> Prediction:
    """The prediction if the game knows it, else IllegalEvent listing the known ones."""
    if isinstance(p, str) and p in PREDICTION_CLASSES:
        return p
    if isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str):
        key, value = p
        if key in VALUE_CLASSES and isinstance(value, int) and 1 <= value <= 6:
            return p
    elif isinstance(p, tuple) and len(p) == 3 and all(
        isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6 for v in p
    ):
        return tuple(sorted(p))
    raise IllegalEvent(f"unknown prediction {_prediction_text(p)}; known: {_known_predictions()}")


def prediction_holds(p: Prediction, t: Throw) -> bool:
    if isinstance(p, str):
        return PREDICTION_CLASSES[p](t)
    if len(p) == 2 and isinstance(p[0], str):
        key, value = p
        if key == "trio":
            return t[0] == t[1] == t[2] == value
        pair = _pair(t)
        return pair is not None and pair[0] == value
    return sorted(t) == sorted(p)


def _prediction_text(p: Any) -> str:
    if isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str):
        return f"{{{p[0]!r}: {p[1]!r}}}"
    if isinstance(p, tuple):
        return "+".join(map(str, p))
    return repr(p)


def prediction_json(p: Prediction) -> Any:
    if isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str):
        return {p[0]: p[1]}
    if isinstance(p, tuple):
        return list(p)
    return p
