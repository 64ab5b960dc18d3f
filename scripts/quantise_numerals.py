#!/usr/bin/env python3
"""Quantise the numeral network to 8 bits (vision/models/numerals.onnx).

A development tool (the `quantise` extra: onnx and onnxruntime's
quantisation tools; never a run-time dependency):

    git show 55b02ea:vision/models/numerals.onnx > /tmp/num_g.onnx   # the float network, as trained
    .venv/bin/pip install -e '.[quantise]'
    .venv/bin/python scripts/quantise_numerals.py /tmp/num_g.onnx --out vision/models/numerals.onnx

The float network (scripts/train_numerals.py) is turned into a QDQ network:
weights 8 bits per output channel, activations 8 bits with ranges measured
on crops the reader cuts (`vision.numerals.crops`, every turn, both scales)
of dice of every kind drawn by calibration.synth (seeds SEED..SEED+SCENES,
themes plain, crowded, closeup), each activation's range its 99.999th
percentile (the full range, MinMax, moved twice as many answers on real
photos as this; onnxruntime's default). The first convolution (the grey pixels)
and the classifier stay in float: quantised, they moved the most answers.
onnxruntime runs the result about twice as fast on one core, and OpenCV's
dnn reads it too, with the same outputs (bench/bench_kinds.py,
vision/models/README-numerals.md).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.numerals import ANGLES, SCALES, crops, normalise  # noqa: E402

SEED = 9100
SCENES = 48
THEMES = ("plain", "crowded", "closeup")
KINDS = ("d6", "d8", "d10", "d10t")
BATCH = 24


def calibration_crops(seed: int = SEED, scenes: int = SCENES) -> np.ndarray:
    """(N, 1, CROP_PX, CROP_PX) float32: the network's inputs for the dice
    (and the bare tray) of `scenes` drawn scenes, as the reader cuts them."""
    import cv2

    from calibration.synth import render_scene
    from calibration.synth_layout import random_scene_spec

    rng = np.random.default_rng(seed)
    out = []
    for i in range(scenes):
        spec = random_scene_spec(seed + i, (1280, 720), KINDS, THEMES[i % len(THEMES)])
        image, layers = render_scene(spec)
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        for d, lay in zip(spec.dice, layers, strict=True):
            if not d.hidden:
                out.append(crops(grey, lay.center_xy, d.size_px, ANGLES, SCALES))
        h, w = grey.shape
        for _ in range(3):  # bare tray: `none` crops
            c = (float(rng.uniform(0.1, 0.9) * w), float(rng.uniform(0.1, 0.9) * h))
            out.append(crops(grey, c, 0.05 * w, ANGLES, SCALES[:1]))
    return normalise(np.concatenate(out))


def quantise(src: Path, out: Path, blob: np.ndarray) -> None:
    import onnx
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    class Reader(CalibrationDataReader):
        def __init__(self, name: str):
            self._it = iter([{name: blob[i:i + BATCH]} for i in range(0, len(blob) - BATCH + 1, BATCH)])

        def get_next(self):
            return next(self._it, None)

    with tempfile.TemporaryDirectory() as tmp:
        pre = Path(tmp) / "pre.onnx"
        quant_pre_process(str(src), str(pre), skip_symbolic_shape=True)
        model = onnx.load(str(pre))
        weighted = [n.name for n in model.graph.node if n.op_type in ("Conv", "Gemm", "MatMul")]
        quantize_static(str(pre), str(out), Reader(model.graph.input[0].name),
                        quant_format=QuantFormat.QDQ, per_channel=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        calibrate_method=CalibrationMethod.Percentile,
                        nodes_to_exclude=[weighted[0], weighted[-1]])


def compare(src: Path, out: Path, blob: np.ndarray) -> None:
    """How far the quantised network's answers are from the float one's."""
    from vision.onnxnet import Net, softmax

    a = softmax(Net(src.read_bytes()).run(blob)[0])
    b = softmax(Net(out.read_bytes()).run(blob)[0])
    print(f"{len(blob)} crops: top class the same for {np.mean(a.argmax(1) == b.argmax(1)):.2%}; "
          f"probabilities apart by {np.abs(a - b).max(axis=1).mean():.4f} on average, "
          f"{np.abs(a - b).max():.3f} at most")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("float_model", type=Path, help="the network as scripts/train_numerals.py wrote it")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--scenes", type=int, default=SCENES)
    args = ap.parse_args()
    blob = calibration_crops(args.seed, args.scenes)
    quantise(args.float_model, args.out, blob)
    held = calibration_crops(args.seed + 1000, max(3, args.scenes // 4))  # scenes the ranges were not measured on
    compare(args.float_model, args.out, held)
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
