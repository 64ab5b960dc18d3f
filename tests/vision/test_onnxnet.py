"""vision.onnxnet: the shipped networks run on onnxruntime, and on cv2.dnn
where onnxruntime has no wheel, with the same outputs (so the same reads)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.drawing import draw_die, tray
from vision import faces, learned, numerals, onnxnet, read_dice
from vision.onnxnet import Net

HAVE_ORT = onnxnet.HAVE_ORT
MODELS = learned.MODELS_DIR
NUMERAL_SCENE = Path(__file__).parents[1] / "fixtures" / "numerals" / "unseen" / "close_000_closeup.jpg"
FACES_SCENE = Path(__file__).parents[1] / "fixtures" / "numerals" / "eval" / "scene_000_plain.jpg"


def _crops() -> np.ndarray:
    """Real crops of drawn dice (not noise): the inputs the reader sends."""
    img = tray(bgr=(60, 110, 40), seed=2)
    centres = [(150.0 + 110 * i, 200.0 + 30 * (i % 2)) for i in range(6)]
    for i, c in enumerate(centres):
        draw_die(img, c, 55.0, i + 1, angle_deg=13 * i, body_bgr=(235, 235, 235), pip_bgr=(20, 20, 20))
    return learned.blob_of([learned.crop_die(img, c, 55.0) for c in centres])


@pytest.mark.skipif(not HAVE_ORT, reason="onnxruntime not installed")
@pytest.mark.parametrize("name", ["dice_cls.onnx", "dice_cls_medium.onnx", "dice_lean.onnx", "faces.onnx"])
def test_both_runtimes_give_the_same_outputs(name):
    if not (MODELS / name).is_file():
        pytest.skip(f"{name} not installed")
    blob = _crops()
    outs = ["logits", "embedding"] if name == "faces.onnx" else None
    fast = Net(MODELS / name, "onnxruntime").run(blob, outs)
    slow = Net(MODELS / name, "cv2.dnn", classic=True).run(blob, outs)
    assert len(fast) == len(slow)
    for a, b in zip(fast, slow, strict=True):
        assert a.shape == b.shape
        assert np.abs(a - b).max() < 1e-3


@pytest.mark.parametrize("runtime", ["onnxruntime", "cv2.dnn"])
def test_a_big_batch_is_run_in_small_passes_with_the_same_outputs(runtime, monkeypatch):
    """The station's memory: a forward pass holds every layer's outputs of its
    whole batch, so 24 crops go in passes of MAX_PASS_PIXELS; each crop's
    outputs (both of the face network's) are what it gets alone."""
    if runtime == "onnxruntime" and not HAVE_ORT:
        pytest.skip("onnxruntime not installed")
    if not (MODELS / "faces.onnx").is_file():
        pytest.skip("faces.onnx not installed")
    net = Net(MODELS / "faces.onnx", runtime, classic=True)
    blob = np.ascontiguousarray(np.concatenate([_crops()] * 4))
    passes = []
    real = Net._pass
    monkeypatch.setattr(Net, "_pass", lambda self, b, o: passes.append(len(b)) or real(self, b, o))
    both = net.run(blob, ["logits", "embedding"])
    per = onnxnet.MAX_PASS_PIXELS // (48 * 48)
    assert 1 <= max(passes) <= per < len(blob) and sum(passes) == len(blob)
    alone = [net.run(blob[i:i + 1], ["logits", "embedding"]) for i in range(0, len(blob), 5)]
    for out, k in zip(both, range(2), strict=True):
        assert out.shape[0] == len(blob)
        assert np.abs(out[::5] - np.concatenate([a[k] for a in alone])).max() < 1e-4


@pytest.mark.skipif(not HAVE_ORT, reason="onnxruntime not installed")
@pytest.mark.parametrize("classic", [False, True])
def test_the_8_bit_numeral_network_gives_the_same_outputs_on_both_runtimes(classic):
    """numerals.onnx is quantised (scripts/quantise.py): OpenCV's dnn
    runs its 8-bit layers as onnxruntime does, so a Pi without onnxruntime
    reads the same numerals."""
    if not (MODELS / numerals.MODEL_NAME).is_file():
        pytest.skip("numerals.onnx not installed")
    label = json.loads(NUMERAL_SCENE.with_suffix(".json").read_text())
    grey = cv2.imread(str(NUMERAL_SCENE), cv2.IMREAD_GRAYSCALE)
    side = 0.2 * grey.shape[1]  # a die of these close-ups
    reads = {}
    for runtime in ("onnxruntime", "cv2.dnn"):
        net = Net(MODELS / numerals.MODEL_NAME, runtime, classic=classic)
        probs = [numerals.probabilities(net, numerals.crops(grey, d["center"], side)) for d in label["dice"]]
        reads[runtime] = probs, [numerals.decide(p) for p in probs]
    (fast, fast_reads), (slow, slow_reads) = reads.values()
    # the runtimes round a few 8-bit values apart: probabilities within 0.005, the same reads
    assert max(np.abs(a - b).max() for a, b in zip(fast, slow, strict=True)) < 5e-3
    assert fast_reads == slow_reads
    assert [(r.kind, r.value) for r in fast_reads if isinstance(r, numerals.NumeralRead)] == \
        [(d["kind"], d["value"]) for d in label["dice"]]  # and read right


@pytest.mark.skipif(not HAVE_ORT, reason="onnxruntime not installed")
@pytest.mark.parametrize("classic", [False, True])
def test_the_8_bit_face_network_gives_the_same_reads_on_both_runtimes(classic, monkeypatch):
    """faces.onnx is quantised (scripts/quantise.py): on OpenCV's dnn, either
    engine, its outputs and its embeddings (what a taught profile compares)
    are onnxruntime's, and a scene of d8, d10 and d10t reads the same."""
    if not (MODELS / faces.MODEL_NAME).is_file():
        pytest.skip("faces.onnx not installed")
    frame = cv2.imread(str(FACES_SCENE))
    nets = {rt: faces.FaceNet(Net(MODELS / faces.MODEL_NAME, rt, classic=classic)) for rt in onnxnet.RUNTIMES}
    label = json.loads(FACES_SCENE.with_suffix(".json").read_text())
    crops = [faces.crop(frame, d["center"], 60.0, a) for d in label["dice"] for a in (0.0, 45.0, 90.0)]
    (p_fast, e_fast), (p_slow, e_slow) = (nets[rt].forward(crops) for rt in onnxnet.RUNTIMES)
    assert np.abs(p_fast - p_slow).max() < 1e-3
    assert (e_fast * e_slow).sum(axis=1).min() > 0.999
    reads = {}
    for rt, net in nets.items():
        monkeypatch.setattr(faces, "load_net", lambda net=net: net)
        reads[rt] = [(d.kind, d.value) for d in read_dice(frame).dice]
    assert reads["onnxruntime"] == reads["cv2.dnn"]
    assert {(d["kind"], d["value"]) for d in label["dice"]} >= set(reads["onnxruntime"])
    assert {k for k, _ in reads["onnxruntime"]} >= {"d8", "d10"}  # numeral dice, read


@pytest.mark.skipif(not HAVE_ORT or not learned.models_present(), reason="onnxruntime or models not installed")
def test_the_detector_finds_the_same_dice_on_both_runtimes():
    img = tray(bgr=(60, 110, 40), seed=4)
    for i in range(5):
        draw_die(img, (120.0 + 140 * i, 300.0), 50.0, i + 1, angle_deg=20 * i,
                 body_bgr=(235, 235, 235), pip_bgr=(20, 20, 20))
    found = {}
    for rt in onnxnet.RUNTIMES:
        got, _ = learned.detect(Net(learned.DET_MODEL, rt), img, 0.3)
        found[rt] = sorted((round(f.center[0]), round(f.center[1])) for f in got)
    assert len(found["onnxruntime"]) == 5
    assert found["onnxruntime"] == found["cv2.dnn"]


@pytest.mark.skipif(not HAVE_ORT, reason="onnxruntime not installed")
def test_the_reader_uses_onnxruntime_when_installed():
    assert onnxnet.default_runtime() == "onnxruntime"
    assert learned.load_models().classifier.runtime == "onnxruntime"
    net = faces.load_net()
    assert net is None or net.net.runtime == "onnxruntime"


def test_an_unknown_runtime_is_named():
    with pytest.raises(ValueError, match="unknown runtime 'tflite'"):
        Net(MODELS / "dice_cls.onnx", "tflite")



@pytest.mark.skipif(not HAVE_ORT, reason="onnxruntime not installed")
def test_an_onnxruntime_that_cannot_run_falls_back_to_opencv(monkeypatch, caplog):
    """A broken onnxruntime (a wheel for another CPU) must not stop the
    station: by default OpenCV runs the network, with the same outputs, and
    says why; asked for by name, onnxruntime's error is raised."""
    def broken(model):
        raise RuntimeError("Illegal instruction in the CPU provider")

    monkeypatch.setattr(onnxnet, "_ort_session", broken)
    blob = _crops()
    net = Net(MODELS / "dice_cls.onnx")
    assert net.runtime == "cv2.dnn" and "Illegal instruction" in net.fallback
    assert "OpenCV's dnn runs it" in caplog.text
    ref = Net(MODELS / "dice_cls.onnx", "cv2.dnn").run(blob)[0]
    assert np.array_equal(net.run(blob)[0], ref)
    with pytest.raises(RuntimeError, match="Illegal instruction"):
        Net(MODELS / "dice_cls.onnx", "onnxruntime")
