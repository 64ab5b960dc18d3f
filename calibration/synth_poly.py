"""Numeral dice seen from above: d8 (triangle top face) and d10 / d10t (kite).

Both rest on a face, so the top face is parallel to the table: it is drawn as a
flat polygon lifted by perspective, framed by the slanted faces around it, with
the value printed by cv2.putText and turned with the die. 6 and 9 are
underlined, as on most real sets.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from calibration.synth_draw import (
    AMBIENT,
    DIFFUSE,
    EDGE_SHADE,
    PATCH_MARGIN_PX,
    SUPERSAMPLE,
    TRANSLUCENT_ALPHA,
    Camera,
    DieLayer,
    motion_kernel,
)
from calibration.synth_spec import STYLES, DieSpec

D8_HEIGHT = math.sqrt(2 / 3)  # between opposite faces, in edge lengths
D10_HEIGHT = 0.8  # a d10 lying down, in kite lengths
FONT = cv2.FONT_HERSHEY_SIMPLEX
TEXT_HEIGHT_IN_FACE = 0.32  # numeral height relative to the die size
KITE_WIDTH = 0.62  # kite width / kite length
SLOPE_Z = 0.55  # the slanted faces rise at about this normal z


def _top_and_base(die: DieSpec) -> tuple[np.ndarray, np.ndarray, float]:
    """Top face outline (n, 3), base outline (m, 3) in table pixels, and the height."""
    s = die.size_px
    a = math.radians(die.yaw_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    if die.kind == "d8":
        r = s / math.sqrt(3)  # circumradius of a face with edge s
        ang = np.radians([-90, 30, 150])
        top = np.stack([r * np.cos(ang), r * np.sin(ang)], 1)
        base = -top
        height = D8_HEIGHT * s
    else:  # d10, d10t: a kite on top, the body spreads around it
        top = np.array([[0, -0.55], [KITE_WIDTH / 2, -0.05], [0, 0.45], [-KITE_WIDTH / 2, -0.05]]) * s
        ang = np.radians(np.arange(0, 360, 36) + 18)
        base = np.stack([0.55 * s * np.cos(ang), 0.62 * s * np.sin(ang)], 1)
        height = D10_HEIGHT * s
    lift = die.base_z_px
    top3 = np.concatenate([top @ rot.T + die.xy, np.full((len(top), 1), lift + height)], 1)
    base3 = np.concatenate([base @ rot.T + die.xy, np.full((len(base), 1), lift)], 1)
    return top3, base3, height


def numeral(die: DieSpec) -> str:
    if die.kind == "d10t":
        return f"{die.value:02d}"
    return str(die.value)


def render_poly(die: DieSpec, camera: Camera, light: np.ndarray) -> DieLayer:
    style = STYLES[die.style]
    body = np.array(style.body_bgr, np.float32)
    ink = np.array(style.pip_bgr, np.float32)
    top3, base3, _ = _top_and_base(die)
    top, base = camera.project(top3), camera.project(base3)
    hull = cv2.convexHull(np.concatenate([top, base]).astype(np.float32)).reshape(-1, 2)
    margin = PATCH_MARGIN_PX + die.blur_px
    x0, y0 = np.floor(hull.min(0) - margin).astype(int)
    x1, y1 = np.ceil(hull.max(0) + margin).astype(int)
    w, h = (x1 - x0) * SUPERSAMPLE, (y1 - y0) * SUPERSAMPLE
    colour = np.zeros((h, w, 3), np.float32)
    alpha = np.zeros((h, w), np.float32)

    def to_patch(p):
        return np.round((np.asarray(p) - (x0, y0)) * SUPERSAMPLE).astype(np.int32).reshape(-1, 1, 2)

    cv2.fillPoly(colour, [to_patch(hull)], (body * EDGE_SHADE).tolist())
    cv2.fillPoly(alpha, [to_patch(hull)], TRANSLUCENT_ALPHA if style.translucent else 1.0)
    centre_top = top.mean(0)
    # Slanted faces: each top edge runs down to the base; shade by their outward tilt.
    for i in range(len(top)):
        p, q = top[i], top[(i + 1) % len(top)]
        mid = (p + q) / 2 - centre_top
        out = mid / (np.linalg.norm(mid) + 1e-9)
        n = np.array([out[0] * (1 - SLOPE_Z), out[1] * (1 - SLOPE_Z), SLOPE_Z])
        lam = AMBIENT + DIFFUSE * max(0.0, float(np.dot(n / np.linalg.norm(n), light)))
        far = base[np.argsort(-(base - centre_top) @ out)[:2]]
        quad = cv2.convexHull(np.concatenate([[p, q], far]).astype(np.float32)).reshape(-1, 2)
        cv2.fillPoly(colour, [to_patch(quad)], np.clip(body * lam, 0, 255).tolist())
    lam_top = AMBIENT + DIFFUSE * float(light[2])
    cv2.fillPoly(colour, [to_patch(top)], np.clip(body * lam_top, 0, 255).tolist())
    _print_numeral(colour, alpha, die, centre_top, to_patch, ink)
    premult = cv2.resize(colour * alpha[..., None], (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    alpha = cv2.resize(alpha, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    if die.blur_px > 0:
        k = motion_kernel(die.blur_px, die.blur_dir_deg)
        premult = cv2.filter2D(premult, -1, k, borderType=cv2.BORDER_CONSTANT)
        alpha = cv2.filter2D(alpha, -1, k, borderType=cv2.BORDER_CONSTANT)
    shadow = np.concatenate([base3[:, :2], top3[:, :2] - top3[:, 2:] * light[:2] / max(light[2], 0.2)])
    return DieLayer((int(x0), int(y0)), premult, alpha, (float(centre_top[0]), float(centre_top[1])),
                    hull, shadow)


def _hershey_mask(text: str, px: float) -> tuple[np.ndarray, tuple[int, int, int, int], int]:
    """The numeral's mask (square uint8), its box (x0, y0, x1, y1) and stroke width."""
    scale = px / 22.0  # Hershey simplex digits are about 22 px tall at scale 1
    thick = max(1, round(scale * 2.2))
    (tw, th), _ = cv2.getTextSize(text, FONT, scale, thick)
    side = int(max(tw, th) * 2 + 8)
    mask = np.zeros((side, side), np.uint8)
    org = ((side - tw) // 2, (side + th) // 2)
    cv2.putText(mask, text, org, FONT, scale, 255, thick, cv2.LINE_AA)
    return mask, (org[0], org[1] - th, org[0] + tw, org[1]), thick


def _truetype_mask(text: str, px: float, font_file: str) -> tuple[np.ndarray, tuple[int, int, int, int], int]:
    """As _hershey_mask, drawn with a TrueType font by Pillow (a rendering-only extra)."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(font_file, max(4, round(px / 0.72)))  # digits are ~0.72 em tall
    x0, y0, x1, y1 = font.getbbox(text)
    tw, th = x1 - x0, y1 - y0
    side = int(max(tw, th) * 2 + 8)
    img = Image.new("L", (side, side), 0)
    ox, oy = (side - tw) // 2 - x0, (side - th) // 2 - y0
    ImageDraw.Draw(img).text((ox, oy), text, fill=255, font=font)
    thick = max(1, round(px / 10))
    return np.asarray(img, np.uint8).copy(), ((side - tw) // 2, (side - th) // 2,
                                               (side + tw) // 2, (side + th) // 2), thick


def _print_numeral(colour, alpha, die, centre_xy, to_patch, ink) -> None:
    text = numeral(die)
    px = TEXT_HEIGHT_IN_FACE * die.size_px * SUPERSAMPLE * {"d8": 0.8, "d6": 1.5}.get(die.kind, 1.0)
    if die.font:
        mask, (bx0, by0, bx1, by1), thick = _truetype_mask(text, px, die.font)
    else:
        mask, (bx0, by0, bx1, by1), thick = _hershey_mask(text, px)
    side = mask.shape[0]
    if text in ("6", "9"):  # the underline (or a dot) tells 6 from 9 at any rotation
        if die.six_nine_mark == "dot":
            r = max(1, round(thick * 0.8))
            cv2.circle(mask, (bx1 + 2 * r, by1 - r), r, 255, -1, cv2.LINE_AA)
        else:
            y = by1 + thick * 2
            cv2.line(mask, (bx0, y), (bx1, y), 255, thick, cv2.LINE_AA)
    # The numeral's up points along the die's -y axis, turned with the die.
    m = cv2.getRotationMatrix2D((side / 2, side / 2), -die.yaw_deg, 1.0)
    mask = cv2.warpAffine(mask, m, (side, side)).astype(np.float32) / 255
    cx, cy = to_patch(centre_xy)[0, 0]
    ox, oy = cx - side // 2, cy - side // 2
    h, w = alpha.shape
    sx0, sy0, sx1, sy1 = max(0, -ox), max(0, -oy), min(side, w - ox), min(side, h - oy)
    if sx1 <= sx0 or sy1 <= sy0:
        return
    a = mask[sy0:sy1, sx0:sx1, None]
    region = colour[oy + sy0:oy + sy1, ox + sx0:ox + sx1]
    region[:] = region * (1 - a) + ink * a
