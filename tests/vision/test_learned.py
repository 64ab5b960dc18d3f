"""The learned reader's preprocessing (shared with scripts/train_dice.py) and models."""

import dataclasses
import importlib.util
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.dataset import load_dataset, parse_labels
from calibration.evaluate import score_image
from tests.vision.drawing import draw_die, tray
from vision import learned, read_dice
from vision.params import DEFAULT_PARAMS
from vision.reader import found_side, read_dice_classical

HAVE_MODELS = learned.models_present()
TRAIN_SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "train_dice.py"
BARTEK_CLOTH = (Path(__file__).resolve().parents[3] / "shared" / "data" / "real" / "bartek-polyhedral"
                / "20211121_173335.jpg")


def _train_dice():
    """scripts/train_dice.py as a module (torch is imported only to train)."""
    spec = importlib.util.spec_from_file_location("train_dice", TRAIN_SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("shape", [(1080, 1920), (600, 800), (640, 480), (68, 70), (128, 128)])
def test_detector_input_maps_back_to_the_frame(shape):
    frame = np.zeros((*shape, 3), np.uint8)
    di = learned.det_input(frame)
    h, w = di.image.shape[:2]
    assert h % learned.DET_MULTIPLE == 0 and w % learned.DET_MULTIPLE == 0
    assert max(h, w) <= max(learned.DET_LONG_PX, learned.CLOSE_UP_CANVAS_PX) + learned.DET_MULTIPLE
    x, y = shape[1] * 0.3, shape[0] * 0.7
    xd, yd = x * di.scale + di.offset[0], y * di.scale + di.offset[1]
    assert di.to_frame(xd, yd) == pytest.approx((x, y))


@pytest.mark.parametrize("side", [30.0, 60.0, 140.0])  # 140: shrunk before the warp
def test_crop_is_centred_on_the_die(side):
    img = tray(bgr=(60, 110, 40))
    draw_die(img, (400.0, 300.0), side, 1, angle_deg=10, body_bgr=(30, 30, 200), pip_bgr=(240, 240, 240))
    crop = learned.crop_die(img, (400.0, 300.0), side)
    assert crop.shape == (learned.CROP_PX, learned.CROP_PX, 3)
    n = learned.CROP_PX
    die_px = n / learned.CROP_SIDES
    # the middle is the white pip, a quarter side off is the red body, the corner is felt
    assert crop[n // 2, n // 2].min() > 180
    q = int(n / 2 + 0.3 * die_px)
    assert tuple(int(v) for v in crop[n // 2, q]) == pytest.approx((30, 30, 200), abs=40)
    assert tuple(int(v) for v in crop[1, 1]) == pytest.approx((60, 110, 40), abs=25)


@pytest.mark.parametrize("side", [30.0, 140.0])
def test_a_squashed_crop_shows_a_flattened_face_square(side):
    """A face seen obliquely, half as tall as wide, fills a crop that takes
    in half its height as a face seen from above fills the plain crop."""
    flat = tray(bgr=(60, 110, 40))
    half = side / 2
    cv2.rectangle(flat, (int(400 - half), int(300 - half / 2)), (int(400 + half), int(300 + half / 2)),
                  (30, 30, 200), -1)
    square = tray(bgr=(60, 110, 40))
    cv2.rectangle(square, (int(400 - half), int(300 - half)), (int(400 + half), int(300 + half)),
                  (30, 30, 200), -1)
    got = learned.crop_die(flat, (400.0, 300.0), side, squash=0.5).astype(np.int16)
    want = learned.crop_die(square, (400.0, 300.0), side).astype(np.int16)
    assert np.mean(np.abs(got - want) > 60) < 0.03
    assert np.mean(np.abs(learned.crop_die(flat, (400.0, 300.0), side).astype(np.int16) - want) > 60) > 0.1


@pytest.mark.parametrize("side,angle", [(70.0, 0.0), (140.0, 25.0), (100.0, 60.0)])
def test_a_crop_from_the_frames_reduction_is_the_dies_own(side, angle):
    """A read that cuts many crops of big dice shrinks the frame once
    (`Shrunk`): each die's crop from it shows the die as its own
    neighbourhood's crop does, the cells starting elsewhere (within one)."""
    img = tray(1600, 1200, bgr=(60, 110, 40))
    centres = [(301.3, 250.6), (777.0, 611.9), (1222.5, 903.2)]
    for c, value in zip(centres, (1, 5, 6), strict=True):
        draw_die(img, c, side, value, angle_deg=angle, body_bgr=(30, 30, 200), pip_bgr=(240, 240, 240))
    shrunk = learned.Shrunk(img)
    for c in centres:
        own = learned.crop_die(img, c, side, angle).astype(np.int16)
        got = learned.crop_die(img, c, side, angle, shrunk=shrunk).astype(np.int16)
        assert np.mean(np.abs(got - own)) < 3.0  # the same picture (mean grey level)
        assert np.mean(np.abs(got - own) > 60) < 0.02  # no pip or edge moved
    # off the frame it is black too
    assert not learned.crop_die(img, (-500.0, 300.0), side, shrunk=shrunk).any()


def test_the_frame_is_shrunk_once_only_for_many_crops_of_big_dice():
    img = np.zeros((1080, 1920, 3), np.uint8)
    assert learned.shrunk_for(img, [70.0] * 10) is None  # ten neighbourhoods: shrunk each
    assert isinstance(learned.shrunk_for(img, [70.0] * 300), learned.Shrunk)
    assert learned.shrunk_for(img, [30.0] * 3000) is None  # small dice are not shrunk at all


def test_crop_beyond_the_frame_is_black():
    img = tray()
    crop = learned.crop_die(img, (2.0, 300.0), 60.0)
    assert crop[:, :10].max() == 0


@pytest.mark.skipif(not HAVE_MODELS, reason="no bundled models")
def test_models_are_loaded_once():
    assert learned.load_models() is learned.load_models()


@pytest.mark.skipif(not HAVE_MODELS, reason="no bundled models")
def test_classical_reader_stays_available():
    img = tray()
    draw_die(img, (400, 300), 60, 5)
    assert [d.value for d in read_dice_classical(img).dice] == [5]
    assert [d.value for d in read_dice(img).dice] == [5]


@pytest.mark.skipif(not HAVE_MODELS, reason="no bundled models")
@pytest.mark.parametrize("value", [2, 3, 6])
def test_a_die_turned_a_quarter_reads_alike(value):
    """With the turned views averaged, a die's answer and its confidence do not
    depend on how it lies: the table sees the same read for the same face."""
    img = tray(bgr=(40, 90, 30))
    draw_die(img, (400.0, 300.0), 50.0, value, angle_deg=20, body_bgr=(230, 230, 230), pip_bgr=(20, 20, 20))
    net = learned.load_models().classifier
    crop = learned.crop_die(img, (400.0, 300.0), 50.0)
    p, _ = learned.classify(net, [crop, np.ascontiguousarray(np.rot90(crop))], views=4)
    assert int(p[0].argmax()) == int(p[1].argmax()) == value - 1
    assert p[0] == pytest.approx(p[1], abs=1e-4)
    single, _ = learned.classify(net, [crop], views=1)
    assert single.shape == p[:1].shape


@pytest.mark.skipif(not HAVE_MODELS, reason="no bundled models")
def test_second_classifier_is_optional(tmp_path):
    """The bigger classifier for unsure dice ships with the station; without
    its file the station still reads (with the first classifier only)."""
    assert learned.load_models().second is not None
    assert learned.load_models(second_path=str(tmp_path / "absent.onnx")).second is None


@pytest.mark.skipif(not HAVE_MODELS, reason="no bundled models")
def test_lean_network_is_optional(tmp_path):
    """The network that refuses leaning and stacked dice ships with the
    station; without its file the station still reads (the classifier's own
    cocked/stacked classes only)."""
    assert learned.load_models().lean is not None
    assert learned.load_models(lean_path=str(tmp_path / "absent.onnx")).lean is None


@pytest.mark.skipif(not learned.models_present(), reason="no bundled models")
def test_a_heap_of_a_hundred_dice_is_read_whole():
    """A heap of dice (shared sets have ~100 in one photo) is not cut at a
    fixed number of detections: every die is answered or refused."""
    img = tray(1600, 1200, seed=3)
    rng = np.random.default_rng(5)
    truth = []
    for row in range(10):
        for col in range(10):
            c = (100 + col * 150 + rng.uniform(-8, 8), 80 + row * 115 + rng.uniform(-8, 8))
            v = int(rng.integers(1, 7))
            draw_die(img, c, 60, v, float(rng.uniform(0, 90)))
            truth.append((c, v))
    r = read_dice(img)
    seen = list(r.dice) + list(r.rejected)
    found = sum(any(np.hypot(c[0] - s.center[0], c[1] - s.center[1]) < 25 for s in seen) for c, _ in truth)
    assert found == len(truth)
    right = sum(any(np.hypot(c[0] - d.center[0], c[1] - d.center[1]) < 25 and d.value == v
                    for d in r.dice) for c, v in truth)
    assert right >= 0.9 * len(truth)


@pytest.mark.skipif(not HAVE_MODELS, reason="no bundled models")
def test_a_cocked_die_the_classifier_reads_is_refused_by_the_lean_network():
    """scene_002_cocked: a white die leaning on another at (60, 98). The
    classifier alone answers it a value (a guess at a die no careful person
    reads); with the lean network it is refused (cocked or stacked: the one
    of the two the classifier rates higher), and the readable dice of the
    scene are still answered."""
    scenes = Path(__file__).resolve().parents[1] / "fixtures" / "scenes"
    sample = next(s for s in load_dataset(scenes) if s.image.name == "scene_002_cocked.jpg")
    frame = cv2.imread(str(sample.image))
    near = lambda items: [x for x in items if np.hypot(x.center[0] - 60, x.center[1] - 98) < 20]  # noqa: E731
    without = read_dice(frame, params=dataclasses.replace(DEFAULT_PARAMS, lean_max_p=1.01))
    assert near(without.dice), "the classifier alone answers the cocked die"
    r = read_dice(frame)
    assert not near(r.dice)
    assert [x.why for x in near(r.rejected)] in (["cocked"], ["stacked"])  # as the classifier leans
    for label in sample.dice:  # the readable dice, each answered its value
        assert [d.value for d in r.dice if np.hypot(d.center[0] - label.center[0],
                                                     d.center[1] - label.center[1]) < 20] == [label.value]


@pytest.mark.parametrize("centre,side", [((400.3, 300.7), 30.0), ((5.2, 7.9), 40.0), ((400.7, 300.2), 70.0)])
def test_training_crops_are_the_readers_crops(centre, side):
    # scripts/train_dice.py cuts its training crops from patches of the frame's own
    # pixels: untouched, a crop must be what the reader sees of the same die
    train_dice = _train_dice()
    img = tray(bgr=(60, 110, 40))
    draw_die(img, centre, side, 5, angle_deg=20, body_bgr=(30, 30, 200), pip_bgr=(240, 240, 240))
    patches = train_dice.Patches(**train_dice.Patches.pack([train_dice.native_patch(img, centre, side)]))
    crop, offset = patches.cut(0)
    want = learned.crop_die(img, centre, side)
    assert np.abs(crop.astype(int) - want).max() <= 1
    assert offset == pytest.approx((0.0, 0.0), abs=1e-6)
    # shifted by a tenth of a side: the die's centre is a tenth of a side the other way
    _, offset = patches.cut(0, shift=(0.1, 0.0))
    assert offset == pytest.approx((-0.1, 0.0), abs=1e-3)


def test_a_cloths_many_weak_peaks_do_not_shrink_the_dice():
    """A tablecloth printed with small motifs gives the detector many weak
    peaks the size of a motif: the frame's die side (which every die's crop is
    held near) is the dice's, not the motifs'."""
    dice = [learned.Found((100.0 * i, 50.0), 45.0 + i, 0.75) for i in range(4)]
    motifs = [learned.Found((30.0 * i, 300.0), 18.0, 0.35 + 0.01 * i) for i in range(12)]
    assert found_side(dice + motifs) == pytest.approx(46.5)
    # a frame of dice alone: the median of them all, weak and strong
    alone = [learned.Found((60.0 * i, 50.0), 40.0 + 2 * i, 0.9 - 0.05 * i) for i in range(9)]
    assert found_side(alone) == pytest.approx(np.median([f.side_px for f in alone if f.score >= 0.72]))
    assert found_side([]) == 1.0


@pytest.mark.shared
@pytest.mark.skipif(not BARTEK_CLOTH.is_file(), reason="../shared/data is absent")
def test_d10_on_a_printed_tablecloth_are_read():
    """bartek-polyhedral 20211121_173335: a cloth printed with dark motifs,
    about 30 weak detector peaks; its four d10 (two blue, two white) are read
    untaught (none were when the motifs set the dice's size)."""
    frame = cv2.imread(str(BARTEK_CLOTH))
    labels = json.loads(BARTEK_CLOTH.with_suffix(".json").read_text())["dice"]
    d10 = [d for d in labels if d["kind"] == "d10"]
    assert len(d10) == 4
    r = read_dice(frame)
    for d in d10:
        got = [a for a in r.dice if np.hypot(a.center[0] - d["center"][0], a.center[1] - d["center"][1]) < 25]
        assert [(a.kind, a.value) for a in got] == [("d10", d["value"])], d



@pytest.mark.parametrize("side", [140.0, 300.0])  # shrunk 2x and 4x before the warp
@pytest.mark.parametrize("centre", [(400.0, 300.0), (401.3, 299.6), (402.7, 303.5)])
def test_a_big_dies_crop_is_cut_where_and_as_large_as_asked(centre, side):
    """A die big enough to be shrunk before the warp (whole f-pixel cells,
    for speed) is cut centred and at the crop's scale: a white disc of a
    third of the die's side at its centre lands in the crop's middle, as
    large as the crop's scale makes it."""
    img = np.full((900, 1000, 3), 40, np.uint8)
    r = side / 6
    cv2.circle(img, (round(centre[0] * 16), round(centre[1] * 16)), round(r * 16), (255, 255, 255), -1,
               cv2.LINE_AA, shift=4)
    crop = learned.crop_die(img, centre, side)[..., 0].astype(np.float32) - 40
    n = learned.CROP_PX
    yy, xx = np.mgrid[0:n, 0:n]
    cx, cy = (xx * crop).sum() / crop.sum(), (yy * crop).sum() / crop.sum()
    assert (cx, cy) == pytest.approx(((n - 1) / 2, (n - 1) / 2), abs=0.25)
    k = n / (learned.CROP_SIDES * side)
    assert crop.sum() / 215 == pytest.approx(np.pi * (r * k) ** 2, rel=0.08)


@pytest.mark.skipif(not HAVE_MODELS, reason="no bundled models")
def test_touching_detector_is_optional(tmp_path):
    """The detector for touching dice ships with the station; without its
    file the station still reads (the first detector's peaks only)."""
    assert learned.load_models().touching is not None
    assert learned.load_models(touch_path=str(tmp_path / "absent.onnx")).touching is None


@pytest.mark.skipif(not HAVE_MODELS, reason="no bundled models")
@pytest.mark.parametrize("seed", [8, 28])
def test_both_dice_of_a_touching_pair_are_read(seed, monkeypatch):
    """Rendered trays of touching white d6 (calibration.synth, theme
    `touching`; two seeds where it matters): the first detector sees one die
    where two touch, the touching-dice detector finds the other, and every
    die is read right."""
    from calibration.synth import make_scene

    frame, label = make_scene(seed, (800, 600), ("d6",), "touching")
    truth = sorted(d["value"] for d in label["dice"])
    assert sorted(d.value for d in read_dice(frame).dice) == truth
    without = dataclasses.replace(learned.load_models(), touching=None)
    monkeypatch.setattr(learned, "load_models", lambda *a, **k: without)
    no_zoom = dataclasses.replace(DEFAULT_PARAMS, zoom_out=1.0)  # the look for big dice finds it too
    assert len(read_dice(frame, params=no_zoom).dice) == len(truth) - 1


@pytest.mark.skipif(not HAVE_MODELS, reason="no bundled models")
def test_a_tray_of_dice_touching_in_pairs_is_read():
    """The benchmark's tray of 20 dice thrown together in 10 touching pairs
    (bench/bench_read.py `20p`, 2 MP, seed 7): where the first detector sees a
    pair as one die, the pair is read as two (the touching detector's two
    peaks, or the two halves of the oblong they make), and no die is read
    wrong. Without those looks half the dice went unread."""
    from calibration.synth import make_scene
    from calibration.synth_layout import pairs_scene_spec

    frame, label = make_scene(pairs_scene_spec((1920, 1080), 10, 0.032 * 1920, 7))
    sample = parse_labels(label, Path("pairs.png"))

    def right_and_wrong(params):
        result = score_image(sample, read_dice(frame, params=params), frame.shape)  # as `dicestation eval`
        return result.right, result.wrong

    right, wrong = right_and_wrong(DEFAULT_PARAMS)
    assert right >= 18 and wrong == 0
    before = dataclasses.replace(DEFAULT_PARAMS, twin_apart=0.0, domino_min=0.0, sure_side_min=0)
    assert right_and_wrong(before)[0] <= 12


@pytest.mark.skipif(not HAVE_MODELS, reason="no bundled models")
def test_two_touching_dice_read_apart_both_stand():
    """Two touching dice near a corner of the benchmark's tray of pairs (2 MP,
    seed 103): a blue 1 and a green 5, each read by the d6 reader, lie nearer
    each other than the face network's merge distance (the frame's die side
    is what the detector finds, side faces with the top). Both are answered,
    not only the surer."""
    from calibration.synth import make_scene
    from calibration.synth_layout import pairs_scene_spec

    frame, label = make_scene(pairs_scene_spec((1920, 1080), 10, 0.032 * 1920, 103))
    dice = read_dice(frame).dice
    for want in (d for d in label["dice"] if 900 < d["center"][0] < 1020 and 760 < d["center"][1] < 880):
        near = [d for d in dice if np.hypot(d.center[0] - want["center"][0], d.center[1] - want["center"][1]) < 20]
        assert [(d.value, d.colour) for d in near] == [(want["value"], want["colour"])], want


def test_two_dice_flush_make_an_oblong_split_in_halves():
    """Two dice flush side by side, unlike the felt, are halved where they
    meet; a single die is no oblong."""
    from vision.reader import _domino

    img = tray(bgr=(60, 110, 40))
    draw_die(img, (300.0, 200.0), 50.0, 3, body_bgr=(240, 240, 240), pip_bgr=(20, 20, 20))
    draw_die(img, (350.0, 200.0), 50.0, 5, body_bgr=(240, 240, 240), pip_bgr=(20, 20, 20))
    draw_die(img, (600.0, 200.0), 50.0, 2, body_bgr=(240, 240, 240), pip_bgr=(20, 20, 20))
    felt = tuple(float(v) for v in cv2.cvtColor(np.uint8([[(60, 110, 40)]]), cv2.COLOR_BGR2Lab)[0, 0])
    halves = sorted(_domino(img, (325.0, 200.0), 50.0, felt))
    assert len(halves) == 2
    for (c, side), x in zip(halves, (300.0, 350.0), strict=True):
        assert abs(c[0] - x) < 6 and abs(c[1] - 200.0) < 6 and 40 < side < 60
    assert _domino(img, (600.0, 200.0), 50.0, felt) == []


@pytest.mark.skipif(not HAVE_MODELS, reason="no models")
def test_hard_patches_can_be_readable_dice_only():
    # train_dice.py pcls --hard weighs up the patches the classifier reads unsurely;
    # with --hard-dice-only a cocked/stacked crop is not weighed up (it made a
    # small classifier refuse flat dice as cocked)
    train_dice = _train_dice()
    img = tray(bgr=(60, 110, 40))
    centres = [(150.0, 150.0), (400.0, 150.0), (650.0, 150.0)]
    for c, v in zip(centres, (2, 5, 3), strict=True):
        draw_die(img, c, 50.0, v, body_bgr=(240, 240, 240), pip_bgr=(20, 20, 20))
    x = train_dice.Patches(**train_dice.Patches.pack([train_dice.native_patch(img, c, 50.0) for c in centres]))
    y = np.array([1, 4, learned.CLASS_OF_WHY["cocked"]])  # the third labelled cocked
    val = np.zeros(3, bool)
    wt = np.full(3, 1 / 3)
    every = train_dice._hard_weighted(x, y, val, wt, learned.CLS_MODEL, 4.0, below=1.01)
    assert every == pytest.approx(wt)  # all three unsure (P < 1.01): all weighed up alike
    dice = train_dice._hard_weighted(x, y, val, wt, learned.CLS_MODEL, 4.0, below=1.01, dice_only=True)
    assert dice[0] == pytest.approx(dice[1]) and dice[0] == pytest.approx(4 * dice[2])
