"""`dicestation doctor` says what works and, for each failure, what to do (issue 7)."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from station.camera import Camera, Frame
from station.commands.doctor import run as run_doctor
from station.doctor import FAIL, OK, WARN, check_gpio, run_checks
from station.errors import CameraError
from station.storage import StorageLimits


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.close()


def write_config(tmp_path, text: str = "") -> str:
    path = tmp_path / "dicestation.toml"
    path.write_text(f'data = "{tmp_path / "data"}"\n' + text)
    return str(path)


class Broken(Camera):
    def capture(self) -> Frame:
        raise CameraError("Pi camera: cannot open (no cameras available)")


class Grey(Camera):
    def capture(self) -> Frame:
        return Frame(np.full((120, 160, 3), 90, np.uint8), {}, 0.0)


def by_name(results):
    return {c.name: c for c in results}


def test_a_healthy_laptop_set_up(tmp_path, factory):
    cfg = write_config(tmp_path, "[button]\nenabled = true\npin = 17\n")
    pin = factory.pin(17)
    threading.Timer(0.2, pin.drive_low).start()
    out: list[str] = []
    results = by_name(run_checks(cfg, camera_factory=Grey, pin_factory=factory, wait_s=5,
                                 env={}, model_file=tmp_path / "none", say=out.append))
    assert [results[n].status for n in ("config", "disk", "gpio", "camera", "button")] == [OK] * 5
    assert "a 160x120 frame" in results["camera"].detail
    assert any("press the button now" in line for line in out)
    assert results["calibration"].status == WARN and "Calibrate" in results["calibration"].fix
    assert results["networks"].status == OK and "onnxruntime" in results["networks"].detail


def test_each_failure_says_what_to_do(tmp_path, factory):
    cfg = write_config(tmp_path, '[camera]\nkind = "pi"\n[button]\nenabled = true\npin = 5\n')
    results = by_name(run_checks(cfg, camera_factory=Broken, pin_factory=factory, wait_s=0.3,
                                 env={}, model_file=tmp_path / "none",
                                 limits=StorageLimits(min_free_mb=1e12), say=lambda s: None))
    assert results["camera"].status == FAIL and "ribbon cable" in results["camera"].fix
    assert results["button"].status == FAIL and "GPIO5" in results["button"].fix
    assert results["disk"].status == FAIL and "free some space" in results["disk"].fix


def test_a_bad_config_names_the_key(tmp_path):
    cfg = write_config(tmp_path, "[camera]\nkindd = 1\n")
    results = run_checks(cfg, say=lambda s: None)
    assert len(results) == 1 and results[0].status == FAIL
    assert "camera.kindd" in results[0].detail


def test_a_pi5_without_lgpio_is_a_failure(tmp_path):
    model = "Raspberry Pi 5 Model B Rev 1.0"
    check = check_gpio(model, {})
    assert check.status == FAIL and "GPIOZERO_PIN_FACTORY=lgpio" in check.fix
    assert check_gpio(model, {"GPIOZERO_PIN_FACTORY": "lgpio"}, pin_factory=object()).status == OK


def test_the_command_exits_1_on_a_failure(tmp_path, capsys):
    cfg = write_config(tmp_path, '[camera]\nkind = "opencv"\ndevice = 97\n')

    class Args:
        config = cfg

    assert run_doctor(Args()) == 1
    out = capsys.readouterr().out
    assert "[FAIL] camera" in out and "/dev/video" in out


def test_calibration_reads_the_pages_tray_file(tmp_path):
    from station.config import load_config
    from station.doctor import check_calibration

    cfg = load_config(write_config(tmp_path))
    tray = tmp_path / "data" / "calibration" / "tray.json"
    tray.parent.mkdir(parents=True)
    tray.write_text('{"corners": [[0, 0], [9, 0], [9, 9], [0, 9]], '
                    '"zones": [{"name": "A", "polygon": [[0, 0], [9, 0], [9, 9]]}]}')
    check = check_calibration(cfg)
    assert check.status == OK and "tray corners set" in check.detail and "1 seat zones" in check.detail
    tray.write_text('{"corners": [[0, 0]')
    check = check_calibration(cfg)
    assert check.status == FAIL and "not valid JSON" in check.detail and "Calibrate" in check.fix


def test_the_dice_set_in_use_is_told_and_one_that_no_longer_loads_warns(tmp_path):
    import json

    from station.config import load_config
    from station.doctor import check_dice_set

    cfg = load_config(write_config(tmp_path))
    check = check_dice_set(cfg)
    assert check.status == OK and "untaught" in check.detail
    choice = tmp_path / "data" / "calibration" / "profile.json"
    choice.parent.mkdir(parents=True)
    choice.write_text(json.dumps({"profile": "gone"}))  # its folder was deleted
    check = check_dice_set(cfg)
    assert check.status == WARN and "gone" in check.detail and "teach" in check.fix


def networks_check(tmp_path):
    """doctor's networks check, with the networks loaded afresh (and the cache
    cleared again after: later tests load the real ones)."""
    from station.config import load_config
    from station.doctor import check_networks
    from vision import faces, learned, numerals

    loaders = (learned.load_models, faces.load_net, numerals.load_net)
    for load in loaders:
        load.cache_clear()
    try:
        return check_networks(load_config(write_config(tmp_path)))
    finally:
        for load in loaders:
            load.cache_clear()


def test_networks_on_the_slower_runtime_say_how_to_speed_up(tmp_path, monkeypatch):
    """Where onnxruntime is missing the station still reads (cv2.dnn), and the
    doctor says reads are slower and how to install it."""
    from vision import learned, onnxnet

    if not learned.models_present():
        pytest.skip("no bundled models")
    monkeypatch.setattr(onnxnet, "HAVE_ORT", False)
    check = networks_check(tmp_path)
    assert check.status == WARN and "OpenCV" in check.detail and "pip install onnxruntime" in check.fix


def test_missing_networks_are_named(tmp_path, monkeypatch):
    from vision import learned

    monkeypatch.setattr(learned, "models_present", lambda *a: False)
    check = networks_check(tmp_path)
    assert check.status == WARN and "vision/models" in check.detail and "install" in check.fix


@pytest.mark.parametrize(("network", "lost"), [
    ("numerals", "numerals in fonts never taught are not read"),
    ("faces", "tabas are not read"),
])
def test_an_8_bit_network_that_does_not_load_is_named(tmp_path, monkeypatch, network, lost):
    """The d6 networks load but the numeral or the face network does not (an
    OpenCV too old for their 8-bit layers): d6 are read, and the doctor says
    which network, what is not read, and what to do."""
    import importlib

    from tests.vision.netfault import ERROR, unloadable
    from vision import learned

    if not learned.models_present():
        pytest.skip("no bundled models")
    module = importlib.import_module(f"vision.{network}")
    with unloadable(monkeypatch, module):
        check = networks_check(tmp_path)
    assert check.status == WARN
    assert f"{network}.onnx" in check.detail and ERROR in check.detail
    assert lost in check.detail
    assert "opencv" in check.fix


def test_an_onnxruntime_that_cannot_run_is_named(tmp_path, monkeypatch):
    from vision import learned, onnxnet

    if not learned.models_present() or not onnxnet.HAVE_ORT:
        pytest.skip("no bundled models or no onnxruntime")

    def broken(model):
        raise RuntimeError("Illegal instruction")

    monkeypatch.setattr(onnxnet, "_ort_session", broken)
    check = networks_check(tmp_path)
    assert check.status == WARN and "Illegal instruction" in check.detail and "reinstall" in check.fix
