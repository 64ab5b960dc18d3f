"""vision.kinds: untaught, a d6 the d6 classifier refused `cocked` is answered
from the face network's read when the lean network sees it lie flat (a die
touching another, a perspective strip in view), and stays refused when the
lean network sees it lean; a die the scan finds there is answered instead."""

from __future__ import annotations

import numpy as np
import pytest

from vision import faces, kinds
from vision.types import Die, Rejection

FRAME = np.full((120, 160, 3), 60, np.uint8)
FRAME[40:80, 60:100] = 230  # a white die's body, so its colour can be named
OUTLINE = ((60.0, 40.0), (100.0, 40.0), (100.0, 80.0), (60.0, 80.0))
COCKED = Rejection((80.0, 60.0), kinds.COCKED, OUTLINE, "p=0.7 class=cocked")


def _probs(kind, value, p):
    probs = np.full(len(faces.CLASSES), (1.0 - p) / (len(faces.CLASSES) - 1), np.float32)
    probs[faces.class_index(kind, value)] = p
    return probs


class _Net:
    """The face network stand-in: every view of the die reads a d6 5."""

    def forward(self, crops):
        n = len(crops)
        return np.stack([_probs("d6", 5, 0.85)] * n) if n else np.zeros((0, len(faces.CLASSES))), np.zeros((n, 4))


@pytest.fixture
def stand_ins(monkeypatch):
    monkeypatch.setattr(faces, "load_net", lambda: _Net())
    scanned: list[Die] = []
    monkeypatch.setattr(kinds, "_add_scanned",
                        lambda net, frame, typical, answers, refused, *a, **k: (answers + scanned, refused))

    def lean(p):
        monkeypatch.setattr(kinds, "lean_p", lambda frame, centres, sides: np.full(len(centres), p))
    return lean, scanned


def test_a_cocked_refusal_the_lean_network_sees_lie_flat_is_answered(stand_ins):
    lean, _ = stand_ins
    lean(0.05)
    dice, refused = kinds.reread(FRAME, [], [COCKED], None, die_side=40.0)
    assert [(d.kind, d.value) for d in dice] == [("d6", 5)]
    assert refused == []


def test_a_cocked_refusal_the_lean_network_sees_lean_stays_refused(stand_ins):
    lean, _ = stand_ins
    lean(0.6)
    dice, refused = kinds.reread(FRAME, [], [COCKED], None, die_side=40.0)
    assert dice == []
    assert [r.why for r in refused] == [kinds.COCKED]


def test_a_die_the_scan_finds_there_is_answered_instead(stand_ins):
    lean, scanned = stand_ins
    lean(0.05)
    top = Die("d6", 4, "white", (84.0, 56.0), 0.95, OUTLINE)  # the top face, found beside the blob
    scanned.append(top)
    dice, refused = kinds.reread(FRAME, [], [COCKED], None, die_side=40.0)
    assert [(d.kind, d.value) for d in dice] == [("d6", 4)]
    assert refused == []
