import json
from pathlib import Path

import pytest

from calibration.dataset import DatasetError, load_dataset, parse_labels
from calibration.evaluate import score_image
from vision.types import Die, Reading, Rejection

SQUARE = ((0.0, 0.0), (40.0, 0.0), (40.0, 40.0), (0.0, 40.0))


def _die(v, x, y):
    return Die("d6", v, "red", (x, y), 0.9, tuple((a + x - 20, b + y - 20) for a, b in SQUARE))


def test_load_recursively_and_skip_unlabelled(tmp_path):
    (tmp_path / "sub").mkdir()
    for name in ("sub/a.jpg", "b.png", "c.jpg"):
        (tmp_path / name).write_bytes(b"x")
    (tmp_path / "sub/a.json").write_text(json.dumps({"dice": [{"kind": "d6", "value": 2}]}))
    (tmp_path / "b.json").write_text(json.dumps({"dice": []}))
    samples = load_dataset(tmp_path)
    assert [s.image.name for s in samples] == ["b.png", "a.jpg"]


@pytest.mark.parametrize("bad", [
    [], {"dice": {}}, {"dice": [{"kind": "d6", "value": 7}]}, {"dice": [{"kind": "d6"}]},
    {"dice": [{"kind": "taba", "value": "pig"}]}, {"dice": [{"kind": "d6", "value": 1, "center": [1]}]},
    {"dice": [{"kind": "d6", "value": True}]}, {"unreadable": [5]},
])
def test_bad_labels_are_errors(bad):
    with pytest.raises(DatasetError):
        parse_labels(bad, Path("x.jpg"), "x.json")


def test_broken_json_names_the_file(tmp_path):
    (tmp_path / "a.jpg").write_bytes(b"x")
    (tmp_path / "a.json").write_text("{nope")
    with pytest.raises(DatasetError, match="a.json"):
        load_dataset(tmp_path)


def test_score_by_centres():
    s = parse_labels({"dice": [{"kind": "d6", "value": 3, "center": [100, 100]},
                               {"kind": "d6", "value": 4, "center": [300, 100]},
                               {"kind": "d6", "value": 5, "center": [500, 100]}],
                      "unreadable": [{"center": [700, 100], "why": "cocked"}]}, Path("x.jpg"))
    reading = Reading(dice=(_die(3, 102, 98), _die(6, 300, 101), _die(1, 100, 400)),
                      rejected=(Rejection((500, 100), "blurred", SQUARE),
                                Rejection((701, 99), "cocked", SQUARE)))
    r = score_image(s, reading, (600, 800, 3))
    assert (r.right, r.wrong, r.missed, r.refused, r.extra) == (1, 1, 1, 1, 1)
    assert (r.unreadable, r.unreadable_refused, r.unreadable_answered) == (1, 1, 0)
    assert not r.fully_right


def test_score_by_multiset_without_centres():
    s = parse_labels({"dice": [{"kind": "d6", "value": 3}, {"kind": "d6", "value": 3},
                               {"kind": "d6", "value": 1}]}, Path("x.jpg"))
    reading = Reading(dice=(_die(3, 0, 0), _die(2, 50, 0)))
    r = score_image(s, reading, (100, 100, 3))
    assert (r.right, r.wrong, r.missed, r.extra) == (1, 1, 1, 0)
