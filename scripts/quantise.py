#!/usr/bin/env python3
"""Quantise a shipped network to 8 bits: the numeral network or the face network.

A development tool (the `quantise` extra: onnx and onnxruntime's
quantisation tools; never a run-time dependency):

    .venv/bin/pip install -c constraints.txt -e '.[quantise]'
    git show 55b02ea:vision/models/numerals.onnx > /tmp/num_g.onnx   # the float networks, as trained
    git show ff5787f:vision/models/faces.onnx > /tmp/faces_w3.onnx
    .venv/bin/python scripts/quantise.py numerals /tmp/num_g.onnx --out vision/models/numerals.onnx
    .venv/bin/python scripts/quantise.py faces /tmp/faces_w3.onnx --out vision/models/faces.onnx

The float network is turned into a QDQ network: weights 8 bits per output
channel, activations 8 bits with ranges measured on the inputs the reader
gives it. The first convolution (the pixels) and the classifier stay in
float: quantised, they moved the most answers. onnxruntime runs the result
about twice as fast on one core, and OpenCV's dnn reads it too
(bench/bench_kinds.py, vision/models/README-*.md).

- `numerals`: the crops `vision.numerals.crops` cuts (every turn, both
  scales) of dice of every kind drawn by calibration.synth (seeds
  SEED..SEED+SCENES, themes plain, crowded, closeup), and of the bare tray.
  Each activation's range is its 99.999th percentile: the full range
  (MinMax, onnxruntime's default) moved twice as many answers on real
  photos.
- `faces`: what the face network is given while `read_dice` reads drawn
  scenes of every kind (seeds FACE_SEED..) and rendered tabas (from
  ../shared/taba3d, when it is there): the crops of dice, and the windows
  of the second look cut into crops. The convolution that gives the
  embedding (what a taught profile compares) stays in float too: the
  quantiser takes the Relu after it into its range and would clip the
  embedding's negative half; kept in float, a taught profile's embeddings
  move by a cosine of 0.999, and profiles taught before still read. The
  ranges are the full ones (MinMax): of the six ways tried it moved the
  fewest of the measured figures (docs/teaching.md, twenty-ninth
  session).
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

SEED = 9100  # numerals
SCENES = 48
FACE_SEED = 9300  # faces
FACE_SCENES = 48
TABA_SCENES = 16
THEMES = ("plain", "crowded", "closeup")
KINDS = ("d6", "d8", "d10", "d10t")
BATCH = 24


def calibration_crops(seed: int = SEED, scenes: int = SCENES) -> np.ndarray:
    """(N, 1, CROP_PX, CROP_PX) float32: the numeral network's inputs for the
    dice (and the bare tray) of `scenes` drawn scenes, as the reader cuts them."""
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


def face_inputs(seed: int = FACE_SEED, scenes: int = FACE_SCENES, tabas: int = TABA_SCENES) -> np.ndarray:
    """(N, 3, CROP_PX, CROP_PX) float32: what the face network is given while
    `read_dice` reads `scenes` drawn scenes of every kind and `tabas` rendered
    taba scenes (none when ../shared/taba3d is absent); the second look's
    windows cut into crops every 16 pixels."""
    from calibration.synth import make_scene
    from vision import faces, read_dice

    blobs: list[np.ndarray] = []
    run = faces.FaceNet._run

    def recorded(self, blob):
        blobs.append(blob.copy())
        return run(self, blob)

    faces.FaceNet._run = recorded
    try:
        for i in range(scenes):
            read_dice(make_scene(seed + i, (1280, 720), KINDS, THEMES[i % len(THEMES)])[0])
        for image in _taba_images(seed, tabas):
            read_dice(image)
    finally:
        faces.FaceNet._run = run
    side, step = faces.CROP_PX, 16
    out = []
    for b in blobs:
        h, w = b.shape[2:]
        out += [b[:, :, y:y + side, x:x + side] for y in range(0, h - side + 1, step)
                for x in range(0, w - side + 1, step)]
    return np.concatenate(out)


def _taba_images(seed: int, count: int):
    from calibration.taba_model import DEFAULT_PLY, load_model, load_poses
    from calibration.taba_render import random_scene

    if count and not Path(DEFAULT_PLY).is_file():
        print(f"no taba scan at {DEFAULT_PLY}: calibrated without tabas")
        return
    model, poses = (load_model(), load_poses()) if count else (None, None)
    for i in range(count):
        rng = np.random.default_rng([seed, i])
        yield random_scene(rng, 1000, 750, int(rng.integers(2, 6)), model=model, poses=poses).image


NETWORKS = {
    # name: (inputs(seed, scenes), default seed, default scenes, convolutions kept in float
    #        by their place among the weighted nodes, how activation ranges are measured,
    #        the outputs compared: class logits first, then an embedding if any)
    "numerals": (calibration_crops, SEED, SCENES, (0, -1), "Percentile", None),
    "faces": (face_inputs, FACE_SEED, FACE_SCENES, (0, -2, -1), "MinMax", ["logits", "embedding"]),
}


def quantise(src: Path, out: Path, blob: np.ndarray, keep_float: tuple[int, ...] = (0, -1),
             method: str = "Percentile") -> None:
    """Write `src` in 8 bits to `out`, activation ranges from `blob` (`method`:
    "Percentile", the 99.999th, or "MinMax"); the weighted nodes at the
    places `keep_float` stay in float."""
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
                        calibrate_method=getattr(CalibrationMethod, method),
                        nodes_to_exclude=sorted({weighted[i] for i in keep_float}))


def compare(src: Path, out: Path, blob: np.ndarray, outputs: list[str] | None) -> None:
    """How far the quantised network's answers (and embedding, when `outputs`
    names one after the logits) are from the float one's."""
    from vision.faces import _unit
    from vision.onnxnet import Net, softmax

    ra, rb = (Net(m.read_bytes()).run(blob, outputs) for m in (src, out))
    a, b = softmax(ra[0].reshape(len(blob), -1)), softmax(rb[0].reshape(len(blob), -1))
    print(f"{len(blob)} crops: top class the same for {np.mean(a.argmax(1) == b.argmax(1)):.2%}; "
          f"probabilities apart by {np.abs(a - b).max(axis=1).mean():.4f} on average, "
          f"{np.abs(a - b).max():.3f} at most")
    if outputs and len(outputs) > 1:
        ea, eb = (_unit(r[1].reshape(len(blob), -1)) for r in (ra, rb))
        cos = (ea * eb).sum(axis=1)
        print(f"embeddings: cosine {cos.mean():.4f} on average, {cos.min():.4f} at least")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("network", choices=sorted(NETWORKS))
    ap.add_argument("float_model", type=Path, help="the network as its training script wrote it")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, help="first seed of the drawn scenes")
    ap.add_argument("--scenes", type=int, help="how many drawn scenes")
    args = ap.parse_args()
    inputs, seed, scenes, keep_float, method, outputs = NETWORKS[args.network]
    seed = seed if args.seed is None else args.seed
    scenes = scenes if args.scenes is None else args.scenes
    blob = inputs(seed, scenes)
    quantise(args.float_model, args.out, blob, keep_float, method)
    held = inputs(seed + 1000, max(3, scenes // 4))  # scenes the ranges were not measured on
    compare(args.float_model, args.out, held[:4000], outputs)
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
