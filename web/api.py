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
import threading
import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, request, session

from rules.text import said, text_of
from station.errors import CameraError, Misfit, NoOpenGame, NotAccepted, StationError
from station.storage import DiskFull

bp = Blueprint("api", __name__, url_prefix="/api")
READ_STATUS_HTTP = {"stored": 200, "refused": 422, "busy": 409, "camera": 503, "no_game": 409,
                    "disk_full": 507}
SSE_RETRY_MS = 2000  # a page reconnects this long after its stream ends, with Last-Event-ID
SSE_FULL_RETRY_MS = 10_000  # ... and this long after being told every stream slot is taken
SSE_MAX_AGE_S = 300.0  # default of app config SSE_MAX_AGE_S: a stream's longest life
MAX_EVENT_ID = 2**63 - 1  # SQLite's largest integer


class StreamSlots:
    """Live streams open at once. waitress holds one thread per open stream, so streams are
    capped below its thread count (app config SSE_MAX_STREAMS, set by station.server) and
    API calls (the GM's read button) always find a thread; a page over the cap is told to
    come back later (it reconnects by itself with its Last-Event-ID, losing nothing)."""

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self.open = 0
        self._lock = threading.Lock()

    def acquire(self) -> bool:
        with self._lock:
            if self.limit is not None and self.open >= self.limit:
                return False
            self.open += 1
            return True

    def release(self) -> None:
        with self._lock:
            self.open -= 1


def stream_slots() -> StreamSlots:
    slots = current_app.extensions.get("sse_slots")
    if slots is None:
        slots = current_app.extensions["sse_slots"] = StreamSlots(
            current_app.config.get("SSE_MAX_STREAMS"))
    return slots


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
        data = json.loads(raw, parse_constant=_not_json, parse_float=_finite)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        abort(400, f"the body is not valid JSON: {exc}")
    except RecursionError:
        abort(400, "the body is JSON nested too deeply")
    if not isinstance(data, dict):
        abort(400, "the body must be a JSON object")
    return data


def _not_json(name: str) -> float:
    raise json.JSONDecodeError(f"{name} is not a JSON number", name, 0)


def _finite(text: str) -> float:
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise json.JSONDecodeError(f"number {text[:20]} is too large", text, 0)
    return value


@bp.errorhandler(StationError)
def station_error(exc: StationError):
    code = 400
    if isinstance(exc, NoOpenGame):
        code = 409
    elif isinstance(exc, CameraError):
        code = 503
    elif isinstance(exc, DiskFull):
        code = 507  # Insufficient Storage: nothing was stored
    elif isinstance(exc, (NotAccepted, Misfit)):
        code = 400
    return jsonify(said("error", text_of(exc))), code


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
        out.update(said("error", outcome.message))  # and its template: the page's language
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


def known_id(game_id: int) -> int:
    """404 for an id SQLite cannot even hold (it would raise OverflowError)."""
    if game_id > MAX_EVENT_ID:
        abort(404, f"no game {game_id}")
    return game_id


@bp.get("/games/<int:game_id>/export.json")
def export_json(game_id: int):
    return jsonify(station().export_script(known_id(game_id)))


@bp.get("/games/<int:game_id>/export.csv")
def export_csv(game_id: int):
    known_id(game_id)
    return Response(station().export_csv(game_id), mimetype="text/csv",
                    headers={"Content-Disposition": f"attachment; filename=game-{game_id}.csv"})


def _sse(message: dict[str, Any]) -> str:
    return f"id: {message['id']}\nevent: {message['type']}\ndata: {json.dumps(message)}\n\n"


@bp.get("/events")
def events():
    """Server-sent events: one per stored event; catch up from Last-Event-ID (or ?after=).

    A stream lasts at most SSE_MAX_AGE_S, then ends; the page reconnects after `retry`
    with its Last-Event-ID (set at the start of every stream, before any event) and
    catches up, so a page that vanished without closing its socket frees its thread.
    """
    st = station()
    raw_last = request.headers.get("Last-Event-ID") or request.args.get("after")
    try:
        last = int(raw_last) if raw_last is not None else None
    except ValueError:
        abort(400, "Last-Event-ID must be an event id (a whole number)")
    if last is not None and not 0 <= last <= MAX_EVENT_ID:
        abort(400, "Last-Event-ID must be an event id (0 or more)")
    keepalive_s = float(current_app.config["SSE_KEEPALIVE_S"])
    max_age_s = float(current_app.config.get("SSE_MAX_AGE_S", SSE_MAX_AGE_S) or 0) or float("inf")
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    slots = stream_slots()
    if not slots.acquire():
        return Response(f"retry: {SSE_FULL_RETRY_MS}\n: every live stream is taken; "
                        "reconnecting later\n\n", mimetype="text/event-stream", headers=headers)

    def stream(q: queue.Queue) -> Iterator[str]:
        try:
            sent = last if last is not None else st.store.last_event_id()
            yield f"retry: {SSE_RETRY_MS}\nid: {sent}\n\n"
            if last is not None:
                for message in st.events_after(last):
                    sent = message["id"]
                    yield _sse(message)
            ends = time.monotonic() + max_age_s
            while True:
                left = ends - time.monotonic()
                if left <= 0:
                    return  # the page reconnects with Last-Event-ID = sent
                try:
                    message = q.get(timeout=min(keepalive_s, left))
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
    response = Response(stream(q), mimetype="text/event-stream", headers=headers)
    # on close, even if the stream never started (the generator's finally would not run)
    response.call_on_close(lambda: (st.unsubscribe(q), slots.release()))
    return response
