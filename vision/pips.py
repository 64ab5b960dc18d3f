"""Count the pips of one die in a square crop, and check they form a d6 face.

Pips are blobs inside the die that differ from the body colour (dark on
light, light on dark, coloured pips alike). Pips on the side faces are seen
edge on (thin ellipses) or belong to a different face; the top face is the
group of similar, roundish pips whose centres fit a d6 layout. A count whose
layout does not fit is refused, never guessed.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import cv2
import numpy as np

from vision.params import Params

# Pip centres of each face on a 3x3 grid, in grid steps from the face centre.
LAYOUTS: dict[int, np.ndarray] = {
    1: np.array([[0, 0]], np.float32),
    2: np.array([[-1, -1], [1, 1]], np.float32),
    3: np.array([[-1, -1], [0, 0], [1, 1]], np.float32),
    4: np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32),
    5: np.array([[-1, -1], [1, -1], [-1, 1], [1, 1], [0, 0]], np.float32),
    6: np.array([[-1, -1], [-1, 0], [-1, 1], [1, -1], [1, 0], [1, 1]], np.float32),
}
MIN_ANISOTROPY = 0.45  # a face seen more obliquely than this is a side face
# grid step between neighbouring pips, as a fraction of the face side
MIN_STEP_FRAC = 0.14
MAX_STEP_FRAC = 0.45


@dataclass(frozen=True)
class Pip:
    center: tuple[float, float]  # crop pixels
    area: float
    axis_ratio: float  # minor / major axis of the fitted ellipse
    angle_deg: float


@dataclass(frozen=True)
class FaceRead:
    value: int | None
    confidence: float
    pips: tuple[Pip, ...]
    why: str = ""  # when value is None


def body_distance(crop_bgr: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Lab distance of every crop pixel from the die body's median colour."""
    lab = cv2.cvtColor(crop_bgr, cv2.COLOR_BGR2Lab).astype(np.float32)
    body = np.median(lab[mask > 0], axis=0)
    d = lab - body
    dist = np.sqrt(d[..., 0] ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)
    return dist, body


def find_pips(
    crop_bgr: np.ndarray, mask: np.ndarray, face_side_px: float, params: Params
) -> list[Pip]:
    """Pip candidates inside the die's mask of a crop."""
    if int(np.count_nonzero(mask)) < 16:
        return []
    dist, _ = body_distance(crop_bgr, mask)
    inside = dist[mask > 0]
    thr, _ = cv2.threshold(
        np.clip(inside, 0, 255).astype(np.uint8).reshape(-1, 1), 0, 255,
        cv2.THRESH_BINARY + cv2.THRESH_OTSU,
    )
    thr = max(float(thr), params.pip_contrast)
    cand = ((dist > thr) & (mask > 0)).astype(np.uint8) * 255
    face_area = face_side_px**2
    lo, hi = params.pip_min_area * face_area, params.pip_max_area * face_area
    contours, _ = cv2.findContours(cand, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    pips = []
    for c in contours:
        a = cv2.contourArea(c)
        if not lo <= a <= hi or len(c) < 5:
            continue
        per = cv2.arcLength(c, True)
        circ = 4 * np.pi * a / (per * per) if per > 0 else 0
        if circ < params.pip_min_circularity:
            continue
        (cx, cy), (ax1, ax2), ang = cv2.fitEllipse(c)
        major, minor = max(ax1, ax2), min(ax1, ax2)
        ratio = minor / major if major > 0 else 0
        if ratio < params.pip_min_axis_ratio:
            continue
        m = cv2.moments(c)
        if m["m00"] > 0:
            cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
        pips.append(Pip((float(cx), float(cy)), float(a), float(ratio), float(ang)))
    return pips


def _hat(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Permutations of n, the residual-maker I - H of an affine fit of the
    layout, and the layout's pseudo-inverse (to recover the transform)."""
    lay = LAYOUTS[n]
    a = np.hstack([lay, np.ones((n, 1), np.float32)]).astype(np.float64)
    pinv = np.linalg.pinv(a)
    perms = np.array(list(itertools.permutations(range(n))), np.intp)
    return perms, np.eye(n) - a @ pinv, pinv


_HATS = {n: _hat(n) for n in range(2, 7)}


def fit_layout(points: np.ndarray, n: int) -> tuple[float, float, float]:
    """Fit the d6 layout of `n` pips to `points` by an affine map (perspective
    makes squares parallelograms), trying every assignment of pips to layout
    places. Returns (RMS residual in grid steps, grid step px, anisotropy:
    short/long axis of the map)."""
    if n == 1:
        return 0.0, 0.0, 1.0
    pts = np.asarray(points, np.float64)
    if n == 2:
        step = float(np.linalg.norm(pts[1] - pts[0])) / (2 * np.sqrt(2))
        return 0.0, step, 1.0
    perms, resid_maker, pinv = _HATS[n]
    ordered = pts[perms]  # (P, n, 2): points in layout order, per permutation
    res = np.einsum("ij,pjk->pik", resid_maker, ordered)
    cost = (res**2).sum(axis=(1, 2))
    best = int(np.argmin(cost))
    sol = pinv @ ordered[best]  # (3, 2): rows x, y, 1 of the layout
    jac = sol[:2].T
    if n == 3:
        step = float(np.linalg.norm(ordered[best][2] - ordered[best][0])) / (2 * np.sqrt(2))
        aniso = 1.0
    else:
        sv = np.linalg.svd(jac, compute_uv=False)
        step = float(np.sqrt(abs(np.linalg.det(jac))))
        aniso = float(sv[1] / sv[0]) if sv[0] > 0 else 0.0
    rms = float(np.sqrt(cost[best] / n))
    return (rms / step if step > 0 else np.inf), step, aniso


def read_face(
    pips: list[Pip], face_side_px: float, face_centre: tuple[float, float], params: Params
) -> FaceRead:
    """The top face's value from pip candidates, or a refusal with a reason."""
    if not pips:
        return FaceRead(None, 0.0, (), "no pips")
    best: FaceRead | None = None
    for group in _groups(pips, face_side_px):
        fr = _judge(group, face_side_px, face_centre, params)
        if fr.value is not None and (best is None or best.value is None or _better(fr, best)):
            best = fr
        elif best is None:
            best = fr
    assert best is not None
    return best


def _better(a: FaceRead, b: FaceRead) -> bool:
    # more pips explained wins; then confidence
    return (len(a.pips), a.confidence) > (len(b.pips), b.confidence)


def _groups(pips: list[Pip], face_side_px: float) -> list[list[Pip]]:
    """All pips, then groups of similar pips around the largest ones."""
    out = [list(pips)]
    by_area = sorted(pips, key=lambda p: -p.area)
    for seed in by_area[:3]:
        g = [
            p
            for p in pips
            if 0.4 <= p.area / seed.area <= 2.5
            and abs(p.axis_ratio - seed.axis_ratio) < 0.3
            and np.hypot(p.center[0] - seed.center[0], p.center[1] - seed.center[1])
            < 0.95 * face_side_px
        ]
        if g and len(g) != len(pips) and g not in out:
            out.append(g)
    return out


def _judge(
    group: list[Pip], face_side_px: float, face_centre: tuple[float, float], params: Params
) -> FaceRead:
    n = len(group)
    if n > 6:
        return FaceRead(None, 0.0, tuple(group), f"{n} pips")
    pts = np.array([p.center for p in group], np.float32)
    areas = np.array([p.area for p in group])
    if n >= 2 and areas.max() > 3.0 * areas.min():
        return FaceRead(None, 0.0, tuple(group), "pip sizes differ")
    if n == 1:
        off = np.hypot(pts[0, 0] - face_centre[0], pts[0, 1] - face_centre[1]) / face_side_px
        if off > 0.3:
            return FaceRead(None, 0.0, tuple(group), "lone pip off centre")
        conf = 1.0 - off
        return FaceRead(1, float(conf), tuple(group))
    resid, step, aniso = fit_layout(pts, n)
    step_frac = step / face_side_px
    if aniso < MIN_ANISOTROPY:
        return FaceRead(None, 0.0, tuple(group), "layout squashed")
    if not MIN_STEP_FRAC <= step_frac <= MAX_STEP_FRAC:
        return FaceRead(None, 0.0, tuple(group), "pip spacing")
    if resid > params.pattern_max_residual:
        return FaceRead(None, 0.0, tuple(group), "layout")
    conf = 1.0 - 0.5 * resid / params.pattern_max_residual
    return FaceRead(n, float(conf), tuple(group))
