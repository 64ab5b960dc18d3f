"""Table surfaces, the tray, shadows and the camera's photometric effects.

Textures are procedural (noise at a few scales, wood grain, a cloth weave) and
drawn from a generator seeded by the scene, so they are deterministic.
"""

from __future__ import annotations

import cv2
import numpy as np

from calibration.synth_draw import Camera
from calibration.synth_spec import FELT_BGR, SceneSpec, TraySpec

WOOD_LIGHT_BGR = (150, 196, 222)
WOOD_DARK_BGR = (104, 150, 188)
WHITE_BGR = (232, 234, 234)
CLOTH_BGR = ((150, 140, 120), (90, 110, 140), (120, 120, 122))
FELT_FIBRE_SIGMA = 3.0  # grey levels of fine fibre noise
LOW_FREQ_GAIN = 0.07  # uneven lighting and dye: +-7 %
VIGNETTE_GAIN = 0.18
CONTACT_SHADOW = 0.45  # darkening right under a die, where no light reaches
SHADOW_SOFTNESS_IN_DICE = 0.12
CHROMA_NOISE = 0.35  # colour noise relative to brightness noise


def _low_freq(rng: np.random.Generator, w: int, h: int, cells: int = 6) -> np.ndarray:
    """Smooth noise in [-1, 1] varying over a few cells across the frame."""
    small = rng.uniform(-1, 1, (cells, cells)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _fine(rng: np.random.Generator, w: int, h: int, sigma_px: float) -> np.ndarray:
    n = rng.normal(0, 1, (h, w)).astype(np.float32)
    return cv2.GaussianBlur(n, (0, 0), sigma_px) * (1.0 / max(0.25, sigma_px * 0.5))


def surface(kind: str, felt: str, w: int, h: int, rng: np.random.Generator) -> np.ndarray:
    """A (h, w, 3) float32 BGR texture of the named surface."""
    low = _low_freq(rng, w, h)[..., None]
    if kind == "felt":
        base = np.array(FELT_BGR[felt], np.float32)
        img = base * (1 + LOW_FREQ_GAIN * low) + FELT_FIBRE_SIGMA * _fine(rng, w, h, 0.7)[..., None]
    elif kind == "wood":
        yy, xx = np.mgrid[:h, :w].astype(np.float32)
        a = rng.uniform(0, np.pi)
        warp = _low_freq(rng, w, h, 4) * rng.uniform(15, 40)
        t = xx * np.cos(a) + yy * np.sin(a) + warp + 6 * _fine(rng, w, h, 3)
        period = rng.uniform(14, 30) * w / 1000
        grain = (0.5 + 0.5 * np.sin(2 * np.pi * t / period)) ** 3
        light, dark = np.array(WOOD_LIGHT_BGR, np.float32), np.array(WOOD_DARK_BGR, np.float32)
        img = light + (dark - light) * grain[..., None] + 20 * low
    elif kind == "printed":
        img = _printed(rng, w, h, low)
    elif kind == "white":
        img = np.array(WHITE_BGR, np.float32) * (1 + 0.04 * low) + 1.5 * _fine(rng, w, h, 1)[..., None]
    else:  # cloth: a fine weave
        yy, xx = np.mgrid[:h, :w].astype(np.float32)
        p = rng.uniform(3.0, 5.0) * w / 1000
        weave = np.sin(2 * np.pi * xx / p) * np.sin(2 * np.pi * yy / p)
        base = np.array(CLOTH_BGR[int(rng.integers(len(CLOTH_BGR)))], np.float32)
        img = base * (1 + 0.06 * low + 0.06 * weave[..., None]) + 3 * _fine(rng, w, h, 0.8)[..., None]
    return img.astype(np.float32)


def _printed(rng: np.random.Generator, w: int, h: int, low: np.ndarray) -> np.ndarray:
    """A tablecloth printed with a grid of small dark motifs (a few blots of
    ink each, about a third of a die wide), every other row offset: the
    detector's many weak peaks on such a cloth are no dice."""
    base = np.array(rng.choice([(214, 220, 222), (196, 214, 226), (220, 214, 206)]), np.float32)
    ink = np.array(rng.choice([(40, 40, 46), (60, 50, 120), (110, 60, 40)]), np.float32)
    step = rng.uniform(0.035, 0.05) * w
    r = step * rng.uniform(0.11, 0.15)
    blots = [(rng.uniform(-1.6, 1.6) * r, rng.uniform(-1.6, 1.6) * r, r * rng.uniform(0.5, 1.0))
             for _ in range(int(rng.integers(3, 6)))]
    mask = np.zeros((h, w), np.float32)
    for j, y in enumerate(np.arange(step / 2, h + step, step)):
        for x in np.arange(step / 2 + (j % 2) * step / 2, w + step, step):
            for dx, dy, br in blots:
                cv2.ellipse(mask, (int(round((x + dx) * 4)), int(round((y + dy) * 4))),
                            (int(br * 4), int(br * 2.4)), 30.0, 0, 360, 1.0, -1, cv2.LINE_AA, 2)
    mask = cv2.GaussianBlur(mask, (0, 0), 0.6)[..., None]
    img = base * (1 + 0.05 * low) + (ink - base) * mask
    return img + 2 * _fine(rng, w, h, 0.8)[..., None]


def draw_tray(img: np.ndarray, floor: np.ndarray, tray: TraySpec, camera: Camera,
              light: np.ndarray) -> None:
    """Paint walls and floor: `img` holds the table, `floor` the tray's floor texture."""
    c = tray.corners()
    centre = c.mean(axis=0)
    grow = 1 + tray.rim_px / (np.linalg.norm(c - centre, axis=1).mean())
    lift = np.concatenate([c, np.full((4, 1), tray.wall_px)], axis=1)
    outer = np.concatenate([centre + (c - centre) * grow, np.full((4, 1), tray.wall_px)], axis=1)
    top_in, top_out = camera.project(lift), camera.project(outer)
    wall = np.array(tray.wall_bgr, np.float32)
    base_in = camera.project(np.concatenate([centre + (c - centre) * grow, np.zeros((4, 1))], axis=1))
    _fill(img, base_in, wall * 0.6)  # outer wall, in shade
    _fill(img, top_out, (wall * 1.1).clip(0, 255))
    for i in range(4):
        j = (i + 1) % 4
        # Inner wall faces are lit according to their normal (pointing inwards).
        n = centre - (c[i] + c[j]) / 2
        n = np.array([*(n / np.linalg.norm(n)), 0.0])
        lam = 0.55 + 0.45 * max(0.0, float(np.dot(n, light)))
        quad = np.array([c[i], c[j], top_in[j], top_in[i]])
        _fill(img, quad, wall * lam)
    mask = _coverage(img.shape, c)
    # The walls shade the floor: lit where a ray to the light clears the rim.
    off = -tray.wall_px * light[:2] / max(light[2], 0.2)
    lit = _coverage(img.shape, c + off)
    lit = cv2.GaussianBlur(lit, (0, 0), tray.wall_px * 0.3 + 1)
    shaded = floor * (0.62 + 0.38 * lit)[..., None]
    img[:] = img * (1 - mask[..., None]) + shaded * mask[..., None]


def _i(pts: np.ndarray) -> np.ndarray:
    return np.round(np.asarray(pts) * 16).astype(np.int32).reshape(-1, 1, 2)


def _coverage(shape: tuple[int, ...], pts: np.ndarray) -> np.ndarray:
    """Anti-aliased polygon coverage in [0, 1] (OpenCV only smooths 8-bit fills)."""
    m = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(m, [_i(pts)], 255, cv2.LINE_AA, shift=4)
    return m.astype(np.float32) / 255


def _fill(img: np.ndarray, pts: np.ndarray, colour) -> None:
    a = _coverage(img.shape, pts)[..., None]
    img[:] = img * (1 - a) + np.asarray(colour, np.float32) * a


def _fill_subpixel(mask: np.ndarray, pts: np.ndarray, value: float) -> None:
    np.maximum(mask, _coverage(mask.shape, pts) * value, out=mask)


def cast_shadows(img: np.ndarray, shadows: list[np.ndarray], footprints: list[np.ndarray],
                 strength: float, die_px: float) -> None:
    """Darken the table under each die and where it blocks the light."""
    h, w = img.shape[:2]
    cast = np.zeros((h, w), np.float32)
    contact = np.zeros((h, w), np.float32)
    for pts in shadows:
        _fill_subpixel(cast, cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2), 1.0)
    for pts in footprints:
        _fill_subpixel(contact, cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2), 1.0)
    soft = max(1.0, SHADOW_SOFTNESS_IN_DICE * die_px)
    cast = cv2.GaussianBlur(cast, (0, 0), soft)
    contact = cv2.GaussianBlur(contact, (0, 0), soft * 0.5)
    dark = np.maximum(cast * strength, contact * CONTACT_SHADOW)
    img *= (1 - dark)[..., None]


def photometric(img: np.ndarray, spec: SceneSpec, rng: np.random.Generator) -> np.ndarray:
    """Light falloff, white balance, exposure, sensor noise, JPEG: float in, uint8 out."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[:h, :w].astype(np.float32)
    r2 = ((xx - w / 2) / w) ** 2 + ((yy - h / 2) / h) ** 2
    img = img * (1 - VIGNETTE_GAIN * r2 * 2)[..., None]
    img = img * np.array(spec.white_balance, np.float32) * spec.exposure
    if spec.noise_sigma > 0:
        # Phone and Pi pipelines denoise colour harder than brightness.
        luma = rng.normal(0, spec.noise_sigma, (h, w, 1)).astype(np.float32)
        chroma = rng.normal(0, spec.noise_sigma * CHROMA_NOISE, img.shape).astype(np.float32)
        img = img + luma + chroma
    out = np.clip(np.round(img), 0, 255).astype(np.uint8)
    if spec.jpeg_quality is not None:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, spec.jpeg_quality])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out
