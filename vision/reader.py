"""read_dice: a frame in, every die read or refused out.

Steps (each timed into Reading.timings_ms):
  segment  tray colour model, blobs that are not tray, clusters split
  dice     per blob: crop square around it, find pips, fit a d6 layout,
           name the body colour; refuse with a reason when unsure
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Collection

import cv2
import numpy as np

from vision import kinds, learned, numerals, segment
from vision.colour import frame_light, median_u8, name_colour
from vision.params import DEFAULT_PARAMS, Params
from vision.pips import FaceRead, find_pips, fit_layout, read_face, refine_mask
from vision.types import Die, Kind, Reading, Rejection, square_outline

# reasons a die is refused (Rejection.why)
OUTSIDE = "outside"
BLURRED = "blurred"
COCKED = "cocked"
STACKED = "stacked"
UNKNOWN = "unknown object"
LOW_CONFIDENCE = "low confidence"
NOT_D6 = "not a d6"


TYPICAL_SIDE_QUANTILE = 0.35


class VisionError(Exception):
    """Root of the vision package's errors (bad input, not unreadable dice)."""


class BadFrame(VisionError, ValueError):
    """The frame is not an image the reader can use."""


def _as_bgr(frame: np.ndarray) -> np.ndarray:
    if not isinstance(frame, np.ndarray) or frame.size == 0:
        raise BadFrame("frame must be a non-empty numpy array")
    if frame.dtype != np.uint8:
        raise BadFrame(f"frame must be uint8, not {frame.dtype}")
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.ndim == 3 and frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    if frame.ndim == 3 and frame.shape[2] == 3:
        return frame
    raise BadFrame(f"frame must be HxW, HxWx3 or HxWx4, not {frame.shape}")


def read_dice_classical(frame_bgr: np.ndarray, profile=None, params: Params = DEFAULT_PARAMS,
                        game_kinds: Collection[str] | None = None) -> Reading:
    """The classical reader: tray colour model, blobs, pip layout fit.

    `profile` (a taught dice set) goes to vision.kinds.reread.
    """
    t0 = time.perf_counter()
    frame = _as_bgr(frame_bgr)
    h, w = frame.shape[:2]
    s = segment.work_scale(frame.shape, params)
    small = cv2.resize(frame, None, fx=s, fy=s, interpolation=cv2.INTER_AREA) if s < 1 else frame
    smooth = cv2.GaussianBlur(small, (3, 3), 0)
    lab = cv2.cvtColor(smooth, cv2.COLOR_BGR2Lab)
    gray = cv2.cvtColor(smooth, cv2.COLOR_BGR2GRAY)
    bg = segment.estimate_background(lab, small, params)
    # a close-up of a die has too little tray for a local model of it
    local = None if max(h, w) <= params.crop_max_side_px else segment.local_background(lab, params)
    fg = segment.foreground_mask(lab, bg, params, local)
    if params.use_edges:
        fg = cv2.bitwise_or(fg, segment.edge_mask(lab, params))
    close_px = max(1, round(min(small.shape[:2]) / 320))
    mask = segment.clean_mask(fg, close_px)
    blobs = segment.find_blobs(mask, params)
    die_side = _typical_side(blobs)
    t1 = time.perf_counter()

    dice: list[Die] = []
    rejected: list[Rejection] = []
    sh, sw = small.shape[:2]
    for blob in blobs:
        side = np.sqrt(blob.area_px)
        if side < params.min_side_of_typical * die_side:
            continue  # specks: grain, dust
        parts = [blob.contour]
        if blob.area_px > params.cluster_area_factor * die_side**2 or (
            blob.area_px > params.maybe_cluster_area_factor * die_side**2
            and not _square_like(blob.contour, blob.area_px)
        ):
            x, y, bw, bh = cv2.boundingRect(blob.contour)
            sub = np.zeros((bh, bw), np.uint8)
            cv2.drawContours(sub, [blob.contour - [x, y]], -1, 255, cv2.FILLED)
            pieces = segment.split_by_edges(sub, gray[y : y + bh, x : x + bw], die_side)
            if len(pieces) < 2:
                pieces = segment.split_cluster(sub, die_side)
            parts = [c + [x, y] for c in pieces]
        for c in parts:
            if cv2.contourArea(c) < (params.min_side_of_typical * die_side) ** 2:
                continue
            out = _read_one(frame, c, s, (sw, sh), die_side, bg, params)
            if isinstance(out, Die):
                dice.append(out)
            elif out is not None:
                rejected.append(out)
    # other kinds (d8, d10, d10t, taba; a taught set): vision.kinds, issue 4
    if params.other_kinds:
        dice, rejected = kinds.reread(frame, dice, rejected, profile, game_kinds)
        rejected = [r for r in rejected if r.why != kinds.OTHER_GAME]  # left out (no numeral network here)
    t2 = time.perf_counter()
    return Reading(
        dice=tuple(dice),
        rejected=tuple(rejected),
        timings_ms={
            "segment": (t1 - t0) * 1e3,
            "dice": (t2 - t1) * 1e3,
            "total": (t2 - t0) * 1e3,
        },
    )


def _typical_side(blobs: list[segment.Blob]) -> float:
    """The side of a single die in segmentation pixels: the median of the
    square-looking blobs (clusters and junk are rarely square)."""
    sides = []
    for b in blobs:
        (_, _), (rw, rh), _ = cv2.minAreaRect(b.contour)
        if rw * rh <= 0:
            continue
        rect = b.area_px / (rw * rh)
        aspect = max(rw, rh) / max(1e-6, min(rw, rh))
        if rect > 0.75 and aspect < 1.35:
            sides.append(np.sqrt(b.area_px))
    if not sides:
        sides = [np.sqrt(b.area_px) for b in blobs] or [1.0]
    # weighted by area: specks (a pip apart from its die, grain) weigh
    # nothing; a low quantile: shadows and neighbours only make blobs bigger
    sides_a = np.sort(np.asarray(sides))
    cum = np.cumsum(sides_a**2)
    return float(sides_a[np.searchsorted(cum, cum[-1] * TYPICAL_SIDE_QUANTILE)])


def _square_like(contour: np.ndarray, area: float) -> bool:
    (_, _), (rw, rh), _ = cv2.minAreaRect(contour)
    if rw * rh <= 0:
        return False
    return area / (rw * rh) > 0.8 and max(rw, rh) / min(rw, rh) < 1.25


def _read_one(
    frame: np.ndarray,
    contour_seg: np.ndarray,
    s: float,
    seg_size: tuple[int, int],
    die_side_seg: float,
    bg: segment.Background,
    params: Params,
) -> Die | Rejection | None:
    contour = contour_seg.astype(np.float32) / s
    area = cv2.contourArea(contour)
    (cx, cy), (rw, rh), ang = cv2.minAreaRect(contour)
    centre = (float(cx), float(cy))
    outline = tuple((float(p[0][0]), float(p[0][1])) for p in cv2.boxPoints(((cx, cy), (rw, rh), ang)).reshape(-1, 1, 2))
    side_seg = np.sqrt(cv2.contourArea(contour_seg))
    if side_seg > params.max_side_of_typical * die_side_seg:
        return Rejection(centre, UNKNOWN, outline, "too big for a die")
    x, y, bw, bh = cv2.boundingRect(contour_seg)
    m = params.border_margin_px
    touches = x <= m or y <= m or x + bw >= seg_size[0] - m or y + bh >= seg_size[1] - m
    aspect = max(rw, rh) / max(1e-6, min(rw, rh))
    rectangularity = area / max(1e-6, rw * rh)

    crop, seg_mask, M = _crop(frame, contour, (cx, cy), max(rw, rh), ang, params)
    crop_mask = refine_mask(crop, seg_mask, bg.lab, params)
    e = max(1, round(params.crop_side_px * params.mask_erode_frac))
    crop_mask = cv2.erode(crop_mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * e + 1, 2 * e + 1)))
    face_side = np.sqrt(max(1.0, float(np.count_nonzero(crop_mask))))
    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    lap = cv2.Laplacian(gray, cv2.CV_64F)[crop_mask > 0]
    sharp = float(lap.var()) if lap.size > 1 else 0.0
    pips, field = find_pips(crop, crop_mask, face_side, params)
    mom = cv2.moments(crop_mask, binaryImage=True)
    fc = (mom["m10"] / mom["m00"], mom["m01"] / mom["m00"]) if mom["m00"] else (48.0, 48.0)
    face = read_face(pips, field, face_side, fc, params)

    close_up = max(frame.shape[:2]) <= params.crop_max_side_px
    if touches and not close_up and (face.value is None or aspect > params.max_aspect_topdown):
        return Rejection(centre, OUTSIDE, outline, "touches the frame's edge")
    if face.value is None:
        if sharp < params.blur_min_laplacian_var:
            return Rejection(centre, BLURRED, outline, f"laplacian var {sharp:.1f}")
        if not pips:
            return Rejection(centre, UNKNOWN, outline, "no pips")
        return Rejection(centre, LOW_CONFIDENCE, outline, face.why)
    if face.confidence < params.min_confidence:
        return Rejection(centre, LOW_CONFIDENCE, outline, f"confidence {face.confidence:.2f}")
    # the answer's centre: the pips' centroid, back in input pixels
    pc = np.array([p.center for p in face.pips], np.float64).mean(axis=0)
    inv = cv2.invertAffineTransform(M)
    fx, fy = inv @ np.array([pc[0], pc[1], 1.0])
    body = _body_bgr(crop, crop_mask, face.pips, face_side)
    _ = rectangularity
    return Die(
        kind=Kind.D6.value,
        value=int(face.value),
        colour=name_colour(body, np.asarray(bg.bgr)),
        center=(float(fx), float(fy)),
        confidence=float(face.confidence),
        outline=outline,
    )


def _crop(
    frame: np.ndarray,
    contour: np.ndarray,
    centre: tuple[float, float],
    side_px: float,
    angle_deg: float,
    params: Params,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A square crop of the die, rotated upright, and its mask; plus the
    affine map input -> crop."""
    c = params.crop_side_px
    k = c / (side_px * (1 + 2 * params.crop_margin))
    M = cv2.getRotationMatrix2D(centre, angle_deg, k)
    M[0, 2] += c / 2 - centre[0]
    M[1, 2] += c / 2 - centre[1]
    interp = cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR
    crop = cv2.warpAffine(frame, M, (c, c), flags=interp, borderMode=cv2.BORDER_REPLICATE)
    pts = cv2.transform(contour.reshape(-1, 1, 2), M).astype(np.int32)
    mask = np.zeros((c, c), np.uint8)
    cv2.fillPoly(mask, [pts], 255)
    return crop, mask, M


def _body_bgr(crop: np.ndarray, mask: np.ndarray, pips, face_side: float) -> np.ndarray:
    body = mask.copy()
    for p in pips:
        r = int(round(np.sqrt(p.area / np.pi) * 1.6))
        cv2.circle(body, (int(p.center[0]), int(p.center[1])), r, 0, -1)
    sel = crop[body > 0]
    if len(sel) == 0:
        sel = crop[mask > 0]
    return np.median(sel.reshape(-1, 3), axis=0)


def _taught_kinds(profile, game_kinds: Collection[str] | None) -> list[str]:
    """The kinds a taught set has (and the game throws, when known)."""
    return [k for k in profile.kinds if game_kinds is None or k in game_kinds]


def read_dice(frame_bgr: np.ndarray, profile=None, params: Params = DEFAULT_PARAMS,
              game_kinds: Collection[str] | None = None) -> Reading:
    """Read every d6 in a BGR frame; refuse, with a reason, what can't be read.

    With the bundled models (vision/models, loaded once per process on the
    first call) the learned reader answers; without them the classical one.
    `profile` (a taught dice set) goes to vision.kinds.reread either way;
    so do `game_kinds`, the kinds the game in play throws when known (a thing
    no die was seen on and the network reads as a kind the game does not use
    is left out).
    """
    if not learned.models_present():
        return read_dice_classical(frame_bgr, profile, params, game_kinds)
    t0 = time.perf_counter()
    frame = _as_bgr(frame_bgr)
    models = learned.load_models()
    found, di = learned.detect(models.detector, frame, params.det_min_score, params.max_dice)
    touching = touching_peaks(models.touching, frame, found, params, di) if models.touching is not None and found else []
    if touching:
        found = _pairs_split(found, touching, params)
    if params.zoom_out > 1 and max(frame.shape[:2]) > learned.CLOSE_UP_MAX_PX:
        found = with_big_dice(models, frame, found, di, params)
    t1 = time.perf_counter()
    keep = _distinct(found, params.dup_sides)
    die_side = found_side(keep, params) if keep else None
    med = die_side or 1.0
    # a weak peak smaller than the frame's dice keeps its own side (a motif of the cloth seen
    # as large as a die would show its neighbours too, as pips)
    top = max((f.score for f in keep), default=0.0)
    sides = [float(np.clip(f.side_px, med / params.side_spread if f.score >= params.weak_own_side * top
                           else 0.0, med * params.side_spread)) for f in keep]
    crops = [learned.crop_die(frame, f.center, s) for f, s in zip(keep, sides, strict=True)]
    probs, offs = learned.classify(models.classifier, crops)
    # a die the first look is unsure of is looked at again: turned and mirrored
    # (views averaged), and centred where the classifier says its centre is
    # (also when it refuses the die as leaning or stacked: a die touching another, cut off its
    # centre, looks so; the second look's answer stands only when sure, else the first refusal)
    leaning = [learned.CLASS_OF_WHY[COCKED], learned.CLASS_OF_WHY[STACKED]]
    # (and when it reads no d6 on a peak strong enough to be refused as an unknown object: a die of
    # an unusual make, red pips in white swirls, is that to the small classifier; the second
    # look's value stands only when sure, and never a 1: a round token or a coin reads as one)
    other = {i for i, p in enumerate(probs) if int(p.argmax()) == learned.OTHER and params.other_min_prob
             and keep[i].score >= params.junk_max_score}
    unsure = [i for i, p in enumerate(probs) if p.max() < params.relook_below
              and (int(p.argmax()) < 6 or int(p.argmax()) in leaning or i in other)]
    leant = {i for i in unsure if int(probs[i].argmax()) in leaning}
    if unsure:
        moved = [_offset(keep[i].center, offs[i], sides[i]) for i in unsure]
        again = [learned.crop_die(frame, c, sides[i]) for c, i in zip(moved, unsure, strict=True)]
        net = models.second or models.classifier  # the bigger network, if there is one
        pb, ob = learned.classify(net, [crops[i] for i in unsure] + again, params.views)  # one forward
        p1, p2, o2 = pb[:len(unsure)], pb[len(unsure):], ob[len(unsure):]
        for j, i in enumerate(unsure):
            was = (keep[i], crops[i], probs[i].copy(), offs[i].copy())
            probs[i] = p1[j]
            if p2[j].max() > p1[j].max():
                keep[i] = learned.Found(moved[j], keep[i].side_px, keep[i].score)
                crops[i], probs[i], offs[i] = again[j], p2[j], o2[j]
            k = int(probs[i].argmax())
            if (i in leant and probs[i][:6].max() < params.leant_min_prob) or (
                    i in other and (k >= 6 or learned.CLASSES[k] == 1 or probs[i][k] < params.other_min_prob)):
                keep[i], crops[i], probs[i], offs[i] = was
    # what would be answered is looked at once more: does the die lean, or lie on another?
    lean = np.zeros(len(keep), np.float32)
    asked: set[int] = set()
    if models.lean is not None:
        ask = [i for i, p in enumerate(probs) if int(p.argmax()) < 6 and p.max() >= params.agree_min_prob
               and (p[leaning].sum() >= params.lean_ask_min or i in leant)]
        lean[ask] = learned.lean_probs(models.lean, [crops[i] for i in ask])
        asked = set(ask)
    if params.sure_side_min:
        # the frame's die side again, from the strong peaks (`found_side`) read surely as a d6
        # value or as no d6 (a numeral die): on a tray of dice touching in pairs, half the peaks
        # are two dice found as one, and their median is no die's side
        sure = [f.side_px for f, p in zip(keep, probs, strict=True) if f.score >= params.side_ref_score * top
                and (int(p.argmax()) < 6 or int(p.argmax()) == learned.OTHER) and p.max() >= params.min_value_prob]
        if len(sure) >= params.sure_side_min:
            die_side = med = float(np.median(sure))
    t2 = time.perf_counter()
    tray_bgr = median_u8(di.image[::2, ::2].reshape(-1, 3))  # every 4th pixel: the same median, 5x faster
    light = frame_light([cr for cr, p in zip(crops, probs, strict=True) if int(p.argmax()) < 6
                         and p.max() >= params.min_value_prob], tray_bgr, learned.CROP_SIDES)  # its whites
    tray_lab = tuple(float(v) for v in cv2.cvtColor(np.uint8([[tray_bgr]]), cv2.COLOR_BGR2Lab)[0, 0])
    close_up = max(frame.shape[:2]) <= learned.CLOSE_UP_MAX_PX
    # a peak read as no sure value, or as leaning by the classifier alone, may lie between two
    # dice touching, found as one: looked at around it
    split = _split_look(frame, keep, sides, probs, offs, lean, models, light, med, tray_lab, params) \
        if params.split_shifts else {}
    dice: list[Die] = [d for i in sorted(split) for d in split[i]]
    rejected: list[Rejection] = []
    weak: list[tuple[float, float]] = []  # peaks on what is no d6, too weak to refuse
    low: list = []  # (centre, side, outline, detail, lean asked) of dice not read sure enough
    for i, (f, side, p, off, crop, pl) in enumerate(zip(keep, sides, probs, offs, crops, lean, strict=True)):
        if i in split:
            continue
        c = int(p.argmax())
        cx, cy = f.center
        if c < 6:
            cx, cy = _offset((cx, cy), off, side)
        outline = square_outline((cx, cy), side)
        m = _cut_margin(side, med, params)
        cut = not close_up and not _inside((cx, cy), frame, m)
        detail = f"p={p[c]:.2f} class={learned.CLASSES[c]} heat={f.score:.2f}"
        if cut:
            rejected.append(Rejection((cx, cy), OUTSIDE, outline, detail))
        elif pl >= params.lean_max_p:
            why = COCKED if p[leaning[0]] >= p[leaning[1]] else STACKED
            rejected.append(Rejection((cx, cy), why, outline, f"{detail} lean={pl:.2f}", leans=True))
        elif c < 6 and p[c] >= params.min_value_prob:
            dice.append(_d6(c, p, crop, (cx, cy), outline, light))
        elif c < 6 and p[c] >= params.agree_min_prob and (
                pip_count(frame, (cx, cy), side, tray_lab, params) == learned.CLASSES[c]):
            # less sure, but the classical pip count reads the same value: two reads agree
            dice.append(_d6(c, p, crop, (cx, cy), outline, light))
        elif c < 6:
            low.append(((cx, cy), side, outline, detail, i in asked))
        elif c == learned.OTHER and f.score < params.junk_max_score:
            weak.append((cx, cy))  # not refused (tray texture, mostly): kinds may look again
        else:
            rejected.append(Rejection((cx, cy), str(learned.CLASSES[c]), outline, detail))
    if low:
        d_low, r_low = _last_look(frame, low, models, light, med, params)
        dice += d_low
        rejected += r_low
    if params.above_below > 0:
        dice = _weak_from_above(frame, dice, models, light, med, params)
    # a 1 (or 2) on a small peak with no die round its pip: a speck on the tray (not refused: a stain
    # of the felt would ask for every throw again), or a pip of a die the detector did not see
    # (the station's dice count asks for that throw again); no other reader answers its value there
    specks = [d for d in dice if is_speck(frame, d, med, params)]
    dice = [d for d in dice if d not in specks]
    if specks and params.split_shifts:
        # ... or a pip of a die the detector saw no more of (a black die on black felt): looked
        # at around it, the surest die found there (away from every die and refusal) is answered
        taken = [d.center for d in dice] + [r.center for r in rejected] + [c for c, *_ in low]
        found = _around(frame, [(s.center, med) for s in specks], taken, models, light, med, params)
        dice += [next(d for d, leans in ds if not leans) for ds in found if any(not leans for _, leans in ds)]
    if params.other_kinds:
        # a peak much bigger than the frame's dice: two touching, the detector found one (the scan
        # looks for the other)
        pairs = [f.center for f in keep if f.side_px >= params.pair_sides * med]
        dice, rejected = kinds.reread(frame, dice, rejected, profile, game_kinds, weak, die_side, pairs,
                                      [g.center for g in touching])
        dice = [d for d in dice if not kinds.near_points(
            d.center, [s.center for s in specks if s.value == d.value], params.dup_sides * med)]
        # a numeral on a side face of a die photographed close is refused before the numeral
        # network looks at the frame (which then sees the die whole: no answer left)
        dice, side_numerals = _off_a_close_die(frame, dice, die_side or med, params)
        rejected += side_numerals
        # in a game of d6, what the face network read as a kind the game does not throw
        others = [r.read_as for r in rejected if r.why == kinds.OTHER_GAME and r.read_as is not None]
        rejected = [r for r in rejected if r.why != kinds.OTHER_GAME]
        if params.numerals and profile is None:
            # numerals in fonts never taught: a second opinion on the face network's unsure
            # answers, the d6 with numerals among `others` (the rest left out: a taught set
            # answers for its own dice), and a look at what no reader above could read
            dice, contradicted = numerals.second_opinion(frame, dice, die_side, game_kinds)
            dice += numerals.d6_numerals(frame, others, die_side, game_kinds)
            dice, rejected = numerals.reread(frame, dice, rejected + contradicted, game_kinds, die_side)
        elif params.numerals:
            # taught: the profile answers for its set; what it and the readers above refused
            # as not read is looked at again, answered only as a kind the set has
            dice, rejected = numerals.reread(frame, dice, rejected, _taught_kinds(profile, game_kinds),
                                             die_side)
        if params.numerals and any(d.colour is None for d in dice):
            dice = kinds.name_colours(frame, dice, die_side or med)
    dice = _without_side_faces(dice, med, params)
    dice, big_leaning = _big_leaning(frame, dice, med, params)
    dice, slanted = _foreshortened(frame, dice, rejected, die_side or med, tray_lab, params)
    rejected += big_leaning + slanted
    if close_up and params.whole_sides:
        dice = _without_pips_of_a_bigger_die(dice, params)
        dice, no_pip = _ones_without_a_pip(frame, dice, params)
        rejected += no_pip
        dice, rejected = _whole_crop(frame, dice, rejected, models, light, params)
    rejected = kinds.one_refusal_each(rejected, die_side or med)
    t3 = time.perf_counter()
    return Reading(
        dice=tuple(dice),
        rejected=tuple(rejected),
        timings_ms={
            "segment": (t1 - t0) * 1e3,
            "dice": (t3 - t1) * 1e3,
            "classify": (t2 - t1) * 1e3,
            "total": (t3 - t0) * 1e3,
        },
        die_side_px=die_side,
    )


def _distinct(found: list[learned.Found], dup_sides: float) -> list[learned.Found]:
    """The peaks in order, less those nearer than `dup_sides` (of the smaller
    side) to one kept before them (the first detector's come first, strongest
    first)."""
    keep: list[learned.Found] = []
    xy = np.zeros((len(found), 2))
    side = np.zeros(len(found))
    for f in found:
        n = len(keep)
        if n == 0 or np.all(np.hypot(f.center[0] - xy[:n, 0], f.center[1] - xy[:n, 1])
                            > dup_sides * np.minimum(f.side_px, side[:n])):
            xy[n], side[n] = f.center, f.side_px
            keep.append(f)
    return keep


def touching_peaks(net, frame: np.ndarray, found: list[learned.Found], params: Params,
                   di: learned.DetInput | None = None) -> list[learned.Found]:
    """The touching-dice detector's peaks (>= `touch_min_score`), as big as the
    first detector's dice (>= `touch_min_side` of their median side), in a
    frame where a first detector's peak may be two dice (`touch_gate`). The
    first detector sees two touching dice of one colour as one (a ridge of
    heat, one peak); this one, fine-tuned on rendered touching dice, finds
    both, but reads the real sets worse alone: its peaks go after the first
    detector's, so that the duplicates kept are the first's."""
    med = float(np.median([f.side_px for f in found]))
    if not any(f.side_px >= params.touch_gate * med for f in found):
        return []  # no peak big enough to be two dice
    more, _ = learned.detect(net, frame, params.touch_min_score, params.max_dice, di)
    return [g for g in more if g.side_px >= params.touch_min_side * med]


def _pairs_split(found: list[learned.Found], touching: list[learned.Found],
                 params: Params = DEFAULT_PARAMS) -> list[learned.Found]:
    """The first detector's peaks, then the touching detector's; but a first
    peak that is two touching dice seen as one gives its place to the two
    touching peaks that lie on either side of it: each within `twin_reach`
    of its side from it, `twin_apart` of their side from each other (two
    flat dice are a side apart), the peak near their midpoint (a quarter of
    their distance). Else `_distinct` would keep the first peak, between the
    two dice, and drop both."""
    if not params.twin_apart or not touching:
        return found + touching
    xy = np.array([g.center for g in touching], np.float64)
    used: set[int] = set()
    out: list[learned.Found] = []
    for f in found:
        near = [j for j in np.flatnonzero(np.hypot(*(xy - f.center).T) <= params.twin_reach * f.side_px)
                if j not in used]
        best = None
        for a, b in itertools.combinations(near, 2):
            ga, gb = touching[a], touching[b]
            d = float(np.hypot(ga.center[0] - gb.center[0], ga.center[1] - gb.center[1]))
            mid = ((ga.center[0] + gb.center[0]) / 2, (ga.center[1] + gb.center[1]) / 2)
            if d >= params.twin_apart * (ga.side_px + gb.side_px) / 2 and \
                    np.hypot(mid[0] - f.center[0], mid[1] - f.center[1]) <= d / 4 and \
                    (best is None or ga.score + gb.score > best[0]):
                best = (ga.score + gb.score, a, b)
        if best is None:
            out.append(f)
        else:
            used |= {best[1], best[2]}
            out += [touching[best[1]], touching[best[2]]]
    return out + [g for j, g in enumerate(touching) if j not in used]


def with_big_dice(models: learned.Models, frame: np.ndarray, found: list[learned.Found],
                  di: learned.DetInput, params: Params = DEFAULT_PARAMS) -> list[learned.Found]:
    """The first look's peaks, with the dice too big for it found: in a
    photo taken close (a phone held over the dice, a camera mounted low) a
    die is a fifth of the frame or more, beyond the sizes the detector was
    trained on; it sees the die's pips as dice, or the die in pieces. The
    detector looks again at its input shrunk `zoom_out` times; a die it
    finds there takes the place of the first look's peaks on it
    (`_replaced_by`). Pips inside a die the first look found whole go too
    (`_without_pips`)."""
    found = _without_pips(found, di.scale, params, frame)
    big = [b for b in _zoomed_out_peaks(models.detector, frame, di, params) if _may_replace(b, found, di.scale, params)]
    if not big:
        return found
    probs, _ = learned.classify(models.classifier, [learned.crop_die(frame, b.center, b.side_px) for b in big])
    out = list(found)
    for b, p in zip(big, probs, strict=True):
        gone = _replaced_by(models.classifier, frame, b, p, out, di.scale, params)
        if gone is not None:
            out = [f for f in out if f not in gone] + [b]
    return out


def _zoomed_out_peaks(net, frame: np.ndarray, di: learned.DetInput,
                      params: Params = DEFAULT_PARAMS) -> list[learned.Found]:
    """The detector's peaks (>= `big_min_score`) on its input shrunk
    `zoom_out` times, in a canvas of the input's edges; frame pixels."""
    z = params.zoom_out
    h, w = frame.shape[:2]
    nw, nh = max(1, round(w * di.scale / z)), max(1, round(h * di.scale / z))
    small = cv2.resize(di.image[: round(h * di.scale), : round(w * di.scale)], (nw, nh),
                       interpolation=cv2.INTER_AREA)
    m = learned.DET_MULTIPLE
    ph, pw = -(-(nh + m) // m) * m, -(-(nw + m) // m) * m
    top, left = (ph - nh) // 2, (pw - nw) // 2
    img = cv2.copyMakeBorder(small, top, ph - nh - top, left, pw - nw - left, cv2.BORDER_REPLICATE)
    zdi = learned.DetInput(img, di.scale / z, (float(left), float(top)))
    peaks, _ = learned.detect(net, frame, params.big_min_score, params.max_dice, zdi)
    return [b for b in peaks if min(b.center) >= 0 and b.center[0] < w and b.center[1] < h]


def _d6_reads(net, frame: np.ndarray, peaks: list[learned.Found]) -> list[tuple[int, float]]:
    """(value, P) of the peaks the classifier reads as a d6 face at all."""
    if not peaks:
        return []
    probs, _ = learned.classify(net, [learned.crop_die(frame, f.center, f.side_px) for f in peaks])
    return [(int(learned.CLASSES[int(p.argmax())]), float(p.max())) for p in probs if int(p.argmax()) < 6]


def _may_replace(big: learned.Found, found: list[learned.Found], det_scale: float,
                 params: Params = DEFAULT_PARAMS) -> bool:
    """Could `_replaced_by` put in this peak found zoomed out (its size and
    place alone)? Most are the first look's dice found again: they are not
    looked at further."""
    if big.side_px * det_scale >= params.big_det_px:
        return True
    inside = _in_square(found, big, 0.5)
    return not inside or big.side_px >= (min(params.big_sides, params.glyph_sides)
                                         * float(np.median([f.side_px for f in inside])))


def _in_square(found: list[learned.Found], big: learned.Found, sides: float) -> list[learned.Found]:
    """The peaks nearer a big peak's centre than `sides` of its side, along x and along y."""
    return [f for f in found if max(abs(f.center[0] - big.center[0]), abs(f.center[1] - big.center[1]))
            < sides * big.side_px]


def _replaced_by(net, frame: np.ndarray, big: learned.Found, probs: np.ndarray, found: list[learned.Found],
                 det_scale: float, params: Params = DEFAULT_PARAMS) -> list[learned.Found] | None:
    """The first look's peaks a die found zoomed out takes the place of
    (maybe none: a die it missed), or None when it is not put in at all.

    - Read as a d6 face (>= `big_min_prob`) and `big_det_px` or more in the
      detector's input (beyond what the first look finds whole), it takes
      the peaks nearer than `big_reach` of its side: its pips and pieces;
      not when two of them are dice of their own (`_two_dice`), or when one
      peak there is the die found whole (>= `whole_share` of its side: an
      oblique die, whose big peak takes in its side face too). Read as no
      d6 at all (`big_other_p`: a d8, a d10 close up, which `vision.kinds`
      then reads whole), only when none of those peaks is read as a d6 face
      at `pip_not_die_p` (but a 1), and one of them is a piece of it (at
      least `pip_peak_ratio` of its side: not a group of small dice) or
      there are one or two, read as no d6 face but a 1 at `glyph_one_p`
      (its numeral, or a loop of it, found as a small die).
    - Otherwise it takes the peaks in its square when it is `big_sides`
      times their median side (they are its pips: none of them read as a
      d6 face at `pip_not_die_p`) and read as a d6 face, or as no d6 at all
      where they are its numeral (`_glyph`), or when no peak lies within
      its side (a die the first look missed). Read as no d6 at
      `big_other_p`, `glyph_sides` times their side is enough when they are
      its glyphs: each digit of a two-digit numeral is found as a die about
      half the die's side.
    Either way the middle of its square must be one die's body
    (`_one_die_body`): a group of dice seen as one is not."""
    sure = int(probs.argmax()) < 6 and probs.max() >= params.big_min_prob
    other = int(probs.argmax()) == learned.OTHER and probs.max() >= params.big_other_p  # a d8, a d10, ...
    if (sure or other) and big.side_px * det_scale >= params.big_det_px:
        near = _in_square(found, big, params.big_reach)
        whole = len(near) == 1 and near[0].side_px >= params.whole_share * big.side_px
        pieces = [f for f in near if f.side_px >= params.pip_peak_ratio * big.side_px]
        blocked = False
        if other:
            reads = _d6_reads(net, frame, near)
            blocked = ((not pieces and not _glyph(near, reads, params))
                       or any(v != 1 and p >= params.pip_not_die_p for v, p in reads))
        if not whole and not _two_dice(near, big.side_px, params) and not (other and blocked):
            return near if _one_die_body(frame, big, near, params) else None
    inside = _in_square(found, big, 0.5)
    # peaks bigger than a d6's pips (over 1 / big_sides of its side) are taken only as a numeral
    # die's glyphs (read as no d6), and only up to 1 / glyph_sides of its side
    median = float(np.median([f.side_px for f in inside])) if inside else 0.0
    glyph_sized = big.side_px < params.big_sides * median
    if glyph_sized and not (other and big.side_px >= params.glyph_sides * median):
        return None  # the first look found this die (or these dice) as big
    reads = _d6_reads(net, frame, inside)
    if glyph_sized and not _glyph(inside, reads, params):
        return None
    if len(inside) >= 2 and any(p >= params.pip_not_die_p for _, p in reads):
        return None  # a small die read surely among them: a heap of dice, not a die's pips
    if not _one_die_body(frame, big, inside, params):
        return None
    missed = not any(np.hypot(f.center[0] - big.center[0], f.center[1] - big.center[1]) < big.side_px
                     for f in found)
    return inside if sure or missed or (other and _glyph(inside, reads, params)) else None


def _glyph(peaks: list[learned.Found], reads: list[tuple[int, float]], params: Params = DEFAULT_PARAMS) -> bool:
    """Are these first-look peaks on a numeral die found whole (zoomed out)
    its numeral, or a loop of it, seen as a small die? One or two (the
    touching look finds them again), read (`reads`: `_d6_reads`) as no d6
    face but a 1 at `glyph_one_p`: the 0 of an 80, a d8's 6. Three or more,
    or a 5 and a 3, are small dice of their own."""
    return (0 < len(_distinct(peaks, params.dup_sides)) <= 2
            and all(v == 1 for v, p in reads if p >= params.glyph_one_p))


def _two_dice(peaks: list[learned.Found], big_side: float, params: Params = DEFAULT_PARAMS) -> bool:
    """Are two of the first look's peaks in a big peak's square dice of their
    own (each at least `pair_min_share` of the big one's side, their centres
    at least `pair_apart` of the smaller's side apart)? Touching dice seen as
    one big die; the pieces the first look makes of a die too big for it lie
    on top of each other."""
    dice = [f for f in peaks if f.side_px >= params.pair_min_share * big_side]
    return any(np.hypot(f.center[0] - g.center[0], f.center[1] - g.center[1])
               >= params.pair_apart * min(f.side_px, g.side_px)
               for i, f in enumerate(dice) for g in dice[i + 1:])


def _without_pips(found: list[learned.Found], det_scale: float,
                  params: Params = DEFAULT_PARAMS, frame: np.ndarray | None = None) -> list[learned.Found]:
    """The peaks but those smaller than `pip_peak_ratio` of another, itself
    at least `big_det_px` in the detector's input, whose square holds them
    (nearer its centre than `pip_peak_sides` of its side): a big die's pips,
    seen as dice too (two dice lying flat cannot be one inside the other's
    top face; a peak over a heap of small dice is smaller than that). With
    the `frame`, the big peak's square must also hold one die's body
    (`_one_die_body`): a weak peak with a side as wide as a group of dice
    lying apart on the tray (its middle the tray between them) takes none of
    them."""
    if len(found) < 2:
        return found
    xy = np.array([f.center for f in found], np.float64)
    side = np.array([f.side_px for f in found])
    cheb = np.abs(xy[:, None, :] - xy[None, :, :]).max(axis=2)  # (i, j)
    inside = ((side[:, None] < params.pip_peak_ratio * side[None, :]) & (cheb < params.pip_peak_sides * side[None, :])
              & (side[None, :] * det_scale >= params.big_det_px))
    if frame is not None:
        for j in np.flatnonzero(inside.any(axis=0)):
            if not _one_die_body(frame, found[j], [found[i] for i in np.flatnonzero(inside[:, j])], params):
                inside[:, j] = False
    return [f for f, pip in zip(found, inside.any(axis=1), strict=True) if not pip]


def _one_die_body(frame: np.ndarray, big: learned.Found, inside: list[learned.Found],
                  params: Params = DEFAULT_PARAMS) -> bool:
    """Is the middle of a big peak's square, less discs round the small
    peaks inside it, one die's body? Unlike the ring just outside the square
    (Lab distance of the medians >= `big_body_dist`: tray lies between the
    dice of a group) and of one colour (`big_one_share` of it within
    `big_one_colour` of its median: a heap of dice of many colours is no
    die)."""
    x, y, s = big.center[0], big.center[1], big.side_px
    r = int(np.ceil(0.9 * s))
    step = max(1, round(s / 64))  # every step-th pixel: at most ~120 across, as good for medians
    x0, y0 = max(0, int(x) - r), max(0, int(y) - r)
    patch = frame[y0: int(y) + r + 1: step, x0: int(x) + r + 1: step]
    if patch.size == 0:
        return False
    yy, xx = np.mgrid[y0: y0 + step * patch.shape[0]: step, x0: x0 + step * patch.shape[1]: step]
    cheb = np.maximum(np.abs(xx - x), np.abs(yy - y))
    body = cheb < 0.4 * s
    for f in inside:
        if f.side_px < params.pip_share * s:  # a pip seen as a die (not a piece of the die)
            body &= np.hypot(xx - f.center[0], yy - f.center[1]) > 0.6 * f.side_px
    ring = (cheb > 0.65 * s) & (cheb < 0.9 * s)
    if body.sum() < 16 or ring.sum() < 16:
        return False
    lab = cv2.cvtColor(np.ascontiguousarray(patch), cv2.COLOR_BGR2Lab).astype(np.float32)
    mid = np.median(lab[body], axis=0)
    if float(np.linalg.norm(mid - np.median(lab[ring], axis=0))) < params.big_body_dist:
        return False
    return float(np.mean(np.linalg.norm(lab[body] - mid, axis=1) < params.big_one_colour)) >= params.big_one_share


def _d6(k: int, probs: np.ndarray, crop: np.ndarray, centre, outline, light) -> Die:
    """The d6 of classifier class `k`, its body colour from its crop under the frame's light."""
    return Die(Kind.D6.value, int(learned.CLASSES[k]), name_colour(_centre_bgr(crop), light.for_die(crop)),
               centre, float(probs[k]), outline)


def _offset(centre, off, side: float) -> tuple[float, float]:
    """`centre` moved by the classifier's centre offset `off` (in die sides) for a die of `side`."""
    return centre[0] + float(off[0]) * side, centre[1] + float(off[1]) * side


def _inside(centre, frame: np.ndarray, margin: float) -> bool:
    """`centre` lies at least `margin` pixels inside the frame's edge."""
    h, w = frame.shape[:2]
    return min(centre[0], centre[1], w - 1 - centre[0], h - 1 - centre[1]) >= margin


def _cut_margin(side: float, frame_side: float, params: Params = DEFAULT_PARAMS) -> float:
    """How near the frame's edge a die's centre lies when the die is cut by
    it (outside): `cut_sides` of its side, at most `cut_frame_sides` of the
    frame's die side (a whole face, by the frame's die side, is not cut)."""
    m = params.cut_sides * side
    return min(m, params.cut_frame_sides * frame_side) if params.cut_frame_sides else m


def _split_look(frame: np.ndarray, keep: list[learned.Found], sides: list[float], probs: np.ndarray,
                offs: np.ndarray, lean: np.ndarray, models: learned.Models, light, frame_side: float,
                tray_lab: tuple[float, float, float], params: Params = DEFAULT_PARAMS) -> dict[int, list[Die]]:
    """The peaks that are two dice touching, found as one between them: {the
    peak's index: its dice}. A peak is looked at when the first look reads
    no value surely (`min_value_prob`) or reads it leaning, the lean network
    not sure of it; not when it lies near the frame's edge (`split_reach`
    sides). A peak in an oblong twice as long as wide (`_domino_dice`) is the two
    dice its halves read as, when both are read surely; else two or more
    dice found around it (`_around`, away from every
    other peak's sure answer) are its dice; one alone changes nothing (the
    peak is one die, read as before)."""
    leaning = (learned.CLASS_OF_WHY[COCKED], learned.CLASS_OF_WHY[STACKED])
    edge = params.split_reach * frame_side

    def unsure(i: int) -> bool:
        k = int(probs[i].argmax())
        return (lean[i] < params.lean_max_p and (k in leaning or (k < 6 and probs[i][k] < params.min_value_prob))
                and _inside(keep[i].center, frame, edge))

    look = [i for i in range(len(keep)) if unsure(i)]
    if not look:
        return {}
    taken = [_offset(keep[j].center, offs[j], sides[j])
             for j, p in enumerate(probs) if int(p.argmax()) < 6 and p.max() >= params.min_value_prob]
    pairs = _domino_dice(frame, [keep[i].center for i in look], taken, models, light, frame_side, tray_lab, params)
    out = {look[n]: two for n, two in pairs.items()}
    rest = [i for i in look if i not in out]
    found = _around(frame, [(keep[i].center, min(sides[i], frame_side)) for i in rest], taken, models, light,
                    frame_side, params)
    return out | {i: [d for d, _ in dice] for i, dice in zip(rest, found, strict=True)
                  if len(dice) >= 2 and not any(leans for _, leans in dice)}


def _domino_dice(frame: np.ndarray, places: list, taken: list, models: learned.Models, light, frame_side: float,
                 tray_lab: tuple[float, float, float], params: Params = DEFAULT_PARAMS) -> dict[int, list[Die]]:
    """The two dice of each place (a peak's centre) that lies in an oblong
    (`_domino`), {place's index: [die, die]}: its halves read where they
    are by the bigger classifier at `split_views` views, both at
    `min_value_prob`, the lean network not sure either leans, neither within
    `split_apart` sides of a centre in `taken` (were such a half taken for
    that die and the other answered alone, a leaning die beside a flat one
    would be answered: rendered scene 203002). `domino_min` 0: none."""
    if not params.domino_min:
        return {}
    halves = [(n, h) for n, c in enumerate(places) for h in _domino(frame, c, frame_side, tray_lab, params)]
    if not halves:
        return {}
    crops = [learned.crop_die(frame, c, s) for _, (c, s) in halves]
    read, _ = learned.classify(models.second or models.classifier, crops, params.split_views)
    leans = learned.lean_probs(models.lean, crops) if models.lean is not None else np.zeros(len(crops))
    got: dict[int, list[Die | None]] = {}
    for (n, (c, s)), p, crop, pl in zip(halves, read, crops, leans, strict=True):
        k = int(p.argmax())
        sure = (k < 6 and p[k] >= params.min_value_prob and pl < params.lean_max_p
                and not kinds.near_points(c, taken, params.split_apart * frame_side))
        got.setdefault(n, []).append(_d6(k, p, crop, c, square_outline(c, s), light) if sure else None)
    return {n: two for n, two in got.items() if None not in two}


def _domino(frame: np.ndarray, centre, frame_side: float, tray_lab, params: Params = DEFAULT_PARAMS) -> list:
    """Two touching dice found as one, seen as what they are: an oblong
    unlike the tray (Lab distance, the lightness counted `bg_l_weight`: a
    shadow is the tray darker), about twice as long as wide (`domino_min` to
    `domino_max`), round the peak: the centres of its two halves and their
    side, [(centre, side), ...]; [] for anything else."""
    r = int(round(params.domino_reach * frame_side))
    px, py = int(round(centre[0])), int(round(centre[1]))
    if not _inside((px, py), frame, r):  # its square of 2r pixels lies wholly in the frame
        return []
    x0, y0 = px - r, py - r
    lab = cv2.cvtColor(frame[y0:y0 + 2 * r, x0:x0 + 2 * r], cv2.COLOR_BGR2Lab).astype(np.float32)
    diff = (lab - np.float32(tray_lab)) * np.float32([params.bg_l_weight, 1.0, 1.0])
    dist = np.clip(np.sqrt((diff * diff).sum(axis=2)), 0, 255).astype(np.uint8)
    _, mask = cv2.threshold(dist, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    _, lab_img = cv2.connectedComponents(segment.clean_mask(mask, 4))
    own = lab_img[r, r]
    if own == 0:
        return []
    contours, _ = cv2.findContours((lab_img == own).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    (cx, cy), (a, b), ang = cv2.minAreaRect(max(contours, key=cv2.contourArea))
    long, short = max(a, b), min(a, b)
    if short < 0.5 * frame_side or not params.domino_min <= long / short <= params.domino_max:
        return []
    t = np.deg2rad(ang if a >= b else ang + 90.0)
    dx, dy = np.cos(t) * long / 4, np.sin(t) * long / 4
    # the oblong takes in the dice's shadow across it: a half's side is the smaller of its width
    # and the halves' distance
    return [((x0 + cx + s * dx, y0 + cy + s * dy), min(short, long / 2)) for s in (-1.0, 1.0)]


def _around(frame: np.ndarray, places: list, taken: list, models: learned.Models, light, frame_side: float,
            params: Params = DEFAULT_PARAMS) -> list[list[tuple[Die, bool]]]:
    """The d6 found around each place, (centre, side) each: crops of that
    side start `split_shifts` frame die sides from it in 8 directions and
    follow the classifier's centre offsets `split_steps` times. Where the
    classifier then reads a value at `split_ask_prob` (once for crops that
    met within `split_same` sides) and a die of the place may lie (within
    `split_reach` sides of the place, not cut by the frame's edge as at the
    first look: `cut_sides`, `cut_frame_sides`; `split_apart` frame die
    sides from every centre in `taken`), the bigger classifier reads at
    `split_views` views. The dice it reads at `split_min_prob`, that far
    apart (the surest first), the lean network not sure it leans:
    (die, leans) each."""
    if not places:
        return []
    turns = np.arange(8) * np.pi / 4
    owner = [i for i in range(len(places)) for _ in params.split_shifts for _ in turns]
    side = [places[i][1] for i in owner]
    centres = [(x + r * frame_side * np.cos(a), y + r * frame_side * np.sin(a))
               for (x, y), _ in places for r in params.split_shifts for a in turns]
    # its crops cut from the frame shrunk once when they are many: those of each read, and at
    # most as many again asked of the bigger classifier
    shrunk = learned.shrunk_for(frame, side * (params.split_steps + 2))
    for step in range(params.split_steps + 1):  # the last read is where the crops came to
        first, moved = learned.classify(models.classifier, [learned.crop_die(frame, c, s, shrunk=shrunk)
                                                             for c, s in zip(centres, side, strict=True)])
        if step < params.split_steps:
            centres = [_offset(c, o, s) for c, o, s in zip(centres, moved, side, strict=True)]
    # where the first net reads a value there, once for crops that met (the bigger one confirms)
    ask: list[int] = []
    for n in np.argsort(-first.max(axis=1)):
        i, (x, y) = owner[n], centres[n]
        if int(first[n].argmax()) < 6 and first[n].max() >= params.split_ask_prob and not kinds.near_points(
                (x, y), [centres[m] for m in ask if owner[m] == i], params.split_same * side[n]):
            ask.append(int(n))
    apart, reach = params.split_apart * frame_side, params.split_reach * frame_side

    def may_be(n: int) -> bool:
        """A place's die may lie where crop n came to: within reach of the place, not cut
        by the frame's edge (the first look's rule), away from every sure die."""
        (x, y), (px, py) = centres[n], places[owner[n]][0]
        return (np.hypot(x - px, y - py) <= reach and _inside((x, y), frame, _cut_margin(side[n], frame_side, params))
                and not kinds.near_points((x, y), taken, apart))

    ask = [n for n in ask if may_be(n)]  # the bigger classifier reads only where a die may be
    crops = [learned.crop_die(frame, centres[n], side[n], shrunk=shrunk) for n in ask]
    read, _ = learned.classify(models.second or models.classifier, crops, params.split_views) if ask else ([], [])
    kept: list[list[int]] = [[] for _ in places]
    for j in sorted(range(len(ask)), key=lambda j: -float(read[j].max())):
        n = ask[j]
        i, k, (x, y) = owner[n], int(read[j].argmax()), centres[n]
        if k >= 6 or read[j][k] < params.split_min_prob:
            continue
        if not kinds.near_points((x, y), [centres[ask[m]] for m in kept[i]], apart):
            kept[i].append(j)
    every = [j for js in kept for j in js]
    leans = dict.fromkeys(every, 0.0)
    if models.lean is not None and every:
        leans = dict(zip(every, learned.lean_probs(models.lean, [crops[j] for j in every]), strict=True))
    out: list[list[tuple[Die, bool]]] = []
    for js in kept:
        dice = []
        for j in js:
            outline = square_outline(centres[ask[j]], side[ask[j]])
            dice.append((_d6(int(read[j].argmax()), read[j], crops[j], centres[ask[j]], outline, light),
                         bool(leans[j] >= params.lean_max_p)))
        out.append(dice)
    return out


def _last_look(frame: np.ndarray, low: list, models: learned.Models, light, frame_side: float,
               params: Params):
    """The dice neither sure enough nor confirmed by the pip count, looked at
    once more: the bigger classifier on the die's crop at its found centre,
    at `low_views` turns and mirrors averaged (a dark die's red pips, a
    swirled body: four views settle what two left open). Answered only at
    `low_min_prob`, and after the lean network (which the first look asks
    only of dice read at `agree_min_prob`). Those still unsure are looked at
    `far_shift` sides higher up the frame (`_far_look`). The rest: `low
    confidence`."""
    if params.low_views < 2:
        return [], [Rejection(c, LOW_CONFIDENCE, o, det) for c, _, o, det, _ in low]
    net = models.second or models.classifier
    crops = [learned.crop_die(frame, c, side) for c, side, _, _, _ in low]
    probs, _ = learned.classify(net, crops, params.low_views)
    ask = [i for i, (p, x) in enumerate(zip(probs, low, strict=True))
           if int(p.argmax()) < 6 and p.max() >= params.low_min_prob and not x[4]]
    lean = np.zeros(len(low), np.float32)
    if models.lean is not None and ask:
        lean[ask] = learned.lean_probs(models.lean, [crops[i] for i in ask])
    dice, still = [], []
    for x, p, crop, pl in zip(low, probs, crops, lean, strict=True):
        k = int(p.argmax())
        if k < 6 and p[k] >= params.low_min_prob and pl < params.lean_max_p:
            dice.append(_d6(k, p, crop, x[0], x[2], light))
        else:
            still.append((x[0], x[1], x[2], f"{x[3]} last={p.max():.2f}"))
    far, rejected = _far_look(frame, still, models, light, frame_side, params)
    return dice + far, rejected


def _whole_crop(frame: np.ndarray, dice: list[Die], rejected: list[Rejection], models: learned.Models,
                light, params: Params) -> tuple[list[Die], list[Rejection]]:
    """A close-up frame (a crop of one die) where every die answered and every
    thing refused is a piece of a die filling the frame (smaller than
    `whole_sides` of the frame's shorter side: a pip read as a 1, a corner
    refused as blurred), or refused only as not read surely or as an unknown
    object: the found peaks cut through the die or took a pip for its
    centre. The bigger classifier at `low_views` views reads the frame's
    middle at `whole_sides` of its shorter side; the value is answered (in
    place of the pieces and refusals) when every one of them reads one d6
    value, at `whole_min_prob` on average, a 1 only where the face's middle
    shows one round mark and nothing else (`_one_round_mark`: a numeral 6's
    loop reads as a 1 to the classifier, and the rest of the 6 shows), and
    the lean network does not see it lean. Else all stays as it was."""
    h, w = frame.shape[:2]
    piece = min(params.whole_sides) * min(h, w)
    if any(kinds.blob_side(d.outline, piece) >= piece for d in dice) or any(
            r.why not in (LOW_CONFIDENCE, UNKNOWN) and kinds.blob_side(r.outline, piece) >= piece
            for r in rejected):
        return dice, rejected
    centre = (w / 2.0, h / 2.0)
    crops = [learned.crop_die(frame, centre, f * min(h, w)) for f in params.whole_sides]
    probs, _ = learned.classify(models.second or models.classifier, crops, params.low_views)
    ks = {int(p.argmax()) for p in probs}
    k = ks.pop() if len(ks) == 1 else learned.OTHER
    mean = probs.mean(axis=0)
    if k >= 6 or mean[k] < params.whole_min_prob:
        return dice, rejected
    best = int(np.argmax([p[k] for p in probs]))
    if learned.CLASSES[k] == 1 and not _one_round_mark(crops[params.whole_sides.index(min(params.whole_sides))],
                                                       params):  # the face's middle: the smallest crop
        return dice, rejected
    if models.lean is not None and learned.lean_probs(models.lean, [crops[best]])[0] >= params.lean_max_p:
        return dice, rejected
    side = params.whole_sides[best] * min(h, w)
    return [_d6(k, mean, crops[best], centre, square_outline(centre, side), light)], []


def _ones_without_a_pip(frame: np.ndarray, dice: list[Die], params: Params) -> tuple[list[Die], list[Rejection]]:
    """The dice answered in a close-up frame (a crop of one die), but a 1
    where no pip shows near the middle (`_a_pip_near_the_middle`) of a face
    as wide as its own outline, as the smallest or as the biggest of
    `whole_sides` of the frame's shorter side (`mark_face_part` of that face
    looked at): a numeral 5, 6 or 9 filling the frame, its loop or bowl
    read as a pip. Refused as not read surely."""
    h, w = frame.shape[:2]
    piece = min(params.whole_sides) * min(h, w)
    keep, refused = [], []
    for d in dice:
        side = kinds.blob_side(d.outline, piece)
        if d.kind != Kind.D6 or d.value != 1 or any(
                _a_pip_near_the_middle(learned.crop_die(frame, d.center, s * params.mark_face_part / learned.CROP_SIDES),
                                       params) for s in (side, piece, max(params.whole_sides) * min(h, w))):
            keep.append(d)
        else:
            refused.append(Rejection(d.center, LOW_CONFIDENCE, d.outline, "a 1 with no pip near its middle"))
    return keep, refused


def _without_pips_of_a_bigger_die(dice: list[Die], params: Params) -> list[Die]:
    """The dice answered in a close-up frame, but those whose centre lies inside
    the outline of a die answered `pip_die_sides` times as wide or more: a
    pip of a die filling the frame, found as a die of its own (dice do not
    lie inside each other; one on another is refused by the lean network)."""
    def inside(d: Die, big: Die) -> bool:
        return (big is not d and len(big.outline) >= 3
                and kinds.blob_side(big.outline) >= params.pip_die_sides * kinds.blob_side(d.outline)
                and cv2.pointPolygonTest(np.asarray(big.outline, np.float32), d.center, False) > 0)
    return [d for d in dice if not any(inside(d, big) for big in dice)]


def _one_round_mark(crop: np.ndarray, params: Params) -> bool:
    """Does a die face's middle (a BGR crop) show one mark, round, at its
    centre, at most `mark_max_part` of its area, and no other mark of
    `mark_min_part` of its area or more (grey, Otsu's threshold, the
    centre's side of it as the marks), solid (`mark_min_solid` of its convex
    hull)? A 1's pip does; a numeral's loop has the rest of the numeral
    beside it, or is of the face's own colour, and a numeral's stroke is
    hollow."""
    marks = _lighter_half(crop)
    h, w = marks.shape
    if marks[h // 2 - 1:h // 2 + 2, w // 2 - 1:w // 2 + 2].mean() < 128:
        marks = 255 - marks
    n, labels, stats, _ = cv2.connectedComponentsWithStats(marks)
    middle = labels[h // 2, w // 2]
    big = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= params.mark_min_part * h * w]
    if middle == 0 or big != [middle] or stats[middle, cv2.CC_STAT_AREA] > params.mark_max_part * h * w:
        return False
    return _round_and_solid((labels == middle).astype(np.uint8), params)


def _lighter_half(crop: np.ndarray) -> np.ndarray:
    """A BGR crop of a die's face split in two by Otsu's threshold of its grey
    (a little blurred): 255 where lighter, 0 where darker."""
    grey = cv2.GaussianBlur(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    return cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[1]


def _round_and_solid(mark: np.ndarray, params: Params) -> bool:
    """Is a mark (a 0/1 mask of one component) round (`mark_min_round`:
    4 pi area / perimeter^2) and solid (`mark_min_solid` of its convex hull),
    as a pip is?"""
    outline, _ = cv2.findContours(mark, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    outline = max(outline, key=cv2.contourArea)
    area = float(mark.sum())
    round_ = 4 * np.pi * area / max(cv2.arcLength(outline, True), 1.0) ** 2
    solid = area / max(cv2.contourArea(cv2.convexHull(outline)), 1.0)
    return bool(round_ >= params.mark_min_round and solid >= params.mark_min_solid)


def _a_pip_near_the_middle(crop: np.ndarray, params: Params) -> bool:
    """Does a crop of a die's face show a pip near its middle: a mark (lighter
    or darker than what is round it, Otsu's threshold of grey) within
    `pip_off_middle` of the crop's side of its centre, of `mark_min_part` to
    `mark_max_part` of its area, round and solid (`_round_and_solid`),
    touching no edge of the crop, and lying on the face: what is round it
    reaches the crop's edge and makes `pip_face_rim` of the crop's rim or
    more. The hole of a numeral 6's loop lies on the numeral, not on the
    face; a 5's stroke is hollow."""
    light = _lighter_half(crop)
    h, w = light.shape
    parts = [cv2.connectedComponentsWithStats(m) for m in (light, 255 - light)]

    def on_edge(stats: np.ndarray, i: int) -> bool:
        x, y, bw, bh = stats[i, :4]
        return x == 0 or y == 0 or x + bw >= w or y + bh >= h

    best, best_off = None, params.pip_off_middle * min(h, w)
    for side, (n, labels, stats, centres) in enumerate(parts):
        _, round_labels, round_stats, _ = parts[1 - side]
        rim = np.concatenate([round_labels[0], round_labels[-1], round_labels[:, 0], round_labels[:, -1]])
        for i in range(1, n):
            off = float(np.hypot(centres[i][0] - w / 2, centres[i][1] - h / 2))
            if on_edge(stats, i) or off >= best_off or not (
                    params.mark_min_part * h * w <= stats[i, cv2.CC_STAT_AREA] <= params.mark_max_part * h * w):
                continue
            mark = (labels == i).astype(np.uint8)
            touching = np.unique(round_labels[(cv2.dilate(mark, np.ones((3, 3), np.uint8)) > 0) & (mark == 0)])
            touching = touching[touching > 0]
            if len(touching) and all(on_edge(round_stats, j) for j in touching) and (
                    np.isin(rim, touching).mean() >= params.pip_face_rim):
                best, best_off = mark, off
    return best is not None and _round_and_solid(best, params)


def _far_look(frame: np.ndarray, low: list, models: learned.Models, light, frame_side: float,
              params: Params):
    """The dice the last look left unsure, (centre, side, outline, detail)
    each, looked at `far_shift` sides up the frame: a camera that looks
    forward and down (a phone, a camera not over the tray) sees a die's top
    face above its front face, foreshortened, and the front face can be the
    bigger; a crop centred on the die's outline then holds two faces. The
    bigger classifier at `low_views` views reads the crop up there and a
    crop of the top face alone, `top_width` sides wide, `top_squash` of
    that tall stretched to square (a face seen far from above is flatter
    still); the surer read is answered at `far_min_prob`, neither when
    both read a different value that surely, the lean network not against
    it, centred where it looked; not on a peak wider than `far_max_sides`
    of the frame's die side (`frame_side`). The rest: `low confidence`."""
    look = [i for i, (_, side, _, _) in enumerate(low)
            if params.far_shift > 0 and side <= params.far_max_sides * frame_side]
    reads = _far_reads(frame, [low[i][:2] for i in look], models, params)
    moved = {i: r[0] for i, r in zip(look, reads, strict=True)}
    probs = {i: r[1] for i, r in zip(look, reads, strict=True)}
    crops = {i: r[2] for i, r in zip(look, reads, strict=True)}
    ask = [i for i in look if int(probs[i].argmax()) < 6 and probs[i].max() >= params.far_min_prob]
    lean = dict.fromkeys(ask, 0.0)
    if models.lean is not None and ask:
        lean = dict(zip(ask, learned.lean_probs(models.lean, [crops[i] for i in ask]), strict=True))
    dice, rejected = [], []
    for i, (c, _, outline, detail) in enumerate(low):
        if i in lean and lean[i] < params.lean_max_p:
            k, dy = int(probs[i].argmax()), moved[i][1] - c[1]
            dice.append(_d6(k, probs[i], crops[i], moved[i], tuple((x, y + dy) for x, y in outline), light))
        else:
            far = f" far={probs[i].max():.2f}" if i in probs else ""
            rejected.append(Rejection(c, LOW_CONFIDENCE, outline, detail + far))
    return dice, rejected


def _weak_from_above(frame: np.ndarray, dice: list[Die], models: learned.Models, light, frame_side: float,
                     params: Params) -> list[Die]:
    """The answers, but a d6 answered less surely than `above_below` that
    the top face's own crop up the frame (as `_far_reads` takes it:
    stretched to square) reads as another value at `above_min_prob` takes
    that value, centred there: a camera that looks forward and down sees
    the front face below the top face, and a weak answer was its value
    (on the training sides: aws-oblique 3 wrong answers right, matteop65 1,
    and no answer of nell-byler, casino-felt, the fixtures or the rendered
    cocked scenes changed)."""
    ask = [i for i, d in enumerate(dice) if d.kind == Kind.D6.value and d.confidence < params.above_below
           and d.outline and kinds.blob_side(d.outline) <= params.far_max_sides * frame_side]
    if not ask or params.top_squash <= 0:
        return dice
    moved, tops = _top_crops(frame, [(dice[i].center, kinds.blob_side(dice[i].outline)) for i in ask], params)
    probs, _ = learned.classify(models.second or models.classifier, tops, params.low_views)
    out = list(dice)
    for i, m, p, top in zip(ask, moved, probs, tops, strict=True):
        k, d = int(p.argmax()), dice[i]
        if k < 6 and p[k] >= params.above_min_prob and learned.CLASSES[k] != d.value:
            dy = m[1] - d.center[1]
            out[i] = _d6(k, p, top, m, tuple((x, y + dy) for x, y in d.outline), light)
    return out


def _far_reads(frame: np.ndarray, items: list, models: learned.Models, params: Params) -> list:
    """(centre, side) each -> (where it looked, probabilities, crop): the
    bigger classifier at `low_views` views on the crop `far_shift` sides up
    the frame and on the top face's own crop there (`top_width` sides wide,
    `top_squash` of that tall, stretched to square); the surer of the two,
    and all zeros when both read a different value at `far_min_prob`."""
    if not items:
        return []
    moved, tops = _top_crops(frame, items, params)
    crops = [learned.crop_die(frame, m, side) for m, (_, side) in zip(moved, items, strict=True)]
    net = models.second or models.classifier
    probs, _ = learned.classify(net, crops, params.low_views)
    out = list(zip(moved, probs, crops, strict=True))
    if params.top_squash <= 0:
        return out
    pt, _ = learned.classify(net, tops, params.low_views)
    for j, (p, q, top) in enumerate(zip(probs, pt, tops, strict=True)):
        a, b = int(p.argmax()), int(q.argmax())
        if a < 6 and b < 6 and a != b and min(p[a], q[b]) >= params.far_min_prob:
            out[j] = (moved[j], np.zeros_like(q), crops[j])  # two faces read surely: neither
        elif q.max() > p.max():
            out[j] = (moved[j], q, top)
    return out


def _top_crops(frame: np.ndarray, items: list, params: Params) -> tuple[list, list]:
    """(centre, side) each -> the places `far_shift` sides up the frame and
    the top face's own crop there: `top_width` sides wide, `top_squash` of
    that tall, stretched to square (none when `top_squash` is 0)."""
    moved = [(c[0], c[1] - params.far_shift * side) for c, side in items]
    tops = [] if params.top_squash <= 0 else [
        learned.crop_die(frame, m, params.top_width * side, squash=params.top_squash)
        for m, (_, side) in zip(moved, items, strict=True)]
    return moved, tops


def _without_side_faces(dice: list[Die], frame_side: float, params: Params = DEFAULT_PARAMS) -> list[Die]:
    """The answers but those that look like a bigger answer's side face: a
    small one whose square the bigger's would overlap (two flat dice's top
    faces cannot). Left out, not refused: it is a die already answered (a
    small die half hidden by a big one in front goes too; the station's
    dice count then asks for the throw again)."""
    if len(dice) < 2:
        return dice
    sides = np.array([kinds.blob_side(d.outline) for d in dice])
    xy = np.array([d.center for d in dice], np.float64)
    dist = np.hypot(*(xy[:, None, :] - xy[None, :, :]).transpose(2, 0, 1))  # (i, j)
    bigger = sides[None, :] >= params.side_face_ratio * sides[:, None]
    overlap = dist < (sides[:, None] + sides[None, :]) / 2
    face = (sides < params.side_face_max * frame_side) & (bigger & overlap).any(axis=1)
    return [d for d, f in zip(dice, face, strict=True) if not f]


def _off_a_close_die(frame: np.ndarray, dice: list[Die], frame_side: float,
                     params: Params = DEFAULT_PARAMS) -> tuple[list[Die], list[Rejection]]:
    """The answers, but a d8, d10 or d10t read on a piece of a die
    photographed close (`numerals.big_objects`, no wider than
    `close_die_frame` of the frame) well off its middle (`close_off_middle`
    of its side) is refused: the face seen from the front lies in the
    middle, a numeral off it is on a side face."""
    numeral = [d for d in dice if d.kind in numerals.ANSWERED]
    if not numeral or len(dice) > 2 or params.close_off_middle <= 0:
        return dice, []
    big = [(c, s) for c, s in numerals.big_objects(frame, numerals.BIG_SIDES * frame_side)
           if s <= params.close_die_frame * max(frame.shape[:2])]
    off = {}
    for d in numeral:
        for c, s in big:
            r = math.dist(d.center, c) / s
            if params.close_off_middle <= r < numerals.BIG_PIECES and kinds.blob_side(d.outline) * params.close_piece <= s:
                off[id(d)] = Rejection(d.center, "unreadable", d.outline,
                                       f"read {d.kind} {d.value} {r:.2f} of a close die's side off its middle: "
                                       "a side face")
    return [d for d in dice if id(d) not in off], list(off.values())


def _big_leaning(frame: np.ndarray, dice: list[Die], frame_side: float,
                 params: Params = DEFAULT_PARAMS) -> tuple[list[Die], list[Rejection]]:
    """The answers, but a d6 found as big as `big_lean_sides` frame die
    sides that the lean network thinks leans (P >= `big_lean_p`, below the
    `lean_max_p` every die must pass) is refused: from above, a cocked die
    shows its sides with its top, a stacked one lies nearer the camera."""
    big = [(d, kinds.blob_side(d.outline)) for d in dice if d.kind == "d6"]
    big = [(d, s) for d, s in big if s >= params.big_lean_sides * frame_side]
    lean = kinds.lean_p(frame, [d.center for d, _ in big], [s for _, s in big]) if big else None
    if lean is None:
        return dice, []
    leaning = [(d, s, float(p)) for (d, s), p in zip(big, lean, strict=True) if p >= params.big_lean_p]
    gone = {id(d) for d, _, _ in leaning}
    return [d for d in dice if id(d) not in gone], [
        Rejection(d.center, COCKED, d.outline, f"found {s / frame_side:.2f} sides wide, lean={p:.2f}", leans=True)
        for d, s, p in leaning]


def is_speck(frame: np.ndarray, die: Die, frame_side: float, params: Params = DEFAULT_PARAMS) -> bool:
    """Is an answer a speck on the tray (or two, read as a 2), not a die? Its
    value is one a speck is read as, its peak smaller than the frame's dice,
    and no die is round it (`no_die_round`), looked for at least
    `speck_ring` of the frame's die side out: on a peak much smaller than a
    die, the speck's own blur and a second speck beside it fill the ring
    where the outline would be (nell-byler's white tray)."""
    side = kinds.blob_side(die.outline)
    return (die.value in params.speck_values and side < params.speck_side * frame_side
            and no_die_round(frame, die.center, max(side, params.speck_ring * frame_side), frame_side, params))


def no_die_round(frame: np.ndarray, centre: tuple[float, float], side: float, frame_side: float,
                 params: Params = DEFAULT_PARAMS) -> bool:
    """Is a pip (or two) read as a 1 (or 2) alone on the tray? True when the ring where its
    die's outline would be (0.35-0.85 of `side` from it) shows no edge in
    lightness or colour, and the ring where its body would be (0.2-0.45)
    is of the colour of what lies 1-1.6 `frame_side` away: a dark speck on
    a white tray (nell-byler's photos of one session have one, read as a
    small white die's 1), a black die's pip on black felt (its other pip out
    of the detector's small box)."""
    x, y = float(centre[0]), float(centre[1])

    def around(radius: float, step: int = 1):
        """The frame's Lab pixels within `radius` of the centre (every `step`-th),
        and their distances from it."""
        r = int(np.ceil(radius)) + 1
        x0, y0 = max(0, int(x) - r), max(0, int(y) - r)
        patch = frame[y0 : int(y) + r + 1 : step, x0 : int(x) + r + 1 : step]
        if patch.shape[0] < 5 or patch.shape[1] < 5:
            return None, None
        yy, xx = np.ogrid[y0 : y0 + step * patch.shape[0] : step, x0 : x0 + step * patch.shape[1] : step]
        return cv2.cvtColor(np.ascontiguousarray(patch), cv2.COLOR_BGR2Lab).astype(np.float32), np.hypot(xx - x, yy - y)

    lab, dist = around(0.85 * side)
    if lab is None:
        return False
    outline = (dist >= 0.35 * side) & (dist <= 0.85 * side)
    body = (dist >= 0.2 * side) & (dist <= 0.45 * side)
    if not outline.any() or not body.any():
        return False
    edge = np.max([np.hypot(cv2.Sobel(ch, cv2.CV_32F, 1, 0), cv2.Sobel(ch, cv2.CV_32F, 0, 1))
                   for ch in cv2.split(lab)], axis=0)
    if float(np.percentile(edge[outline], 90)) >= params.speck_edge:
        return False  # a die's outline (most 1s stop here)
    far, far_dist = around(1.6 * frame_side, 2)  # a median of colour: every 4th pixel is as good
    beyond = None if far is None else (far_dist >= frame_side) & (far_dist <= 1.6 * frame_side)
    if beyond is None or not beyond.any():
        return False
    gap = np.median(lab[body], axis=0) - np.median(far[beyond], axis=0)
    return float(np.linalg.norm(gap)) < params.speck_colour


def found_side(found: list[learned.Found], params: Params = DEFAULT_PARAMS) -> float:
    """The frame's typical die side (frame pixels): the median side of the
    detector's peaks at least `side_ref_score` as strong as the strongest.
    A cloth printed with small motifs gives many weak peaks the size of a
    motif; the median of them all made the dice's crops half their size (a
    bartek photo's four d10 then went unread)."""
    top = max((f.score for f in found), default=0.0)
    ref = [f.side_px for f in found if f.score >= params.side_ref_score * top]
    return float(np.median(ref)) if ref else 1.0


def _foreshortened(frame: np.ndarray, dice: list[Die], rejected: list[Rejection], frame_side: float,
                   tray_lab: tuple[float, float, float],
                   params: Params = DEFAULT_PARAMS) -> tuple[list[Die], list[Rejection]]:
    """The answers, but a d6 3, 4 or 5 whose top face is seen at a slant in
    a frame seen from above is refused cocked. From above, a flat die's pips
    are round and its 4 or 5 a square; a die leaning 24-42 degrees on another
    or on the tray's wall squashes both along its lean (by its cosine), and
    the networks still read its value. A 3 shows it by its pips alone: all
    squashed the same way. Only a die with something to lean on is looked
    at: another die beside it, or the frame's edge (a tray's wall). In a
    photo taken at a slant every flat die is squashed so: the median pip of
    the die and its nearest d6 tells."""
    d6 = [d for d in dice if d.kind == "d6"]
    if len(d6) < params.top_down_min_dice:
        return dice, []
    xy = np.array([d.center for d in dice] + [r.center for r in rejected], np.float64)
    wall = params.lean_wall_sides * frame_side

    def leans_on_something(d: Die) -> bool:
        x, y = d.center
        if not _inside(d.center, frame, wall):
            return True
        dist = np.hypot(xy[:, 0] - x, xy[:, 1] - y)
        return bool(((dist > 1e-6) & (dist < params.lean_on_sides * frame_side)).any())

    faces: dict[int, FaceRead] = {}  # a die's classical face, read once (a neighbour of two, or flagged)

    def face(d: Die) -> FaceRead:
        if id(d) not in faces:
            faces[id(d)] = pip_face(frame, d.center, frame_side, tray_lab, params)
        return faces[id(d)]

    slanted = []
    for d in d6:
        if d.value not in (3, 4, 5) or not leans_on_something(d):
            continue
        why = _squashed(face(d), d.value, params)
        if why and _seen_from_above(d, d6, face, params):
            slanted.append((d, why))
    gone = {id(d) for d, _ in slanted}
    return [d for d in dice if id(d) not in gone], [
        Rejection(d.center, COCKED, d.outline, f"top face squashed: {why}", leans=True) for d, why in slanted]


def _squashed(f: FaceRead, value: int, params: Params = DEFAULT_PARAMS) -> str:
    """Why the classical reader's face `f` of a die answered `value` looks
    seen at a slant, or ''."""
    if f.value != value or not f.pips:
        return ""
    r = float(np.median([p.axis_ratio for p in f.pips]))
    if value in (4, 5) and r < params.foreshortened_pips:
        aniso = fit_layout(np.array([p.center for p in f.pips]), len(f.pips))[2]
        if aniso < params.foreshortened_aniso:
            return f"layout {aniso:.2f}, pips {r:.2f}"
    elif value == 3 and r < params.foreshortened_pips_3:
        turns = np.exp(2j * np.deg2rad([p.angle_deg for p in f.pips]))
        if abs(turns.mean()) >= params.pips_aligned:
            return f"pips {r:.2f}, all long the same way"
    return ""


def _seen_from_above(die: Die, d6: list[Die], face, params: Params = DEFAULT_PARAMS) -> bool:
    """Whether the median pip of `die` and its nearest d6 (at most
    `top_down_near`, at least `top_down_min_dice` read in all; `face(d)` is a
    die's classical face) is as round as from above."""
    near = sorted((d for d in d6 if d is not die),
                  key=lambda d: np.hypot(d.center[0] - die.center[0], d.center[1] - die.center[1]))
    faces = [face(d) for d in [die] + near[:params.top_down_near]]
    round_ = [float(np.median([p.axis_ratio for p in f.pips])) for f in faces if f.value and f.pips]
    return len(round_) >= params.top_down_min_dice and float(np.median(round_)) >= params.top_down_pips


def pip_count(frame: np.ndarray, centre: tuple[float, float], side_px: float,
              tray_lab: tuple[float, float, float], params: Params = DEFAULT_PARAMS) -> int | None:
    """The classical reader's value for one die found by the detector: the
    die's region grown from a disc at its centre, its pips, the layout fit.
    None when it can't tell."""
    face = pip_face(frame, centre, side_px, tray_lab, params)
    if face.value is None or face.confidence < params.min_confidence:
        return None
    return int(face.value)


def pip_face(frame: np.ndarray, centre: tuple[float, float], side_px: float,
             tray_lab: tuple[float, float, float], params: Params = DEFAULT_PARAMS) -> FaceRead:
    """The classical reader's face (value and pips, crop pixels) of one die
    found by the detector."""
    c = params.crop_side_px
    crop = learned.crop_die(frame, centre, side_px, out_px=c, sides=1 + 2 * params.crop_margin)
    die_px = c / (1 + 2 * params.crop_margin)
    seed = np.zeros((c, c), np.uint8)
    cv2.circle(seed, (c // 2, c // 2), int(die_px * 0.45), 255, -1)
    mask = refine_mask(crop, seed, tray_lab, params)
    e = max(1, round(c * params.mask_erode_frac))
    mask = cv2.erode(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * e + 1, 2 * e + 1)))
    face_side = float(np.sqrt(max(1.0, float(np.count_nonzero(mask)))))
    pips, field = find_pips(crop, mask, face_side, params)
    mom = cv2.moments(mask, binaryImage=True)
    fc = (mom["m10"] / mom["m00"], mom["m01"] / mom["m00"]) if mom["m00"] else (c / 2, c / 2)
    return read_face(pips, field, face_side, fc, params)


def _centre_bgr(crop: np.ndarray) -> np.ndarray:
    """The body colour: median of the middle of the die's crop (pips are a
    minority there)."""
    n = crop.shape[0]
    r = max(2, round(n / learned.CROP_SIDES * 0.3))
    mid = crop[n // 2 - r : n // 2 + r, n // 2 - r : n // 2 + r]
    return np.median(mid.reshape(-1, 3), axis=0)
