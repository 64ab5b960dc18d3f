"""Body colours under warm and cool light: what a player at the table sees named.

Drawn frames (tests/vision/drawing.py) lit by white-balance gains as the
rendered scenes are (calibration/synth_layout.py: warm b 0.72-0.85 r 1.08-1.18,
cool b 1.08-1.2 r 0.78-0.9), read end to end; and vision.colour on its own.
"""

import numpy as np
import pytest

from tests.vision.drawing import draw_die, tray
from vision import colour, read_dice

WARM = (0.78, 1.0, 1.14)  # BGR gains
COOL = (1.16, 1.0, 0.82)
LIGHTS = {"warm": WARM, "cool": COOL, "neutral": (1.0, 1.0, 1.0)}
FELTS = {"green": (60, 110, 40), "blue": (120, 60, 30), "red": (40, 40, 130)}
DICE = {  # body, pips (the rendered scenes' styles)
    "white": ((236, 236, 232), (35, 32, 30)),
    "ivory": ((196, 226, 238), (40, 36, 34)),
    "red": ((38, 36, 186), (240, 240, 240)),
    "green": ((60, 150, 36), (242, 242, 242)),
    "blue": ((168, 78, 28), (240, 240, 240)),
    "yellow": ((36, 206, 236), (30, 30, 30)),
    "black": ((34, 32, 32), (238, 238, 238)),
}
SPOTS = ((150, 170), (400, 170), (650, 170), (150, 430), (400, 430), (650, 430))


def lit(img: np.ndarray, gains) -> np.ndarray:
    return np.clip(img.astype(np.float32) * np.float32(gains), 0, 255).astype(np.uint8)


def colours_read(names: list[str], felt: str, light: str) -> list[str | None]:
    """The colour read at each die's place (None: no answer there)."""
    img = tray(bgr=FELTS[felt])
    for i, name in enumerate(names):
        body, pips = DICE[name]
        draw_die(img, SPOTS[i], 64, 5 if i % 2 else 4, angle_deg=12.0 * i, body_bgr=body, pip_bgr=pips)
    r = read_dice(lit(img, LIGHTS[light]))
    out = []
    for x, y in SPOTS[: len(names)]:
        near = [d for d in r.dice if np.hypot(d.center[0] - x, d.center[1] - y) < 20]
        out.append(near[0].colour if near else None)
    return out


@pytest.mark.parametrize("felt", sorted(FELTS))
@pytest.mark.parametrize("light", sorted(LIGHTS))
def test_red_green_blue_and_white_dice_are_told_apart_under_any_light(felt, light):
    """Dados Centrales: the central red dice among green, blue and white ones;
    a white die named blue under a cool lamp broke the table."""
    names = ["red", "green", "blue", "white", "red", "white"]
    got = colours_read(names, felt, light)
    assert [g for g in got if g is not None] == [n for n, g in zip(names, got, strict=True) if g is not None]
    assert sum(g is not None for g in got) >= 5


@pytest.mark.parametrize("felt", ["green", "blue"])
def test_a_white_die_alone_under_a_cool_lamp_on_felt_is_white(felt):
    """No neutral tray, no other die: its own cool tint is the lamp's."""
    assert colours_read(["white"], felt, "cool") == ["white"]


@pytest.mark.parametrize("light", sorted(LIGHTS))
def test_a_blue_die_stays_blue_and_a_yellow_die_yellow(light):
    """Alone and among white dice: the correction does not move a coloured
    die's hue out of its band (a warm lamp's correction shifts blue and
    yellow most)."""
    assert colours_read(["blue"], "green", light) == ["blue"]
    assert colours_read(["yellow"], "green", light) == ["yellow"]
    assert colours_read(["yellow", "white", "blue", "white"], "green", light) == ["yellow", "white", "blue", "white"]


@pytest.mark.parametrize("light", sorted(LIGHTS))
def test_ivory_beside_white_stays_ivory(light):
    """The white die is the frame's white: the ivory one is warmer than it,
    whatever the lamp (a median of the two would split the difference)."""
    got = colours_read(["white", "ivory", "black", "ivory"], "green", light)
    assert got == ["white", "ivory", "black", "ivory"]


# ----------------------------------------------------------------------------- vision.colour alone


def crop_of(body, pips=None, side=32, n=48, value=5) -> np.ndarray:
    """A classifier-like crop (1.5 die sides): a die of `body` with `pips`
    on a dark felt."""
    img = np.full((n, n, 3), (40, 90, 30), np.uint8)
    draw_die(img, (n / 2, n / 2), side, value, body_bgr=body, pip_bgr=pips or (30, 30, 30))
    return img


def test_the_white_point_is_the_white_dice_and_pips_not_the_ivory():
    under = np.array(WARM)
    crops = [crop_of(tuple(np.clip(np.array(b) * under, 0, 255)), tuple(np.clip(np.array(p) * under, 0, 255)))
             for b, p in (DICE["white"], DICE["ivory"], DICE["ivory"], DICE["red"], DICE["blue"])]
    light = colour.frame_light(crops, np.array(FELTS["green"]) * under)
    assert light.source == "dice" and light.refs == 5
    w = np.array(light.white)
    assert w[2] / w[0] == pytest.approx(WARM[2] / WARM[0], rel=0.12)  # the lamp's r/b, not the ivory's
    names = [colour.name_colour(np.median(c[17:31, 17:31].reshape(-1, 3), axis=0), light.for_die(c)) for c in crops]
    assert names[:3] == ["white", "ivory", "ivory"]


def test_a_lone_ivory_die_is_not_its_own_white_point():
    """One die, the frame's only reference, on felt: an ivory die stays
    ivory (it is not divided by itself into white)."""
    c = crop_of(DICE["ivory"][0])
    light = colour.frame_light([c], np.array(FELTS["green"], float))
    assert light.alone is not None
    assert colour.name_colour(np.array(DICE["ivory"][0], float), light.for_die(c)) == "ivory"
    # ... while another die of that frame is named by it
    assert light.for_die(crop_of(DICE["blue"][0], DICE["blue"][1])).white is not None


def test_lavender_with_white_pips_is_purple_not_white():
    """A pastel die's white pips, not its body, are the frame's white; its
    leftover tint is purple, more than a white die's ever is."""
    lavender = (226, 170, 196)
    crops = [crop_of(lavender, (246, 246, 246)), crop_of(DICE["white"][0]), crop_of(DICE["red"][0], DICE["red"][1])]
    light = colour.frame_light(crops, np.array(FELTS["green"], float))
    assert colour.name_colour(np.array(lavender, float), light.for_die(crops[0])) == "purple"
    assert colour.name_colour(np.array(DICE["white"][0], float), light.for_die(crops[1])) == "white"


def test_glare_and_dark_pips_are_no_reference():
    glare = np.full((48, 48, 3), 255, np.uint8)
    yellow = crop_of(DICE["yellow"][0], DICE["yellow"][1])
    assert len(colour.white_refs([glare, yellow])) == 0
    assert colour.frame_light([glare, yellow], np.array(FELTS["green"], float)).white is None


def test_a_tray_colour_still_names_as_before():
    """name_colour(body, tray) as the classical reader calls it: white
    balanced by a neutral tray only."""
    assert colour.name_colour(np.array([236, 236, 232.]), np.array([200, 200, 200.])) == "white"
    assert colour.name_colour(np.array([38, 36, 186.]), np.array(FELTS["green"], float)) == "red"
    assert colour.name_colour(np.array([20, 20, 20.])) == "black"


def test_the_counted_median_is_numpys():
    rng = np.random.default_rng(0)
    for n in (1, 2, 3, 1400, 32400):
        px = rng.integers(0, 256, (n, 3)).astype(np.uint8)
        assert np.array_equal(colour.median_u8(px), np.median(px, axis=0))
    px = np.full((10, 3), 7, np.uint8)
    assert np.array_equal(colour.median_u8(px), np.median(px, axis=0))
