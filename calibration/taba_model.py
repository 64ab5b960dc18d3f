"""A taba (sheep astragalus) as a rigid body: its mesh, principal axes and resting poses.

Development tool for rendering labelled taba images (see `taba_render`); never
imported at run time by the station. numpy only.

The mesh is the 3D scan `../shared/taba3d/sheep_talus_LBOAWK001.ply` (ASCII
PLY, millimetres). It is read from there at run time, never copied into the
project.

How the resting poses are found
-------------------------------
A rigid body on a flat table comes to rest on a facet of its convex hull, and
that rest is stable when the centre of mass (COM) projects inside the facet.
With ``d`` the unit "down" direction in the body's frame, the COM's height
above the table is the support function ``h(d) = max_i (v_i - com) . d``; the
stable resting directions are exactly the local minima of ``h`` on the unit
sphere (every other direction lets the body roll downhill). So:

1. ``hull_candidates``: the points that are extreme in some direction (the
   vertices of the convex hull, up to sampling), a few hundred of 37,617.
2. ``settle``: from a start direction, descend ``h`` on the sphere (a
   pattern search over shrinking cones) to the local minimum. That is what
   the bone does when dropped with that side down: it rolls onto the facet
   whose basin the start lies in.
3. ``resting_basins``: the same descent from ~2,000 evenly spread directions
   gives every stable facet and the solid angle of its basin, the textbook
   quasi-static estimate of how often it comes up.

Naming the faces
----------------
The principal axes of the vertex cloud (PCA) are ordered long, middle, short.
The long axis runs end to end: resting with it vertical is "on an end" (rare;
the reader must refuse it). Resting on the sides perpendicular to the short
axis shows the big, wide outline from above: the wide faces, tripas and hoyo.
Resting on the sides perpendicular to the middle axis shows the narrow
outline: liso and carnero. ``face_poses`` settles the bone from each of the
six signed axes.

A face is named by the side that shows UP, as players read a throw ("sale
hoyo": the hoyo side is up). So the pose that rests on the side ``+s`` shows
the side ``-s`` up, and the name is decided by measuring the upward surface as
the camera sees it (``surface_shape``, on a top-view height map of the pose):

- wide faces: concavity. A quadratic is fitted to the upward surface (cells
  facing up, inside the outline); its mean curvature is > 0 for a dip (concave)
  and < 0 for a dome (convex). The "hollow" (mean depth of the pits left under
  a 12 mm disc pressed onto the surface) says the same in millimetres. The
  more concave of the two wide sides is **tripas** (concave), the other
  **hoyo** (convex), as RULES.md section 5 defines them.
- narrow faces: planarity. A plane is fitted to the upward surface; the RMS of
  its residual (mm) is small for a flat face and larger for a curved one. The
  flatter of the two narrow sides is **liso**, the other **carnero**.

Evidence for LBOAWK001 (``python -m calibration.taba_model --basins 600``):

=========  =========  ==========  ==========  =========  ========  ======
face (up)  rests on   curvature   hollow      plane RMS  outline   basin
=========  =========  ==========  ==========  =========  ========  ======
tripas     +short     +0.046/mm   0.91 mm     1.80 mm    664 mm2   36 %
hoyo       -short     -0.008/mm   0.47 mm     1.80 mm    663 mm2   32 %
liso       +middle    +0.007/mm   0.21 mm     0.80 mm    590 mm2   16 %
carnero    -middle    +0.027/mm   0.75 mm     1.04 mm    562 mm2   16 %
=========  =========  ==========  ==========  =========  ========  ======

Both measures agree on each pair; the pictures agree too (tripas shows a deep
central pit, hoyo a smooth bulge; liso a low, even surface, carnero a raised
curved rim round a hollow). The solid-angle basins (36/32/16/16 %, carnero's
split over two facets 1-2 degrees apart) match the 36-40 / 10-14 % of the
folklore in order. The two end poses have no basin of their own (the bone
rolls off within 10 degrees of the long axis: stability margin about -0.1 and
-0.5 mm), which is why standing on an end is rare; the renderer shows them
as placed, leaning at most 10 degrees.

`python -m calibration.taba_model [--views DIR]` prints the measurements and
writes a shaded top view of every pose for checking by eye.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

FACES = ("liso", "carnero", "tripas", "hoyo")
WIDE = ("tripas", "hoyo")
NARROW = ("liso", "carnero")
END_CONE_DEG = 10.0  # an end pose leans at most this far from the long axis
DEFAULT_PLY = Path(__file__).resolve().parents[1].parent / "shared" / "taba3d" / "sheep_talus_LBOAWK001.ply"


class PlyError(ValueError):
    """The file is not an ASCII triangle-mesh PLY this reader understands."""


def load_ply(path: str | Path) -> tuple[np.ndarray, np.ndarray]:
    """Read an ASCII PLY: (vertices float64 (N, 3), triangles int64 (M, 3)).

    Only x, y, z of each vertex are kept (other vertex properties are skipped);
    polygons with more than three corners are fanned into triangles.
    """
    path = Path(path)
    with path.open("rb") as fh:
        raw = fh.read()
    head_end = raw.find(b"end_header")
    if not raw.startswith(b"ply") or head_end < 0:
        raise PlyError(f"{path}: not a PLY file")
    header = raw[:head_end].decode("ascii", "replace").splitlines()
    body_start = raw.index(b"\n", head_end) + 1
    if not any(line.strip() == "format ascii 1.0" for line in header):
        raise PlyError(f"{path}: only ASCII PLY is supported")
    elements: list[tuple[str, int, list[str]]] = []
    for line in header:
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "element":
            elements.append((parts[1], int(parts[2]), []))
        elif parts[0] == "property" and elements:
            elements[-1][2].append(parts[-1])
    lines = raw[body_start:].decode("ascii").split("\n")
    pos = 0
    verts = tris = None
    for name, count, props in elements:
        chunk = lines[pos : pos + count]
        pos += count
        if name == "vertex":
            idx = [props.index(k) for k in ("x", "y", "z")]
            arr = np.array([ln.split() for ln in chunk], dtype=np.float64)
            verts = arr[:, idx]
        elif name == "face":
            rows = [ln.split() for ln in chunk]
            if all(len(r) == 4 and r[0] == "3" for r in rows):
                tris = np.array(rows, dtype=np.int64)[:, 1:]
            else:
                out = []
                for r in rows:
                    n = int(r[0])
                    ids = [int(x) for x in r[1 : 1 + n]]
                    out.extend((ids[0], ids[k], ids[k + 1]) for k in range(1, n - 1))
                tris = np.array(out, dtype=np.int64)
    if verts is None or tris is None or len(verts) == 0 or len(tris) == 0:
        raise PlyError(f"{path}: no vertices or faces")
    if tris.min() < 0 or tris.max() >= len(verts):
        raise PlyError(f"{path}: face index out of range")
    return verts, tris


def solid_centroid(verts: np.ndarray, tris: np.ndarray) -> tuple[np.ndarray, float]:
    """Centre of mass and volume of a closed mesh of uniform density."""
    a, b, c = verts[tris[:, 0]], verts[tris[:, 1]], verts[tris[:, 2]]
    vol6 = np.einsum("ij,ij->i", a, np.cross(b, c))
    volume = vol6.sum() / 6.0
    com = (vol6[:, None] * (a + b + c)).sum(0) / (4.0 * vol6.sum())
    return com, float(volume)


def vertex_normals(verts: np.ndarray, tris: np.ndarray) -> np.ndarray:
    """Area-weighted vertex normals (unit)."""
    fn = np.cross(verts[tris[:, 1]] - verts[tris[:, 0]], verts[tris[:, 2]] - verts[tris[:, 0]])
    vn = np.zeros_like(verts)
    for k in range(3):
        np.add.at(vn, tris[:, k], fn)
    return vn / np.maximum(np.linalg.norm(vn, axis=1, keepdims=True), 1e-12)


def fibonacci_sphere(n: int) -> np.ndarray:
    """`n` nearly evenly spread unit vectors."""
    i = np.arange(n) + 0.5
    phi = np.arccos(1 - 2 * i / n)
    theta = math.pi * (1 + 5**0.5) * i
    return np.stack([np.cos(theta) * np.sin(phi), np.sin(theta) * np.sin(phi), np.cos(phi)], 1)


def rotation_to(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The smallest rotation taking unit vector a to unit vector b."""
    a = a / np.linalg.norm(a)
    b = b / np.linalg.norm(b)
    v = np.cross(a, b)
    c = float(a @ b)
    if c < -1 + 1e-12:
        axis = np.cross(a, [1.0, 0, 0])
        if np.linalg.norm(axis) < 1e-6:
            axis = np.cross(a, [0, 1.0, 0])
        axis /= np.linalg.norm(axis)
        return 2 * np.outer(axis, axis) - np.eye(3)
    vx = np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])
    return np.eye(3) + vx + vx @ vx / (1 + c)


def _orthonormal_pair(d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    t = np.array([1.0, 0, 0]) if abs(d[0]) < 0.9 else np.array([0, 1.0, 0])
    u = np.cross(d, t)
    u /= np.linalg.norm(u)
    return u, np.cross(d, u)


@dataclass
class Pose:
    """A resting pose: `down` (body frame) is the support plane's outward normal.

    `rotation` maps body coordinates (centred on the COM) to world coordinates
    with z up and the long axis along world x; the table is z = 0 after adding
    `lift` to z.
    """

    name: str  # a face name (the side shown UP), or "end"
    down: np.ndarray
    rotation: np.ndarray
    lift: float  # COM height above the table, mm (= h(down))
    support: np.ndarray  # body-frame support points (on the table)
    stability_margin: float  # mm from the COM's projection to the support polygon edge (>0: stable)
    start_axis: str = ""  # the signed principal axis the settling started from
    measures: dict = field(default_factory=dict)

    def world_vertices(self, verts_body: np.ndarray) -> np.ndarray:
        w = verts_body @ self.rotation.T
        w[:, 2] += self.lift
        return w


class TabaModel:
    """The scanned bone, centred on its centre of mass, with its principal axes."""

    def __init__(self, verts: np.ndarray, tris: np.ndarray):
        com, volume = solid_centroid(verts, tris)
        if volume < 0:  # inward-facing triangles: flip them
            tris = tris[:, ::-1].copy()
            volume = -volume
        self.volume = volume
        self.verts = verts - com
        self.tris = tris
        w, e = np.linalg.eigh(np.cov(self.verts.T))
        order = np.argsort(w)[::-1]  # long, middle, short
        axes = e[:, order]
        if np.linalg.det(axes) < 0:
            axes[:, 2] *= -1
        self.axes = axes  # columns: long, middle, short (body frame)
        ext = self.verts @ axes
        self.extent = ext.max(0) - ext.min(0)
        self.normals = vertex_normals(self.verts, self.tris)
        self.hull = self._hull_candidates()

    @classmethod
    def load(cls, path: str | Path = DEFAULT_PLY) -> TabaModel:
        return cls(*load_ply(path))

    # --- support function and settling -------------------------------------------------

    def _hull_candidates(self, n_dirs: int = 6000) -> np.ndarray:
        dirs = fibonacci_sphere(n_dirs)
        idx = np.unique(np.argmax(self.verts @ dirs.T, axis=0))
        return self.verts[idx]

    def height(self, d: np.ndarray) -> np.ndarray:
        """COM height above the table when resting with body direction(s) `d` down."""
        return (self.hull @ np.atleast_2d(d).T).max(0)

    def settle(self, start: np.ndarray, max_angle: float | None = None) -> np.ndarray:
        """Descend the COM height from direction `start` to its local minimum.

        With `max_angle` (radians), the search stays within that cone around
        `start` (used for the unstable end poses, which have no basin of their own).
        """
        start = start / np.linalg.norm(start)
        d = start.copy()
        best = float(self.height(d)[0])
        r = 0.2
        ring = np.linspace(0, 2 * math.pi, 24, endpoint=False)
        while r > 1e-7:
            u, v = _orthonormal_pair(d)
            cand = []
            for frac in (1.0, 0.5):
                rr = r * frac
                cand.append(np.cos(rr) * d + np.sin(rr) * (np.outer(np.cos(ring), u) + np.outer(np.sin(ring), v)))
            cand = np.concatenate(cand)
            if max_angle is not None:
                cand = cand[cand @ start >= math.cos(max_angle)]
            if len(cand) == 0:
                r *= 0.5
                continue
            h = self.height(cand)
            k = int(np.argmin(h))
            if h[k] < best - 1e-12:
                best, d = float(h[k]), cand[k] / np.linalg.norm(cand[k])
            else:
                r *= 0.5
        return d

    def resting_basins(self, n: int = 2000) -> list[tuple[np.ndarray, float]]:
        """Every stable resting direction with the solid-angle fraction of its basin."""
        found: list[list] = []
        for d0 in fibonacci_sphere(n):
            d = self.settle(d0)
            for item in found:
                if item[0] @ d > math.cos(math.radians(2)):
                    item[1] += 1
                    break
            else:
                found.append([d, 1])
        found.sort(key=lambda it: -it[1])
        return [(d, c / n) for d, c in found]

    def support_points(self, d: np.ndarray, tol: float = 0.05) -> np.ndarray:
        h = self.hull @ d
        return self.hull[h >= h.max() - tol]

    def stability_margin(self, d: np.ndarray, tol: float = 0.05) -> float:
        """Signed distance (mm) from the COM's projection to the support polygon's edge."""
        pts = self.support_points(d, tol)
        u, v = _orthonormal_pair(d)
        p2 = np.stack([pts @ u, pts @ v], 1)
        if len(p2) < 3:
            return -float(np.min(np.linalg.norm(p2, axis=1)))
        hull = _convex_hull_2d(p2)
        if len(hull) < 3:
            return -float(np.min(np.linalg.norm(p2, axis=1)))
        # COM is at the origin of the body frame, so its projection is (0, 0).
        margins = []
        for a, b in zip(hull, np.roll(hull, -1, axis=0), strict=True):
            e = b - a
            n = np.array([e[1], -e[0]]) / (np.linalg.norm(e) + 1e-12)  # outward for CCW
            margins.append(-(np.zeros(2) - a) @ n)
        return float(min(margins))

    def pose_from_down(self, d: np.ndarray, name: str = "", start_axis: str = "") -> Pose:
        """The world placement resting with body direction `d` down, long axis along world x."""
        d = d / np.linalg.norm(d)
        r1 = rotation_to(d, np.array([0.0, 0, -1]))
        long_w = r1 @ self.axes[:, 0]
        ang = -math.atan2(long_w[1], long_w[0])
        if abs(long_w[0]) + abs(long_w[1]) < 1e-6:  # on an end: orient the middle axis
            mid = r1 @ self.axes[:, 1]
            ang = -math.atan2(mid[1], mid[0])
        rz = np.array([[math.cos(ang), -math.sin(ang), 0], [math.sin(ang), math.cos(ang), 0], [0, 0, 1]])
        rot = rz @ r1
        lift = float(self.height(d)[0])
        return Pose(
            name=name,
            down=d,
            rotation=rot,
            lift=lift,
            support=self.support_points(d),
            stability_margin=self.stability_margin(d),
            start_axis=start_axis,
        )

    # --- the four faces ------------------------------------------------------------------

    def face_poses(self) -> dict[str, Pose]:
        """The four named resting poses and the two end poses ("end+", "end-")."""
        names = ("long", "middle", "short")
        poses: dict[str, Pose] = {}
        settled: dict[str, np.ndarray] = {}
        for k in range(3):
            for s in (1, -1):
                axis = s * self.axes[:, k]
                key = f"{'+' if s > 0 else '-'}{names[k]}"
                if k == 0:
                    d = self.settle(axis, max_angle=math.radians(END_CONE_DEG))
                else:
                    d = self.settle(axis)
                settled[key] = d
        wide = [self.pose_from_down(settled[k], start_axis=k) for k in ("+short", "-short")]
        narrow = [self.pose_from_down(settled[k], start_axis=k) for k in ("+middle", "-middle")]
        for p in wide + narrow:
            p.measures = surface_shape(self, p)
        # Wide: the more concave upward surface is tripas.
        wide.sort(key=lambda p: -p.measures["curvature"])
        wide[0].name, wide[1].name = "tripas", "hoyo"
        # Narrow: the flatter upward surface is liso.
        narrow.sort(key=lambda p: p.measures["plane_rms"])
        narrow[0].name, narrow[1].name = "liso", "carnero"
        for p in wide + narrow:
            poses[p.name] = p
        for key, nm in (("+long", "end+"), ("-long", "end-")):
            p = self.pose_from_down(settled[key], name="end", start_axis=key)
            p.measures = surface_shape(self, p)
            poses[nm] = p
        return poses

    def top_view_area(self, pose: Pose, cell: float = 0.25) -> float:
        """Area (mm^2) of the pose's outline seen from above."""
        w = pose.world_vertices(self.verts)
        hm = height_map(w, cell)[0]
        return float(np.isfinite(hm).sum() * cell * cell)


@lru_cache(maxsize=2)
def load_model(path: str = str(DEFAULT_PLY)) -> TabaModel:
    return TabaModel.load(path)


@lru_cache(maxsize=2)
def load_poses(path: str = str(DEFAULT_PLY)) -> dict[str, Pose]:
    return load_model(path).face_poses()


def _convex_hull_2d(p: np.ndarray) -> np.ndarray:
    """Andrew's monotone chain; counter-clockwise, no repeated end point."""
    pts = np.unique(np.round(p, 9), axis=0)
    if len(pts) < 3:
        return pts

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list = []
    for q in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], q) <= 0:
            lower.pop()
        lower.append(q)
    upper: list = []
    for q in pts[::-1]:
        while len(upper) >= 2 and cross(upper[-2], upper[-1], q) <= 0:
            upper.pop()
        upper.append(q)
    return np.array(lower[:-1] + upper[:-1])


def height_map(world: np.ndarray, cell: float) -> tuple[np.ndarray, float, float]:
    """Max height per (cell x cell mm) column of points; NaN where empty. (map, x0, y0)."""
    x0, y0 = world[:, 0].min(), world[:, 1].min()
    ix = ((world[:, 0] - x0) / cell).astype(int)
    iy = ((world[:, 1] - y0) / cell).astype(int)
    hm = np.full((iy.max() + 1, ix.max() + 1), -np.inf)
    np.maximum.at(hm, (iy, ix), world[:, 2])
    hm[~np.isfinite(hm)] = np.nan
    return hm, x0, y0


def _fill_small_holes(hm: np.ndarray) -> np.ndarray:
    out = hm.copy()
    for _ in range(2):
        nan = np.isnan(out)
        if not nan.any():
            break
        pad = np.pad(out, 1, constant_values=np.nan)
        stack = np.stack([pad[1 + dy : pad.shape[0] - 1 + dy, 1 + dx : pad.shape[1] - 1 + dx]
                          for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dy or dx])
        cnt = np.isfinite(stack).sum(0)
        fill = np.where(cnt >= 5, np.nanmax(np.where(np.isfinite(stack), stack, -np.inf), axis=0), np.nan)
        out = np.where(nan & np.isfinite(fill), fill, out)
    return out


def surface_shape(model: TabaModel, pose: Pose, cell: float = 0.5) -> dict:
    """Shape of the upward surface of a pose, as the camera sees it.

    The top-view height map (cell mm) is cut to the upward surface: cells
    whose surface faces up (slope under 40 degrees) inside the outline shrunk by
    15 % of its size. Measures: `curvature` (mean curvature of a fitted
    quadratic, 1/mm; > 0 concave, < 0 convex), `hollow` (mm: mean depth of the pits a
    12 mm disc pressed onto the surface leaves; larger = more hollowed),
    `plane_rms` (mm: residual of a plane fit; small = flat), `area` (mm^2 of the
    outline).
    """
    w = pose.world_vertices(model.verts)
    hm, _, _ = height_map(w, cell)
    hm = _fill_small_holes(hm)
    inside = np.isfinite(hm)
    area = float(inside.sum() * cell * cell)
    gy, gx = np.gradient(np.where(inside, hm, np.nan), cell)
    slope_ok = np.isfinite(gx) & np.isfinite(gy) & (np.hypot(gx, gy) < math.tan(math.radians(40)))
    # Inner region: the outline eroded (distance to the outside) by 15 % of its half-width.
    ys, xs = np.nonzero(inside)
    cy, cx = ys.mean(), xs.mean()
    dist = _distance_inside(inside)
    core = inside & (dist >= 0.15 * dist.max()) & slope_ok
    # Keep the upper part only (the face, not a far-down flank seen past a ledge).
    top = np.nanmax(hm)
    core &= hm >= top - 0.6 * (top - np.nanmin(hm))
    yy, xx = np.nonzero(core)
    z = hm[yy, xx]
    X = (xx - cx) * cell
    Y = (yy - cy) * cell
    A2 = np.stack([np.ones_like(X), X, Y, X * X, X * Y, Y * Y], 1)
    coef2 = np.linalg.lstsq(A2, z, rcond=None)[0]
    curvature = float(coef2[3] + coef2[5])  # (z_xx + z_yy) / 2
    A1 = A2[:, :3]
    coef1 = np.linalg.lstsq(A1, z, rcond=None)[0]
    plane_rms = float(np.sqrt(np.mean((z - A1 @ coef1) ** 2)))
    # Hollow: how much a 12 mm flat disc pressed down onto the surface (a grey
    # closing of the height map) leaves below it: the mean depth of the pits.
    h0 = np.where(inside, hm, 0.0)
    closed = _grey_closing(h0, radius_cells=int(round(6.0 / cell)))
    hollow = float(np.mean((closed - h0)[core]))
    return {
        "curvature": curvature,
        "hollow": hollow,
        "plane_rms": plane_rms,
        "area": area,
        "core_cells": int(core.sum()),
    }


def _grey_closing(h: np.ndarray, radius_cells: int) -> np.ndarray:
    """Grey-scale closing (max then min filter) with a disc, numpy only."""
    r = radius_cells
    yy, xx = np.mgrid[-r : r + 1, -r : r + 1]
    offs = [(dy, dx) for dy, dx in zip(yy.ravel(), xx.ravel(), strict=True) if dy * dy + dx * dx <= r * r]

    def filt(a: np.ndarray, op, fill: float) -> np.ndarray:
        p = np.pad(a, r, constant_values=fill)
        out = np.full(a.shape, fill)
        for dy, dx in offs:
            out = op(out, p[r + dy : r + dy + a.shape[0], r + dx : r + dx + a.shape[1]])
        return out

    lo = float(h.min())
    return filt(filt(h, np.maximum, lo), np.minimum, np.inf)


def _distance_inside(mask: np.ndarray) -> np.ndarray:
    """City-block-ish distance (cells) from each inside cell to the outside."""
    dist = np.zeros(mask.shape, dtype=np.float64)
    cur = mask.copy()
    k = 0
    while cur.any():
        k += 1
        dist[cur] = k
        p = np.pad(cur, 1, constant_values=False)
        cur = cur & p[:-2, 1:-1] & p[2:, 1:-1] & p[1:-1, :-2] & p[1:-1, 2:]
    return dist


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ply", default=str(DEFAULT_PLY))
    ap.add_argument("--views", help="write a top view of every pose into this folder")
    ap.add_argument("--basins", type=int, default=0, help="estimate basin sizes from N directions")
    args = ap.parse_args(argv)
    model = TabaModel.load(args.ply)
    print(f"volume {model.volume:.0f} mm^3, extent long/middle/short {np.round(model.extent, 1)} mm")
    print(f"hull candidates: {len(model.hull)}")
    poses = model.face_poses()
    for key, p in poses.items():
        ang = [math.degrees(math.acos(min(1, abs(p.down @ model.axes[:, k])))) for k in range(3)]
        m = p.measures
        print(
            f"{key:8s} from {p.start_axis:8s} COM height {p.lift:5.2f} mm, margin {p.stability_margin:5.2f} mm, "
            f"angle to long/mid/short {ang[0]:4.1f}/{ang[1]:4.1f}/{ang[2]:4.1f} deg, "
            f"area {m['area']:6.0f} mm2, curvature {m['curvature']:+.4f}/mm, hollow {m['hollow']:.2f} mm, "
            f"plane rms {m['plane_rms']:.2f} mm"
        )
    if args.basins:
        for d, frac in model.resting_basins(args.basins):
            near = min(poses.items(), key=lambda kv: -float(kv[1].down @ d))
            ang = math.degrees(math.acos(min(1.0, float(near[1].down @ d))))
            print(f"basin {frac * 100:5.1f} %  height {model.height(d)[0]:5.2f} mm  nearest pose {near[0]} ({ang:.1f} deg)")
    if args.views:
        from calibration.taba_render import render_pose_views

        render_pose_views(model, poses, Path(args.views))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
