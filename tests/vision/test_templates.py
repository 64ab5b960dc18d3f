"""vision.templates: exemplars matched turned and shifted, fast."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import templates as T

SIDE = 60.0  # die side in the test frames, pixels


def _digit_frame(text: str, angle: float, centre=(100.0, 90.0)) -> np.ndarray:
    """A grey frame with a light die face showing `text`, turned by `angle`."""
    face = np.full((80, 80), 200, np.uint8)
    cv2.putText(face, text, (22, 58), cv2.FONT_HERSHEY_SIMPLEX, 1.6, 30, 4)
    M = cv2.getRotationMatrix2D((40, 40), angle, 1.0)
    face = cv2.warpAffine(face, M, (80, 80), borderValue=200)
    frame = np.full((180, 200), 200, np.uint8)
    x, y = int(centre[0]) - 40, int(centre[1]) - 40
    frame[y : y + 80, x : x + 80] = face
    return frame


@pytest.fixture(scope="module")
def bank():
    texts = ["2", "5", "7"]
    ex = [T.exemplar(_digit_frame(t, 0.0), (100.0, 90.0), SIDE) for t in texts for _ in range(2)]
    return T.make_bank(np.asarray(ex), np.repeat(np.arange(3), 2), 3)


def test_a_turned_and_shifted_face_matches_its_class(bank):
    for k, text in enumerate(["2", "5", "7"]):
        for angle in (0.0, 47.0, 200.0):
            frame = _digit_frame(text, angle)
            sc = T.match(bank, frame, [(103.0, 88.0)], SIDE)[0]  # centre 3 px off
            assert int(sc.argmax()) == k
            assert sc[k] > 0.85
            assert sc[k] - np.delete(sc, k).max() > 0.1


def test_many_dice_at_once_score_as_one_by_one(bank):
    frame = _digit_frame("5", 120.0)
    centres = [(100.0, 90.0), (97.0, 92.0), (60.0, 60.0)]
    together = T.match(bank, frame, centres, SIDE)
    alone = np.stack([T.match(bank, frame, [c], SIDE)[0] for c in centres])
    assert np.allclose(together, alone, atol=1e-5)


def test_rows_limit_the_classes_looked_at(bank):
    sc = T.match(bank, _digit_frame("7", 0.0), [(100.0, 90.0)], SIDE, slice(0, 4))[0]
    assert sc[2] == -1.0 and sc[:2].max() > -1.0


def test_bank_wants_exemplars_sorted_by_class():
    ex = np.zeros((2, T.TPL_PX, T.TPL_PX), np.uint8)
    with pytest.raises(ValueError, match="sorted by class"):
        T.make_bank(ex, np.array([1, 0]), 2)


def test_empty_bank_scores_nothing():
    b = T.make_bank(np.zeros((0, T.TPL_PX, T.TPL_PX), np.uint8), np.zeros(0, np.int32), 2)
    assert (T.match(b, np.zeros((50, 50), np.uint8), [(25.0, 25.0)], 20.0) == -1).all()


def test_crops_blurred_together_are_each_crop_blurred_alone():
    frame = _digit_frame("7", 30.0)
    spots = [((100.0, 90.0), SIDE), ((97.5, 93.2), SIDE * 0.9), ((20.0, 15.0), SIDE)]
    alone = np.stack([T._blur(T.exemplar(frame, c, s, pad=T.SHIFT_PX)).ravel() for c, s in spots])
    assert np.array_equal(T._crops(frame, spots), alone)


def test_parts_matched_together_score_as_each_part_alone_to_the_bit(bank):
    frame = _digit_frame("5", 75.0)
    centres = [(100.0, 90.0), (96.0, 93.0), (60.0, 60.0)]
    parts = [(slice(0, 2), SIDE), (slice(2, 6), SIDE * 1.1)]
    together = T.match_parts(bank, frame, centres, parts)
    alone = np.maximum(T.match(bank, frame, centres, SIDE, slice(0, 2)),
                       T.match(bank, frame, centres, SIDE * 1.1, slice(2, 6)))
    assert np.array_equal(together, alone)


def test_a_small_bank_keeps_the_float16_values_in_float32(bank):
    assert bank.rows.dtype == np.float32
    assert np.array_equal(bank.rows, bank.rows.astype(np.float16).astype(np.float32))


def test_a_bare_tray_matches_no_class(bank):
    """A flat crop has no spread: its float rounding must not become a score."""
    frame = np.full((180, 200), 200, np.uint8)
    sc = T.match(bank, frame, [(100.0, 90.0), (60.0, 60.0)], SIDE)
    assert np.abs(sc[sc > -1.0]).max() < 0.05
