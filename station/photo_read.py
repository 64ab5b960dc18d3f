"""Read a photo that did not come from the station's camera (a phone's upload).

The station's read pipeline is used as it is: for the length of one read the
camera is a one-shot camera holding the photo, under the same "one read at a
time" lock as a button press (a press meanwhile is ignored, not queued).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from station.camera import Camera, Frame
from station.station import ReadOutcome


class PhotoCamera(Camera):
    """A camera that gives one photo it was handed (not live: no stillness check)."""

    live = False

    def __init__(self, image_bgr: np.ndarray, source: str = "upload") -> None:
        self.frame = Frame(image_bgr, {"source": source}, time.time())

    def capture(self) -> Frame:
        return self.frame

    def close(self) -> None:
        pass


def read_photo(station: Any, image_bgr: np.ndarray, *, override: bool = False,
               source: str = "upload") -> ReadOutcome:
    """Read `image_bgr` for the open game as a press would; "busy" if a read is in progress."""
    if not station._pending.acquire(blocking=False):
        return ReadOutcome("busy", "a read is already in progress: try again in a moment")
    t0 = time.perf_counter()
    camera = station.camera
    try:
        station.camera = PhotoCamera(image_bgr, source)
        return station._read(override, t0, on_tray=False)  # not the camera's view
    finally:
        station.camera = camera
        station._pending.release()
