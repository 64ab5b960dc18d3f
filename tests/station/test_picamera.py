"""station/picamera.py against a stand-in picamera2 package (the real one needs a Pi).

The stand-in is written to a temporary folder and put first on sys.path; it records what the
station asks of the camera, so the tests check the station's side of the contract: one still
configuration in BGR with 2-3 buffers, exposure, white balance and focus locked after the
settle, a request taken after the press, and a clear error when picamera2 cannot be used.
"""

from __future__ import annotations

import sys
import textwrap

import numpy as np
import pytest

from station.camera import RetryingCamera, open_camera
from station.config import CameraConfig, Config
from station.doctor import FAIL, check_camera
from station.errors import CameraError
from station.picamera import KEPT_METADATA, PiCamera

FAKE = '''
import numpy as np

calls = []
fail = {}


class Request:
    def make_array(self, name):
        calls.append(("make_array", name))
        return np.full((6, 8, 3), 90, np.uint8)

    def get_metadata(self):
        return {"ExposureTime": 12000, "AnalogueGain": 2.0, "ColourGains": (1.8, 1.5),
                "SensorTimestamp": 5, "FrameDuration": 33333, "DigitalGain": 1.0}

    def release(self):
        calls.append(("release",))


class Picamera2:
    def __init__(self):
        if "open" in fail:
            raise RuntimeError(fail["open"])
        self.camera_controls = {"LensPosition": (0.0, 15.0, 1.0), "ExposureTime": (1, 9, 2)}

    def create_still_configuration(self, main, buffer_count):
        return {"main": main, "buffer_count": buffer_count}

    def configure(self, config):
        calls.append(("configure", config))

    def start(self):
        calls.append(("start",))

    def set_controls(self, controls):
        calls.append(("set_controls", dict(controls)))

    def capture_metadata(self):
        return {"ExposureTime": 12000, "AnalogueGain": 2.0, "ColourGains": (1.8, 1.5)}

    def capture_request(self, flush=False):
        if "capture" in fail:
            raise RuntimeError(fail["capture"])
        calls.append(("capture_request", flush))
        return Request()

    def stop(self):
        calls.append(("stop",))

    def close(self):
        calls.append(("close",))
'''


@pytest.fixture
def picamera2(tmp_path, monkeypatch):
    """Write a picamera2 package whose __init__ is `body`; return the imported module."""
    def install(body: str = FAKE):
        package = tmp_path / "picamera2"
        package.mkdir(exist_ok=True)
        (package / "__init__.py").write_text(textwrap.dedent(body))
        monkeypatch.syspath_prepend(str(tmp_path))
        return package
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    yield install
    sys.modules.pop("picamera2", None)


PI = CameraConfig(kind="pi", width=2028, height=1520, buffer_count=3, settle_s=0.0,
                  lens_position=2.5)


def test_the_pi_camera_locks_focus_exposure_and_colour_and_reads_a_frame_after_the_press(picamera2):
    picamera2()
    cam = open_camera(PI)
    fake = sys.modules["picamera2"]
    configure, start, focus, locked = fake.calls[:4]
    assert configure == ("configure", {"main": {"size": (2028, 1520), "format": "RGB888"},
                                       "buffer_count": 3})
    assert start == ("start",)
    assert focus == ("set_controls", {"AfMode": 0, "LensPosition": 2.5})
    assert locked == ("set_controls", {"AeEnable": False, "AwbEnable": False,
                                       "ExposureTime": 12000, "AnalogueGain": 2.0,
                                       "ColourGains": (1.8, 1.5)})
    fake.calls.clear()
    frame = cam.capture()
    assert fake.calls == [("capture_request", True), ("make_array", "main"), ("release",)]
    assert frame.image_bgr.shape == (6, 8, 3)
    assert set(frame.metadata) <= set(KEPT_METADATA)
    assert frame.metadata["ExposureTime"] == 12000 and "FrameDuration" not in frame.metadata
    cam.close()
    assert fake.calls[-2:] == [("stop",), ("close",)]


def test_a_failed_capture_or_open_is_a_camera_error(picamera2):
    picamera2()
    cam = PiCamera(PI)
    fake = sys.modules["picamera2"]
    fake.fail["capture"] = "Device or resource busy"
    with pytest.raises(CameraError, match="capture failed .Device or resource busy"):
        cam.capture()
    fake.fail["open"] = "Camera __init__ sequence did not complete."
    with pytest.raises(CameraError, match="cannot open .*another process using it"):
        PiCamera(PI)


def test_without_picamera2_the_error_says_what_to_install(picamera2):
    picamera2("import libcamera  # not on this machine\n")
    with pytest.raises(CameraError, match="picamera2 is not installed .apt install python3-picamera2"):
        PiCamera(PI)


def test_picamera2_built_for_another_numpy_says_how_to_fix_it(picamera2):
    # What Raspberry Pi OS Bookworm's picamera2 does in a venv with numpy 2: its simplejpeg
    # was compiled against numpy 1.24 (picamera2 issues 1088, 1211).
    picamera2('raise ValueError("numpy.dtype size changed, may indicate binary '
              'incompatibility. Expected 96 from C header, got 88 from PyObject")\n')
    with pytest.raises(CameraError) as err:
        PiCamera(PI)
    message = str(err.value)
    assert "binary incompatibility" in message
    assert f"the station's {np.__version__}" in message
    assert f"{sys.executable} -m pip install \"simplejpeg>=1.8.2\"" in message


def test_the_station_reports_a_camera_that_cannot_be_imported_and_tries_again(picamera2):
    package = picamera2('raise ValueError("numpy.dtype size changed, may indicate binary '
                        'incompatibility")\n')
    camera = RetryingCamera(lambda: open_camera(PI))
    with pytest.raises(CameraError, match="simplejpeg"):
        camera.capture()
    with pytest.raises(CameraError, match="simplejpeg"):  # still broken: the same clear error
        camera.resume_after("photo_0001.jpg")
    (package / "__init__.py").write_text(textwrap.dedent(FAKE))  # the user runs the fix
    sys.modules.pop("picamera2", None)
    assert camera.capture().image_bgr.shape == (6, 8, 3)
    camera.close()


def test_a_driver_that_raises_something_else_while_opening_is_a_camera_error():
    def factory():
        raise OSError("/dev/media0: permission denied")
    camera = RetryingCamera(factory)
    with pytest.raises(CameraError, match="cannot open: OSError: /dev/media0: permission denied"):
        camera.capture()


def test_doctor_names_the_fix_for_picamera2_built_for_another_numpy(picamera2):
    picamera2('raise ValueError("numpy.dtype size changed, may indicate binary '
              'incompatibility")\n')
    check = check_camera(Config(camera=PI))
    assert check.status == FAIL and "binary incompatibility" in check.detail
    assert 'pip install "simplejpeg>=1.8.2"' in check.fix and "ribbon" not in check.fix
    picamera2("import libcamera  # not on this machine\n")
    sys.modules.pop("picamera2", None)
    check = check_camera(Config(camera=PI))
    assert check.status == FAIL and "apt install python3-picamera2" in check.fix
