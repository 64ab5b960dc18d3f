"""Simple top-down dice drawn with OpenCV, for unit tests of the reader."""

from __future__ import annotations

import cv2
import numpy as np

from vision.pips import LAYOUTS

PIP_STEP = 0.27  # grid step, of the die side
PIP_RADIUS = 0.09


def draw_die(
    img: np.ndarray,
    centre: tuple[float, float],
    side_px: float,
    value: int,
    angle_deg: float = 0.0,
    body_bgr: tuple[int, int, int] = (245, 245, 245),
    pip_bgr: tuple[int, int, int] = (20, 20, 20),
) -> None:
    """Draw a die's top face (a square with its pips) into `img`, in place."""
    a = np.deg2rad(angle_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    half = side_px / 2
    corners = np.array([[-half, -half], [half, -half], [half, half], [-half, half]]) @ rot.T
    cv2.fillConvexPoly(img, np.int32(np.round(corners + centre)), body_bgr, cv2.LINE_AA)
    for p in LAYOUTS[value]:
        c = (p * PIP_STEP * side_px) @ rot.T + centre
        cv2.circle(img, (int(round(c[0])), int(round(c[1]))),
                   max(1, int(round(PIP_RADIUS * side_px))), pip_bgr, -1, cv2.LINE_AA)


def tray(w: int = 800, h: int = 600, bgr: tuple[int, int, int] = (60, 110, 40),
         seed: int = 0) -> np.ndarray:
    """A felt-like tray: a flat colour with a little noise."""
    rng = np.random.default_rng(seed)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = bgr
    noise = rng.normal(0, 3, (h, w, 3))
    return np.clip(img + noise, 0, 255).astype(np.uint8)


def numeral_d6_close(value: int, angle_deg: float = 0.0) -> np.ndarray:
    """A d6 with numerals photographed close: a dark die 230 px wide in a
    756 px photo on white (as bartek-single's forest d6), its value drawn in
    a serif font on its top face, turned `angle_deg` degrees, with a soft shadow."""
    side, img = 230, np.full((756, 756, 3), 245, np.uint8)
    die = np.full((side, side, 3), (60, 50, 55), np.uint8)
    cv2.rectangle(die, (0, 0), (side - 1, side - 1), (35, 30, 30), 6)
    font, scale, thick = cv2.FONT_HERSHEY_TRIPLEX, side / 45, side // 25
    (w, h), _ = cv2.getTextSize(str(value), font, scale, thick)
    cv2.putText(die, str(value), ((side - w) // 2, (side + h) // 2), font, scale, (200, 200, 205), thick, cv2.LINE_AA)
    turn = cv2.getRotationMatrix2D((side / 2, side / 2), angle_deg, 1)
    mask = cv2.warpAffine(np.full((side, side), 255, np.uint8), turn, (side, side)) > 0
    die = cv2.warpAffine(die, turn, (side, side))
    x0 = 378 - side // 2
    shadow = np.zeros((756, 756), np.float32)
    shadow[x0 + 12:x0 + 12 + side, x0 + 10:x0 + 10 + side] = 0.35 * mask
    img = (img * (1 - cv2.GaussianBlur(shadow, (0, 0), 8)[..., None])).astype(np.uint8)
    img[x0:x0 + side, x0:x0 + side][mask] = die[mask]
    return cv2.GaussianBlur(img, (3, 3), 0)
