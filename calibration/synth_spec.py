"""Scene specifications for the labelled-scene generator (data, no drawing).

A scene is fully described by a frozen `SceneSpec`; `random_scene_spec` turns a
seed into one. Everything random is drawn here, so rendering is a pure function
of the spec and two runs with the same seed give the same bytes.

Coordinates: the table plane (z = 0) is measured in pixels of the output image,
so a point lying on the table is drawn where its (x, y) says; heights z are in
the same pixels and are lifted by the camera's perspective (see synth_draw).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np


# A die style: the body colour (BGR), the pip colour, and whether light passes
# through it (casino dice). `label` is the plain colour name written in labels.
@dataclass(frozen=True)
class DieStyle:
    label: str
    body_bgr: tuple[int, int, int]
    pip_bgr: tuple[int, int, int]
    translucent: bool = False


STYLES: dict[str, DieStyle] = {
    "white": DieStyle("white", (236, 236, 232), (35, 32, 30)),
    "ivory": DieStyle("ivory", (196, 226, 238), (40, 36, 34)),
    "black": DieStyle("black", (34, 32, 32), (238, 238, 238)),
    "red": DieStyle("red", (38, 36, 186), (240, 240, 240)),
    "green": DieStyle("green", (60, 150, 36), (242, 242, 242)),
    "blue": DieStyle("blue", (168, 78, 28), (240, 240, 240)),
    "yellow": DieStyle("yellow", (36, 206, 236), (30, 30, 30)),
    "casino_red": DieStyle("red", (40, 30, 200), (246, 246, 246), translucent=True),
    "casino_blue": DieStyle("blue", (190, 60, 20), (246, 246, 246), translucent=True),
}
PLAIN_STYLES = ("white", "ivory", "black", "red", "green", "blue", "yellow")
CASINO_STYLES = ("casino_red", "casino_blue")

# Surfaces the tray floor (or the whole frame) can be: felt colours are BGR.
FELT_BGR: dict[str, tuple[int, int, int]] = {
    "green": (44, 108, 24),
    "blue": (118, 62, 22),
    "red": (36, 34, 128),
    "black": (30, 30, 30),
    "grey": (150, 152, 150),
}
SURFACES = ("felt", "wood", "white", "cloth", "printed")
TRAY_MODES = ("full", "edge", "none")  # all walls visible / some / felt fills the frame

KINDS = ("d6", "d8", "d10", "d10t")
VALUES: dict[str, tuple[int, ...]] = {
    "d6": (1, 2, 3, 4, 5, 6),
    "d8": (1, 2, 3, 4, 5, 6, 7, 8),
    "d10": tuple(range(10)),
    "d10t": tuple(range(0, 100, 10)),
}

# Sizes: a 16 mm die seen from 40-60 cm is about 40-90 px wide in a 2 MP frame.
REFERENCE_PIXELS = 1600 * 1200
DIE_PX_AT_2MP = (40.0, 90.0)
DIE_SIZE_JITTER = 0.05  # dice of one set differ a little in apparent size
CASINO_SCALE = 1.18  # casino dice are 19 mm, not 16 mm
CAMERA_HEIGHT_IN_DICE = (25.0, 37.0)  # 40-60 cm over a 16 mm die
BLUR_IN_DICE = (0.3, 0.6)  # a still-moving die smears this far during exposure
TILT_DEG = (24.0, 42.0)  # a cocked die leans this much

THEMES = (
    "plain", "touching", "cocked", "stacked", "outside", "glare", "blur", "casino",
    "wood", "white", "cloth", "warm", "cool", "crowded", "single", "noisy",
)
# themes drawn only when asked for (`make_scenes.py --themes printed`): the
# default run's theme of scene i, and so every documented set, stays as it was
EXTRA_THEMES = ("printed", "closeup")  # a tablecloth printed with small dark motifs; one to
# three dice photographed close (each CLOSE_UP_DIE of the frame's short side: a phone held
# over the dice, a camera mounted low)
CLOSE_UP_DIE = (0.14, 0.3)
CLOSE_UP_CAMERA_IN_DICE = (9.0, 20.0)  # 15-30 cm over a 16 mm die


@dataclass(frozen=True)
class DieSpec:
    """One die on the table. `xy` is the centre of its footprint on the table."""

    kind: str
    value: int
    style: str
    xy: tuple[float, float]
    size_px: float
    yaw_deg: float
    tilt_deg: float = 0.0  # > 0: cocked, top face leans towards tilt_dir_deg
    tilt_dir_deg: float = 0.0
    base_z_px: float = 0.0  # > 0: resting on another die
    side_values: tuple[int, int] = (2, 3)  # values on local +x and +y faces (d6)
    blur_px: float = 0.0
    blur_dir_deg: float = 0.0
    glare_uv: tuple[float, float] | None = None  # glare spot on the top face, [-1, 1]^2
    why: str | None = None  # "cocked", "stacked", "blurred": never answered
    hidden: bool = False  # under another die: not labelled at all
    font: str | None = None  # numeral dice: a TrueType file (None: Hershey simplex)
    six_nine_mark: str = "line"  # what tells a 6 from a 9: "line" under it, or "dot" after it
    numerals: bool = False  # a d6 with its value printed on its top face instead of pips


@dataclass(frozen=True)
class TraySpec:
    """The tray floor: a rotated rectangle on the table, walls around it."""

    center_xy: tuple[float, float]
    size_wh: tuple[float, float]
    angle_deg: float
    wall_px: float  # height of the walls, lifted by perspective like the dice
    rim_px: float  # width of the wall's top
    wall_bgr: tuple[int, int, int]

    def corners(self) -> np.ndarray:
        """Floor corners (4, 2) in table pixels, clockwise in image coordinates."""
        cx, cy = self.center_xy
        w, h = self.size_wh
        a = math.radians(self.angle_deg)
        ux, uy = math.cos(a), math.sin(a)
        vx, vy = -uy, ux
        pts = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
        return np.array([(cx + x * ux + y * vx, cy + x * uy + y * vy) for x, y in pts])


@dataclass(frozen=True)
class SceneSpec:
    size_wh: tuple[int, int]
    seed: int  # for textures and noise, drawn at render time
    surface: str  # inside the tray (or the whole frame)
    felt: str  # felt colour name when surface == "felt"
    table_surface: str  # outside the tray
    tray: TraySpec | None
    camera_height_px: float
    light_azimuth_deg: float
    light_elevation_deg: float
    shadow_strength: float
    white_balance: tuple[float, float, float]  # BGR gains: warm or cool light
    exposure: float
    noise_sigma: float
    jpeg_quality: int | None  # in-memory JPEG round trip, None for a clean render
    dice: tuple[DieSpec, ...] = field(default_factory=tuple)
    theme: str = "plain"


def die_size_px(size_wh: tuple[int, int], rng: np.random.Generator) -> float:
    """A scene's nominal die size, scaled with the frame's pixel count."""
    scale = math.sqrt(size_wh[0] * size_wh[1] / REFERENCE_PIXELS)
    return float(rng.uniform(*DIE_PX_AT_2MP) * scale)


def random_side_values(value: int, rng: np.random.Generator) -> tuple[int, int]:
    """Values for the local +x and +y faces consistent with opposite faces summing to 7."""
    pairs = [p for p in ((1, 6), (2, 5), (3, 4)) if value not in p]
    rng.shuffle(pairs)
    return (int(rng.choice(pairs[0])), int(rng.choice(pairs[1])))
