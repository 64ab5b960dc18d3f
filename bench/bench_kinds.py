"""Benchmark reading numeral dice (d8, d10, d10t), untaught and with a taught profile.

    .venv/bin/python bench/bench_kinds.py [--runs 5] [--scenes 6]

Scenes are drawn by calibration.synth (2 MP, 1920x1080, themes `plain` and
`crowded`, kinds d8, d10, d10t); the profile is taught from the committed
fixtures tests/fixtures/numerals/teach (other rendered dice). Prints, per
theme, the dice labelled, ms per read (median over scenes and runs) and ms
per labelled die, for the untaught and the taught read; the d6 budget of
issue 3 is 60 ms for 20 dice (3 ms a die). Run it on one core: OpenCV's
threads are limited to 1.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from calibration.synth import make_scene  # noqa: E402
from calibration.teach import teach  # noqa: E402
from vision import read_dice  # noqa: E402

SIZE = (1920, 1080)
KINDS = ("d8", "d10", "d10t")
THEMES = ("plain", "crowded")


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
    profile = teach(ROOT / "tests" / "fixtures" / "numerals" / "teach")
    readers = {"untaught": lambda f: read_dice(f), "taught": lambda f: read_dice(f, profile)}
    print(f"{'theme':<9}{'dice':>6}{'read':>10}{'median ms':>11}{'ms/die':>8}")
    for theme in THEMES:
        scenes = [make_scene(7000 + i, SIZE, KINDS, theme) for i in range(args.scenes)]
        n = statistics.mean(len(label["dice"]) for _, label in scenes)
        for name, fn in readers.items():
            ms = [m for frame, _ in scenes for m in timed(fn, frame, args.runs)]
            med = statistics.median(ms)
            print(f"{theme:<9}{n:>6.1f}{name:>10}{med:>11.1f}{med / max(n, 1):>8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
