"""The statistics page and GET /api/stats: faces seen and a fairness verdict per die set.

Counts come from every stored game's reads in force (corrections applied,
undone reads left out). Dice are judged against equal odds, tabas against
their own baseline (the first half of their throws, until a baseline is stored).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from flask import Blueprint, abort, current_app, jsonify, render_template, request

from station import stats
from station.session import replay

bp = Blueprint("stats", __name__)


def collect(st: Any) -> tuple[list[tuple[str, list[Any]]], dict[str, list[Any]]]:
    """(player, dice) of every throw read by the camera, and each set's values in order."""
    throws: list[tuple[str, list[Any]]] = []
    ordered: dict[str, list[Any]] = defaultdict(list)
    for row in st.store.games():
        try:
            rp = replay(row, st.store.events(row.id))
        except Exception:  # noqa: BLE001 - a game that no longer replays is left out of the counts
            continue
        for read in rp.reads:
            for t in read.data.get("throws", []):
                event = t["event"]
                dice = event.get("dice", [])
                throws.append((event.get("player", "?"), dice))
                for d in dice:
                    die = d if isinstance(d, dict) else {"kind": "d6", "value": d}
                    ordered[stats.die_set(die)].append(die.get("value"))
    return throws, ordered


def report(st: Any, face_set: str | None = None, face: Any = None) -> dict[str, Any]:
    throws, ordered = collect(st)
    seen = stats.faces_seen(throws)
    sets = []
    for name, fc in seen["sets"].items():
        if fc.kind == "taba":
            values = [v for v in ordered[name] if v in stats.FACES["taba"]]
            baseline, later = stats.split_baseline(values)
            verdict = stats.judge(later, baseline)
        else:
            verdict = stats.judge(fc)
        sets.append({"set": name, "kind": fc.kind, "n": fc.n, "faces": list(stats.FACES[fc.kind]),
                     "counts": fc.vector(), "verdict": verdict.to_json()})
    players = [{"player": name, "kind": fc.kind, "n": fc.n, "faces": list(stats.FACES[fc.kind]),
                "counts": fc.vector()} for name, fc in seen["players"].items()]
    out: dict[str, Any] = {"throws": len(throws), "sets": sets, "players": players}
    if face_set is not None:
        fc = seen["sets"].get(face_set)
        if fc is None:
            abort(404, f"no die set {face_set!r} seen yet (seen: {', '.join(seen['sets']) or 'none'})")
        value = face
        if fc.kind != "taba":
            try:
                value = int(face)
            except (TypeError, ValueError):
                abort(400, f"'face' must be a face of a {fc.kind}: {list(stats.FACES[fc.kind])}")
        if value not in stats.FACES[fc.kind]:
            abort(400, f"'face' must be a face of a {fc.kind}: {list(stats.FACES[fc.kind])}")
        out["face_test"] = {"set": face_set, "face": value,
                            **stats.judge_face(fc, value).to_json()}
    return out


def _station():
    st = current_app.extensions.get("station")
    if st is None:
        abort(503, "the station is not running")
    return st


@bp.get("/api/stats")
def api_stats():
    return jsonify(report(_station(), request.args.get("set"), request.args.get("face")))


@bp.get("/stats")
def page():
    face_set = request.args.get("set") or None
    data = report(_station(), face_set, request.args.get("face"))
    return render_template("stats.html", data=data, chosen=face_set,
                           power_note=(stats.throws_needed_chi2(0.05, 5),
                                       stats.throws_needed_binomial(1 / 6, 0.25)))
