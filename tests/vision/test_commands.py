import json

import cv2
import pytest

from station.cli import main
from tests.vision.drawing import draw_die, tray


@pytest.fixture
def photo(tmp_path):
    img = tray()
    draw_die(img, (300, 200), 60, 5)
    path = tmp_path / "a.jpg"
    cv2.imwrite(str(path), img)
    return path


def test_read_prints_one_json_line_per_image(photo, capsys):
    assert main(["read", str(photo), str(photo)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    obj = json.loads(lines[0])
    assert obj["image"] == str(photo)
    assert [d["value"] for d in obj["dice"]] == [5]
    assert obj["rejected"] == []
    assert obj["ms"] > 0


@pytest.mark.parametrize("content", [b"", b"hello, not an image", "truncated"])
def test_read_reports_a_bad_file_and_goes_on(photo, tmp_path, capsys, content):
    bad = tmp_path / "b.jpg"
    bad.write_bytes(photo.read_bytes()[:2000] if content == "truncated" else content)
    assert main(["read", str(bad), str(photo)]) == 1
    first, second = (json.loads(x) for x in capsys.readouterr().out.strip().splitlines())
    assert first["image"] == str(bad) and first["error"]
    assert "dice" not in first
    assert [d["value"] for d in second["dice"]] == [5]


def test_read_a_missing_file(tmp_path, capsys):
    assert main(["read", str(tmp_path / "nope.png")]) == 1
    assert "error" in json.loads(capsys.readouterr().out)


def test_eval_ends_with_accuracy(photo, tmp_path, capsys):
    (tmp_path / "a.json").write_text(json.dumps(
        {"dice": [{"kind": "d6", "value": 5, "center": [300, 200]}]}))
    assert main(["eval", str(tmp_path)]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1] == "accuracy: 1.0000"
    assert "wrong answers: 0 (0.0 % of labelled)" in out


def test_eval_names_a_bad_label(photo, tmp_path, capsys):
    (tmp_path / "a.json").write_text(json.dumps({"dice": [{"kind": "d7", "value": 5}]}))
    assert main(["eval", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "a.json" in err and "d7" in err


def test_eval_skips_a_bad_label_and_measures_the_rest(photo, tmp_path, capsys):
    """One typo in a label file names that file; the other images still count."""
    (tmp_path / "a.json").write_text(json.dumps(
        {"dice": [{"kind": "d6", "value": 5, "center": [300, 200]}]}))
    (tmp_path / "b.jpg").write_bytes(photo.read_bytes())
    (tmp_path / "b.json").write_text(json.dumps({"dice": [{"kind": "d6", "value": 8}]}))
    assert main(["eval", str(tmp_path)]) == 1
    captured = capsys.readouterr()
    assert "b.json" in captured.err and "skipped" in captured.err
    out = captured.out.strip().splitlines()
    assert "images: 1" in out
    assert out[-1] == "accuracy: 1.0000"


@pytest.mark.parametrize("kinds", ["d7", "d6,,coin", ","])
def test_read_refuses_an_unknown_kind(photo, capsys, kinds):
    with pytest.raises(SystemExit) as exc:
        main(["read", "--kinds", kinds, str(photo)])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--kinds" in err and "is not a kind of die" in err


def test_read_for_a_d6_game(photo, capsys):
    assert main(["read", "--kinds", "d6", str(photo)]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["dice"] and {d["kind"] for d in line["dice"]} == {"d6"}
