"""Teach the station a dice set from labelled photos (FORMATS.md section 1).

For every labelled die the reader's own blob is found (the frame is read
without a profile, and blobs are matched to labels as `eval` matches them),
so that taught crops look exactly like the crops read later. Each die's face
crop is taught at every rotation (vision.numerals.teach_features). Sets come
from the labels' `set` (one SetInfo per set; unnamed dice form the set named
after their kind). The features are projected on their main components so the
profile stays small.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from calibration.dataset import IMAGE_SUFFIXES, DatasetError, Sample, load_sample
from calibration.evaluate import MATCH_MIN_PX, MATCH_SIDES, _match
from vision import read_dice
from vision.kinds import blob_side
from vision.numerals import locate_die, teach_features
from vision.profile import FEATURE_VERSION, PROFILE_VERSION, Profile, SetInfo

PCA_DIMS = 64
MAX_ROWS_PER_CLASS = 6000  # rows beyond are subsampled (profile size)


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
    rows: list[np.ndarray] = []
    keys: list[tuple[tuple[str, int | str], str]] = []
    per_set: dict[str, dict] = defaultdict(lambda: {"kinds": Counter(), "colours": Counter(),
                                                    "sides": [], "labs": [], "faces": set(),
                                                    "n": 0})
    taught = missed = 0
    for sample in samples:
        frame = cv2.imdecode(np.fromfile(str(sample.image), np.uint8), cv2.IMREAD_COLOR)
        if frame is None:
            if log:
                log(f"{sample.image}: cannot decode, skipped")
            continue
        blobs = _blobs(frame)
        pts = [d.center for d in sample.dice]
        if not sample.has_centres:
            if len(sample.dice) == 1 and len(blobs) >= 1:
                pts = [max(blobs, key=lambda b: blob_side(b[1]))[0]]
            else:
                missed += len(sample.dice)
                continue
        tols = [max(MATCH_MIN_PX, MATCH_SIDES * blob_side(o)) for _, o in blobs]
        m = _match(pts, [_P(c) for c, _ in blobs], tols)
        long_side = float(max(frame.shape[:2]))
        for i, lab in enumerate(sample.dice):
            if i not in m:
                missed += 1
                continue
            centre, outline = blobs[m[i]]
            centre, side = locate_die(frame, centre, blob_side(outline))
            f = teach_features(frame, centre, side)
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
            st["n"] += 1
            taught += 1
    if not rows:
        raise TeachError("no labelled die was found in the images (nothing to teach)")
    raw = np.concatenate(rows).astype(np.float32)
    classes = tuple(sorted({k for k, _ in keys}, key=lambda kv: (kv[0], str(kv[1]))))
    set_names = tuple(sorted(per_set))
    class_idx = np.array([classes.index(k) for k, _ in keys], np.int32)
    set_idx = np.array([set_names.index(s) for _, s in keys], np.int32)
    keep = _cap_rows(class_idx, np.random.default_rng(seed))
    raw, class_idx, set_idx = raw[keep], class_idx[keep], set_idx[keep]
    mean = raw.mean(axis=0)
    cov = np.cov((raw - mean).T)
    w, v = np.linalg.eigh(cov)
    basis = v[:, np.argsort(-w)[:PCA_DIMS]].astype(np.float32)
    sets = tuple(
        SetInfo(
            name=n,
            kinds=tuple(sorted(per_set[n]["kinds"])),
            side_frac=float(np.median(per_set[n]["sides"])),
            colour=per_set[n]["colours"].most_common(1)[0][0] if per_set[n]["colours"] else None,
            colour_lab=tuple(float(x) for x in np.median(per_set[n]["labs"], axis=0)),
            faces=tuple(sorted(per_set[n]["faces"], key=lambda kv: (kv[0], str(kv[1])))),
            n_dice=per_set[n]["n"],
        )
        for n in set_names
    )
    profile0 = Profile(PROFILE_VERSION, FEATURE_VERSION, sets, classes,
                       np.zeros((0, PCA_DIMS), np.float32), np.zeros(0, np.int32),
                       np.zeros(0, np.int32), mean.astype(np.float32), basis)
    feats = profile0.project(raw)
    info = dict(meta or {})
    info.update({"images": len(samples), "dice_taught": taught, "dice_not_found": missed,
                 "seconds": round(time.perf_counter() - t0, 1)})
    if log:
        log(f"taught {taught} dice ({missed} labelled dice not found) from {len(samples)} images "
            f"in {info['seconds']} s")
    return Profile(PROFILE_VERSION, FEATURE_VERSION, sets, classes, feats, class_idx, set_idx,
                   mean.astype(np.float32), basis, info)


def _load_tolerant(root: Path, log: Callable[[str], None] | None) -> list[Sample]:
    """Like calibration.dataset.load_dataset, but a label file with a fault is
    skipped with a message: one typo must not stop a teaching."""
    if not root.is_dir():
        raise DatasetError(f"{root}: not a folder")
    out = []
    for path in sorted(root.rglob("*")):
        label = path.with_suffix(".json")
        if path.suffix.lower() not in IMAGE_SUFFIXES or not label.is_file():
            continue
        try:
            out.append(load_sample(path, label))
        except DatasetError as exc:
            if log:
                log(f"skipped: {exc}")
    return out


class _P:
    def __init__(self, c):
        self.center = c


def _blobs(frame: np.ndarray) -> list[tuple[tuple[float, float], tuple]]:
    """Every blob the reader sees (answered or refused): centre and outline."""
    r = read_dice(frame)
    return [(d.center, d.outline) for d in list(r.dice) + list(r.rejected) if d.outline]


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
