"""The face network (vision.faces) and reading taught sets (vision.kinds).

- the ONNX model loads and runs (vision.onnxnet), on crops and densely;
- its kind head names the kind of the labelled numeral dice and tabas of the
  fixtures (never trained on: seeds 912 and 4);
- golden: a profile taught from tests/fixtures/numerals/teach reads
  tests/fixtures/numerals/eval and tests/fixtures/tabas (floors as measured;
  a wrong value is a failure), refusing cocked dice and tabas on an end.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration import profile_io
from calibration.dataset import load_dataset, parse_labels
from calibration.evaluate import evaluate
from calibration.synth import make_scene
from calibration.synth_spec import THEMES
from calibration.teach import _blobs, _sides, teach, teach_samples
from tests.vision.netfault import unloadable
from vision import faces, read_dice
from vision.params import DEFAULT_PARAMS

FIX = Path(__file__).resolve().parents[1] / "fixtures"
NUM_TEACH = FIX / "numerals" / "teach"
NUM_EVAL = FIX / "numerals" / "eval"
TABAS = FIX / "tabas"
NET = faces.load_net()

pytestmark = pytest.mark.skipif(NET is None, reason="vision/models/faces.onnx not installed")

# floors: the committed model as measured (issue 4's targets are NOT met yet:
# 99 % per kind after teaching); raise them as the network is trained further
KIND_HEAD_MIN = 0.5  # measured 0.74 (faces_v5), kind at labelled centres
GOLDEN_RIGHT_MIN = 0.98  # measured 76/76 since the scan looks further round two touching d6 seen as one
# peak (vision.kinds.SCAN_PAIR_REACH_CELLS); 73/76 = 96 % read right since the numeral network looks at what the
# profile refused (two d8 under glare; 71/76 before, faces_w3 in 8 bits). Earlier: 70/76 faces_w3, 71/76
# faces_v10 once a smooth taba the d6 classifier calls blurred was read, 69/76 before, 66/76 with the
# whole-frame scan, 17/76 faces_v5
WRONG_MAX = 0.03  # measured 0 wrong of 76 (1, a d8, before untaught faces needed the network's lean)
COLOUR_NUMERALS_MIN = 0.85  # measured 35/38 = 92 % (white numerals under a warm lamp named ivory; 27/38 before
# the frame's own white point, vision.colour.frame_light)
COLOUR_TABAS_MIN = 0.9  # measured 29/29
UNREADABLE_ANSWERED_MAX = 3  # measured 2 of 11 (faces_w3; 3 with faces_v10, 4 before the lean network
# refused a stacked d6): two cocked d6 answered by the d6 reader; with faces_v10 also a taba on an end


def test_model_runs_on_crops_and_densely():
    crops = np.random.default_rng(0).integers(0, 255, (3, faces.CROP_PX, faces.CROP_PX, 3),
                                              dtype=np.uint8)
    probs, emb = NET.forward(list(crops))
    assert probs.shape == (3, len(faces.CLASSES))
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-4)
    assert np.allclose(np.linalg.norm(emb, axis=1), 1.0, atol=1e-3)
    dense = NET.dense_many([np.zeros((96, 128, 3), np.uint8)] * 2)
    assert dense.shape[0] == 2
    dense = dense[0]
    assert dense.shape[2] == len(faces.CLASSES)
    assert dense.shape[:2] == ((96 - faces.CROP_PX) // faces.STRIDE_PX + 1,
                               (128 - faces.CROP_PX) // faces.STRIDE_PX + 1)


def test_dense_cell_is_the_crop_at_its_corner():
    rng = np.random.default_rng(1)
    img = cv2.GaussianBlur(rng.integers(0, 255, (80, 80, 3), dtype=np.uint8), (5, 5), 0)
    dense = NET.dense_many([img])[0]
    y, x = 2, 3
    p, _ = NET.forward([img[y * 8 : y * 8 + 48, x * 8 : x * 8 + 48]])
    # same pixels; only the zero padding at the crop's own edge differs
    assert int(dense[y, x].argmax()) == int(p[0].argmax()) or np.abs(dense[y, x] - p[0]).max() < 0.3


@pytest.mark.skipif(not NUM_EVAL.is_dir() or not TABAS.is_dir(), reason="no fixtures")
def test_kind_head_names_the_kind_at_the_labelled_centre():
    right = total = 0
    for s in load_dataset(NUM_EVAL) + load_dataset(TABAS):
        frame = cv2.imread(str(s.image))
        pts = [d.center for d in s.dice]
        sides = _sides(pts, _blobs(frame)[0], frame)
        crops = [faces.crop(frame, c, sd) for c, sd in zip(pts, sides, strict=True)]
        probs, _ = NET.forward(crops)
        kp = faces.kind_probs(probs)
        for i, d in enumerate(s.dice):
            total += 1
            right += max(faces.KINDS, key=lambda k, i=i: kp[k][i]) == d.kind
    assert total > 30
    assert right / total >= KIND_HEAD_MIN


@pytest.fixture(scope="module")
def taught(tmp_path_factory):
    if not NUM_TEACH.is_dir():
        pytest.skip("no teaching fixtures")
    p = teach(NUM_TEACH)
    out = profile_io.save(p, tmp_path_factory.mktemp("prof"))
    size = sum(f.stat().st_size for f in out.iterdir())
    assert size < 2_000_000
    return profile_io.load(out)


def test_profile_knows_the_taught_kinds(taught):
    assert {"d8", "d10", "d10t", "taba"} <= set(taught.kinds)
    assert taught.features.shape[1] > 0


@pytest.mark.skipif(not NUM_EVAL.is_dir() or not TABAS.is_dir(), reason="no fixtures")
def test_golden_numerals_and_tabas_after_teaching(taught):
    samples = load_dataset(NUM_EVAL) + load_dataset(TABAS)
    report = evaluate(samples, lambda f: read_dice(f, taught))
    kinds = Counter(d.kind for s in samples for d in s.dice)  # labelled, found or not
    assert {"d8", "d10", "d10t", "taba"} <= set(kinds)
    assert report.total("right") >= GOLDEN_RIGHT_MIN * report.total("labelled")
    assert report.total("unreadable_answered") <= UNREADABLE_ANSWERED_MAX


@pytest.mark.skipif(not NUM_EVAL.is_dir() or not TABAS.is_dir(), reason="no fixtures")
def test_golden_numerals_and_tabas_no_wrong_values(taught):
    samples = load_dataset(NUM_EVAL) + load_dataset(TABAS)
    report = evaluate(samples, lambda f: read_dice(f, taught))
    assert report.total("wrong") <= WRONG_MAX * report.total("labelled")


def test_the_second_look_reads_dice_the_first_look_missed(monkeypatch):
    """Two tabas of a rendered scene are refused at the first look (the blob's
    centre reads as nothing); the network's look around the refusals reads them."""
    frame = cv2.imread(str(TABAS / "taba_4_00000.jpg"))
    want = [("carnero", (324, 392)), ("tripas", (122, 467))]

    def read_at(r, value, at):
        return any(d.kind == "taba" and d.value == value and np.hypot(d.center[0] - at[0], d.center[1] - at[1]) < 20
                   for d in r.dice)

    r = read_dice(frame)
    assert all(read_at(r, v, at) for v, at in want)
    monkeypatch.setattr("vision.kinds._add_scanned", lambda net, frame, typical, answers, refused, *a, **k:
                        (answers, refused))
    r = read_dice(frame)
    assert not any(read_at(r, v, at) for v, at in want)  # the first look alone


@pytest.mark.skipif(not NUM_EVAL.is_dir() or not TABAS.is_dir(), reason="no fixtures")
def test_numeral_dice_and_tabas_read_untaught_have_their_colour_named():
    """The body colour of a numeral die (no pips to leave out: the median of a
    disc over it) and of a taba (`bone`, or a painted one's colour)."""
    for folder, floor in ((NUM_EVAL, COLOUR_NUMERALS_MIN), (TABAS, COLOUR_TABAS_MIN)):
        report = evaluate(load_dataset(folder), read_dice)
        assert report.total("colour_labelled") >= 25
        assert report.total("colour_right") >= floor * report.total("colour_labelled"), folder.name


def _jpeg(img):
    return cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])[1], cv2.IMREAD_COLOR)


RENDERED_KINDS = ("d6", "d8", "d10", "d10t")


@pytest.fixture(scope="module")
def rendered_profile(tmp_path_factory):
    """A profile taught on 16 generated scenes of numeral dice and d6 (seeds
    960000+, as make_scenes.py draws them and writes them as JPEG)."""
    folder = tmp_path_factory.mktemp("teach960")
    samples = []
    for i in range(16):
        img, lab = make_scene(960_000 + i, (1200, 900), RENDERED_KINDS, THEMES[i % len(THEMES)])
        path = folder / f"s{i}.jpg"
        cv2.imwrite(str(path), img, [cv2.IMWRITE_JPEG_QUALITY, 90])
        samples.append(parse_labels(lab, path))
    return teach_samples(samples)


@pytest.mark.slow
@pytest.mark.parametrize("seed,theme", [(901_011, "warm"), (901_001, "touching")])
def test_a_taught_set_does_not_overturn_a_d6_the_pip_reader_refused_on_exemplars_alone(
        rendered_profile, seed, theme):
    """A d6 the d6 reader refuses (`cocked`: under a warm lamp, it leans on
    its neighbour; two touching dice) was answered by the taught exemplars as
    another face (1 for a 4; 2 for a 1, the network agreeing); now a taught d6
    never overturns `cocked`, and the scene (seed 901000+, as make_scenes.py
    draws it) has no wrong answer."""
    img, lab = make_scene(seed, (1200, 900), RENDERED_KINDS, theme)
    r = read_dice(_jpeg(img), rendered_profile)
    wrong = [(d["kind"], d["value"], a.kind, a.value) for d in lab["dice"] for a in r.dice
             if math.dist(a.center, d["center"]) < 25 and (a.kind, a.value) != (d["kind"], d["value"])]
    assert wrong == []
    right = [d for d in lab["dice"] for a in r.dice
             if math.dist(a.center, d["center"]) < 25 and (a.kind, a.value) == (d["kind"], d["value"])]
    assert len(right) >= len(lab["dice"]) - 2


@pytest.mark.slow
def test_a_die_the_lean_network_refused_is_not_answered_by_the_second_look():
    """A scene of numeral dice with a leaning d6 (generated as make_scenes.py
    --seed 203 --kinds d8,d10,d10t --themes cocked draws its first scene): the
    lean network refuses the d6; the face network's dense second look around
    the refusal found a face on it and answered a 5. Now the die stays
    refused, and every readable die is still read."""
    img, lab = make_scene(203_000, (1200, 900), ("d8", "d10", "d10t"), "cocked")
    r = read_dice(_jpeg(img))
    leaning = [u for u in lab["unreadable"] if u["why"] == "cocked"]
    assert leaning
    for u in leaning:
        assert not [a for a in r.dice if math.dist(a.center, u["center"]) < 25], u
    right = [d for d in lab["dice"] for a in r.dice
             if math.dist(a.center, d["center"]) < 25 and (a.kind, a.value) == (d["kind"], d["value"])]
    assert len(right) == len(lab["dice"])


def test_a_face_never_taught_is_not_answered_as_the_taught_face_it_looks_like(taught, monkeypatch):
    """The fixtures' teaching photos show no d10t 0, 10 or 30: a d10t the
    exemplars match to a taught face (an untaught 30 looks most like a taught
    80) is answered only if the network, unsure as it may be, leans to that
    face too; with every face taught the exemplars' answer stands alone."""
    import dataclasses

    from vision import kinds
    from vision.types import Die

    assert {0, 10, 30} <= set(taught.untaught_faces["d10t"])
    assert "d10t 0, 10, 30" in taught.describe()
    def unsure(leaning_to: int) -> kinds._Read:  # the network's reads disagree; it leans to one face
        probs = np.full(len(faces.CLASSES), 0.8 / len(faces.CLASSES))
        probs[faces.class_index("d10t", leaning_to)] += 0.2
        return kinds._Read((100.0, 100.0), 40.0, probs, False, None)

    eighty = Die("d10t", 80, None, (100.0, 100.0), 0.9, ())
    monkeypatch.setattr(kinds._Taught, "_exemplars", lambda self, rd, outline, margin, lean_p: eighty)
    grey = np.zeros((200, 200), np.uint8)
    assert kinds._Taught(taught, grey, 40.0).decide(unsure(30), ()) == kinds.NOT_READ
    assert kinds._Taught(taught, grey, 40.0).decide(unsure(80), ()) == eighty
    every = tuple(c for c in faces.CLASSES if c[0] == "d10t" and c not in taught.classes)
    whole = dataclasses.replace(taught, classes=taught.classes + every)
    assert "d10t" not in whole.untaught_faces
    assert kinds._Taught(whole, grey, 40.0).decide(unsure(30), ()) == eighty


def test_every_refused_die_of_a_crowded_taught_frame_is_looked_at_again(taught):
    """A crowded 2 MP frame of numeral dice (drawn: seed 7700004), read with
    the fixtures' set: the scan's peaks round the first look's refusals are
    all read (16 a frame, before, left a black d10 8 refused `low
    confidence` and a red d10 6 not seen)."""
    img, label = make_scene(7700 * 1000 + 4, (1920, 1080), ("d8", "d10", "d10t"), "crowded")
    r = read_dice(img, taught)
    for x, y, value in ((78, 292, 8), (573, 814, 6)):
        want = next(d for d in label["dice"] if np.hypot(d["center"][0] - x, d["center"][1] - y) < 20)
        assert (want["kind"], want["value"]) == ("d10", value)
        got = [(d.kind, d.value) for d in r.dice
               if np.hypot(d.center[0] - want["center"][0], d.center[1] - want["center"][1]) < 30]
        assert got == [("d10", value)]


def test_a_d8_value_counts_for_the_d10_in_a_game_of_d10_only():
    from vision import kinds

    probs = np.zeros((1, len(faces.CLASSES)), np.float32)
    probs[0, faces.class_index("d8", 5)] = 0.7
    probs[0, faces.class_index("d10", 5)] = 0.2
    probs[0, faces.class_index("d10", 9)] = 0.1
    barras = kinds._folded(probs, ("d10", "d10t"))
    assert barras[0, faces.class_index("d10", 5)] == pytest.approx(0.9)
    assert barras[0, faces.class_index("d8", 5)] == 0.0
    assert barras[0, faces.class_index("d10", 9)] == pytest.approx(0.1)  # no d8 shows a 9
    gemelos = kinds._folded(probs, ("d8",))
    assert gemelos[0, faces.class_index("d8", 5)] == pytest.approx(0.9)
    for both_or_neither in (("d8", "d10"), ("d6",), None):
        assert np.array_equal(kinds._folded(probs, both_or_neither), probs)


def test_a_d10_seen_as_a_d8_is_read_as_the_d10_a_game_of_d10_throws():
    """A crowded Barras-like frame (drawn: seed 8600016, d10 and d10t only): a
    blue d10 8 beside other dice looks like a d8's 8 to the face network.
    Read with the game's kinds it is the d10's 8 (before, it was left out as
    no die of the game)."""
    img, label = make_scene(8600 * 1000 + 16, (1920, 1080), ("d10", "d10t"), "crowded")
    want = next(d for d in label["dice"] if np.hypot(d["center"][0] - 336, d["center"][1] - 994) < 20)
    assert (want["kind"], want["value"]) == ("d10", 8)
    got = [(d.kind, d.value) for d in read_dice(img, game_kinds=("d10", "d10t")).dice
           if np.hypot(d.center[0] - want["center"][0], d.center[1] - want["center"][1]) < 30]
    assert got == [("d10", 8)]


def _smeared(frame: np.ndarray, x: int, y: int) -> np.ndarray:
    """The frame with 140 px round (x, y) smeared 11 px sideways, as by a taba still sliding."""
    smear = np.zeros((11, 11), np.float32)
    smear[5, :] = 1 / 11
    moved = frame.copy()
    moved[y - 70 : y + 70, x - 70 : x + 70] = cv2.filter2D(frame[y - 70 : y + 70, x - 70 : x + 70], -1, smear)
    return moved


def test_a_smooth_taba_is_read_but_a_moving_one_stays_refused():
    """The d6 classifier calls a smooth painted taba `blurred` (no pips' fine
    detail): the network reads it as a taba and its outline is sharp, so it
    is answered. Smeared as by a taba still sliding, it stays refused."""
    from vision.kinds import edge_width

    frame = cv2.imread(str(TABAS / "taba_4_00012.jpg"))
    hoyos = [(294, 334), (99, 517)]

    def at(r, c):
        return ([(d.kind, d.value) for d in r.dice if math.dist(d.center, c) < 20],
                [x.why for x in r.rejected if math.dist(x.center, c) < 20])

    r = read_dice(frame)
    for c in hoyos:
        assert at(r, c) == ([("taba", "hoyo")], [])
    for x, y in hoyos:
        moved = _smeared(frame, x, y)
        assert edge_width(moved, (x, y), 60) > 2 * edge_width(frame, (x, y), 60)
        answered, refused = at(read_dice(moved), (x, y))
        assert not answered and refused == ["blurred"]


def test_a_smooth_taba_boxed_small_is_judged_sharp_by_the_frames_die_side():
    """A still taba the detector boxed smaller than the frame's dice (52 px in
    a frame of 70 px dice): its edge (4.9 px) is measured against the frame's
    die side (0.09 of 70 px), not its box's (0.09 of 52 px refused it).
    Smeared, it stays refused."""
    from vision import kinds

    frame = cv2.imread(str(TABAS / "taba_4_00012.jpg"))
    x, y = 296, 346  # a hoyo
    box = ((x - 26, y - 26), (x + 26, y - 26), (x + 26, y + 26), (x - 26, y + 26))
    still = kinds.Rejection((x, y), "blurred", box)
    assert kinds._sharp_tabas(NET, frame, [still], 70.4) == [still]
    moved = _smeared(frame, x, y)
    assert kinds._sharp_tabas(NET, moved, [still], 70.4) == []


def test_a_blurred_refusal_beside_a_sharp_taba_answer_goes_not_the_answer():
    """A weak peak off a still taba's centre, which the d6 classifier calls
    `blurred`, used to take the taba's answer with it (answers beside a
    blurred refusal are dropped: rendered seed 959, a hoyo and a tripas).
    Where the taba is read its outline is sharp: the refusal goes. A
    smeared taba's refusal stays."""
    from vision import kinds
    from vision.types import Die

    frame = cv2.imread(str(TABAS / "taba_4_00012.jpg"))
    x, y = 296, 346  # a hoyo
    box = ((x - 35, y - 35), (x + 35, y - 35), (x + 35, y + 35), (x - 35, y + 35))
    hoyo = Die("taba", "hoyo", "bone", (x, y), 0.9, box)
    weak = kinds.Rejection((x + 25, y + 20), "blurred", box)
    stacked = kinds.Rejection((x + 20, y - 20), "stacked", box)
    assert kinds._without_blur_beside_sharp_tabas(frame, [hoyo], [weak, stacked], 70.0) == [stacked]
    moved = _smeared(frame, x, y)
    assert kinds._without_blur_beside_sharp_tabas(moved, [hoyo], [weak, stacked], 70.0) == [weak, stacked]


def test_the_scan_answers_no_d6_beside_a_die_seen_leaning(monkeypatch):
    """Rendered scene 203002 (as make_scenes.py --seed 203 draws it): two
    leaning d6 the d6 classifier refuses `cocked` and the lean network agrees.
    The network's scan around the refusals finds their top faces and read
    them (a 2 and a 5) until the scan answered no d6 beside such a die."""
    from vision import kinds

    img, lab = make_scene(203_002, (1200, 900), ("d6", "d8", "d10", "d10t"), "cocked")
    frame = _jpeg(img)
    leaning = [(794.1, 191.9), (954.1, 95.5)]
    assert all(any(u["why"] == "cocked" and math.dist(u["center"], c) < 1 for u in lab["unreadable"])
               for c in leaning)

    def answered(r):
        return [c for c in leaning if any(math.dist(d.center, c) < 25 for d in r.dice)]

    r = read_dice(frame)
    assert answered(r) == []
    assert all(any(x.why == "cocked" and math.dist(x.center, c) < 25 for x in r.rejected) for c in leaning)
    monkeypatch.setattr(kinds, "_leaning", lambda frame, cocked, typical: [])
    monkeypatch.setattr(kinds, "SCAN_LEAN_P", 1.01)  # nor the lean look at the scan's own d6
    # the scan alone would read them (at the frame's die side of every peak: with the side of the
    # peaks read surely, forty-first session, it no longer finds them either)
    assert answered(read_dice(frame, params=replace(DEFAULT_PARAMS, sure_side_min=0))) == leaning


def test_the_scan_gives_no_unsure_d6_beside_a_die_refused_cocked(monkeypatch):
    """Rendered scene 203080 (make_scenes.py --seed 203 --kinds d8,d10,d10t,
    theme cocked): two blue 2s touching; the d6 classifier refuses the right
    one `cocked`. The scan around the refusal read it as two 1s (P 0.87 and
    0.92: a pip of each half) until a d6 it finds within a die's side of a
    `cocked` refusal needed SCAN_COCKED_MIN_P. The lean network sees it lie
    flat (nineteenth session): the face network's read of it, a 2, is answered."""
    from vision import kinds

    img, lab = make_scene(203_080, (1200, 900), ("d8", "d10", "d10t"), "cocked")
    frame = _jpeg(img)
    die = (701.5, 613.6)
    assert any(d["value"] == 2 and math.dist(d["center"], die) < 1 for d in lab["dice"])

    def wrong_near(r):
        return sorted(d.value for d in r.dice if math.dist(d.center, die) < 40 and d.value != 2)

    r = read_dice(frame)
    assert wrong_near(r) == []
    assert [d.value for d in r.dice if math.dist(d.center, die) < 25] == [2]
    # the d6 reader's second look now reads it at once; with that look's answer refused, the scan
    # looks at the refusal as before
    first_refusal = replace(DEFAULT_PARAMS, leant_min_prob=1.01)
    r = read_dice(frame, params=first_refusal)
    assert [d.value for d in r.dice if math.dist(d.center, die) < 25] == [2]
    monkeypatch.setattr(kinds, "SCAN_COCKED_MIN_P", 0.0)
    # what the scan alone answers (the two 2s, an oblong, are halved before it since the forty-first
    # session)
    assert wrong_near(read_dice(frame, params=replace(first_refusal, domino_min=0.0))) == [1, 1]


def test_a_flat_die_touching_another_refused_stacked_at_first_is_read():
    """Rendered scene 901002 (make_scenes.py --seed 901, kinds d6 d8 d10 d10t,
    theme cocked; num_ev's scene_002): a green 4 lying flat against a black
    die. The first classifier gives it `stacked` (P 0.39, the 4 a little
    less); the bigger one, looking again, reads the 4 at 0.87. A die refused
    as leaning or stacked at first is looked at again, and answered when that
    look is sure (`leant_min_prob`); before, it was refused."""
    img, lab = make_scene(901_002, (1200, 900), RENDERED_KINDS, "cocked")
    frame = _jpeg(img)
    die = (528.1, 714.1)
    assert any(d["value"] == 4 and math.dist(d["center"], die) < 1 for d in lab["dice"])

    def near(r):
        return [d.value for d in r.dice if math.dist(d.center, die) < 30]

    assert near(read_dice(frame)) == [4]
    assert near(read_dice(frame, params=replace(DEFAULT_PARAMS, leant_min_prob=1.01))) == []


@pytest.mark.parametrize("seed,theme,die", [
    (203_029, "stacked", (786.2, 588.1)),  # a d6 on another: lean 0.74
    (203_026, "cocked", (698.8, 93.2)),  # leaning on a neighbour: lean 0.96
])
def test_a_die_found_big_and_leaning_is_refused(seed, theme, die):
    """Rendered scenes of seed 203 (make_scenes.py --seed 203 --kinds
    d8,d10,d10t): from above, a cocked die shows its sides with its top and a
    stacked one lies nearer the camera, so the detector finds it a third
    bigger than the frame's dice. Such a die the lean network thinks leans
    (at `big_lean_p`, below the `lean_max_p` every die must pass) was
    answered; now it is refused."""
    img, lab = make_scene(seed, (1200, 900), ("d8", "d10", "d10t"), theme)
    frame = _jpeg(img)
    assert any(u["why"] == theme and math.dist(u["center"], die) < 1 for u in lab["unreadable"])

    def answered(r):
        return [d.value for d in r.dice if math.dist(d.center, die) < 30]

    r = read_dice(frame)
    assert answered(r) == []
    assert any(x.why == "cocked" and math.dist(x.center, die) < 30 for x in r.rejected)
    assert len(answered(read_dice(frame, params=replace(DEFAULT_PARAMS, big_lean_p=1.01)))) == 1


def test_in_a_frame_of_d6_the_scan_reads_two_touching_dice_seen_as_one(monkeypatch):
    """Fixture scene_003: two white 3s touching on green felt, their centres a
    die's side apart; the detector finds one thing between them, refused as
    an unknown object. In a frame of d6 only the scan did not run; now it
    looks around such refusals (D6_SCAN_WHY) and reads both."""
    from vision import kinds

    sample = next(s for s in load_dataset(Path(__file__).resolve().parents[1] / "fixtures" / "scenes")
                  if s.image.name == "scene_003_stacked.jpg")
    frame = cv2.imread(str(sample.image))
    pair = [d for d in sample.dice if d.value == 3 and d.colour == "ivory"]
    assert len(pair) == 2 and math.dist(pair[0].center, pair[1].center) < 30

    def read_pair(r):
        return sorted(d.value for p in pair for d in r.dice if math.dist(d.center, p.center) < 12)

    assert read_pair(read_dice(frame)) == [3, 3]
    monkeypatch.setattr(kinds, "D6_SCAN_WHY", ())
    # nor around a peak as big as two dice, nor the touching-dice detector (it finds the pair too)
    no_pairs = replace(DEFAULT_PARAMS, pair_sides=math.inf, touch_gate=math.inf)
    assert read_pair(read_dice(frame, params=no_pairs)) == []


def test_the_scan_finds_the_second_of_two_touching_dice_beside_the_first():
    """Fixture scene_017: two yellow 1s touching, their centres 0.9 die
    sides apart; the detector finds one peak 1.55 dice wide there and the
    classifier reads one 1. A peak that big is looked around by the scan
    (`Params.pair_sides`) even beside an answer: the other 1 is read."""
    sample = next(s for s in load_dataset(Path(__file__).resolve().parents[1] / "fixtures" / "scenes")
                  if s.image.name == "scene_017_touching.jpg")
    frame = cv2.imread(str(sample.image))
    ones = [d for d in sample.dice if d.value == 1 and d.colour == "yellow"]
    assert len(ones) == 2

    def read_ones(params=DEFAULT_PARAMS):
        r = read_dice(frame, params=params)
        return [sorted(d.value for d in r.dice if math.dist(d.center, o.center) < 12) for o in ones]

    assert read_ones() == [[1], [1]]
    # without the scan around a big peak (nor the touching-dice detector, which finds it too)
    assert sorted(read_ones(replace(DEFAULT_PARAMS, pair_sides=math.inf, touch_gate=math.inf))) == [[], [1]]



@pytest.mark.skipif(not NUM_EVAL.is_dir(), reason="no fixtures")
@pytest.mark.parametrize("name, colour", [("scene_005_glare.jpg", "white"), ("scene_001_touching.jpg", "yellow")])
def test_both_dice_of_two_touching_seen_as_one_peak_are_read_after_teaching(taught, name, colour):
    """Two d6 touching that both detectors see as one peak, a pair's size.
    scene_005: a glared 4 and 3 whose centres lie 1.1 die sides apart, each
    half a side or more from the peak: the scan looks further round a pair's
    peak than round a refusal's. scene_001: a yellow 2 under a 5; the lean
    network calls the pair's peak leaning (two dice in one crop), which must
    not refuse the flat 2 the scan reads beside it (asked on its own crop)."""
    sample = next(s for s in load_dataset(NUM_EVAL) if s.image.name == name)
    frame = cv2.imread(str(sample.image))
    pair = [d for d in sample.dice if d.kind == "d6" and d.colour == colour]
    assert len(pair) == 2 and math.dist(pair[0].center, pair[1].center) < 40

    def read_pair(params=DEFAULT_PARAMS):
        got = read_dice(frame, taught, params).dice
        return sorted(d.value for p in pair for d in got if math.dist(d.center, p.center) < 10)

    assert read_pair() == sorted(d.value for d in pair)
    # without the look around a peak as big as two dice, one of the two is not answered
    assert len(read_pair(replace(DEFAULT_PARAMS, pair_sides=math.inf))) < 2


@pytest.mark.skipif(not NUM_EVAL.is_dir(), reason="no fixtures")
def test_both_dice_of_two_touching_seen_as_one_peak_are_read_untaught_among_numeral_dice():
    """scene_005 untaught: d8, d10 and d6 on one tray, the glared 4 and 3
    seen as one peak. The far look round the pair answers the 3 as a d6;
    untaught, it answers no other kind there (round pairs of d6 on crowded
    real trays it read d10s that were not there), so the numeral dice
    answered are those the frame gives without it."""
    sample = next(s for s in load_dataset(NUM_EVAL) if s.image.name == "scene_005_glare.jpg")
    frame = cv2.imread(str(sample.image))
    pair = [d for d in sample.dice if d.kind == "d6" and d.colour == "white"]
    assert len(pair) == 2 and math.dist(pair[0].center, pair[1].center) < 40

    def read(params=DEFAULT_PARAMS):
        got = read_dice(frame, None, params).dice
        near = sorted(d.value for p in pair for d in got if math.dist(d.center, p.center) < 10)
        return near, Counter((d.kind, d.value) for d in got if d.kind != "d6")

    both, numerals_seen = read()
    assert both == sorted(d.value for d in pair)
    one, numerals_without = read(replace(DEFAULT_PARAMS, pair_sides=math.inf))
    assert len(one) < 2
    assert numerals_seen == numerals_without
    assert not numerals_seen - Counter((d.kind, d.value) for d in sample.dice)  # none read wrong

def test_a_face_network_that_cannot_be_loaded_leaves_the_other_readers_reading(monkeypatch, caplog):
    """faces.onnx is in 8 bits: an OpenCV too old for its layers (a 32-bit Pi
    takes what piwheels has) must not stop the station. The d6 reader and
    the numeral network read on, without wrong answers; tabas are not
    answered; teaching says why it cannot teach."""
    from calibration.teach import TeachError

    sample = next(s for s in load_dataset(NUM_EVAL) if s.image.name == "scene_001_touching.jpg")
    frame = cv2.imread(str(sample.image))
    taba_sample = load_dataset(TABAS)[0]
    taba_frame = cv2.imread(str(taba_sample.image))
    assert any(d.kind == "taba" for d in read_dice(taba_frame).dice)

    with unloadable(monkeypatch, faces):
        assert faces.load_net() is None
        assert "QuantizeLinear" in faces.load_error()
        assert "faces.onnx cannot be loaded" in caplog.text
        got = read_dice(frame)
        assert "d6" in {d.kind for d in got.dice}
        labelled = Counter((d.kind, d.value) for d in sample.dice)
        assert not Counter((d.kind, d.value) for d in got.dice) - labelled  # nothing read wrong
        assert not any(d.kind == "taba" for d in read_dice(taba_frame).dice)
        with pytest.raises(TeachError, match="faces.onnx.*does not load here.*QuantizeLinear"):
            teach(NUM_TEACH, None)
    assert faces.load_net() is not None and faces.load_error() == ""
