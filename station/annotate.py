"""The annotated photo: every die outlined with its value, refusals in another colour.

Drawing only (OpenCV); the reader and the rules never see it.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from station.tray import tray_polygon
from vision.types import Point, Reading

DIE_BGR = (60, 220, 60)  # read dice: green
REFUSED_BGR = (40, 40, 240)  # refused dice and the "throw again" banner: red
TEXT_BGR = (255, 255, 255)
TRAY_BGR = (77, 204, 255)  # the calibrated tray's outline: the calibration page's yellow
DEFAULT_RADIUS_FRACTION = 0.03  # circle around a die whose outline is unknown, of the frame width
FONT = cv2.FONT_HERSHEY_SIMPLEX


LABEL_SCALE_PER_PX = 1 / 1000  # text scale per pixel of frame width: legible when the
MIN_LABEL_SCALE = 0.8  # page shows the photo a few hundred pixels wide


def _scale(image: np.ndarray) -> float:
    return max(MIN_LABEL_SCALE, image.shape[1] * LABEL_SCALE_PER_PX)


def _label(image: np.ndarray, text: str, at: tuple[int, int], colour: tuple[int, int, int]) -> None:
    s = _scale(image)
    size, base = cv2.getTextSize(text, FONT, 0.9 * s, max(1, int(2 * s)))
    x, y = at
    x = int(min(max(0, x), image.shape[1] - size[0] - 4))
    y = int(min(max(size[1] + 4, y), image.shape[0] - 4))
    cv2.rectangle(image, (x - 2, y - size[1] - 4), (x + size[0] + 2, y + base), colour, -1)
    cv2.putText(image, text, (x, y), FONT, 0.9 * s, TEXT_BGR, max(1, int(2 * s)), cv2.LINE_AA)


def _outline(image, outline, center, colour) -> int:
    """Draw the die's outline (or a circle when unknown); returns the top y of it."""
    thick = max(2, int(3 * _scale(image)))
    if outline:
        pts = np.round(np.array(outline, dtype=np.float64)).astype(np.int32)
        cv2.polylines(image, [pts], True, colour, thick, cv2.LINE_AA)
        return int(pts[:, 1].min())
    r = int(DEFAULT_RADIUS_FRACTION * image.shape[1])
    c = (int(round(center[0])), int(round(center[1])))
    cv2.circle(image, c, r, colour, thick, cv2.LINE_AA)
    return c[1] - r


def annotate(frame_bgr: np.ndarray, reading: Reading, message: str | None = None,
             tray: Sequence[Point] = ()) -> np.ndarray:
    """A copy of the frame with the read drawn on it; `message` (a refusal) as a banner;
    `tray`: the calibrated tray's corners, drawn as a thin outline."""
    image = frame_bgr.copy()
    polygon = tray_polygon(tray)
    if len(polygon) >= 3:
        pts = np.round(np.array(polygon, dtype=np.float64)).astype(np.int32)
        cv2.polylines(image, [pts], True, TRAY_BGR, max(1, int(_scale(image))), cv2.LINE_AA)
    for i, die in enumerate(reading.dice):
        top = _outline(image, die.outline, die.center, DIE_BGR)
        _label(image, f"{i}: {die.value}", (int(die.center[0]) - 20, top - 6), DIE_BGR)
    for rej in reading.rejected:
        top = _outline(image, rej.outline, rej.center, REFUSED_BGR)
        _label(image, rej.why, (int(rej.center[0]) - 30, top - 6), REFUSED_BGR)
    if message:
        _label(image, message, (10, int(40 * _scale(image))), REFUSED_BGR)
    return image


def encode_jpeg(image_bgr: np.ndarray, quality: int = 85) -> bytes:
    ok, buf = cv2.imencode(".jpg", image_bgr, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("cannot encode the photo as JPEG")
    return buf.tobytes()
