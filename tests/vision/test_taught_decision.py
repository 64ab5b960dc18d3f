"""How a taught set's die is decided (vision.kinds._Taught.decide): the
exemplars of the taught dice and the face network are two reads; a die is
answered when one is sure and the other does not contradict it, and refused
when they disagree. A taba's face needs the network's own reading (every bone
differs, so its exemplars alone are not trusted)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from vision import faces, kinds
from vision.types import Die

BOX = ((0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0))


def _read(kind_value, p=0.95, agree=True):
    """A network read sure (p) of one class; P(none) and P(unreadable) small."""
    probs = np.full(len(faces.CLASSES), (1.0 - p) / (len(faces.CLASSES) - 1), np.float32)
    probs[faces.class_index(*kind_value)] = p
    return kinds._Read((5.0, 5.0), 10.0, probs, agree, None)


def _unsure_read():
    probs = np.full(len(faces.CLASSES), 1.0 / len(faces.CLASSES), np.float32)
    return kinds._Read((5.0, 5.0), 10.0, probs, False, None)


def _taught(monkeypatch, exemplar_answer, taught_kinds=("d8", "d10", "taba")):
    """A taught reader whose exemplars give `exemplar_answer` (a Die or a reason)."""
    t = kinds._Taught.__new__(kinds._Taught)
    t.profile = SimpleNamespace(
        kinds=taught_kinds, untaught_faces={},  # every face of the set taught
        sets=[SimpleNamespace(name="red set", kinds=("d8", "d10"), colour="red"),
              SimpleNamespace(name="bones", kinds=("taba",), colour=None)])
    monkeypatch.setattr(t, "_exemplars", lambda rd, outline, margin, lean_p=kinds.TAUGHT_LEAN_P: exemplar_answer)
    return t


def _die(kind, value, confidence=0.9):
    return Die(kind, value, "red", (5.0, 5.0), confidence, BOX)


def test_exemplars_unsure_and_network_sure_answers_the_networks_reading(monkeypatch):
    d = _taught(monkeypatch, kinds.NOT_READ).decide(_read(("d8", 7)), BOX)
    assert isinstance(d, Die)
    assert (d.kind, d.value) == ("d8", 7)
    assert d.colour == "red"  # the taught set's colour


def test_both_reads_the_same_face_answers_it(monkeypatch):
    d = _taught(monkeypatch, _die("d10", 3)).decide(_read(("d10", 3)), BOX)
    assert isinstance(d, Die) and (d.kind, d.value) == ("d10", 3)


def test_reads_that_disagree_are_refused(monkeypatch):
    d = _taught(monkeypatch, _die("d10", 3)).decide(_read(("d10", 8)), BOX)
    assert d == kinds.NOT_READ


def test_network_unsure_leaves_the_exemplars_answer(monkeypatch):
    d = _taught(monkeypatch, _die("d8", 5)).decide(_unsure_read(), BOX)
    assert isinstance(d, Die) and (d.kind, d.value) == ("d8", 5)


def test_network_sure_of_a_kind_not_taught_does_not_answer(monkeypatch):
    d = _taught(monkeypatch, kinds.NOT_READ).decide(_read(("d10t", 40)), BOX)
    assert d == kinds.NOT_READ


@pytest.mark.parametrize("net", ["unsure", "other face"])
def test_a_tabas_exemplars_alone_never_answer(monkeypatch, net):
    rd = _unsure_read() if net == "unsure" else _read(("taba", "liso"))
    d = _taught(monkeypatch, _die("taba", "hoyo")).decide(rd, BOX)
    assert d == kinds.NOT_READ


def test_a_taba_both_reads_agree_on_is_answered_though_the_network_alone_is_unsure(monkeypatch):
    """The network's best face, in both its views, at P 0.65 (< MIN_P: alone it would
    not answer), is the exemplars' face: the taba is answered; the scan's reads need more."""
    assert kinds.TABA_AGREE_P <= 0.65 < kinds.MIN_P
    t = _taught(monkeypatch, _die("taba", "hoyo"))
    d = t.decide(_read(("taba", "hoyo"), p=0.65), BOX)
    assert isinstance(d, Die) and (d.kind, d.value) == ("taba", "hoyo")
    assert t.decide(_read(("taba", "hoyo"), p=0.65), BOX, kinds.TAUGHT_MARGIN_SCAN,
                    kinds.MIN_P_SCAN) == kinds.NOT_READ  # a die found by the scan only
    assert t.decide(_read(("taba", "hoyo"), p=kinds.TABA_AGREE_P - 0.05), BOX) == kinds.NOT_READ
    assert t.decide(_read(("taba", "hoyo"), p=0.65, agree=False), BOX) == kinds.NOT_READ
    assert t.decide(_read(("taba", "liso"), p=0.65), BOX) == kinds.NOT_READ  # another face


def test_a_read_below_the_scan_floor_is_not_answered(monkeypatch):
    rd = _read(("d8", 2), p=0.8)
    t = _taught(monkeypatch, kinds.NOT_READ)
    assert isinstance(t.decide(rd, BOX), Die)  # 0.8 >= MIN_P
    assert t.decide(rd, BOX, kinds.TAUGHT_MARGIN_SCAN, kinds.MIN_P_SCAN) == kinds.NOT_READ


def test_a_network_leaning_to_another_face_refuses_the_exemplars_answer(monkeypatch):
    """Too unsure to answer on its own (P < MIN_P), the network still leans to
    another face: the exemplars' answer is doubted and the die refused."""
    assert kinds.TAUGHT_DOUBT_P <= 0.6 < kinds.MIN_P
    d = _taught(monkeypatch, _die("d10", 3)).decide(_read(("d10", 8), p=0.6), BOX)
    assert d == kinds.NOT_READ


def test_a_network_leaning_weakly_to_another_face_still_refuses_the_exemplars_answer(monkeypatch):
    """The network's two views disagree and its best face gets P 0.4: a d10t
    60 whose exemplars read it as an 80 (drawn crowded scenes: the network
    leant to the right face at 0.38 and 0.49) is refused, not answered."""
    d = _taught(monkeypatch, _die("d10t", 80)).decide(_read(("d10t", 60), p=0.4, agree=False), BOX)
    assert d == kinds.NOT_READ


def test_a_network_leaning_to_the_same_face_lets_the_exemplars_answer(monkeypatch):
    d = _taught(monkeypatch, _die("d10", 3)).decide(_read(("d10", 3), p=0.6), BOX)
    assert isinstance(d, Die) and (d.kind, d.value) == ("d10", 3)
    d = _taught(monkeypatch, _die("d10", 3)).decide(_read(("d10", 8), p=0.3), BOX)
    assert isinstance(d, Die) and (d.kind, d.value) == ("d10", 3)  # the network is unsure: silent


def _tied(monkeypatch):
    """Exemplars that nearly tie on d10 3 (0.84) and d10 8 (0.83), far from d10 1."""
    t = kinds._Taught.__new__(kinds._Taught)
    t.profile = SimpleNamespace(kinds=("d10",), sets=[SimpleNamespace(name="d10s", kinds=("d10",), colour="blue")])
    t.answer_of = [("d10", 3), ("d10", 8), ("d10", 1)]
    t.keys = [(0, 0), (0, 1), (0, 2)]
    monkeypatch.setattr(t, "scores", lambda rd: np.array([0.84, 0.83, 0.5], np.float32))
    return t


def test_exemplars_nearly_tied_answer_the_face_the_network_leans_to(monkeypatch):
    d = _tied(monkeypatch)._exemplars(_read(("d10", 8), p=0.6), BOX, kinds.TAUGHT_MARGIN)
    assert isinstance(d, Die) and (d.kind, d.value, d.colour) == ("d10", 8, "blue")


@pytest.mark.parametrize("lean", [(("d10", 8), 0.3), (("d10", 1), 0.6)])
def test_exemplars_nearly_tied_are_not_read_without_the_network_leaning_to_one(monkeypatch, lean):
    """The network unsure, or leaning to a third face: no answer."""
    d = _tied(monkeypatch)._exemplars(_read(lean[0], p=lean[1]), BOX, kinds.TAUGHT_MARGIN)
    assert d == kinds.NOT_READ


def test_a_die_found_only_by_the_scan_needs_a_surer_lean_to_break_a_tie(monkeypatch):
    """Exemplars nearly tied on two faces: the face the network leans to is
    answered at P 0.5 for a die the first look found, at P 0.7 for one found
    only by the scan (printed digits beside a tray, bartek-polyhedral's
    periodic table, matched a taught 4 and 1 alike, and the network leant to
    one at 0.6)."""
    t = _tied(monkeypatch)
    t.profile.untaught_faces = {}
    found = t.decide(_read(("d10", 8), p=0.6), BOX)
    assert isinstance(found, Die) and (found.kind, found.value) == ("d10", 8)
    scan = (kinds.TAUGHT_MARGIN_SCAN, kinds.MIN_P_SCAN)
    assert t.decide(_read(("d10", 8), p=0.6), BOX, *scan) == kinds.NOT_READ
    sure = t.decide(_read(("d10", 8), p=0.75), BOX, *scan)
    assert isinstance(sure, Die) and (sure.kind, sure.value) == ("d10", 8)


def _tied_kinds(monkeypatch):
    """Exemplars that nearly tie on a d10's 6 (0.946) and a d8's 6 (0.92): the
    same numeral, the face around it hardly in the exemplar."""
    t = kinds._Taught.__new__(kinds._Taught)
    t.profile = SimpleNamespace(kinds=("d8", "d10"),
                                sets=[SimpleNamespace(name="red set", kinds=("d8", "d10"), colour="red")])
    t.answer_of = [("d10", 6), ("d8", 6), ("d10", 8)]
    t.keys = [(0, 0), (0, 1), (0, 2)]
    monkeypatch.setattr(t, "scores", lambda rd: np.array([0.946, 0.92, 0.88], np.float32))
    return t


def _split(kv_a, p_a, kv_b, p_b):
    probs = np.full(len(faces.CLASSES), 0.01 / len(faces.CLASSES), np.float32)
    probs[faces.class_index(*kv_a)] = p_a
    probs[faces.class_index(*kv_b)] = p_b
    return kinds._Read((5.0, 5.0), 10.0, probs, True, None)


def test_exemplars_tied_on_two_kinds_need_the_network_sure_of_the_kind(monkeypatch):
    """The network leaning to the d8 (0.58 against 0.41 for the d10): the
    die is not read (a rendered d10 was answered as a d8 6 this way)."""
    t = _tied_kinds(monkeypatch)
    assert t._exemplars(_split(("d8", 6), 0.58, ("d10", 6), 0.41), BOX, kinds.TAUGHT_MARGIN) == kinds.NOT_READ
    d = t._exemplars(_split(("d8", 6), 0.9, ("d10", 6), 0.09), BOX, kinds.TAUGHT_MARGIN)
    assert isinstance(d, Die) and (d.kind, d.value) == ("d8", 6)


D6_TAUGHT = SimpleNamespace(kinds=("d6",), classes=[("d6", v) for v in range(1, 7)])
MIXED_TAUGHT = SimpleNamespace(kinds=("d6", "d10"), classes=D6_TAUGHT.classes + [("d10", v) for v in range(10)])


def _doubting(kind_value, p):
    """A read that gives another kind's face `p` and a d6's 1 the rest."""
    return _split(("d6", 1), 0.99 - p, kind_value, p)


def test_a_taught_pip_one_stands_when_the_network_only_doubts_the_kind():
    """The network reads some real 1s and 2s as a taba or a d10 at 0.5-0.8
    (nell-byler's dice): the pip answer stands, as it does untaught."""
    pip = _die("d6", 1, confidence=0.94)
    assert kinds._pips_stand(pip, _doubting(("taba", "hoyo"), 0.6), D6_TAUGHT)
    assert kinds._pips_stand(pip, _doubting(("d10", 1), 0.75), D6_TAUGHT)


def test_a_taught_pip_one_the_network_is_sure_is_a_numeral_is_refused():
    """A d8's 1 looks like one pip: the network sure of the d8 refuses it."""
    assert not kinds._pips_stand(_die("d6", 1), _doubting(("d8", 1), 0.95), D6_TAUGHT)


def test_a_pip_two_of_a_set_with_numeral_dice_needs_the_network_to_call_it_a_d6():
    """Taught a set of d6 and d10, a d10's 8 reads as two pips: the pip
    answer stands only when the network gives the kind d6 P >= 0.5."""
    assert not kinds._pips_stand(_die("d6", 2), _doubting(("d10", 8), 0.6), MIXED_TAUGHT)
    assert kinds._pips_stand(_die("d6", 2), _split(("d6", 2), 0.6, ("d10", 8), 0.39), MIXED_TAUGHT)


def test_a_pip_face_the_profile_never_taught_is_refused():
    profile = SimpleNamespace(kinds=("d6",), classes=[("d6", v) for v in range(2, 7)])
    assert not kinds._pips_stand(_die("d6", 1), _read(("d6", 1)), profile)
