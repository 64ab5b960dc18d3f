"""The JSON API of FORMATS.md §4 through Flask's test client: every route, its error paths."""

from __future__ import annotations

import json

import pytest

from station.camera import ReplayCamera
from station.labels import LabelReader
from station.scenes import Photo, SceneDie, session_from_script, write_session
from station.station import Station
from station.store import EventStore
from tests.station.conftest import load_example
from tests.web.test_messages import spoken
from web import create_app
from web.i18n import ES

TOKEN = "test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
RED_MAN = {"game": "red_mans_throw", "players": ["Ana", "Bruno"], "options": {"stake": 5}}


@pytest.fixture
def script():
    return load_example("red_mans_throw")


@pytest.fixture(scope="module")
def recorded_folder(tmp_path_factory):
    script = load_example("red_mans_throw")
    photos = [s for s in session_from_script(script) if isinstance(s, Photo)]
    # a stray fourth die before the second throw: a read that does not fit
    stray = Photo((), photos[1].dice + (SceneDie("d6", 2, "white", (700.0, 80.0)),))
    folder = tmp_path_factory.mktemp("imgs")
    write_session(folder, [photos[0], stray] + photos[1:])
    return folder, LabelReader(folder)


@pytest.fixture
def station(tmp_path, recorded_folder):
    folder, labels = recorded_folder
    store = EventStore(tmp_path / "data")
    st = Station(store, ReplayCamera(folder), labels)
    yield st
    st.close()
    store.close()


@pytest.fixture
def app(station):
    return create_app({"TESTING": True, "GM_TOKEN": TOKEN, "SSE_KEEPALIVE_S": 0.05}, station)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def game(client):
    r = client.post("/api/games", json=RED_MAN, headers=AUTH)
    assert r.status_code == 201, r.json
    return r.json


def test_state_without_a_game(client):
    r = client.get("/api/state")
    assert r.status_code == 200 and r.json["game"] is None and r.json["reads"] == 0


def test_start_a_game_and_read_it(client, game):
    assert game["game"] == "red_mans_throw" and game["next"]["player"] == "Ana"
    r = client.get("/api/state")
    assert r.json["reads"] == 0 and r.json["next"]["dice"] == "3d6"
    assert client.get("/api/last-read").status_code == 404


def test_a_read_is_stored_shown_and_its_photos_served(client, game):
    r = client.post("/api/read", headers=AUTH)
    assert r.status_code == 200, r.json
    read = r.json["read"]
    assert read["status"] == "stored" and [d["value"] for d in read["dice"]] == [6, 6, 4]
    last = client.get("/api/last-read").json
    assert set(last) >= {"id", "time", "dice", "rejected", "photo", "annotated"}
    assert last["photo"] == f"/photos/{last['id']}.jpg"
    for url in (last["photo"], last["annotated"]):
        p = client.get(url)
        assert p.status_code == 200 and p.mimetype == "image/jpeg" and p.data[:2] == b"\xff\xd8"
        p.close()
    assert client.get("/api/state").json["reads"] == 1


def test_a_read_that_does_not_fit_is_422_and_changes_nothing(client, game):
    client.post("/api/read", headers=AUTH)
    before = client.get("/api/state").json
    r = client.post("/api/read", headers=AUTH)
    assert r.status_code == 422
    assert "4 dice are on the tray" in r.json["error"] and "throw again" in r.json["error"]
    assert client.get("/api/state").json == before
    assert client.get("/api/last-read").json["status"] == "refused"


def test_a_refused_read_says_why_in_the_pages_language(client, game):
    client.post("/api/read", headers=AUTH)
    r = client.post("/api/read", headers=AUTH)
    assert r.status_code == 422
    spanish = "Bruno tira 3d6, pero hay 4 dados en la bandeja: vuelvan a tirar"
    assert spoken(r.json["error_i18n"], {}) == r.json["error"]  # the same English, from its template
    assert spoken(r.json["error_i18n"], ES) == spanish
    last = client.get("/api/last-read").json  # stored with the read: a page opened later says it too
    assert last["message"] == r.json["error"] and spoken(last["message_i18n"], ES) == spanish


def test_a_refused_decision_says_why_in_the_pages_language(client, game):
    client.post("/api/read", headers=AUTH)  # Ana has thrown: her stake comes too late
    r = client.post("/api/events", json={"type": "stake", "player": "Ana", "amount": 5}, headers=AUTH)
    assert r.status_code == 400
    assert r.json["error"] == "replaying event 1: Ana has thrown this round: stakes go before the throw"
    assert spoken(r.json["error_i18n"], {}) == r.json["error"]
    assert spoken(r.json["error_i18n"], ES) == (
        "Ana ya ha tirado en esta ronda: las apuestas van antes de la tirada (acción 1)")


def test_a_refused_game_set_up_says_why_in_the_pages_language(client):
    r = client.post("/api/games", json={**RED_MAN, "options": {"stake": -5}}, headers=AUTH)
    assert r.status_code == 400
    assert r.json["error"] == "option 'stake' of red_mans_throw must be at least 0, got -5"
    assert spoken(r.json["error_i18n"], ES) == "la opción 'stake' de red_mans_throw debe ser al menos 0, no -5"


def test_read_without_a_game_is_409(client):
    r = client.post("/api/read", headers=AUTH)
    assert r.status_code == 409 and "no game" in r.json["error"]


@pytest.mark.parametrize("method, path, body", [
    ("post", "/api/read", None),
    ("post", "/api/games", RED_MAN),
    ("post", "/api/events", {"type": "undo"}),
])
@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer wrong"},
                                     {"Authorization": TOKEN}], ids=["none", "wrong", "no-bearer"])
def test_mutations_need_the_gm_token(client, method, path, body, headers):
    r = getattr(client, method)(path, json=body, headers=headers)
    assert r.status_code == 401 and "GM" in r.json["error"]


def test_no_token_configured_refuses_every_mutation(station, monkeypatch):
    monkeypatch.delenv("DICESTATION_GM_TOKEN", raising=False)
    client = create_app({"TESTING": True}, station).test_client()
    r = client.post("/api/games", json=RED_MAN, headers={"Authorization": "Bearer "})
    assert r.status_code == 401 and "no GM token is configured" in r.json["error"]


def test_the_token_can_come_from_the_environment(station, monkeypatch):
    monkeypatch.setenv("DICESTATION_GM_TOKEN", "from-env")
    client = create_app({"TESTING": True}, station).test_client()
    r = client.post("/api/games", json=RED_MAN, headers={"Authorization": "Bearer from-env"})
    assert r.status_code == 201


@pytest.mark.parametrize("path", ["/api/games", "/api/events", "/api/read"])
@pytest.mark.parametrize("data, says", [
    (b"{not json", "not valid JSON"),
    (b"[1, 2]", "must be a JSON object"),
    (b"\xff\xfe", "not valid JSON"),
])
def test_malformed_json_is_400(client, game, path, data, says):
    r = client.post(path, data=data, headers=dict(AUTH, **{"Content-Type": "application/json"}))
    assert r.status_code == 400 and says in r.json["error"]


@pytest.mark.parametrize("body, says", [
    ({"game": "poker", "players": ["A", "B"]}, "unknown game 'poker'"),
    ({"players": ["A", "B"]}, "missing 'game'"),
    ({"game": "red_mans_throw"}, "missing 'players'"),
    ({"game": "red_mans_throw", "players": ["A"]}, "2 players"),
    ({"game": "red_mans_throw", "players": ["A", "A"]}, "same name"),
    ({"game": "red_mans_throw", "players": ["A", "B"], "options": {"stake": -1}}, "stake"),
    ({"game": "red_mans_throw", "players": ["A", "B"], "options": {"colour": 1}}, "colour"),
    ({"game": "red_mans_throw", "players": ["A", "B"], "options": [1]}, "options"),
    ({"game": "red_mans_throw", "players": ["A", "B"], "seats": 1}, "unknown field 'seats'"),
])
def test_bad_games_are_400_with_a_clear_message(client, body, says):
    r = client.post("/api/games", json=body, headers=AUTH)
    assert r.status_code == 400 and says in r.json["error"], r.json


def test_post_read_rejects_bad_fields(client, game):
    r = client.post("/api/read", json={"override": "yes"}, headers=AUTH)
    assert r.status_code == 400 and "override" in r.json["error"]
    r = client.post("/api/read", json={"fast": True}, headers=AUTH)
    assert r.status_code == 400 and "unknown field 'fast'" in r.json["error"]


def test_correction_undo_and_decisions(client, game, script):
    read = client.post("/api/read", headers=AUTH).json["read"]
    # that 4 was a 6: Ana threw the red man; the game ends at once
    r = client.post("/api/events", json={"type": "correct", "read": read["id"], "die": 2,
                                         "value": 6}, headers=AUTH)
    assert r.status_code == 201 and r.json["finished"] and "red_man" in r.json["flags"]
    assert client.get("/api/last-read").json["dice"][2] == {**read["dice"][2], "value": 6,
                                                            "corrected": True}
    r = client.post("/api/events", json={"type": "tip_hat", "player": "Bruno"}, headers=AUTH)
    assert r.status_code == 201 and "tip_hat:Bruno" in r.json["flags"]
    # undo the tip of the hat, then the correction: the game is open again
    assert client.post("/api/events", json={"type": "undo"}, headers=AUTH).status_code == 201
    r = client.post("/api/events", json={"type": "undo"}, headers=AUTH)
    assert r.status_code == 201 and not r.json["finished"] and r.json["next"]["player"] == "Bruno"
    r = client.post("/api/events", json={"type": "stake", "player": "Bruno", "amount": 5},
                    headers=AUTH)
    assert r.status_code == 201, r.json


@pytest.mark.parametrize("body, says", [
    ({"type": "correct", "read": 999, "die": 0, "value": 3}, "not a read of this game"),
    ({"type": "correct", "read": "x", "die": 0, "value": 3}, "'read'"),
    ({"type": "correct", "read": None, "die": 0, "value": 3}, "'read'"),
    ({"type": "correct", "read": 2, "die": 7, "value": 3}, "'die'"),
    ({"type": "correct", "read": 2, "die": 0, "value": 9}, "9"),
    ({"type": "correct", "read": 2, "die": 0, "value": True}, "'value'"),
    ({"type": "correct", "read": 2, "die": 0, "value": 3, "why": "x"}, "unknown field 'why'"),
    ({"type": "throw", "player": "Bruno", "dice": [1, 2, 3]}, "throws come from the camera"),
    ({"type": "dance", "player": "Ana"}, "unknown event type 'dance'"),
    ({"type": "stake", "player": "Zoe", "amount": 1}, "'Zoe' is not playing"),
    ({"type": "stake", "player": "Bruno"}, "needs an 'amount'"),
    ({"type": "pay_parte", "player": "Bruno"}, ""),
    ({"player": "Bruno"}, "unknown event type"),
    ({}, "an event is a JSON object"),
])
def test_bad_events_are_400_and_change_nothing(client, game, body, says):
    client.post("/api/read", headers=AUTH)  # read id 2 (the game is event 1)
    before = client.get("/api/state").json
    r = client.post("/api/events", json=body, headers=AUTH)
    assert r.status_code == 400 and says in r.json["error"], r.json
    assert client.get("/api/state").json == before


def test_events_without_a_game_are_409(client):
    r = client.post("/api/events", json={"type": "undo"}, headers=AUTH)
    assert r.status_code == 409


def test_nothing_to_undo(client, game):
    r = client.post("/api/events", json={"type": "undo"}, headers=AUTH)
    assert r.status_code == 400 and "nothing to undo" in r.json["error"]


def test_history_and_exports(client, game, script):
    for _ in range(3):
        client.post("/api/read", headers=AUTH)
    games = client.get("/api/games").json
    assert [g["game"] for g in games] == ["red_mans_throw"]
    gid = games[0]["id"]
    exported = client.get(f"/api/games/{gid}/export.json").json
    assert exported["game"] == "red_mans_throw"
    assert [e["player"] for e in exported["events"]] == ["Ana", "Bruno"]
    csv = client.get(f"/api/games/{gid}/export.csv")
    assert csv.mimetype == "text/csv" and csv.text.count("\n") >= 4
    assert client.get("/api/games/99/export.json").status_code == 409


@pytest.mark.parametrize("url", ["/photos/../x.jpg", "/photos/1.png", "/photos/abc.jpg",
                                 "/photos/99.jpg", "/api/nothing"])
def test_unknown_paths_are_404_as_json(client, url):
    r = client.get(url)
    assert r.status_code == 404 and "error" in r.json


def sse_messages(response, n):
    """The first n SSE events of a streamed response (then the stream is closed)."""
    out, buf = [], ""
    chunks = response.response
    try:
        while len(out) < n:
            buf += _next(chunks)
            while "\n\n" in buf:
                block, buf = buf.split("\n\n", 1)
                fields = dict(line.split(": ", 1) for line in block.splitlines()
                              if ": " in line and not line.startswith(":"))
                if "data" in fields:
                    out.append((fields["id"], fields["event"], json.loads(fields["data"])))
    finally:
        response.close()
    return out


def _next(chunks):
    chunk = next(chunks)
    return chunk.decode() if isinstance(chunk, bytes) else chunk


def test_events_stream_catches_up_from_last_event_id(client, game):
    client.post("/api/read", headers=AUTH)
    client.post("/api/read", headers=AUTH)  # refused (a stray die)
    r = client.get("/api/events", headers={"Last-Event-ID": "0"}, buffered=False)
    assert r.mimetype == "text/event-stream"
    got = sse_messages(r, 3)
    assert [(i, t) for i, t, _ in got] == [("1", "game"), ("2", "read"), ("3", "refused")]
    assert got[1][2]["read"]["photo"] == "/photos/2.jpg"
    assert got[2][2]["state"]["reads"] == 1


def test_events_stream_sends_new_events_live(client, station, game):
    r = client.get("/api/events", buffered=False)
    chunks = r.response
    assert _next(chunks).startswith("retry:")
    client.post("/api/read", headers=AUTH)
    got = sse_messages(r, 1)
    assert got[0][1] == "read" and got[0][2]["state"]["reads"] == 1
    assert station.broker._subs == []  # the page left: unsubscribed


def test_events_stream_bad_last_event_id(client):
    r = client.get("/api/events", headers={"Last-Event-ID": "abc"})
    assert r.status_code == 400


def test_no_station_is_503(monkeypatch):
    client = create_app({"TESTING": True}).test_client()
    assert client.get("/api/state").status_code == 503
