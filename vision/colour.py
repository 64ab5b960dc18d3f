"""Name a die's body colour, corrected for the light by the tray's colour.

When the tray is a neutral surface (white, grey, pale wood) its colour tells
the light's white point: the body colour is divided by it before naming
(a warm lamp makes a white die look ivory otherwise). A saturated felt tells
nothing about the light, and is not used.
"""

from __future__ import annotations

import colorsys

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
GREY_MAX_SAT = 0.22  # below: white / ivory / grey / black
IVORY_MIN_WARMTH = 0.06  # (r - b) / value of a light body that looks ivory
BLACK_MAX_VALUE = 0.28
WHITE_MIN_VALUE = 0.62


def white_balance(body_bgr: np.ndarray, tray_bgr: np.ndarray) -> np.ndarray:
    """Body colour under a neutral light, if the tray is neutral enough."""
    tray = np.asarray(tray_bgr, np.float64)
    mx = tray.max()
    if mx <= 0:
        return np.asarray(body_bgr, np.float64)
    sat = 1.0 - tray.min() / mx
    if sat > NEUTRAL_TRAY_MAX_SAT:
        return np.asarray(body_bgr, np.float64)
    gain = tray.mean() / np.maximum(tray, 1.0)
    return np.clip(np.asarray(body_bgr, np.float64) * gain, 0, 255)


def name_colour(body_bgr: np.ndarray, tray_bgr: np.ndarray | None = None) -> str:
    """A plain colour name for a die body's BGR colour (0-255)."""
    bgr = white_balance(body_bgr, tray_bgr) if tray_bgr is not None else np.asarray(body_bgr)
    b, g, r = (float(v) / 255.0 for v in bgr)
    h, s, v = colorsys.rgb_to_hsv(r, g, b)
    if s < GREY_MAX_SAT or v < BLACK_MAX_VALUE:
        if v < BLACK_MAX_VALUE:
            return "black"
        if v >= WHITE_MIN_VALUE:
            return "ivory" if (r - b) / max(v, 1e-6) > IVORY_MIN_WARMTH * 2 else "white"
        return "grey"
    hue = h * 360.0
    for limit, name in HUE_NAMES:
        if hue < limit:
            return name
    return "red"
