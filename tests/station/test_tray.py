"""The calibrated tray: what lies beyond it does not block a throw, a die off it is
refused, and the corners and zones saved by the calibration page survive a restart."""

from __future__ import annotations

import json

from station.labels import LabelReader
from station.scenes import Photo, SceneDie, write_session
from station.tray import OUTSIDE_TRAY, limit_to_tray
from vision.types import Die, Reading, Rejection

RED_MAN = {"game": "red_mans_throw", "players": ["Ana", "Bruno"], "options": {}}
TRAY = [[100, 80], [700, 80], [700, 520], [100, 520]]  # of an 800 x 600 photo


def d6(value, x, y):
    return SceneDie("d6", value, "white", (float(x), float(y)))


def save_tray(data, corners=TRAY, zones=()):
    path = data / "calibration" / "tray.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"corners": corners, "zones": list(zones)}))


def test_limit_to_tray_refuses_dice_off_it_and_drops_what_is_refused_off_it():
    on = Die("d6", 3, "white", (400.0, 300.0), 0.9)
    off = Die("d6", 5, "white", (750.0, 300.0), 0.9)
    cocked = Rejection((300.0, 200.0), "cocked")
    cup = Rejection((30.0, 30.0), "unknown object")
    corners = [(700.0, 520.0), (100.0, 80.0), (100.0, 520.0), (700.0, 80.0)]  # any order
    out = limit_to_tray(Reading((on, off), (cup, cocked), {"total": 3.0}), corners)
    assert out.dice == (on,)
    assert [(r.center, r.why) for r in out.rejected] == [((300.0, 200.0), "cocked"),
                                                        ((750.0, 300.0), OUTSIDE_TRAY)]
    assert out.timings_ms == {"total": 3.0}
    reading = Reading((on, off), (cup,))
    assert limit_to_tray(reading, ()) is reading  # not calibrated: the whole photo counts


def test_things_beyond_the_tray_do_not_block_the_throw(tmp_path, station_on):
    """A cup and the tray's knobs, refused by the reader, lie beyond the tray's corners."""
    folder = tmp_path / "imgs"
    write_session(folder, [Photo((), (d6(1, 200, 200), d6(2, 400, 300), d6(3, 600, 400)),
                                 (((40.0, 40.0), "unknown object"), ((760.0, 560.0), "low confidence")))])
    uncalibrated = station_on(folder, data=tmp_path / "uncalibrated")
    uncalibrated.start_game(**RED_MAN)
    assert "unknown object" in uncalibrated.press().message  # without corners it blocks
    save_tray(tmp_path / "data")
    st = station_on(folder)
    st.start_game(**RED_MAN)
    out = st.press()
    assert out.status == "stored", out.message
    assert sorted(d["value"] for d in out.read["dice"]) == [1, 2, 3]
    assert out.read["rejected"] == []
    assert st.state_json()["reads"] == 1
    assert (st.store.photos / f"{out.read['id']}-annotated.jpg").stat().st_size > 0


def test_a_die_off_the_tray_is_refused_naming_where(tmp_path, station_on):
    folder = tmp_path / "imgs"
    write_session(folder, [Photo((), (d6(1, 200, 200), d6(2, 400, 300), d6(6, 760, 560)))])
    save_tray(tmp_path / "data")
    st = station_on(folder)
    st.start_game(**RED_MAN)
    before = st.state_json()
    out = st.press()
    assert out.status == "refused"
    assert out.message == "throw again: the die at the bottom right is outside the tray"
    assert st.state_json() == before  # not scored
    last = st.last_read()  # stored for audit as the page shows it: two dice, one refusal
    assert sorted(d["value"] for d in last["dice"]) == [1, 2]
    assert last["rejected"] == [{"center": [760.0, 560.0], "why": OUTSIDE_TRAY}]


def test_a_malformed_tray_file_is_reported_and_ignored(tmp_path, station_on):
    folder = tmp_path / "imgs"
    write_session(folder, [Photo((), (d6(1, 200, 200), d6(2, 400, 300), d6(6, 760, 560)))])
    for i, bad in enumerate(['{"corners": [[0, 0]', '{"corners": [[0, 0], [1, 1]]}', '[1, 2]',
                '{"zones": [{"name": "A", "polygon": "left"}]}']):
        data = tmp_path / f"data{i}"
        (data / "calibration").mkdir(parents=True)
        (data / "calibration" / "tray.json").write_text(bad)
        st = station_on(folder, LabelReader(folder), data=data)
        assert "tray.json" in st.layout_problem and "Calibrate" in st.layout_problem
        assert st.tray_corners == () and st.seating.zones == ()
        st.start_game(**RED_MAN)
        assert st.press().status == "stored"  # the whole photo counts, as before calibrating
