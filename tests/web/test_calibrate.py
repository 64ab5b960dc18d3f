"""Calibration pages: empty tray, corners and zones, a taught set, evaluation."""

from __future__ import annotations

import io
import json

import cv2
import numpy as np
import pytest

from station.camera import ReplayCamera, default_replay_folder
from station.config import Config, TableConfig, Zone
from station.labels import LabelReader
from station.station import Station
from station.store import EventStore
from station.vision_reader import VisionReader
from tests.web.conftest import BROWSER_ACCEPT, DEMO_GAME, TOKEN, csrf_of
from vision import faces
from web import create_app


def test_page_and_empty_tray(gm, station):
    assert gm.get("/calibrate/").status_code == 200
    assert gm.get("/calibrate/empty.jpg").status_code == 404
    out = gm.post("/calibrate/empty").get_json()
    assert out["size"][0] > 0
    with gm.get("/calibrate/empty.jpg") as resp:
        assert resp.status_code == 200 and resp.mimetype == "image/jpeg"


def test_layout_saves_and_applies_zones(gm, station):
    layout = {"corners": [[0, 0], [100, 0], [100, 80], [0, 80]],
              "zones": [{"name": "A", "polygon": [[0, 0], [50, 0], [50, 80]]},
                        {"name": "B", "polygon": [[50, 0], [100, 0], [100, 80]]}]}
    assert gm.post("/calibrate/layout", json=layout).status_code == 200
    assert [z.name for z in station.seating.zones] == ["A", "B"]
    assert "\"A\"" in gm.get("/calibrate/").get_data(as_text=True)


def test_layout_survives_a_restart_of_the_station(gm, station):
    """Corners and zones saved on the page are used at once and after a restart: the demo's
    first photo has a die at the top right, beyond these corners."""
    layout = {"corners": [[0, 200], [800, 200], [800, 600], [0, 600]],
              "zones": [{"name": "Ana", "polygon": [[0, 0], [400, 0], [400, 600]]},
                        {"name": "Bruno", "polygon": [[400, 0], [800, 0], [800, 600]]}]}
    assert gm.post("/calibrate/layout", json=layout).status_code == 200
    folder = default_replay_folder()
    with EventStore(station.store.folder) as store, Station(
            store, ReplayCamera(folder, loop=True), LabelReader(folder)) as restarted:
        assert [z.name for z in restarted.seating.zones] == ["Ana", "Bruno"]
        assert restarted.tray_corners == ((0, 200), (800, 200), (800, 600), (0, 600))
        assert restarted.layout_problem == ""
        restarted.start_game(**DEMO_GAME)
        out = restarted.press()
        assert out.status == "refused"
        assert out.message == "throw again: the die at the top right is outside the tray"


def test_a_layout_without_zones_keeps_the_configs_zones(tmp_path):
    folder = default_replay_folder()
    zone = Zone("Ana", ((0.0, 0.0), (800.0, 0.0), (800.0, 600.0)))
    (tmp_path / "calibration").mkdir()
    (tmp_path / "calibration" / "tray.json").write_text('{"corners": [], "zones": []}')
    config = Config(table=TableConfig(zones=(zone,)))
    with EventStore(tmp_path) as store, Station(store, ReplayCamera(folder), LabelReader(folder),
                                                config) as st:
        assert st.seating.zones == (zone,) and st.tray_corners == ()


def test_a_malformed_tray_file_is_shown_on_the_page_and_saving_mends_it(gm, station):
    path = station.store.folder / "calibration" / "tray.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"corners": [[0, 0], [1, 1]], "zones": []}')
    station._load_layout()  # as at a start
    page = gm.get("/calibrate/")
    assert page.status_code == 200
    assert "corners: expected exactly 4 points" in page.get_data(as_text=True)
    layout = {"corners": [[0, 0], [800, 0], [800, 600], [0, 600]], "zones": []}
    assert gm.post("/calibrate/layout", json=layout).status_code == 200
    assert station.layout_problem == "" and len(station.tray_corners) == 4
    assert json.loads(path.read_text())["corners"][2] == [800, 600]
    assert "expected exactly 4" not in gm.get("/calibrate/").get_data(as_text=True)


def test_layout_errors(gm):
    for bad, word in [({"corners": [[0, 0]]}, "corners"),
                      ({"zones": [{"name": "A", "polygon": [[0, 0]]}]}, "polygon"),
                      ({"zones": [{"name": "A", "polygon": [[0, 0], [1, 0], [1, 1]]},
                                  {"name": "A", "polygon": [[0, 0], [1, 0], [1, 1]]}]}, "same name"),
                      ({"what": 1}, "unknown field")]:
        resp = gm.post("/calibrate/layout", json=bad)
        assert resp.status_code == 400 and word in resp.get_json()["error"]


def test_teach_photo_makes_a_labelled_data_set_and_evaluates(gm, station):
    photo = sorted(default_replay_folder().glob("*.jpg"))[0]
    label = json.loads(photo.with_suffix(".json").read_text())
    labels = [{"kind": d["kind"], "value": d["value"], "center": d["center"]} for d in label["dice"]]
    resp = gm.post("/calibrate/teach-photo", data={
        "photo": (io.BytesIO(photo.read_bytes()), "face.jpg"), "set": "white-d6",
        "labels": json.dumps(labels)})
    assert resp.status_code == 201, resp.get_json()
    saved = json.loads((station.store.folder / "calibration/sets/white-d6/000.json").read_text())
    assert saved["dice"][0]["set"] == "white-d6"
    ev = gm.post("/calibrate/evaluate", json={"set": "white-d6"})
    assert ev.status_code == 200
    assert ev.get_json()["lines"][-1].startswith("accuracy:")


def test_teach_photo_errors(gm):
    ok, png = cv2.imencode(".png", np.zeros((20, 20, 3), np.uint8))
    cases = [({"set": "bad name!", "labels": "[]"}, "set"),
             ({"set": "s", "labels": "nope"}, "JSON"),
             ({"set": "s", "labels": json.dumps([{"kind": "d6", "value": 9, "center": [1, 1]}])}, "labels[0]"),
             ({"set": "s", "labels": json.dumps([{"kind": "d6", "value": 3, "center": [1, 1]}]),
               "photo": (io.BytesIO(b"text"), "x.jpg")}, "not a photo")]
    for data, word in cases:
        resp = gm.post("/calibrate/teach-photo", data=data, headers={"Accept": "application/json"})
        assert resp.status_code == 400 and word in resp.get_json()["error"], resp.get_json()


def test_teach_and_evaluate_unknown_set(gm):
    assert gm.post("/calibrate/evaluate", json={"set": "nothing"}).status_code == 404
    assert gm.post("/calibrate/teach", json={"set": "../x"}).status_code == 400


@pytest.fixture
def vision_gm(tmp_path):
    """A GM client of a station that reads with the vision reader (taught sets)."""
    folder = default_replay_folder()
    store = EventStore(tmp_path / "data")
    st = Station(store, ReplayCamera(folder, loop=True), VisionReader(store.folder))
    c = create_app({"GM_TOKEN": TOKEN, "TESTING": True}, st).test_client()
    c.environ_base["HTTP_ACCEPT"] = BROWSER_ACCEPT
    c.post("/gm/login", data={"token": TOKEN, "csrf_token": csrf_of(c)})
    c.environ_base["HTTP_X_CSRF_TOKEN"] = csrf_of(c, "/gm/")
    yield c, st
    st.wait_idle()
    st.close()
    store.close()


@pytest.mark.skipif(faces.load_net() is None, reason="vision/models/faces.onnx not installed")
def test_a_taught_set_is_read_with_at_once_and_can_be_put_aside(vision_gm):
    gm, st = vision_gm
    photo = sorted(default_replay_folder().glob("*.jpg"))[0]
    label = json.loads(photo.with_suffix(".json").read_text())
    labels = [{"kind": d["kind"], "value": d["value"], "center": d["center"]} for d in label["dice"]]
    assert gm.post("/calibrate/teach-photo", data={
        "photo": (io.BytesIO(photo.read_bytes()), "face.jpg"), "set": "white-d6",
        "labels": json.dumps(labels)}).status_code == 201
    resp = gm.post("/calibrate/teach", json={"set": "white-d6"})
    assert resp.status_code == 200 and resp.get_json()["in_use"] == "white-d6"
    assert st.reader.in_use == "white-d6"
    page = gm.get("/calibrate/").get_data(as_text=True)
    assert '<option value="white-d6" selected>' in page
    assert gm.post("/calibrate/profile", json={"set": None}).get_json() == {"in_use": None}
    assert st.reader.in_use is None
    for bad, word in [({"set": "nothing"}, "teach it first"), ({"set": "../x"}, "name"),
                      ({}, "set"), ({"set": "white-d6", "more": 1}, "set")]:
        resp = gm.post("/calibrate/profile", json=bad)
        assert resp.status_code == 400 and word in resp.get_json()["error"], resp.get_json()
        assert st.reader.in_use is None
    assert gm.post("/calibrate/profile", json={"set": "white-d6"}).get_json() == {"in_use": "white-d6"}


def test_choosing_a_set_needs_the_gm_and_a_reader_that_reads_taught_sets(client, gm):
    assert client.application.test_client().post("/calibrate/profile", json={"set": None}).status_code in (401, 403)
    resp = gm.post("/calibrate/profile", json={"set": None})
    assert resp.status_code == 501 and "reader" in resp.get_json()["error"]
