"""The calibrated tray: its corners and seat zones, and a read limited to the tray.

The calibration page saves `calibration/tray.json` in the data folder:

    {"corners": [[x, y], [x, y], [x, y], [x, y]],
     "zones": [{"name": "Ana", "polygon": [[x, y], ...]}, ...]}

(pixels of the camera's frame; `corners` may be empty). The station loads it at
start and the page replaces it while running. `limit_to_tray` keeps a read to
what lies on the tray: a die answered beyond it is refused ("outside the
tray"), anything refused beyond it (the table, a cup, the tray's rim) is dropped.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from station.config import Zone
from station.errors import StationError
from station.table import inside
from vision.types import Reading, Rejection

Point = tuple[float, float]
LAYOUT_FILE = Path("calibration") / "tray.json"  # under the data folder
OUTSIDE_TRAY = "outside the tray"  # why a die answered beyond the tray is refused


class LayoutError(StationError, ValueError):
    """A tray layout (tray.json, or one sent by the page) that cannot be used; says why."""


@dataclass(frozen=True)
class Layout:
    """The tray's corners (none, or 4) and the seat zones drawn on the calibration page."""

    corners: tuple[Point, ...] = ()
    zones: tuple[Zone, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "corners": [list(p) for p in self.corners],
            "zones": [{"name": z.name, "polygon": [list(p) for p in z.polygon]}
                      for z in self.zones],
        }


def points(raw: Any, where: str, at_least: int) -> tuple[Point, ...]:
    """`raw` as (x, y) pixel points: a list of at least `at_least` [x, y] pairs, x, y >= 0."""
    if not isinstance(raw, list) or len(raw) < at_least or not all(
            isinstance(p, list) and len(p) == 2
            and all(isinstance(c, (int, float)) and not isinstance(c, bool)
                    and math.isfinite(c) and c >= 0 for c in p)
            for p in raw):
        raise LayoutError(f"{where}: expected {at_least} or more [x, y] points in pixels")
    return tuple((float(x), float(y)) for x, y in raw)


def parse_layout(raw: Any) -> Layout:
    """A Layout from its JSON object; LayoutError names the first bad field."""
    if not isinstance(raw, dict):
        raise LayoutError("expected a JSON object with corners and zones")
    corners = points(raw.get("corners", []), "corners", 0)
    if corners and len(corners) != 4:
        raise LayoutError("corners: expected exactly 4 points (or none)")
    zones_raw = raw.get("zones", [])
    if not isinstance(zones_raw, list):
        raise LayoutError("zones: expected a list of {name, polygon}")
    zones = []
    for i, z in enumerate(zones_raw):
        if not isinstance(z, dict) or not isinstance(z.get("name"), str) or not z["name"].strip():
            raise LayoutError(f"zones[{i}]: expected a name and a polygon")
        zones.append(Zone(z["name"].strip(), points(z.get("polygon"), f"zones[{i}].polygon", 3)))
    if len({z.name for z in zones}) != len(zones):
        raise LayoutError("zones: two zones have the same name")
    return Layout(corners, tuple(zones))


def layout_path(data_folder: str | Path) -> Path:
    return Path(data_folder) / LAYOUT_FILE


def load_layout(data_folder: str | Path) -> Layout | None:
    """The saved layout of the data folder; None if none was saved; LayoutError if unusable."""
    path = layout_path(data_folder)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise LayoutError(f"{path} cannot be read: {exc}") from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LayoutError(f"{path} is not valid JSON: {exc}") from None
    try:
        return parse_layout(raw)
    except LayoutError as exc:
        raise LayoutError(f"{path}: {exc}") from None


def tray_polygon(corners: Sequence[Point]) -> tuple[Point, ...]:
    """The corners in order around their centre, so that corners dragged in any order
    still make the tray's outline (a tray is convex) rather than a bow tie."""
    if not corners:
        return ()
    cx = sum(p[0] for p in corners) / len(corners)
    cy = sum(p[1] for p in corners) / len(corners)
    return tuple(sorted(corners, key=lambda p: math.atan2(p[1] - cy, p[0] - cx)))


def limit_to_tray(reading: Reading, corners: Sequence[Point]) -> Reading:
    """The read of what lies on the tray. A die answered with its centre beyond the tray is
    refused as "outside the tray" (the player throws again); a refusal beyond the tray is
    dropped (the table, a cup, the tray's rim: not a throw). No corners: unchanged."""
    polygon = tray_polygon(corners)
    if len(polygon) < 3:
        return reading
    kept = tuple(d for d in reading.dice if inside(d.center, polygon))
    off = tuple(
        Rejection(d.center, OUTSIDE_TRAY, d.outline, detail=f"{d.kind} read as {d.value!r}")
        for d in reading.dice if not inside(d.center, polygon)
    )
    refused = tuple(r for r in reading.rejected if inside(r.center, polygon))
    if len(kept) == len(reading.dice) and len(refused) == len(reading.rejected):
        return reading
    return replace(reading, dice=kept, rejected=refused + off)
