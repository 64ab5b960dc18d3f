"""Cameras: `capture() -> Frame`, `close()`, each a context manager.

`PiCamera` lives in `station.picamera` (the only module importing picamera2);
`OpenCVCamera` is a USB webcam; `ReplayCamera` plays a folder of recorded
images in order, for the demo and the tests.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from station.config import CameraConfig
from station.errors import CameraError

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")
OPENCV_STALE_FRAMES = 2  # frames grabbed and dropped so the read sees a fresh one


@dataclass(frozen=True)
class Frame:
    image_bgr: np.ndarray
    metadata: dict[str, Any] = field(default_factory=dict)
    time: float = 0.0  # wall clock (seconds since the epoch) when it was taken


class Camera:
    """Base: a context manager with a readable repr. `live` cameras see moving dice."""

    live = True

    def capture(self) -> Frame:  # pragma: no cover - interface
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __enter__(self) -> Camera:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


class ReplayCamera(Camera):
    """A folder of recorded images, one per capture, in name order."""

    live = False

    def __init__(self, folder: str | Path, *, loop: bool = False) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise CameraError(f"replay camera: {self.folder} is not a folder")
        self.paths = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.paths:
            raise CameraError(f"replay camera: no images in {self.folder}")
        self.loop = loop
        self.position = 0
        self.closed = False

    def resume_after(self, name: str | None) -> None:
        """Continue after the image called `name` (the last one stored before a restart)."""
        names = [p.name for p in self.paths]
        if name in names:
            self.position = names.index(name) + 1

    @property
    def remaining(self) -> int:
        return len(self.paths) - self.position

    def capture(self) -> Frame:
        if self.closed:
            raise CameraError("replay camera: closed")
        if self.position >= len(self.paths):
            if not self.loop:
                raise CameraError(f"replay camera: no more images in {self.folder}")
            self.position = 0
        path = self.paths[self.position]
        self.position += 1
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise CameraError(f"replay camera: cannot decode {path.name}")
        return Frame(image, {"source": path.name}, time.time())

    def close(self) -> None:
        self.closed = True

    def __repr__(self) -> str:
        return f"<ReplayCamera {self.folder} {self.position}/{len(self.paths)}>"


class OpenCVCamera(Camera):
    """A USB webcam through cv2.VideoCapture (a laptop at the table)."""

    def __init__(self, device: int = 0, width: int = 1920, height: int = 1080) -> None:
        self.device = device
        self.cap = cv2.VideoCapture(device)
        if not self.cap.isOpened():
            self.cap.release()
            raise CameraError(f"webcam {device}: cannot open (is it plugged in, or used by another program?)")
        self.cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        self.cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        self.cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)

    def capture(self) -> Frame:
        for _ in range(OPENCV_STALE_FRAMES):  # drop buffered frames taken before the press
            self.cap.grab()
        ok, image = self.cap.read()
        if not ok or image is None:
            raise CameraError(f"webcam {self.device}: no frame (unplugged?)")
        return Frame(image, {"device": self.device}, time.time())

    def close(self) -> None:
        self.cap.release()

    def __repr__(self) -> str:
        return f"<OpenCVCamera device={self.device}>"


def default_replay_folder() -> Path:
    return Path(__file__).parent / "data" / "demo"


def open_camera(cfg: CameraConfig) -> Camera:
    """The camera the config names; CameraError with a clear message if it cannot open."""
    if cfg.kind == "replay":
        return ReplayCamera(cfg.folder or default_replay_folder(), loop=cfg.loop)
    if cfg.kind == "opencv":
        return OpenCVCamera(cfg.device, cfg.width, cfg.height)
    from station.picamera import PiCamera

    return PiCamera(cfg)


class RetryingCamera(Camera):
    """Opens the real camera on first use and again after a failure, so the station keeps
    running when the camera is unplugged or busy; each failure is a CameraError."""

    def __init__(self, factory, *, live: bool = True) -> None:
        self.factory = factory
        self.live = live
        self.camera: Camera | None = None

    def _get(self) -> Camera:
        if self.camera is None:
            try:
                self.camera = self.factory()
            except CameraError:
                raise
            except Exception as exc:  # a driver that fails to open: try again on the next press
                raise CameraError(f"camera cannot open: {type(exc).__name__}: {exc}") from exc
            self.live = self.camera.live
        return self.camera

    def resume_after(self, name: str | None) -> None:
        cam = self._get()
        if hasattr(cam, "resume_after"):
            cam.resume_after(name)

    def capture(self) -> Frame:
        cam = self._get()
        try:
            return cam.capture()
        except CameraError:
            if not isinstance(cam, ReplayCamera):  # a replay at its end stays at its end
                self.close()
            raise
        except Exception as exc:  # a driver error: reopen on the next press
            self.close()
            raise CameraError(f"{exc}") from exc

    def close(self) -> None:
        if self.camera is not None:
            cam, self.camera = self.camera, None
            cam.close()

    def __repr__(self) -> str:
        return f"<RetryingCamera {self.camera!r}>"
