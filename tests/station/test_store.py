"""The event store: WAL, durable photos, replay after a restart, corrections and undo."""

from __future__ import annotations

from station.camera import ReplayCamera
from station.labels import LabelReader
from station.scenes import Photo, session_from_script, write_session
from station.station import Station
from station.store import EventStore
from tests.station.conftest import load_example


def test_wal_mode_and_atomic_photos(tmp_path):
    with EventStore(tmp_path) as store:
        assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        g = store.start_game("red_mans_throw", ["A", "B"], {})
        ev = store.append(g.id, "refused", {"dice": []}, {".jpg": b"\xff\xd8x\xff\xd9"})
        assert ev.data["photo"] == f"{ev.id}.jpg"
        assert (store.photos / ev.data["photo"]).read_bytes() == b"\xff\xd8x\xff\xd9"
        assert not list(store.photos.glob("*.tmp"))
        assert [e.id for e in store.events_after(0)] == [1, ev.id]
        # a new game abandons the open one
        g2 = store.start_game("gemelos", ["A", "B"], {})
        assert store.game(g.id).status == "abandoned" and store.open_game() == g2


def test_a_restart_resumes_the_open_game_where_it_was(tmp_path):
    script = load_example("red_mans_throw")
    folder = tmp_path / "imgs"
    write_session(folder, [s for s in session_from_script(script) if isinstance(s, Photo)])
    labels = LabelReader(folder)
    with EventStore(tmp_path / "data") as store, Station(store, ReplayCamera(folder), labels) as st:
        st.start_game(script["game"], script["players"], script["options"])
        first = st.press().read
        st.press()
        st.post_event({"type": "correct", "read": first["id"], "die": 2, "value": 5})
        st.post_event({"type": "stake", "player": "Ana", "amount": 3})
        before = st.state_json()
    with EventStore(tmp_path / "data") as store, Station(store, ReplayCamera(folder), labels) as st:
        assert st.state_json() == before
        assert st.camera.position == 2  # the replay continues after the last stored photo
        third = st.press()  # the third photo (the throw-off die), not one read before
        assert [d["value"] for d in third.read["dice"]] == [3]
        # after the correction Ana's 6-6-5 beat 6-6-4: no throw-off, Ana throws 3d6 now
        assert third.status == "refused" and "Ana throws 3d6" in third.message
