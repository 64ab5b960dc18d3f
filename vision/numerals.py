"""Faces with a numeral (d8, d10, d10t, decorative d6) and their appearance.

Two ways to read a face:

- taught (`read_faces`): a crop around the die, scaled to the die's size,
  turned into a feature vector (HOG of the normalised grey crop plus the body
  colour); a vote among the profile's nearest taught faces, which were taught
  at every rotation. Any font, logo or shape: what was taught is read.
- untaught (`read_glyph`): the ink of the top face (the connected components
  darker, or lighter, than the face near its centre) is cut out, and compared
  at 24 rotations with numerals drawn by OpenCV's Hershey fonts (6 and 9
  with their underline, two-digit tens for the d10t). Common fonts only.

Pure functions on arrays; the synthetic glyphs are drawn on first use.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.profile import Profile

FACE_SIDE_PX = 40  # a face crop is scaled to this side
CROP_OF_BLOB = 1.0  # crop side, of the blob's side
TEACH_ANGLES_DEG = tuple(range(0, 360, 20))
COLOUR_WEIGHT = 0.35  # weight of the body colour beside the shape (unit HOG)
KNN_K = 9
MIN_VOTE = 0.9  # share of the k nearest that must agree, else refused (measured: below, wrong too often)
MIN_SIMILARITY = 0.55  # cosine similarity of the nearest taught face, else unknown

GLYPH_SIDE_PX = 32
GLYPH_ANGLES_DEG = tuple(range(0, 360, 15))
GLYPH_MIN_SIMILARITY = 0.88  # measured on rendered d8/d10: 19 of 20 right above 0.85
GLYPH_MIN_MARGIN = 0.03  # best class's similarity over the second best's


HOG_BINS = 9


def hog(gray: np.ndarray, cells: int = 5) -> np.ndarray:
    """Histogram of oriented gradients (unsigned, 9 bins) over a `cells` x
    `cells` grid, in blocks of 2 x 2 cells each normalised (L2-Hys): the
    classic descriptor, written out because OpenCV 5 dropped it."""
    g = gray.astype(np.float32)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=1)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=1)
    mag, ang = cv2.cartToPolar(gx, gy, angleInDegrees=True)
    h, w = g.shape
    cell = min(h, w) // cells
    mag, ang = mag[: cell * cells, : cell * cells], ang[: cell * cells, : cell * cells] % 180.0
    b = ang / (180.0 / HOG_BINS)
    b0 = np.floor(b).astype(np.int32) % HOG_BINS
    w1 = b - np.floor(b)
    ys, xs = np.indices(mag.shape)
    ci = (ys // cell) * cells + xs // cell
    n = cells * cells * HOG_BINS
    hist = np.bincount((ci * HOG_BINS + b0).ravel(), (mag * (1 - w1)).ravel(), n)
    hist += np.bincount((ci * HOG_BINS + (b0 + 1) % HOG_BINS).ravel(), (mag * w1).ravel(), n)
    hist = hist.reshape(cells, cells, HOG_BINS)
    blocks = np.concatenate([hist[:-1, :-1], hist[1:, :-1], hist[:-1, 1:], hist[1:, 1:]], axis=2)
    blocks = blocks.reshape(-1, 4 * HOG_BINS)
    blocks = blocks / (np.linalg.norm(blocks, axis=1, keepdims=True) + 1e-3)
    blocks = np.minimum(blocks, 0.2)
    blocks = blocks / (np.linalg.norm(blocks, axis=1, keepdims=True) + 1e-3)
    return blocks.ravel().astype(np.float32)


def face_crop(frame_bgr: np.ndarray, centre: tuple[float, float], side_px: float,
              angle_deg: float = 0.0, scale: float = 1.0) -> np.ndarray:
    """A FACE_SIDE_PX square crop around `centre`, `side_px * CROP_OF_BLOB`
    wide, turned by `angle_deg` and zoomed by `scale`."""
    k = FACE_SIDE_PX * scale / max(1.0, side_px * CROP_OF_BLOB)
    M = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), angle_deg, k)
    M[0, 2] += FACE_SIDE_PX / 2 - centre[0]
    M[1, 2] += FACE_SIDE_PX / 2 - centre[1]
    interp = cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR
    return cv2.warpAffine(frame_bgr, M, (FACE_SIDE_PX, FACE_SIDE_PX), flags=interp,
                          borderMode=cv2.BORDER_REPLICATE)


LOCATE_CROP_PX = 64
LOCATE_BRIGHTER = 12.0  # Lab L above the surroundings: die, not shadow
LOCATE_CHROMA = 18.0  # Lab a/b away from the surroundings: a coloured die


def die_region(frame_bgr: np.ndarray, centre: tuple[float, float],
               side_px: float) -> tuple[np.ndarray | None, float]:
    """The die inside a blob that may hold its shadow too, as a mask in a
    LOCATE_CROP_PX crop centred on `centre` (scale k: input px -> crop px):
    the largest region brighter than, or of another colour than, the blob's
    surroundings (shadows are darker, of the surface's own hue)."""
    s = LOCATE_CROP_PX
    k = s / max(1.0, 1.5 * side_px)
    M = np.float32([[k, 0, s / 2 - k * centre[0]], [0, k, s / 2 - k * centre[1]]])
    crop = cv2.warpAffine(frame_bgr, M, (s, s), flags=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)
    lab = cv2.cvtColor(cv2.GaussianBlur(crop, (3, 3), 0), cv2.COLOR_BGR2Lab).astype(np.float32)
    border = np.concatenate([lab[:3].reshape(-1, 3), lab[-3:].reshape(-1, 3),
                             lab[:, :3].reshape(-1, 3), lab[:, -3:].reshape(-1, 3)])
    bg = np.median(border, axis=0)
    chroma = np.hypot(lab[..., 1] - bg[1], lab[..., 2] - bg[2])
    # a shadow keeps the surface's hue, only duller and darker
    v = lab[..., 1:] - 128.0
    vb = bg[1:] - 128.0
    nb = float(np.linalg.norm(vb))
    cos = (v @ vb) / (np.linalg.norm(v, axis=2) * nb + 1e-6)
    shadow = (cos > 0.9) & (np.linalg.norm(v, axis=2) < nb) & (lab[..., 0] < bg[0])
    die = ((lab[..., 0] > bg[0] + LOCATE_BRIGHTER) | ((chroma > LOCATE_CHROMA) & ~shadow)).astype(np.uint8)
    die = cv2.morphologyEx(die, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    die = cv2.morphologyEx(die, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, lab_img, stats, _ = cv2.connectedComponentsWithStats(die)
    if n < 2:
        return None, k
    i = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    if stats[i, cv2.CC_STAT_AREA] < 0.15 * (k * side_px) ** 2:
        return None, k
    return (lab_img == i).astype(np.uint8) * 255, k


def locate_die(frame_bgr: np.ndarray, centre: tuple[float, float],
               side_px: float) -> tuple[tuple[float, float], float]:
    """Centre and side (input pixels) of the die in a blob (die_region); the
    blob's own when nothing better is found."""
    mask, k = die_region(frame_bgr, centre, side_px)
    if mask is None:
        return centre, side_px
    m = cv2.moments(mask, binaryImage=True)
    s = LOCATE_CROP_PX
    cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
    return (float(centre[0] + (cx - s / 2) / k), float(centre[1] + (cy - s / 2) / k)), float(
        np.sqrt(m["m00"]) / k)


def face_features(crop_bgr: np.ndarray) -> np.ndarray:
    """Unit feature vector of a face crop: shape (HOG) and body colour."""
    gray = cv2.cvtColor(crop_bgr, cv2.COLOR_BGR2GRAY)
    gray = cv2.normalize(gray, None, 0, 255, cv2.NORM_MINMAX)
    h = hog(gray)
    h = h / (np.linalg.norm(h) + 1e-6)
    c = FACE_SIDE_PX // 2
    r = FACE_SIDE_PX // 6
    lab = cv2.cvtColor(crop_bgr[c - r : c + r, c - r : c + r], cv2.COLOR_BGR2Lab).reshape(-1, 3)
    col = (np.median(lab, axis=0).astype(np.float32) - 128.0) / 128.0
    v = np.concatenate([h, COLOUR_WEIGHT * col]).astype(np.float32)
    return v / (np.linalg.norm(v) + 1e-6)


def teach_features(frame_bgr: np.ndarray, centre: tuple[float, float], side_px: float,
                   angles=TEACH_ANGLES_DEG, scales=(0.92, 1.08)) -> np.ndarray:
    """Feature rows of one taught face at every rotation (and two zooms)."""
    rows = [face_features(face_crop(frame_bgr, centre, side_px, a, s))
            for a in angles for s in scales]
    return np.stack(rows)


@dataclass(frozen=True)
class FaceVote:
    kind: str | None
    value: int | str | None
    set_name: str | None
    confidence: float  # share of the k nearest that agree
    similarity: float  # of the nearest
    why: str = ""


def read_faces(profile: Profile, feats: np.ndarray, k: int = KNN_K) -> list[FaceVote]:
    """Vote among the profile's nearest taught faces, one answer per row of
    raw features (face_features)."""
    if len(feats) == 0 or len(profile.features) == 0:
        return []
    feats = profile.project(feats)
    sims = feats @ profile.features.T  # (Q, N) cosine similarities
    k = min(k, sims.shape[1])
    top = np.argpartition(-sims, k - 1, axis=1)[:, :k]
    out = []
    for q in range(len(feats)):
        idx = top[q][np.argsort(-sims[q, top[q]])]
        cls = profile.class_idx[idx]
        w = np.maximum(sims[q, idx], 0) ** 4  # nearer faces count more
        scores = np.bincount(cls, weights=w, minlength=len(profile.classes))
        best = int(np.argmax(scores))
        conf = float(scores[best] / max(1e-9, scores.sum()))
        nearest = float(sims[q, idx[0]])
        kind, value = profile.classes[best]
        sets = profile.set_idx[idx[cls == best]]
        set_name = profile.sets[int(np.bincount(sets).argmax())].name if len(sets) else None
        why = ""
        if nearest < MIN_SIMILARITY:
            why = f"unlike every taught face (similarity {nearest:.2f})"
        elif conf < MIN_VOTE:
            why = f"taught faces disagree ({conf:.2f} for {kind} {value})"
        out.append(FaceVote(kind, value, set_name, conf, nearest, why))
    return out


# -- untaught: glyphs -----------------------------------------------------------

GLYPH_FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX,
               cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_PLAIN)


def glyph_texts() -> list[tuple[str, str, int]]:
    """(text drawn, kind, value): d10/d8 digits (6 and 9 underlined), d10t tens."""
    out = []
    for v in range(10):
        out.append((str(v) + ("_" if v in (6, 9) else ""), "digit", v))
    for v in range(0, 100, 10):
        out.append((f"{v:02d}", "d10t", v))
    return out


def draw_glyph(text: str, font: int, thickness: int) -> np.ndarray:
    """White ink on black, cropped to the ink and centred in a square."""
    underline = text.endswith("_")
    t = text.rstrip("_")
    (tw, th), base = cv2.getTextSize(t, font, 2.0, thickness)
    img = np.zeros((th + base + 40, tw + 40), np.uint8)
    cv2.putText(img, t, (20, 20 + th), font, 2.0, 255, thickness, cv2.LINE_AA)
    if underline:
        y = 20 + th + max(6, th // 6)
        cv2.line(img, (20 + tw // 5, y), (20 + tw - tw // 5, y), 255, max(2, thickness + 1))
    return img


def glyph_square(ink: np.ndarray, angle_deg: float = 0.0) -> np.ndarray:
    """Ink (white on black) turned by `angle_deg`, cut to its extent and
    scaled into a GLYPH_SIDE_PX square keeping its aspect."""
    h, w = ink.shape
    d = int(np.hypot(h, w)) + 4
    pad = np.zeros((d, d), np.uint8)
    pad[(d - h) // 2 : (d - h) // 2 + h, (d - w) // 2 : (d - w) // 2 + w] = ink
    if angle_deg:
        M = cv2.getRotationMatrix2D((d / 2, d / 2), angle_deg, 1.0)
        pad = cv2.warpAffine(pad, M, (d, d), flags=cv2.INTER_LINEAR)
    ys, xs = np.nonzero(pad > 64)
    if len(xs) == 0:
        return np.zeros((GLYPH_SIDE_PX, GLYPH_SIDE_PX), np.uint8)
    cut = pad[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    s = max(cut.shape)
    sq = np.zeros((s, s), np.uint8)
    oy, ox = (s - cut.shape[0]) // 2, (s - cut.shape[1]) // 2
    sq[oy : oy + cut.shape[0], ox : ox + cut.shape[1]] = cut
    inner = GLYPH_SIDE_PX - 4
    small = cv2.resize(sq, (inner, inner), interpolation=cv2.INTER_AREA)
    return cv2.copyMakeBorder(small, 2, 2, 2, 2, cv2.BORDER_CONSTANT, value=0)


def glyph_features(square: np.ndarray) -> np.ndarray:
    h = hog(square)
    return (h / (np.linalg.norm(h) + 1e-6)).astype(np.float32)


@lru_cache(maxsize=1)
def glyph_bank() -> tuple[np.ndarray, np.ndarray, tuple[tuple[str, int], ...]]:
    """Features of every synthetic glyph at every rotation, and its class."""
    classes = [(kind, v) for _, kind, v in glyph_texts()]
    feats, idx = [], []
    for ci, (text, _, _) in enumerate(glyph_texts()):
        for font in GLYPH_FONTS:
            for thick in (2, 4):
                ink = draw_glyph(text, font, thick)
                for a in GLYPH_ANGLES_DEG:
                    feats.append(glyph_features(glyph_square(ink, a)))
                    idx.append(ci)
    return np.stack(feats), np.asarray(idx, np.int32), tuple(classes)


@dataclass(frozen=True)
class GlyphRead:
    kind: str | None  # "digit" (d8/d10) or "d10t"
    value: int | None
    similarity: float
    margin: float
    why: str = ""


def find_ink(face_bgr: np.ndarray, face_mask: np.ndarray) -> np.ndarray | None:
    """The numeral's ink near the face's centre, white on black, or None.

    Ink is the minority side of an Otsu split of the face's lightness; only
    components whose centre lies in the middle of the face are kept (the
    edges show neighbouring faces)."""
    gray = cv2.cvtColor(face_bgr, cv2.COLOR_BGR2GRAY)
    inside = gray[face_mask > 0]
    if inside.size < 50:
        return None
    t, _ = cv2.threshold(inside.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    dark = (gray <= t) & (face_mask > 0)
    light = (gray > t) & (face_mask > 0)
    ink = dark if dark.sum() < light.sum() else light
    ink = ink.astype(np.uint8) * 255
    n, lab, stats, cents = cv2.connectedComponentsWithStats(ink, connectivity=8)
    m = cv2.moments(face_mask, binaryImage=True)
    if not m["m00"]:
        return None
    cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
    r = np.sqrt(m["m00"] / np.pi)
    keep = np.zeros_like(ink)
    area_min = 0.002 * m["m00"]
    for i in range(1, n):
        x, y, w, h, a = stats[i]
        if a < area_min or max(w, h) > 1.2 * r:
            continue
        if np.hypot(cents[i][0] - cx, cents[i][1] - cy) < 0.45 * r:
            keep[lab == i] = 255
    return keep if keep.any() else None


def read_glyph(face_bgr: np.ndarray, face_mask: np.ndarray) -> GlyphRead:
    """Read the numeral of an untaught face at any rotation, or say why not."""
    ink = find_ink(face_bgr, face_mask)
    if ink is None:
        return GlyphRead(None, None, 0.0, 0.0, "no numeral found")
    ys, xs = np.nonzero(ink)
    ink = ink[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    q = glyph_features(glyph_square(ink))
    feats, idx, classes = glyph_bank()
    sims = feats @ q
    best_per = np.full(len(classes), -1.0, np.float32)
    np.maximum.at(best_per, idx, sims)
    order = np.argsort(-best_per)
    b, s2 = int(order[0]), float(best_per[order[1]])
    sim = float(best_per[b])
    kind, value = classes[b]
    margin = sim - s2
    if sim < GLYPH_MIN_SIMILARITY:
        return GlyphRead(None, None, sim, margin, f"numeral unlike any font ({sim:.2f})")
    if margin < GLYPH_MIN_MARGIN:
        return GlyphRead(None, None, sim, margin, f"numeral ambiguous ({kind} {value} by {margin:.2f})")
    return GlyphRead(kind, value, sim, margin)
