"""Benchmark the runtimes of the bundled networks: onnxruntime and OpenCV's two dnn engines.

    .venv/bin/python bench/bench_engines.py [--runs 10]

For every network in vision/models this times one forward pass of a batch
the reader really sends (crops of 48 px, the detector's 2 MP input, the
face network's scan windows) on onnxruntime (what the reader uses where it
is installed, vision/onnxnet.py) and on cv2.dnn's classic and new engines
(OpenCV 5 reads an ONNX file with the new one unless told otherwise; the
reader's fallback runs the crop networks on the classic one, the detector
and the face network on the default), and prints the largest difference
of each from onnxruntime's outputs. Run it on one core: OpenCV's (and so
onnxruntime's) threads are limited to 1; this VM's speed drifts within
minutes, so compare the columns of one run only.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.onnxnet import Net, default_runtime  # noqa: E402

MODELS = ROOT / "vision" / "models"
# (file, input shape, outputs) as the reader asks them
CASES = (
    ("dice_det.onnx", (1, 3, 256, 448), None),  # a 16:9 frame at DET_LONG_PX
    ("dice_cls.onnx", (20, 3, 48, 48), None),  # the first look at 20 dice
    ("dice_cls_medium.onnx", (16, 3, 48, 48), None),  # 4 unsure dice, 2 crops, 2 views
    ("dice_lean.onnx", (12, 3, 48, 48), None),
    ("faces.onnx", (36, 3, 48, 48), ["logits", "embedding"]),  # 18 dice, 2 views
    ("faces.onnx", (16, 3, 112, 112), ["logits", "embedding"]),  # 4 scan windows
    ("numerals.onnx", (24, 1, 48, 48), None),  # 2 unsure numeral dice, 12 turns (8 bits)
)


def timed(net: Net, blob: np.ndarray, outs, runs: int) -> tuple[float, list[np.ndarray]]:
    res = net.run(blob, outs)
    ms = []
    for _ in range(runs):
        t = time.perf_counter()
        net.run(blob, outs)
        ms.append((time.perf_counter() - t) * 1e3)
    return statistics.median(ms), [np.asarray(r) for r in res]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    runtimes = {"classic": ("cv2.dnn", True), "new": ("cv2.dnn", False), "onnxruntime": ("onnxruntime", False)}
    if not hasattr(cv2.dnn, "ENGINE_CLASSIC"):
        del runtimes["new"]  # OpenCV 4: one engine
    if default_runtime() != "onnxruntime":
        del runtimes["onnxruntime"]
    rng = np.random.default_rng(0)
    print(f"OpenCV {cv2.__version__}, one thread, median of {args.runs} forward passes (ms)")
    print(f"{'network':<22}{'input':>18}" + "".join(f"{r:>13}" for r in runtimes) + f"{'max diff':>10}")
    for name, shape, outs in CASES:
        blob = rng.uniform(-2, 2, shape).astype(np.float32)
        got = {r: timed(Net(MODELS / name, rt, classic), blob, outs, args.runs)
               for r, (rt, classic) in runtimes.items()}
        ref = got[list(runtimes)[-1]][1]
        diff = max(float(np.abs(a - b).max()) for r in runtimes for a, b in zip(got[r][1], ref, strict=True))
        print(f"{name:<22}{'x'.join(map(str, shape)):>18}" + "".join(f"{got[r][0]:>13.1f}" for r in runtimes)
              + f"{diff:>10.1e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
