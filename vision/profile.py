"""A taught dice set (a "profile"), in memory: pure data, no file access.

A profile holds, per dice set named in the teaching labels, what the set is
(kinds, typical size, body colour) and, for all sets together, the appearance
of every taught face: embeddings of the face network (vision.faces, its
penultimate layer) of each taught die at several rotations, each with the
(kind, value) it shows and the set it belongs to; and grey exemplars of each
taught face (vision.templates). Reading a taught die is matching it against
the exemplars of the same physical dice (vision.kinds).

Saving and loading is calibration.profile_io's job (vision never touches files).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from vision import faces, templates

PROFILE_VERSION = 3  # 1: HOG features (issue 4's first attempt); 2: face-network embeddings;
# 3: + grey exemplars of every taught face (vision.templates)
FEATURE_VERSION = 5  # = 1 + vision.faces.MODEL_VERSION: embeddings of another network do not compare


@dataclass(frozen=True)
class SetInfo:
    """What was learned about one dice set."""

    name: str
    kinds: tuple[str, ...]
    side_frac: float  # median side of a die's blob, of the image's longer side
    colour: str | None  # the labelled colour, if the labels name one for (nearly) every die
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
    # vision.templates exemplars: (M, TPL_PX, TPL_PX) uint8, each with its class
    # (index in `classes`) and set (index in `sets`); `side_ratio[s]` is set s's
    # die side over the typical side of the images it was taught from
    exemplars: np.ndarray = field(default_factory=lambda: np.zeros((0, templates.TPL_PX,
                                                                     templates.TPL_PX), np.uint8))
    ex_class: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    ex_set: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    side_ratio: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        n = len(self.features)
        if self.features.ndim != 2 or len(self.class_idx) != n or len(self.set_idx) != n:
            raise ValueError("profile: features, class_idx and set_idx must have one row each")
        m = len(self.exemplars)
        if len(self.ex_class) != m or len(self.ex_set) != m:
            raise ValueError("profile: exemplars, ex_class and ex_set must have one row each")
        if m and self.exemplars.shape[1:] != (templates.TPL_PX, templates.TPL_PX):
            raise ValueError(f"profile: exemplars must be {templates.TPL_PX} px squares")

    @cached_property
    def bank(self) -> templates.Bank:
        """The exemplars turned every way, ready to compare; one class per
        (set, class) pair: `bank_keys[i]` = (set index, class index). The bank
        is sorted by set, then class."""
        return templates.make_bank(self.exemplars[self._by_key], self._ex_key[self._by_key],
                                   len(self.bank_keys))

    @cached_property
    def _by_key(self) -> np.ndarray:
        return np.argsort(self._ex_key, kind="stable")

    @cached_property
    def bank_rows(self) -> dict[int, slice]:
        """The bank's exemplars of each set (index in `sets`)."""
        sets = self.ex_set[self._by_key]
        return {int(si): slice(int(np.searchsorted(sets, si)),
                               int(np.searchsorted(sets, si, side="right")))
                for si in np.unique(sets)}

    @cached_property
    def bank_keys(self) -> tuple[tuple[int, int], ...]:
        return tuple(sorted({(int(s), int(c)) for s, c in zip(self.ex_set, self.ex_class,
                                                                strict=True)}))

    @cached_property
    def _ex_key(self) -> np.ndarray:
        keys = {k: i for i, k in enumerate(self.bank_keys)}
        return np.array([keys[(int(s), int(c))] for s, c in zip(self.ex_set, self.ex_class,
                                                                 strict=True)], np.int32)

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(sorted({k for k, _ in self.classes}))

    @cached_property
    def untaught_faces(self) -> dict[str, tuple[int | str, ...]]:
        """Per taught kind, its faces no taught die showed (empty kinds left out)."""
        taught = set(self.classes)
        out = {k: tuple(v for kk, v in faces.CLASSES if kk == k and (kk, v) not in taught)
               for k in self.kinds}
        return {k: v for k, v in out.items() if v}

    def set_named(self, name: str) -> SetInfo | None:
        return next((s for s in self.sets if s.name == name), None)

    def describe(self) -> str:
        parts = [f"{s.name}: {', '.join(s.kinds)} ({s.n_dice} dice, {len(s.faces)} faces)"
                 for s in self.sets]
        missing = [f"{k} {', '.join(map(str, v))}" for k, v in self.untaught_faces.items()]
        note = ("; faces never taught (the network alone reads them, teach them for a surer read): "
                + "; ".join(missing)) if missing else ""
        return (f"profile v{self.version}, {len(self.features)} embeddings, "
                f"{len(self.exemplars)} face exemplars; " + "; ".join(parts) + note)
