"""The JSON API of FORMATS.md §4: the pages and outside tools use it.

Reads: GET /api/state, /api/last-read, /api/events (server-sent events, with
catch-up from Last-Event-ID), /api/games (history) and its exports.
Mutations (GM only: `Authorization: Bearer TOKEN` or the GM page's session):
POST /api/read, /api/games, /api/events.
"""

from __future__ import annotations

import hmac
import json
import queue
import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, request, session

from station.errors import CameraError, Misfit, NoOpenGame, NotAccepted, StationError

bp = Blueprint("api", __name__, url_prefix="/api")
READ_STATUS_HTTP = {"stored": 200, "refused": 422, "busy": 409, "camera": 503, "no_game": 409}


def station():
    st = current_app.extensions.get("station")
    if st is None:
        abort(503, "the station is not running")
    return st


def require_gm() -> None:
    """Mutating calls need the GM token (header) or a GM session (the GM page)."""
    token = current_app.config.get("GM_TOKEN") or ""
    if session.get("gm"):
        return
    header = request.headers.get("Authorization", "")
    given = header[7:].strip() if header.startswith("Bearer ") else ""
    if not token:
        abort(401, "no GM token is configured (web.gm_token or DICESTATION_GM_TOKEN)")
    if not given or not hmac.compare_digest(given.encode(), token.encode()):
        abort(401, "GM credential missing or wrong: send 'Authorization: Bearer TOKEN'")


def body() -> dict[str, Any]:
    """The request's JSON object, or 400 saying what is wrong with it."""
    raw = request.get_data(cache=True)
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        abort(400, f"the body is not valid JSON: {exc}")
    if not isinstance(data, dict):
        abort(400, "the body must be a JSON object")
    return data


@bp.errorhandler(StationError)
def station_error(exc: StationError):
    code = 400
    if isinstance(exc, NoOpenGame):
        code = 409
    elif isinstance(exc, CameraError):
        code = 503
    elif isinstance(exc, (NotAccepted, Misfit)):
        code = 400
    return jsonify(error=str(exc)), code


@bp.get("/state")
def state():
    return jsonify(station().state_json())


@bp.get("/last-read")
def last_read():
    read = station().last_read()
    if read is None:
        abort(404, "no read yet in this game")
    return jsonify(read)


@bp.post("/read")
def read():
    require_gm()
    data = body()
    override = data.get("override", False)
    if not isinstance(override, bool):
        abort(400, "'override' must be true or false")
    unknown = sorted(set(data) - {"override"})
    if unknown:
        abort(400, f"unknown field {unknown[0]!r} (known: override)")
    outcome = station().press(override=override)
    out = outcome.to_json()
    if outcome.status != "stored":
        out["error"] = outcome.message
    return jsonify(out), READ_STATUS_HTTP.get(outcome.status, 500)


@bp.post("/games")
def start_game():
    require_gm()
    data = body()
    unknown = sorted(set(data) - {"game", "players", "options"})
    if unknown:
        abort(400, f"unknown field {unknown[0]!r} (known: game, players, options)")
    for key in ("game", "players"):
        if key not in data:
            abort(400, f"missing {key!r}: send {{\"game\", \"players\", \"options\"}}")
    return jsonify(station().start_game(data["game"], data["players"], data.get("options"))), 201


@bp.post("/events")
def post_event():
    require_gm()
    data = body()
    if not data:
        abort(400, "an event is a JSON object with a 'type'")
    return jsonify(station().post_event(data)), 201


@bp.get("/games")
def games():
    return jsonify(station().history())


@bp.get("/games/<int:game_id>/export.json")
def export_json(game_id: int):
    return jsonify(station().export_script(game_id))


@bp.get("/games/<int:game_id>/export.csv")
def export_csv(game_id: int):
    return Response(station().export_csv(game_id), mimetype="text/csv",
                    headers={"Content-Disposition": f"attachment; filename=game-{game_id}.csv"})


def _sse(message: dict[str, Any]) -> str:
    return f"id: {message['id']}\nevent: {message['type']}\ndata: {json.dumps(message)}\n\n"


@bp.get("/events")
def events():
    """Server-sent events: one per stored event; catch up from Last-Event-ID (or ?after=)."""
    st = station()
    raw_last = request.headers.get("Last-Event-ID") or request.args.get("after")
    try:
        last = int(raw_last) if raw_last is not None else None
    except ValueError:
        abort(400, "Last-Event-ID must be an event id (a whole number)")
    keepalive_s = float(current_app.config["SSE_KEEPALIVE_S"])

    def stream(q: queue.Queue) -> Iterator[str]:
        try:
            sent = last if last is not None else st.store.last_event_id()
            yield "retry: 2000\n\n"
            if last is not None:
                for message in st.events_after(last):
                    sent = message["id"]
                    yield _sse(message)
            while True:
                try:
                    message = q.get(timeout=keepalive_s)
                except queue.Empty:
                    yield f": keepalive {time.time():.0f}\n\n"
                    continue
                if message["id"] <= sent:
                    continue  # already sent while catching up
                sent = message["id"]
                yield _sse(message)
        finally:
            st.unsubscribe(q)

    q = st.subscribe()  # before the catch-up, so nothing falls between the two
    return Response(stream(q), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
