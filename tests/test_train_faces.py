"""scripts/train_faces.py build: the patches cut from a labelled image.

`--reader-centres` cuts each die a second time where the reader centres it
(its blob), when that lies off the label's centre; everything else is cut as
without it. No torch needed: `build` only cuts patches.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SCENE = ROOT / "tests" / "fixtures" / "numerals" / "eval" / "scene_000_plain.jpg"


def _train_faces():
    spec = importlib.util.spec_from_file_location("train_faces", ROOT / "scripts" / "train_faces.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_reader_centres_add_a_patch_on_the_blob_of_dice_labelled_off_it():
    tf = _train_faces()
    frame = cv2.imread(str(SCENE))
    label = json.loads(SCENE.with_suffix(".json").read_text())
    plain_p, plain_c = tf.image_patches(frame, label, np.random.default_rng(0))
    more_p, more_c = tf.image_patches(frame, label, np.random.default_rng(0), reader_centres=True)
    none = tf.faces.CLASSES.index((tf.faces.NONE, 0))
    n_dice = sum(1 for c in plain_c if c != none)
    # the patches without the option, in order, with extra ones in between: each extra one
    # right after its die's own, of the same class, showing another place (the blob's)
    k = extras = 0
    for i, (patch, cls) in enumerate(zip(more_p, more_c, strict=True)):
        if k < len(plain_c) and cls == plain_c[k] and np.array_equal(patch, plain_p[k]):
            k += 1
            continue
        extras += 1
        assert cls != none and cls == more_c[i - 1]
        assert not np.array_equal(patch, more_p[i - 1])
    assert k == len(plain_c)
    assert 0 < extras <= n_dice  # this scene has dice whose blob lies off the label's centre


def test_without_reader_centres_patches_are_the_labels_alone():
    tf = _train_faces()
    frame = cv2.imread(str(SCENE))
    label = json.loads(SCENE.with_suffix(".json").read_text())
    p, c = tf.image_patches(frame, label, np.random.default_rng(0))
    none = tf.faces.CLASSES.index((tf.faces.NONE, 0))
    assert sum(1 for x in c if x != none) == len(label["dice"]) + sum(
        1 for u in label.get("unreadable", []) if u.get("why") in tf.UNREADABLE_WHY and "center" in u)
    assert all(x.shape == (tf.PATCH_PX, tf.PATCH_PX, 3) for x in p)
