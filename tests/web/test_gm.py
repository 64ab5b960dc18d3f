"""The GM screen: the start form's catalogue, reads, corrections, undo, re-throw, decisions, history."""

from __future__ import annotations

from rules import get_game
from rules.options import describe
from tests.web.conftest import DEMO_GAME


def test_gm_screen_lists_every_game_and_its_options(gm):
    html = gm.get("/gm/").get_data(as_text=True)
    for gid in ("gemelos", "red_mans_throw", "barras", "dados_centrales", "rey_y_mendigo"):
        assert f'value="{gid}"' in html
    cat = {g["id"]: g for g in gm.get("/gm/games.json").get_json()}
    assert cat["barras"]["options"] == describe(get_game("barras").Options)
    assert cat["red_mans_throw"]["max_players"] == 2


def test_read_correct_undo_and_rethrow(gm, station):
    assert gm.post("/api/games", json=DEMO_GAME).status_code == 201
    read = gm.post("/api/read").get_json()
    assert read["status"] == "stored"
    rid = read["read"]["id"]
    value = read["read"]["dice"][0]["value"]
    new = 1 if value != 1 else 2
    fixed = gm.post("/api/events", json={"type": "correct", "read": rid, "die": 0, "value": new})
    assert fixed.status_code == 201
    assert gm.get("/api/last-read").get_json()["dice"][0]["value"] == new
    assert gm.post("/api/events", json={"type": "undo"}).status_code == 201  # the correction
    again = gm.post("/gm/rethrow")
    assert again.status_code == 200 and again.get_json()["undone"] == rid
    assert again.get_json()["state"]["reads"] == 0


def test_rethrow_without_a_read_is_409(gm):
    gm.post("/api/games", json=DEMO_GAME)
    resp = gm.post("/gm/rethrow", headers={"Accept": "application/json"})
    assert resp.status_code == 409
    assert "not a read" in resp.get_json()["error"]


def test_decisions_offered_by_next_are_accepted(gm):
    gm.post("/api/games", json={"game": "barras", "players": ["A", "B"]})
    state = gm.get("/api/state").get_json()
    # the bar is thrown first; after it the game asks for join / sit_out / stake
    assert state["next"]["players"] == ["house"]
    bad = gm.post("/api/events", json={"type": "pay_parte", "player": "A"})
    assert bad.status_code == 400 and "error" in bad.get_json()


def test_end_the_game(gm):
    gm.post("/api/games", json={"game": "gemelos", "players": ["A", "B"]})
    resp = gm.post("/api/events", json={"type": "end"})
    assert resp.status_code == 201
    assert resp.get_json()["finished"] is True


def test_history_and_exports(gm):
    gm.post("/api/games", json=DEMO_GAME)
    gm.post("/api/read")
    html = gm.get("/gm/history").get_data(as_text=True)
    assert "export.json" in html and "export.csv" in html
    assert "Red Man&#39;s Throw" in html and "red_mans_throw" not in html  # the game's name
    gm.set_cookie("lang", "es")
    html = gm.get("/gm/history").get_data(as_text=True)
    assert "<td>abierta</td>" in html and "<td>open</td>" not in html
    assert gm.get("/api/games/1/export.json").status_code == 200
    assert gm.get("/api/games/99/export.json").status_code in (404, 409)
