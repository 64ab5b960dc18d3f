"""`dicestation doctor`: check the hardware and the set-up, say what to do.

Each check returns a Check(name, status, detail, fix). Hardware comes in
through the same factories the station uses, so the checks run on a laptop
with a replay camera and gpiozero's MockFactory too.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from station.camera import Camera, open_camera
from station.config import Config, load_config
from station.errors import StationError
from station.picamera import SIMPLEJPEG_FIX
from station.storage import StorageLimits, free_mb
from station.tray import LayoutError, layout_path, load_layout

OK, WARN, FAIL = "ok", "warn", "FAIL"
BUTTON_WAIT_S = 15.0
PI_MODEL_FILE = Path("/proc/device-tree/model")


@dataclass(frozen=True)
class Check:
    name: str
    status: str  # ok | warn | FAIL
    detail: str
    fix: str = ""

    def __str__(self) -> str:
        line = f"[{self.status:>4}] {self.name}: {self.detail}"
        return line + (f"\n       -> {self.fix}" if self.fix else "")


def check_config(path: str | None) -> tuple[Check, Config | None]:
    try:
        cfg = load_config(path)
    except StationError as exc:
        return Check("config", FAIL, str(exc), "edit the key named above in the config file"), None
    where = path or "built-in defaults"
    return Check("config", OK, f"{where} is valid"), cfg


def check_disk(folder: Path, limits: StorageLimits) -> Check:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".doctor-write-test"
        probe.write_bytes(b"ok")
        probe.unlink()
    except OSError as exc:
        return Check("disk", FAIL, f"cannot write to {folder}: {exc.strerror or exc}",
                     f"make {folder} writable by the station's user (sudo chown dicestation {folder})")
    left = free_mb(folder)
    if left < limits.min_free_mb:
        return Check("disk", FAIL, f"{left:.0f} MB free in {folder}; reads stop below "
                     f"{limits.min_free_mb:.0f} MB", "free some space or prune old photos")
    return Check("disk", OK, f"{left:.0f} MB free in {folder}")


def pi_model(model_file: Path = PI_MODEL_FILE) -> str | None:
    try:
        return model_file.read_bytes().rstrip(b"\0").decode(errors="replace")
    except OSError:
        return None


def check_gpio(model: str | None, env: dict[str, str], pin_factory: Any = None) -> Check:
    wanted = env.get("GPIOZERO_PIN_FACTORY", "")
    if model and "Raspberry Pi 5" in model and wanted != "lgpio":
        return Check("gpio", FAIL, f"{model} with GPIOZERO_PIN_FACTORY={wanted or '(unset)'}",
                     "set GPIOZERO_PIN_FACTORY=lgpio (install.sh writes it to "
                     "/etc/dicestation/environment) and apt install python3-lgpio")
    if pin_factory is not None:
        return Check("gpio", OK, f"pin factory {type(pin_factory).__name__}")
    try:
        from gpiozero import Device

        factory = Device._default_pin_factory()
        name = type(factory).__name__
        factory.close()
    except Exception as exc:  # gpiozero raises BadPinFactory and others
        status = FAIL if model else WARN
        return Check("gpio", status, f"no GPIO backend ({exc})",
                     "on a Pi: apt install python3-lgpio; elsewhere the button can't work "
                     "(use the page or the keyboard)")
    return Check("gpio", OK, f"backend {name}" + (f" on {model}" if model else ""))


def check_camera(cfg: Config, factory: Callable[[], Camera] | None = None) -> Check:
    t0 = time.perf_counter()
    try:
        with (factory or (lambda: open_camera(cfg.camera)))() as cam:
            frame = cam.capture()
            ms = (time.perf_counter() - t0) * 1000
            locked = getattr(cam, "locked", None)
    except StationError as exc:
        return Check("camera", FAIL, str(exc), _camera_fix(cfg, str(exc)))
    except Exception as exc:  # a driver error is still a failed check, not a crash
        return Check("camera", FAIL, f"{type(exc).__name__}: {exc}", _camera_fix(cfg, str(exc)))
    h, w = frame.image_bgr.shape[:2]
    detail = f"{cfg.camera.kind}: a {w}x{h} frame in {ms:.0f} ms"
    if cfg.camera.kind == "pi":
        if not locked or locked.get("AeEnable") is not False or locked.get("AwbEnable") is not False:
            return Check("camera", FAIL, detail + "; exposure/white balance NOT locked",
                         "report this: the station should lock them after settling")
        lens = frame.metadata.get("LensPosition")
        detail += f"; exposure {locked['ExposureTime']} us, gain {locked['AnalogueGain']:.2f} locked"
        if lens is not None:
            detail += f"; focus fixed at {lens:.2f} dioptres"
    if frame.image_bgr.mean() < 8:
        return Check("camera", WARN, detail + "; the frame is nearly black",
                     "check the lens cap, the light, and camera.kind")
    return Check("camera", OK, detail)


def _camera_fix(cfg: Config, why: str = "") -> str:
    if cfg.camera.kind == "pi" and "picamera2 cannot be imported" in why:
        if "another numpy" in why:  # station/picamera.py: Bookworm's simplejpeg and numpy 2
            return (f"{SIMPLEJPEG_FIX} (or run systemd/install.sh again), then "
                    "sudo systemctl restart dicestation")
        return "reinstall picamera2: sudo apt install --reinstall python3-picamera2"
    if cfg.camera.kind == "pi" and "picamera2 is not installed" in why:
        return ("sudo apt install python3-picamera2; the venv must be made with "
                "--system-site-packages (systemd/install.sh does both)")
    if cfg.camera.kind == "pi":
        return ("check the ribbon cable (contacts towards the board), that no other program uses "
                "the camera (rpicam-hello --list-cameras), and that the user is in the video group")
    if cfg.camera.kind == "opencv":
        return f"is a webcam plugged in as device {cfg.camera.device}? (ls /dev/video*)"
    return "camera.folder must be a folder of .jpg/.png images"


def check_button(cfg: Config, *, wait_s: float = BUTTON_WAIT_S, pin_factory: Any = None,
                 say: Callable[[str], None] = print) -> Check:
    if not cfg.button.enabled:
        return Check("button", WARN, "disabled in the config (button.enabled = false)",
                     "wire a button from a GPIO pin to ground and set button.enabled = true")
    from station.trigger import GpioButton

    pressed = threading.Event()
    try:
        button = GpioButton(cfg.button.pin, pressed.set, bounce_s=cfg.button.bounce_s,
                            pin_factory=pin_factory)
    except Exception as exc:
        return Check("button", FAIL, f"cannot use GPIO{cfg.button.pin}: {exc}",
                     "check the gpio group membership and the GPIO backend")
    with button:
        say(f"       press the button now (GPIO{cfg.button.pin}, {wait_s:.0f} s)...")
        if not pressed.wait(wait_s):
            return Check("button", FAIL, f"no press on GPIO{cfg.button.pin} within {wait_s:.0f} s",
                         f"wire the button between GPIO{cfg.button.pin} and a GND pin; "
                         "check button.pin in the config (BCM numbering)")
    return Check("button", OK, f"GPIO{cfg.button.pin} pressed")


def check_calibration(cfg: Config) -> Check:
    """The tray layout saved by the calibration page (station.tray), and the seat zones."""
    try:
        layout = load_layout(cfg.data_dir)
    except LayoutError as exc:
        return Check("calibration", FAIL, f"{exc}; the station ignores it (config zones only, "
                     "no tray corners)", "GM screen -> Calibrate: set the corners and seat zones "
                     f"and save them again (or delete {layout_path(cfg.data_dir)})")
    parts = []
    if layout is not None and layout.corners:
        parts.append(f"tray corners set ({layout_path(cfg.data_dir)})")
    if layout is not None and layout.zones:
        parts.append(f"{len(layout.zones)} seat zones (calibration)")
    elif cfg.table.zones:
        parts.append(f"{len(cfg.table.zones)} seat zones (config)")
    if not parts:
        return Check("calibration", WARN, "no tray calibration and no seat zones",
                     "GM screen -> Calibrate: capture the empty tray, set its corners and the "
                     "seat zones (needed for Barras and Dados Centrales)")
    return Check("calibration", OK, ", ".join(parts))


def check_dice_set(cfg: Config) -> Check:
    """The taught dice set the station reads with (station.vision_reader), if any."""
    if cfg.read.reader != "vision":
        return Check("dice set", OK, f"read.reader is {cfg.read.reader!r}: no taught set applies")
    from station.vision_reader import VisionReader

    reader = VisionReader(cfg.data_dir)
    if reader.problem:
        return Check("dice set", WARN, reader.problem,
                     "GM screen -> Calibrate -> Teach a dice set: teach the set again, or choose another")
    taught = reader.taught()
    if reader.in_use is None:
        return Check("dice set", OK, "reads untaught (common d6, d8, d10, d10t and tabas)"
                     + (f"; taught sets not in use: {', '.join(taught)}" if taught else ""))
    return Check("dice set", OK, f"reads with the taught set {reader.in_use!r}")


def check_networks(cfg: Config) -> Check:
    """The reader's networks (vision/models): there, loading, and what runs them."""
    if cfg.read.reader != "vision":
        return Check("networks", OK, f"read.reader is {cfg.read.reader!r}: no networks used")
    from vision import learned

    if not learned.models_present():
        return Check("networks", WARN, "the d6 networks (vision/models) are missing: the classical "
                     "reader reads, slower and less surely", "install the station again (systemd/install.sh)")
    try:
        models = learned.load_models()
    except Exception as exc:  # a damaged file: each runtime raises its own error
        return Check("networks", FAIL, f"the d6 networks do not load: {type(exc).__name__}: {exc}",
                     "install the station again (systemd/install.sh)")
    from vision import faces, numerals

    upgrade = ("/opt/dicestation/.venv/bin/pip install --upgrade opencv-python-headless "
               "(and, on a 64-bit OS, onnxruntime), then restart the station")
    slower = ("" if models.classifier.runtime == "onnxruntime" else
              "; and OpenCV's dnn runs the networks: reads take about twice as long")
    face_fault = faces.load_error() if faces.load_net() is None else ""
    if face_fault:
        # the d6 networks load: d6 are read, numeral dice in part, tabas not
        return Check("networks", WARN, f"the face network (vision/models/{faces.MODEL_NAME}) does not "
                     f"load ({face_fault}): tabas are not read, numeral dice only in the fonts the numeral "
                     "network knows, and no dice set can be taught" + slower, upgrade)
    numeral_fault = numerals.load_error() if numerals.load_net() is None else ""
    if numeral_fault:
        # the d6 networks load: dice are read, but numerals in fonts never taught are not
        return Check("networks", WARN, f"the numeral network (vision/models/{numerals.MODEL_NAME}) does "
                     f"not load ({numeral_fault}): numerals in fonts never taught are not read"
                     + slower, upgrade)
    if models.classifier.fallback:
        return Check("networks", WARN, f"run by OpenCV's dnn: onnxruntime cannot run them "
                     f"({models.classifier.fallback}); reads take about twice as long",
                     "/opt/dicestation/.venv/bin/pip install --force-reinstall onnxruntime, then "
                     "restart the station")
    if models.classifier.runtime != "onnxruntime":
        return Check("networks", WARN, "run by OpenCV's dnn (onnxruntime is not installed): reads "
                     "take about twice as long", "on a 64-bit OS: /opt/dicestation/.venv/bin/pip install "
                     "onnxruntime, then restart the station")
    import onnxruntime

    return Check("networks", OK, f"run by onnxruntime {onnxruntime.__version__}")


def run_checks(config_path: str | None, *, camera_factory=None, pin_factory=None,
               wait_s: float = BUTTON_WAIT_S, env: dict[str, str] | None = None,
               model_file: Path = PI_MODEL_FILE, limits: StorageLimits | None = None,
               say: Callable[[str], None] = print) -> list[Check]:
    """Every check in order; prints each as it completes through `say`."""
    results: list[Check] = []

    def done(check: Check) -> None:
        results.append(check)
        say(str(check))

    check, cfg = check_config(config_path)
    done(check)
    if cfg is None:
        return results
    done(check_disk(cfg.data_dir, limits or getattr(cfg, "storage", StorageLimits())))
    done(check_gpio(pi_model(model_file), dict(os.environ if env is None else env), pin_factory))
    done(check_camera(cfg, camera_factory))
    done(check_button(cfg, wait_s=wait_s, pin_factory=pin_factory, say=say))
    done(check_calibration(cfg))
    done(check_networks(cfg))
    done(check_dice_set(cfg))
    return results
