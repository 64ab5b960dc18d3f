"""Every recorded scene in tests/fixtures/scenes and tests/fixtures/closeups
(dice photographed close: a fifth of the frame), end to end through read_dice.

A scene passes when every labelled die is answered with its value and every
labelled-unreadable die is refused (not answered). Scenes the reader does not
pass yet are listed in NOT_YET with the reason, and run as expected failures
(strict=False), so that each improvement shows as XPASS; none may give a wrong
value, which is checked for every scene.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.dataset import load_dataset
from calibration.evaluate import score_image
from vision import read_dice

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SCENES = FIXTURES / "scenes"
CLOSE_UPS = FIXTURES / "closeups"
SAMPLES = [s for d in (SCENES, CLOSE_UPS) if d.is_dir() for s in load_dataset(d)]
# scenes the (learned) reader does not read fully yet (issue 3 is open): mostly dice
# refused as low confidence, cocked/stacked dice answered
NOT_YET: set[str] = {
    "scene_003_stacked.jpg",
    "scene_011_warm.jpg",
    "scene_019_stacked.jpg",
    "scene_021_glare.jpg",
    "scene_023_casino.jpg",
    # numeral dice photographed close, refused: a d10 `blurred`, a d10 the face network does not read
    "numeral_000_closeup.jpg",
    "numeral_003_closeup.jpg",
    # numeral dice photographed close the face network does not read (refused: unknown object,
    # cocked, blurred; glyph_003's, refused as unknown objects, the numeral network reads;
    # glyph_000's d10t, its two digits found as two dice, is read since `Params.glyph_sides`)
    "glyph_002_closeup.jpg",
}
# scenes where a wrong value is still given (none since scene_011's black 2 on black felt, one
# pip of it read as a small die's 1, is refused: vision.reader.no_die_round)
WRONG_YET: set[str] = set()
MAX_WRONG_PER_SCENE = 0


def _read(sample):
    frame = cv2.imdecode(np.fromfile(str(sample.image), np.uint8), cv2.IMREAD_COLOR)
    return score_image(sample, read_dice(frame), frame.shape)


def _params(known: set[str], reason: str):
    out = []
    for s in SAMPLES:
        marks = [pytest.mark.xfail(reason=reason, strict=False)] if s.image.name in known else []
        out.append(pytest.param(s, id=s.image.stem, marks=marks))
    return out


@pytest.mark.skipif(not SAMPLES, reason="no recorded scenes in tests/fixtures")
@pytest.mark.parametrize("sample", _params(NOT_YET, "not read fully yet"))
def test_scene_read_fully(sample):
    r = _read(sample)
    assert r.right == r.labelled, r.notes
    assert r.unreadable_answered == 0, r.notes
    assert r.unreadable_refused == r.unreadable, r.notes


@pytest.mark.skipif(not SAMPLES, reason="no recorded scenes in tests/fixtures")
@pytest.mark.parametrize("sample", _params(WRONG_YET, "a wrong value is still given"))
def test_scene_has_no_wrong_answer(sample):
    r = _read(sample)
    assert r.wrong <= MAX_WRONG_PER_SCENE, r.notes
