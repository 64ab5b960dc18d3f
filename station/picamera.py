"""The Raspberry Pi camera through picamera2: the only module that imports it.

One still configuration is configured once and kept running (switching modes
costs 500-700 ms and, repeated, fails with out-of-memory). Exposure and white
balance settle for `settle_s`, then are locked at the settled values so colours
stay the same all evening; autofocus (Camera Module 3) is set to a fixed lens
position. A capture asks for a request that started after the call
(`capture_request(flush=True)`), so a read never sees a frame from before the
press. picamera2 is imported in `__init__`, so `station` imports without it.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import Any

import numpy as np

from station.camera import Camera, Frame
from station.config import CameraConfig
from station.errors import CameraError

# Metadata kept with each frame (a subset of libcamera's per-frame metadata).
KEPT_METADATA = ("ExposureTime", "AnalogueGain", "ColourGains", "LensPosition",
                 "SensorTimestamp", "Lux", "ColourTemperature")
# What puts a simplejpeg built for the venv's numpy ahead of the system's (import_picamera2).
SIMPLEJPEG_FIX = f'{sys.executable} -m pip install "simplejpeg>=1.8.2"'


def import_picamera2():
    """picamera2's Picamera2 class, or a CameraError saying why it cannot be imported.

    picamera2 comes from the system (python3-picamera2) and so do the compiled modules it
    imports (simplejpeg). On Raspberry Pi OS Bookworm those were built against the system's
    numpy 1.x, while the station's venv holds numpy 2.x (OpenCV's wheels need it): the import
    then fails with "numpy.dtype size changed, may indicate binary incompatibility"
    (picamera2 issues 1088, 1211). systemd/install.sh puts a simplejpeg built for numpy 2 in
    the venv (the `pi` extra); this error says to do so if it is missing.
    """
    try:
        from picamera2 import Picamera2  # system package python3-picamera2
    except ModuleNotFoundError as exc:
        if exc.name not in ("picamera2", "libcamera"):
            raise CameraError(f"Pi camera: picamera2 cannot be imported: {exc}") from exc
        raise CameraError(
            "Pi camera: picamera2 is not installed (apt install python3-picamera2 and make "
            "the venv with --system-site-packages), or set camera.kind = \"opencv\"/\"replay\""
        ) from exc
    except (ImportError, ValueError) as exc:
        why = f"Pi camera: picamera2 cannot be imported ({type(exc).__name__}: {exc})"
        if "numpy" not in str(exc) and "binary incompatibility" not in str(exc):
            raise CameraError(why) from exc
        raise CameraError(  # a compiled module built for another numpy
            f"{why}. A system module it uses was built for another numpy than the station's "
            f"{np.__version__}: run {SIMPLEJPEG_FIX} (systemd/install.sh does this), then "
            "restart the station"
        ) from exc
    return Picamera2


class PiCamera(Camera):
    def __init__(self, cfg: CameraConfig) -> None:
        Picamera2 = import_picamera2()
        self.cfg = cfg
        self._lock = threading.Lock()
        try:
            self.cam = Picamera2()
        except Exception as exc:  # libcamera raises plain RuntimeError/IndexError
            raise CameraError(f"Pi camera: cannot open ({exc}); is another process using it?") from exc
        try:
            config = self.cam.create_still_configuration(
                main={"size": (cfg.width, cfg.height), "format": "RGB888"},  # BGR in memory
                buffer_count=cfg.buffer_count,
            )
            self.cam.configure(config)
            self.cam.start()
            self._lock_controls()
        except Exception as exc:
            self.cam.close()
            raise CameraError(f"Pi camera: cannot start ({exc})") from exc

    def _lock_controls(self) -> None:
        """Let AE/AWB settle, then fix exposure, gain, white balance and focus."""
        controls: dict[str, Any] = {}
        if "LensPosition" in self.cam.camera_controls:
            controls.update(AfMode=0, LensPosition=self.cfg.lens_position)  # 0 = manual
            self.cam.set_controls(controls)
        time.sleep(self.cfg.settle_s)
        meta = self.cam.capture_metadata()
        controls = {
            "AeEnable": False,
            "AwbEnable": False,
            "ExposureTime": int(meta["ExposureTime"]),
            "AnalogueGain": float(meta["AnalogueGain"]),
            "ColourGains": tuple(meta["ColourGains"]),
        }
        self.cam.set_controls(controls)
        self.locked = controls

    def capture(self) -> Frame:
        with self._lock:
            started = time.time()
            try:
                request = self.cam.capture_request(flush=True)
            except Exception as exc:
                raise CameraError(f"Pi camera: capture failed ({exc})") from exc
            try:
                image = request.make_array("main")
                meta = request.get_metadata()
            finally:
                request.release()
            if time.time() - started > self.cfg.timeout_s:
                raise CameraError(f"Pi camera: capture took longer than {self.cfg.timeout_s} s")
        kept = {k: meta[k] for k in KEPT_METADATA if k in meta}
        return Frame(image, kept, time.time())

    def close(self) -> None:
        try:
            self.cam.stop()
        finally:
            self.cam.close()

    def __repr__(self) -> str:
        return f"<PiCamera {self.cfg.width}x{self.cfg.height} buffers={self.cfg.buffer_count}>"
