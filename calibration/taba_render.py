"""Render labelled top-down images of tabas from the scanned bone (development tool).

A small software renderer (numpy + OpenCV), never a runtime dependency:

- camera: a pinhole straight above the tray at `camera_mm` (400-600 mm), so a
  taba off the image centre shows a little of its side, as on the station;
- rasteriser: every triangle of every taba is rasterised at `SUPERSAMPLE` x
  into one z-buffer (vectorised over triangles, bucketed by bounding-box size),
  with barycentric interpolation of position and normal; then shrunk with
  INTER_AREA;
- shading: Lambert + Blinn-Phong specular from one light, self-shadowing from
  a shadow map rendered along the light, ambient occlusion per vertex
  (precomputed once per model from 48 directions), a soft shadow and contact
  darkening on the felt;
- appearance: bone (ivory, cream, beige, brownish) with low-frequency mottling
  and darker hollows, or painted red/blue/green; every taba is the one scan
  stretched a little per axis (real sets differ);
- background: felt (green/blue/red/grey), wood, or a white tray; light
  falloff, sensor noise and JPEG are left to the caller (`finish_image`).

Everything random comes from one `numpy.random.Generator`, so a seed gives the
same bytes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from calibration.taba_model import FACES, Pose, TabaModel, fibonacci_sphere, load_model, load_poses

SUPERSAMPLE = 3
# BGR albedos, 0-1.
BONE_BGR = {
    "ivory": (0.80, 0.88, 0.92),
    "cream": (0.70, 0.82, 0.89),
    "beige": (0.62, 0.73, 0.82),
    "brownish": (0.50, 0.60, 0.71),
}
PAINT_BGR = {
    "red": (0.16, 0.16, 0.72),
    "blue": (0.66, 0.34, 0.12),
    "green": (0.22, 0.55, 0.16),
}
FELT_BGR = {
    "green": (40, 105, 22),
    "blue": (115, 60, 20),
    "red": (34, 32, 125),
    "grey": (128, 130, 128),
}
BACKGROUNDS = ("felt", "felt", "felt", "wood", "white")


# --- rasteriser -------------------------------------------------------------------------

@dataclass
class Raster:
    tri: np.ndarray  # (H, W) int32 triangle index, -1 = empty
    b: np.ndarray  # (H, W, 3) float32 barycentric weights
    depth: np.ndarray  # (H, W) float32, larger = nearer (NaN empty)


def rasterise(p2: np.ndarray, depth: np.ndarray, tris: np.ndarray, shape: tuple[int, int],
              cull: bool = False) -> Raster:
    """Z-buffer rasterisation of triangles with vertex pixel coords `p2` (x, y).

    Pixel (row i, col j) samples the point (j + 0.5, i + 0.5). Larger depth wins.
    With `cull`, triangles whose screen winding is clockwise (in a y-down image:
    facing away) are dropped.
    """
    h, w = shape
    a, b, c = p2[tris[:, 0]], p2[tris[:, 1]], p2[tris[:, 2]]
    area = (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0])
    keep = np.abs(area) > 1e-12
    if cull:
        keep &= area < 0
    idx = np.nonzero(keep)[0]
    lo = np.minimum(np.minimum(a, b), c)[idx]
    hi = np.maximum(np.maximum(a, b), c)[idx]
    x0 = np.ceil(lo[:, 0] - 0.5).astype(np.int64)
    x1 = np.floor(hi[:, 0] - 0.5).astype(np.int64)
    y0 = np.ceil(lo[:, 1] - 0.5).astype(np.int64)
    y1 = np.floor(hi[:, 1] - 0.5).astype(np.int64)
    x0c, y0c = np.maximum(x0, 0), np.maximum(y0, 0)
    x1c, y1c = np.minimum(x1, w - 1), np.minimum(y1, h - 1)
    ok = (x1c >= x0c) & (y1c >= y0c)
    idx, x0c, y0c, x1c, y1c = idx[ok], x0c[ok], y0c[ok], x1c[ok], y1c[ok]
    span = np.maximum(x1c - x0c, y1c - y0c) + 1
    pix_all, z_all, t_all, b_all = [], [], [], []
    bounds = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 4096]
    prev = 0
    for k in bounds:
        sel = (span > prev) & (span <= k)
        prev = k
        if not sel.any():
            continue
        ti = idx[sel]
        oy, ox = np.mgrid[0:k, 0:k]
        px = x0c[sel][:, None] + ox.ravel()[None, :]
        py = y0c[sel][:, None] + oy.ravel()[None, :]
        inb = (px <= x1c[sel][:, None]) & (py <= y1c[sel][:, None])
        tt = np.broadcast_to(ti[:, None], px.shape)[inb]
        px, py = px[inb], py[inb]
        qx, qy = px + 0.5, py + 0.5
        A, B, C = a[tt], b[tt], c[tt]
        ar = area[tt]
        w0 = ((B[:, 0] - qx) * (C[:, 1] - qy) - (B[:, 1] - qy) * (C[:, 0] - qx)) / ar
        w1 = ((C[:, 0] - qx) * (A[:, 1] - qy) - (C[:, 1] - qy) * (A[:, 0] - qx)) / ar
        w2 = 1.0 - w0 - w1
        inside = (w0 >= -1e-9) & (w1 >= -1e-9) & (w2 >= -1e-9)
        if not inside.any():
            continue
        tt, px, py = tt[inside], px[inside], py[inside]
        wb = np.stack([w0[inside], w1[inside], w2[inside]], 1)
        z = (wb * depth[tris[tt]]).sum(1)
        pix_all.append(py * w + px)
        z_all.append(z)
        t_all.append(tt)
        b_all.append(wb)
    tri_img = np.full(h * w, -1, np.int32)
    b_img = np.zeros((h * w, 3), np.float32)
    d_img = np.full(h * w, np.nan, np.float32)
    if pix_all:
        pix = np.concatenate(pix_all)
        z = np.concatenate(z_all)
        tt = np.concatenate(t_all)
        wb = np.concatenate(b_all)
        order = np.lexsort((z, pix))
        pix, z, tt, wb = pix[order], z[order], tt[order], wb[order]
        last = np.ones(len(pix), bool)
        last[:-1] = pix[1:] != pix[:-1]
        tri_img[pix[last]] = tt[last]
        b_img[pix[last]] = wb[last]
        d_img[pix[last]] = z[last]
    return Raster(tri_img.reshape(h, w), b_img.reshape(h, w, 3), d_img.reshape(h, w))


# --- per-model precomputation ------------------------------------------------------------

@lru_cache(maxsize=2)
def vertex_occlusion(model: TabaModel, n_dirs: int = 48, cell: float = 0.3) -> np.ndarray:
    """Per-vertex ambient visibility (0-1) from orthographic depth maps in `n_dirs` directions."""
    v, n = model.verts, model.normals
    dirs = fibonacci_sphere(n_dirs)
    acc = np.zeros(len(v))
    wsum = np.zeros(len(v))
    for d in dirs:
        t = np.array([1.0, 0, 0]) if abs(d[0]) < 0.9 else np.array([0, 1.0, 0])
        u = np.cross(d, t)
        u /= np.linalg.norm(u)
        w = np.cross(d, u)
        x, y, z = v @ u, v @ w, v @ d
        ix = ((x - x.min()) / cell).astype(int)
        iy = ((y - y.min()) / cell).astype(int)
        top = np.full((iy.max() + 2, ix.max() + 2), -np.inf)
        np.maximum.at(top, (iy, ix), z)
        # a little blur of the occluder map so a vertex is not hidden by its own neighbours
        top = cv2.dilate(top.astype(np.float32), np.ones((3, 3), np.uint8))
        vis = z >= top[iy, ix] - 0.6
        cosw = np.clip(n @ d, 0, None)
        acc += cosw * vis
        wsum += cosw
    return np.clip(acc / np.maximum(wsum, 1e-9), 0, 1)


# --- tabas in a scene ----------------------------------------------------------------------

@dataclass
class TabaPlacement:
    """One taba in a scene: its pose and where it lies (mm on the felt, camera at origin)."""

    face: str  # liso/carnero/tripas/hoyo, or "end"
    pose: Pose
    x: float
    y: float
    yaw: float  # radians about the vertical
    tilt_axis: float = 0.0  # radians: horizontal axis of the small tilt
    tilt: float = 0.0  # radians
    stretch: tuple[float, float, float] = (1.0, 1.0, 1.0)  # per principal axis
    albedo: tuple[float, float, float] = BONE_BGR["ivory"]
    colour: str = "bone"
    why: str = ""  # "" = readable; else the reason it must be refused
    extra_rotation: np.ndarray | None = None  # applied after the pose (e.g. cocked lean)
    seed: int = 0
    z_offset: float = 0.0
    world: np.ndarray = field(default=None, repr=False)  # type: ignore[assignment]
    normals: np.ndarray = field(default=None, repr=False)  # type: ignore[assignment]


def _rot_z(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])


def _rot_axis(axis: np.ndarray, ang: float) -> np.ndarray:
    axis = axis / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + math.sin(ang) * k + (1 - math.cos(ang)) * k @ k


def place(model: TabaModel, t: TabaPlacement) -> TabaPlacement:
    """Fill `t.world` / `t.normals`: body -> stretched -> posed -> tilted -> yawed -> moved, resting on z=0."""
    S = model.axes @ np.diag(t.stretch) @ model.axes.T
    v = model.verts @ S.T
    n = model.normals @ np.linalg.inv(S)  # normals transform by the inverse transpose
    R = t.pose.rotation
    if t.extra_rotation is not None:
        R = t.extra_rotation @ R
    if t.tilt:
        R = _rot_axis(np.array([math.cos(t.tilt_axis), math.sin(t.tilt_axis), 0.0]), t.tilt) @ R
    R = _rot_z(t.yaw) @ R
    w = v @ R.T
    w[:, 2] -= w[:, 2].min()
    w[:, 2] += t.z_offset
    w[:, 0] += t.x
    w[:, 1] += t.y
    nn = n @ R.T
    t.world = w
    t.normals = nn / np.linalg.norm(nn, axis=1, keepdims=True)
    return t


@dataclass
class Camera:
    width: int
    height: int
    camera_mm: float  # height of the pinhole above the felt
    px_per_mm: float  # at the felt

    @property
    def f(self) -> float:
        return self.px_per_mm * self.camera_mm

    def project(self, w: np.ndarray, ss: int = 1, origin: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
        """World mm (camera above the image centre) -> pixel coords (x right, y down)."""
        s = self.f / (self.camera_mm - w[:, 2])
        x = self.width / 2 + w[:, 0] * s
        y = self.height / 2 - w[:, 1] * s
        return np.stack([(x - origin[0]) * ss, (y - origin[1]) * ss], 1)

    def unproject_felt(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return (x - self.width / 2) / self.px_per_mm, -(y - self.height / 2) / self.px_per_mm


@dataclass
class Light:
    direction: np.ndarray  # unit, pointing from the scene towards the light
    ambient: float = 0.35
    diffuse: float = 0.75
    specular: float = 0.15
    shininess: float = 18.0
    shadow_strength: float = 0.45
    shadow_blur_mm: float = 1.2


def random_light(rng: np.random.Generator) -> Light:
    el = math.radians(rng.uniform(50, 85))
    az = rng.uniform(0, 2 * math.pi)
    d = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])
    return Light(
        direction=d,
        ambient=rng.uniform(0.28, 0.42),
        diffuse=rng.uniform(0.65, 0.85),
        specular=rng.uniform(0.05, 0.25),
        shininess=rng.uniform(10, 30),
        shadow_strength=rng.uniform(0.3, 0.55),
        shadow_blur_mm=rng.uniform(0.6, 2.0),
    )


# --- backgrounds ------------------------------------------------------------------------------

def _smooth_noise(rng: np.random.Generator, h: int, w: int, scale: float) -> np.ndarray:
    """Zero-mean, unit-ish noise with features about `scale` px wide."""
    sh, sw = max(2, int(h / scale) + 2), max(2, int(w / scale) + 2)
    small = rng.standard_normal((sh, sw)).astype(np.float32)
    big = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    return big / (big.std() + 1e-6)


def make_background(rng: np.random.Generator, w: int, h: int, kind: str | None = None) -> tuple[np.ndarray, str]:
    """A float32 BGR (0-255) background: felt, wood or a white tray."""
    kind = kind or str(rng.choice(BACKGROUNDS))
    if kind == "felt":
        name = str(rng.choice(list(FELT_BGR)))
        base = np.array(FELT_BGR[name], np.float32) * rng.uniform(0.8, 1.2)
        img = np.empty((h, w, 3), np.float32)
        img[:] = base
        fine = rng.standard_normal((h, w)).astype(np.float32)
        fine = cv2.GaussianBlur(fine, (0, 0), 0.8)
        blot = _smooth_noise(rng, h, w, 60)
        fibre = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), 2.0)
        fibre /= fibre.std() + 1e-6
        img *= (1 + 0.05 * fine[..., None] + 0.04 * fibre[..., None] + 0.015 * blot[..., None])
        label = f"felt-{name}"
    elif kind == "wood":
        base = np.array([60, 110, 160], np.float32) * rng.uniform(0.75, 1.15)
        dark = base * 0.7
        ang = rng.uniform(-0.3, 0.3)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        u = yy * math.cos(ang) + xx * math.sin(ang)
        warp = _smooth_noise(rng, h, w, 120) * 12
        freq = rng.uniform(0.08, 0.2)
        grain = 0.5 + 0.5 * np.sin(freq * (u + warp) + 3 * _smooth_noise(rng, h, w, 300))
        grain = grain**3
        img = base * (1 - grain[..., None]) + dark * grain[..., None]
        img *= 1 + 0.04 * rng.standard_normal((h, w, 1)).astype(np.float32)
        label = "wood"
    else:
        base = np.array([226, 230, 232], np.float32) * rng.uniform(0.85, 1.0)
        img = np.empty((h, w, 3), np.float32)
        img[:] = base
        img *= 1 + 0.015 * _smooth_noise(rng, h, w, 200)[..., None]
        label = "white"
    # uneven light: a gentle gradient and vignette
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(-0.12, 0.12, 2)
    grad = 1 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5)
    r2 = ((xx / w - 0.5) ** 2 + (yy / h - 0.5) ** 2) * 2
    img *= (grad * (1 - rng.uniform(0.05, 0.2) * r2))[..., None]
    return img, label


# --- appearance -------------------------------------------------------------------------------

def random_appearance(rng: np.random.Generator) -> tuple[tuple[float, float, float], str]:
    if rng.random() < 0.2:
        name = str(rng.choice(list(PAINT_BGR)))
        alb = np.array(PAINT_BGR[name]) * rng.uniform(0.85, 1.15)
        return tuple(np.clip(alb, 0, 1)), name
    name = str(rng.choice(list(BONE_BGR)))
    alb = np.array(BONE_BGR[name]) * rng.uniform(0.92, 1.06) + rng.uniform(-0.03, 0.03, 3)
    return tuple(np.clip(alb, 0, 1)), "bone"


def _vertex_albedo(model: TabaModel, t: TabaPlacement) -> np.ndarray:
    """Per-vertex albedo: the base colour, mottled, darker in hollows (dirt, patina)."""
    rng = np.random.default_rng(t.seed)
    v = model.verts
    mott = np.zeros(len(v))
    for _ in range(6):
        k = rng.standard_normal(3) * rng.uniform(0.15, 0.6)
        mott += np.sin(v @ k + rng.uniform(0, 2 * math.pi))
    mott /= 6**0.5
    ao = vertex_occlusion(model)
    base = np.array(t.albedo)[None, :]
    painted = t.colour != "bone"
    m = 1 + (0.04 if painted else 0.08) * mott
    dirt = 1 - (0.15 if painted else 0.35) * (1 - ao) ** 1.5
    alb = base * (m * dirt)[:, None]
    if not painted:
        # yellow-brown patina in the hollows
        alb[:, 0] *= 1 - 0.15 * (1 - ao)
    return np.clip(alb, 0, 1)


# --- scene rendering -------------------------------------------------------------------------

@dataclass
class RenderResult:
    image: np.ndarray  # float32 BGR 0-255
    masks: list[np.ndarray]  # per taba: bool (H, W) visible pixels (>50 % coverage)
    full_area: list[float]  # per taba: projected area (px) if it were alone (for occlusion)


def _shadow_map(worlds: list[np.ndarray], tris: np.ndarray, L: np.ndarray, res: float = 0.2):
    t = np.array([1.0, 0, 0]) if abs(L[0]) < 0.9 else np.array([0, 1.0, 0])
    u = np.cross(L, t)
    u /= np.linalg.norm(u)
    v = np.cross(L, u)
    allw = np.concatenate(worlds)
    pu, pv = allw @ u, allw @ v
    u0, v0 = pu.min() - 1, pv.min() - 1
    W = int((pu.max() - u0) / res) + 3
    H = int((pv.max() - v0) / res) + 3
    p2 = np.stack([(pu - u0) / res, (pv - v0) / res], 1)
    n = len(worlds[0])
    all_tris = np.concatenate([tris + k * n for k in range(len(worlds))])
    r = rasterise(p2, allw @ L, all_tris, (H, W))
    depth = np.nan_to_num(r.depth, nan=-1e9)

    def lit(points: np.ndarray, bias: float = 0.35) -> np.ndarray:
        qx = (points @ u - u0) / res - 0.5
        qy = (points @ v - v0) / res - 0.5
        d = points @ L
        out = np.zeros(len(points))
        cnt = 0
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                ix = np.clip(np.round(qx + dx).astype(int), 0, W - 1)
                iy = np.clip(np.round(qy + dy).astype(int), 0, H - 1)
                out += d >= depth[iy, ix] - bias
                cnt += 1
        return out / cnt

    return lit


def _box(t: TabaPlacement, cam: Camera, L: np.ndarray, margin: int) -> tuple[int, int, int, int]:
    """Pixel box of a taba and its shadow, with a margin (x0, y0, x1, y1), clipped to the image."""
    w = t.world
    sh = w.copy()
    sh[:, 0] -= w[:, 2] * L[0] / L[2]
    sh[:, 1] -= w[:, 2] * L[1] / L[2]
    sh[:, 2] = 0
    p = np.concatenate([cam.project(w), cam.project(sh)])
    return (max(0, int(p[:, 0].min()) - margin), max(0, int(p[:, 1].min()) - margin),
            min(cam.width, int(p[:, 0].max()) + margin + 1), min(cam.height, int(p[:, 1].max()) + margin + 1))


def render_scene(model: TabaModel, tabas: list[TabaPlacement], cam: Camera, light: Light,
                 background: np.ndarray, ss: int = SUPERSAMPLE) -> RenderResult:
    """Draw placed tabas (with `world` filled) onto a copy of `background`.

    Tabas whose boxes (with shadows) overlap are drawn together in one z-buffer;
    separate groups are drawn one crop at a time.
    """
    img = background.copy()
    H, W = cam.height, cam.width
    masks = [np.zeros((H, W), bool) for _ in tabas]
    full_area = [0.0 for _ in tabas]
    if not tabas:
        return RenderResult(img, masks, full_area)
    L = light.direction / np.linalg.norm(light.direction)
    margin = int(4 * light.shadow_blur_mm * cam.px_per_mm) + 6
    groups = [([k], _box(t, cam, L, margin)) for k, t in enumerate(tabas)]
    merged = True
    while merged:
        merged = False
        for i in range(len(groups)):
            for j in range(i + 1, len(groups)):
                a, b = groups[i][1], groups[j][1]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    box = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    groups[i] = (groups[i][0] + groups[j][0], box)
                    del groups[j]
                    merged = True
                    break
            if merged:
                break
    for members, box in groups:
        sub = [tabas[k] for k in members]
        sub_masks = _render_group(model, sub, cam, light, img, box, L, ss)
        for k, m in zip(members, sub_masks, strict=True):
            masks[k] = m
            pk = cam.project(tabas[k].world)
            full_area[k] = float(cv2.contourArea(cv2.convexHull(pk.astype(np.float32))))
    return RenderResult(img, masks, full_area)


def _render_group(model: TabaModel, tabas: list[TabaPlacement], cam: Camera, light: Light,
                  img: np.ndarray, box: tuple[int, int, int, int], L: np.ndarray, ss: int) -> list[np.ndarray]:
    """Draw a group of tabas into `img` (in place) within `box`; their visible masks."""
    H, W = cam.height, cam.width
    masks = [np.zeros((H, W), bool) for _ in tabas]
    x0, y0, x1, y1 = box
    cw, ch = x1 - x0, y1 - y0
    if cw <= 0 or ch <= 0:
        return masks
    shape = (ch * ss, cw * ss)
    tris = model.tris
    n = len(model.verts)
    allw = np.concatenate([t.world for t in tabas])
    alln = np.concatenate([t.normals for t in tabas])
    alb = np.concatenate([_vertex_albedo(model, t) for t in tabas])
    p2 = cam.project(allw, ss, (x0, y0))
    all_tris = np.concatenate([tris + k * n for k in range(len(tabas))])
    r = rasterise(p2, allw[:, 2], all_tris, shape, cull=True)
    hit = r.tri >= 0
    ti = r.tri[hit]
    bw = r.b[hit].astype(np.float64)
    corners = all_tris[ti]
    P = (bw[:, :, None] * allw[corners]).sum(1)
    N = (bw[:, :, None] * alln[corners]).sum(1)
    N /= np.maximum(np.linalg.norm(N, axis=1, keepdims=True), 1e-9)
    A = (bw[:, :, None] * alb[corners]).sum(1)
    ao = np.concatenate([vertex_occlusion(model)] * len(tabas))
    AO = (bw * ao[corners]).sum(1)
    lit = _shadow_map([t.world for t in tabas], tris, L)
    S = lit(P)
    # light falloff on the bone: the same as the felt around it
    ndl = np.clip(N @ L, 0, None)
    view = np.array([0, 0, 1.0])
    Hh = (L + view) / np.linalg.norm(L + view)
    spec = np.clip(N @ Hh, 0, None) ** light.shininess
    shade = light.ambient * (0.45 + 0.55 * AO) + light.diffuse * ndl * (0.25 + 0.75 * S)
    col = A * shade[:, None] * 255 * 1.1 + (light.specular * spec * S * 255)[:, None]
    # Felt shadow: project every taba along the light onto z=0 and rasterise.
    sh_w = allw.copy()
    sh_w[:, 0] -= allw[:, 2] * L[0] / L[2]
    sh_w[:, 1] -= allw[:, 2] * L[1] / L[2]
    sh_w[:, 2] = 0
    rs = rasterise(cam.project(sh_w, 1, (x0, y0)), np.zeros(len(sh_w)), all_tris, (ch, cw))
    shadow = (rs.tri >= 0).astype(np.float32)
    sig = max(0.5, light.shadow_blur_mm * cam.px_per_mm)
    shadow = cv2.GaussianBlur(shadow, (0, 0), sig)
    # contact darkening (ambient occlusion of the felt near the bone)
    foot = np.zeros((ch * ss, cw * ss), np.float32)
    foot[hit] = 1.0
    foot = cv2.resize(foot, (cw, ch), interpolation=cv2.INTER_AREA)
    contact = cv2.GaussianBlur(foot, (0, 0), max(1.0, 1.5 * cam.px_per_mm))
    crop = img[y0:y1, x0:x1]
    crop *= (1 - light.shadow_strength * shadow - 0.25 * np.clip(contact, 0, 1))[..., None]
    # Compose the bone at supersampled resolution, then shrink.
    big = cv2.resize(crop, (cw * ss, ch * ss), interpolation=cv2.INTER_NEAREST)
    big[hit] = col.astype(np.float32)
    img[y0:y1, x0:x1] = cv2.resize(big, (cw, ch), interpolation=cv2.INTER_AREA)
    owner = np.full(shape, -1, np.int32)
    owner[hit] = ti // len(tris)
    for k in range(len(tabas)):
        m = cv2.resize((owner == k).astype(np.float32), (cw, ch), interpolation=cv2.INTER_AREA)
        masks[k][y0:y1, x0:x1] = m > 0.5
    return masks


def finish_image(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Sensor noise, a slight blur, white balance and exposure jitter: uint8 BGR."""
    out = img * rng.uniform(0.9, 1.1) * rng.uniform(0.96, 1.04, 3)[None, None, :]
    out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 0.8))
    out = out + rng.standard_normal(out.shape).astype(np.float32) * rng.uniform(0.8, 2.2)
    return np.clip(out, 0, 255).astype(np.uint8)


def label_centre(mask: np.ndarray) -> tuple[int, int] | None:
    """A point on the visible taba near its centroid (x, y), or None if not visible."""
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return None
    cx, cy = xs.mean(), ys.mean()
    dist = cv2.distanceTransform(mask.astype(np.uint8), cv2.DIST_L2, 3)
    ix, iy = int(round(cx)), int(round(cy))
    if 0 <= iy < mask.shape[0] and 0 <= ix < mask.shape[1] and dist[iy, ix] >= min(3.0, dist.max() * 0.5):
        return ix, iy
    ok = dist >= min(3.0, dist.max() * 0.5)
    oy, ox = np.nonzero(ok)
    k = int(np.argmin((ox - cx) ** 2 + (oy - cy) ** 2))
    return int(ox[k]), int(oy[k])


# --- pose views for checking the face names by eye ------------------------------------------

def render_pose_views(model: TabaModel, poses: dict[str, Pose], out: Path) -> list[Path]:
    """One large shaded top view per pose, plus a contact sheet (`poses.png`)."""
    out.mkdir(parents=True, exist_ok=True)
    cam = Camera(420, 360, 500.0, 9.0)
    light = Light(direction=np.array([-0.35, 0.45, 0.82]) / np.linalg.norm([-0.35, 0.45, 0.82]))
    tiles = []
    paths = []
    rng = np.random.default_rng(0)
    bg, _ = make_background(rng, cam.width, cam.height, "felt")
    bg[:] = (60, 95, 50)
    for key, pose in poses.items():
        t = place(model, TabaPlacement(face=pose.name, pose=pose, x=0, y=0, yaw=0.0,
                                       albedo=BONE_BGR["cream"], seed=1))
        res = render_scene(model, [t], cam, light, bg)
        tile = np.clip(res.image, 0, 255).astype(np.uint8)
        cv2.putText(tile, f"{key} ({pose.start_axis} down)", (8, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.6,
                    (255, 255, 255), 1, cv2.LINE_AA)
        p = out / f"pose_{key}.png"
        cv2.imwrite(str(p), tile)
        paths.append(p)
        tiles.append(tile)
    while len(tiles) % 3:
        tiles.append(np.zeros_like(tiles[0]))
    rows = [np.hstack(tiles[i : i + 3]) for i in range(0, len(tiles), 3)]
    sheet = out / "poses.png"
    cv2.imwrite(str(sheet), np.vstack(rows))
    paths.append(sheet)
    return paths


__all__ = [
    "FACES",
    "Camera",
    "Light",
    "TabaPlacement",
    "finish_image",
    "label_centre",
    "load_model",
    "load_poses",
    "make_background",
    "place",
    "random_appearance",
    "random_light",
    "render_pose_views",
    "render_scene",
]


# --- random scenes ------------------------------------------------------------------------------

# Face frequencies for data sets: the bone's own order (wide faces commonest),
# but with the narrow faces well represented for training and testing.
FACE_WEIGHTS = {"tripas": 0.31, "hoyo": 0.31, "liso": 0.19, "carnero": 0.19}
P_END = 0.06  # a taba standing on an end
P_COCKED = 0.08  # a taba leaning on another (needs one to lean on)
P_TOUCH = 0.3  # a taba lying against another


@dataclass
class Scene:
    image: np.ndarray  # uint8 BGR, before JPEG
    labels: dict  # FORMATS.md section 1
    info: dict  # background, light, scale: for debugging


def _cells(world: np.ndarray, cell: float, top: bool) -> tuple[np.ndarray, np.ndarray]:
    """Sorted cell keys of a point cloud (every 3rd vertex) and the top (or bottom) height per cell."""
    w = world[::3]
    key = np.floor(w[:, 0] / cell).astype(np.int64) * 1_000_003 + np.floor(w[:, 1] / cell).astype(np.int64)
    z = w[:, 2] if top else -w[:, 2]
    order = np.lexsort((z, key))
    key, z = key[order], z[order]
    last = np.ones(len(key), bool)
    last[:-1] = key[1:] != key[:-1]
    return key[last], (z[last] if top else -z[last])


def _penetration(lower: np.ndarray, upper: np.ndarray, cell: float = 0.8) -> float:
    """How far `upper`'s underside dips into `lower`'s top where they overlap (-inf: no overlap)."""
    kt, zt = _cells(lower, cell, top=True)
    kb, zb = _cells(upper, cell, top=False)
    _, it, ib = np.intersect1d(kt, kb, assume_unique=True, return_indices=True)
    if len(it) == 0:
        return -math.inf
    return float(np.max(zt[it] - zb[ib]))


def _overlap(a: np.ndarray, b: np.ndarray, cell: float = 0.8) -> bool:
    return len(np.intersect1d(_cells(a, cell, True)[0], _cells(b, cell, True)[0], assume_unique=True)) > 0


def _moved(world: np.ndarray, dx: float, dy: float) -> np.ndarray:
    w = world.copy()
    w[:, 0] += dx
    w[:, 1] += dy
    return w


def _slide_to_contact(fixed: np.ndarray, moving: np.ndarray, u: np.ndarray, lean: bool) -> float:
    """Distance to move `moving` along +u (towards `fixed`) until it touches (or leans on) it.

    `moving` starts far away on the -u side; with `lean`, contact means its
    underside meets `fixed`'s top, else that the outlines touch.
    """
    lo, hi = 0.0, 80.0  # hi: well into overlap
    for _ in range(22):
        mid = 0.5 * (lo + hi)
        w = _moved(moving, u[0] * mid, u[1] * mid)
        hit = _penetration(fixed, w) > 0 if lean else _overlap(fixed, w)
        if hit:
            hi = mid
        else:
            lo = mid
    return lo


def random_scene(rng: np.random.Generator, width: int, height: int, n_tabas: int,
                 length_px: tuple[float, float] = (60.0, 110.0), model: TabaModel | None = None,
                 poses: dict[str, Pose] | None = None, force: dict | None = None,
                 p_end: float = P_END, p_cocked: float = P_COCKED) -> Scene:
    """A random tray with `n_tabas` tabas, rendered and labelled.

    `p_end`, `p_cocked`: the chance that a taba stands on an end, leans on another.

    `force` (optional, for fixtures): {"faces": [...], "end": k, "cocked": k, "touch": bool}
    pins down faces (None = random), which taba stands on an end, which one leans.
    """
    model = model or load_model()
    poses = poses or load_poses()
    force = force or {}
    cam_mm = rng.uniform(400, 600)
    length = rng.uniform(*length_px)
    cam = Camera(width, height, cam_mm, length / model.extent[0])
    light = random_light(rng)
    bg, bg_label = make_background(rng, width, height)
    set_alb, set_colour = random_appearance(rng)
    while bg_label == f"felt-{set_colour}":  # a painted set is not the felt's colour
        set_alb, set_colour = random_appearance(rng)
    same_set = rng.random() < 0.7
    faces = list(FACE_WEIGHTS)
    weights = np.array([FACE_WEIGHTS[f] for f in faces])
    half_w = width / 2 / cam.px_per_mm
    half_h = height / 2 / cam.px_per_mm
    reach = 0.62 * model.extent[0]  # mm from a taba's centre to its farthest point, about
    placed: list[TabaPlacement] = []
    forced_faces = force.get("faces") or []
    for i in range(n_tabas):
        face = forced_faces[i] if i < len(forced_faces) and forced_faces[i] else str(rng.choice(faces, p=weights / weights.sum()))
        if "end" in force or "cocked" in force:
            mode = "end" if force.get("end") == i else "cocked" if force.get("cocked") == i and placed else "flat"
        else:
            r = rng.random()
            can_lean = any(not o.why for o in placed)
            mode = "end" if r < p_end else "cocked" if can_lean and r < p_end + p_cocked else "flat"
        alb, colour = set_alb, set_colour
        if not same_set:
            alb, colour = random_appearance(rng)
            if bg_label == f"felt-{colour}":
                alb, colour = set_alb, set_colour
        stretch = tuple(rng.uniform(0.93, 1.07, 3))
        t = TabaPlacement(face=face, pose=poses[face], x=0.0, y=0.0, yaw=rng.uniform(0, 2 * math.pi),
                          tilt_axis=rng.uniform(0, 2 * math.pi), tilt=math.radians(rng.uniform(0, 4)),
                          stretch=stretch, albedo=alb, colour=colour, seed=int(rng.integers(1 << 30)))
        if mode == "end":
            t.pose = poses[str(rng.choice(["end+", "end-"]))]
            t.face = "end"
            t.why = "on end"
            t.tilt = math.radians(rng.uniform(0, 6))
        touch = force.get("touch", rng.random() < P_TOUCH) if mode != "cocked" else True
        ok = False
        for _attempt in range(40):
            if mode == "cocked" or (touch and placed):
                bases = [o for o in placed if not o.why] or placed
                base = bases[int(rng.integers(len(bases)))]
                ang = rng.uniform(0, 2 * math.pi)
                u = np.array([math.cos(ang), math.sin(ang)])
                if mode == "cocked":
                    t.why = "cocked"
                    t.yaw = ang + (math.pi if rng.random() < 0.5 else 0.0)
                    t.tilt_axis = ang + math.pi / 2
                    sign = 1.0 if abs(((t.yaw - ang + math.pi) % (2 * math.pi)) - math.pi) < 1 else -1.0
                    t.tilt = -sign * math.radians(rng.uniform(18, 32))
                start = np.array([base.x, base.y]) - u * 3 * reach
                t.x, t.y = float(start[0]), float(start[1])
                place(model, t)
                d = _slide_to_contact(base.world, t.world, u, lean=mode == "cocked")
                t.x += float(u[0] * d)
                t.y += float(u[1] * d)
            else:
                t.x = rng.uniform(-half_w + reach, half_w - reach)
                t.y = rng.uniform(-half_h + reach, half_h - reach)
            place(model, t)
            inside = (np.abs(t.world[:, 0]).max() < half_w * 0.97) and (np.abs(t.world[:, 1]).max() < half_h * 0.97)
            clear = all(not _overlap(o.world, t.world) or (mode == "cocked" and o is base) for o in placed)
            if mode == "cocked" and clear:
                # it must really lean on its neighbour, and touch nothing else
                clear = _penetration(base.world, _moved(t.world, -u[0] * 0.0, -u[1] * 0.0)) > -1.0
            if inside and clear:
                ok = True
                break
        if ok:
            placed.append(t)
    res = render_scene(model, placed, cam, light, bg)
    img = finish_image(res.image, rng)
    dice, unreadable = [], []
    for t, mask, full in zip(placed, res.masks, res.full_area, strict=True):
        c = label_centre(mask)
        if c is None:
            continue
        why = t.why
        if not why and mask.sum() < 0.6 * full:
            why = "occluded"
        if why:
            unreadable.append({"center": [c[0], c[1]], "why": why})
        else:
            dice.append({"kind": "taba", "value": t.face, "colour": t.colour, "center": [c[0], c[1]]})
    info = {
        "background": bg_label,
        "camera_mm": round(cam_mm, 1),
        "px_per_mm": round(cam.px_per_mm, 3),
        "light": [round(float(x), 3) for x in light.direction],
        "tabas": [{"face": t.face, "why": t.why, "x_mm": round(t.x, 1), "y_mm": round(t.y, 1)} for t in placed],
    }
    return Scene(img, {"dice": dice, "unreadable": unreadable}, info)
