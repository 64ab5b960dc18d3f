#!/usr/bin/env python3
"""Per kind (or per labelled set): dice read right, wrong and missed, of the labelled.

    python scripts/kind_report.py [--profile DIR] [--kinds d10,d10t] [--by set] DATASET

`dicestation eval` gives value accuracy per kind over the dice it found; this
gives it over every labelled die (the issue's targets), and the time per image.
`--kinds`: read as for a game that throws these kinds (as the station does).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calibration.dataset import load_dataset  # noqa: E402
from calibration.evaluate import _match, _side  # noqa: E402
from station.cli import game_kinds  # noqa: E402
from vision import read_dice  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    import cv2

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset", type=Path)
    ap.add_argument("--profile", type=Path)
    ap.add_argument("--by", choices=("kind", "set"), default="kind")
    ap.add_argument("--kinds", type=game_kinds, metavar="KIND,...", help="the kinds a game throws")
    args = ap.parse_args(argv)
    profile = None
    if args.profile:
        from calibration.profile_io import load

        profile = load(args.profile)
    lab, right, wrong = Counter(), Counter(), Counter()
    un = un_ans = 0
    ms = []
    for s in load_dataset(args.dataset):
        frame = cv2.imread(str(s.image))
        r = read_dice(frame, profile, game_kinds=args.kinds)
        ms.append(r.timings_ms.get("total", 0.0))
        dice = [d for d in s.dice if d.center is not None]
        pts = [d.center for d in dice] + [u.center for u in s.unreadable if u.center]
        tol = [max(8.0, 0.8 * _side(a, frame.shape)) for a in r.dice]
        m = _match(pts, list(r.dice), tol)
        for i, d in enumerate(dice):
            key = (d.set or d.kind) if args.by == "set" else d.kind
            lab[key] += 1
            if i in m:
                a = r.dice[m[i]]
                if a.kind == d.kind and a.value == d.value:
                    right[key] += 1
                else:
                    wrong[key] += 1
        un += len(pts) - len(dice)
        un_ans += sum(1 for i in range(len(dice), len(pts)) if i in m)
    for k in sorted(lab):
        print(f"{k}: right {right[k]}/{lab[k]} = {right[k] / lab[k]:.1%}, "
              f"wrong {wrong[k]} ({wrong[k] / lab[k]:.1%})")
    n = sum(lab.values())
    print(f"all: right {sum(right.values())}/{n} = {sum(right.values()) / max(1, n):.1%}, "
          f"wrong {sum(wrong.values())} ({sum(wrong.values()) / max(1, n):.1%}); "
          f"unreadable answered {un_ans}/{un}; median ms {sorted(ms)[len(ms) // 2]:.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
