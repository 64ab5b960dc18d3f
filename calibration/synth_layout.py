"""Random scene layouts: a seed and a theme in, a `SceneSpec` out.

Dice are placed in "units" (a lone die, two touching dice, a die cocked on
another or on the tray wall, a stack, a die cut by the image border), each with
a footprint circle; units never overlap, dice inside a unit touch on purpose.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from calibration.synth_spec import (
    BLUR_IN_DICE,
    CAMERA_HEIGHT_IN_DICE,
    CASINO_SCALE,
    CASINO_STYLES,
    CLOSE_UP_CAMERA_IN_DICE,
    CLOSE_UP_DIE,
    DIE_SIZE_JITTER,
    FELT_BGR,
    PLAIN_STYLES,
    THEMES,
    TILT_DEG,
    VALUES,
    DieSpec,
    SceneSpec,
    TraySpec,
    die_size_px,
    random_side_values,
)

PLACEMENT_TRIES = 60
UNIT_RADIUS_IN_DICE = {"single": 0.8, "pair": 1.35, "cocked": 1.6, "stack": 0.9, "wall": 0.9}
EDGE_MARGIN_IN_DICE = 1.0  # keep answered dice this far from the image border
CLOSE_UP_MARGIN_IN_DICE = 1.0  # ... in a close-up, where a die is a fifth of the frame: wholly in it
GLARE_CHANCE = {"glare": 0.85, "casino": 0.5}
GLARE_CHANCE_DEFAULT = 0.15
WALL_BGR = ((30, 30, 30), (60, 90, 130), (200, 200, 200), (40, 50, 70))


def _die(rng, kind, style, xy, size, yaw, **kw) -> DieSpec:
    value = int(rng.choice(VALUES[kind]))
    sides = random_side_values(value, rng) if kind == "d6" else (0, 0)
    return DieSpec(kind, value, style, (float(xy[0]), float(xy[1])), float(size),
                   float(yaw), side_values=sides, **kw)


def _tray(rng, w, h, mode, wall_bgr) -> TraySpec | None:
    if mode == "none":
        return None
    if mode == "full":
        fw, fh = rng.uniform(0.72, 0.86) * w, rng.uniform(0.72, 0.86) * h
        cx, cy = w / 2 + rng.uniform(-0.03, 0.03) * w, h / 2 + rng.uniform(-0.03, 0.03) * h
    else:  # one or two walls visible, the rest beyond the frame
        fw, fh = 1.3 * w, 1.3 * h
        sx, sy = rng.choice([-1, 0, 1]), rng.choice([-1, 1])
        cx = w / 2 + sx * rng.uniform(0.2, 0.26) * w
        cy = h / 2 + sy * rng.uniform(0.2, 0.26) * h
    wall = rng.uniform(0.025, 0.045) * min(w, h)
    return TraySpec((cx, cy), (fw, fh), float(rng.uniform(-4, 4)), wall,
                    rng.uniform(0.012, 0.025) * min(w, h), wall_bgr)


def _free_region(w, h, tray, margin):
    """Axis-aligned box where unit centres may go (inside the floor and the image)."""
    x0, y0, x1, y1 = margin, margin, w - margin, h - margin
    if tray is not None:
        c = tray.corners()
        # The floor is rotated by a few degrees: shrink to the inscribed box.
        x0, x1 = max(x0, np.sort(c[:, 0])[1] + margin), min(x1, np.sort(c[:, 0])[2] - margin)
        y0, y1 = max(y0, np.sort(c[:, 1])[1] + margin), min(y1, np.sort(c[:, 1])[2] - margin)
    return x0, y0, x1, y1


def _place(rng, region, radius, placed) -> tuple[float, float] | None:
    x0, y0, x1, y1 = region
    if x1 <= x0 or y1 <= y0:
        return None
    for _ in range(PLACEMENT_TRIES):
        p = (rng.uniform(x0, x1), rng.uniform(y0, y1))
        if all(math.dist(p, q) > radius + r for q, r in placed):
            return p
    return None


def _unit(rng, kind_unit, m, s, style, kind, tray) -> list[DieSpec]:
    yaw = rng.uniform(0, 360)
    d = np.array([math.cos(math.radians(yaw)), math.sin(math.radians(yaw))])
    m = np.asarray(m)
    if kind_unit == "single":
        return [_die(rng, kind, style, m, s, yaw)]
    if kind_unit == "pair":
        gap = rng.uniform(0.3, 1.5)
        if rng.random() < 0.5:  # side by side, faces flush
            off, yaw_b = d * (s / 2 + gap / 2), yaw
        elif rng.random() < 0.5:  # corner to corner along the diagonal
            diag = np.array([math.cos(math.radians(yaw + 45)), math.sin(math.radians(yaw + 45))])
            off, yaw_b = diag * (s * math.sqrt(2) / 2 + gap / 2), yaw
        else:  # corner of one against the face of the other
            off, yaw_b = d * (s / 4 + s * math.sqrt(2) / 4 + gap / 2), yaw + 45
        style_b = style if rng.random() < 0.5 else str(rng.choice(PLAIN_STYLES))
        return [_die(rng, kind, style, m - off, s, yaw), _die(rng, kind, style_b, m + off, s, yaw_b)]
    if kind_unit == "stack":
        base = _die(rng, kind, style, m, s, yaw, hidden=True)
        # Offset and turned, so the die underneath shows round the top one.
        a = rng.uniform(0, 2 * math.pi)
        jit = np.array([math.cos(a), math.sin(a)]) * rng.uniform(0.1, 0.2) * s
        top = _die(rng, kind, str(rng.choice(PLAIN_STYLES)), m + jit, s,
                   yaw + rng.uniform(20, 45), base_z_px=s, why="stacked")
        return [base, top]
    tilt = rng.uniform(*TILT_DEG)
    # Leaning: the raised side rests on the support, so the top face turns away from it.
    reach = s / 2 * (math.cos(math.radians(tilt)) + math.sin(math.radians(tilt)))
    if kind_unit == "cocked":
        a = _die(rng, kind, str(rng.choice(PLAIN_STYLES)), m - d * s * 0.55, s, yaw)
        b_xy = m - d * s * 0.55 + d * (s / 2 + reach + 1.0)
        b = _die(rng, kind, style, b_xy, s, yaw + rng.uniform(-8, 8), tilt_deg=tilt,
                 tilt_dir_deg=yaw, why="cocked")
        return [a, b]
    raise ValueError(f"unknown unit {kind_unit!r}")


def _wall_spot(rng, tray, s, w, h):
    """A point just inside a visible wall, and the inward direction."""
    c = tray.corners()
    for _ in range(PLACEMENT_TRIES):
        i = int(rng.integers(4))
        a, b = c[i], c[(i + 1) % 4]
        t = rng.uniform(0.25, 0.75)
        p = a + (b - a) * t
        inward = np.array([-(b - a)[1], (b - a)[0]]) / np.linalg.norm(b - a)
        if np.dot(np.array(tray.center_xy) - p, inward) < 0:
            inward = -inward
        q = p + inward * s * (0.5 * (math.cos(math.radians(TILT_DEG[1])) + math.sin(math.radians(TILT_DEG[1]))) + 0.05)
        if 1.2 * s < q[0] < w - 1.2 * s and 1.2 * s < q[1] < h - 1.2 * s:
            return q, inward
    return None


def random_scene_spec(seed: int, size_wh: tuple[int, int] = (1600, 1200),
                      kinds: tuple[str, ...] = ("d6",), theme: str | None = None) -> SceneSpec:
    """A random scene from a seed; `theme` picks the feature the scene shows off."""
    rng = np.random.default_rng(seed)
    theme = theme or str(rng.choice(THEMES))
    w, h = size_wh
    s0 = die_size_px(size_wh, rng)
    if theme == "closeup":
        s0 = float(rng.uniform(*CLOSE_UP_DIE) * min(w, h))
    surface = {"wood": "wood", "white": "white", "cloth": "cloth", "printed": "printed"}.get(theme, "felt")
    if theme == "plain" and rng.random() < 0.3:
        surface = str(rng.choice(["wood", "white", "cloth"]))
    felt = str(rng.choice(list(FELT_BGR)))
    if theme == "casino":
        felt = "green" if rng.random() < 0.7 else "blue"
    mode = "none" if theme == "outside" else str(rng.choice(["full", "edge", "none"], p=[0.45, 0.3, 0.25]))
    if theme == "cocked" and mode == "none":
        mode = "full"
    tray = _tray(rng, w, h, mode, WALL_BGR[int(rng.integers(len(WALL_BGR)))])
    wb = (1.0, 1.0, 1.0)
    if theme == "warm" or (theme not in ("cool",) and rng.random() < 0.15):
        wb = (rng.uniform(0.72, 0.85), 1.0, rng.uniform(1.08, 1.18))
    elif theme == "cool" or rng.random() < 0.15:
        wb = (rng.uniform(1.08, 1.2), 1.0, rng.uniform(0.78, 0.9))
    n = {"single": 1, "crowded": int(rng.integers(14, 21))}.get(theme, int(rng.integers(2, 9)))
    if theme == "closeup":  # drawn after the others' draws: the other themes' scenes stay as they were
        n = int(rng.integers(1, 4))
    casino = theme == "casino" or rng.random() < 0.1
    units = ["single"] * n
    extra = {"touching": ["pair", "pair"], "cocked": ["cocked", "wall"], "stacked": ["stack"]}
    units = extra.get(theme, []) + units
    if theme not in ("single", "closeup") and rng.random() < 0.3:
        units.insert(0, "pair")
    placed: list[tuple[tuple[float, float], float]] = []
    dice: list[DieSpec] = []
    n_dice = 0
    for unit in units:
        style = str(rng.choice(CASINO_STYLES if casino else PLAIN_STYLES))
        s = s0 * (CASINO_SCALE if casino else 1.0) * (1 + rng.uniform(-1, 1) * DIE_SIZE_JITTER)
        kind = str(rng.choice(kinds))
        if unit == "wall" and tray is not None:
            spot = _wall_spot(rng, tray, s, w, h)
            if spot is None or any(math.dist(spot[0], q) < r + s for q, r in placed):
                continue
            # The raised side rests on the wall, so the top face turns inwards.
            inward_deg = math.degrees(math.atan2(spot[1][1], spot[1][0]))
            new = [_die(rng, "d6", style, spot[0], s, inward_deg + rng.uniform(-6, 6),
                        tilt_deg=rng.uniform(*TILT_DEG), tilt_dir_deg=inward_deg, why="cocked")]
            placed.append(((float(spot[0][0]), float(spot[0][1])), s))
        elif unit != "wall":
            r = UNIT_RADIUS_IN_DICE[unit] * s
            margin = CLOSE_UP_MARGIN_IN_DICE * s if theme == "closeup" else EDGE_MARGIN_IN_DICE * s + r * 0.5
            region = _free_region(w, h, tray, margin)
            m = _place(rng, region, r, placed)
            if m is None:
                continue
            new = _unit(rng, unit, m, s, style, kind if unit == "single" else "d6", tray)
            placed.append((m, r))
        else:
            continue
        dice += new
        n_dice += len(new)
        if n_dice >= 20:
            break
    if theme == "outside":
        s = s0 * (1 + rng.uniform(-1, 1) * DIE_SIZE_JITTER)
        for _ in range(int(rng.integers(1, 3))):
            side = int(rng.integers(4))
            inset = rng.uniform(0.3, 0.55) * s  # centre inside, part of the die beyond the edge
            t = rng.uniform(0.2, 0.8)
            xy = [(inset, t * h), (w - inset, t * h), (t * w, inset), (t * w, h - inset)][side]
            if all(math.dist(xy, q) > r + s for q, r in placed):
                dice.append(_die(rng, "d6", str(rng.choice(PLAIN_STYLES)), xy, s, rng.uniform(0, 360)))
                placed.append((xy, s))
    dice = [_photometric_die(rng, d, theme) for d in dice]
    return SceneSpec(
        size_wh=(int(w), int(h)), seed=int(rng.integers(2**31)), surface=surface, felt=felt,
        table_surface=str(rng.choice(["wood", "white", "cloth"])), tray=tray,
        camera_height_px=float(rng.uniform(*(CLOSE_UP_CAMERA_IN_DICE if theme == "closeup"
                                             else CAMERA_HEIGHT_IN_DICE)) * s0),
        light_azimuth_deg=float(rng.uniform(0, 360)),
        light_elevation_deg=float(rng.uniform(40, 75)),
        shadow_strength=float(rng.uniform(0.25, 0.55)),
        white_balance=tuple(float(g) for g in wb),
        exposure=float(rng.uniform(0.9, 1.08)),
        noise_sigma=float(rng.uniform(5, 9) if theme == "noisy" else rng.uniform(0.5, 2.5)),
        jpeg_quality=int(rng.integers(45, 65)) if theme == "noisy" else None,
        dice=tuple(dice), theme=theme,
    )


def _photometric_die(rng, die: DieSpec, theme: str) -> DieSpec:
    glare = None
    if rng.random() < GLARE_CHANCE.get(theme, GLARE_CHANCE_DEFAULT):
        glare = (float(rng.uniform(-0.6, 0.6)), float(rng.uniform(-0.6, 0.6)))
    blur, why = 0.0, die.why
    if why is None and not die.hidden and rng.random() < (0.5 if theme == "blur" else 0.03):
        blur, why = float(rng.uniform(*BLUR_IN_DICE) * die.size_px), "blurred"
    return replace(die, glare_uv=glare, blur_px=blur, blur_dir_deg=float(rng.uniform(0, 180)), why=why)


def pairs_scene_spec(size_wh: tuple[int, int], pairs: int, die_px: float, seed: int = 0) -> SceneSpec:
    """`pairs` units of two touching d6 (flush, corner to corner or corner to face) on a grid of
    green felt, lit from one side, without tray or JPEG, with a little sensor noise: the
    benchmark's tray of dice thrown together (bench/bench_read.py)."""
    rng = np.random.default_rng(seed)
    w, h = size_wh
    cols = int(math.ceil(math.sqrt(pairs * w / h)))
    rows = int(math.ceil(pairs / cols))
    dice: list[DieSpec] = []
    for i in range(pairs):
        m = ((i % cols + 0.5) * w / cols, (i // cols + 0.5) * h / rows)
        dice += _unit(rng, "pair", m, die_px, str(rng.choice(PLAIN_STYLES)), "d6", None)
    return _still_spec((w, h), dice, die_px, seed, noise_sigma=1.0, theme="touching")


def single_die_spec(value: int, style: str = "white", size_wh: tuple[int, int] = (320, 240),
                    size_px: float = 80.0, yaw_deg: float = 0.0, felt: str = "green",
                    seed: int = 0) -> SceneSpec:
    """One flat d6 in the middle of plain felt, without noise, glare or JPEG: for unit tests."""
    w, h = size_wh
    die = DieSpec("d6", value, style, (w / 2, h / 2), size_px, yaw_deg,
                  side_values=random_side_values(value, np.random.default_rng(seed)))
    return _still_spec((w, h), [die], size_px, seed, felt=felt)


def _still_spec(size_wh: tuple[int, int], dice: list[DieSpec], die_px: float, seed: int, felt: str = "green",
                noise_sigma: float = 0.0, theme: str = "single") -> SceneSpec:
    """A scene of `dice` on felt under fixed light (45 degrees round, 60 up), the camera 30 die
    sides above, no tray, white balance or JPEG."""
    return SceneSpec(size_wh=size_wh, seed=seed, surface="felt", felt=felt, table_surface="wood",
                     tray=None, camera_height_px=30 * die_px, light_azimuth_deg=45.0,
                     light_elevation_deg=60.0, shadow_strength=0.4, white_balance=(1.0, 1.0, 1.0),
                     exposure=1.0, noise_sigma=noise_sigma, jpeg_quality=None, dice=tuple(dice), theme=theme)
