"""The credential, CSRF, same-origin, upload limits and error pages: clear messages, no traces."""

from __future__ import annotations

import io

import cv2
import numpy as np
import pytest

from tests.web.conftest import TOKEN, csrf_of

TRACE_WORDS = ("Traceback", "File \"", "line ", "werkzeug", "jinja2")


def no_trace(resp) -> None:
    text = resp.get_data(as_text=True)
    for word in TRACE_WORDS[:2]:
        assert word not in text


def png_bytes(w: int = 64, h: int = 48) -> bytes:
    ok, buf = cv2.imencode(".png", np.full((h, w, 3), 200, np.uint8))
    return buf.tobytes()


@pytest.mark.parametrize("path", ["/gm/", "/gm/history", "/upload", "/calibrate/"])
def test_gm_pages_redirect_to_login(client, path):
    resp = client.get(path)
    assert resp.status_code == 302
    assert "/gm/login" in resp.headers["Location"]


@pytest.mark.parametrize("method,path", [
    ("post", "/api/read"), ("post", "/api/games"), ("post", "/api/events"), ("post", "/gm/rethrow"),
    ("post", "/upload"), ("post", "/calibrate/empty"), ("post", "/calibrate/layout"),
    ("post", "/calibrate/teach"), ("post", "/calibrate/evaluate"), ("post", "/calibrate/teach-photo"),
])
def test_mutations_need_the_credential(client, method, path):
    resp = getattr(client, method)(path, json={}, headers={"Accept": "application/json"})
    assert resp.status_code == 401
    assert "credential" in resp.get_json()["error"] or "token" in resp.get_json()["error"]
    no_trace(resp)


def test_wrong_bearer_is_401_and_right_bearer_works(client):
    bad = client.post("/gm/rethrow", headers={"Authorization": "Bearer nope", "Accept": "application/json"})
    assert bad.status_code == 401
    good = client.post("/api/games", json={"game": "gemelos", "players": ["A", "B"]},
                       headers={"Authorization": f"Bearer {TOKEN}"})
    assert good.status_code == 201


def test_login_wrong_token(client):
    token = csrf_of(client)
    resp = client.post("/gm/login", data={"token": "wrong", "csrf_token": token})
    assert resp.status_code == 401
    assert "Wrong token" in resp.get_data(as_text=True)


def test_login_without_csrf_is_400(client):
    resp = client.post("/gm/login", data={"token": TOKEN})
    assert resp.status_code == 400
    assert "CSRF" in resp.get_data(as_text=True)
    no_trace(resp)


def test_login_redirects_only_to_own_paths(client):
    token = csrf_of(client)
    resp = client.post("/gm/login?next=//evil.example/x", data={"token": TOKEN, "csrf_token": token})
    assert resp.headers["Location"].endswith("/gm/")


def test_session_calls_need_csrf(gm):
    gm.environ_base.pop("HTTP_X_CSRF_TOKEN")
    resp = gm.post("/api/games", json={"game": "gemelos", "players": ["A", "B"]})
    assert resp.status_code == 400
    assert "CSRF" in resp.get_json()["error"]
    bad = gm.post("/api/games", json={"game": "gemelos", "players": ["A", "B"]},
                  headers={"X-CSRF-Token": "forged"})
    assert bad.status_code == 400
    ok = gm.post("/api/games", json={"game": "gemelos", "players": ["A", "B"]},
                 headers={"X-CSRF-Token": gm.csrf})
    assert ok.status_code == 201


def test_cross_origin_is_refused(gm):
    resp = gm.post("/api/read", headers={"Origin": "http://evil.example"})
    assert resp.status_code == 400
    assert "another site" in resp.get_json()["error"]


def test_logout(gm):
    assert gm.post("/gm/logout").status_code == 302
    assert gm.get("/gm/").status_code == 302


def test_unknown_page_is_an_html_message(client):
    resp = client.get("/nope")
    assert resp.status_code == 404
    assert resp.mimetype == "text/html"
    assert "404" in resp.get_data(as_text=True)
    no_trace(resp)


def test_api_errors_stay_json(client):
    resp = client.get("/api/nope")
    assert resp.status_code == 404
    assert "error" in resp.get_json()


def test_malformed_json(gm):
    resp = gm.post("/api/games", data="{not json", content_type="application/json")
    assert resp.status_code == 400
    assert "not valid JSON" in resp.get_json()["error"]
    no_trace(resp)


def test_unknown_game(gm):
    resp = gm.post("/api/games", json={"game": "poker", "players": ["A", "B"]})
    assert resp.status_code == 400
    assert "unknown game" in resp.get_json()["error"]


def test_non_image_upload_is_400(gm):
    gm.post("/api/games", json={"game": "red_mans_throw", "players": ["A", "B"]})
    resp = gm.post("/upload", data={"photo": (io.BytesIO(b"not an image at all"), "x.jpg")},
                   headers={"Accept": "application/json"})
    assert resp.status_code == 400
    assert "not a photo" in resp.get_json()["error"]


def test_oversized_upload_is_413(app, gm):
    app.config["MAX_UPLOAD_BYTES"] = 10_000
    resp = gm.post("/upload", data={"photo": (io.BytesIO(b"\xff" * 20_000), "big.jpg")},
                   headers={"Accept": "application/json"})
    assert resp.status_code == 413
    assert "error" in resp.get_json()
    html = gm.post("/upload", data={"photo": (io.BytesIO(b"\xff" * 20_000), "big.jpg")})
    assert html.status_code == 413
    no_trace(html)


def test_missing_photo_is_400(gm):
    resp = gm.post("/upload", data={}, headers={"Accept": "application/json"})
    assert resp.status_code == 400


def test_crash_is_a_message_without_trace(app, client):
    @app.get("/boom")
    def boom():
        raise RuntimeError("secret internals")

    app.config["TESTING"] = False
    app.config["PROPAGATE_EXCEPTIONS"] = False
    resp = client.get("/boom")
    assert resp.status_code == 500
    text = resp.get_data(as_text=True)
    assert "secret internals" not in text and "Traceback" not in text
    assert "game is safe" in text


def test_decode_image_accepts_png(app):
    from web.security import decode_image

    with app.test_request_context():
        assert decode_image(png_bytes()).shape == (48, 64, 3)
