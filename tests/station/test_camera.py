"""Cameras and the wait for still dice."""

from __future__ import annotations

import numpy as np
import pytest

from station.camera import Camera, Frame, OpenCVCamera, ReplayCamera
from station.config import Config, ReadConfig
from station.errors import CameraError
from station.station import Station
from station.store import EventStore
from vision.types import Die, Reading


class LiveCamera(Camera):
    """Frames of dice still rolling (random noise) for `moving` captures, then still."""

    def __init__(self, moving: int) -> None:
        self.moving = moving
        self.captures = 0
        self.rng = np.random.default_rng(0)
        self.still = np.full((120, 160, 3), 90, np.uint8)

    def capture(self) -> Frame:
        self.captures += 1
        if self.captures <= self.moving:
            return Frame(self.rng.integers(0, 255, (120, 160, 3), dtype=np.uint8))
        return Frame(self.still.copy())


def three_dice(frame):
    return Reading(tuple(Die("d6", v, "white", (20.0 + 40 * v, 60.0), 1.0) for v in (1, 2, 3)))


@pytest.mark.parametrize("moving, status, captures", [(0, "stored", 3), (4, "stored", 7),
                                                      (10**6, "refused", None)])
def test_a_read_waits_for_still_dice(tmp_path, moving, status, captures):
    cfg = Config(read=ReadConfig(still_frames=3, still_timeout_s=0.3))
    cam = LiveCamera(moving)
    with EventStore(tmp_path) as store, Station(store, cam, three_dice, cfg) as st:
        st.start_game("red_mans_throw", ["A", "B"])
        out = st.press()
        assert out.status == status
        if captures is not None:
            assert cam.captures == captures
        else:
            assert "still moving" in out.message and st.state_json()["reads"] == 0


def test_replay_camera(tmp_path):
    with pytest.raises(CameraError, match="not a folder"):
        ReplayCamera(tmp_path / "nope")
    with pytest.raises(CameraError, match="no images"):
        ReplayCamera(tmp_path)
    import cv2

    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((4, 4, 3), np.uint8))
    with ReplayCamera(tmp_path) as cam:
        assert cam.capture().metadata == {"source": "a.png"}
        with pytest.raises(CameraError, match="no more images"):
            cam.capture()
    with ReplayCamera(tmp_path, loop=True) as cam:
        assert cam.capture().image_bgr.shape == (4, 4, 3) and cam.capture()


def test_a_missing_webcam_is_a_clear_error():
    with pytest.raises(CameraError, match="webcam 97: cannot open"):
        OpenCVCamera(97)
