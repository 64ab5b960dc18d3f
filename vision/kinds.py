"""What kind of die a blob is, and reading what the d6 reader could not.

`reread` is the d6 reader's hook: it gets the pip reader's answers and
refusals of a frame and returns them with every other kind read (d8, d10,
d10t, taba, a taught set), by the face network (vision.faces).

Two reads must agree before a die is answered, else it is refused:

- without a profile: the network on the die's crop and on the same crop
  turned a quarter turn (the network has learnt any rotation, so a real
  numeral reads the same both ways; a doubtful one does not);
- with a profile (a taught set): the network's answer, restricted to the
  faces the profile was taught, and a vote of the profile's nearest taught
  faces (embeddings of the network's penultimate layer). When they differ,
  the vote wins only when it is unanimous and the network gives its answer
  some probability.

Dice the blob finder missed (touching dice, shadows) are proposed by running
the network over the whole frame (`_scan`) when a profile is given or when
the frame shows dice other than d6. A pip reader's d6 answer stands unless
the network is sure the die is another kind (a d8's 8 is not a d6's 1) or a
profile's vote reads it otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision import faces
from vision.profile import Profile
from vision.types import Die, Rejection

KEEP_REFUSED = ("outside", "stacked")  # refusals no other reader may overturn
NOT_D6_MIN_P = 0.9  # the network's P(another kind) that overturns a pip reader's d6 answer
SUSPECT_D6_VALUES = (1, 2)  # a numeral's ink looks like one pip (a d8's 8: two)
PIPS_SURE = 0.93  # a pip answer this sure stands: the face network mistakes coloured
# 1s and 2s for numerals (rendered numeral dice read as 1/2 at <= 0.91)
MIN_P = 0.7  # the network's probability of its answer (mean of the two reads)
MIN_P_SCAN = 0.85  # the same for a die found only by the scan (no blob)
PEAK_MIN_P = 0.5  # a scan cell is a die when P(not none) is above this
SIDE_CLAMP = (0.6, 1.6)  # a blob this much off the typical side is not one die: use typical
MERGE_SIDES = 0.6  # answers closer than this many die sides are one die
KNN_K = 7
KNN_MIN_VOTE = 0.7  # share of the k nearest that agree
KNN_OVERRULE_P = 0.3  # the vote overrules the network only if the network gives it this much
MAX_SCAN_PX = 1.2e6  # the scan's input, at most (pixels)
UNREADABLE = "unreadable"
NOT_READ = "not read"


def blob_side(outline: tuple, fallback: float = 20.0) -> float:
    if len(outline) >= 3:
        return float(np.sqrt(max(1.0, cv2.contourArea(np.asarray(outline, np.float32)))))
    return fallback


@dataclass(frozen=True)
class _Read:
    centre: tuple[float, float]
    side: float
    probs: np.ndarray  # mean of the reads
    agree: bool  # both reads' best class is the same
    emb: np.ndarray | None


def reread(frame: np.ndarray, dice: list[Die], rejected: list[Rejection],
           profile: Profile | None) -> tuple[list[Die], list[Rejection]]:
    """The d6 reader's answers and refusals, with other kinds read."""
    net = faces.load_net()
    if net is None:
        return list(dice), list(rejected)
    kept = [r for r in rejected if r.why in KEEP_REFUSED]
    items: list[Die | Rejection] = list(dice) + [r for r in rejected if r.why not in KEEP_REFUSED]
    typical = _typical_side(frame, items, profile)
    if typical is None:
        return list(dice), list(rejected)
    answers: list[Die] = []
    if profile is None:
        # a pip answer stands unless the network is sure it is another kind;
        # only values a numeral's ink can fake are looked at (one read: time)
        sus = [d for d in dice if d.kind == "d6" and d.value in SUSPECT_D6_VALUES
               and d.confidence < PIPS_SURE]
        probs, _ = net.forward([faces.crop(frame, d.center, _clamp(blob_side(d.outline, typical),
                                                                   typical)) for d in sus])
        kp = faces.kind_probs(probs) if len(sus) else {}
        other = {id(d): sum(float(kp[k][i]) for k in faces.KINDS if k != "d6")
                 for i, d in enumerate(sus)}
        answers = [d for d in dice if other.get(id(d), 0.0) < NOT_D6_MIN_P]
        items = [d for d in dice if other.get(id(d), 0.0) >= NOT_D6_MIN_P] + items[len(dice):]
    sides = [_clamp(blob_side(it.outline, typical), typical) for it in items]
    reads = _read_at(net, frame, [it.center for it in items], sides)
    refused: list[Rejection] = []
    for it, rd in zip(items, reads, strict=True):
        d = _decide(rd, it.outline, profile)
        if isinstance(d, Die) and (profile is not None or d.kind != "d6"):
            answers.append(d)
        elif isinstance(it, Die) and profile is not None and _pips_stand(it, rd, profile):
            answers.append(it)  # a taught d6 face the network did not read: the pips stand
        else:
            why = it.why if isinstance(it, Rejection) else NOT_READ
            if d == UNREADABLE:
                why = UNREADABLE
            refused.append(Rejection(it.center, why, it.outline, f"faces: {d}"))
    if profile is not None or any(a.kind != "d6" for a in answers):
        answers, refused = _add_scanned(net, frame, typical, answers, refused, profile)
    answers = _merge(answers, typical)
    refused = [r for r in refused if not _near(r.center, answers, MERGE_SIDES * typical)]
    answers = [a for a in answers if not _near(a.center, kept, MERGE_SIDES * typical)]
    return answers, refused + kept


# ----------------------------------------------------------------------------- reads


def _read_at(net: faces.FaceNet, frame: np.ndarray, centres, sides) -> list[_Read]:
    """Two reads per die: the crop upright and turned a quarter turn."""
    if not centres:
        return []
    crops = [faces.crop(frame, c, s, a) for c, s in zip(centres, sides, strict=True)
             for a in (0.0, 90.0)]
    probs, emb = net.forward(crops)
    out = []
    for i, (c, s) in enumerate(zip(centres, sides, strict=True)):
        p0, p1 = probs[2 * i], probs[2 * i + 1]
        e = emb[2 * i] + emb[2 * i + 1]
        out.append(_Read(tuple(map(float, c)), float(s), (p0 + p1) / 2,
                         int(p0.argmax()) == int(p1.argmax()), e / (np.linalg.norm(e) + 1e-6)))
    return out


def _decide(rd: _Read, outline, profile: Profile | None, min_p: float = MIN_P) -> Die | str:
    """A die, or why not (a refusal's reason)."""
    probs = rd.probs
    if profile is not None:
        allowed = np.zeros(len(faces.CLASSES), bool)
        allowed[:2] = True
        for kv in profile.classes:
            i = faces.class_index(*kv)
            if i is not None:
                allowed[i] = True
        probs = np.where(allowed, probs, 0.0)
        probs = probs / max(1e-6, probs.sum())
    best = int(probs.argmax())
    kind, value = faces.CLASSES[best]
    p = float(probs[best])
    set_name = None
    if profile is not None and len(profile.features):
        vote, share, set_name = _knn(profile, rd.emb)
        if vote is not None and vote != best:
            if share >= 1.0 and probs[vote] >= KNN_OVERRULE_P:
                best, p = vote, float(probs[vote])
                kind, value = faces.CLASSES[best]
            else:
                return NOT_READ
        elif vote is None:
            if kind in (faces.NONE, faces.UNREADABLE) and p >= min_p:
                return "unknown object" if kind == faces.NONE else UNREADABLE
            return NOT_READ
    elif not rd.agree:
        return NOT_READ
    if kind == faces.NONE:
        return "unknown object"
    if kind == faces.UNREADABLE:
        return UNREADABLE
    if p < min_p:
        return NOT_READ
    colour = None
    if profile is not None and set_name is not None:
        s = profile.set_named(set_name)
        colour = s.colour if s else None
    if kind == "taba":
        colour = colour or "bone"
    return Die(kind, value, colour, rd.centre, p, tuple(outline))


def _knn(profile: Profile, emb: np.ndarray | None) -> tuple[int | None, float, str | None]:
    """The taught faces' vote: (class index in faces.CLASSES, share, set name)."""
    if emb is None:
        return None, 0.0, None
    sims = profile.features @ emb.astype(np.float32)
    k = min(KNN_K, len(sims))
    top = np.argpartition(-sims, k - 1)[:k]
    cls = profile.class_idx[top]
    vals, counts = np.unique(cls, return_counts=True)
    j = int(counts.argmax())
    share = float(counts[j]) / k
    if share < KNN_MIN_VOTE:
        return None, share, None
    kv = profile.classes[int(vals[j])]
    sets = profile.set_idx[top][cls == vals[j]]
    set_name = profile.sets[int(np.bincount(sets).argmax())].name if len(profile.sets) else None
    return faces.class_index(*kv), share, set_name


# ----------------------------------------------------------------------------- scan


def _add_scanned(net, frame, typical, answers, refused, profile):
    """Dice the blobs missed: the network over the whole frame, peaks of
    P(a die) away from every answer, each read twice at its cell."""
    k = faces.DIE_PX / typical
    h, w = frame.shape[:2]
    if h * w * k * k > MAX_SCAN_PX:
        return answers, refused
    small = cv2.resize(frame, None, fx=k, fy=k, interpolation=cv2.INTER_AREA if k < 1
                       else cv2.INTER_LINEAR)
    pad = faces.CROP_PX // 2
    small = cv2.copyMakeBorder(small, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    probs, _ = net.dense(small)
    die_p = 1.0 - probs[..., 0]
    peak = (die_p >= PEAK_MIN_P) & (die_p >= cv2.dilate(die_p, np.ones((3, 3), np.uint8)))
    ys, xs = np.nonzero(peak)
    # cell (i, j) is the crop whose top-left is (j, i) * stride in the padded image
    cs = [((x * faces.STRIDE_PX + faces.CROP_PX / 2 - pad) / k,
           (y * faces.STRIDE_PX + faces.CROP_PX / 2 - pad) / k) for y, x in zip(ys, xs, strict=True)]
    taken = [a.center for a in answers]
    new = [c for c in cs if not any(np.hypot(c[0] - t[0], c[1] - t[1]) < MERGE_SIDES * typical
                                    for t in taken)]
    new = [c for c in new if 0 <= c[0] < w and 0 <= c[1] < h]
    if not new:
        return answers, refused
    reads = _read_at(net, frame, new, [typical] * len(new))
    answers = list(answers)
    for rd in reads:
        h2 = typical / 2  # no blob: a square of the typical side
        box = ((rd.centre[0] - h2, rd.centre[1] - h2), (rd.centre[0] + h2, rd.centre[1] - h2),
               (rd.centre[0] + h2, rd.centre[1] + h2), (rd.centre[0] - h2, rd.centre[1] + h2))
        d = _decide(rd, box, profile, MIN_P_SCAN)
        if isinstance(d, Die):
            answers.append(d)
        elif d == UNREADABLE:
            refused.append(Rejection(rd.centre, UNREADABLE, box, "faces scan"))
    return answers, refused


# ----------------------------------------------------------------------------- helpers


def _typical_side(frame, items, profile: Profile | None) -> float | None:
    if profile is not None and profile.sets:
        return float(np.median([s.side_frac for s in profile.sets])) * max(frame.shape[:2])
    sides = [blob_side(it.outline) for it in items if len(it.outline) >= 3]
    if not sides:
        return None
    return float(np.median(sides))


def _pips_stand(d: Die, rd: _Read, profile: Profile) -> bool:
    """With a profile, a pip answer the network did not confirm stands when the
    profile taught that face and, for a value a numeral can fake, the network
    at least calls the die a d6."""
    if (d.kind, d.value) not in profile.classes:
        return False
    return d.value not in SUSPECT_D6_VALUES or float(faces.kind_probs(rd.probs[None])["d6"][0]) >= 0.5


def _clamp(side: float, typical: float) -> float:
    return side if SIDE_CLAMP[0] * typical < side < SIDE_CLAMP[1] * typical else typical


def _near(c, others, dist: float) -> bool:
    return any(np.hypot(c[0] - o.center[0], c[1] - o.center[1]) < dist for o in others)


def _merge(answers: list[Die], typical: float) -> list[Die]:
    """One answer per die: of answers closer than MERGE_SIDES, the surest."""
    out: list[Die] = []
    for a in sorted(answers, key=lambda d: -d.confidence):
        if not _near(a.center, out, MERGE_SIDES * typical):
            out.append(a)
    return out

