"""Name a die's body colour, corrected for the light by the frame's own whites.

A warm lamp makes a white die look ivory or orange, a cool one makes it look
blue. The body colour is divided by the light's white point before it is
named; the white point comes from the frame itself (`frame_light`):

1. White references, at most one per die (the d6 reader passes the
   classifier crops of the dice it reads at p >= min_value_prob; kinds cuts
   crops of every answer with `die_crops`): the die's body, when it is light
   and weakly saturated and its brightest pixels have the body's tint (a
   white, ivory or cream die with dark pips); else the brightest few per
   cent of the die's middle by their least channel (the white pips of a
   coloured, black or lavender die). A reference must be light (least
   channel >= REF_MIN_VALUE), weakly saturated (< REF_MAX_SAT) and not
   clipped in every channel (glare): a yellow die's body or a white die's
   dark pips are none. A pip's tint is taken PIP_TINT_GAIN times as strong:
   its brightest pixels were clipped before the blur and the JPEG, so a
   strong lamp looks weaker in them than on a white die's body.
2. The tint, in log chromaticity on two axes. Warm-cool (log r/b): a low
   quantile (WARMTH_QUANTILE) of the references: white pips and white dice
   are the cool end of a frame's references, ivory dice are warmer than any
   white (a median would take a frame of ivory dice for its whites); blue
   dice's pips are a little cooler (their body bleeds into them), which is
   why it is not the minimum. Capped at LIGHT_MAX_TINT. Green-magenta
   (log rb/g^2): the median, capped at LIGHT_MAX_GREEN (a green die's pips
   are green: left uncapped, a yellow die turned orange).
3. A die is not its own white point: when one die gave the frame's only
   reference (`Light.alone`), the other dice are named by it, and that die
   by the tray if the tray is neutral (NEUTRAL_TRAY_MAX_SAT: white, grey,
   pale wood), else by its own reference only if that is cool (a lone white
   die under a cool lamp is white; a lone ivory die is not made white, and
   under a warm lamp is not told from a white one).
4. No reference: the tray if it is neutral (as before), else no correction.

Naming (`name_colour`), after the correction: by its value (the corrected
or the raw one, the brighter: the correction tints, it does not darken) a
die is black, or grey when weakly saturated and dim (below WHITE_MIN_VALUE
and below GREY_OF_WHITE of the frame's brightest reference); weakly
saturated and light is white, or ivory if warm ((r - b) / v >
IVORY_MIN_WARMTH), unless it is of a purple hue and PASTEL_PURPLE_MIN_SAT
saturated (a lavender die: a white die's leftover tint is never that
purple); a pale warm body (hue IVORY_HUES, saturation < IVORY_MAX_SAT, less
if clipped, which hides saturation) is ivory: real cream dice are that
saturated under a warm lamp, yellow dice more. Else a hue band.

Measured (docs/vision.md, "Body colour"): rendered scenes nothing was tuned
on 89.2 -> 98.8 % of the dice found named as labelled; the fixtures 92.9 ->
97.8 %; matteop65's white dice 100 % as before; bartek's white and cream d6
27 -> 77 %. What is left is white against ivory. Pure and cheap: arrays in,
names out; frame_light 0.2 ms a frame of 6 dice, 0.6 ms of 20 (a busy core).
"""

from __future__ import annotations

import colorsys
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

# hue bands in degrees (HSV hue, 0-360) -> name; red wraps around 0
HUE_NAMES = (
    (15.0, "red"),
    (40.0, "orange"),
    (70.0, "yellow"),
    (165.0, "green"),
    (255.0, "blue"),
    (330.0, "purple"),
    (360.0, "red"),
)
NEUTRAL_TRAY_MAX_SAT = 0.25  # a tray this grey can set the white point
GREY_MAX_SAT = 0.22  # below: white / ivory / grey (or lavender)
IVORY_MIN_WARMTH = 0.08  # (r - b) / value of a light, weakly saturated body that is ivory
BLACK_MAX_VALUE = 0.28
WHITE_MIN_VALUE = 0.62  # a weakly saturated body this light is white (or ivory) ...
GREY_OF_WHITE = 0.6  # ... and so is one this much as light as the frame's brightest reference
PASTEL_PURPLE_MIN_SAT = 0.10  # a pale body of a purple hue this saturated is a lavender die
IVORY_HUES = (25.0, 70.0)
IVORY_MAX_SAT = 0.42  # a light body of an ivory hue less saturated than this is ivory
IVORY_MAX_SAT_CLIPPED = 0.30  # ... if it is clipped in a channel (>= CLIPPED_VALUE)
IVORY_MIN_VALUE = 0.55
CLIPPED_VALUE = 245

# the frame's white references (see the module's docstring)
REF_MIN_VALUE = 0.45  # least channel of a reference, of 255
REF_MAX_SAT = 0.50
REF_TOP_FRAC = 0.03  # a die's brightest pixels, by their least channel
REF_GLARE = 250  # pixels this bright in every channel are no reference
REF_SAME_TINT = 0.12  # a body is a reference if its brightest pixels have its tint (log chromaticity)
WARMTH_QUANTILE = 0.3
PIP_TINT_GAIN = 1.25  # a pip's brightest pixels were clipped before blur: they show a strong tint weaker
LIGHT_MAX_TINT = 0.7  # log r/b of the strongest tint corrected
LIGHT_MAX_GREEN = 0.1  # log g^2/rb of the strongest green (or magenta) tint corrected
BODY_SIDES = 0.3  # a die's body colour: the median of the middle +- this many sides (as the reader's)
MIDDLE_SIDES = 0.4  # its brightest pixels: of the middle +- this many sides


@dataclass(frozen=True)
class Light:
    """The light's white point as the camera sees it (BGR, mean 1), or None
    when nothing in the frame tells it; where it came from ("dice", "tray"
    or "none"); how many white references the dice gave; the brightest
    one's value (0-1). `alone`: the frame's only reference, when one die
    gave it; `alone_white`: the white point that die is named by;
    `alone_crop`: its crop."""

    white: tuple[float, float, float] | None
    source: str
    refs: int = 0
    bright: float = 1.0
    alone: tuple[float, float, float] | None = None
    alone_white: tuple[float, float, float] | None = None
    alone_crop: np.ndarray | None = field(default=None, compare=False, repr=False)

    def for_die(self, crop: np.ndarray) -> Light:
        """The light to name the die of this crop (one given to `frame_light`)
        by: the frame's, unless the die's own reference is the frame's only one."""
        if self.alone_crop is None or not (crop is self.alone_crop or np.array_equal(crop, self.alone_crop)):
            return self
        return Light(self.alone_white, "none" if self.alone_white is None else "tray", 0, self.bright)


def frame_light(crops: Sequence[np.ndarray], tray_bgr: np.ndarray | None = None,
                crop_sides: float = 1.5) -> Light:
    """The light's white point from the dice of a frame and its tray.

    `crops`: square BGR crops centred on dice (all of one size), each
    `crop_sides` die sides wide (the classifier's crops); `tray_bgr`: the
    tray's colour (the frame's median), or None. Name each die by
    `name_colour(body, light.for_die(its crop))`."""
    refs, which = white_refs(crops, crop_sides, which=True)
    bright = float(refs.max()) / 255.0 if len(refs) else 1.0
    tray = _neutral_tray(tray_bgr) if tray_bgr is not None else None
    if len(refs) >= 2:
        return Light(_tint_of(refs), "dice", len(refs), bright)
    if len(refs) == 1:
        w = _tint_of(refs)
        own = tray if tray is not None else (w if w[2] < w[0] else None)  # cool: bluer than red
        return Light(w, "dice", 1, bright, (float(refs[0, 0]), float(refs[0, 1]), float(refs[0, 2])), own,
                     crops[int(which[0])])
    return Light(tray, "none" if tray is None else "tray", 0, bright)


def white_refs(crops: Sequence[np.ndarray], crop_sides: float = 1.5, which: bool = False):
    """One white reference (BGR) per die that has one, as rows; with `which`,
    also the indices of the crops they come from."""
    if len(crops) == 0:
        return (np.zeros((0, 3)), np.zeros(0, int)) if which else np.zeros((0, 3))
    stack = np.stack([np.asarray(c, np.uint8) for c in crops])
    n, c = stack.shape[1], stack.shape[1] / 2
    die = n / crop_sides

    def middle(sides: float) -> np.ndarray:
        r = max(2, round(die * sides))
        lo, hi = round(c - r), round(c + r)
        return stack[:, lo:hi, lo:hi].reshape(len(stack), -1, 3)

    body = _median_rows(middle(BODY_SIDES))
    mid = middle(MIDDLE_SIDES)
    least = np.minimum(np.minimum(mid[:, :, 0], mid[:, :, 1]), mid[:, :, 2])
    least[least >= REF_GLARE] = 0
    k = max(3, int(mid.shape[1] * REF_TOP_FRAC))
    top = np.argpartition(least, -k, axis=1)[:, -k:]
    brightest = _median_rows(np.take_along_axis(mid, top[:, :, None], axis=1))
    lb, lt = np.log(np.maximum(body, 1.0)), np.log(np.maximum(brightest, 1.0))
    same = np.abs((lb - lb[:, 1:2]) - (lt - lt[:, 1:2])).max(axis=1) <= REF_SAME_TINT  # no white pips
    body_ref = _is_ref(body) & same & (body.min(axis=1) < REF_GLARE)
    pip_ref = _is_ref(brightest) & (brightest.min(axis=1) < REF_GLARE)
    keep = np.where(body_ref, 1, np.where(pip_ref, 2, 0))
    lt = lt[:, 1:2] + PIP_TINT_GAIN * (lt - lt[:, 1:2])  # a pip's tint, as strong as the light's
    out = np.where((keep == 1)[:, None], body, np.exp(lt))[keep > 0]
    return (out, np.flatnonzero(keep)) if which else out


def _median_rows(px: np.ndarray) -> np.ndarray:
    """Per-channel median of each row of pixels (rows, pixels, 3) -> (rows, 3)."""
    t = np.ascontiguousarray(px.transpose(0, 2, 1))
    m = t.shape[2]
    p = np.partition(t, [(m - 1) // 2, m // 2], axis=2)
    return (p[:, :, (m - 1) // 2].astype(np.float64) + p[:, :, m // 2]) / 2


def median_u8(px: np.ndarray) -> np.ndarray:
    """np.median(px, axis=0) of uint8 pixels (N, C), the same float64 values,
    by counting: a tray's ~30000 pixels at a third of the time of a partition."""
    n = len(px)
    out = np.empty(px.shape[1])
    for c in range(px.shape[1]):
        below = np.cumsum(np.bincount(px[:, c], minlength=256))
        out[c] = (np.searchsorted(below, (n - 1) // 2, side="right")
                  + np.searchsorted(below, n // 2, side="right")) / 2
    return out


def die_crops(frame_bgr: np.ndarray, centres: Sequence[tuple[float, float]], sides_px: Sequence[float],
              crop_sides: float = 1.5, out_px: int = 48) -> list[np.ndarray]:
    """Square crops `crop_sides` die sides wide centred on dice, `out_px`
    square (for `frame_light` where there are no classifier crops)."""
    out = []
    for (x, y), side in zip(centres, sides_px, strict=True):
        w = max(4, int(round(crop_sides * side)))
        patch = cv2.getRectSubPix(frame_bgr, (w, w), (float(x), float(y)))
        out.append(cv2.resize(patch, (out_px, out_px), interpolation=cv2.INTER_AREA))
    return out


def white_balance(body_bgr: np.ndarray, tray_bgr: np.ndarray) -> np.ndarray:
    """Body colour under a neutral light, if the tray is neutral enough."""
    white = _neutral_tray(tray_bgr)
    if white is None:
        return np.asarray(body_bgr, np.float64)
    return _divide(body_bgr, white)


def name_colour(body_bgr: np.ndarray, light: Light | np.ndarray | None = None) -> str:
    """A plain colour name for a die body's BGR colour (0-255), under `light`
    (a `Light`; or a tray's BGR colour, which corrects only if neutral)."""
    raw = np.asarray(body_bgr, np.float64)
    if isinstance(light, Light):
        bgr = _divide(raw, light.white) if light.white is not None else raw
    elif light is not None:
        bgr = white_balance(raw, light)
    else:
        bgr = raw
    b, g, r = (float(x) / 255.0 for x in bgr)
    h, s, v = colorsys.rgb_to_hsv(r, g, b)
    hue = h * 360.0
    v = max(v, float(raw.max()) / 255.0)
    if v < BLACK_MAX_VALUE:
        return "black"
    lavender = s >= PASTEL_PURPLE_MIN_SAT and HUE_NAMES[4][0] <= hue < HUE_NAMES[5][0]
    if s < GREY_MAX_SAT and not lavender:
        light_enough = v >= WHITE_MIN_VALUE or (
            isinstance(light, Light) and light.refs > 0 and v >= GREY_OF_WHITE * light.bright)
        if not light_enough:
            return "grey"
        return "ivory" if (r - b) / max(v, 1e-6) > IVORY_MIN_WARMTH else "white"
    max_sat = IVORY_MAX_SAT_CLIPPED if raw.max() >= CLIPPED_VALUE else IVORY_MAX_SAT
    if s < max_sat and IVORY_HUES[0] <= hue < IVORY_HUES[1] and v >= IVORY_MIN_VALUE:
        return "ivory"
    for limit, name in HUE_NAMES:
        if hue < limit:
            return name
    return "red"


def _is_ref(bgr: np.ndarray) -> np.ndarray:
    mx, mn = bgr.max(axis=1), bgr.min(axis=1)
    return (mn >= REF_MIN_VALUE * 255) & (mn > (1 - REF_MAX_SAT) * mx)


def _tint_of(refs: np.ndarray) -> tuple[float, float, float]:
    """The white point (BGR, mean 1) of the references: warm-cool by a low
    quantile, green-magenta by the median, in log chromaticity."""
    lg = np.log(np.maximum(refs, 1.0))
    warm = np.sort(lg[:, 2] - lg[:, 0])
    magenta = np.sort(lg[:, 2] + lg[:, 0] - 2 * lg[:, 1])
    n = len(warm)
    u = float(np.clip(warm[max(0, int(np.ceil(WARMTH_QUANTILE * n)) - 1)], -LIGHT_MAX_TINT, LIGHT_MAX_TINT))
    t = float(np.clip((magenta[(n - 1) // 2] + magenta[n // 2]) / 2, -LIGHT_MAX_GREEN, LIGHT_MAX_GREEN))
    w = np.exp(np.array([(t - u) / 2, 0.0, (t + u) / 2]))  # b, g, r over g
    w /= w.mean()
    return (float(w[0]), float(w[1]), float(w[2]))


def _neutral_tray(tray_bgr) -> tuple[float, float, float] | None:
    tray = np.maximum(np.asarray(tray_bgr, np.float64), 1.0)
    if 1.0 - tray.min() / tray.max() > NEUTRAL_TRAY_MAX_SAT:
        return None
    w = tray / tray.mean()
    return (float(w[0]), float(w[1]), float(w[2]))


def _divide(body_bgr, white) -> np.ndarray:
    return np.clip(np.asarray(body_bgr, np.float64) / np.asarray(white, np.float64), 0, 255)
