"""Appearance matching of a taught set: the same physical dice, seen before.

At teaching time every labelled die leaves an *exemplar*: a small grey crop
(TPL_PX square, uint8) of its top face, centred where the reader finds the
die and spanning WINDOW_SIDES of the die's side (the side being the image's
typical die side times the set's own size ratio, so that a camera moved up or
down changes nothing). At read time a die's crop is compared with every
exemplar of the profile turned by every ROT_STEP_DEG (no mirror images: a 6
is not a 9 seen from behind) and shifted by up to SHIFT_PX (the reader's
centre of a numeral die is a few pixels off), by normalised cross-correlation
(zero mean, unit norm, inside a disc).

Two stages keep it fast: a coarse one on principal components of all turned
exemplars at every second shift, and an exact one around the best coarse
shift of each class's best few exemplars. The answer is the class (set, kind,
value) with the best score, with the score of the best class of *another*
(kind, value): vision.kinds answers only when the first is clearly better.

Pure functions on arrays.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

TPL_PX = 24  # exemplar side in pixels
WINDOW_SIDES = 0.6  # the exemplar spans this many die sides (the face's middle)
ROT_STEP_DEG = 10
SHIFT_PX = 5  # largest shift searched, exemplar pixels (0.125 side)
COARSE_STEP = 2  # the coarse stage looks at every second shift
PCA_DIMS = 40
TOP_PER_CLASS = 3  # exemplars per class refined by the exact stage
BLUR_SIGMA = 0.7  # exemplar pixels, before normalising

_yy, _xx = np.mgrid[:TPL_PX, :TPL_PX]
DISC = (np.hypot(_xx - (TPL_PX - 1) / 2, _yy - (TPL_PX - 1) / 2) <= TPL_PX / 2).ravel()


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


def _normalise(rows: np.ndarray) -> np.ndarray:
    """Rows of TPL_PX**2 pixels -> zero mean, unit norm inside the disc."""
    v = rows[:, DISC].astype(np.float32)
    v -= v.mean(axis=1, keepdims=True)
    return v / (np.linalg.norm(v, axis=1, keepdims=True) + 1e-6)


def _blur(img: np.ndarray) -> np.ndarray:
    return cv2.GaussianBlur(img.astype(np.float32), (0, 0), BLUR_SIGMA)


@dataclass(frozen=True, eq=False)
class Bank:
    """Every exemplar at every turn, ready to compare."""

    rows: np.ndarray  # (N, D) float32, normalised
    cls: np.ndarray  # (N,) int32: class of the row (an index the caller defines)
    basis: np.ndarray  # (D, K) float32: principal directions
    proj: np.ndarray  # (N, K) float32: rows @ basis
    n_classes: int


def make_bank(exemplars: np.ndarray, cls: np.ndarray, n_classes: int) -> Bank:
    """`exemplars` (M, TPL_PX, TPL_PX) uint8 with their class; each turned by
    every ROT_STEP_DEG."""
    c = ((TPL_PX - 1) / 2, (TPL_PX - 1) / 2)
    rows, out_cls = [], []
    for e, k in zip(exemplars, cls, strict=True):
        b = _blur(e)
        for a in range(0, 360, ROT_STEP_DEG):
            M = cv2.getRotationMatrix2D(c, float(a), 1.0)
            rows.append(cv2.warpAffine(b, M, (TPL_PX, TPL_PX), flags=cv2.INTER_LINEAR,
                                       borderMode=cv2.BORDER_REPLICATE).ravel())
            out_cls.append(int(k))
    if not rows:
        d = int(DISC.sum())
        z = np.zeros((0, d), np.float32)
        return Bank(z, np.zeros(0, np.int32), np.zeros((d, 0), np.float32),
                    np.zeros((0, 0), np.float32), n_classes)
    r = _normalise(np.asarray(rows, np.float32))
    sub = r[:: max(1, len(r) // 4000)]
    _, _, vt = np.linalg.svd(sub - sub.mean(axis=0), full_matrices=False)
    basis = np.ascontiguousarray(vt[:PCA_DIMS].T)
    return Bank(r, np.asarray(out_cls, np.int32), basis, r @ basis, n_classes)


def _patches(big: np.ndarray, offsets) -> np.ndarray:
    s = SHIFT_PX
    return np.stack([big[s + dy : s + dy + TPL_PX, s + dx : s + dx + TPL_PX].ravel()
                     for dy, dx in offsets])


_OFFSETS = [(dy, dx) for dy in range(-SHIFT_PX, SHIFT_PX + 1) for dx in range(-SHIFT_PX, SHIFT_PX + 1)]
_COARSE = [i for i, (dy, dx) in enumerate(_OFFSETS)
           if (dy + SHIFT_PX) % COARSE_STEP == 1 and (dx + SHIFT_PX) % COARSE_STEP == 1]


def match(bank: Bank, grey_frame: np.ndarray, centre, side_px: float,
          rows: slice | None = None) -> np.ndarray:
    """The best score of every class (n_classes,) over the bank's `rows`
    (all by default); -1 where a class has none."""
    best = np.full(bank.n_classes, -1.0, np.float32)
    rows = rows or slice(0, len(bank.rows))
    cls = bank.cls[rows]
    if not len(cls):
        return best
    big = _blur(exemplar(grey_frame, centre, side_px, pad=SHIFT_PX))
    q = _normalise(_patches(big, _OFFSETS))  # every shift, (S, D)
    sc = (q[_COARSE] @ bank.basis) @ bank.proj[rows].T  # coarse: (shifts, rows)
    row_best = sc.max(axis=0)
    order = np.lexsort((-row_best, cls))  # by class, then best first
    cls_sorted = cls[order]
    starts = np.r_[0, np.nonzero(np.diff(cls_sorted))[0] + 1]
    rank = np.arange(len(order)) - np.repeat(starts, np.diff(np.r_[starts, len(order)]))
    cand = order[rank < TOP_PER_CLASS]
    # exact stage: the best few of each class at every shift
    exact = (bank.rows[rows][cand] @ q.T).max(axis=1)
    np.maximum.at(best, cls[cand], exact.astype(np.float32))
    return best
