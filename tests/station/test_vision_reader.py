"""The station reads with the taught dice set in use, and for the game in play.

- station.vision_reader.VisionReader: the chosen profile is used, survives a
  restart, a bad choice is refused and changes nothing, a choice that can no
  longer be loaded is reported and ignored;
- station.Station tells a reader that wants them the kinds of the next throw;
- the reader warms up (loads every network) before the first press.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import pytest

from calibration import profile_io
from calibration.teach import teach
from station.camera import ReplayCamera, default_replay_folder
from station.labels import LabelReader
from station.station import Station
from station.store import EventStore
from station.vision_reader import CHOICE_FILE, ProfileChoiceError, VisionReader
from vision import faces, read_dice

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "numerals"
needs_net = pytest.mark.skipif(faces.load_net() is None, reason="vision/models/faces.onnx not installed")


@pytest.fixture(scope="module")
def taught(tmp_path_factory):
    """A profile taught from the numeral fixtures' teaching photos."""
    out = tmp_path_factory.mktemp("profile") / "numerals"
    profile_io.save(teach(FIX / "teach"), out)
    return out


@pytest.fixture
def data(tmp_path, taught):
    shutil.copytree(taught, tmp_path / "profiles" / "numerals")
    return tmp_path


@needs_net
def test_the_profile_in_use_reads_and_survives_a_restart(data, taught):
    reader = VisionReader(data)
    assert reader.in_use is None and reader.taught() == ["numerals"]
    reader.use("numerals")
    frame = cv2.imread(str(sorted((FIX / "eval").glob("*.jpg"))[0]))
    expected = read_dice(frame, profile_io.load(taught))
    assert reader(frame).to_json() == expected.to_json()
    again = VisionReader(data)  # a restart, a power cut
    assert again.in_use == "numerals" and again.problem == ""
    assert again(frame).to_json() == expected.to_json()
    again.use(None)
    assert VisionReader(data).in_use is None


@pytest.mark.parametrize("name, word", [("nothing", "teach it first"), ("../x", "name"), (3, "name")])
def test_a_bad_choice_is_refused_and_changes_nothing(data, name, word):
    reader = VisionReader(data)
    reader.use("numerals")
    with pytest.raises(ProfileChoiceError, match=word):
        reader.use(name)
    assert reader.in_use == "numerals" and VisionReader(data).in_use == "numerals"


def test_a_choice_that_no_longer_loads_is_reported_and_ignored(data):
    VisionReader(data).use("numerals")
    meta = data / "profiles" / "numerals" / "profile.json"
    j = json.loads(meta.read_text())
    j["format"] = 1  # a profile of an old version
    meta.write_text(json.dumps(j))
    reader = VisionReader(data)
    assert reader.in_use is None
    assert "numerals" in reader.problem and "teach" in reader.problem
    (data / CHOICE_FILE).write_text("{not json")
    assert VisionReader(data).in_use is None and VisionReader(data).problem


class _Recording(LabelReader):
    takes_game_kinds = True

    def __init__(self, folder):
        super().__init__(folder)
        self.kinds = []

    def __call__(self, frame_bgr, game_kinds=None):
        self.kinds.append(game_kinds)
        return super().__call__(frame_bgr)


def test_the_station_tells_the_reader_the_kinds_of_the_next_throw(tmp_path):
    folder = default_replay_folder()
    reader = _Recording(folder)
    store = EventStore(tmp_path / "data")
    st = Station(store, ReplayCamera(folder, loop=True), reader)
    try:
        st.start_game("red_mans_throw", ["Ana", "Bruno"], {"stake": 5})
        st.press()
        assert reader.kinds == [frozenset({"d6"})]
    finally:
        st.wait_idle()
        st.close()
        store.close()


@needs_net
def test_after_the_warm_up_the_first_read_loads_nothing(tmp_path, monkeypatch):
    """The station warms its reader up when it starts (station.server.serve):
    the first press at the table then loads no network (on a Pi that is a
    second or more of waiting)."""
    from vision import learned, onnxnet

    made = []
    real_init = onnxnet.Net.__init__

    def counting(self, *args, **kwargs):
        made.append(args[0] if args else kwargs.get("model"))
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(onnxnet.Net, "__init__", counting)
    learned.load_models.cache_clear()
    faces.load_net.cache_clear()
    try:
        reader = VisionReader(tmp_path)
        assert reader.warm_up() > 0
        assert len(made) >= 5  # detector, two classifiers, the lean and the face networks
        made.clear()
        frame = cv2.imread(str(sorted((FIX / "eval").glob("*.jpg"))[0]))
        assert reader(frame).dice  # numerals: the face network reads them
        assert made == []
    finally:
        learned.load_models.cache_clear()
        faces.load_net.cache_clear()
