"""vision.kinds._more_views: an untaught taba the face network leans to in its
two views, but not surely enough to answer, is read at two more turns; all
four views agreeing answer it (rendered tabas: vision.kinds docstrings)."""

from __future__ import annotations

import numpy as np

from vision import faces, kinds
from vision.types import Die

BOX = ((0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0))
FRAME = np.full((60, 60, 3), 90, np.uint8)


def _probs(kind_value, p):
    probs = np.full(len(faces.CLASSES), (1.0 - p) / (len(faces.CLASSES) - 1), np.float32)
    probs[faces.class_index(*kind_value)] = p
    return probs


def _read(kind_value, p):
    return kinds._Read((30.0, 30.0), 20.0, _probs(kind_value, p), True, None)


class _Net:
    """The face network stand-in: the two more views read as given."""

    def __init__(self, *views):
        self.views = views
        self.asked = 0

    def forward(self, crops):
        self.asked += len(crops)
        return np.stack([_probs(*v) for v in self.views] * (len(crops) // len(self.views))), None


def test_an_unsure_taba_all_four_views_agree_on_is_answered():
    rd = _read(("taba", "hoyo"), 0.6)
    assert kinds._decide(rd, BOX, None) == kinds.NOT_READ  # two views alone: not sure enough
    (four,) = kinds._more_views(_Net((("taba", "hoyo"), 0.9), (("taba", "hoyo"), 0.9)), FRAME, [rd])
    d = kinds._decide(four, BOX, None)
    assert isinstance(d, Die) and (d.kind, d.value) == ("taba", "hoyo")


def test_a_view_reading_another_face_leaves_the_taba_unread():
    rd = _read(("taba", "hoyo"), 0.6)
    (four,) = kinds._more_views(_Net((("taba", "hoyo"), 0.95), (("taba", "liso"), 0.6)), FRAME, [rd])
    assert kinds._decide(four, BOX, None) == kinds.NOT_READ


def test_numerals_and_sure_reads_are_not_looked_at_again():
    net = _Net((("d10", 3), 0.9), (("d10", 3), 0.9))
    reads = [_read(("d10", 3), 0.6), _read(("taba", "liso"), 0.9), _read(("taba", "liso"), 0.3)]
    assert kinds._more_views(net, FRAME, reads) is reads
    assert net.asked == 0
