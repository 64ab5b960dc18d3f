"""The reader on the real photographs of ../shared/data (skipped when absent).

Floors, not targets: they catch a regression; the issue's targets are
measured with `dicestation eval` on whole sets.
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import pytest

from calibration.dataset import is_heldout, load_dataset
from calibration.evaluate import evaluate
from calibration.teach import teach_samples
from vision import read_dice

REAL = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "real"
pytestmark = [
    pytest.mark.shared,
    pytest.mark.skipif(not REAL.is_dir(), reason="../shared/data is absent"),
]
SAMPLE_IMAGES = 30


def answers_near(r, centre: tuple[float, float], sides: float) -> list[tuple[str, int]]:
    """(kind, value) of each die answered within `sides` of the frame's die
    side of `centre`."""
    return [(d.kind, d.value) for d in r.dice if math.dist(d.center, centre) < sides * r.die_side_px]
# (data set, floor of accuracy, ceiling of wrong answers per labelled die) on the first
# held-out images (never trained on: calibration.dataset.is_heldout)
FLOORS = [("matteop65", 0.60, 0.05), ("nell-byler", 0.20, 0.03)]


@pytest.mark.parametrize("name,floor,max_wrong", FLOORS)
def test_real_photos_floor(name, floor, max_wrong):
    samples = [s for s in load_dataset(REAL / name) if is_heldout(s.image)][:SAMPLE_IMAGES]
    report = evaluate(samples, read_dice)
    n = report.total("labelled")
    assert report.accuracy >= floor
    assert report.total("wrong") <= max_wrong * n


CASINO_ONES = ["1_1_DJI_20241005233400_0163_D_detection_2", "1_1_DJI_20241005233837_0193_D_detection_1",
               "1_1_DJI_20241005234259_0226_D_detection_2"]


@pytest.mark.parametrize("name", CASINO_ONES)
def test_a_translucent_casino_ones_ring_is_read_as_a_one(name):
    """A casino die's 1 has a ring of small marks round its pip: the d6
    classifier sees no die there; the face network reads a 1 in both its
    views, and the die is answered (it was refused as an unknown object)."""
    image = REAL / "crops" / "casino-felt" / f"{name}.jpg"
    r = read_dice(cv2.imread(str(image)))
    assert [(d.kind, d.value) for d in r.dice] == [("d6", 1)]


BARTEK = REAL / "bartek-polyhedral"
CLOTH = "20211121_173335"  # a cloth printed with dark motifs; four d6, two d8, four d10


def test_a_printed_cloths_motifs_are_no_taught_dice():
    """Taught on 24 photos of the set, the cloth's motifs (a dark blot on
    light, as a taught white 1 looks) are not answered as dice, and every
    labelled die of the photo is read."""
    samples = load_dataset(BARTEK, [])
    teach = [s for i, s in enumerate(samples) if i % 2 == 0 and s.image.stem < CLOTH][-24:]
    profile = teach_samples(teach)
    photo = next(s for s in samples if s.image.stem == CLOTH)
    r = read_dice(cv2.imread(str(photo.image)), profile)
    near = [[a for a in r.dice if math.dist(a.center, d.center) < 25] for d in photo.dice]
    assert [[(a.kind, a.value) for a in n] for n in near] == [[(d.kind, d.value)] for d in photo.dice]
    assert len(r.dice) == len(photo.dice)  # nothing answered on the cloth


NELL = REAL / "nell-byler"
# training-side photos of nell-byler's white tray, with a die the pip reader reads right that a
# profile once refused (`not read`: the network calls a real 1 or 2 a taba or a d10 at 0.5-0.8)
TRAY_BUTTONS = [("IMG_20191208_111328", (363.0, 453.0), 2), ("IMG_20191208_112905", (297.0, 405.0), 1),
                ("IMG_20191209_095745", (279.0, 229.0), 1)]


@pytest.fixture(scope="module")
def nell_profile():
    """A profile taught on 24 training-side photos of nell-byler's dice."""
    samples = [s for s in load_dataset(NELL, []) if not is_heldout(s.image)]
    return teach_samples(samples[0::4][:24])


@pytest.mark.parametrize("name,centre,value", TRAY_BUTTONS)
def test_a_white_trays_round_buttons_are_no_taught_dice(nell_profile, name, centre, value):
    """Taught the set, the station reads no die on the tray's two round grey
    buttons (a dark disc on white, as a taught dark die looks to the
    exemplars: answered as a 2), and a pip answer of a 1 or a 2 the network
    doubts stands, as it does untaught (before, 66 of 80 training-side photos
    showed a die on a button or such a 1 or 2 refused).
    Every answer is a labelled die, at its value."""
    photo = next(s for s in load_dataset(NELL, []) if s.image.stem == name)
    r = read_dice(cv2.imread(str(photo.image)), nell_profile)
    for a in r.dice:
        assert [(d.kind, d.value) for d in photo.dice if math.dist(a.center, d.center) < 25] == [(a.kind, a.value)]
    assert [(d.kind, d.value) for d in r.dice if math.dist(d.center, centre) < 25] == [("d6", value)]


# (photo, labelled centre of a die whose top face a camera looking forward and down sees
# foreshortened above a bigger front face, its value): training-side photos
OBLIQUE_TOPS = [("matteop65/dice_43", (317.0, 163.5), 1), ("matteop65/dice_46", (260.0, 150.0), 1),
                ("matteop65/two_35", (254.0, 126.0), 2)]


@pytest.mark.parametrize("name,centre,value", OBLIQUE_TOPS)
def test_an_oblique_dies_top_face_above_its_front_face_is_read(name, centre, value):
    """Centred on the die, the crop holds the top face and the front face
    (a 1 over a 2 reads neither surely); looked at higher up the frame, the
    top face is read and answered there (it was refused as low confidence)."""
    r = read_dice(cv2.imread(str(REAL / f"{name}.jpg")))
    assert answers_near(r, centre, 0.4) == [("d6", value)]


def test_a_white_trays_round_button_is_no_die_seen_from_above():
    """nell-byler's white tray has a round grey button by its edge: a crop
    above it sees a disc, as a 1 looks; wider than the frame's dice, it is
    not looked at there, and stays refused."""
    r = read_dice(cv2.imread(str(REAL / "nell-byler" / "IMG_20191208_111710.jpg")))
    assert not answers_near(r, (584.0, 593.0), 1.0)
    assert len(r.dice) == 14


# aws-oblique training-side photos: a die whose top face is seen far foreshortened, over a
# front face bigger than it (its centre labelled in the middle of the two)
FORESHORTENED_TOPS = [("IMG_20191112_101234", (79.0, 38.0), 5), ("IMG_20191112_101715", (308.0, 174.0), 3),
                      ("IMG_20191112_101730", (422.0, 197.0), 3)]


@pytest.mark.parametrize("name,centre,value", FORESHORTENED_TOPS)
def test_a_far_foreshortened_top_face_is_read_stretched_to_square(name, centre, value):
    """The crop up the frame still holds more of the front face than of the
    top; the top face's own crop, stretched to square, reads it (the die
    was refused as low confidence)."""
    r = read_dice(cv2.imread(str(REAL / "aws-oblique" / f"{name}.jpg")))
    assert answers_near(r, centre, 0.6) == [("d6", value)]


# (photo, labelled centre, value): a die answered weakly as its front face's value, on the
# training sides
WEAK_FRONT_FACES = [("aws-oblique/IMG_20191112_110826", (284.0, 101.0), 1),
                    ("aws-oblique/IMG_20191112_101935", (258.0, 84.0), 5),
                    ("matteop65/two_29", (216.0, 116.0), 2)]


@pytest.mark.parametrize("name,centre,value", WEAK_FRONT_FACES)
def test_a_weak_answer_takes_the_value_its_top_face_shows_from_above(name, centre, value):
    """Answered less surely than 0.8 as the value of the front face below
    it, the die is read again on its top face's own crop stretched to
    square, which reads its value surely (it was answered wrong)."""
    r = read_dice(cv2.imread(str(REAL / f"{name}.jpg")))
    assert answers_near(r, centre, 0.6) == [("d6", value)]


# training-side photos: a die of an unusual make the small classifier reads as no d6 at all
# (photo, labelled centre, value)
UNUSUAL_DICE = [("nell-byler/IMG_20191208_112648", (456.0, 271.0), 6),  # red pips in white swirls
                ("crops/casino-felt/2_2_DJI_20241005234335_0231_D_detection_2", (30.0, 34.0), 2),
                ("crops/casino-felt/2_2_DJI_20241005234521_0246_D_detection_2", (28.0, 29.0), 2)]


@pytest.mark.parametrize("name,centre,value", UNUSUAL_DICE)
def test_a_die_of_an_unusual_make_is_read_by_the_second_look(name, centre, value):
    """Red pips drawn into white swirls, a casino 2 with the house's logo
    between its pips: the small classifier reads no d6 there, the bigger
    one reads the value surely, and the die is answered (it was refused as
    an unknown object)."""
    r = read_dice(cv2.imread(str(REAL / f"{name}.jpg")))
    assert answers_near(r, centre, 0.6) == [("d6", value)]


def test_a_round_number_token_is_not_answered_as_a_one_by_the_second_look():
    """A board game's round number tokens (epanemu: a Catan board): the
    small classifier reads no d6 there, the bigger one a 1 at P 0.9 and
    more (a disc with a mark in the middle); no d6 is answered on them."""
    r = read_dice(cv2.imread(str(REAL / "epanemu" / "dice_267_jpg.rf.2243cd66b21046a6da7a1824eb3bcb9e.jpg")))
    for token in ((256.0, 293.0), (186.0, 296.0)):
        assert not [kind for kind, _ in answers_near(r, token, 0.5) if kind == "d6"]


SINGLE = REAL / "bartek-single"
CLOSE_TENS = ["60", "70", "80"]  # steampunk d10t photographed close, read by no single view


@pytest.mark.parametrize("tens", CLOSE_TENS)
def test_a_percentile_die_photographed_close_is_read_on_many_views(tens):
    """A d10t filling a product photo: no single crop of its blob reads its
    numeral surely, the average of many views does (vision.numerals.read_close)."""
    r = read_dice(cv2.imread(str(SINGLE / "steampunk_br&y" / f"{tens}.jpg")))
    assert [(d.kind, d.value) for d in r.dice] == [("d10t", int(tens))]


def test_no_die_photographed_close_is_answered_wrong():
    """The decorative d10 and the numeral d6 of bartek-single are refused, not
    guessed: an elvish 8, read as a d8's 8 by the views' average alone (its
    kite seen from the side is a triangle), is among them."""
    report = evaluate(load_dataset(SINGLE), read_dice)
    assert report.total("wrong") == 0


def test_a_d10_photographed_from_the_side_is_read_in_wider_views():
    """An elvish d10 photographed from the side: its blob reaches beyond the
    face its 4 is on, and the views cut round the blob's side are too tight
    (it was refused, low confidence); two windows of wider views agree on the
    4 (vision.numerals.CLOSE_WIDE_SCALES). In a game of d6 alone it is no d6."""
    img = cv2.imread(str(SINGLE / "elvish_translucent" / "4.jpg"))
    assert [(d.kind, d.value) for d in read_dice(img).dice] == [("d10", 4)]
    assert not read_dice(img, game_kinds=("d6",)).dice


def test_blue_numerals_on_a_black_die_are_read_in_the_brightest_channel():
    """Ingress's d10 has blue numerals on a black body: in grey (which weighs
    blue least) its 1 barely shows, and it was not read at all; in each
    pixel's brightest channel it stands out and the many-view read answers
    it (vision.numerals._close). In a game of d6 alone it is no d6."""
    img = cv2.imread(str(SINGLE / "ingress_the_resistance" / "1.jpg"))
    assert [(d.kind, d.value) for d in read_dice(img).dice] == [("d10", 1)]
    assert not read_dice(img, game_kinds=("d6",)).dice


@pytest.mark.parametrize("photo", ["forest_w&bck/1.jpg", "forest_w&bck/3.jpg", "ingress_the_resistance/2.jpg"])
def test_a_close_die_that_is_not_read_is_refused_not_left_out(photo):
    """A die photographed close that no reader answers and no reader found in
    pieces, but on which a numeral shows, is refused once (low confidence):
    the table learns the station saw it. It was left out: no die, no
    refusal, as if the tray were empty."""
    reading = read_dice(cv2.imread(str(SINGLE / photo)))
    assert reading.dice == ()
    assert [r.why for r in reading.rejected] == ["low confidence"]


# crops of one die filling the frame, (photo, value): casino dice no peak found whole (left out or
# refused as not read surely), and a webcam's rectified 2 whose two pips were read as two 1s and
# a blurred thing
WHOLE_CROPS = [("crops/casino-felt/2_2_DJI_20241005234116_0212_D_detection_2.jpg", 2),
               ("crops/casino-felt/6_6_DJI_20241005231520_0117_D_detection_2.jpg", 6),
               ("crops/casino-felt/6_6_DJI_20241005232542_0139_D_detection_2.jpg", 6),
               ("crops/casino-felt/3_3_DJI_20241005233550_0175_D_detection_1.jpg", 3),
               ("crops/webcam-rectified/2_training_data_2_1586762065585_4531.png", 2),
               ("crops/webcam-rectified/2_training_data_2_1586757083683_1828.png", 2)]


@pytest.mark.parametrize("photo,value", WHOLE_CROPS)
def test_a_die_filling_a_close_up_crop_is_read_whole(photo, value):
    """A crop of one die that fills it: the peaks found cut through the die or
    sat on a pip, and the die was left out, refused, or its pips answered
    as 1s; read at several sizes round the frame's middle, all agreeing, it
    is answered once, with its value (vision.reader._whole_crop)."""
    r = read_dice(cv2.imread(str(REAL / photo)))
    assert [(d.kind, d.value) for d in r.dice] == [("d6", value)]
    assert r.rejected == ()


def test_no_die_filling_a_close_up_crop_is_answered_wrong():
    """The whole-crop read answers only where all its sizes agree (a 1 only
    where one round mark shows): on every sixth of the webcam crops of
    rectified top faces, no value is answered wrong, no pip is answered as a
    die of its own (a die's pips were, 31 times), and 95 % are read (46 %
    were)."""
    samples = load_dataset(REAL / "crops" / "webcam-rectified")[::6]
    report = evaluate(samples, read_dice)
    assert report.total("wrong") == 0
    assert report.total("extra") == 0
    assert report.accuracy >= 0.95


def test_a_numeral_d6_filling_a_phone_crop_is_not_answered_as_a_one():
    """A phone's crops of numeral d6 (one die filling each): a 1 answered only
    where a pip shows near the face's middle. Before, 33 of the 5s and 6s
    were answered as a 1 (their loop read as a pip): 35 wrong of 240
    (14.6 %); the numerals are refused instead. Genuine 1s filling a crop
    still read: tomitomi's grey crops of 1s (99 of 100)."""
    phone = evaluate(load_dataset(REAL / "crops" / "numeral-d6-phone"), read_dice)
    assert phone.total("wrong") <= 0.02 * phone.total("labelled")
    assert phone.total("extra") <= 8
    ones = [s for s in load_dataset(REAL / "crops" / "tomitomi-gray") if s.dice[0].value == 1]
    assert evaluate(ones, read_dice).accuracy >= 0.97
