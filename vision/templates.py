"""Appearance matching of a taught set: the same physical dice, seen before.

At teaching time every labelled die leaves an *exemplar*: a small grey crop
(TPL_PX square, uint8) of its top face, centred where the reader finds the
die and spanning WINDOW_SIDES of the die's side (the side being the image's
typical die side times the set's own size ratio, so that a camera moved up or
down changes nothing). At read time a die's crop is compared with every
exemplar turned by every ROT_STEP_DEG (no mirror images: a 6 is not a 9 seen
from behind) and shifted by up to SHIFT_PX (the reader's centre of a numeral
die is a few pixels off), by normalised cross-correlation (zero mean, unit
norm, inside a disc).

Two stages keep it fast (about 1 ms per die against a profile of four sets):

- coarse: the exemplars turned every COARSE_ROT_DEG, projected once (at load)
  on PCA_DIMS principal components, against the die's crop at a 3 x 3 grid of
  shifts COARSE_SHIFT_PX apart, also projected: one matrix product for all
  the dice of a frame;
- exact: for the TOP_CLASSES best classes, their TOP_PER_CLASS best
  exemplars at the coarse stage's best turn and the turns ROT_STEP_DEG either
  side, against the crop at every shift up to SHIFT_PX (full pixels).

A profile's sets are matched in one call (`match_parts`, each set against
crops sized for it), with the same products as set by set.

The answer is the class (set, kind, value) with the best score, with the
score of the best class of *another* (kind, value): vision.kinds answers only
when the first is clearly better. Classes the exact stage did not look at
score -1.

Pure functions on arrays.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

TPL_PX = 24  # exemplar side in pixels
WINDOW_SIDES = 0.6  # the exemplar spans this many die sides (the face's middle)
ROT_STEP_DEG = 10  # turns of the exact stage
COARSE_ROT = 3  # the coarse stage looks at every third turn (30 degrees)
SHIFT_PX = 5  # largest shift searched, exemplar pixels (0.125 side)
COARSE_SHIFT_PX = 2  # the coarse stage's shifts: -4, -2, 0, 2, 4 each way
EXACT_PX = 1  # the exact stage: shifts up to this from an exemplar's best coarse one
PCA_DIMS = 48
TOP_CLASSES = 4  # classes (of one set) the exact stage looks at
TOP_PER_CLASS = 2  # exemplars per class refined by the exact stage (5 and 3 before the
# thirtieth session: the same answers on every taught set measured, 2 of 306 images with a
# die's centre or a colour moved; the matching about 30 % faster; docs/teaching.md)
BLUR_SIGMA = 0.7  # exemplar pixels, before normalising
MIN_STD = 1.0  # grey levels: a crop's spread is taken as at least this (a flat crop scores ~0)
PCA_SAMPLE = 4000  # coarse rows the principal components are computed from, at most
ROWS_F32_MAX_MB = 16  # a bank's turned exemplars up to this size are kept in float32 (the
# same float16 values): turning float16 to float32 at every read cost more than the products

N_ROT = 360 // ROT_STEP_DEG
_C = (TPL_PX - 1) / 2
_yy, _xx = np.mgrid[:TPL_PX, :TPL_PX]
DISC = (np.hypot(_xx - _C, _yy - _C) <= TPL_PX / 2).ravel()
_N_SHIFT = 2 * SHIFT_PX + 1
# shift (dy, dx) is row (dy + SHIFT_PX) * _N_SHIFT + (dx + SHIFT_PX) of a crop's patches
_COARSE = np.array([(dy + SHIFT_PX) * _N_SHIFT + dx + SHIFT_PX
                    for dy in range(-SHIFT_PX + 1, SHIFT_PX, COARSE_SHIFT_PX)
                    for dx in range(-SHIFT_PX + 1, SHIFT_PX, COARSE_SHIFT_PX)])


def grey(frame_bgr: np.ndarray) -> np.ndarray:
    g = frame_bgr if frame_bgr.ndim == 2 else cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    return g


def exemplar(grey_frame: np.ndarray, centre, side_px: float, pad: int = 0) -> np.ndarray:
    """The (TPL_PX + 2 pad) square uint8 crop of a die, WINDOW_SIDES sides wide
    (without the pad)."""
    n = TPL_PX + 2 * pad
    k = TPL_PX / max(1.0, WINDOW_SIDES * side_px)
    M = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), 0.0, k)
    M[0, 2] += n / 2 - centre[0]
    M[1, 2] += n / 2 - centre[1]
    interp = cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR
    return cv2.warpAffine(grey_frame, M, (n, n), flags=interp, borderMode=cv2.BORDER_REPLICATE)


def _normalise(v: np.ndarray) -> np.ndarray:
    """Rows of disc pixels (any leading shape) -> zero mean, unit norm, float32."""
    v = v.astype(np.float32)
    v -= v.mean(axis=-1, keepdims=True)
    v /= np.linalg.norm(v, axis=-1, keepdims=True) + 1e-6
    return v


def _blur(img: np.ndarray) -> np.ndarray:
    return cv2.GaussianBlur(img.astype(np.float32), (0, 0), BLUR_SIGMA)


def _turn_ops() -> tuple[np.ndarray, np.ndarray]:
    """Bilinear turning as gathers: the disc pixels of an exemplar turned by
    i * ROT_STEP_DEG about its centre (as cv2.getRotationMatrix2D + warpAffine,
    edges replicated) are sum_k W[i, k] * pixels[IDX[i, k]] of the TPL_PX**2
    pixels; (N_ROT, 4, D) each."""
    xs, ys = _xx.ravel()[DISC] - _C, _yy.ravel()[DISC] - _C
    idx = np.empty((N_ROT, 4, len(xs)), np.intp)
    w = np.empty((N_ROT, 4, len(xs)), np.float32)
    for i in range(N_ROT):
        a = np.deg2rad(i * ROT_STEP_DEG)
        sx = np.clip(np.cos(a) * xs - np.sin(a) * ys + _C, 0, TPL_PX - 1)
        sy = np.clip(np.sin(a) * xs + np.cos(a) * ys + _C, 0, TPL_PX - 1)
        x0, y0 = np.floor(sx).astype(int), np.floor(sy).astype(int)
        x1, y1 = np.minimum(x0 + 1, TPL_PX - 1), np.minimum(y0 + 1, TPL_PX - 1)
        fx, fy = sx - x0, sy - y0
        idx[i] = (y0 * TPL_PX + x0, y0 * TPL_PX + x1, y1 * TPL_PX + x0, y1 * TPL_PX + x1)
        w[i] = ((1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy)
    return idx, w


_TURN_IDX, _TURN_W = _turn_ops()
_BIG = TPL_PX + 2 * SHIFT_PX
# the disc pixels of the crop shifted by (dy, dx), as indices into the padded crop
_SHIFT_IDX = np.array([(np.nonzero(DISC)[0] // TPL_PX + dy + SHIFT_PX) * _BIG
                       + np.nonzero(DISC)[0] % TPL_PX + dx + SHIFT_PX
                       for dy in range(-SHIFT_PX, SHIFT_PX + 1)
                       for dx in range(-SHIFT_PX, SHIFT_PX + 1)])


_SPREAD = np.arange(-1, 2)  # the exact stage's turns about the coarse one


def _window() -> np.ndarray:
    """(_N_SHIFT**2, (2 EXACT_PX + 1)**2): for each shift, the shifts up to
    EXACT_PX from it each way (those in range; repeated to fill)."""
    out = []
    for i in range(_N_SHIFT * _N_SHIFT):
        dy, dx = divmod(i, _N_SHIFT)
        near = [(y * _N_SHIFT + x) for y in range(dy - EXACT_PX, dy + EXACT_PX + 1)
                for x in range(dx - EXACT_PX, dx + EXACT_PX + 1)
                if 0 <= y < _N_SHIFT and 0 <= x < _N_SHIFT]
        out.append(near + [near[0]] * ((2 * EXACT_PX + 1) ** 2 - len(near)))
    return np.array(out)


_WINDOW = _window()
_DISC_AT = np.zeros((_BIG * _BIG, _N_SHIFT * _N_SHIFT), np.float32)  # the disc at every shift
_DISC_AT[_SHIFT_IDX.T, np.arange(_N_SHIFT * _N_SHIFT)] = 1.0


def _turned(pixels: np.ndarray) -> np.ndarray:
    """(M, TPL_PX**2) float32 -> (M, N_ROT, D) float16, normalised: each
    turned by every ROT_STEP_DEG (worked on transposed: whole rows gathered)."""
    pt = np.ascontiguousarray(pixels.T)  # (TPL_PX**2, M)
    d = int(DISC.sum())
    out = np.empty((len(pixels), N_ROT, d), np.float16)
    for i in range(N_ROT):
        t = pt[_TURN_IDX[i, 0]] * _TURN_W[i, 0][:, None]
        for k in range(1, 4):
            t += pt[_TURN_IDX[i, k]] * _TURN_W[i, k][:, None]  # (D, M)
        t -= t.sum(axis=0) / d
        t /= np.sqrt((t * t).sum(axis=0)) + 1e-6
        out[:, i] = t.T
    return out


@dataclass(frozen=True, eq=False)
class Bank:
    """Every exemplar at every turn, ready to compare. Exemplars are sorted by
    class (each class's exemplars are consecutive)."""

    rows: np.ndarray  # (M, N_ROT, D) normalised, the exact stage's: float16 (float32 when small)
    cls: np.ndarray  # (M,) int32: class of the exemplar (an index the caller defines)
    basis: np.ndarray  # (D, K) float32: principal directions
    proj: np.ndarray  # (M, N_ROT / COARSE_ROT, K) float32: coarse turns @ basis
    n_classes: int


def make_bank(exemplars: np.ndarray, cls: np.ndarray, n_classes: int) -> Bank:
    """`exemplars` (M, TPL_PX, TPL_PX) uint8 with their class, sorted by class;
    each turned by every ROT_STEP_DEG."""
    cls = np.asarray(cls, np.int32)
    if len(cls) > 1 and (np.diff(cls) < 0).any():
        raise ValueError("templates: exemplars must be sorted by class")
    d = int(DISC.sum())
    if not len(cls):
        return Bank(np.zeros((0, N_ROT, d), np.float16), cls, np.zeros((d, 0), np.float32),
                    np.zeros((0, N_ROT // COARSE_ROT, 0), np.float32), n_classes)
    rows = _turned(np.stack([_blur(e).ravel() for e in exemplars]))  # (M, N_ROT, D)
    coarse = rows[:, ::COARSE_ROT].reshape(-1, d).astype(np.float32)
    sub = coarse[:: max(1, len(coarse) // PCA_SAMPLE)]
    sub = sub - sub.mean(axis=0)
    _, vec = np.linalg.eigh(sub.T @ sub)  # principal directions, smallest first
    basis = vec[:, ::-1][:, :PCA_DIMS].astype(np.float32)
    basis -= basis.mean(axis=0)  # zero mean, as the rows (see _spread)
    proj = (coarse @ basis).reshape(len(cls), -1, basis.shape[1])
    if rows.size * 4 <= ROWS_F32_MAX_MB * 2**20:
        rows = rows.astype(np.float32)
    return Bank(rows, cls, np.ascontiguousarray(basis), proj, n_classes)


_BLUR_PAD = int(np.ceil(4 * BLUR_SIGMA))  # GaussianBlur's kernel radius for float images
# a crop's rows mirrored at its top and bottom as GaussianBlur's own border does (reflect 101)
_PADDED_ROWS = np.r_[_BLUR_PAD:0:-1, :_BIG, _BIG - 2 : _BIG - 2 - _BLUR_PAD : -1]


def _crops(grey_frame: np.ndarray, spots) -> np.ndarray:
    """(n, _BIG**2): the crop of each (centre, side_px) with SHIFT_PX to spare
    all round, blurred. All blurred at once, stacked: each crop's rows are
    mirrored above and below it as GaussianBlur mirrors an image's edge
    (its columns are the stack's, so the same as each crop's alone)."""
    raw = np.stack([exemplar(grey_frame, c, s, pad=SHIFT_PX) for c, s in spots])
    tall = raw[:, _PADDED_ROWS].astype(np.float32).reshape(-1, _BIG)
    out = cv2.GaussianBlur(tall, (0, 0), BLUR_SIGMA).reshape(len(raw), -1, _BIG)
    return out[:, _BLUR_PAD : _BLUR_PAD + _BIG].reshape(len(raw), -1)


def _spread(crops: np.ndarray) -> np.ndarray:
    """(n, _N_SHIFT**2): one over the spread (norm about their mean) of the
    crops' disc pixels at every shift. The rows compared with are zero mean,
    so pixels @ row * that is their correlation (no need to take the mean off).
    The spread is at least MIN_STD grey levels a pixel: a flat crop (bare
    tray) has none, and its sums' float32 rounding (s2 is ~3e7) made one over
    it a thousand, a flat crop's score noise times that (38 where 0.03 was
    right, as the products' shapes and the CPU's kernels round)."""
    d = int(DISC.sum())
    s1 = crops @ _DISC_AT
    s2 = (crops * crops) @ _DISC_AT
    return 1.0 / np.sqrt(np.maximum(s2 - s1 * s1 / d, d * MIN_STD * MIN_STD))


def match(bank: Bank, grey_frame: np.ndarray, centres, side_px: float,
          rows: slice | None = None) -> np.ndarray:
    """The best score of every class for each die centred at `centres`,
    (n, n_classes), over the bank's exemplars `rows` (all by default); -1 where
    the exact stage did not look at a class."""
    return match_parts(bank, grey_frame, centres, [(rows or slice(0, len(bank.cls)), side_px)])


def match_parts(bank: Bank, grey_frame: np.ndarray, centres, parts) -> np.ndarray:
    """`match` over several parts of the bank at once (a profile's sets), each
    (rows, side_px): its exemplars against the dice's crops sized for it; the
    best score of every class for each die, (n, n_classes). Scores are those
    of `match` part by part, to the last bit: each matrix product is the one
    `match` makes (a product's last bits depend on its shape); the rest (crops,
    candidates, the exact stage's bookkeeping) is done once for all parts."""
    centres = list(centres)
    n = len(centres)
    best = np.full((n, bank.n_classes), -1.0, np.float32)
    parts = [(rows, side) for rows, side in parts if len(bank.cls[rows])]
    if not parts or not n:
        return best
    crops = _crops(grey_frame, [(c, side) for _, side in parts for c in centres])  # part by part
    each = [slice(k * n, (k + 1) * n) for k in range(len(parts))]
    inv = np.concatenate([_spread(crops[k]) for k in each])  # (q, all shifts)
    # coarse: every exemplar at the coarse turns and shifts, in PCA space
    # (np.take: the same gather as crops[k][:, idx], dearer as a fancy index)
    qc = np.concatenate([(np.take(crops[k], _SHIFT_IDX[_COARSE], axis=1) @ bank.basis)
                         * inv[k, _COARSE, None] for k in each])  # (q, S, K)
    found = [_candidates(bank, rows, qc[k]) for k, (rows, _) in zip(each, parts, strict=True)]
    cand, turn, shift, classes = (np.concatenate([f[i] for f in found]) for i in range(4))
    looked = np.repeat([f[4] for f in found], n)  # classes looked at, per crop
    ex = _exact(bank, crops, inv, cand, turn, shift, looked * TOP_PER_CLASS)  # (q, c)
    ex = ex.reshape(len(crops), TOP_CLASSES, -1).max(axis=2)  # (q, TOP_CLASSES)
    ex = np.take_along_axis(ex, np.minimum(np.arange(TOP_CLASSES), looked[:, None] - 1), axis=1)
    np.maximum.at(best, (np.tile(np.arange(n), len(parts))[:, None], classes), ex)  # as set by set
    return best


def _candidates(bank: Bank, rows: slice, qc: np.ndarray):
    """The coarse stage of one part for n crops: the TOP_PER_CLASS best
    exemplars (rows of the bank, (n, c)) of its TOP_CLASSES best classes, each
    one's best coarse turn and shift; the classes (n, TOP_CLASSES) and how
    many of them there are (a part of fewer classes repeats its last)."""
    n = len(qc)
    cls = bank.cls[rows]
    m = len(cls)
    proj = bank.proj[rows]
    t = proj.shape[1]
    sc = (qc.reshape(-1, qc.shape[-1]) @ proj.reshape(m * t, -1).T).reshape(n, len(_COARSE), m, t)
    flat_best = sc.max(axis=1)  # (n, m, t)
    ex_turn = flat_best.argmax(axis=2)
    ex_best = np.take_along_axis(flat_best, ex_turn[..., None], axis=2)[..., 0]
    starts = np.concatenate([[0], np.flatnonzero(np.diff(cls)) + 1])
    ends = np.append(starts[1:], m)
    order = np.argsort(cls[None] * 4.0 - ex_best, axis=1)  # by class, best first
    pos = np.minimum(starts[:, None] + np.arange(TOP_PER_CLASS), ends[:, None] - 1)
    top_cls = np.argsort(-np.maximum.reduceat(ex_best, starts, axis=1), axis=1)[:, :TOP_CLASSES]
    looked = top_cls.shape[1]
    top_cls = top_cls[:, np.minimum(np.arange(TOP_CLASSES), looked - 1)]
    cand = np.take_along_axis(order, pos[top_cls].reshape(n, -1), axis=1)  # (n, c)
    ii = np.arange(n)[:, None]
    turn = ex_turn[ii, cand]
    shift = _COARSE[sc[ii, :, cand, turn].argmax(axis=2)]  # (n, c): each one's best coarse shift
    return cand + rows.start, turn, shift, cls[starts][top_cls], looked


def _exact(bank: Bank, crops: np.ndarray, inv: np.ndarray, cand, turn, shift, scored) -> np.ndarray:
    """The exact stage, (q, c): each crop's candidate exemplars (the first
    `scored` of its row; the rest are left 0) at their best coarse turn and
    either side, at the shifts up to EXACT_PX from their best coarse one,
    full pixels."""
    q, c = cand.shape
    turns = (turn[..., None] * COARSE_ROT + _SPREAD) % N_ROT  # (q, c, 3)
    flat = bank.rows.reshape(-1, bank.rows.shape[-1])  # (M N_ROT, D): one take, not a fancy index
    r = np.take(flat, (cand[..., None] * N_ROT + turns).ravel(), axis=0).astype(np.float32, copy=False)
    r = r.reshape(q, -1, r.shape[-1])  # (q, 3 c, D)
    near = _WINDOW[shift].reshape(q, -1)  # (q, c * W)
    # the shifts any candidate of a crop needs, once (ascending; padded with unneeded ones)
    qi = np.arange(q)[:, None]
    need = np.zeros((q, _N_SHIFT * _N_SHIFT), bool)
    need[qi, near] = True
    counts = need.sum(axis=1)
    used = np.argsort(~need, axis=1, kind="stable")[:, : int(counts.max())]  # (q, U)
    where = np.take_along_axis(np.cumsum(need, axis=1) - 1, near, axis=1)  # near's column in used
    prod = np.zeros((q, r.shape[1], used.shape[1]), np.float32)
    for i, (m, u) in enumerate(zip((len(_SPREAD) * scored).tolist(), counts.tolist(), strict=True)):
        # one product per crop, its candidates by its shifts: shaped as `match` made it
        prod[i, :m, :u] = r[i, :m] @ np.take(crops[i], _SHIFT_IDX[used[i, :u]]).T
    prod *= np.take_along_axis(inv, used, axis=1)[:, None]
    prod = prod.reshape(q, c, -1, prod.shape[-1])  # (q, c, 3, U)
    return np.take_along_axis(prod, where.reshape(q, c, 1, -1), axis=3).max(axis=(2, 3))
