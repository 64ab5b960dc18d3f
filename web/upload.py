"""Read an uploaded photo (from a phone) for a table without a Pi camera.

GET /upload: the form. POST /upload (multipart, field `photo`): the photo is
size-limited (413), must decode as an image (400), and is read for the open
game like a press of the button. Answers JSON to callers asking for it.
"""

from __future__ import annotations

from flask import Blueprint, abort, current_app, jsonify, render_template, request

from rules.text import said
from station.photo_read import read_photo
from web.api import READ_STATUS_HTTP
from web.security import decode_image, gm_required, wants_json

bp = Blueprint("upload", __name__)


@bp.get("/upload")
@gm_required
def page():
    return render_template("upload.html", outcome=None)


@bp.post("/upload")
@gm_required
def upload():
    st = current_app.extensions.get("station")
    if st is None:
        abort(503, "the station is not running")
    f = request.files.get("photo")
    if f is None:
        abort(400, "no photo was sent: the form field is 'photo'")
    image = decode_image(f.read(current_app.config["MAX_UPLOAD_BYTES"] + 1))
    override = request.form.get("override") in ("1", "true", "on")
    outcome = read_photo(st, image, override=override)
    code = READ_STATUS_HTTP.get(outcome.status, 500)
    if wants_json():
        out = outcome.to_json()
        if outcome.status != "stored":
            out.update(said("error", outcome.message))  # and its template: the page's language
        return jsonify(out), code
    return render_template("upload.html", outcome=outcome.to_json()), code
