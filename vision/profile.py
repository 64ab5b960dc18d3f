"""A taught dice set (a "profile"), in memory: pure data, no file access.

A profile holds, per dice set named in the teaching labels, what the set is
(kinds, typical size, body colour) and, for all sets together, the appearance
of every taught face: embeddings of the face network (vision.faces, its
penultimate layer) of each taught die at several rotations, each with the
(kind, value) it shows and the set it belongs to. Reading a die is the
network's answer checked by a vote of the nearest taught faces (vision.kinds).

Saving and loading is calibration.profile_io's job (vision never touches files).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

PROFILE_VERSION = 2  # 1: HOG features (issue 4's first attempt); 2: face-network embeddings
FEATURE_VERSION = 3  # = 1 + vision.faces.MODEL_VERSION: embeddings of another network do not compare


@dataclass(frozen=True)
class SetInfo:
    """What was learned about one dice set."""

    name: str
    kinds: tuple[str, ...]
    side_frac: float  # median side of a die's blob, of the image's longer side
    colour: str | None  # the most common labelled colour, if labels name one
    colour_lab: tuple[float, float, float]  # median body colour (OpenCV Lab)
    faces: tuple[tuple[str, int | str], ...]  # (kind, value) pairs taught
    n_dice: int  # dice taught


@dataclass(frozen=True, eq=False)
class Profile:
    """Everything `read_dice` needs to read a taught set.

    `features` is (N, D) float32, rows L2-normalised; `classes[class_idx[i]]`
    is the (kind, value) of row i and `sets[set_idx[i]]` its set.
    """

    version: int
    feature_version: int
    sets: tuple[SetInfo, ...]
    classes: tuple[tuple[str, int | str], ...]
    features: np.ndarray
    class_idx: np.ndarray  # (N,) int32
    set_idx: np.ndarray  # (N,) int32
    meta: dict = field(default_factory=dict)  # free text: data set, date, counts

    def __post_init__(self) -> None:
        n = len(self.features)
        if self.features.ndim != 2 or len(self.class_idx) != n or len(self.set_idx) != n:
            raise ValueError("profile: features, class_idx and set_idx must have one row each")

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(sorted({k for k, _ in self.classes}))

    def set_named(self, name: str) -> SetInfo | None:
        return next((s for s in self.sets if s.name == name), None)

    def describe(self) -> str:
        parts = [f"{s.name}: {', '.join(s.kinds)} ({s.n_dice} dice, {len(s.faces)} faces)"
                 for s in self.sets]
        return f"profile v{self.version}, {len(self.features)} exemplars; " + "; ".join(parts)
