"""Tabas touching another, rendered (tests/fixtures/tabas_touching): each bone
of a chain of three is read, none twice, and no face is given wrong."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.dataset import load_dataset
from calibration.evaluate import evaluate
from vision import read_dice

TOUCHING = Path(__file__).resolve().parents[1] / "fixtures" / "tabas_touching"
CHAIN = TOUCHING / "taba_9700_00005.jpg"
# the chain at the top left: liso, tripas in the middle, tripas
CHAIN_TABAS = [("liso", (150, 40)), ("tripas", (179, 100)), ("tripas", (131, 182))]

pytestmark = pytest.mark.skipif(not TOUCHING.is_dir(), reason="no touching-taba fixtures")


def _answered(reading, value, at, within=20.0):
    return [d for d in reading.dice
            if d.kind == "taba" and d.value == value and np.hypot(d.center[0] - at[0], d.center[1] - at[1]) < within]


def test_every_bone_of_a_chain_of_three_is_read():
    r = read_dice(cv2.imread(str(CHAIN)))
    for value, at in CHAIN_TABAS:
        assert len(_answered(r, value, at)) == 1, (value, at, [d.to_json() for d in r.dice])


def test_the_middle_bone_is_found_by_the_look_at_what_is_not_tray(monkeypatch):
    """Without the look at the middles of what is not tray the middle bone of
    the chain is not seen at all (the detector has no peak of its own there)."""
    monkeypatch.setattr("vision.kinds._bone_places", lambda *a, **k: [])
    r = read_dice(cv2.imread(str(CHAIN)))
    assert not _answered(r, "tripas", (179, 100), within=30.0)
    assert not any(np.hypot(q.center[0] - 179, q.center[1] - 100) < 30 for q in r.rejected)


def test_touching_tabas_are_never_answered_wrong_or_twice():
    report = evaluate(load_dataset(TOUCHING), read_dice)
    assert report.total("wrong") == 0
    assert report.total("extra") == 0
    assert report.total("right") >= 0.85 * report.total("labelled")  # 22 of 25 when written
