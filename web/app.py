"""The Flask app factory: one blueprint per concern, views thin over the station.

    app = create_app({"GM_TOKEN": "secret"}, station)
    waitress.serve(app, ...)     # never Flask's development server

`config` is a mapping of Flask config keys; GM_TOKEN falls back to the
environment variable DICESTATION_GM_TOKEN. `station` is a running
`station.station.Station` (or None: the API then answers 503).
"""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Mapping
from typing import Any

from flask import Flask, abort, current_app, jsonify, send_from_directory
from werkzeug.exceptions import HTTPException

PHOTO_NAME = re.compile(r"^\d+(-annotated)?\.jpg$")
MAX_BODY_BYTES = 1_000_000  # JSON calls are small; uploads (another blueprint) set their own


def create_app(config: Mapping[str, Any] | None = None, station: Any = None) -> Flask:
    app = Flask(__name__)
    app.config.update(
        GM_TOKEN=os.environ.get("DICESTATION_GM_TOKEN", ""),
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        SECRET_KEY=secrets.token_hex(16),
        SSE_KEEPALIVE_S=15.0,
    )
    if config:
        app.config.update(dict(config))
    app.extensions["station"] = station

    from web.api import bp as api

    app.register_blueprint(api)

    @app.get("/photos/<name>")
    def photo(name: str):
        st = current_app.extensions["station"]
        if st is None or not PHOTO_NAME.match(name):
            abort(404)
        return send_from_directory(st.photo_folder(), name, mimetype="image/jpeg",
                                   max_age=3600)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        # every error as a short JSON message: no HTML, no stack traces
        return jsonify(error=exc.description or exc.name), exc.code

    # the pages (web.pages): table at / (JSON description for tools asking for JSON),
    # GM screen, calibration, statistics, upload; CSRF guard and HTML/JSON error pages
    from web.pages import register_pages

    register_pages(app)
    return app
