"""The taba model and renderer (development tools) and the committed taba fixtures."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from calibration.dataset import load_dataset, parse_labels

REPO = Path(__file__).resolve().parents[1]
PLY = REPO.parent / "shared" / "taba3d" / "sheep_talus_LBOAWK001.ply"
FIXTURES = REPO / "tests" / "fixtures" / "tabas"
FACES = ("liso", "carnero", "tripas", "hoyo")

needs_scan = pytest.mark.skipif(not PLY.is_file(), reason="../shared/taba3d is absent")


@pytest.fixture(scope="module")
def model():
    from calibration.taba_model import load_model

    return load_model(str(PLY))


@pytest.fixture(scope="module")
def poses():
    from calibration.taba_model import load_poses

    return load_poses(str(PLY))


@needs_scan
@pytest.mark.shared
def test_model_loads_centred_with_ordered_axes(model):
    assert len(model.verts) == 37617 and len(model.tris) == 75230
    assert model.volume > 0
    assert model.extent[0] > model.extent[1] > model.extent[2]
    assert 20 < model.extent[0] < 45  # mm: a sheep's talus


@needs_scan
@pytest.mark.shared
def test_four_distinct_stable_poses(model, poses):
    downs = [poses[f].down for f in FACES]
    for i in range(4):
        for j in range(i + 1, 4):
            assert downs[i] @ downs[j] < np.cos(np.radians(30)), (FACES[i], FACES[j])
    for f in FACES:
        p = poses[f]
        assert p.stability_margin > 0, f  # COM projects inside the support polygon
        # a local minimum of the COM height: every small tilt raises it
        u = np.cross(p.down, [1.0, 0, 0])
        u /= np.linalg.norm(u)
        v = np.cross(p.down, u)
        for a in np.linspace(0, 2 * np.pi, 12, endpoint=False):
            d = p.down * np.cos(0.05) + (u * np.cos(a) + v * np.sin(a)) * np.sin(0.05)
            assert model.height(d)[0] > p.lift, f
    # wide faces rest across the short axis, narrow ones across the middle axis
    for f in ("tripas", "hoyo"):
        assert abs(poses[f].down @ model.axes[:, 2]) > 0.9
    for f in ("liso", "carnero"):
        assert abs(poses[f].down @ model.axes[:, 1]) > 0.9
    assert poses["tripas"].measures["curvature"] > poses["hoyo"].measures["curvature"]
    assert poses["tripas"].measures["hollow"] > poses["hoyo"].measures["hollow"]
    assert poses["liso"].measures["plane_rms"] < poses["carnero"].measures["plane_rms"]
    assert poses["end+"].stability_margin < 0.5  # an end is at best barely balanced


@needs_scan
@pytest.mark.shared
def test_wide_faces_show_more_area_from_above(model, poses):
    area = {f: model.top_view_area(poses[f]) for f in FACES}
    assert min(area["tripas"], area["hoyo"]) > max(area["liso"], area["carnero"])


def _scene(seed: int, n: int, **kw):
    from calibration.taba_render import random_scene

    return random_scene(np.random.default_rng(seed), 400, 300, n, length_px=(60, 80), **kw)


@needs_scan
@pytest.mark.shared
def test_rendering_is_deterministic_and_labels_are_valid(model, poses):
    a = _scene(3, 2, model=model, poses=poses)
    b = _scene(3, 2, model=model, poses=poses)
    assert np.array_equal(a.image, b.image)
    assert a.labels == b.labels
    assert a.image.shape == (300, 400, 3)
    parse_labels(json.loads(json.dumps(a.labels)), Path("x.jpg"))
    assert len(a.labels["dice"]) + len(a.labels["unreadable"]) == 2


@needs_scan
@pytest.mark.shared
def test_forced_faces_end_and_cocked(model, poses):
    s = _scene(5, 3, model=model, poses=poses, force={"faces": ["liso", "hoyo", "tripas"], "end": 1, "cocked": 2})
    whys = sorted(u["why"] for u in s.labels["unreadable"])
    assert whys == ["cocked", "on end"]
    assert [d["value"] for d in s.labels["dice"]] == ["liso"]
    _centres_on_tabas(s.image, s.labels)


def _background_like(img: np.ndarray, x: int, y: int) -> bool:
    """True when the pixel is the colour of the frame's dominant (background) colour."""
    q = (img // 24).reshape(-1, 3)
    vals, counts = np.unique(q, axis=0, return_counts=True)
    return bool(np.all(q.reshape(img.shape)[y, x] == vals[np.argmax(counts)]))


def _centres_on_tabas(img: np.ndarray, labels: dict) -> None:
    for d in labels["dice"] + labels["unreadable"]:
        x, y = d["center"]
        assert 0 <= x < img.shape[1] and 0 <= y < img.shape[0]
        assert not _background_like(img, int(x), int(y)), d


def test_fixtures_are_a_valid_data_set_with_every_face():
    import cv2

    samples = load_dataset(FIXTURES)
    assert len(samples) >= 10
    seen = {f: 0 for f in FACES}
    whys = set()
    for s in samples:
        img = cv2.imread(str(s.image))
        assert img is not None and img.shape == (600, 800, 3)
        for d in s.dice:
            assert d.kind == "taba" and d.value in FACES and d.center is not None
            seen[d.value] += 1
        whys |= {u.why for u in s.unreadable}
        labels = json.loads(s.image.with_suffix(".json").read_text())
        _centres_on_tabas(img, labels)
    assert all(n >= 3 for n in seen.values()), seen
    assert {"on end", "cocked"} <= whys
    assert sum(p.stat().st_size for p in FIXTURES.iterdir()) < 1_200_000
