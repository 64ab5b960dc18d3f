"""Benchmark read_dice: ms per read and peak memory, 2 MP and 12 MP frames.

    .venv/bin/python bench/bench_read.py [--runs 5]

Frames are drawn here with OpenCV (green felt, white dice with black pips,
die side ~3 % of the frame width, as a Pi camera 40-60 cm above a tray
sees them). Run it on one core: OpenCV's threads are limited to 1. The
`no lean` column times the same frame, in turn with the other, with the lean
network never asked (what it costs; this VM's speed drifts, so the two are
only compared within one run). The `20p` rows lay the 20 dice in 10
pairs touching (flush, corner to corner or corner to face), as dice thrown
together often land, drawn by the project's scene renderer: the
detector sees some pairs as one peak between them, and the reader then looks
around that peak for both dice (vision.reader._split_look), the costliest
path of a read.
"""

from __future__ import annotations

import argparse
import dataclasses
import resource
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calibration.synth import make_scene  # noqa: E402
from calibration.synth_layout import pairs_scene_spec  # noqa: E402
from vision import read_dice  # noqa: E402
from vision.params import DEFAULT_PARAMS  # noqa: E402
from vision.pips import LAYOUTS  # noqa: E402

FRAMES = {"2 MP": (1920, 1080), "12 MP": (4000, 3000)}
DICE = (1, 6, 20)
PAIRS = 10  # the touching rows: this many pairs of dice side by side
DIE_SIDE_OF_WIDTH = 0.032
NO_LEAN = dataclasses.replace(DEFAULT_PARAMS, lean_ask_min=float("inf"))


def draw_frame(w: int, h: int, n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = (60, 110, 40)
    img = np.clip(img + rng.normal(0, 3, img.shape), 0, 255).astype(np.uint8)
    side = DIE_SIDE_OF_WIDTH * w
    cols = int(np.ceil(np.sqrt(n * w / h)))
    for i in range(n):
        cx = (i % cols + 0.5) * w / cols + rng.uniform(-0.1, 0.1) * side
        cy = (i // cols + 0.5) * h / int(np.ceil(n / cols)) + rng.uniform(-0.1, 0.1) * side
        a = np.deg2rad(rng.uniform(0, 90))
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        sq = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * side / 2 @ rot.T + (cx, cy)
        cv2.fillConvexPoly(img, np.int32(sq), (240, 240, 240), cv2.LINE_AA)
        for p in LAYOUTS[int(rng.integers(1, 7))]:
            c = (p * 0.27 * side) @ rot.T + (cx, cy)
            cv2.circle(img, (int(c[0]), int(c[1])), int(0.09 * side), (20, 20, 20), -1, cv2.LINE_AA)
    return img


def pairs_frame(w: int, h: int, n: int, seed: int = 0) -> np.ndarray:
    """`n` / 2 pairs of touching dice, drawn by the project's scene renderer (shaded dice with
    rounded edges and shadows: a flat drawing of two white squares side by side is one white
    oblong, which no camera sees)."""
    image, _ = make_scene(pairs_scene_spec((w, h), n // 2, DIE_SIDE_OF_WIDTH * w, seed))
    return image


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    print(f"{'frame':<7}{'dice':>5}{'read':>6}{'median ms':>11}{'min ms':>9}{'peak MiB':>10}{'no lean':>9}")
    rows = [(name, n, False) for name in FRAMES for n in DICE] + [(name, 2 * PAIRS, True) for name in FRAMES]
    rss = 0.0
    for name, n, touching in rows:
        w, h = FRAMES[name]
        if touching and not rss:  # rendering a scene takes far more memory than reading it
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        frame = pairs_frame(w, h, n) if touching else draw_frame(w, h, n)
        read_dice(frame)  # warm up
        ms, ms_no_lean = [], []
        for _ in range(args.runs):
            t = time.perf_counter()
            r = read_dice(frame)
            ms.append((time.perf_counter() - t) * 1e3)
            t = time.perf_counter()
            read_dice(frame, params=NO_LEAN)
            ms_no_lean.append((time.perf_counter() - t) * 1e3)
        tracemalloc.start()
        read_dice(frame)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"{name:<7}{str(n) + ('p' if touching else ''):>5}{len(r.dice):>6}{statistics.median(ms):>11.1f}{min(ms):>9.1f}"
              f"{peak / 2**20:>10.1f}{statistics.median(ms_no_lean):>9.1f}")
    print(f"process peak RSS: {rss:.0f} MiB (frames included, before the 20p frames were rendered); "
          "peak MiB above: numpy allocations of one read")
    return 0


if __name__ == "__main__":
    sys.exit(main())
