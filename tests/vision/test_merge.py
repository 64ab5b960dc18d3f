"""One answer per die when the readers answer a die twice; two touching dice
read apart both answered (vision.kinds._merge)."""

from __future__ import annotations

from vision.kinds import MERGE_SIDES, _merge
from vision.types import Die

SIDE = 90.0  # the frame's die side as the detector finds it
CLOSE = 0.9 * MERGE_SIDES * SIDE  # nearer than the merge distance


def _die(value: int, x: float, confidence: float) -> Die:
    return Die("d6", value, "white", (x, 100.0), confidence)


def test_the_d6_readers_answers_of_different_values_both_stand():
    a, b = _die(1, 100.0, 0.91), _die(5, 100.0 + CLOSE, 0.93)
    assert sorted(d.value for d in _merge([a, b], SIDE, found=[a, b])) == [1, 5]


def test_one_die_answered_twice_is_answered_once():
    a, b = _die(5, 100.0, 0.91), _die(5, 100.0 + CLOSE, 0.97)
    assert _merge([a, b], SIDE, found=[a, b]) == [b]  # the same value twice: one die, the surer stands
    scanned = _die(3, 100.0 + CLOSE, 0.99)  # a scan's window beside a die the reader answered
    assert _merge([a, scanned], SIDE, found=[a]) == [scanned]
    far = _die(2, 100.0 + 1.2 * MERGE_SIDES * SIDE, 0.5)
    assert len(_merge([a, far], SIDE)) == 2
