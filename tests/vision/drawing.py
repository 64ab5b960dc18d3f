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
