"""scripts/kind_report.py: per-kind figures over every labelled die, also
read as for a game (`--kinds`, as the station reads)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCENES = ROOT / "tests" / "fixtures" / "numerals" / "eval"


def _kind_report():
    spec = importlib.util.spec_from_file_location("kind_report", ROOT / "scripts" / "kind_report.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _right(capsys) -> dict[str, int]:
    """kind -> dice read right, from lines like `d8: right 13/13 = 100.0%, wrong 0 (0.0%)`."""
    return {line.split(":")[0]: int(line.split("right ")[1].split("/")[0])
            for line in capsys.readouterr().out.splitlines()}


def test_a_game_of_d8_reads_no_d10(capsys):
    kr = _kind_report()
    assert kr.main([str(SCENES)]) == 0
    free = _right(capsys)
    assert kr.main(["--kinds", "d8", str(SCENES)]) == 0
    game = _right(capsys)
    assert free["d10"] > 0 and game["d10"] == 0
    assert game["d8"] >= free["d8"] > 0  # every d8 read as before, or more


def test_an_unknown_kind_is_refused_by_name(capsys):
    with pytest.raises(SystemExit) as e:
        _kind_report().main(["--kinds", "d7", str(SCENES)])
    assert e.value.code == 2
    assert "d7 is not a kind of die" in capsys.readouterr().err
