"""What kind of die a blob is, and reading the blobs the d6 reader refused.

`reread` is the d6 reader's hook: it gets the d6 answers and refusals of a
frame and returns them with every non-d6 die it can read put in `dice`.

- With a profile (a taught set): every blob's face crop is voted on by the
  profile's nearest taught faces (vision.numerals.read_faces). A d6 answer of
  the pip reader stays unless the taught faces say clearly that the blob is
  another kind; a refusal becomes an answer only when they agree clearly.
- Without one: a refused blob whose top face carries a numeral of a common
  font is read (vision.numerals.read_glyph); its kind comes from the numeral
  (two digits: d10t; 0 or 9: d10) or from the top face's outline (triangle:
  d8, kite: d10), else it stays refused.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision import numerals
from vision.profile import Profile
from vision.types import Die, Kind, Rejection

KEEP_REFUSED = ("outside", "stacked")  # refusals no other reader may overturn
UNTAUGHT_CROP_PX = 96
FACE_MASK_FRAC = 0.42  # radius of the assumed top face, of the blob's side
NOT_READ = "not read"


def blob_side(outline: tuple, fallback: float = 20.0) -> float:
    if len(outline) >= 3:
        return float(np.sqrt(max(1.0, cv2.contourArea(np.asarray(outline, np.float32)))))
    return fallback


SQUARE_MIN_FILL = 0.8  # die region / its min-area rectangle: a d6 seen from above
SUSPECT_D6_VALUES = (1,)  # a numeral's ink looks like one pip


def looks_square(frame: np.ndarray, centre, side: float) -> bool | None:
    """Is the die in this blob a square (a d6 from above)? None: can't tell."""
    mask, _ = numerals.die_region(frame, centre, side)
    if mask is None:
        return None
    cs, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    c = max(cs, key=cv2.contourArea)
    (_, _), (w, h), _ = cv2.minAreaRect(c)
    if w * h <= 0:
        return None
    hull = cv2.convexHull(c)
    poly = cv2.approxPolyDP(hull, 0.06 * cv2.arcLength(hull, True), True)
    fill = cv2.contourArea(c) / (w * h)
    return bool(fill >= SQUARE_MIN_FILL and len(poly) == 4)


def top_face_kind(face_bgr: np.ndarray, ink: np.ndarray | None) -> str | None:
    """Triangle (d8) or kite (d10) from the region of the face's own colour
    around the numeral; None when the outline is neither."""
    h, w = face_bgr.shape[:2]
    lab = cv2.cvtColor(face_bgr, cv2.COLOR_BGR2Lab).astype(np.float32)
    c = lab[h // 2 - h // 8 : h // 2 + h // 8, w // 2 - w // 8 : w // 2 + w // 8].reshape(-1, 3)
    body = np.median(c, axis=0)
    near = (np.linalg.norm(lab - body, axis=2) < 22).astype(np.uint8) * 255
    if ink is not None:
        near = cv2.bitwise_or(near, cv2.dilate(ink, np.ones((3, 3), np.uint8)))
    near = cv2.morphologyEx(near, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    n, lab_img, stats, _ = cv2.connectedComponentsWithStats(near)
    i = lab_img[h // 2, w // 2]
    if i == 0:
        return None
    cs, _ = cv2.findContours((lab_img == i).astype(np.uint8), cv2.RETR_EXTERNAL,
                             cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(max(cs, key=cv2.contourArea))
    poly = cv2.approxPolyDP(hull, 0.08 * cv2.arcLength(hull, True), True)
    return {3: Kind.D8.value, 4: Kind.D10.value}.get(len(poly))


def _untaught(frame: np.ndarray, r: Rejection) -> Die | None:
    (cx, cy), side = numerals.locate_die(frame, r.center, blob_side(r.outline))
    s = UNTAUGHT_CROP_PX
    k = s / (1.5 * side)
    M = np.float32([[k, 0, s / 2 - k * cx], [0, k, s / 2 - k * cy]])
    crop = cv2.warpAffine(frame, M, (s, s), flags=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)
    mask = np.zeros((s, s), np.uint8)
    cv2.circle(mask, (s // 2, s // 2), int(FACE_MASK_FRAC * s), 255, -1)
    g = numerals.read_glyph(crop, mask)
    if g.kind is None:
        return None
    if g.kind == "d10t":
        kind = Kind.D10T.value
    elif g.value in (0, 9):
        kind = Kind.D10.value
    else:
        kind = top_face_kind(crop, numerals.find_ink(crop, mask))
        if kind is None:
            return None
    conf = float(min(1.0, g.similarity)) * min(1.0, 0.5 + 5 * g.margin)
    return Die(kind, int(g.value), None, (cx, cy), conf, r.outline)


def reread(frame: np.ndarray, dice: list[Die], rejected: list[Rejection],
           profile: Profile | None) -> tuple[list[Die], list[Rejection]]:
    """The d6 reader's answers and refusals, with other kinds read."""
    if profile is None:
        out_d, out_r = list(dice), []
        for r in rejected:
            d = None if r.why in KEEP_REFUSED else _untaught(frame, r)
            (out_d.append(d) if d is not None else out_r.append(r))
        return out_d, out_r
    items: list[Die | Rejection] = list(dice) + [r for r in rejected if r.why not in KEEP_REFUSED]
    kept = [r for r in rejected if r.why in KEEP_REFUSED]
    if not items:
        return list(dice), kept
    where = [numerals.locate_die(frame, it.center, blob_side(it.outline)) for it in items]
    feats = np.stack([numerals.face_features(numerals.face_crop(frame, c, sd)) for c, sd in where])
    votes = numerals.read_faces(profile, feats)
    out_d, out_r = [], kept
    for it, v, (c, _) in zip(items, votes, where, strict=True):
        if isinstance(it, Die):
            if not v.why and v.kind != it.kind:
                out_d.append(_answer(c, it.outline, v, profile))
            else:
                out_d.append(it)
        elif not v.why:
            out_d.append(_answer(c, it.outline, v, profile))
        else:
            out_r.append(replace(it, detail=(it.detail + "; " if it.detail else "") + v.why))
    return out_d, out_r


def _answer(center, outline, v: numerals.FaceVote, profile: Profile) -> Die:
    s = profile.set_named(v.set_name) if v.set_name else None
    return Die(str(v.kind), v.value, s.colour if s else None, center, v.confidence, outline)
