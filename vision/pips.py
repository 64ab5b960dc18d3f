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
    angle_deg: float  # of the long axis, 0-180, crop pixels


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


def refine_mask(
    crop_bgr: np.ndarray, mask: np.ndarray, tray_lab: tuple[float, float, float], params: Params
) -> np.ndarray:
    """The die's own region in its crop: pixels nearer the body colour than
    the tray's, grown from the segmentation's mask, holes (pips) filled, made
    convex (a die's face is). Falls back to `mask` when that fails."""
    c = crop_bgr.shape[0]
    e = max(1, round(c * params.inner_erode_frac))
    inner = cv2.erode(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * e + 1, 2 * e + 1)))
    if np.count_nonzero(inner) < 16:
        inner = mask
    if np.count_nonzero(inner) < 16:
        return mask
    lab = cv2.cvtColor(crop_bgr, cv2.COLOR_BGR2Lab).astype(np.float32)
    body = np.median(lab[inner > 0], axis=0)
    d_body = np.linalg.norm(lab - body, axis=2)
    d_tray = np.linalg.norm(lab - np.asarray(tray_lab, np.float32), axis=2)
    spread = float(np.percentile(d_body[inner > 0], 60))
    thr = float(np.clip(spread * params.body_spread_factor, params.body_min_dist, params.body_max_dist))
    cand = ((d_body < thr) & (d_body < d_tray)).astype(np.uint8) * 255
    cand = cv2.morphologyEx(cand, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(cand)
    if n <= 1:
        return mask
    overlap = np.bincount(labels[inner > 0].ravel(), minlength=n)
    overlap[0] = 0
    best = int(np.argmax(overlap))
    region = (labels == best).astype(np.uint8) * 255
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    out = np.zeros_like(mask)
    cv2.fillConvexPoly(out, hull, 255)
    ratio = np.count_nonzero(out) / max(1, np.count_nonzero(mask))
    if not params.refine_min_ratio <= ratio <= params.refine_max_ratio:
        return mask
    return out


@dataclass(frozen=True)
class PipField:
    """How unlike the body each crop pixel is, and the pip threshold on it."""

    dist: np.ndarray
    threshold: float


def find_pips(
    crop_bgr: np.ndarray, mask: np.ndarray, face_side_px: float, params: Params
) -> tuple[list[Pip], PipField | None]:
    """Pip candidates inside the die's mask of a crop."""
    if int(np.count_nonzero(mask)) < 16:
        return [], None
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
        long_deg = ang if ax1 >= ax2 else ang + 90  # fitEllipse's angle is its first axis'
        pips.append(Pip((float(cx), float(cy)), float(a), float(ratio), float(long_deg % 180)))
    return pips, PipField(dist, thr)


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
    return _fit(pts, n)[:3]


def grid_of(points: np.ndarray, n: int, step_1_px: float) -> np.ndarray:
    """The 3x3 pip places (9, 2) of the face that `points` (a value-n layout)
    lie on. A lone pip's face is taken upright in the crop (crops are cut
    along the die's outline); a diagonal (2, 3) is taken on a square face."""
    pts = np.asarray(points, np.float64)
    if n == 1:
        centre, ex, ey = pts[0], np.array([step_1_px, 0.0]), np.array([0.0, step_1_px])
    elif n in (2, 3):
        a, b = (pts[0], pts[-1]) if n == 2 else _ends(pts)
        centre = (a + b) / 2
        v = (b - a) / 2  # maps (1, 1)
        w = np.array([-v[1], v[0]])  # maps (1, -1) on a square face
        ex, ey = (v + w) / 2, (v - w) / 2
    else:
        sol = _fit(pts, n)[3]
        centre, ex, ey = sol[2], sol[0], sol[1]
    ij = np.array([(i, j) for j in (-1, 0, 1) for i in (-1, 0, 1)], np.float64)
    return centre + ij[:, :1] * ex + ij[:, 1:] * ey


def _ends(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    d = np.linalg.norm(pts[:, None] - pts[None], axis=2)
    i, j = np.unravel_index(int(np.argmax(d)), d.shape)
    return pts[i], pts[j]


def _fit(pts: np.ndarray, n: int):
    perms, resid_maker, pinv = _HATS[n]
    ordered = pts[perms]  # (P, n, 2): points in layout order, per permutation
    res = resid_maker @ ordered  # (P, n, 2); 4x faster than the einsum it was (720 orders of a 6)
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
    return (rms / step if step > 0 else np.inf), step, aniso, sol


def read_face(
    pips: list[Pip],
    field: PipField | None,
    face_side_px: float,
    face_centre: tuple[float, float],
    params: Params,
) -> FaceRead:
    """The top face's value from pip candidates, or a refusal with a reason."""
    if not pips or field is None:
        return FaceRead(None, 0.0, (), "no pips")
    best: FaceRead | None = None
    for group in _groups(pips, face_side_px):
        fr = _judge(group, field, face_side_px, face_centre, params)
        if fr.value is not None and (best is None or best.value is None or _better(fr, best)):
            best = fr
        elif best is None:
            best = fr
    assert best is not None
    return best


def grid_conflict(
    field: PipField, grid: np.ndarray, value: int, pip_radius_px: float, params: Params
) -> str:
    """The second opinion: look at the 9 pip places of the fitted face. A
    place the layout says is empty must look like the body, else the count
    is in doubt (a faint pip missed, a 6 read as a 2)."""
    places = {tuple(p) for p in LAYOUTS[value].astype(int).tolist()}
    h, w = field.dist.shape
    r = max(1, int(round(pip_radius_px * params.grid_probe_radius)))
    k = 0
    for j in (-1, 0, 1):
        for i in (-1, 0, 1):
            x, y = grid[k]
            k += 1
            if (i, j) in places:
                continue
            xi, yi = int(round(x)), int(round(y))
            if not (r <= xi < w - r and r <= yi < h - r):
                continue
            probe = float(field.dist[yi - r : yi + r + 1, xi - r : xi + r + 1].mean())
            if probe > params.grid_empty_max * field.threshold:
                return f"pip-like mark at place ({i}, {j})"
    return ""


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
    group: list[Pip],
    field: PipField,
    face_side_px: float,
    face_centre: tuple[float, float],
    params: Params,
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
        return _second_opinion(FaceRead(1, float(conf), tuple(group)), field, face_side_px, params)
    resid, step, aniso = fit_layout(pts, n)
    step_frac = step / face_side_px
    if aniso < MIN_ANISOTROPY:
        return FaceRead(None, 0.0, tuple(group), "layout squashed")
    if not MIN_STEP_FRAC <= step_frac <= MAX_STEP_FRAC:
        return FaceRead(None, 0.0, tuple(group), "pip spacing")
    if resid > params.pattern_max_residual:
        return FaceRead(None, 0.0, tuple(group), "layout")
    conf = 1.0 - 0.5 * resid / params.pattern_max_residual
    return _second_opinion(FaceRead(n, float(conf), tuple(group)), field, face_side_px, params)


def _second_opinion(fr: FaceRead, field: PipField, face_side_px: float, params: Params) -> FaceRead:
    assert fr.value is not None
    pts = np.array([p.center for p in fr.pips], np.float64)
    grid = grid_of(pts, fr.value, params.lone_pip_step * face_side_px)
    radius = float(np.sqrt(np.median([p.area for p in fr.pips]) / np.pi))
    why = grid_conflict(field, grid, fr.value, radius, params)
    if why:
        return FaceRead(None, 0.0, fr.pips, why)
    return fr
