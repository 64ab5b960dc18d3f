"""Calibration pages: the empty tray, its corners and seat zones, teaching a dice set, evaluation.

Files live in the data folder: `calibration/empty.jpg`, `calibration/tray.json`
(corners and zones, station.tray; the station uses them at once and loads them at
every start), and
`calibration/sets/NAME/` (labelled photos, FORMATS.md §1: a data set that
`dicestation teach` and `eval` read). Teaching calls `calibration.teach` and
saves the profile with `calibration.profile_io` when they are installed, in
`profiles/NAME/`, and the station reads with it from then on (the GM may
choose another taught set, or none: `POST /calibrate/profile`).
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

from flask import Blueprint, abort, current_app, jsonify, render_template, request, send_file

from rules.base import KIND_VALUES
from station.annotate import encode_jpeg
from station.store import write_atomic
from station.tray import Layout, LayoutError, parse_layout
from station.tray import points as tray_points
from station.vision_reader import SET_NAME
from web.api import body
from web.security import decode_image, gm_required

bp = Blueprint("calibrate", __name__, url_prefix="/calibrate")


def _station():
    st = current_app.extensions.get("station")
    if st is None:
        abort(503, "the station is not running")
    return st


def folder() -> Path:
    path = Path(_station().store.folder) / "calibration"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _layout() -> dict[str, Any]:
    """The corners and zones in effect (those of tray.json, or the config's zones)."""
    st = _station()
    return Layout(st.tray_corners, st.seating.zones).to_json()


def _sets() -> list[dict[str, Any]]:
    root = folder() / "sets"
    if not root.exists():
        return []
    return [{"name": d.name, "photos": len(list(d.glob("*.json")))} for d in sorted(root.iterdir()) if d.is_dir()]


@bp.get("/")
@gm_required
def page():
    reader = _station().reader
    return render_template("calibrate.html", layout=_layout(), sets=_sets(),
                           profiles=reader.taught() if hasattr(reader, "taught") else [],
                           in_use=getattr(reader, "in_use", None),
                           profile_problem=getattr(reader, "problem", ""),
                           layout_problem=_station().layout_problem,
                           has_empty=(folder() / "empty.jpg").exists(),
                           can_teach=importlib.util.find_spec("calibration.teach") is not None)


@bp.get("/empty.jpg")
@gm_required
def empty_photo():
    path = folder() / "empty.jpg"
    if not path.exists():
        abort(404, "no photo of the empty tray yet: capture one")
    return send_file(path, mimetype="image/jpeg", max_age=0)


@bp.post("/empty")
@gm_required
def capture_empty():
    """Photograph the empty tray with the station's camera (one read at a time)."""
    st = _station()
    if not st._pending.acquire(blocking=False):
        abort(409, "a read is in progress: try again in a moment")
    try:
        frame = st.camera.capture()
    except Exception as exc:  # noqa: BLE001 - a camera error is told to the page
        abort(503, f"camera problem: {exc}")
    finally:
        st._pending.release()
    write_atomic(folder() / "empty.jpg", encode_jpeg(frame.image_bgr, 90))
    h, w = frame.image_bgr.shape[:2]
    return jsonify(size=[w, h], url="/calibrate/empty.jpg")


def _points(raw: Any, where: str, at_least: int) -> list[list[float]]:
    try:
        return [list(p) for p in tray_points(raw, where, at_least)]
    except LayoutError as exc:
        abort(400, str(exc))


@bp.post("/layout")
@gm_required
def save_layout():
    """Save the tray corners and seat zones; they take effect at once (and at every start)."""
    data = body()
    unknown = sorted(set(data) - {"corners", "zones"})
    if unknown:
        abort(400, f"unknown field {unknown[0]!r} (known: corners, zones)")
    try:
        layout = parse_layout(data)
    except LayoutError as exc:
        abort(400, str(exc))
    write_atomic(folder() / "tray.json", json.dumps(layout.to_json(), indent=1).encode())
    _station().set_layout(layout)
    return jsonify(layout.to_json())


@bp.post("/teach-photo")
@gm_required
def teach_photo():
    """One labelled photo of a dice set: `photo` (file), `set`, `labels` (JSON list of dice)."""
    name = request.form.get("set", "")
    if not SET_NAME.match(name):
        abort(400, "set: a name of letters, digits, - or _ (up to 40)")
    try:
        labels = json.loads(request.form.get("labels", ""))
    except json.JSONDecodeError:
        abort(400, "labels: not valid JSON")
    if not isinstance(labels, list) or not labels:
        abort(400, "labels: click each die on the photo and give its value")
    dice = []
    for i, d in enumerate(labels):
        kind = d.get("kind") if isinstance(d, dict) else None
        if kind not in KIND_VALUES or d.get("value") not in KIND_VALUES[kind]:
            abort(400, f"labels[{i}]: a kind ({', '.join(KIND_VALUES)}) and one of its values")
        center = _points([d.get("center")], f"labels[{i}].center", 1)[0]
        dice.append({"kind": kind, "value": d["value"], "center": center, "set": name})
    f = request.files.get("photo")
    image = decode_image(f.read(current_app.config["MAX_UPLOAD_BYTES"] + 1) if f else b"")
    target = folder() / "sets" / name
    target.mkdir(parents=True, exist_ok=True)
    n = len(list(target.glob("*.json")))
    write_atomic(target / f"{n:03d}.jpg", encode_jpeg(image, 92))
    write_atomic(target / f"{n:03d}.json", json.dumps({"dice": dice}, indent=1).encode())
    return jsonify(set=name, photo=n, dice=len(dice)), 201


def _set_folder() -> tuple[str, Path]:
    name = body().get("set", "")
    if not isinstance(name, str) or not SET_NAME.match(name):
        abort(400, "set: the name of a dice set")
    path = folder() / "sets" / name
    if not path.is_dir():
        abort(404, f"no dice set {name!r}: add labelled photos first")
    return name, path


@bp.post("/teach")
@gm_required
def teach():
    name, path = _set_folder()
    try:
        teach_mod = importlib.import_module("calibration.teach")
        profile_io = importlib.import_module("calibration.profile_io")
    except ImportError:
        abort(501, "teaching is not installed on this station (calibration.teach)")
    try:
        profile = teach_mod.teach(path)
    except ValueError as exc:
        abort(400, f"nothing could be taught from {name}: {exc}")
    out = profile_io.save(profile, Path(_station().store.folder) / "profiles" / name)
    in_use = None
    reader = _station().reader
    if hasattr(reader, "use"):  # the station reads with the set just taught
        try:
            reader.use(name)
            in_use = name
        except ValueError as exc:
            abort(500, f"the set {name} was taught but cannot be used: {exc}")
    return jsonify(set=name, profile=str(out), in_use=in_use)


@bp.post("/profile")
@gm_required
def choose_profile():
    """The taught dice set the station reads with: `{"set": NAME}`, or `{"set": null}` for none."""
    data = body()
    unknown = sorted(set(data) - {"set"})
    if unknown or "set" not in data:
        abort(400, "give {\"set\": NAME} (a taught dice set) or {\"set\": null} (read untaught)")
    reader = _station().reader
    if not hasattr(reader, "use"):
        abort(501, "this station's reader does not read taught sets (read.reader is not 'vision')")
    try:
        reader.use(data["set"])
    except ValueError as exc:
        abort(400, str(exc))
    return jsonify(in_use=reader.in_use)


@bp.post("/evaluate")
@gm_required
def evaluate():
    from calibration.dataset import DatasetError, load_dataset
    from calibration.evaluate import evaluate as run

    name, path = _set_folder()
    try:
        samples = load_dataset(path)
    except DatasetError as exc:
        abort(400, f"the set {name} cannot be read: {exc}")
    report = run(samples, _station().reader)
    return jsonify(set=name, lines=report.lines(), accuracy=report.accuracy,
                   images=len(report.images))
