"""Right and wrong answers per taught set (the eval's own figures are per kind).

    python scripts/eval_per_set.py PROFILE_FOLDER LABELLED_FOLDER   # PROFILE "-": none

An answer is matched to the nearest unmatched labelled die within 25 px; the
set of a labelled die is its label's `set` (else its kind). Also prints the
median read time per image.
"""

from __future__ import annotations

import collections
import sys
import time

import cv2
import numpy as np

from calibration import profile_io
from calibration.dataset import load_dataset
from vision import read_dice

MATCH_PX = 25


def main(argv: list[str]) -> None:
    prof = profile_io.load(argv[0]) if argv[0] != "-" else None
    c: collections.Counter = collections.Counter()
    ms = []
    for s in load_dataset(argv[1]):
        frame = cv2.imread(str(s.image))
        t = time.perf_counter()
        r = read_dice(frame, prof)
        ms.append((time.perf_counter() - t) * 1e3)
        used: set[int] = set()
        for d in s.dice:
            st = d.set or d.kind
            c[(st, "labelled")] += 1
            best = None
            for j, a in enumerate(r.dice):
                dist = np.hypot(a.center[0] - d.center[0], a.center[1] - d.center[1])
                if j not in used and dist < MATCH_PX and (best is None or dist < best[0]):
                    best = (dist, j)
            if best:
                used.add(best[1])
                a = r.dice[best[1]]
                c[(st, "right" if (a.kind, a.value) == (d.kind, d.value) else "wrong")] += 1
    for st in sorted({k[0] for k in c}):
        n = c[(st, "labelled")]
        print(f"{st}: right {c[(st, 'right')]}/{n} = {100 * c[(st, 'right')] / n:.1f} %, "
              f"wrong {c[(st, 'wrong')]} = {100 * c[(st, 'wrong')] / n:.1f} %")
    print(f"ms per image: median {np.median(ms):.1f}")


if __name__ == "__main__":
    main(sys.argv[1:])
