"""The table page: read-only, large type, live (GET /, also /table).

A tool asking for JSON at / gets the station's short description instead.
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, render_template

from web.security import wants_json

bp = Blueprint("table", __name__)


@bp.get("/")
@bp.get("/table")
def page():
    st = current_app.extensions.get("station")
    if wants_json():
        state = st.state_json() if st is not None else {}
        return jsonify(station="dicestation", game=state.get("game"),
                       api=["/api/state", "/api/last-read", "/api/events", "/api/read",
                            "/api/games", "/api/stats"])
    return render_template("table.html")
