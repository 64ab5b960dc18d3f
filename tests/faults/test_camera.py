"""A camera that raises or hangs mid-read: the station times out (monotonic), says so,
changes nothing and stays usable; the next press after the camera recovers is stored."""

from __future__ import annotations

import threading
import time

from station.camera import Frame, ReplayCamera
from station.config import CameraConfig, Config
from station.errors import CameraError
from station.labels import LabelReader
from station.station import Station
from station.store import EventStore
from tests.faults.conftest import RED_MAN, session, snapshot

TIMEOUT_S = 0.3


class HangingCamera(ReplayCamera):
    """Captures hang until `release` is set (a stuck driver, an unplugged ribbon cable)."""

    def __init__(self, folder, hang_on: set[int]):
        super().__init__(folder)
        self.hang_on = hang_on
        self.release = threading.Event()
        self.calls = 0

    def capture(self) -> Frame:
        self.calls += 1
        if self.calls in self.hang_on:
            self.release.wait()
            raise CameraError("the capture came back too late")
        return super().capture()


class RaisingCamera(ReplayCamera):
    def __init__(self, folder, error: Exception):
        super().__init__(folder)
        self.error = error

    def capture(self) -> Frame:
        if self.error is not None:
            error, self.error = self.error, None
            raise error
        return super().capture()


def make(tmp_path, camera):
    store = EventStore(tmp_path / "data")
    config = Config(camera=CameraConfig(timeout_s=TIMEOUT_S))
    return Station(store, camera, LabelReader(camera.folder), config)


def test_a_hanging_capture_times_out_says_so_and_the_station_stays_usable(tmp_path):
    folder = session(tmp_path / "imgs", 3)
    cam = HangingCamera(folder, hang_on={2})
    with make(tmp_path, cam) as st:
        try:
            st.start_game(**RED_MAN)
            assert st.press().status == "stored"
            before = snapshot(st)
            t0 = time.monotonic()
            out = st.press(timeout_s=10)
            took = time.monotonic() - t0
            assert out.status == "camera" and f"did not answer within {TIMEOUT_S:g} s" in out.message
            assert TIMEOUT_S <= took < TIMEOUT_S + 2
            assert snapshot(st) == before
            # still hung: the next press answers at once, without a second stuck thread
            t0 = time.monotonic()
            again = st.press(timeout_s=10)
            assert again.status == "camera" and "has not answered" in again.message
            assert time.monotonic() - t0 < TIMEOUT_S
            assert cam.calls == 2
            # the rest of the station works meanwhile: pages, decisions, undo
            assert st.state_json()["reads"] == 1
            st.post_event({"type": "undo"})
            assert st.state_json()["reads"] == 0
            # the driver comes back: the next press reads
            cam.release.set()
            deadline = time.monotonic() + 5
            while st._hung is not None and st._hung.is_alive() and time.monotonic() < deadline:
                time.sleep(0.01)
            ok = st.press(timeout_s=10)
            assert ok.status == "stored", ok
            assert st.state_json()["reads"] == 1
        finally:
            cam.release.set()
            st.store.close()


def test_a_capture_that_raises_mid_read_changes_nothing(tmp_path):
    folder = session(tmp_path / "imgs", 2)
    for error in (CameraError("no frame"), RuntimeError("libcamera: dequeue failed")):
        cam = RaisingCamera(folder, error)
        data = tmp_path / f"data-{type(error).__name__}"
        store = EventStore(data)
        with Station(store, cam, LabelReader(folder)) as st:
            st.start_game(**RED_MAN)
            before = snapshot(st)
            if isinstance(error, CameraError):
                out = st.press()
                assert out.status == "camera" and "no frame" in out.message
            else:  # a driver's own error reaches the caller (RetryingCamera wraps it)
                try:
                    st.press()
                except RuntimeError as exc:
                    assert "dequeue failed" in str(exc)
            assert snapshot(st) == before
            assert st.press().status == "stored"
        store.close()


def test_a_live_camera_hanging_between_still_frames_times_out(tmp_path):
    folder = session(tmp_path / "imgs", 3)
    cam = HangingCamera(folder, hang_on={2})
    cam.live = True  # two agreeing frames are needed: the second capture hangs
    with make(tmp_path, cam) as st:
        try:
            st.start_game(**RED_MAN)
            before = snapshot(st)
            out = st.press(timeout_s=10)
            assert out.status == "camera" and "did not answer" in out.message
            assert snapshot(st) == before
        finally:
            cam.release.set()
            st.store.close()
