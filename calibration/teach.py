"""Teach the station a dice set from labelled photos (FORMATS.md section 1).

Every labelled die is looked at by the face network (vision.faces) at its
labelled centre, its size taken from the reader's own blob for it (as when
reading), at TEACH_ANGLES_DEG rotations; the embeddings (the network's
penultimate layer, paired as vision.kinds pairs its two reads) are kept with
the die's (kind, value) and set. Sets come from the labels' `set` (one
SetInfo per set; unnamed dice form the set named after their kind). A labelled
image without centres is taught only when it shows one die (its largest blob).

Every labelled die also leaves a grey exemplar of its face (vision.templates),
centred where the reader finds it (its blob's centre, else the label's) and
sized by the image's typical die side times its set's size ratio; at most
MAX_EXEMPLARS per (set, face), chosen at random.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from calibration.dataset import Sample, load_dataset
from vision import faces, kinds, reader, templates
from vision.params import DEFAULT_PARAMS
from vision.profile import FEATURE_VERSION, PROFILE_VERSION, Profile, SetInfo

TEACH_ANGLES_DEG = tuple(range(0, 360, 60))
MAX_ROWS_PER_CLASS = 240  # rows beyond are subsampled (profile size)
BLOB_MATCH_SIDES = 0.6  # a blob whose centre is this near a label's is that die's blob
MAX_EXEMPLARS = 48  # grey face exemplars kept per (set, face)


class TeachError(ValueError):
    """Nothing could be taught from the data set."""


def teach(dataset: str | Path, log: Callable[[str], None] | None = None,
          seed: int = 0) -> Profile:
    """A profile learned from every labelled image of `dataset`."""
    samples = _load_tolerant(Path(dataset), log)
    if not samples:
        raise TeachError(f"{dataset}: no labelled images")
    return teach_samples(samples, log, seed, meta={"dataset": str(dataset)})


def teach_samples(samples: list[Sample], log: Callable[[str], None] | None = None,
                  seed: int = 0, meta: dict | None = None) -> Profile:
    t0 = time.perf_counter()
    net = faces.load_net()
    if net is None:
        why = faces.load_error()
        raise TeachError(f"the face network (vision/models/{faces.MODEL_NAME}) "
                         + (f"does not load here ({why})" if why else "is not installed"))
    rows: list[np.ndarray] = []
    keys: list[tuple[tuple[str, int | str], str]] = []
    per_set: dict[str, dict] = defaultdict(lambda: {"kinds": Counter(), "colours": Counter(),
                                                    "sides": [], "labs": [], "faces": set(), "ratios": [],
                                                    "n": 0})
    taught = missed = 0
    greys: list[np.ndarray] = []
    spots: list[tuple[int, tuple[float, float], float, tuple[str, int | str], str]] = []
    for sample in samples:
        frame = cv2.imdecode(np.fromfile(str(sample.image), np.uint8), cv2.IMREAD_COLOR)
        if frame is None:
            if log:
                log(f"{sample.image}: cannot decode, skipped")
            continue
        blobs, die_side = _blobs(frame)
        if sample.has_centres:
            pts = [d.center for d in sample.dice]
        elif len(sample.dice) == 1 and blobs:
            pts = [max(blobs, key=lambda b: b[1])[0]]
        else:
            missed += len(sample.dice)
            continue
        sides = _sides(pts, blobs, frame)
        long_side = float(max(frame.shape[:2]))
        img_side = die_side or kinds.image_side([s for _, s in blobs]) or float(np.median(sides))
        greys.append(templates.grey(frame))
        for lab, centre, side in zip(sample.dice, pts, sides, strict=True):
            if faces.class_index(lab.kind, lab.value) is None:
                missed += 1
                continue
            f = _embeddings(net, frame, centre, side)
            rows.append(f)
            name = lab.set or lab.kind
            keys.extend([((lab.kind, lab.value), name)] * len(f))
            st = per_set[name]
            st["kinds"][lab.kind] += 1
            if lab.colour:
                st["colours"][lab.colour] += 1
            st["sides"].append(side / long_side)
            st["labs"].append(_centre_lab(frame, centre, side))
            st["faces"].add((lab.kind, lab.value))
            st["ratios"].append(side / img_side)
            spots.append((len(greys) - 1, _reader_centre(centre, blobs), img_side,
                          (lab.kind, lab.value), name))
            st["n"] += 1
            taught += 1
    if not rows:
        raise TeachError("no labelled die was found in the images (nothing to teach)")
    feats = np.concatenate(rows).astype(np.float32)
    classes = tuple(sorted({k for k, _ in keys}, key=lambda kv: (kv[0], str(kv[1]))))
    set_names = tuple(sorted(per_set))
    class_idx = np.array([classes.index(k) for k, _ in keys], np.int32)
    set_idx = np.array([set_names.index(s) for _, s in keys], np.int32)
    keep = _cap_rows(class_idx, np.random.default_rng(seed))
    feats, class_idx, set_idx = feats[keep], class_idx[keep], set_idx[keep]
    sets = tuple(
        SetInfo(
            name=n,
            kinds=tuple(sorted(per_set[n]["kinds"])),
            side_frac=float(np.median(per_set[n]["sides"])),
            colour=_set_colour(per_set[n]["colours"]),
            colour_lab=tuple(float(x) for x in np.median(per_set[n]["labs"], axis=0)),
            faces=tuple(sorted(per_set[n]["faces"], key=lambda kv: (kv[0], str(kv[1])))),
            n_dice=per_set[n]["n"],
        )
        for n in set_names
    )
    ratio = {n: float(np.median(per_set[n]["ratios"])) for n in set_names}
    ex, ex_class, ex_set = _exemplars(greys, spots, ratio, classes, set_names,
                                      np.random.default_rng(seed))
    info = dict(meta or {})
    info.update({"images": len(samples), "dice_taught": taught, "dice_not_found": missed,
                 "model_version": faces.MODEL_VERSION,
                 "seconds": round(time.perf_counter() - t0, 1)})
    if log:
        log(f"taught {taught} dice ({missed} labelled dice not taught) from {len(samples)} images "
            f"in {info['seconds']} s")
    return Profile(PROFILE_VERSION, FEATURE_VERSION, sets, classes, feats, class_idx, set_idx,
                   info, ex, ex_class, ex_set, tuple(ratio[n] for n in set_names))


def _reader_centre(centre, blobs) -> tuple[float, float]:
    """Where the reader puts this die's centre: its blob's, if one is near."""
    near = [(np.hypot(c[0] - centre[0], c[1] - centre[1]), c) for c, s in blobs
            if np.hypot(c[0] - centre[0], c[1] - centre[1]) < BLOB_MATCH_SIDES * s]
    return tuple(map(float, min(near)[1])) if near else tuple(map(float, centre))


def _exemplars(greys, spots, ratio, classes, set_names, rng):
    """At most MAX_EXEMPLARS grey face crops per (set, face)."""
    groups: dict[tuple[str, tuple], list[int]] = defaultdict(list)
    for i, (_, _, _, kv, name) in enumerate(spots):
        groups[(name, kv)].append(i)
    ex, ex_class, ex_set = [], [], []
    for (name, kv), idx in sorted(groups.items(), key=lambda t: (t[0][0], str(t[0][1]))):
        if len(idx) > MAX_EXEMPLARS:
            idx = sorted(rng.choice(idx, MAX_EXEMPLARS, replace=False).tolist())
        for i in idx:
            g, centre, img_side = spots[i][0], spots[i][1], spots[i][2]
            ex.append(templates.exemplar(greys[g], centre, img_side * ratio[name]))
            ex_class.append(classes.index(kv))
            ex_set.append(set_names.index(name))
    shape = (len(ex), templates.TPL_PX, templates.TPL_PX)
    return (np.asarray(ex, np.uint8).reshape(shape), np.asarray(ex_class, np.int32),
            np.asarray(ex_set, np.int32))


def _embeddings(net: faces.FaceNet, frame: np.ndarray, centre, side: float) -> np.ndarray:
    """One row per teaching angle: the unit sum of the embeddings of the crop
    at that angle and a quarter turn on (as vision.kinds reads)."""
    crops = [faces.crop(frame, centre, side, a + q) for a in TEACH_ANGLES_DEG for q in (0.0, 90.0)]
    _, emb = net.forward(crops)
    e = emb[0::2] + emb[1::2]
    return e / (np.linalg.norm(e, axis=1, keepdims=True) + 1e-6)


def _sides(pts, blobs, frame) -> list[float]:
    """Each die's side: its blob's, unless none or a blob of another size
    than the image's typical one (a shadow, two dice)."""
    found = []
    for p in pts:
        near = [(np.hypot(c[0] - p[0], c[1] - p[1]), s) for c, s in blobs]
        near = [(d, s) for d, s in near if d < BLOB_MATCH_SIDES * s]
        found.append(min(near)[1] if near else None)
    ok = [s for s in found if s]
    typical = (float(np.median(ok)) if ok else
               float(np.median([s for _, s in blobs])) if blobs else 0.06 * max(frame.shape[:2]))
    lo, hi = kinds.SIDE_CLAMP
    return [s if s and lo * typical < s < hi * typical else typical for s in found]


def _load_tolerant(root: Path, log: Callable[[str], None] | None) -> list[Sample]:
    """Like calibration.dataset.load_dataset, but a label file with a fault is
    skipped with a message: one typo must not stop a teaching."""
    skipped: list[str] = []
    samples = load_dataset(root, skipped)
    for message in skipped:
        if log:
            log(f"skipped: {message}")
    return samples


BLOBS_ONLY = replace(DEFAULT_PARAMS, other_kinds=False)
SET_COLOUR_SHARE = 0.9  # a set has one colour when its labels name it for this share of its dice


def _set_colour(colours: Counter) -> str | None:
    """The set's colour when its labels agree on one; None for a set of mixed
    colours (each die's colour is then named from its body when read)."""
    if not colours:
        return None
    name, n = colours.most_common(1)[0]
    return name if n >= SET_COLOUR_SHARE * sum(colours.values()) else None


def _blobs(frame: np.ndarray) -> tuple[list[tuple[tuple[float, float], float]], float | None]:
    """Every blob the pip reader sees (answered or refused): centre and side;
    and the frame's typical die side as the reader has it (None: the blobs' median)."""
    r = reader.read_dice(frame, params=BLOBS_ONLY)  # the blobs only, not the faces
    return [(d.center, kinds.blob_side(d.outline)) for d in list(r.dice) + list(r.rejected)
            if d.outline], r.die_side_px


def _centre_lab(frame: np.ndarray, centre, side: float) -> np.ndarray:
    x, y, r = int(centre[0]), int(centre[1]), max(1, int(side / 6))
    patch = frame[max(0, y - r) : y + r + 1, max(0, x - r) : x + r + 1]
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2Lab).reshape(-1, 3)
    return np.median(lab, axis=0)


def _cap_rows(class_idx: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    keep = []
    for c in np.unique(class_idx):
        idx = np.nonzero(class_idx == c)[0]
        if len(idx) > MAX_ROWS_PER_CLASS:
            idx = np.sort(rng.choice(idx, MAX_ROWS_PER_CLASS, replace=False))
        keep.append(idx)
    return np.concatenate(keep)
