"""Calibration pages: empty tray, corners and zones, a taught set, evaluation."""

from __future__ import annotations

import io
import json

import cv2
import numpy as np

from station.camera import ReplayCamera, default_replay_folder
from station.config import Config, TableConfig, Zone
from station.labels import LabelReader
from station.station import Station
from station.store import EventStore
from tests.web.conftest import DEMO_GAME


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
