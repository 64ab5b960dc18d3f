"""Benchmark reading numeral dice (d8, d10, d10t), untaught and with a taught profile.

    .venv/bin/python bench/bench_kinds.py [--runs 5] [--scenes 6]

Scenes are drawn by calibration.synth (2 MP, 1920x1080, themes `plain` and
`crowded`, kinds d8, d10, d10t). Two profiles: `own set`, taught on
TEACH_SCENES other scenes of the same dice (drawn as a user photographs
their set: every face in turn, written as JPEG), and `other set`, taught from
the committed fixtures tests/fixtures/numerals/teach (other dice, smaller
frames, five sets with d6 and tabas: every die is matched against more
sets, and more refusals are looked at again). Prints, per theme, the
dice labelled, ms per read (median over scenes and runs) and ms per labelled
die, untaught, untaught without the numeral network (vision.numerals, which
looks again at what the others refused), and with each profile; the d6 budget of issue 3 is 60 ms for
20 dice (3 ms a die). Run it on one core: OpenCV's threads are limited to 1.

This VM's speed drifts by a third from day to day, so the last row times,
in the same run, the d6 reader on bench/bench_read.py's 2 MP frame of 20
white d6 (the frame the 60 ms budget is measured on): a numeral read's ms
a die over that row's says how much dearer than a d6 read it is, whatever
the machine's speed of the moment.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_read import draw_frame  # noqa: E402

from calibration.synth import make_scene  # noqa: E402
from calibration.teach import teach  # noqa: E402
from vision import read_dice  # noqa: E402
from vision.params import DEFAULT_PARAMS  # noqa: E402

SIZE = (1920, 1080)
KINDS = ("d8", "d10", "d10t")
THEMES = ("plain", "crowded", "closeup")
TEACH_SCENES = 10  # photos of the own set, seeds 7100 + i (the scenes read are 7000 + i)


def own_set_profile():
    """A profile taught on photos of the scenes' own dice: every face in turn."""
    turn: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(TEACH_SCENES):
            image, label = make_scene(7100 + i, SIZE, KINDS, THEMES[i % 2], every_face=turn)
            cv2.imwrite(f"{tmp}/teach_{i:02d}.jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
            Path(f"{tmp}/teach_{i:02d}.json").write_text(json.dumps(label))
        return teach(Path(tmp))


def timed(fn, frame, runs: int) -> list[float]:
    fn(frame)  # warm up (models load once)
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        fn(frame)
        out.append((time.perf_counter() - t) * 1e3)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--scenes", type=int, default=6, help="scenes per theme")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    own = own_set_profile()
    other = teach(ROOT / "tests" / "fixtures" / "numerals" / "teach")
    no_numerals = replace(DEFAULT_PARAMS, numerals=False)
    readers = {"untaught": lambda f: read_dice(f), "no numeral": lambda f: read_dice(f, params=no_numerals),
               "own set": lambda f: read_dice(f, own),
               "other set": lambda f: read_dice(f, other)}
    print(f"{'theme':<9}{'dice':>6}{'read':>11}{'median ms':>11}{'ms/die':>8}")
    for theme in THEMES:
        scenes = [make_scene(7000 + i, SIZE, KINDS, theme) for i in range(args.scenes)]
        n = statistics.mean(len(label["dice"]) for _, label in scenes)
        for name, fn in readers.items():
            ms = [m for frame, _ in scenes for m in timed(fn, frame, args.runs)]
            med = statistics.median(ms)
            print(f"{theme:<9}{n:>6.1f}{name:>11}{med:>11.1f}{med / max(n, 1):>8.1f}")
    frame = draw_frame(*SIZE, 20)
    med = statistics.median(timed(lambda f: read_dice(f), frame, max(5, args.runs * 2)))
    print(f"{'d6 2 MP':<9}{20.0:>6.1f}{'untaught':>11}{med:>11.1f}{med / 20:>8.1f}   (bench_read's frame: the budget's)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
