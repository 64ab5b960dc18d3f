"""systemd/install.sh: idempotent, keeps the config and the token, renders the unit."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from station.config import load_config

REPO = Path(__file__).resolve().parents[2]
INSTALL = REPO / "systemd" / "install.sh"


def install(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(INSTALL), "--root", str(root)], capture_output=True,
                          text=True, check=False, timeout=300)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    root = tmp_path_factory.mktemp("pi")
    first = install(root)
    assert first.returncode == 0, first.stderr
    return root, first


def test_install_lays_out_code_config_environment_and_unit(installed):
    root, done = installed
    assert (root / "opt/dicestation/station/cli.py").exists()
    assert (root / "opt/dicestation/.venv/bin/python").exists()
    assert not (root / "opt/dicestation/.git").exists()
    unit = (root / "etc/systemd/system/dicestation.service").read_text()
    assert "@" not in unit
    assert "ExecStart=/opt/dicestation/.venv/bin/dicestation run --config /etc/dicestation/dicestation.toml" in unit
    env = (root / "etc/dicestation/environment").read_text()
    assert "DICESTATION_GM_TOKEN=" in env
    assert oct((root / "etc/dicestation/environment").stat().st_mode & 0o777) == "0o600"
    assert "dicestation doctor" in done.stdout


def test_the_installed_config_is_valid_and_set_for_a_pi(installed):
    root, _ = installed
    cfg = load_config(root / "etc/dicestation/dicestation.toml")
    assert cfg.camera.kind == "pi" and cfg.button.enabled
    assert cfg.data == "/var/lib/dicestation"


def test_a_second_run_keeps_the_users_config_and_token(installed):
    root, _ = installed
    conf = root / "etc/dicestation/dicestation.toml"
    conf.write_text(conf.read_text().replace("pin = 17", "pin = 22"))
    token = (root / "etc/dicestation/environment").read_text()
    again = install(root)
    assert again.returncode == 0, again.stderr
    assert "pin = 22" in conf.read_text()
    assert (root / "etc/dicestation/environment").read_text() == token


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not installed")
def test_the_rendered_unit_verifies(installed, tmp_path):
    root, _ = installed
    unit = (root / "etc/systemd/system/dicestation.service").read_text()
    exe = tmp_path / "dicestation"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    local = tmp_path / "dicestation.service"
    local.write_text(unit.replace("/opt/dicestation/.venv/bin/dicestation", str(exe)))
    done = subprocess.run(["systemd-analyze", "verify", str(local)], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr


def test_unknown_options_are_refused():
    done = subprocess.run(["bash", str(INSTALL), "--frobnicate"], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 2 and "unknown option --frobnicate" in done.stderr
