"""The numeral-face generator (calibration/numeral_synth.py): deterministic,
labels true to what is drawn."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

pytest.importorskip("PIL")

from calibration import numeral_synth as ns  # noqa: E402
from vision.numerals import CLASSES, CROP_PX  # noqa: E402

FONTS = [str(p) for p in sorted(Path("/usr/share/fonts/truetype").rglob("DejaVu*.ttf"))]
pytestmark = pytest.mark.skipif(not FONTS, reason="no DejaVu fonts on this machine")


def test_the_same_seed_draws_the_same_crops_and_every_class_appears():
    x1, y1 = ns.batch(5, 400, FONTS)
    x2, y2 = ns.batch(5, 400, FONTS)
    assert x1.shape == (400, CROP_PX, CROP_PX) and x1.dtype == np.uint8
    assert np.array_equal(x1, x2) and np.array_equal(y1, y2)
    assert set(np.unique(y1)) <= set(range(len(CLASSES)))
    none = CLASSES.index(("none", 0))
    assert 0.25 < np.mean(y1 == none) < 0.55  # a share of `none`, the rest numerals
    assert len(np.unique(y1)) >= 25


def test_a_numeral_is_drawn_in_the_font_with_its_ink_in_the_middle():
    rng = np.random.default_rng(3)
    m7 = ns.text_mask("7", FONTS[0], 60)
    m1 = ns.text_mask("1", FONTS[0], 60)
    assert abs(m7.shape[0] - 60) <= 1 and abs(m1.shape[0] - 60) <= 1
    assert m7.sum() > 100 and not np.array_equal(m7[:, :m1.shape[1]], m1)
    marked = ns.with_mark(ns.text_mask("6", FONTS[0], 60), "line", rng)
    assert marked.shape[0] > 60 and marked[-3:].max() > 0.5  # the underline below the 6


def test_a_die_face_is_drawn_with_its_numeral_where_the_kind_prints_it():
    rng = np.random.default_rng(8)
    for kind in ("d6", "d8", "d10", "d10t"):
        face = ns.make_face(rng, kind, ns.C / 2, ns.C / 2)
        x, y = face.text_xy
        inside = cv2.pointPolygonTest(face.main.astype(np.float32), (float(x), float(y)), False)
        assert inside > 0, kind  # the numeral sits on the front face
        assert face.neighbours


def test_a_die_drawn_as_a_solid_at_a_slant_shows_its_numeral_on_the_front_face():
    for kind, a, b in (("d10", 3, 7), ("d10t", 30, 70), ("d8", 2, 5)):
        for seed in range(4):
            one = ns.draw_solid(np.random.default_rng(seed), kind, a, FONTS[0])
            again = ns.draw_solid(np.random.default_rng(seed), kind, a, FONTS[0])
            other = ns.draw_solid(np.random.default_rng(seed), kind, b, FONTS[0])
            assert one.shape == (ns.C, ns.C) and np.array_equal(one, again)
            diff = np.abs(one - other) > 20  # only the numeral differs
            assert diff.sum() > 30, (kind, seed)
            ys, xs = np.nonzero(diff)
            assert abs(xs.mean() - ns.C / 2) < 0.3 * ns.C and abs(ys.mean() - ns.C / 2) < 0.3 * ns.C, (kind, seed)
