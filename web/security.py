"""The GM credential, CSRF protection, upload checks and error pages.

- The GM logs in once with the token of the config (or DICESTATION_GM_TOKEN);
  the session then carries `gm` (web.api.require_gm accepts it).
- A logged-in session is a cookie, so every unsafe request made with it must
  carry the session's CSRF token (form field `csrf_token` or header
  `X-CSRF-Token`) and, when the browser says where it comes from, come from
  this origin. Calls with `Authorization: Bearer` carry no cookie: no CSRF.
- Uploads are size-limited (413) and must decode as an image (cv2.imdecode).
- Errors are short messages: JSON for the API and for callers asking for
  JSON, a plain page otherwise. Never a stack trace.
"""

from __future__ import annotations

import functools
import hmac
import logging
import secrets
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import numpy as np
from flask import (
    Flask,
    abort,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.exceptions import HTTPException, InternalServerError

from station import images

GM_KEY = "gm"
CSRF_KEY = "csrf"
CSRF_FIELD = "csrf_token"
CSRF_HEADER = "X-CSRF-Token"
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
MAX_UPLOAD_BYTES = 12 * 1024 * 1024  # a phone photo (12 MP JPEG) with room to spare
MAX_UPLOAD_PIXELS = 50_000_000  # refuse decompression bombs before decoding
log = logging.getLogger(__name__)


def gm_token() -> str:
    return current_app.config.get("GM_TOKEN") or ""


def is_gm() -> bool:
    return bool(session.get(GM_KEY))


def bearer_ok() -> bool:
    header = request.headers.get("Authorization", "")
    given = header[7:].strip() if header.startswith("Bearer ") else ""
    token = gm_token()
    return bool(token and given and hmac.compare_digest(given.encode(), token.encode()))


def check_token(given: str) -> bool:
    token = gm_token()
    return bool(token and given and hmac.compare_digest(given.encode(), token.encode()))


def csrf_token() -> str:
    """The session's CSRF token (made on first use)."""
    token = session.get(CSRF_KEY)
    if not token:
        token = secrets.token_urlsafe(24)
        session[CSRF_KEY] = token
    return token


def wants_json() -> bool:
    """JSON for the API and for tools; an HTML page only for browsers asking for one."""
    if request.path.startswith("/api/") or request.is_json:
        return True
    return request.accept_mimetypes.best_match(["application/json", "text/html"]) != "text/html"


def gm_required(view: Callable) -> Callable:
    """A page or call for the GM: pages redirect to the login form, JSON answers 401."""

    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any):
        if is_gm() or bearer_ok():
            return view(*args, **kwargs)
        if request.method == "GET" and not wants_json():
            return redirect(url_for("gm.login", next=request.full_path.rstrip("?")))
        abort(401, "GM credential missing or wrong: log in on /gm/login "
                   "or send 'Authorization: Bearer TOKEN'")

    return wrapped


def _same_origin() -> bool:
    origin = request.headers.get("Origin") or request.headers.get("Referer")
    if not origin or origin == "null":
        return origin != "null"
    return urlsplit(origin).netloc == request.host


def check_csrf() -> None:
    """400 unless the request carries this session's CSRF token."""
    given = request.headers.get(CSRF_HEADER) or ""
    if not given and request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        given = request.form.get(CSRF_FIELD, "")
    expected = session.get(CSRF_KEY) or ""
    if not expected or not given or not hmac.compare_digest(given.encode(), expected.encode()):
        abort(400, "the form is out of date or came from another site (CSRF check): "
                   "reload the page and try again")


def _guard() -> None:
    """Before every request: cookie-authenticated unsafe requests need CSRF and our origin."""
    if request.endpoint in current_app.config.get("UPLOAD_ENDPOINTS", ()):
        request.max_content_length = current_app.config["MAX_UPLOAD_BYTES"]
    if request.method not in UNSAFE_METHODS:
        return None
    if request.headers.get("Authorization", "").startswith("Bearer "):
        return None  # not a cookie: a cross-site page cannot send it
    if not is_gm():
        return None  # nothing to ride on; the login form checks its own token
    if not _same_origin():
        abort(400, "request refused: it came from another site (same-origin check)")
    check_csrf()
    return None


def decode_image(data: bytes) -> np.ndarray:
    """The uploaded bytes as a BGR image, or 400/413 with a clear message.

    The size is read from the file's header before anything is decoded, so a
    photo claiming 50,000 px a side is refused without allocating it.
    """
    if not data:
        abort(400, "no photo was sent: choose a photo file")
    if len(data) > MAX_UPLOAD_BYTES:
        abort(413, f"the photo is too large (limit {MAX_UPLOAD_BYTES // (1024 * 1024)} MB)")
    try:
        return images.decode_image(data, MAX_UPLOAD_PIXELS)
    except images.TooLarge as exc:
        abort(413, str(exc))
    except images.ImageError as exc:
        abort(400, f"that file is not a photo this station can read (JPEG or PNG): {exc}")


def _error(exc: HTTPException):
    message = exc.description or exc.name
    if wants_json():
        return jsonify(error=message), exc.code
    return render_template("error.html", code=exc.code, title=exc.name, message=message), exc.code


def _crash(exc: Exception):
    if isinstance(exc, HTTPException):
        return _error(exc)
    log.exception("unhandled error on %s", request.path)
    return _error(InternalServerError("something went wrong on the station; "
                                      "the game is safe in the store — reload the page"))


def install(app: Flask) -> None:
    """Hooks on the whole app: the CSRF/origin guard, the upload limit and error pages."""
    app.config.setdefault("MAX_UPLOAD_BYTES", MAX_UPLOAD_BYTES)
    app.config.setdefault("UPLOAD_ENDPOINTS", {"upload.upload", "calibrate.teach_photo"})
    app.config.setdefault("SESSION_COOKIE_SAMESITE", "Lax")
    app.config.setdefault("SESSION_COOKIE_HTTPONLY", True)
    app.before_request(_guard)
    app.register_error_handler(HTTPException, _error)
    app.register_error_handler(Exception, _crash)
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.jinja_env.globals["is_gm"] = is_gm
