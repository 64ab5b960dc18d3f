"""Benchmark OpenCV's two dnn engines on the bundled networks.

    .venv/bin/python bench/bench_engines.py [--runs 10]

OpenCV 5 reads an ONNX file with its new dnn engine unless told otherwise;
the classic one is still there. For every network in vision/models this
times one forward pass of a batch the reader really sends (crops of 48 px,
the detector's 2 MP input, the face network's scan windows) on each engine,
and prints the largest difference between their outputs. The reader runs
the classifiers and the lean network on the classic engine, 1.8-2 times
faster there (vision.learned); the detector and the face network on the
default (the new engine: as fast or faster on them). Run it on one core:
OpenCV's threads are limited to 1; this VM's speed drifts within minutes,
so compare the columns of one run only.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

MODELS = Path(__file__).resolve().parents[1] / "vision" / "models"
# (file, input shape, outputs) as the reader asks them
CASES = (
    ("dice_det.onnx", (1, 3, 256, 448), None),  # a 16:9 frame at DET_LONG_PX
    ("dice_cls.onnx", (20, 3, 48, 48), None),  # the first look at 20 dice
    ("dice_cls_medium.onnx", (16, 3, 48, 48), None),  # 4 unsure dice, 2 crops, 2 views
    ("dice_lean.onnx", (12, 3, 48, 48), None),
    ("faces.onnx", (36, 3, 48, 48), ["logits", "embedding"]),  # 18 dice, 2 views
    ("faces.onnx", (16, 3, 112, 112), ["logits", "embedding"]),  # 4 scan windows
)


def timed(net: cv2.dnn.Net, blob: np.ndarray, outs, runs: int) -> tuple[float, list[np.ndarray]]:
    net.setInput(blob)
    res = net.forward(outs) if outs else [net.forward()]
    ms = []
    for _ in range(runs):
        t = time.perf_counter()
        net.setInput(blob)
        net.forward(outs) if outs else net.forward()
        ms.append((time.perf_counter() - t) * 1e3)
    return statistics.median(ms), [np.asarray(r) for r in res]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    engines = [e for e in ("ENGINE_CLASSIC", "ENGINE_NEW") if hasattr(cv2.dnn, e)]
    if len(engines) < 2:
        print(f"OpenCV {cv2.__version__} has one dnn engine: nothing to compare")
        return 0
    rng = np.random.default_rng(0)
    print(f"OpenCV {cv2.__version__}, one thread, median of {args.runs} forward passes")
    print(f"{'network':<22}{'input':>18}{'classic ms':>12}{'new ms':>9}{'max diff':>10}")
    for name, shape, outs in CASES:
        blob = rng.uniform(-2, 2, shape).astype(np.float32)
        got = {}
        for e in engines:
            net = cv2.dnn.readNetFromONNX(str(MODELS / name), getattr(cv2.dnn, e))
            got[e] = timed(net, blob, outs, args.runs)
        diff = max(float(np.abs(a - b).max()) for a, b in zip(got[engines[0]][1], got[engines[1]][1], strict=True))
        print(f"{name:<22}{'x'.join(map(str, shape)):>18}{got['ENGINE_CLASSIC'][0]:>12.1f}"
              f"{got['ENGINE_NEW'][0]:>9.1f}{diff:>10.1e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
