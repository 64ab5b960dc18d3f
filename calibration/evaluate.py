"""Compare readings with labels: what was found, missed, read wrong, refused.

With centres in the labels, answers are matched to labelled dice by distance
(nearest first, within a tolerance scaled by the die's size); without, an
image is scored as a multiset of (kind, value).
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import cv2
import numpy as np

from calibration.dataset import Sample
from vision.types import Die, Reading, Rejection

MATCH_SIDES = 0.8  # an answer within this many die sides of a label is that die
MATCH_MIN_PX = 8.0
FALLBACK_SIDE_FRAC = 0.06  # die side when an answer has no outline: of the image


@dataclass
class ImageResult:
    image: str
    labelled: int = 0
    right: int = 0
    wrong: int = 0
    missed: int = 0
    refused: int = 0  # labelled dice refused (a subset of missed)
    extra: int = 0
    unreadable: int = 0
    unreadable_refused: int = 0
    unreadable_answered: int = 0
    colour_labelled: int = 0
    colour_right: int = 0
    ms: float = 0.0
    notes: list[str] = field(default_factory=list)
    kinds: Counter = field(default_factory=Counter)  # labelled found, per kind
    kinds_right: Counter = field(default_factory=Counter)

    @property
    def fully_right(self) -> bool:
        return self.right == self.labelled and self.extra == 0 and self.unreadable_answered == 0


@dataclass
class Report:
    images: list[ImageResult]

    def total(self, name: str) -> int:
        return sum(getattr(r, name) for r in self.images)

    @property
    def accuracy(self) -> float:
        n = self.total("labelled")
        return self.total("right") / n if n else 0.0

    def lines(self) -> list[str]:
        n = self.total("labelled")
        found = self.total("right") + self.total("wrong")
        kinds, kinds_right = Counter(), Counter()
        for r in self.images:
            kinds.update(r.kinds)
            kinds_right.update(r.kinds_right)
        out = [
            f"images: {len(self.images)}",
            f"dice labelled: {n}",
            f"found: {found}",
            f"missed: {self.total('missed')} (refused: {self.total('refused')})",
            f"extra: {self.total('extra')}",
            f"wrong answers: {self.total('wrong')} ({_pct(self.total('wrong'), n)} of labelled)",
        ]
        for k in sorted(kinds):
            out.append(f"value accuracy {k}: {_pct(kinds_right[k], kinds[k])} of {kinds[k]} found")
        cl = self.total("colour_labelled")
        out.append(
            f"colour accuracy: {_pct(self.total('colour_right'), cl)} of {cl}" if cl
            else "colour accuracy: no colour labels"
        )
        un = self.total("unreadable")
        out.append(
            f"unreadable refused: {self.total('unreadable_refused')} of {un}"
            f" (answered anyway: {self.total('unreadable_answered')})"
        )
        full = sum(r.fully_right for r in self.images)
        out.append(f"images fully right: {full} of {len(self.images)}")
        ms = [r.ms for r in self.images]
        if ms:
            out.append(f"ms per image: median {statistics.median(ms):.1f}, max {max(ms):.1f}")
        out.append(f"accuracy: {self.accuracy:.4f}")
        return out


def _pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:.1f} %" if b else "n/a"


def _side(die: Die | Rejection, image_shape: tuple[int, ...]) -> float:
    if len(die.outline) >= 3:
        pts = np.asarray(die.outline, np.float32)
        return float(np.sqrt(max(1.0, cv2.contourArea(pts))))
    return FALLBACK_SIDE_FRAC * float(max(image_shape[:2]))


def _match(
    points: list[tuple[float, float]], items: list, tols: list[float]
) -> dict[int, int]:
    """Greedy nearest matching label index -> item index within each item's tolerance."""
    pairs = []
    for i, p in enumerate(points):
        for j, it in enumerate(items):
            d = float(np.hypot(p[0] - it.center[0], p[1] - it.center[1]))
            if d <= tols[j]:
                pairs.append((d, i, j))
    pairs.sort()
    used_i, used_j, out = set(), set(), {}
    for _, i, j in pairs:
        if i not in used_i and j not in used_j:
            out[i] = j
            used_i.add(i)
            used_j.add(j)
    return out


def score_image(sample: Sample, reading: Reading, image_shape: tuple[int, ...]) -> ImageResult:
    r = ImageResult(image=str(sample.image), labelled=len(sample.dice))
    r.unreadable = len(sample.unreadable)
    dice, rej = list(reading.dice), list(reading.rejected)
    if not sample.has_centres:
        want = Counter((d.kind, d.value) for d in sample.dice)
        got = Counter((d.kind, d.value) for d in dice)
        r.right = sum((want & got).values())
        found = min(len(dice), len(sample.dice))
        r.wrong = found - r.right
        r.missed = len(sample.dice) - found
        r.extra = len(dice) - found
        want_k = Counter(d.kind for d in sample.dice)
        got_k = Counter(d.kind for d in dice)
        r.kinds.update(want_k & got_k)
        for (k, _), c in (want & got).items():
            r.kinds_right[k] += c
        return r
    tol = lambda x: max(MATCH_MIN_PX, MATCH_SIDES * _side(x, image_shape))  # noqa: E731
    lab_pts = [d.center for d in sample.dice]
    un_pts = [u.center for u in sample.unreadable if u.center is not None]
    # answers go to labelled dice and labelled-unreadable dice alike
    m = _match(lab_pts + un_pts, dice, [tol(d) for d in dice])
    for i, lab in enumerate(sample.dice):
        if i in m:
            got = dice[m[i]]
            r.kinds[lab.kind] += 1
            if got.kind == lab.kind and got.value == lab.value:
                r.right += 1
                r.kinds_right[lab.kind] += 1
            else:
                r.wrong += 1
                r.notes.append(f"{lab.kind} {lab.value} read as {got.kind} {got.value} at {_pt(lab.center)}")
            if lab.colour is not None:
                r.colour_labelled += 1
                r.colour_right += int(got.colour == lab.colour)
        else:
            r.missed += 1
    for k in range(len(un_pts)):
        if len(lab_pts) + k in m:
            r.unreadable_answered += 1
            r.notes.append(f"unreadable at {_pt(un_pts[k])} answered")
    r.extra = len(dice) - len(m)
    for j, d in enumerate(dice):
        if j not in m.values():
            r.notes.append(f"extra {d.kind} {d.value} at {_pt(d.center)}")
    # refusals: of labelled dice left unanswered, and of labelled unreadable ones
    missed_idx = [i for i in range(len(lab_pts)) if i not in m]
    free_un = [k for k in range(len(un_pts)) if len(lab_pts) + k not in m]
    pts = [lab_pts[i] for i in missed_idx] + [un_pts[k] for k in free_un]
    mr = _match(pts, rej, [tol(x) for x in rej])
    for a, i in enumerate(missed_idx):
        lab = sample.dice[i]
        if a in mr:
            r.refused += 1
            r.notes.append(f"{lab.kind} {lab.value} at {_pt(lab.center)} refused: {rej[mr[a]].why}"
                           + (f" ({rej[mr[a]].detail})" if rej[mr[a]].detail else ""))
        else:
            r.notes.append(f"{lab.kind} {lab.value} at {_pt(lab.center)} not seen")
    r.unreadable_refused = sum(1 for a in range(len(missed_idx), len(pts)) if a in mr)
    return r


def _pt(p) -> str:
    return f"({p[0]:.0f}, {p[1]:.0f})"


def evaluate(
    samples: Iterable[Sample],
    read: Callable[[np.ndarray], Reading],
    on_image: Callable[[ImageResult], None] | None = None,
) -> Report:
    """Read every sample's image with `read` and score it against its labels."""
    results = []
    for sample in samples:
        frame = cv2.imdecode(np.fromfile(str(sample.image), np.uint8), cv2.IMREAD_COLOR)
        if frame is None:
            r = ImageResult(image=str(sample.image), labelled=len(sample.dice),
                            missed=len(sample.dice), notes=["cannot decode image"])
        else:
            reading = read(frame)
            r = score_image(sample, reading, frame.shape)
            r.ms = float(reading.timings_ms.get("total", 0.0))
        results.append(r)
        if on_image is not None:
            on_image(r)
    return Report(results)
