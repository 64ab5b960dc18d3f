"""Draw one d6 as a small 3D object seen by a pinhole camera straight above.

The die is a cube with rounded edges: every face is a rounded square in its own
(u, v) frame, mapped to 3D and projected. Perspective lifts the top face away
from the image centre, so the side facing the centre shows as a strip; a cocked
die shows two faces. Each die is drawn supersampled into its own patch (colour
premultiplied by alpha) so it can be motion-blurred alone and composited.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.synth_spec import STYLES, DieSpec

SUPERSAMPLE = 4  # anti-aliasing: draw at 4x, shrink with INTER_AREA
CORNER_RADIUS_UV = 0.3  # rounded corners, in half-edge units
FACE_INSET = 0.9  # the flat face ends where the rounded edge begins
ARC_POINTS = 6
CIRCLE_POINTS = 24
PIP_OFFSET_UV = 0.52  # pip centres at +-0.26 of the edge from the face centre
PIP_RADIUS_UV = 0.165
ONE_PIP_RADIUS_UV = 0.21  # the single pip is often larger
AMBIENT = 0.55
DIFFUSE = 0.48
EDGE_SHADE = 0.74  # rounded edges turn away from the light
TRANSLUCENT_ALPHA = 0.78  # how much felt shows through a casino die
TRANSLUCENT_EDGE_GAIN = 1.25  # light gathers in a translucent die's edges
GLARE_SIGMA_UV = 0.2
GLARE_GAIN = 0.92
PATCH_MARGIN_PX = 4

# Pip positions in units of PIP_OFFSET_UV; 2, 3 and 6 have an orientation that
# follows the face's u axis, so they turn with the die.
PIP_LAYOUT: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}

_X, _Y, _Z = np.eye(3)
# Local faces: (normal, u, v) with u x v = normal; values assigned per die.
_LOCAL_FACES = ((_Z, _X, _Y), (-_Z, _Y, _X), (_X, _Y, _Z), (-_X, _Z, _Y), (_Y, _Z, _X), (-_Y, _X, _Z))


@dataclass(frozen=True)
class Camera:
    """A pinhole straight above `center_xy`, `height_px` over the table."""

    center_xy: tuple[float, float]
    height_px: float

    def project(self, p3: np.ndarray) -> np.ndarray:
        c = np.asarray(self.center_xy)
        k = self.height_px / (self.height_px - p3[..., 2])
        return c + (p3[..., :2] - c) * k[..., None]

    @property
    def position(self) -> np.ndarray:
        return np.array([*self.center_xy, self.height_px])


@dataclass(frozen=True)
class Face:
    normal: np.ndarray
    centre: np.ndarray
    u: np.ndarray
    v: np.ndarray
    half: float
    value: int

    def points(self, uv: np.ndarray) -> np.ndarray:
        return self.centre + self.half * (uv[..., :1] * self.u + uv[..., 1:] * self.v)


@dataclass(frozen=True)
class DieLayer:
    """A drawn die: premultiplied colour and alpha placed at `origin_xy`."""

    origin_xy: tuple[int, int]
    premult: np.ndarray  # float32 (h, w, 3)
    alpha: np.ndarray  # float32 (h, w)
    center_xy: tuple[float, float]  # label centre: the top face's centre in the image
    silhouette: np.ndarray  # (n, 2) image points of the outline
    shadow: np.ndarray  # (n, 2) table points of the cast shadow


def rotation(die: DieSpec) -> np.ndarray:
    """Yaw about the vertical, then tilt the top towards `tilt_dir_deg`."""
    a = math.radians(die.yaw_deg)
    rz = np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])
    if die.tilt_deg == 0:
        return rz
    t, b = math.radians(die.tilt_deg), math.radians(die.tilt_dir_deg)
    k = np.array([-math.sin(b), math.cos(b), 0.0])  # z x d: turns z towards d
    kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    rt = np.eye(3) + math.sin(t) * kx + (1 - math.cos(t)) * kx @ kx
    return rt @ rz


def die_faces(die: DieSpec) -> list[Face]:
    """The six faces in table coordinates, the lowest point resting at `base_z_px`."""
    r = rotation(die)
    h = die.size_px / 2
    corners = np.array([[x, y, z] for x in (-h, h) for y in (-h, h) for z in (-h, h)]) @ r.T
    centre = np.array([*die.xy, die.base_z_px - corners[:, 2].min()])
    a, b = die.side_values
    values = (die.value, 7 - die.value, a, 7 - a, b, 7 - b)
    return [Face(r @ n, centre + h * (r @ n), r @ u, r @ v, h, val)
            for (n, u, v), val in zip(_LOCAL_FACES, values, strict=True)]


def rounded_square(extent: float, radius: float) -> np.ndarray:
    """Outline of a rounded square [-extent, extent]^2 in uv, (n, 2)."""
    pts = []
    for cx, cy, a0 in ((1, 1, 0), (-1, 1, 90), (-1, -1, 180), (1, -1, 270)):
        for i in range(ARC_POINTS):
            a = math.radians(a0 + 90 * i / (ARC_POINTS - 1))
            pts.append((cx * (extent - radius) + radius * math.cos(a),
                        cy * (extent - radius) + radius * math.sin(a)))
    return np.array(pts)


def circle(centre_uv: tuple[float, float], radius: float) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, CIRCLE_POINTS, endpoint=False)
    return np.stack([centre_uv[0] + radius * np.cos(a), centre_uv[1] + radius * np.sin(a)], axis=1)


def light_vector(azimuth_deg: float, elevation_deg: float) -> np.ndarray:
    az, el = math.radians(azimuth_deg), math.radians(elevation_deg)
    return np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])


def render_die(die: DieSpec, camera: Camera, light: np.ndarray) -> DieLayer:
    style = STYLES[die.style]
    body = np.array(style.body_bgr, np.float32)
    pip = np.array(style.pip_bgr, np.float32)
    faces = die_faces(die)
    outline = np.concatenate([camera.project(f.points(rounded_square(1.0, CORNER_RADIUS_UV)))
                              for f in faces])
    hull = cv2.convexHull(outline.astype(np.float32)).reshape(-1, 2)
    margin = PATCH_MARGIN_PX + die.blur_px
    x0, y0 = (np.floor(hull.min(axis=0) - margin)).astype(int)
    x1, y1 = (np.ceil(hull.max(axis=0) + margin)).astype(int)
    w, h = (x1 - x0) * SUPERSAMPLE, (y1 - y0) * SUPERSAMPLE
    colour = np.zeros((h, w, 3), np.float32)
    alpha = np.zeros((h, w), np.float32)

    def to_patch(p: np.ndarray) -> np.ndarray:
        return np.round((p - (x0, y0)) * SUPERSAMPLE).astype(np.int32).reshape(-1, 1, 2)

    body_alpha = TRANSLUCENT_ALPHA if style.translucent else 1.0
    edge = body * (TRANSLUCENT_EDGE_GAIN if style.translucent else EDGE_SHADE)
    cv2.fillPoly(colour, [to_patch(hull)], np.clip(edge, 0, 255).tolist(), cv2.LINE_AA)
    cv2.fillPoly(alpha, [to_patch(hull)], body_alpha, cv2.LINE_AA)
    visible = [f for f in faces if np.dot(f.normal, camera.position - f.centre) > 0]
    top = max(visible, key=lambda f: f.normal[2])
    for face in visible:
        lam = AMBIENT + DIFFUSE * max(0.0, float(np.dot(face.normal, light)))
        poly = to_patch(camera.project(face.points(rounded_square(FACE_INSET, CORNER_RADIUS_UV * 0.8))))
        cv2.fillPoly(colour, [poly], np.clip(body * lam, 0, 255).tolist(), cv2.LINE_AA)
        if not die.numerals:
            _draw_pips(colour, alpha, face, camera, to_patch, pip, lam, light)
        elif face is top and die.tilt_deg == 0:
            from calibration.synth_poly import _print_numeral  # (synth_poly draws on this module)
            _print_numeral(colour, alpha, die, camera.project(face.centre), to_patch,
                           np.clip(pip * (0.72 + 0.28 * lam), 0, 255))
    if die.glare_uv is not None:
        _add_glare(colour, top, die.glare_uv, camera, to_patch)
    premult = colour * alpha[..., None]
    size = (x1 - x0, y1 - y0)
    premult = cv2.resize(premult, size, interpolation=cv2.INTER_AREA)
    alpha = cv2.resize(alpha, size, interpolation=cv2.INTER_AREA)
    if die.blur_px > 0:
        kernel = motion_kernel(die.blur_px, die.blur_dir_deg)
        premult = cv2.filter2D(premult, -1, kernel, borderType=cv2.BORDER_CONSTANT)
        alpha = cv2.filter2D(alpha, -1, kernel, borderType=cv2.BORDER_CONSTANT)
    if die.tilt_deg == 0:
        centre = camera.project(top.centre)
    else:  # a cocked die has no top face: label the middle of the die
        centre = camera.project(np.mean([f.centre for f in faces], axis=0))
    return DieLayer((int(x0), int(y0)), premult, alpha, (float(centre[0]), float(centre[1])),
                    hull, _shadow_points(faces, light))


def _draw_pips(colour, alpha, face, camera, to_patch, pip, lam, light) -> None:
    if face.value not in PIP_LAYOUT:
        return
    # The pit's wall towards the light is in shadow: offset the inner disc away from it.
    lu, lv = float(np.dot(light, face.u)), float(np.dot(light, face.v))
    shade = pip * (0.72 + 0.28 * lam)
    inner = np.clip(shade + 28 if pip.mean() < 128 else shade * 1.06, 0, 255)
    outer = shade if pip.mean() < 128 else shade * 0.8
    radius = ONE_PIP_RADIUS_UV if face.value == 1 else PIP_RADIUS_UV
    for pu, pv in PIP_LAYOUT[face.value]:
        c = (pu * PIP_OFFSET_UV, pv * PIP_OFFSET_UV)
        poly = to_patch(camera.project(face.points(circle(c, radius))))
        cv2.fillPoly(colour, [poly], np.clip(outer, 0, 255).tolist(), cv2.LINE_AA)
        cv2.fillPoly(alpha, [poly], 1.0, cv2.LINE_AA)
        ci = (c[0] - 0.22 * radius * lu, c[1] - 0.22 * radius * lv)
        poly = to_patch(camera.project(face.points(circle(ci, radius * 0.7))))
        cv2.fillPoly(colour, [poly], inner.tolist(), cv2.LINE_AA)


def _add_glare(colour, top, glare_uv, camera, to_patch) -> None:
    mask = np.zeros(colour.shape[:2], np.float32)
    cv2.fillPoly(mask, [to_patch(camera.project(top.points(rounded_square(1.0, CORNER_RADIUS_UV))))],
                 1.0, cv2.LINE_AA)
    c = to_patch(camera.project(top.points(np.array(glare_uv))))[0, 0]
    sigma = GLARE_SIGMA_UV * top.half * SUPERSAMPLE
    yy, xx = np.mgrid[: mask.shape[0], : mask.shape[1]]
    g = GLARE_GAIN * np.exp(-((xx - c[0]) ** 2 + (yy - c[1]) ** 2) / (2 * sigma**2)) * mask
    colour += g[..., None] * (255 - colour)


def _shadow_points(faces: list[Face], light: np.ndarray) -> np.ndarray:
    corners = np.concatenate([f.points(rounded_square(1.0, CORNER_RADIUS_UV)) for f in faces])
    ground = corners[:, :2] - corners[:, 2:] * (light[:2] / max(light[2], 0.2))
    return np.concatenate([ground, corners[:, :2]])


def motion_kernel(length_px: float, direction_deg: float) -> np.ndarray:
    """A normalised line kernel: a die still moving during the exposure."""
    n = int(math.ceil(length_px)) | 1
    k = np.zeros((n, n), np.float32)
    c = n // 2
    dx, dy = math.cos(math.radians(direction_deg)), math.sin(math.radians(direction_deg))
    r = (length_px - 1) / 2
    cv2.line(k, (round(c - dx * r), round(c - dy * r)), (round(c + dx * r), round(c + dy * r)),
             1.0, 1, cv2.LINE_AA)
    return k / k.sum()


def composite(image: np.ndarray, layer: DieLayer) -> None:
    """Alpha-composite a drawn die into a float32 image in place (clipped to it)."""
    h, w = image.shape[:2]
    x0, y0 = layer.origin_xy
    ph, pw = layer.alpha.shape
    ix0, iy0, ix1, iy1 = max(x0, 0), max(y0, 0), min(x0 + pw, w), min(y0 + ph, h)
    if ix1 <= ix0 or iy1 <= iy0:
        return
    sl = (slice(iy0 - y0, iy1 - y0), slice(ix0 - x0, ix1 - x0))
    a = layer.alpha[sl][..., None]
    region = image[iy0:iy1, ix0:ix1]
    region[:] = region * (1 - a) + layer.premult[sl]
