"""scripts/compare_reads.py: two runs of `dicestation read`, image by image."""

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

import compare_reads as C  # noqa: E402


def _line(image, dice=(), rejected=(), **extra):
    return json.dumps({"image": image, "dice": [
        {"kind": k, "value": v, "colour": c, "center": list(xy), "confidence": p} for k, v, c, xy, p in dice],
        "rejected": [{"center": list(xy), "why": w} for xy, w in rejected], **extra})


def _run(tmp_path, before, after, capsys):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text("\n".join(before) + "\n")
    b.write_text("\n".join(after) + "\n")
    code = C.main([str(a), str(b)])
    return code, capsys.readouterr()


def test_a_value_read_differently_is_reported(tmp_path, capsys):
    six = ("d6", 6, "white", (10.0, 20.0), 0.97)
    five = ("d6", 5, "white", (10.0, 20.0), 0.97)
    code, out = _run(tmp_path, [_line("x.jpg", [six]), _line("y.jpg")],
                     [_line("x.jpg", [five]), _line("y.jpg")], capsys)
    assert code == 1
    assert "x.jpg" in out.out and "'6'" in out.out and "'5'" in out.out
    assert "y.jpg" not in out.out.splitlines()[0]
    assert out.out.strip().endswith("images 2, read differently 1, confidence only 0")


def test_a_confidence_alone_is_counted_apart(tmp_path, capsys):
    sure = ("d8", 7, "red", (5.0, 5.0), 0.99)
    less = ("d8", 7, "red", (5.0, 5.0), 0.91)
    code, out = _run(tmp_path, [_line("x.jpg", [sure], [((50.0, 50.0), "cocked")])],
                     [_line("x.jpg", [less], [((50.0, 50.0), "cocked")])], capsys)
    assert code == 0
    assert out.out.strip() == "images 1, read differently 0, confidence only 1"


def test_a_refusal_that_changes_its_reason_is_reported(tmp_path, capsys):
    code, out = _run(tmp_path, [_line("x.jpg", rejected=[((1.0, 2.0), "cocked")])],
                     [_line("x.jpg", rejected=[((1.0, 2.0), "low confidence")])], capsys)
    assert code == 1 and "low confidence" in out.out


def test_an_unreadable_file_is_not_an_empty_tray(tmp_path, capsys):
    code, out = _run(tmp_path, [_line("x.jpg")], [json.dumps({"image": "x.jpg", "error": "not a JPEG or PNG image"})],
                     capsys)
    assert code == 1 and "not a JPEG or PNG image" in out.out


@pytest.mark.parametrize("bad, says", [("{not json", "line 1: not JSON"),
                                       ('{"dice": []}', "line 1: no 'image'")])
def test_a_file_that_is_not_read_output_is_named(tmp_path, capsys, bad, says):
    code, out = _run(tmp_path, [bad], [_line("x.jpg")], capsys)
    assert code == 2 and says in out.err and "a.jsonl" in out.err


def test_runs_over_different_images_are_refused(tmp_path, capsys):
    code, out = _run(tmp_path, [_line("x.jpg")], [_line("z.jpg")], capsys)
    assert code == 2 and "different images" in out.err
