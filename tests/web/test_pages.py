"""The table page, the language switch, history pages and the upload page."""

from __future__ import annotations

import io
import re

import cv2

from station.camera import default_replay_folder
from tests.web.conftest import DEMO_GAME


def test_table_page_renders_without_a_game(client):
    resp = client.get("/")
    assert resp.status_code == 200
    html = resp.get_data(as_text=True)
    assert "table.js" in html and "No game is open" in html


def test_table_alias_and_json_description(client):
    assert client.get("/table").status_code == 200
    data = client.get("/", headers={"Accept": "application/json"}).get_json()
    assert data["station"] == "dicestation" and "/api/state" in data["api"]


def test_spanish_from_the_browser(client):
    html = client.get("/", headers={"Accept-Language": "es-ES,es;q=0.9"}).get_data(as_text=True)
    assert 'lang="es"' in html and "No hay ninguna partida abierta" in html


def test_language_switch_sets_a_cookie(client):
    resp = client.get("/lang/es?next=/stats")
    assert resp.status_code == 302 and resp.headers["Location"].endswith("/stats")
    assert "lang=es" in resp.headers["Set-Cookie"]
    html = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert 'lang="es"' in html


def test_language_switch_rejects_unknown_and_foreign_targets(client):
    assert client.get("/lang/fr").status_code == 404
    resp = client.get("/lang/en?next=https://evil.example/")
    assert resp.headers["Location"].endswith(("/", "/table"))
    assert "evil" not in resp.headers["Location"]


def test_static_assets_are_served(client):
    for name in ("style.css", "common.js", "table.js", "gm.js", "calibrate.js"):
        with client.get(f"/static/{name}") as resp:
            assert resp.status_code == 200


def test_upload_page_and_a_read_from_a_photo(gm):
    gm.post("/api/games", json=DEMO_GAME)
    assert gm.get("/upload").status_code == 200
    photo = sorted(default_replay_folder().glob("*.jpg"))[0]
    resp = gm.post("/upload", data={"photo": (io.BytesIO(photo.read_bytes()), "phone.jpg")},
                   headers={"Accept": "application/json"})
    assert resp.status_code in (200, 422), resp.get_json()
    out = resp.get_json()
    assert out["status"] in ("stored", "refused")
    assert out["read"]["photo"].startswith("/photos/")
    html = gm.post("/upload", data={"photo": (io.BytesIO(photo.read_bytes()), "phone.jpg"),
                                    "override": "1"})
    assert html.status_code in (200, 422)
    assert "<img" in html.get_data(as_text=True)


def test_upload_without_a_game_says_so(gm):
    ok, buf = cv2.imencode(".jpg", cv2.imread(str(sorted(default_replay_folder().glob("*.jpg"))[0])))
    resp = gm.post("/upload", data={"photo": (io.BytesIO(buf.tobytes()), "p.jpg")},
                   headers={"Accept": "application/json"})
    assert resp.status_code == 409
    assert "no game" in resp.get_json()["error"]


def test_the_upload_page_says_a_refusal_in_spanish(gm):
    ok, buf = cv2.imencode(".jpg", cv2.imread(str(sorted(default_replay_folder().glob("*.jpg"))[0])))
    gm.set_cookie("lang", "es")
    resp = gm.post("/upload", data={"photo": (io.BytesIO(buf.tobytes()), "p.jpg")})
    assert resp.status_code == 409
    alert = re.search(r'role="alert">([^<]*)<', resp.get_data(as_text=True)).group(1)
    assert alert == "no hay ninguna partida abierta: empiece una primero"


def test_no_station_is_503(app):
    app.extensions["station"] = None
    client = app.test_client()
    assert client.get("/stats").status_code == 503
    assert client.get("/api/stats").status_code == 503
