"""A taught dice set (a "profile"), in memory: pure data, no file access.

A profile holds, per dice set named in the teaching labels, what the set is
(kinds, typical size, body colour) and, for all sets together, the appearance
of every taught face: feature vectors of face crops (vision.numerals.face_features,
taught at many rotations), each with the (kind, value) it shows and the set it
belongs to. Reading a blob is a nearest-neighbour vote among them.

Saving and loading is calibration.profile_io's job (vision never touches files).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

PROFILE_VERSION = 1
FEATURE_VERSION = 1  # bump when vision.numerals.face_features changes


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
    mean: np.ndarray | None = None  # (D,) raw feature mean, when features are projected
    basis: np.ndarray | None = None  # (D, P): raw features -> the rows' space
    meta: dict = field(default_factory=dict)  # free text: data set, date, counts

    def __post_init__(self) -> None:
        n = len(self.features)
        if self.features.ndim != 2 or len(self.class_idx) != n or len(self.set_idx) != n:
            raise ValueError("profile: features, class_idx and set_idx must have one row each")

    def project(self, raw: np.ndarray) -> np.ndarray:
        """Raw feature rows (vision.numerals.face_features) in the profile's
        space, unit length."""
        f = raw if self.basis is None else (raw - self.mean) @ self.basis
        f = np.asarray(f, np.float32)
        return f / (np.linalg.norm(f, axis=1, keepdims=True) + 1e-6)

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(sorted({k for k, _ in self.classes}))

    def set_named(self, name: str) -> SetInfo | None:
        return next((s for s in self.sets if s.name == name), None)

    def describe(self) -> str:
        parts = [f"{s.name}: {', '.join(s.kinds)} ({s.n_dice} dice, {len(s.faces)} faces)"
                 for s in self.sets]
        return f"profile v{self.version}, {len(self.features)} exemplars; " + "; ".join(parts)
