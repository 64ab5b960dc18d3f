"""The systemd unit that runs the station at boot (issue 7)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
UNIT = REPO / "systemd" / "dicestation.service"


def render(prefix: Path, data: Path, etc: Path) -> str:
    text = UNIT.read_text()
    for key, value in {"@PREFIX@": prefix, "@USER@": "dicestation", "@ETC@": etc, "@DATA@": data}.items():
        text = text.replace(key, str(value))
    return text


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not installed")
def test_systemd_analyze_verify_accepts_the_unit(tmp_path):
    prefix = tmp_path / "opt"
    (prefix / ".venv" / "bin").mkdir(parents=True)
    exe = prefix / ".venv" / "bin" / "dicestation"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    unit = tmp_path / "dicestation.service"
    unit.write_text(render(prefix, tmp_path, tmp_path))
    done = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True,
                          check=False)
    ours = [line for line in done.stderr.splitlines() if "dicestation" in line]
    assert done.returncode == 0 and not ours, done.stderr


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not installed")
def test_verify_would_catch_a_broken_unit(tmp_path):
    unit = tmp_path / "dicestation.service"
    unit.write_text(render(tmp_path / "missing", tmp_path, tmp_path))
    done = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True,
                          check=False)
    assert done.returncode != 0 and "not executable" in done.stderr


def test_the_unit_restarts_on_failure_with_a_back_off_and_logs_to_the_journal():
    text = UNIT.read_text()
    assert "Restart=on-failure" in text
    assert "RestartSec=5" in text
    assert "StartLimitBurst=" in text and "StartLimitIntervalSec=" in text
    assert "SupplementaryGroups=video gpio" in text
    assert "PYTHONUNBUFFERED=1" in text
    assert "dicestation run --config" in text
