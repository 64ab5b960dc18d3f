import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.drawing import draw_die, tray
from vision import BadFrame, Reading, read_dice
from vision.learned import Found
from vision.params import DEFAULT_PARAMS
from vision.reader import (
    _a_pip_near_the_middle,
    _glyph,
    _off_a_close_die,
    _one_die_body,
    _one_round_mark,
    _two_dice,
    _without_pips,
    _without_side_faces,
    is_speck,
)
from vision.types import Die, square_outline

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FELTS = {"green": (60, 110, 40), "blue": (120, 60, 30), "white": (225, 225, 225),
         "wood": (120, 170, 205)}


# dice the learned reader still refuses (none since the models of 2026-11-29); never misreads
NOT_YET: set[tuple[str, int]] = set()


@pytest.mark.parametrize("felt,value", [
    pytest.param(f, v, marks=[pytest.mark.xfail(reason="refused, not read yet", strict=False)]
                 if (f, v) in NOT_YET else [])
    for f in FELTS for v in range(1, 7)])
def test_one_die_on_any_felt(felt, value):
    img = tray(bgr=FELTS[felt])
    body, pips = ((30, 30, 200), (240, 240, 240)) if felt == "white" else ((245, 245, 245), (20, 20, 20))
    draw_die(img, (400, 300), 60, value, angle_deg=20, body_bgr=body, pip_bgr=pips)
    r = read_dice(img)
    assert all(d.value == value for d in r.dice)  # refused perhaps, never misread
    assert [d.value for d in r.dice] == [value]
    (x, y) = r.dice[0].center
    assert abs(x - 400) < 6 and abs(y - 300) < 6


def test_several_dice_apart_and_their_colours():
    img = tray()
    want = {(150, 150): (3, (30, 30, 200), "red"), (400, 300): (5, (245, 245, 245), "white"),
            (650, 450): (6, (200, 60, 20), "blue")}
    for c, (v, body, _) in want.items():
        pip = (20, 20, 20) if body == (245, 245, 245) else (240, 240, 240)
        draw_die(img, c, 56, v, angle_deg=c[0] / 10, body_bgr=body, pip_bgr=pip)
    r = read_dice(img)
    got = sorted((round(d.center[0] / 50) * 50, d.value, d.colour) for d in r.dice)
    assert got == sorted((c[0], v, name) for c, (v, _, name) in want.items())


def test_empty_tray_reads_nothing():
    r = read_dice(tray())
    assert r.dice == ()


def test_die_cut_by_the_frame_is_refused_as_outside():
    img = tray()
    draw_die(img, (790, 300), 60, 6)
    r = read_dice(img)
    assert r.dice == ()
    assert [x.why for x in r.rejected] == ["outside"]


def test_a_whole_die_at_the_frame_edge_is_read_a_cut_one_refused():
    """A die whose face ends a few pixels inside the frame is read (its found
    side takes in its outline; the frame's other dice say how big a die is);
    one whose face the edge cuts is still refused."""
    for x, want in ((766, [5]), (772, [])):  # the face ends 3 px inside / 3 px beyond
        img = tray()
        draw_die(img, (300, 300), 60, 3)
        draw_die(img, (x, 200), 60, 5)
        r = read_dice(img)
        assert [d.value for d in r.dice if d.center[0] > 600] == want
        assert [q.why for q in r.rejected] == ([] if want else ["outside"])


def test_grey_and_bgra_frames_are_accepted():
    img = tray()
    draw_die(img, (400, 300), 60, 4)
    gray = img.mean(axis=2).astype(np.uint8)
    assert isinstance(read_dice(gray), Reading)
    bgra = np.dstack([img, np.full(img.shape[:2], 255, np.uint8)])
    assert [d.value for d in read_dice(bgra).dice] == [4]


@pytest.mark.parametrize("bad", [np.zeros((0, 0, 3), np.uint8), np.zeros((10, 10, 3), np.float32),
                                 np.zeros((10, 10, 2), np.uint8), "not an array"])
def test_bad_frames_raise(bad):
    with pytest.raises(BadFrame):
        read_dice(bad)


def test_reading_prints_as_formats_json():
    img = tray()
    draw_die(img, (400, 300), 60, 2)
    out = read_dice(img).to_json()
    json.dumps(out)
    assert set(out) == {"dice", "rejected"}
    assert set(out["dice"][0]) == {"kind", "value", "colour", "center", "confidence"}
    assert out["dice"][0]["kind"] == "d6"


def test_timings_are_reported():
    r = read_dice(tray())
    assert r.timings_ms["total"] >= r.timings_ms["segment"] >= 0


FOUR_DICE = (((200, 200), 3), ((600, 200), 5), ((200, 420), 6), ((600, 420), 2))


def _four_dice(bgr):
    img = tray(bgr=bgr)
    for i, (c, v) in enumerate(FOUR_DICE):
        draw_die(img, c, 44, v, angle_deg=10 * i)
    return img


@pytest.mark.parametrize("speck_px", [2, 4])
@pytest.mark.parametrize("felt", [(225, 225, 225), (200, 205, 210)])
def test_a_speck_on_the_tray_is_no_die_showing_one(felt, speck_px):
    """A dark speck on a white tray looks to the classifier like a small
    white die's 1 (nell-byler's photos of one session: a phantom 1 in each);
    with no die round it, it is no die: not answered, and not refused either
    (a stain on the felt would ask for every throw again)."""
    img = _four_dice(felt)
    cv2.circle(img, (400, 310), speck_px, (70, 70, 70), -1, cv2.LINE_AA)
    img = cv2.GaussianBlur(img, (3, 3), 0)
    r = read_dice(img)
    assert sorted(d.value for d in r.dice) == [2, 3, 5, 6]
    assert r.rejected == ()


@pytest.mark.parametrize("jpeg", [60, 95])
@pytest.mark.parametrize("felt", [(225, 225, 225), (190, 190, 188)])
def test_two_specks_on_the_tray_are_no_die_showing_two(felt, jpeg):
    """Two dark specks side by side on a white tray look like a small white
    die's 2 (nell-byler's photos of one session: a phantom 2 beside the
    phantom 1); with no die round them they are no die either."""
    img = _four_dice(felt)
    cv2.circle(img, (400, 310), 2, (60, 60, 60), -1, cv2.LINE_AA)
    cv2.circle(img, (409, 312), 2, (70, 70, 70), -1, cv2.LINE_AA)
    img = cv2.GaussianBlur(img, (3, 3), 0)
    img = cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, jpeg])[1], cv2.IMREAD_COLOR)
    r = read_dice(img)
    assert sorted(d.value for d in r.dice) == [2, 3, 5, 6]
    assert r.rejected == ()


def test_a_blurred_speck_on_a_peak_much_smaller_than_a_die_is_a_speck():
    """The detector's peak on a speck can be under half a die's side; the
    speck's blur and a fainter speck beside it then lie where that small
    peak's outline would be, and looked for there they pass for a die's
    edge. Looked for at least as far out as half a die, no die is there."""
    grid = np.mgrid[:200, :200].astype(np.float32)
    dark = np.zeros((200, 200), np.float32)
    for (x, y), depth in (((100, 100), 110), ((107, 103), 50)):
        dark += depth * np.exp(-((grid[1] - x) ** 2 + (grid[0] - y) ** 2) / (2 * 1.5 ** 2))
    img = np.clip(190 - dark, 0, 255).astype(np.uint8)
    img = cv2.imdecode(cv2.imencode(".jpg", cv2.merge([img] * 3), [cv2.IMWRITE_JPEG_QUALITY, 75])[1],
                       cv2.IMREAD_COLOR)
    speck = _square_die(1, (100, 100), 13)  # the peak's side, against the frame's 29-pixel dice
    assert is_speck(img, speck, 29.0)
    assert not is_speck(img, _square_die(5, (100, 100), 13), 29.0)  # a 5 is not a speck's reading


@pytest.mark.parametrize("side", [24, 32])
@pytest.mark.parametrize("felt,body,pips", [
    ((225, 225, 225), (245, 245, 245), (20, 20, 20)),  # a white die on a white tray
    ((60, 110, 40), (30, 30, 200), (240, 240, 240)),  # red on green: the same grey
])
def test_a_small_die_showing_one_is_still_read(felt, body, pips, side):
    img = _four_dice(felt)
    draw_die(img, (400, 310), side, 1, angle_deg=25, body_bgr=body, pip_bgr=pips)
    r = read_dice(img)
    assert sorted(d.value for d in r.dice) == [1, 2, 3, 5, 6]
    assert r.rejected == ()


def _square_die(value, centre, side):
    h = side / 2
    x, y = centre
    return Die("d6", value, "white", centre, 0.95, ((x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)))


def test_a_dies_side_face_seen_obliquely_is_not_a_second_die():
    """In an oblique close-up a die's side face shows beside its top face,
    smaller; read as a die it would be one too many (matteop65). Two flat
    dice's top faces never overlap: the small one overlapping a big one
    goes; dice that only touch stay, whatever their sizes."""
    top = _square_die(1, (300, 300), 80)
    side_face = _square_die(4, (300, 355), 36)  # its square reaches 18 px into the top face's
    touching_small = _square_die(3, (400, 300), 36)  # 58 px off: touching, not overlapping
    twin = _square_die(6, (300, 230), 80)  # as big, a little closer than touching (a pair)
    got = _without_side_faces([top, side_face, touching_small, twin], frame_side=80)
    assert [d.value for d in got] == [1, 3, 6]


def test_a_big_dies_pips_seen_as_dice_are_left_out():
    """Close up, the detector sees a die's pips as small dice too: a peak
    inside a much bigger one's square is its pip. A smaller die beside a big
    one, and two peaks of about one size, stay."""
    die = Found((300.0, 300.0), 200.0, 0.9)
    pips = [Found((300.0 + dx, 300.0 + dy), 40.0, 0.7) for dx, dy in ((-55, -55), (0, 0), (55, 55))]
    beside = Found((460.0, 300.0), 80.0, 0.8)  # touching the big one, its centre outside its square
    twin = Found((330.0, 300.0), 150.0, 0.5)  # a second peak of the big die: not a pip
    got = _without_pips([die, *pips, beside, twin], det_scale=0.5)  # the die 100 px in the detector's input
    assert got == [die, beside, twin]
    # a peak as big as a heap of small dice, at the sizes the first look finds whole: they stay
    assert _without_pips([die, *pips], det_scale=0.25) == [die, *pips]


def test_a_weak_peak_as_wide_as_a_group_of_dice_takes_none_of_them():
    """A peak with a side as wide as a group of dice lying apart (the tray
    between them in its middle) is no die: the dice in its square are not
    its pips. A die of one colour seen whole, with its pips as peaks, still
    loses them."""
    img = tray(w=1000, h=800, bgr=(30, 30, 30))
    host = Found((500.0, 400.0), 300.0, 0.41)  # 75 px in the detector's input at 0.25
    dice = [Found((500.0 + dx, 400.0 + dy), 60.0, 0.7) for dx, dy in ((-100, -60), (90, -80), (0, 30), (-60, 100), (110, 90))]
    for d in dice:
        cv2.rectangle(img, (int(d.center[0] - 25), int(d.center[1] - 25)), (int(d.center[0] + 25), int(d.center[1] + 25)),
                      (40, 200, 230), -1)
    assert _without_pips([host, *dice], det_scale=0.25, frame=img) == [host, *dice]
    assert _without_pips([host, *dice], det_scale=0.25) == [host]  # the shape of the peaks alone
    # one big ivory die, its pips seen as peaks: they go
    die_img = tray(w=1000, h=800, bgr=(30, 30, 30))
    cv2.rectangle(die_img, (350, 250), (650, 550), (200, 230, 240), -1)
    pips = [Found((500.0 + dx, 400.0 + dy), 40.0, 0.7) for dx, dy in ((-80, -80), (0, 0), (80, 80))]
    for p in pips:
        cv2.circle(die_img, (int(p.center[0]), int(p.center[1])), 18, (20, 20, 20), -1)
    assert _without_pips([host, *pips], det_scale=0.25, frame=die_img) == [host]


def test_dice_lying_apart_are_all_read_in_a_crowded_frame():
    """A crowded 2 MP frame of numeral dice (drawn: seed 7700094), where the
    detector gave a weak peak as wide as five of them lying apart: none of
    the eighteen is lost (before, five were taken for its pips, neither
    answered nor refused)."""
    from calibration.synth import make_scene

    img, label = make_scene(7700 * 1000 + 94, (1920, 1080), ("d8", "d10", "d10t"), "crowded")
    r = read_dice(img)
    places = [d.center for d in r.dice] + [x.center for x in r.rejected]
    lost = [d["center"] for d in label["dice"]
            if not any(np.hypot(c[0] - d["center"][0], c[1] - d["center"][1]) < 30 for c in places)]
    assert lost == []
    assert len(r.dice) >= 16


def test_two_dice_of_their_own_inside_a_big_peak_are_told_from_a_dies_pieces():
    touching = [Found((250.0, 300.0), 100.0, 0.8), Found((352.0, 300.0), 100.0, 0.8)]
    pieces = [Found((300.0, 300.0), 190.0, 0.5), Found((310.0, 320.0), 170.0, 0.4)]  # on top of each other
    pips = [Found((250.0, 250.0), 40.0, 0.7), Found((350.0, 350.0), 40.0, 0.7)]  # too small to be dice
    assert _two_dice(touching, 200.0)
    assert not _two_dice(pieces, 200.0)
    assert not _two_dice(pips, 200.0)


def test_a_numeral_dies_glyph_found_as_a_small_die_is_not_answered_as_a_d6_one():
    """Close up, the first look finds the 2 of a d10 as a small die, which the
    d6 classifier answered as a 1. The die found whole when zoomed out (no d6
    face read on it but that 1) takes its place, and the d10 is read."""
    path = FIXTURES / "closeups" / "glyph_004_closeup.jpg"
    (want,) = json.loads(path.with_suffix(".json").read_text())["dice"]
    r = read_dice(cv2.imread(str(path)))
    near = [d for d in r.dice if np.hypot(d.center[0] - want["center"][0], d.center[1] - want["center"][1]) < 60]
    assert [(d.kind, d.value) for d in near] == [("d10", 2)]


def test_a_numeral_dies_glyph_is_told_from_small_dice_of_their_own():
    """One or two peaks on a numeral die, read as no d6 face but a 1, are its
    numeral or a loop of it; a 5 and a 3, or three peaks, are dice."""
    loop, digit = Found((300.0, 300.0), 60.0, 0.7), Found((360.0, 300.0), 70.0, 0.6)
    again = Found((302.0, 298.0), 58.0, 0.5)  # the touching look's peak on the loop
    assert _glyph([loop, digit], [])  # read as no d6 face at all
    assert _glyph([loop, again, digit], [(1, 0.96)])  # the loop read as a 1
    assert _glyph([loop], [(4, 0.33)])  # a d6 face, but not at glyph_one_p
    assert not _glyph([loop, digit], [(5, 0.86), (3, 0.88)])  # two touching d6
    assert not _glyph([loop, digit, Found((300.0, 360.0), 60.0, 0.6)], [])  # a group of small dice
    assert not _glyph([], [])


def test_a_big_peak_is_one_die_only_where_one_dies_body_lies_between_its_pips():
    """The middle of a big peak's square (less its pips) is one die's body:
    unlike the tray around it and of one colour. Three small dice on the
    felt (felt between them) are not, nor a heap of dice of many colours."""
    big = Found((320.0, 240.0), 200.0, 0.9)
    one = tray(640, 480)
    draw_die(one, (320, 240), 200, 3, angle_deg=15, body_bgr=(40, 40, 200), pip_bgr=(240, 240, 240))
    pips = [Found((320.0 + d, 240.0 + d), 36.0, 0.7) for d in (-54, 0, 54)]
    assert _one_die_body(one, big, pips)
    group = tray(640, 480)
    for c in ((260, 180), (380, 200), (320, 300)):
        draw_die(group, c, 50, 2, body_bgr=(245, 245, 245))
    assert not _one_die_body(group, big, [Found((260.0, 180.0), 50.0, 0.8), Found((380.0, 200.0), 50.0, 0.8)])
    heap = tray(640, 480)
    for (x, y), body in zip(((270, 190), (370, 190), (270, 290), (370, 290)),
                            ((40, 40, 200), (200, 60, 30), (40, 200, 230), (245, 245, 245)), strict=True):
        draw_die(heap, (x, y), 98, 1, body_bgr=body)
    assert not _one_die_body(heap, big, [])


def test_a_numeral_die_smaller_than_the_frames_dice_is_read_by_the_scan():
    """A black d10 on black felt in a crowded numeral frame (drawn: seed
    7700048), found only as a weak peak: read at the frame's typical side
    (a d6's from above) the network is unsure of its 3 (P 0.54-0.77); read a
    little smaller too, the same face surer (0.89) stands."""
    from calibration.synth import make_scene

    img, label = make_scene(7700 * 1000 + 48, (1920, 1080), ("d8", "d10", "d10t"), "crowded")
    want = next(d for d in label["dice"] if abs(d["center"][0] - 828) < 20 and abs(d["center"][1] - 480) < 20)
    assert (want["kind"], want["value"]) == ("d10", 3)
    got = [(d.kind, d.value) for d in read_dice(img).dice
           if np.hypot(d.center[0] - want["center"][0], d.center[1] - want["center"][1]) < 30]
    assert got == [("d10", 3)]


def _squashed_die(img, centre, side, value, squash):
    """Draw a die's top face squashed to `squash` of its height, as from above a
    die leaning acos(squash) on another looks."""
    c = int(side * 2)
    face, mask = np.zeros((c, c, 3), np.uint8), np.zeros((c, c, 3), np.uint8)
    draw_die(face, (c / 2, c / 2), side, value, 20)
    draw_die(mask, (c / 2, c / 2), side, 1, 20, (255, 255, 255), (255, 255, 255))
    size = (c, int(c * squash))
    face, mask = cv2.resize(face, size), cv2.resize(mask, size)
    x0, y0 = int(centre[0] - c / 2), int(centre[1] - c * squash / 2)
    roi = img[y0:y0 + size[1], x0:x0 + size[0]]
    roi[mask > 0] = face[mask > 0]


FLAT = [((150, 150), 2), ((400, 140), 6), ((620, 180), 3), ((200, 420), 5), ((500, 470), 1)]


@pytest.mark.parametrize("value,squash", [(4, 0.85), (4, 0.75), (3, 0.75)])
def test_a_die_seen_squashed_among_dice_seen_from_above_is_refused_cocked(value, squash):
    """A die leaning on another shows its top face squashed along its lean (by
    the lean's cosine: 0.85 is 32 degrees, 0.75 41); the networks still read
    its value. Among dice seen from above, whose pips are round, it is refused
    cocked, not answered; the flat dice are read, the 1 it leans on too. A
    4's square of pips shows it; a 3's line does not, its pips all squashed
    the same way do."""
    img = tray(800, 600)
    for centre, value_flat in FLAT:
        draw_die(img, centre, 60, value_flat, 15)
    _squashed_die(img, (570, 460), 60, value, squash)
    r = read_dice(img)
    assert sorted(d.value for d in r.dice) == [1, 2, 3, 5, 6]
    assert [x.why for x in r.rejected] == ["cocked"]
    assert abs(r.rejected[0].center[0] - 570) < 20 and abs(r.rejected[0].center[1] - 460) < 20


@pytest.mark.parametrize("squash", [1.0, 0.75])
def test_dice_photographed_at_a_slant_are_all_read(squash):
    """A photo taken at a slant squashes every flat die alike: none is refused
    for it (and a 4 seen from above is read)."""
    img = tray(800, 600)
    for centre, value in FLAT + [((568, 460), 4)]:
        draw_die(img, centre, 60, value, 15)
    r = read_dice(cv2.resize(img, (800, int(600 * squash))))
    assert sorted(d.value for d in r.dice) == [1, 2, 3, 4, 5, 6]
    assert not r.rejected


# Generated touching-dice scenes (scripts/make_scenes.py --seed 7400 --size 1200x900 --themes
# touching,crowded,touching: scenes 15, 26 and 44) where the detector found two dice lying flush
# as one peak between them: read as one leaning die, or as one of the two.
PAIRS_FOUND_AS_ONE = [(7400015, (515, 183)), (7400026, (951, 700)), (7400044, (923, 689))]


@pytest.mark.parametrize("seed,pair", PAIRS_FOUND_AS_ONE)
def test_two_dice_touching_found_as_one_are_both_read(seed, pair):
    from calibration.synth import make_scene

    image, label = make_scene(seed, (1200, 900), theme="touching")
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])  # as make_scenes.py writes it
    got = read_dice(cv2.imdecode(jpeg, cv2.IMREAD_COLOR))
    side = got.die_side_px
    near = [d for d in label["dice"] if np.hypot(d["center"][0] - pair[0], d["center"][1] - pair[1]) < 1.5 * side]
    assert len(near) >= 2
    for want in near:
        answer = [d for d in got.dice if np.hypot(d.center[0] - want["center"][0],
                                                  d.center[1] - want["center"][1]) < 0.5 * side]
        assert [d.value for d in answer] == [want["value"]], (want, got.dice)


def test_a_black_die_on_dark_felt_seen_by_one_pip_is_read():
    # scene_011: a black 2 flush against a black 6 on dark felt under warm light; the detector
    # finds one pip of the 2 as a small die, which reads as a lone pip (no die's outline round it)
    image = cv2.imread(str(FIXTURES / "scenes" / "scene_011_warm.jpg"))
    label = json.loads((FIXTURES / "scenes" / "scene_011_warm.json").read_text())
    got = read_dice(image)
    two = next(d for d in label["dice"] if d["value"] == 2 and d["colour"] == "black")
    near = [d for d in got.dice if np.hypot(d.center[0] - two["center"][0], d.center[1] - two["center"][1])
            < 0.5 * got.die_side_px]
    assert [(d.value, d.colour) for d in near] == [(2, "black")]
    assert all(d.value in [w["value"] for w in label["dice"]] for d in got.dice)


def test_a_numeral_read_on_a_side_face_of_a_die_photographed_close_is_refused():
    # a d10 photographed close: one grey body about 240 px wide alone on white; the pieces
    # the readers found in it are 45 px wide. The front face's numeral lies in its middle;
    # a numeral 0.4 of its side off the middle is a neighbour face's
    frame = np.full((756, 756, 3), 245, np.uint8)
    kite = np.array([(378, 250), (500, 360), (378, 500), (256, 360)], np.int32)
    cv2.fillConvexPoly(frame, kite, (150, 150, 150))
    body = cv2.moments(kite)
    mid = (body["m10"] / body["m00"], body["m01"] / body["m00"])
    front = Die("d10", 2, None, mid, 0.9, square_outline(mid, 45))
    side = Die("d10", 7, None, (mid[0] - 85, mid[1]), 0.83, square_outline((mid[0] - 85, mid[1]), 45))
    kept, refused = _off_a_close_die(frame, [front, side], frame_side=40)
    assert kept == [front]
    assert [(r.center, r.why) for r in refused] == [(side.center, "unreadable")]
    # a d6 is read by its pips wherever it lies, and on a tray wider than half the frame
    # (not one die) nothing is refused
    d6 = Die("d6", 3, "white", side.center, 0.9, side.outline)
    assert _off_a_close_die(frame, [front, d6], frame_side=40) == ([front, d6], [])
    tray_frame = np.full((756, 756, 3), 245, np.uint8)
    cv2.rectangle(tray_frame, (100, 100), (656, 656), (150, 150, 150), -1)
    assert _off_a_close_die(tray_frame, [front, side], frame_side=40) == ([front, side], [])


def test_a_two_filling_a_close_up_frame_is_not_answered_as_its_pip():
    """A crop of one die turned and filling the frame (a rectified top face):
    a found peak sat on one pip of a 2, and a 1 was answered; read whole
    round the frame's middle it is the 2, once."""
    img = tray(64, 64)
    draw_die(img, (32, 32), 64 * 0.95, 2, angle_deg=20)
    assert [(d.kind, d.value) for d in read_dice(img).dice] == [("d6", 2)]


def _face(draw) -> np.ndarray:
    face = np.full((48, 48, 3), 235, np.uint8)
    draw(face)
    return face


@pytest.mark.parametrize("draw,one", [
    (lambda f: cv2.circle(f, (24, 24), 8, (20, 20, 20), -1), True),  # a 1's pip
    (lambda f: cv2.circle(f, (25, 23), 7, (30, 30, 160), -1), True),  # a red pip, a little off
    (lambda f: cv2.putText(f, "6", (10, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.4, (20, 20, 20), 4), False),
    (lambda f: [cv2.circle(f, c, 6, (20, 20, 20), -1) for c in ((24, 24), (8, 8))], False),  # two marks
    (lambda f: cv2.circle(f, (24, 24), 20, (20, 20, 20), -1), False),  # a disc as big as the face
    (lambda f: cv2.ellipse(f, (24, 24), (16, 4), 30, 0, 360, (20, 20, 20), -1), False),  # a bar, not round
    (lambda f: cv2.circle(f, (24, 24), 10, (20, 20, 20), 3), False),  # a ring (a 0, an O): hollow
])
def test_a_close_dies_one_shows_one_round_mark(draw, one):
    """A 1 read on a die filling a close-up frame is answered only where the
    face's middle shows one round mark and nothing else: a numeral's loop
    reads as a 1 to the classifier, but the rest of the numeral shows, or
    its stroke is hollow."""
    assert _one_round_mark(_face(draw), DEFAULT_PARAMS) is one


# numerals filling a close-up frame (a phone's crop of one numeral d6) that were answered as a 1
# (the classifiers read a 6's or 9's loop, or a 5's bowl, as a pip): (body BGR, numeral, turned)
CLOSE_NUMERALS = [((60, 60, 200), "6", 0), ((90, 30, 40), "6", 0), ((90, 30, 40), "5", 15),
                  ((180, 90, 30), "6", 15), ((180, 90, 30), "9", 0), ((40, 140, 40), "5", 0),
                  ((40, 140, 40), "6", 15), ((30, 30, 30), "5", 15), ((30, 30, 30), "6", 0)]


@pytest.mark.parametrize("body,numeral,angle", CLOSE_NUMERALS)
def test_a_numeral_filling_a_close_up_frame_is_not_answered_as_a_one(body, numeral, angle):
    img = np.full((96, 96, 3), 200, np.uint8)
    cv2.rectangle(img, (3, 3), (92, 92), body, -1)
    cv2.putText(img, numeral, (26, 72), cv2.FONT_HERSHEY_SIMPLEX, 2.2, (245, 245, 245), 6, cv2.LINE_AA)
    img = cv2.warpAffine(img, cv2.getRotationMatrix2D((48, 48), angle, 1.0), (96, 96), borderValue=(200, 200, 200))
    got = read_dice(cv2.GaussianBlur(img, (3, 3), 0))
    assert [d.value for d in got.dice if d.value == 1] == [], got


def _off_face(f):
    cv2.rectangle(f, (0, 36), (12, 47), (90, 90, 90), -1)  # the tray in a corner: the die is not centred
    cv2.circle(f, (31, 17), 7, (20, 20, 20), -1)


@pytest.mark.parametrize("draw,pip", [
    (lambda f: cv2.circle(f, (24, 24), 7, (20, 20, 20), -1), True),  # a 1's pip
    (_off_face, True),  # off the middle, the tray in the crop's corner
    (lambda f: cv2.circle(f, (24, 24), 7, (250, 250, 250), -1) if not f.fill(120) else None, True),  # light
    (lambda f: cv2.putText(f, "6", (12, 38), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (20, 20, 20), 4), False),
    (lambda f: cv2.putText(f, "5", (12, 38), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (20, 20, 20), 4), False),
    (lambda f: cv2.circle(f, (24, 24), 10, (20, 20, 20), 3), False),  # a ring: its hole lies on the ring
    (lambda f: cv2.circle(f, (24, 24), 21, (20, 20, 20), -1), False),  # a disc as big as the face
    (lambda f: cv2.ellipse(f, (24, 24), (16, 4), 30, 0, 360, (20, 20, 20), -1), False),  # a bar
])
def test_a_one_in_a_close_up_frame_shows_a_pip_near_its_middle(draw, pip):
    """A 1 answered in a close-up frame stands only where a pip shows near the
    face's middle: a round, solid mark lying on the face, not the hole of a
    numeral's loop lying on the numeral."""
    assert _a_pip_near_the_middle(_face(draw), DEFAULT_PARAMS) is pip
