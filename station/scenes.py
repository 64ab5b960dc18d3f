"""Recorded sessions made by the project: simple drawn scenes with their labels.

A scene is a felt tray seen from above with dice drawn on it (d6 with pips,
other kinds with their numeral, tabas as bone ovals with the face's initial)
and a FORMATS.md §1 label file beside each image. `session_from_script`
turns a game script into the photos a table would take playing it: one photo
per throw, or one per step where several players throw at once (each
player's dice in their seat strip; Dados Centrales by colour). Used for the
bundled demo session and the station's tests. (calibration.synth renders
realistic scenes for measuring the reader; these only need to be labelled.)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from rules import Event, EventType, get_game
from rules.base import HOUSE

FELT_BGR = (40, 110, 30)
BODY_BGR = {"white": (235, 235, 232), "red": (40, 36, 190), "green": (60, 160, 40),
            "blue": (170, 80, 30), "black": (35, 32, 32), "bone": (190, 215, 225)}
INK_BGR = {"white": (30, 30, 30), "bone": (40, 50, 60)}
PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}
SIZE_WH = (800, 600)
DIE_PX = 56
MARGIN_PX = 50


@dataclass(frozen=True)
class SceneDie:
    kind: str
    value: int | str
    colour: str
    center: tuple[float, float]


def draw_scene(dice: Sequence[SceneDie], unreadable: Sequence[tuple[tuple[float, float], str]] = (),
               size_wh: tuple[int, int] = SIZE_WH, seed: int = 0) -> tuple[np.ndarray, dict]:
    """The image and its label object."""
    rng = np.random.default_rng(seed)
    w, h = size_wh
    img = np.zeros((h, w, 3), np.uint8)
    img[:] = FELT_BGR
    noise = rng.normal(0, 3, img.shape)
    img = np.clip(img + noise, 0, 255).astype(np.uint8)
    for d in dice:
        _draw_die(img, d, float(rng.uniform(0, 90)))
    for center, _why in unreadable:
        _draw_die(img, SceneDie("d6", 5, "white", center), 30.0, tilt=True)
    labels = {
        "dice": [{"kind": d.kind, "value": d.value, "colour": d.colour,
                  "center": [round(d.center[0], 1), round(d.center[1], 1)]} for d in dice],
        "unreadable": [{"center": list(c), "why": why} for c, why in unreadable],
    }
    return img, labels


def _draw_die(img: np.ndarray, d: SceneDie, angle: float, tilt: bool = False) -> None:
    cx, cy = d.center
    half = DIE_PX / 2
    body = BODY_BGR.get(d.colour, BODY_BGR["white"])
    ink = INK_BGR.get(d.colour, (245, 245, 245))
    if d.kind == "taba":
        cv2.ellipse(img, (int(cx), int(cy)), (int(half * 1.3), int(half * 0.7)), angle, 0, 360,
                    body, -1, cv2.LINE_AA)
        cv2.putText(img, str(d.value)[0].upper(), (int(cx - 9), int(cy + 9)),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.8, ink, 2, cv2.LINE_AA)
        return
    sx = 0.6 if tilt else 1.0  # a cocked die shows a squashed face
    rect = ((cx, cy), (DIE_PX * sx, DIE_PX), angle)
    box = cv2.boxPoints(rect).astype(np.int32)
    cv2.fillConvexPoly(img, box, body, cv2.LINE_AA)
    if d.kind == "d6" and isinstance(d.value, int) and d.value in PIPS:
        a = np.deg2rad(angle)
        ca, sa = np.cos(a), np.sin(a)
        for px, py in PIPS[d.value]:
            ox, oy = px * DIE_PX * 0.27 * sx, py * DIE_PX * 0.27
            x, y = cx + ox * ca - oy * sa, cy + ox * sa + oy * ca
            cv2.circle(img, (int(round(x)), int(round(y))), 5, ink, -1, cv2.LINE_AA)
    else:
        text = str(d.value) if d.kind != "d10t" else f"{int(d.value):02d}"
        scale = 0.8 if len(text) < 2 else 0.7
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
        cv2.putText(img, text, (int(cx - tw / 2), int(cy + th / 2)), cv2.FONT_HERSHEY_SIMPLEX,
                    scale, ink, 2, cv2.LINE_AA)


def _spots(rng: np.random.Generator, n: int, box: tuple[float, float, float, float],
           taken: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """n die centres inside box (x0, y0, x1, y1), not touching each other."""
    x0, y0, x1, y1 = box
    out = []
    for _ in range(n):
        for _attempt in range(500):
            p = (float(rng.uniform(x0, x1)), float(rng.uniform(y0, y1)))
            if all((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 > (DIE_PX * 1.6) ** 2 for q in taken):
                break
        taken.append(p)
        out.append(p)
    return out


@dataclass(frozen=True)
class Photo:
    """One recorded photo of a session: the throw events it holds, its dice."""

    events: tuple[dict, ...]
    dice: tuple[SceneDie, ...]
    unreadable: tuple[tuple[tuple[float, float], str], ...] = ()


def session_from_script(script: dict[str, Any], *, seed: int = 0,
                        size_wh: tuple[int, int] = SIZE_WH,
                        colours: dict[str, str] | None = None) -> list[Photo | dict]:
    """The steps of a table playing `script`: Photo for throws, the event dict for decisions.

    Throws the game takes from several players at once (its `next` lists
    them all, or Dados Centrales' colour roles) share one photo, each player's
    dice in their seat strip (left to right in seat order).
    """
    colours = {"central": "red", "house": "green", "bettor": "blue", **(colours or {})}
    rng = np.random.default_rng(seed)
    game = get_game(script["game"])
    state = game.new(script["players"], script.get("options"))
    steps: list[Photo | dict] = []
    group: list[dict] = []
    group_players: set[str] = set()
    w, h = size_wh

    def flush() -> None:
        if not group:
            return
        taken: list[tuple[float, float]] = []
        dice: list[SceneDie] = []
        shared = len(group) > 1
        for ev in group:
            player = ev["player"]
            if shared and not (script["game"] == "dados_centrales" and player == HOUSE):
                seat = list(state.players).index(player)
                n = len(state.players)
                box = (w * seat / n + MARGIN_PX * 0.8, MARGIN_PX, w * (seat + 1) / n - MARGIN_PX * 0.8,
                       h - MARGIN_PX)
            else:
                box = (MARGIN_PX, MARGIN_PX, w - MARGIN_PX, h - MARGIN_PX)
            colour = "white"
            if script["game"] == "dados_centrales":
                colour = (colours["central"] if ev.get("role") == "central"
                          else colours["house"] if player == HOUSE else colours["bettor"])
            values = [d["value"] if isinstance(d, dict) else d for d in ev["dice"]]
            kinds = _kinds_for(script, values)
            if kinds[0] == "taba":
                colour = "bone"
            # left to right in the script's order: the station orders a throw's dice so
            spots = sorted(_spots(rng, len(values), box, taken))
            dice.extend(SceneDie(k, v, colour, c) for k, v, c in zip(kinds, values, spots, strict=True))
        steps.append(Photo(tuple(group), tuple(dice)))
        group.clear()
        group_players.clear()

    step: set[str] = set()  # the players of the step the current group belongs to
    for raw in script.get("events", []):
        event = Event.from_json(raw)
        if event.type is not EventType.THROW:
            flush()
            steps.append(raw)
            state = game.apply(state, event)
            continue
        nxt = game.next(state)
        if group and (event.player in group_players or event.player not in step):
            flush()
        if not group:
            together = nxt is not None and (
                len(nxt.players) > 1 or script["game"] == "dados_centrales"
            )
            step = set(nxt.players) if together and len(nxt.players) > 1 else (
                set(state.players) | {HOUSE} if together else {event.player})
        group.append(raw)
        group_players.add(event.player)
        state = game.apply(state, event)
        after = game.next(state)
        if after is None or after.action != "throw" or not set(after.players) <= (
            step - group_players
        ):
            flush()
    flush()
    return steps


def _kinds_for(script: dict[str, Any], values: list) -> list[str]:
    game = script["game"]
    if game == "gemelos":
        return ["d8"] * len(values)
    if game == "barras":
        return ["d10t", "d10"]
    if game == "rey_y_mendigo":
        dice = (script.get("options") or {}).get("dice", "taba")
        return [dice] * len(values)
    return ["d6"] * len(values)


def write_session(folder: str | Path, steps: Sequence[Photo | dict], *,
                  quality: int = 80, size_wh: tuple[int, int] = SIZE_WH) -> list[Path]:
    """Write each Photo as NNN.jpg + NNN.json; returns the image paths."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    photos = [s for s in steps if isinstance(s, Photo)]
    for i, photo in enumerate(photos):
        img, labels = draw_scene(photo.dice, photo.unreadable, size_wh, seed=i)
        path = folder / f"{i:03d}.jpg"
        cv2.imwrite(str(path), img, [cv2.IMWRITE_JPEG_QUALITY, quality])
        (folder / f"{i:03d}.json").write_text(json.dumps(labels, indent=1) + "\n")
        paths.append(path)
    return paths


DEMO_SCRIPT = Path(__file__).parent / "data" / "demo_script.json"
DEMO_FOLDER = Path(__file__).parent / "data" / "demo"
DEMO_REFUSED_AT = 4  # a photo with a 4th die rolled in, before Ana's 5-5-2: the table throws again


def make_demo_session(folder: str | Path = DEMO_FOLDER) -> list[Path]:
    """(Re)build the bundled demo session from station/data/demo_script.json."""
    script = json.loads(DEMO_SCRIPT.read_text())
    steps = session_from_script(script, seed=7)
    photos = [s for s in steps if isinstance(s, Photo)]
    throw = photos[DEMO_REFUSED_AT]
    stray = SceneDie("d6", 1, "white", (SIZE_WH[0] - 90.0, 80.0))
    photos.insert(DEMO_REFUSED_AT, Photo((), throw.dice + (stray,)))
    for old in Path(folder).glob("[0-9][0-9][0-9].*"):
        old.unlink()
    return write_session(folder, photos, quality=70)


if __name__ == "__main__":
    for p in make_demo_session():
        print(p)
