"""vision.numerals: HOG, the untaught glyph reader, face crops and votes."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import numerals
from vision.profile import FEATURE_VERSION, PROFILE_VERSION, Profile, SetInfo


def _face(text: str, angle: float, font=cv2.FONT_HERSHEY_SIMPLEX) -> tuple[np.ndarray, np.ndarray]:
    """A light disc with a dark numeral turned by `angle`, and the disc's mask."""
    ink = numerals.draw_glyph(text, font, 4)
    sq = numerals.glyph_square(ink, angle)
    s = 96
    face = np.full((s, s, 3), 60, np.uint8)
    mask = np.zeros((s, s), np.uint8)
    cv2.circle(mask, (48, 48), 40, 255, -1)
    face[mask > 0] = (220, 225, 230)
    glyph = cv2.resize(sq, (40, 40), interpolation=cv2.INTER_AREA)
    region = face[28:68, 28:68]
    region[glyph > 100] = (30, 30, 30)
    return face, mask


def test_hog_is_a_unit_block_descriptor():
    g = np.random.default_rng(0).integers(0, 255, (40, 40)).astype(np.uint8)
    h = numerals.hog(g)
    assert h.shape == (4 * 4 * 36,)
    assert np.all(h >= 0) and np.isfinite(h).all()


@pytest.mark.parametrize("value,angle", [(7, 90), (3, 200), (6, 0), (6, 180), (9, 0), (9, 170)])
def test_glyph_read_at_any_rotation(value, angle):
    text = str(value) + ("_" if value in (6, 9) else "")
    face, mask = _face(text, angle)
    g = numerals.read_glyph(face, mask)
    assert g.value == value, g


def test_two_digits_read_as_tens():
    face, mask = _face("70", 30)
    g = numerals.read_glyph(face, mask)
    assert (g.kind, g.value) == ("d10t", 70)


def test_blank_face_is_refused_with_why():
    face = np.full((96, 96, 3), 200, np.uint8)
    mask = np.zeros((96, 96), np.uint8)
    cv2.circle(mask, (48, 48), 40, 255, -1)
    g = numerals.read_glyph(face, mask)
    assert g.value is None and g.why


def _profile(rows: np.ndarray, classes, class_idx) -> Profile:
    s = SetInfo("s", ("d8",), 0.05, None, (0.0, 0.0, 0.0), tuple(classes), 1)
    return Profile(PROFILE_VERSION, FEATURE_VERSION, (s,), tuple(classes), rows,
                   np.asarray(class_idx, np.int32), np.zeros(len(rows), np.int32))


def test_vote_answers_a_taught_face_and_refuses_a_stranger():
    rng = np.random.default_rng(1)
    a, b = rng.normal(size=(2, 16)).astype(np.float32)
    rows = np.stack([a + 0.01 * rng.normal(size=16) for _ in range(10)]
                    + [b + 0.01 * rng.normal(size=16) for _ in range(10)]).astype(np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    p = _profile(rows, [("d8", 3), ("d8", 5)], [0] * 10 + [1] * 10)
    v = numerals.read_faces(p, np.stack([a, b, -a]))
    assert (v[0].kind, v[0].value, v[0].why) == ("d8", 3, "")
    assert (v[1].value, v[1].why) == (5, "")
    assert v[2].why  # unlike every taught face


def test_face_crop_is_fixed_size_any_angle():
    frame = np.zeros((200, 300, 3), np.uint8)
    for ang in (0, 33, 270):
        c = numerals.face_crop(frame, (150, 100), 50, ang)
        assert c.shape == (numerals.FACE_SIDE_PX, numerals.FACE_SIDE_PX, 3)
    f = numerals.face_features(c)
    assert abs(float(np.linalg.norm(f)) - 1) < 1e-4


def test_locate_die_ignores_a_dark_shadow():
    frame = np.full((200, 200, 3), (60, 120, 170), np.uint8)  # wood
    cv2.rectangle(frame, (100, 100), (150, 150), (20, 40, 60), -1)  # shadow
    cv2.rectangle(frame, (80, 80), (120, 120), (235, 235, 235), -1)  # die
    (cx, cy), side = numerals.locate_die(frame, (115, 115), 70)
    assert abs(cx - 100) < 4 and abs(cy - 100) < 4
    assert 34 < side < 48
