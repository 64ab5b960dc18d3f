"""Find the dice on the tray: a model of the tray's colour, then blobs.

The tray is whatever colour fills most of the frame (felt of any colour, a
white tray, wood, cloth). Its colour and spread are estimated on a thumbnail;
every pixel far from it, in spreads of the tray's own texture, is a candidate
die pixel. Blobs of such pixels are dice, clusters of dice or other objects;
the reader decides which.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.params import Params

EDGE_LOW = 40  # Canny thresholds for the cut between touching dice
EDGE_HIGH = 100
SPLIT_MIN_SIDE = 0.5  # pieces smaller than this many die sides are dropped


@dataclass(frozen=True)
class Background:
    """The tray's colour in Lab (OpenCV 8-bit scale) and its spread."""

    lab: tuple[float, float, float]
    sigma: tuple[float, float, float]
    bgr: tuple[float, float, float]


@dataclass(frozen=True)
class Blob:
    """One connected region that is not tray, in segmentation pixels."""

    contour: np.ndarray  # (N, 1, 2) int32
    area_px: float


def work_scale(shape: tuple[int, ...], params: Params) -> float:
    """The factor from input pixels to segmentation pixels: 1/k for a whole
    k (area resizing by a whole factor is several times faster)."""
    return 1.0 / int(np.ceil(max(shape[0], shape[1]) / params.seg_max_side_px))


def estimate_background(lab: np.ndarray, bgr: np.ndarray, params: Params) -> Background:
    """The dominant colour of the frame and the spread of the pixels near it."""
    h, w = lab.shape[:2]
    s = min(1.0, params.bg_sample_side_px / max(h, w))
    small = cv2.resize(lab, None, fx=s, fy=s, interpolation=cv2.INTER_AREA) if s < 1 else lab
    small_bgr = cv2.resize(bgr, None, fx=s, fy=s, interpolation=cv2.INTER_AREA) if s < 1 else bgr
    px = small.reshape(-1, 3).astype(np.int32)
    q = np.stack(
        [px[:, 0] // params.bg_bin_l, px[:, 1] // params.bg_bin_ab, px[:, 2] // params.bg_bin_ab],
        axis=1,
    )
    keys = (q[:, 0] * 64 + q[:, 1]) * 64 + q[:, 2]
    counts = np.bincount(keys)
    mode = int(np.argmax(counts))
    seed = px[keys == mode].astype(np.float32)
    centre = np.median(seed, axis=0)
    # pixels near the mode colour, generously, give the tray's texture spread
    d = np.abs(px - centre)
    near = (d[:, 0] < 3 * params.bg_bin_l) & (d[:, 1] < 3 * params.bg_bin_ab) & (
        d[:, 2] < 3 * params.bg_bin_ab
    )
    sel = px[near].astype(np.float32)
    centre = np.median(sel, axis=0)
    mad = np.median(np.abs(sel - centre), axis=0) * 1.4826
    sigma = np.maximum(mad, params.bg_min_sigma)
    bgr_px = small_bgr.reshape(-1, 3)[near].astype(np.float32)
    bgr_c = np.median(bgr_px, axis=0)
    return Background(
        lab=tuple(float(v) for v in centre),
        sigma=tuple(float(v) for v in sigma),
        bgr=tuple(float(v) for v in bgr_c),
    )


def local_background(lab: np.ndarray, params: Params) -> np.ndarray:
    """The tray's colour around every pixel: a wide median on a thumbnail,
    wide enough that a die (or a few touching) vanishes into it. Follows
    uneven light and trays of two tones (a grey tray on a white table)."""
    h, w = lab.shape[:2]
    s = min(1.0, params.bg_sample_side_px / max(h, w))
    small = cv2.resize(lab, None, fx=s, fy=s, interpolation=cv2.INTER_AREA) if s < 1 else lab
    k = max(3, int(round(params.local_bg_frac * max(small.shape[:2]))) | 1)
    med = cv2.medianBlur(small, k)
    return cv2.resize(med, (w, h), interpolation=cv2.INTER_LINEAR)


def foreground_mask(
    lab: np.ndarray, bg: Background, params: Params, local: np.ndarray | None = None
) -> np.ndarray:
    """255 where a pixel is unlike the tray, 0 elsewhere. With `local`, each
    pixel is compared with the tray colour around it, else with `bg`."""
    sig = np.asarray(bg.sigma, np.float32)
    if local is None:
        diff = lab.astype(np.float32) - np.asarray(bg.lab, np.float32)
    else:
        diff = lab.astype(np.float32) - local.astype(np.float32)
    # darker than the tray may be a shadow: lightness counts less there
    wl = np.where(diff[..., 0] < 0, params.bg_l_weight, 1.0).astype(np.float32)
    norm = (diff[..., 0] / sig[0]) ** 2 * wl + (diff[..., 1] / sig[1]) ** 2 + (
        diff[..., 2] / sig[2]
    ) ** 2
    absd = diff[..., 0] ** 2 * wl + diff[..., 1] ** 2 + diff[..., 2] ** 2
    strong = ((norm > params.fg_sigmas**2) & (absd > params.fg_min_dist**2)).astype(np.uint8)
    weak = ((norm > params.fg_weak_sigmas**2) & (absd > params.fg_weak_min_dist**2)).astype(np.uint8)
    # hysteresis: a faint region (a white die on pale wood) counts when it
    # holds something clearly not tray (its pips, its shaded side)
    n, labels = cv2.connectedComponents(weak | strong, connectivity=8)
    keep = np.zeros(n, np.uint8)
    keep[np.unique(labels[strong > 0])] = 255
    keep[0] = 0
    return keep[labels]


def edge_mask(lab: np.ndarray, params: Params) -> np.ndarray:
    """255 on strong lightness edges: a white die on a white tray shows
    little colour but an outline (its shaded side) and pips. The threshold
    follows the tray's own texture (grain, carpet) so that only edges well
    above it count."""
    grad = cv2.morphologyEx(lab[..., 0], cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    texture = float(np.median(grad[::4, ::4]))
    thr = max(params.edge_min_grad, params.edge_texture_factor * texture)
    return ((grad > thr).astype(np.uint8)) * 255


def clean_mask(mask: np.ndarray, close_px: int) -> np.ndarray:
    """Close pips and gaps, open away specks, fill holes."""
    k = max(1, close_px)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))
    small = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    m = cv2.morphologyEx(mask, cv2.MORPH_OPEN, small)
    m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, kernel)
    contours, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(m)
    cv2.drawContours(filled, contours, -1, 255, thickness=cv2.FILLED)
    # a slightly larger opening removes thin strands (shadow edges, grain)
    k2 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))
    return cv2.morphologyEx(filled, cv2.MORPH_OPEN, k2)


def find_blobs(mask: np.ndarray, params: Params) -> list[Blob]:
    h, w = mask.shape[:2]
    lo = params.min_die_area_frac * h * w
    hi = params.max_die_area_frac * h * w
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for c in contours:
        a = cv2.contourArea(c)
        if lo <= a <= hi:
            out.append(Blob(contour=c, area_px=a))
    return out


def split_by_edges(mask: np.ndarray, gray: np.ndarray, die_side_px: float) -> list[np.ndarray]:
    """Split a blob of touching dice along the edges between them.

    Two dice touching still show an edge between them (a colour change, a
    crease of shadow): cut the blob along strong edges, fill the holes the
    pips' rings leave, and keep the die-sized pieces, grown back by the cut.
    """
    edges = cv2.Canny(gray, EDGE_LOW, EDGE_HIGH)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    cut = cv2.bitwise_and(mask, cv2.bitwise_not(edges))
    contours, _ = cv2.findContours(cut, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 255, cv2.FILLED)
    filled = cv2.morphologyEx(filled, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(filled, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    min_area = (SPLIT_MIN_SIDE * die_side_px) ** 2
    out = []
    for c in contours:
        if cv2.contourArea(c) < min_area:
            continue
        piece = np.zeros_like(mask)
        cv2.drawContours(piece, [c], -1, 255, cv2.FILLED)
        piece = cv2.bitwise_and(cv2.dilate(piece, np.ones((3, 3), np.uint8)), mask)
        cs, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        out.append(max(cs, key=cv2.contourArea))
    return out


def split_cluster(mask: np.ndarray, die_side_px: float) -> list[np.ndarray]:
    """Split a blob of touching dice into one contour per die.

    `mask` holds one blob (255) in its bounding box. Peaks of the distance
    transform at least a third of a die apart seed a watershed.
    """
    dist = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
    r = max(2, int(die_side_px * 0.3))
    dil = cv2.dilate(dist, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
    peaks = ((dist >= dil - 1e-3) & (dist > die_side_px * 0.28)).astype(np.uint8)
    n, markers = cv2.connectedComponents(peaks)
    if n <= 2:
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        return list(contours)
    markers = markers.astype(np.int32) + 1
    markers[mask == 0] = 0
    unknown = (mask > 0) & (peaks == 0)
    markers[unknown] = 0
    markers[mask == 0] = 1
    # watershed on the inverted distance: basins grow from the peaks
    relief = cv2.normalize(-dist, None, 0, 255, cv2.NORM_MINMAX).astype(np.uint8)
    ws = cv2.watershed(cv2.merge([relief, relief, relief]), markers)
    out = []
    for label in range(2, n + 1):
        part = ((ws == label) & (mask > 0)).astype(np.uint8) * 255
        cs, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if cs:
            out.append(max(cs, key=cv2.contourArea))
    return out
