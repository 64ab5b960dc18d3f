"""One refusal for each thing refused: a bone on its end or leaning on
another, which the scan reads at several peaks, is refused once, where the
user sees it, not a dozen times over (rendered tabas, tests/fixtures)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.dataset import load_dataset
from calibration.evaluate import evaluate
from vision import read_dice
from vision.kinds import MERGE_SIDES, one_refusal_each
from vision.types import Rejection

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
# a carnero, two tripas and a bone leaning on the carnero: the scan refused it 19 times over
LEANING = FIXTURES / "tabas" / "taba_4_00000.jpg"
TABA_SETS = [FIXTURES / "tabas", FIXTURES / "tabas_touching"]


def _close_pairs(reading) -> list[tuple[dict, dict]]:
    """Refusals of one reason closer than one die (MERGE_SIDES sides)."""
    side = reading.die_side_px
    rej = reading.rejected
    return [(a.to_json(), b.to_json()) for i, a in enumerate(rej) for b in rej[:i]
            if a.why == b.why and np.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1]) < MERGE_SIDES * side]


@pytest.mark.skipif(not LEANING.is_file(), reason="no taba fixtures")
def test_a_leaning_bone_is_refused_once():
    r = read_dice(cv2.imread(str(LEANING)))
    near = [q for q in r.rejected if np.hypot(q.center[0] - 363, q.center[1] - 284) < MERGE_SIDES * r.die_side_px]
    assert len(near) == 1, [q.to_json() for q in r.rejected]
    assert len(r.rejected) <= 3, [q.to_json() for q in r.rejected]  # 19 before, 3 when written


@pytest.mark.parametrize("folder", TABA_SETS, ids=lambda p: p.name)
def test_no_taba_fixture_refuses_one_thing_twice(folder):
    if not folder.is_dir():
        pytest.skip(f"no fixtures in {folder}")
    for sample in load_dataset(folder):
        r = read_dice(cv2.imread(sample.image))
        assert not _close_pairs(r), (sample.image, _close_pairs(r))


@pytest.mark.skipif(not (FIXTURES / "tabas").is_dir(), reason="no taba fixtures")
def test_every_labelled_unreadable_bone_is_still_refused():
    """Fewer refusals, the same bones refused: the labelled unreadable bones
    the reader refused before (each by one of its many refusals) still are."""
    report = evaluate(load_dataset(FIXTURES / "tabas"), read_dice)
    assert report.total("unreadable_refused") >= 4  # 4 when written, as before the merge (43 refusals in all then, 16 now)


def test_refusals_of_one_reason_merge_and_of_two_reasons_stand():
    scan = Rejection((100.0, 100.0), "unreadable")
    again = Rejection((108.0, 96.0), "unreadable")
    blur = Rejection((104.0, 98.0), "blurred")
    far = Rejection((200.0, 100.0), "unreadable")
    assert one_refusal_each([scan, blur, again, far], typical=30.0) == [scan, blur, far]
    assert one_refusal_each([scan, again], typical=10.0) == [scan, again]  # 0.9 sides apart: two dice
    assert one_refusal_each([], typical=30.0) == []
