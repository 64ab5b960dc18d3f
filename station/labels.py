"""A reader stand-in for recorded sessions: it answers an image's own labels.

The vision reader reads d6 only (so far). For the other kinds (d8, d10, d10t,
taba), and for tests that check the station rather than the reader, a
recorded session is replayed with `LabelReader`: it knows each recorded image
by the hash of its decoded pixels and returns the labels written beside it
(FORMATS.md §1) as a `Reading`. It reads nothing from the pixels themselves.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import cv2
import numpy as np

from station.camera import IMAGE_SUFFIXES
from vision.types import Die, Reading, Rejection


def pixel_key(frame_bgr: np.ndarray) -> str:
    return hashlib.sha1(np.ascontiguousarray(frame_bgr).tobytes()).hexdigest()


def reading_from_labels(labels: dict) -> Reading:
    dice = tuple(
        Die(d["kind"], d["value"], d.get("colour"), tuple(d.get("center", (0.0, 0.0))), 1.0)
        for d in labels.get("dice", [])
    )
    rejected = tuple(
        Rejection(tuple(u.get("center", (0.0, 0.0))), u.get("why", "unreadable"))
        for u in labels.get("unreadable", [])
    )
    return Reading(dice, rejected, {"total": 0.0})


class LabelReader:
    """`reader(frame_bgr) -> Reading` from the labels of the recorded images in `folder`."""

    def __init__(self, folder: str | Path) -> None:
        self.by_key: dict[str, Reading] = {}
        for image in sorted(Path(folder).iterdir()):
            label = image.with_suffix(".json")
            if image.suffix.lower() not in IMAGE_SUFFIXES or not label.exists():
                continue
            frame = cv2.imread(str(image), cv2.IMREAD_COLOR)
            if frame is None:
                continue
            self.by_key[pixel_key(frame)] = reading_from_labels(json.loads(label.read_text()))

    def __call__(self, frame_bgr: np.ndarray) -> Reading:
        reading = self.by_key.get(pixel_key(frame_bgr))
        if reading is None:
            # not a recorded image: nothing can be said about it
            return Reading((), (Rejection((frame_bgr.shape[1] / 2, frame_bgr.shape[0] / 2),
                                          "not a recorded image"),), {"total": 0.0})
        return reading
