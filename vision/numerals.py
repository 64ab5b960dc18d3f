"""Numerals in fonts never taught: a die's face read by turning it upright.

The numeral network (`vision/models/numerals.onnx`, in 8 bits, trained by
scripts/train_numerals.py on faces drawn in over a thousand fonts by
calibration/numeral_synth.py; no torch at run time) answers, for a CROP_PX
grey crop around a die, the kind and value of an *upright* numeral (d6 1-6,
d8 1-8, d10 0-9, d10t 00-90) or `none`: a numeral on its side or upside
down, a pip face, a letter or logo, a bone, the felt. The kind is told by
the face's outline round the numeral (a d6's square, a d8's triangle, a
d10's kite) and a d10t by its two digits. A d6 is read by its pips; a d6
with numerals (no pips) is answered here where the network reads its
numeral on a d6's square at two sizes (`_d6_holds`, `_on_a_square`: a
decorative pip 1 in a swirl reads as a 5 at one size only): where the other
readers refused it, where the pip reader read its ink as one of D6_FAKES,
and where the face network answered its digit as a d8's or a d10's
(unsure: below CHECK_BELOW, as asking its sure answers too doubled the
crowded numeral scenes' time; however sure in a game of d6 without that
kind). In a game of d6, what the face network read as a d8 or d10 where the
d6 reader found no die is asked too (`d6_numerals`); it would be left out.

`read` turns a die's crop through ANGLES at each of SCALES (its side
estimate is rough) and answers the kind and value whose best crop is surest,
when

- it is at least MIN_P sure there,
- another crop (the neighbouring turn or another scale) reads it too, at
  AGREE_P (two reads agree, as everywhere in this reader), and
- no other value is read anywhere at RIVAL_P or more (a 6 read upright in
  one turn and a 9 in the opposite one: a d10 without the 6/9 mark, which
  the network cannot tell from a kite's apex, is refused).

Where the kind alone is in doubt (a 5 on a d8 or a d10), the game's kinds
decide (`kinds`); else the surer kind, if KIND_MARGIN surer.

`second_opinion` is the other way round: an untaught d8, d10 or d10t the
face network answered without much confidence (CHECK_BELOW) is refused when
this network reads another value upright in some turn (at CHECK_P, and
surer than the answered value): two readers that disagree answer nothing.
On unseen fonts most of the face network's wrong answers are such dice.

`reread` is the reader's hook (vision.reader): it looks at what the other
readers refused as not read (unknown object, low confidence, not read) and,
in a frame where nothing was answered, at objects much bigger than the
detector's dice (a die photographed close: vision.segment's blobs; these
`read_close` also reads on the average of many views, and what either read
answers stands unless they disagree; where neither answers, in a game with
d6, a d6's numeral alone on the average of views cut wider, CLOSE_D6_SCALES:
a d6 with numerals photographed close; and then a d8's or d10's numeral read
alike in two windows of wider views, CLOSE_WIDE_SCALES: a d10 photographed
from the side). A taught
read (a profile) uses `reread` too, answering only the kinds the taught set
has; `second_opinion` is for untaught reads only (the profile answers for
its set).

Pure functions on arrays; the weights are package data (vision/models/).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision import onnxnet, segment
from vision.onnxnet import Net, softmax
from vision.params import DEFAULT_PARAMS
from vision.types import NUMERAL_KINDS, Die, Rejection, square_outline

CROP_PX = 48
NONE = "none"
CLASSES: tuple[tuple[str, int], ...] = (
    (NONE, 0),
    *(("d6", v) for v in range(1, 7)),
    *(("d8", v) for v in range(1, 9)),
    *(("d10", v) for v in range(10)),
    *(("d10t", v) for v in range(0, 100, 10)),
)
KINDS = ("d6", "d8", "d10", "d10t")  # the network's
ANSWERED = NUMERAL_KINDS  # the kinds answered where no other reader answered ...
D6_FAKES = (1, 2)  # ... and a d6 the pip reader read as one of these values, unsure (below CHECK_BELOW):
# a numeral's ink looks like one pip or two (a 4's, a 5's); the network reads such a d6's numeral
D6_AGAIN = 1.3  # a d6's numeral is read again with the die's side this many times bigger (_d6_holds)
MIN_STD = 12.0  # grey levels: a flat crop is not stretched into noise
MODEL_NAME = "numerals.onnx"

ANGLES = tuple(range(0, 360, 30))  # the crop is turned through these (degrees)
SCALES = (1.3, 1.8)  # crop sides, in the die's estimated sides
MIN_P = 0.9
AGREE_P = 0.6
RIVAL_P = 0.5
KIND_MARGIN = 0.2
SECOND_LOOK_P = 0.3  # a place is cut at its other scales when a numeral shows this much in the first
NO_NUMERAL = "no numeral shows"  # `read_close`: at no turn does a numeral show at SECOND_LOOK_P
WHY_LOOKED_AT = ("unknown object", "low confidence", "not read")  # refusals read again
BIG_SEG_PX = 320  # a frame is segmented this big to find dice photographed close
BIG_MIN_AREA = 0.01  # a blob of at least this share of the frame ...
BIG_SIDES = 1.6  # ... this many of the detector's die sides wide is one die seen close
BIG_PIECES = 0.6  # its pieces lie this many sides from its middle (its side: of a square as big; a kite's reach further)
BIG_SCALES = (0.9, 1.25)  # its crops, in the blob's sides (the square root of its area)
CLOSE_SCALES = (0.8, 0.9, 1.0, 1.1)  # its views for `read_close`, in the blob's sides, ...
CLOSE_D6_SCALES = (1.25, 1.4, 1.6, 1.8)  # ... and for a d6 with numerals (its square's blob is about
# the face's side, where a kite's is smaller than its reach: the network sees a d6's numeral
# with its square round it, as `SCALES` cut it)
CLOSE_WIDE_SCALES = ((0.9, 1.0, 1.1, 1.25), (1.1, 1.25, 1.4, 1.6))  # ... and, where neither answers, a
# d8's or d10's numeral in each of these windows, answered where both agree (a d10 photographed
# from the side: its blob reaches beyond the face the numeral is on, which the network reads
# with its kite round it)
BIG_SHIFT = 0.08  # ... each also cut this many sides off its centre each way (9 places): `read_close`
BIG_MEAN_P = 0.6  # a close die's numeral: read this sure on average over its views at one turn (> 0.5), ...
BIG_RIVAL_P = 0.3  # ... no other value read this sure on average at any turn
CHECK_BELOW = 0.93  # an untaught numeral answered less sure than this is read again here ...
CHECK_P = 0.5  # ... and refused when another value reads upright at this P, above its own value


@dataclass(frozen=True)
class NumeralRead:
    kind: str
    value: int
    p: float  # of the best crop
    angle: float  # the turn that set the numeral upright, degrees (counter-clockwise)


def normalise(crops: np.ndarray) -> np.ndarray:
    """(N, CROP_PX, CROP_PX) uint8 grey -> (N, 1, CROP_PX, CROP_PX) float32,
    each crop to zero mean and unit spread (ink of any colour on any body)."""
    x = crops.astype(np.float32)
    mean = x.mean(axis=(1, 2), keepdims=True)
    std = np.maximum(x.std(axis=(1, 2), keepdims=True), MIN_STD)
    return ((x - mean) / std)[:, None]


@lru_cache(maxsize=2)
def load_net(onnx_bytes: bytes | None = None) -> Net | None:
    """The numeral network from package data (or the given bytes); None when
    its weights are not installed, or cannot be loaded here (`load_error`
    says why): the other readers read as before, without it."""
    return onnxnet.load_shipped(MODEL_NAME, lambda b: Net(b), onnx_bytes,
                                "numerals in fonts never taught are not read")


def load_error() -> str:
    """Why the installed numeral network could not be loaded ('' when it could,
    or was not asked for yet)."""
    return onnxnet.load_error(MODEL_NAME) if load_net() is None else ""


def _around(img: np.ndarray, centre: tuple[float, float], r: int) -> tuple[np.ndarray, int, int]:
    """The part of `img` within `r` pixels of `centre` (cut by its edges), and
    where that part's corner lies in `img` (x0, y0)."""
    x0, y0 = max(0, int(centre[0]) - r), max(0, int(centre[1]) - r)
    return img[y0:int(centre[1]) + r + 1, x0:int(centre[0]) + r + 1], x0, y0


def crops(grey: np.ndarray, centre: tuple[float, float], side_px: float,
          angles: Sequence[float] = ANGLES, scales: Sequence[float] = SCALES) -> np.ndarray:
    """(len(scales) * len(angles), CROP_PX, CROP_PX) uint8: the die turned by
    each angle at each scale (scale-major)."""
    out = np.empty((len(scales) * len(angles), CROP_PX, CROP_PX), np.uint8)
    cx, cy = float(centre[0]), float(centre[1])
    for i, s in enumerate(scales):
        k = CROP_PX / max(1.0, s * side_px)
        src, sx, sy, kk = grey, cx, cy, k
        if k < 0.5:  # shrink the neighbourhood first, against aliasing
            f = int(1 / k)
            sub, x0, y0 = _around(grey, (cx, cy), int(s * side_px * 0.75) + f)
            src = cv2.resize(sub, (max(1, sub.shape[1] // f), max(1, sub.shape[0] // f)),
                             interpolation=cv2.INTER_AREA)
            sx, sy, kk = (cx - x0) / f, (cy - y0) / f, k * f
        for j, a in enumerate(angles):
            m = cv2.getRotationMatrix2D((sx, sy), float(a), kk)
            m[0, 2] += CROP_PX / 2 - sx
            m[1, 2] += CROP_PX / 2 - sy
            out[i * len(angles) + j] = cv2.warpAffine(src, m, (CROP_PX, CROP_PX), flags=cv2.INTER_LINEAR,
                                                      borderMode=cv2.BORDER_REPLICATE)
    return out


def probabilities(net: Net, batch: np.ndarray) -> np.ndarray:
    """Class probabilities (N, len(CLASSES)) of N crops, one forward pass."""
    if len(batch) == 0:
        return np.zeros((0, len(CLASSES)), np.float32)
    return softmax(net.run(normalise(batch))[0])


def _allowed(kinds: Collection[str] | None) -> np.ndarray:
    """Which of CLASSES may be answered: a numeral of the given kinds (of any kind: None)."""
    return np.array([k != NONE and (kinds is None or k in kinds) for k, _ in CLASSES])


def decide(probs: np.ndarray, kinds: Collection[str] | None = None,
           angles: Sequence[float] = ANGLES, n_scales: int = len(SCALES)) -> NumeralRead | str:
    """A numeral from the probabilities of one die's crops (scale-major, as
    `crops` cuts them), or why not."""
    allowed = _allowed(kinds)
    if not allowed.any():
        return "not read"
    probs = _folded(probs, allowed)
    p = np.where(allowed[None, :], probs, 0.0)
    best_crop = p.argmax(axis=0)  # per class
    best_p = p.max(axis=0)
    c = int(best_p.argmax())
    kind, value = CLASSES[c]
    top = float(best_p[c])
    if top < MIN_P:
        return "low confidence"
    j = int(best_crop[c])
    na = len(angles)
    s, a = divmod(j, na)
    near = [s * na + (a + d) % na for d in (-1, 1)] + [t * na + a for t in range(n_scales) if t != s]
    if max(float(probs[k, c]) for k in near) < AGREE_P:
        return "low confidence"
    for c2 in range(len(CLASSES)):
        if not allowed[c2] or c2 == c:
            continue
        k2, v2 = CLASSES[c2]
        if v2 != value and best_p[c2] >= RIVAL_P:
            return "low confidence"  # another value reads too (a 6 and a 9)
        if v2 == value and k2 != kind and best_p[c2] > top - KIND_MARGIN:
            return "low confidence"  # the kind is in doubt
    return NumeralRead(kind, int(value), top, float(angles[a]))


Place = tuple[tuple[float, float], float, Sequence[float]]  # centre, side, scales


def _folded(probs: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    """A value read on a d8 or a d10 counts for the other when the game
    throws only the other (a 5 read as a d8's, in a game of d10: the d10's 5;
    a kite seen at a slant looks like a triangle). Not for a d6: a numeral on
    a square is no d8's."""
    if allowed.all() or not allowed.any():
        return probs
    out = probs.copy()
    for v in range(10):
        idx = [i for i, (k, vv) in enumerate(CLASSES) if k in ("d8", "d10") and vv == v]
        keep = [i for i in idx if allowed[i]]
        if len(keep) == 1:
            out[:, keep[0]] = probs[:, idx].sum(axis=1)
    return out


def read(net: Net, grey: np.ndarray, places: Sequence[Place],
         kinds: Collection[str] | None = None) -> list[NumeralRead | str]:
    """Each (centre, side, scales) of `places` read: a numeral, or why not.

    Every place is looked at in its first scale first (one forward pass for
    all); only where a numeral shows there at SECOND_LOOK_P or more are its
    other scales cut (another forward): most refusals are no numeral die."""
    if not places:
        return []
    na = len(ANGLES)
    first = probabilities(net, np.concatenate([crops(grey, c, s, ANGLES, sc[:1]) for c, s, sc in places]))
    more = [i for i, (_, _, sc) in enumerate(places)
            if len(sc) > 1 and first[i * na:(i + 1) * na, 1:].max() >= SECOND_LOOK_P]
    rest = probabilities(net, np.concatenate([crops(grey, places[i][0], places[i][1], ANGLES, places[i][2][1:])
                                              for i in more])) if more else first[:0]
    out, k = [], 0
    for i, (_, _, sc) in enumerate(places):
        p = np.zeros((len(sc) * na, len(CLASSES)), np.float32)
        p[:, 0] = 1.0  # scales not looked at: no numeral there
        p[:na] = first[i * na:(i + 1) * na]
        if i in more:
            n = (len(sc) - 1) * na
            p[na:] = rest[k:k + n]
            k += n
        out.append(decide(p, kinds, ANGLES, len(sc)))
    return out


def read_close(net: Net, grey: np.ndarray, centre: tuple[float, float], side: float,
               kinds: Collection[str] | None = None,
               scales: Sequence[float] = CLOSE_SCALES) -> NumeralRead | str:
    """A die photographed close (a `big_objects` blob), read on the average of
    many views. A blob's centre and side place its face only roughly (a die
    seen from the side shows more than its top), so no single crop fits it
    well: one view sure of the numeral (`decide`) is seldom, many views each
    fairly sure of it are the evidence.

    Its centre is cut at `scales` of its side at each of ANGLES; the turn
    whose mean over those scales reads a numeral best (at SECOND_LOOK_P at
    least) is also cut BIG_SHIFT sides off the centre each way (8 places).
    The numeral whose mean over all those views at that turn is highest is
    answered when it is BIG_MEAN_P or more (above half: surer than `none` and
    than the same value's other kind) and no other value's mean reaches
    BIG_RIVAL_P, at that turn or at any turn at the centre."""
    allowed = _allowed(kinds)
    if not allowed.any():
        return "not read"
    ns = len(scales)
    turns = _folded(probabilities(net, crops(grey, centre, side, ANGLES, scales)), allowed)
    turns = turns.reshape(ns, len(ANGLES), len(CLASSES)).mean(axis=0)  # turn x class
    at_turn = np.where(allowed[None, :], turns, 0.0)
    a = int(at_turn.max(axis=1).argmax())
    if at_turn[a].max() < SECOND_LOOK_P:
        return NO_NUMERAL
    d = BIG_SHIFT * side
    off = [(centre[0] + dx, centre[1] + dy) for dx in (-d, 0.0, d) for dy in (-d, 0.0, d) if dx or dy]
    shifted = _folded(probabilities(net, np.concatenate([crops(grey, c, side, (ANGLES[a],), scales)
                                                         for c in off])), allowed)
    mean = (turns[a] * ns + shifted.sum(axis=0)) / (ns * (1 + len(off)))
    p = np.where(allowed, mean, 0.0)
    c = int(p.argmax())
    kind, value = CLASSES[c]
    top = float(p[c])
    rivals = [i for i, (_, v) in enumerate(CLASSES) if allowed[i] and v != value]
    if top < BIG_MEAN_P or max(p[rivals].max(initial=0.0), at_turn[:, rivals].max(initial=0.0)) >= BIG_RIVAL_P:
        return "low confidence"
    return NumeralRead(kind, int(value), top, float(ANGLES[a]))


def _close(net: Net, grey: np.ndarray, centre: tuple[float, float], side: float,
           kinds: Collection[str], rd: NumeralRead | str,
           frame: np.ndarray | None = None) -> NumeralRead | str:
    """A die photographed close: its one-view read `rd` and its many-view
    read (`_either`); where neither answers, in a game with d6, the many-view
    read of a d6's numeral alone, cut at CLOSE_D6_SCALES (a d6 with numerals
    photographed close is otherwise not answered at all, nor refused: the
    detector finds no die in it); where that does not answer either, the
    game's d8/d10/d10t numeral read in each window of CLOSE_WIDE_SCALES,
    answered where every window reads the same numeral (a d10 photographed
    from the side: the views CLOSE_SCALES cut are too tight round its face;
    two windows that agree, as everywhere in this reader: one window alone
    read numeral d6 as d8s); where none of those answers, the many-view read
    again on each pixel's brightest colour channel of `frame` (coloured ink
    on a dark body: grey weighs blue least, so blue numerals on a black die
    barely show in it). Not answered: NO_NUMERAL where no numeral shows in
    any of those reads, else low confidence."""
    out = _either(rd, read_close(net, grey, centre, side, kinds))
    if isinstance(out, NumeralRead):
        return out
    why = [out]
    if "d6" in kinds:
        d6 = read_close(net, grey, centre, side, ("d6",), CLOSE_D6_SCALES)
        if isinstance(d6, NumeralRead):
            return d6
        why.append(d6)
    others = [k for k in kinds if k != "d6"]
    if others:
        wide = [read_close(net, grey, centre, side, others, sc) for sc in CLOSE_WIDE_SCALES]
        got = {(r.kind, r.value) if isinstance(r, NumeralRead) else None for r in wide}
        if len(got) == 1 and None not in got:
            return wide[0]
        why += [r for r in wide if isinstance(r, str)]
        if frame is not None and frame.ndim == 3:
            near, x0, y0 = _around(frame, centre, int(side) + 1)  # past CLOSE_SCALES' views, shifted BIG_SHIFT
            lit = read_close(net, near.max(axis=2), (centre[0] - x0, centre[1] - y0), side, kinds)
            if isinstance(lit, NumeralRead):
                return lit
            why.append(lit)
    return NO_NUMERAL if all(w == NO_NUMERAL for w in why) else "low confidence"


def _either(one: NumeralRead | str, other: NumeralRead | str) -> NumeralRead | str:
    """A close die's numeral from its two reads (one sure view, `read`; many
    views on average, `read_close`): what either answers, unless they answer
    different numerals."""
    if isinstance(one, NumeralRead) and isinstance(other, NumeralRead):
        return one if (one.kind, one.value) == (other.kind, other.value) else "low confidence"
    return one if isinstance(one, NumeralRead) else other


def big_objects(frame: np.ndarray, min_side_px: float) -> list[tuple[tuple[float, float], float]]:
    """(centre, side) of the things on the tray at least `min_side_px` wide
    (side: the square root of the area), not cut by the frame's edge: the
    dice of a photo taken close, which the detector finds only in pieces."""
    h, w = frame.shape[:2]
    s = min(1.0, BIG_SEG_PX / max(h, w))
    small = cv2.resize(frame, None, fx=s, fy=s, interpolation=cv2.INTER_AREA) if s < 1 else frame
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2Lab)
    bg = segment.estimate_background(lab, small, DEFAULT_PARAMS)
    mask = segment.foreground_mask(lab, bg, DEFAULT_PARAMS) | segment.edge_mask(lab, DEFAULT_PARAMS)
    mask = segment.clean_mask(mask, max(1, round(0.01 * max(small.shape[:2]))))
    out = []
    for b in segment.find_blobs(mask, DEFAULT_PARAMS):
        x, y, bw, bh = cv2.boundingRect(b.contour)
        side = float(np.sqrt(b.area_px)) / s
        if (b.area_px < BIG_MIN_AREA * mask.size or side < min_side_px
                or x <= 0 or y <= 0 or x + bw >= mask.shape[1] or y + bh >= mask.shape[0]):
            continue
        m = cv2.moments(b.contour)
        out.append(((m["m10"] / m["m00"] / s, m["m01"] / m["m00"] / s), side))
    return out


def _side(r: Rejection | Die, fallback: float) -> float:
    """A refusal's or an answer's side: the square root of its outline's area."""
    if len(r.outline) >= 3:
        return float(np.sqrt(max(1.0, cv2.contourArea(np.asarray(r.outline, np.float32)))))
    return fallback


def _grey_and_side(frame: np.ndarray, die_side: float | None) -> tuple[np.ndarray, float]:
    """The frame in grey, and the side of a die where an outline gives none."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    return grey, die_side or 0.06 * max(frame.shape[:2])


def _digit(kind: str, value: int) -> int:
    """The numeral's digit, whatever kind it is read as (a d10t's 30 and a d10's 3 are one 3)."""
    return value // 10 if kind == "d10t" else value


def _answerable(game_kinds: Collection[str] | None) -> list[str]:
    """The kinds this network answers in a game of `game_kinds` (None: any):
    ANSWERED, and a d6 with numerals where it holds (`_d6_holds`)."""
    return [k for k in (*ANSWERED, "d6") if game_kinds is None or k in game_kinds]


def _d6_holds(net: Net, grey: np.ndarray, centre: tuple[float, float], side: float,
              kinds: Collection[str], rd: NumeralRead) -> bool:
    """Whether a d6's numeral read on a die is read again with the die's side
    taken D6_AGAIN times bigger (a d6 is no numeral kind the face network
    answers: its reads must agree at two sizes; a pip 1 in a swirl reads as a
    5 at one size only, a d8's face seen close as a square)."""
    again = decide(probabilities(net, crops(grey, centre, side * D6_AGAIN, ANGLES, SCALES)), kinds)
    return isinstance(again, NumeralRead) and (again.kind, again.value) == (rd.kind, rd.value)


def _on_a_square(net: Net, grey: np.ndarray, d: Die, side: float, row: np.ndarray) -> bool:
    """Whether a numeral the face network answered as a d8's or a d10's is a
    d6's: its digit read on a d6's square (at CHECK_P, surer than as any other
    kind) in some turn of `row` (per class, its best turn), and again with
    the die's side D6_AGAIN times bigger (a d8's face seen close fills the
    crop: no outline, a square at one size)."""
    if not 1 <= _digit(d.kind, int(d.value)) <= 6:
        return False
    sq = CLASSES.index(("d6", _digit(d.kind, int(d.value))))
    kin = [c for c, (k, v) in enumerate(CLASSES) if k not in (NONE, "d6") and _digit(k, v) == CLASSES[sq][1]]
    if row[sq] < CHECK_P or row[sq] <= row[kin].max():
        return False
    again = probabilities(net, crops(grey, d.center, side * D6_AGAIN, ANGLES, SCALES[:1])).max(axis=0)
    return bool(again[sq] >= CHECK_P and again[sq] > again[kin].max())


def d6_numerals(frame: np.ndarray, read_as: Sequence[Die], die_side: float | None = None,
                game_kinds: Collection[str] | None = None) -> list[Die]:
    """Of the things the face network read as a d8, d10 or d10t in a game of
    d6 (`read_as`: its answers, refused as `kinds.OTHER_GAME`; else left out:
    a board's number token), the d6 with numerals, as `second_opinion` finds
    them among its answers however sure (a numeral d6 the face network takes
    for a d10 is otherwise missing from a d6 game's count)."""
    dice, _ = second_opinion(frame, list(read_as), die_side, game_kinds)
    return [d for d in dice if d.kind == "d6"]


def second_opinion(frame: np.ndarray, dice: list[Die], die_side: float | None = None,
                   game_kinds: Collection[str] | None = None) -> tuple[list[Die], list[Rejection]]:
    """The answers this network does not contradict, and refusals for those it
    does: an untaught numeral die answered less sure than CHECK_BELOW whose
    crops (turned every way, at the first scale) read another value upright
    at CHECK_P or more, and surer than the answered value.

    A d6 with numerals: where this network reads a d6's numeral (`decide`,
    at one scale) on such a die, or on a d6 the pip reader answered as one of
    D6_FAKES less sure than CHECK_BELOW, that is the answer (the face's square
    says d6, whatever kind the face network gave it), when it holds at a
    second size (`_d6_holds`); where it reads the answered numeral's digit on
    a d6's square at both sizes (`_on_a_square`), the die is that d6. Only in
    a game with d6 (`game_kinds`); in a game of d6 and not the answer's kind,
    a d8/d10/d10t answer is asked however sure (it cannot be right as it is;
    and `d6_numerals` hands this the face network's answers on things it
    refused as of another game)."""
    net = load_net()
    kinds = _answerable(game_kinds)
    d6 = "d6" in kinds
    # in a game of d6, a d8/d10/d10t the game does not throw is asked however sure
    ask = [i for i, d in enumerate(dice) if isinstance(d.value, int)
           and ((d.kind in ANSWERED and (d.confidence < CHECK_BELOW or (d6 and d.kind not in kinds)))
                or (d6 and d.kind == "d6" and d.value in D6_FAKES and d.confidence < CHECK_BELOW))]
    if net is None or not ask:
        return list(dice), []
    grey, fallback = _grey_and_side(frame, die_side)
    probs = probabilities(net, np.concatenate([crops(grey, dice[i].center, _side(dice[i], fallback), ANGLES, SCALES[:1])
                                               for i in ask])).reshape(len(ask), len(ANGLES), len(CLASSES))
    out = list(dice)
    refused: dict[int, Rejection] = {}
    for p, i in zip(probs, ask, strict=True):
        d = dice[i]
        rd = decide(p, kinds, ANGLES, 1) if d6 else None
        if isinstance(rd, NumeralRead) and rd.kind == "d6" and _d6_holds(net, grey, d.center, _side(d, fallback), kinds, rd):
            if (d.kind, d.value) != ("d6", rd.value):
                out[i] = Die("d6", rd.value, d.colour, d.center, rd.p, d.outline)
            continue
        if d.kind == "d6":
            continue  # a pip answer stands unless a numeral is read
        row = p.max(axis=0)  # per class, its best turn
        same = [c for c, (k, v) in enumerate(CLASSES) if k != NONE and _digit(k, v) == _digit(d.kind, int(d.value))]
        other = [c for c, (k, v) in enumerate(CLASSES) if k != NONE and c not in same]
        c = max(other, key=lambda c: row[c])
        if row[c] >= CHECK_P and row[c] > row[same].max():
            k, v = CLASSES[c]
            refused[i] = Rejection(d.center, "low confidence", d.outline,
                                   detail=f"read {d.kind} {d.value} at {d.confidence:.2f}; "
                                          f"the numeral network reads {k} {v} at {row[c]:.2f}")
        elif d6 and _on_a_square(net, grey, d, _side(d, fallback), row):
            out[i] = Die("d6", int(d.value), d.colour, d.center, d.confidence, d.outline)
    return [d for i, d in enumerate(out) if i not in refused], list(refused.values())


def reread(frame: np.ndarray, dice: list[Die], rejected: list[Rejection],
           game_kinds: Collection[str] | None = None,
           die_side: float | None = None) -> tuple[list[Die], list[Rejection]]:
    """The answers, with numerals read where the other readers refused a die
    as not read, and, in a frame where nothing was answered, on things much
    bigger than the detector's dice (a die photographed close, found in
    pieces: the pieces' refusals go). In a frame whose answers are all d6 of
    D6_FAKES, on such things round them, BIG_SIDES of their side at least (a
    close numeral's ink the pip reader answered as a 1 or 2): where the
    thing's numeral is read, the answers inside it go."""
    net = load_net()
    kinds = _answerable(game_kinds)
    ask = [r for r in rejected if r.why in WHY_LOOKED_AT]
    inked = bool(dice) and all(d.kind == "d6" and d.value in D6_FAKES for d in dice)
    if net is None or not kinds or (dice and not ask and not inked):
        return list(dice), list(rejected)
    grey, fallback = _grey_and_side(frame, die_side)
    places: list[Place] = [(r.center, _side(r, fallback), SCALES) for r in ask]
    big = big_objects(frame, BIG_SIDES * fallback) if not dice or inked else []
    if dice:  # a close die's numeral ink the pip reader answered as pips: its blob is read
        big = [(c, s) for c, s in big
               if any(math.dist(d.center, c) < s / 2 and BIG_SIDES * _side(d, fallback) <= s for d in dice)]
    if not places and not big:
        return list(dice), list(rejected)
    places += [(c, s, BIG_SCALES) for c, s in big]
    reads = read(net, grey, places, kinds)
    reads = [rd if not (isinstance(rd, NumeralRead) and rd.kind == "d6")
             or _d6_holds(net, grey, c, s, kinds, rd) else "low confidence"
             for rd, (c, s, _) in zip(reads, places, strict=True)]
    reads[len(ask):] = [_close(net, grey, c, s, kinds, rd, frame)
                        for rd, (c, s) in zip(reads[len(ask):], big, strict=True)]
    kept, new = list(dice), []
    gone: set[int] = set()  # refusals answered, or inside a big die answered
    for (c, s, _), rd in zip(places[len(ask):], reads[len(ask):], strict=True):
        if isinstance(rd, NumeralRead):
            kept = [d for d in kept if math.dist(d.center, c) >= s / 2]  # its ink, answered as pips
            new.append(Die(rd.kind, rd.value, None, c, rd.p, square_outline(c, s)))
            gone |= {i for i, r in enumerate(ask) if math.dist(r.center, c) < s / 2}
    for i, (r, rd) in enumerate(zip(ask, reads[:len(ask)], strict=True)):
        if i not in gone and isinstance(rd, NumeralRead):
            new.append(Die(rd.kind, rd.value, None, r.center, rd.p, r.outline))
            gone.add(i)
    left = [r for r in rejected if not any(r is ask[i] for i in gone)]
    # a blob round pip answers that is not read stays theirs: no refusal of it as one die
    return kept + new, _one_refusal_per_big_die(big, reads[len(ask):], kept + new, left, max(frame.shape[:2]))


def _one_refusal_per_big_die(big: list[tuple[tuple[float, float], float]], reads: list,
                             answered: list[Die], rejected: list[Rejection],
                             frame_side: float) -> list[Rejection]:
    """The refusals, with a die photographed close (a `big_objects` blob)
    counted once, as the station counts dice (a blob wider than
    `close_die_frame` of the frame's long side is not one die): none inside one answered
    (its pieces the other readers refused: out of focus, say; not a die
    found leaning), one for one not answered refused in pieces (at its
    middle, for the reason of the piece nearest it), and one for one nothing
    else saw where a numeral shows (`_close`: not NO_NUMERAL), low
    confidence: a die the station sees and cannot read is said, not left
    out (a blob where no numeral shows either may be an empty tray small in
    the photo: not refused)."""
    out = list(rejected)
    for (c, s), rd in zip(big, reads, strict=True):
        if s > DEFAULT_PARAMS.close_die_frame * frame_side:
            continue  # a tray or a cloth, not one die
        inside = [r for r in out if math.dist(r.center, c) < BIG_PIECES * s]
        if isinstance(rd, NumeralRead):
            out = [r for r in out if all(r is not q for q in inside) or r.leans]
            continue
        if any(math.dist(d.center, c) < s / 2 for d in answered):
            continue
        if not inside and rd != NO_NUMERAL:  # nothing else saw it, and a numeral shows on it
            out.append(Rejection(c, "low confidence", square_outline(c, s),
                                 f"a die photographed close, {s:.0f} px wide: a numeral shows, not read surely"))
            continue
        if any(r.leans for r in inside) or len(inside) < 2:
            continue  # (a blob nothing else saw and no numeral shows on may be an empty tray small in the photo)
        why = min(inside, key=lambda r: math.dist(r.center, c)).why
        detail = f"a die photographed close, {s:.0f} px wide: {len(inside)} pieces refused; read {rd}"
        out = [r for r in out if all(r is not q for q in inside)] + [Rejection(c, why, square_outline(c, s), detail)]
    return out
