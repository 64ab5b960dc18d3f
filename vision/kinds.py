"""What kind of die a blob is, and reading what the d6 reader could not.

`reread` is the d6 reader's hook: it gets the pip reader's answers and
refusals of a frame and returns them with every other kind read (d8, d10,
d10t, taba, a taught set), by the face network (vision.faces).

Two reads must agree before a die is answered, else it is refused:

- without a profile: the network on the die's crop and on the same crop
  turned a quarter turn (the network has learnt any rotation, so a real
  numeral reads the same both ways; a doubtful one does not);
- with a profile (a taught set): the die's crop matched against grey
  exemplars of the same physical dice, taught (vision.templates): the best
  (set, face) counts only when it is clearly better than the best *other*
  face (TAUGHT_MARGIN) and the network does not call the die something else
  (the answered kind is its likeliest of the taught kinds, with P >=
  TAUGHT_KIND_MIN; P(none) at most TAUGHT_NONE_MAX). That and the network's
  own reading (as without a profile, of a taught kind) are the two reads:
  one answering and the other silent answers, both answering alike answers,
  both answering differently refuses, and so does the network leaning to
  another face than the exemplars' (P >= TAUGHT_DOUBT_P, below its own
  answering threshold); where the exemplars nearly tie on two faces, the one
  the network leans to is their answer (leans surely, for a die found only by
  the scan); a taba face (every bone differs)
  always needs the network's own reading;
- with a profile of the previous version (no exemplars: only in tests), the
  network's answer restricted to the taught faces and a vote of the nearest
  taught embeddings.

Where the first look found no die (a refusal, a weak detector peak), the
network looks again densely over a small window around it (`_add_scanned`)
when a profile is given or when the frame shows dice other than d6; it
answers no d6 beside a die the d6 classifier refused `cocked` and its lean
network thinks leans (a leaning die's top face reads as well as a flat one's),
and, taught, no d6 beside a refusal of TAUGHT_D6_DOUBT that the network does not
read itself (as the first look answers none there: a tray's grey button matched a
taught dark d6's 2 on the exemplars alone).
A pip reader's d6 answer stands unless
the network is sure the die is another kind (a d8's 8 is not a d6's 1) or a
profile's vote reads it otherwise. Where the d6 classifier saw no die at all
(`unknown object`) and the network reads a d6 alike in its two views, the d6
is answered as a numeral would be (a translucent casino die's 1, ringed by
small marks). Where it refused a die `cocked` and the network reads a d6 face
that the lean network sees lie flat, that d6 is answered too, untaught, unless
the scan finds a die there (`_lying_flat`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

import cv2
import numpy as np

from vision import faces, learned, segment, templates
from vision.colour import die_crops, frame_light, median_u8, name_colour
from vision.params import DEFAULT_PARAMS
from vision.profile import Profile
from vision.types import NUMERAL_KINDS, Die, Rejection

KEEP_REFUSED = ("outside", "stacked", "blurred")  # refusals no other reader may overturn ...
BLURRED = "blurred"  # ... but for a taba the network reads whose outline is sharp (a smooth
# painted bone has none of the pips' fine detail: the d6 classifier calls it blurred)
SHARP_EDGE_SIDES = 0.09  # an outline is sharp when its edge, in its least sharp direction, is
# at most this many of the frame's die sides wide (rendered tabas 0.05-0.08; a smeared die mostly 0.12-0.4)
NOT_D6_MIN_P = 0.9  # the network's P(another kind) that overturns a pip reader's d6 answer
SUSPECT_D6_VALUES = (1, 2)  # a numeral's ink looks like one pip (a d8's 8: two)
PIPS_SURE = 0.93  # a pip answer this sure stands: the face network mistakes coloured
# 1s and 2s for numerals (rendered numeral dice read as 1/2 at <= 0.91)
D6_SCAN_WHY = ("unknown object", "cocked")  # in a frame of d6 only, the scan looks around these
# refusals (two touching dice seen as one object; a flat die at the frame's edge, its sides in
# view, called cocked), not around `low confidence` ones (real sets' tuning tenths: 1 right, 5 wrong)
D6_SECOND_WHY = ("unknown object",)  # a d6 the network reads where the d6 classifier saw no die
# is answered (untaught); not one it refused as unsure of the value (the network is wrong
# as often as right there, on aws-oblique's training half)
TAUGHT_D6_DOUBT = ("unknown object", "low confidence", "cocked")  # the d6 reader's refusals a
# taught d6 answer overturns only when the network reads the same face (`cocked`: never)
MIN_P = 0.7  # the network's probability of its answer (mean of the two reads)
MIN_P_SCAN = 0.85  # the same for a die found only by the scan (no blob)
PEAK_MIN_P = 0.5  # a scan cell is a die when P(not none) is above this
SIDE_CLAMP = (0.6, 1.6)  # a blob this much off the typical side is not one die: use typical
MERGE_SIDES = 0.6  # answers closer than this many die sides are one die
KNN_K = 7
KNN_MIN_VOTE = 0.7  # share of the k nearest that agree
KNN_OVERRULE_P = 0.3  # the vote overrules the network only if the network gives it this much
SCAN_REACH_CELLS = 2  # a second look searches this many network cells (0.2 die sides) each way
SCAN_PAIR_REACH_CELLS = 4  # ... around a peak as big as two touching dice (each die half a side or
# more from it)
SCAN_PAIR_PLATEAU_P = 0.9  # ... where its dice are the plateaus of P(a die) at least this
SCAN_PAIR_APART_SIDES = 0.8  # ... and at least this far from every answer
SCAN_PAIR_FRAME_SIDES = 4  # ... in a frame this many typical sides wide at least
PAIR_SAME_SIDES = 0.1  # a refusal this near a pair's peak is the pair's
TAUGHT_MARGIN = 0.08  # exemplar score of the best face over the best other face
TAUGHT_MARGIN_SCAN = 0.11  # the same for a die found only by the scan
TAUGHT_MIN_SCORE = 0.4  # the best exemplar's correlation, at least
TAUGHT_KIND_MIN = 0.2  # the network's P(the answered kind), at least
TAUGHT_NONE_MAX = 0.5  # the network's P(not a die), at most
TAUGHT_LEAN_P = 0.5  # the network leans to a face: it picks between two faces the exemplars nearly tie on
TAUGHT_DOUBT_P = 0.35  # the network's P of another face than the exemplars' that refuses their answer
# (0.5 let a d10t 80's exemplars answer a 60 and a 90 the network leant to at 0.38 and 0.49)
TAUGHT_TIE_KIND_P = 0.8  # exemplars tied on two kinds' faces: the network's P(the kind), at least
SCAN_TAUGHT_MIN_P = 0.8  # with exemplars, a scan peak is looked at when P(a die) >= this
SCAN_TAUGHT_MAX = 64  # and at most this many peaks per frame, strongest first (16 left a crowded
# frame's refused dice unread: each spot gives up to four peaks, one a grid shift)
SCAN_TIE_LEAN_P = 0.7  # a die found only by the scan: where the exemplars nearly tie on two faces,
# the network's P of the one it leans to, at least (0.5 answered printed digits beside a tray)
SCAN_SMALL_SIDES = 0.85  # a scan peak is also read at this share of the typical side: where both
# views read the same d8, d10 or d10t face surer so, that read stands (a numeral die is smaller than
# a d6 seen from above; crowd100 untaught 1644 -> 1669 of 1707, bartek-polyhedral's eval half 1234 -> 1241)
SCAN_LEAN_P = 0.9  # the scan answers no d6 the lean network gives this much, on its own crop or on a
# `cocked` refusal beside it (the refusal's: rendered seed 203, faces_w3: at 0.5, 0.9, 0.97 the unreadable dice answered go from 103 to 70,
# 72, 73 of 243, and 9, 8, 7 readable ones of 1071 are lost; rendered fonts seed 944: 2, 2, 0 of 267)
# tabas touching: the detector saw one thing where two bones lie, or none. In a frame where a taba
# is answered, the middles of what is not tray (maxima of the foreground's distance transform, on a
# thumbnail where the typical side is BONE_SEG_PX) that lie BONE_FREE_SIDES from every answer and
# refusal are scanned too, even beside an answer; no scan peak within SCAN_TABA_APART of an answered
# taba is read, nor a taba the scan finds answered there (two ends of one long carnero bone read as
# two: 0.6-0.63 sides apart; bones side by side 0.65-0.7, their scan peaks further). Rendered tabas
# taught on the fixtures (Pfix): taba_tune2 98.31 -> 98.87 %, taba_m953 97.73 -> 99.09 %, taba_t961
# 96.15 -> 96.63 %; taba_f957 (never looked at) 95.61 % the same, untaught 93.17 -> 92.68 % (one
# wrong, one extra more); docs/teaching.md, thirty-fifth session. Cost: the places ~2.9 ms a
# 1000x750 frame, with the scan's windows ~1.5 ms a taba (taba_m953 taught, median 18.3 -> 23.7 ms).
BONE_SEG_PX = 12.0
BONE_MIN_HALF = 0.3  # a place lies this many typical sides inside what is not tray (0.2: the same, slower)
BONE_PEAK_SIDES = 0.3  # ... the greatest within this window (0.6 merged two bones side by side)
BONE_FREE_SIDES = 0.45  # ... and this far from every answer and refusal, and from another place
SCAN_TABA_APART = 0.7  # no scan peak is read, nor a taba the scan finds answered, this near an answered taba
TABA_AGREE_P = 0.6  # a taught taba's exemplars and the network's own best face agree: the network's
TABA_AGREE_P_SCAN = 0.75  # P of it, at least (MIN_P and MIN_P_SCAN less 0.1: two reads agree)
UNSURE_MIN_P = 0.5  # a taba read this sure (both views agreeing, < MIN_P) is read at two more turns
FLAT_LEAN_P = 0.2  # untaught, a d6 the network reads where the d6 classifier said `cocked` is
# answered when the lean network gives it less than this (it lies flat beside a touching die)
SCAN_COCKED_MIN_P = 0.93  # a d6 the scan finds within a die's side of a refusal `cocked` needs this
UNREADABLE = "unreadable"
COCKED = "cocked"
NOT_READ = "not read"
UNKNOWN_OBJECT = "unknown object"
OTHER_GAME = "a kind the game does not throw"  # never leaves the reader: a numbered thing the network
# read as a d8/d10/d10t in a game of d6, for the numeral network to ask whether it is a d6 with numerals
COLOUR_DISC_SIDES = 0.35  # a numeral die's body colour: the median of a disc of this radius (die sides)
PAINTED = ("red", "green", "blue", "purple", "black")  # a taba of another colour is `bone`


def blob_side(outline: tuple, fallback: float = 20.0) -> float:
    if len(outline) >= 3:
        return float(np.sqrt(max(1.0, cv2.contourArea(np.asarray(outline, np.float32)))))
    return fallback


@dataclass(frozen=True)
class _Read:
    centre: tuple[float, float]
    side: float
    probs: np.ndarray  # mean of the reads
    agree: bool  # both reads' best class is the same
    emb: np.ndarray | None


def reread(frame: np.ndarray, dice: list[Die], rejected: list[Rejection],
           profile: Profile | None,
           game_kinds: Collection[str] | None = None,
           places: Sequence[tuple[float, float]] = (),
           die_side: float | None = None,
           pairs: Sequence[tuple[float, float]] = (),
           touching: Sequence[tuple[float, float]] = ()) -> tuple[list[Die], list[Rejection]]:
    """The d6 reader's answers and refusals, with other kinds read.

    `game_kinds`: the kinds the game in play throws, when known. Where the d6
    reader saw no die (an unknown object) and the network reads a kind the
    game does not use, the thing is left out rather than answered: a board's
    number token beside a d6 game's tray is no d10 of it; in a game of d6, such
    a thing read as a d8, d10 or d10t is handed back refused as OTHER_GAME,
    for vision.reader to ask the numeral network whether it is a d6 with
    numerals (`numerals.d6_numerals`; the rest is left out). A die the d6 reader
    found stays answered whatever its kind (the rules then say a die of the
    wrong kind is on the tray). In a game of d10 and no d8 (or d8 and no
    d10) the network's reading of the other's value 1-8 counts for the
    game's kind (`_folded`), as the numeral network's does.

    `places`: where else a die may lie (the detector's weak peaks, not
    refused): looked at again with the refusals when dice other than d6 are
    read or a profile is given.

    `pairs`: where the detector found one thing as big as two touching dice;
    the scan looks there even beside an answer (in a frame of d6 too);
    `touching`: the touching-dice detector's peaks (vision.reader). A pair's
    peak within a die's side of one of them is two dice for sure: the scan
    looks further round it (SCAN_PAIR_REACH_CELLS), for dice half a side or
    more from the peak (untaught, in a frame of dice of every kind, for d6
    only). (A big die close to an oblique camera is a peak of a pair's size
    too; round it, its big pips read as 1s.)
    """
    net = faces.load_net()
    if net is None:
        return list(dice), list(rejected)
    kept = [r for r in rejected if r.why in KEEP_REFUSED]
    items: list[Die | Rejection] = list(dice) + [r for r in rejected if r.why not in KEEP_REFUSED]
    typical = die_side or _typical_side(frame, items, profile)
    if typical is None:
        return list(dice), list(rejected)
    sharp_tabas = _sharp_tabas(net, frame, [r for r in kept if r.why == BLURRED], typical)
    kept = [r for r in kept if r not in sharp_tabas]
    items += sharp_tabas
    answers: list[Die] = []
    if profile is None:
        # a pip answer stands unless the network is sure it is another kind;
        # only values a numeral's ink can fake are looked at (one read: time)
        sus = [d for d in dice if d.kind == "d6" and d.value in SUSPECT_D6_VALUES
               and d.confidence < PIPS_SURE]
        probs, _ = net.forward([faces.crop(frame, d.center, _side(d, typical)) for d in sus])
        other = dict(zip((id(d) for d in sus), _not_d6_p(probs) if len(sus) else (), strict=True))
        answers = [d for d in dice if other.get(id(d), 0.0) < NOT_D6_MIN_P]
        items = [d for d in dice if other.get(id(d), 0.0) >= NOT_D6_MIN_P] + items[len(dice):]
    sides = [_side(it, typical) for it in items]
    reads = _read_at(net, frame, [it.center for it in items], sides, game_kinds)
    refused: list[Rejection] = []
    taught = None
    if profile is not None and len(profile.exemplars):
        img_side = die_side or image_side([blob_side(it.outline) for it in list(dice) + list(rejected)
                                           if len(it.outline) >= 3]) or typical
        taught = _Taught(profile, templates.grey(frame), img_side, game_kinds)
        taught.prepare(reads)
    reads = _more_views(net, frame, reads)
    flat_cands: list[tuple[Rejection, Die]] = []
    for it, rd in zip(items, reads, strict=True):
        if taught is not None:
            d = taught.decide(rd, it.outline)
            if (isinstance(d, Die) and d.kind == "d6" and isinstance(it, Rejection)
                    and it.why in TAUGHT_D6_DOUBT and (it.why == "cocked" or not _net_reads(rd, d))):
                # the d6 classifier saw no die there, or none it could read: a taught d6 face
                # needs the network's own reading too (a cloth's dark motif matches a taught
                # white 1 on the exemplars alone; a glared d6 another face); one it saw lean
                # stays refused (the exemplars and the network read a leaning d6's face alike wrong)
                d = NOT_READ
            if isinstance(it, Die) and it.kind == "d6" and _pip_answer_stands(it, d, rd, profile):
                answers.append(it)
                continue
        else:
            d = _decide(rd, it.outline, profile)
        if (isinstance(d, Die) and game_kinds is not None and d.kind not in game_kinds
                and isinstance(it, Rejection) and it.why == UNKNOWN_OBJECT):
            if "d6" in game_kinds and d.kind in NUMERAL_KINDS:
                refused.append(Rejection(it.center, OTHER_GAME, it.outline, f"faces: {_said(d)}", read_as=d))
            continue  # no die of this game there (unless a d6 with numerals: vision.reader asks)
        if isinstance(d, Die) and (profile is not None or d.kind != "d6"):
            answers.append(d)
        elif isinstance(d, Die) and isinstance(it, Rejection) and it.why in D6_SECOND_WHY:
            # the d6 classifier saw no die; the network reads a d6 alike in both its views
            # (a casino die's 1 with a ring round it): as a numeral is answered untaught
            answers.append(d)
        elif (taught is None and isinstance(it, Die) and profile is not None
              and _pips_stand(it, rd, profile)):
            answers.append(it)  # a taught d6 face the network did not read: the pips stand
        else:
            why = it.why if isinstance(it, Rejection) else NOT_READ
            if d == UNREADABLE:
                why = UNREADABLE
            refused.append(Rejection(it.center, why, it.outline, f"faces: {_said(d)}",
                                     leans=isinstance(it, Rejection) and it.leans))
            if profile is None and isinstance(d, Die) and d.kind == "d6" and why == COCKED and not refused[-1].leans:
                flat_cands.append((refused[-1], d))  # answered below if the lean network sees it lie flat
    flat = _lying_flat(frame, flat_cands, typical)
    if profile is not None or any(a.kind != "d6" for a in answers):
        bones = (_bone_places(frame, typical, answers, refused + kept)
                 if any(a.kind == "taba" for a in answers) else [])
        answers, refused = _add_scanned(net, frame, typical, answers, refused, profile, taught, game_kinds,
                                        places, pairs=pairs, bones=bones, touching=touching)
    elif (pairs or any(r.why in D6_SCAN_WHY for r in refused)) and (game_kinds is None or "d6" in game_kinds):
        # a frame of d6: the scan answers d6 only (a numeral die the reads above left unsure
        # is not answered from a window beside it: a d10's 6 read as a 9 on font_tune)
        answers, refused = _add_scanned(net, frame, typical, answers, refused, game_kinds=("d6",),
                                        whys=D6_SCAN_WHY, pairs=pairs, touching=touching)
    answers += [d for d in flat if not _near(d.center, answers, MERGE_SIDES * typical)]  # the scan's first
    answers = _merge(answers, typical, dice)
    refused = [r for r in refused if not _near(r.center, answers, MERGE_SIDES * typical)]
    kept = _without_blur_beside_sharp_tabas(frame, answers, kept, typical)
    answers = [a for a in answers if not _near(a.center, kept, MERGE_SIDES * typical)]
    return name_colours(frame, answers, typical), refused + kept


def _without_blur_beside_sharp_tabas(frame: np.ndarray, answers: list[Die], kept: list[Rejection],
                                     typical: float) -> list[Rejection]:
    """The refusals no reader overturns, less the `blurred` ones beside a taba
    answer whose outline is sharp where it was read (SHARP_EDGE_SIDES): a weak
    peak off a still bone's centre, which the d6 classifier calls blurred
    (no pips' detail) and the network, off centre, does not read as a taba.
    A moving bone's edges are wide there too: its refusal stands."""
    blurred = [r for r in kept if r.why == BLURRED]
    sharp = [a for a in answers if a.kind == "taba" and _near(a.center, blurred, MERGE_SIDES * typical)
             and edge_width(frame, a.center, typical) <= SHARP_EDGE_SIDES * typical]
    return [r for r in kept if not (r.why == BLURRED and _near(r.center, sharp, MERGE_SIDES * typical))]


def _said(d: Die | str) -> str:
    """What the face network made of a refused die, for a refusal's detail."""
    return f"{d.kind} {d.value} at P {d.confidence:.2f}" if isinstance(d, Die) else d


def _sharp_tabas(net: faces.FaceNet, frame: np.ndarray, blurred: list[Rejection],
                 typical: float) -> list[Rejection]:
    """Of the d6 reader's `blurred` refusals, those the network reads as a
    taba (its two reads agree, P >= MIN_P) whose outline is sharp: a smooth
    bone, not a moving one. They are read like the other refusals. Sharp is
    against the frame's die side (`typical`): a smear is so many pixels
    whatever the box the detector drew (a bone's box is smaller than a die's
    in some poses: a still hoyo at 0.094 of its own box, 0.085 of the frame's
    die side, stayed refused)."""
    if not blurred:
        return []
    sides = [_side(r, typical) for r in blurred]
    reads = _read_at(net, frame, [r.center for r in blurred], sides)
    out = []
    for r, rd, side in zip(blurred, reads, sides, strict=True):
        d = _decide(rd, r.outline, None)
        if (isinstance(d, Die) and d.kind == "taba"
                and edge_width(frame, r.center, side) <= SHARP_EDGE_SIDES * typical):
            out.append(r)
    return out


EDGE_TURNS_DEG = tuple(range(0, 180, 15))


def edge_width(frame: np.ndarray, centre: tuple[float, float], side: float) -> float:
    """How wide, in pixels, the sharpest edges around `centre` are in their
    least sharp direction: the lightness step (5th to 95th percentile) over the
    strongest gradient (99.5th percentile) along each of EDGE_TURNS_DEG, the
    widest of them. Motion smears edges along one direction: a still thing's
    outline is ~1-2 px wide every way, a moving one's as wide as its smear."""
    r = int(round(0.9 * side))
    x, y = int(round(centre[0])), int(round(centre[1]))
    patch = frame[max(0, y - r) : y + r, max(0, x - r) : x + r]
    if patch.shape[0] < 3 or patch.shape[1] < 3:
        return float("inf")
    light = cv2.cvtColor(patch, cv2.COLOR_BGR2Lab)[..., 0].astype(np.float32)
    gx = cv2.Sobel(light, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(light, cv2.CV_32F, 0, 1, ksize=3) / 8
    lo, hi = np.percentile(light, (5, 95))
    weakest = min(float(np.percentile(np.abs(gx * np.cos(t) + gy * np.sin(t)), 99.5))
                  for t in np.deg2rad(EDGE_TURNS_DEG))
    return float((hi - lo) / max(1e-3, weakest))


def name_colours(frame: np.ndarray, answers: list[Die], typical: float) -> list[Die]:
    """Name the body colour of the answers that have none (numerals read
    untaught), and of tabas: a painted taba by its colour, else `bone`. The
    median of a disc over the die (a numeral's ink is a minority), under the
    light the frame's dice tell (vision.colour.frame_light), as the d6 reader
    does."""
    todo = [i for i, a in enumerate(answers) if a.colour is None or (a.kind == "taba" and a.colour == "bone")]
    if not todo:
        return answers
    tray = median_u8(frame[::8, ::8].reshape(-1, 3))
    crops = die_crops(frame, [a.center for a in answers], [blob_side(a.outline, typical) for a in answers])
    light = frame_light(crops, tray)  # the frame's whites: white dice, white pips and numerals
    out = list(answers)
    for i in todo:
        a = answers[i]
        r = max(2.0, COLOUR_DISC_SIDES * blob_side(a.outline, typical))
        x0, y0 = max(0, int(a.center[0] - r)), max(0, int(a.center[1] - r))
        patch = frame[y0 : int(a.center[1] + r) + 1, x0 : int(a.center[0] + r) + 1]
        yy, xx = np.ogrid[y0 : y0 + patch.shape[0], x0 : x0 + patch.shape[1]]
        disc = (xx - a.center[0]) ** 2 + (yy - a.center[1]) ** 2 <= r * r
        if not disc.any():
            continue
        name = name_colour(np.median(patch[disc].reshape(-1, 3), axis=0), light.for_die(crops[i]))
        if a.kind == "taba":
            name = name if name in PAINTED else "bone"
        out[i] = replace(a, colour=name)
    return out


# ----------------------------------------------------------------------------- reads


def _read_at(net: faces.FaceNet, frame: np.ndarray, centres, sides,
             game_kinds: Collection[str] | None = None) -> list[_Read]:
    """Two reads per die: the crop upright and turned a quarter turn (a d8's
    and a d10's value folded into the one of them the game throws)."""
    if not centres:
        return []
    crops = [faces.crop(frame, c, s, a) for c, s in zip(centres, sides, strict=True)
             for a in (0.0, 90.0)]
    probs, emb = net.forward(crops)
    probs = _folded(probs, game_kinds)
    out = []
    for i, (c, s) in enumerate(zip(centres, sides, strict=True)):
        p0, p1 = probs[2 * i], probs[2 * i + 1]
        e = emb[2 * i] + emb[2 * i + 1]
        out.append(_Read(tuple(map(float, c)), float(s), (p0 + p1) / 2,
                         int(p0.argmax()) == int(p1.argmax()), e / (np.linalg.norm(e) + 1e-6)))
    return out


def _folded(probs: np.ndarray, game_kinds: Collection[str] | None) -> np.ndarray:
    """Where the game throws d10 and no d8 (or d8 and no d10), a value the
    network reads on the other counts for the game's: a d10's kite seen
    beside its neighbours looks like a d8's triangle, and the numeral is the
    same. (N, classes) -> the same, folded."""
    pair = _fold_pair(game_kinds)
    if pair is None:
        return probs
    keep, drop = pair
    out = np.array(probs, copy=True)
    out[:, keep] += out[:, drop]
    out[:, drop] = 0.0
    return out


def _folded_away(game_kinds: Collection[str] | None) -> str | None:
    """The kind of d8 and d10 the game does not throw, when it throws the other."""
    if game_kinds is None or ("d8" in game_kinds) == ("d10" in game_kinds):
        return None
    return "d10" if "d8" in game_kinds else "d8"


def _fold_pair(game_kinds: Collection[str] | None) -> tuple[list[int], list[int]] | None:
    """Class indices (kept, dropped) of the values 1-8 of d8 and d10 when the game throws one of them only."""
    other = _folded_away(game_kinds)
    if other is None:
        return None
    game = "d8" if other == "d10" else "d10"
    vals = range(1, 9)
    return ([faces.class_index(game, v) for v in vals], [faces.class_index(other, v) for v in vals])


def _more_views(net: faces.FaceNet, frame: np.ndarray, reads: list[_Read]) -> list[_Read]:
    """Taba reads the network leans to but is not sure of (both views
    agreeing, UNSURE_MIN_P <= P < MIN_P), read at two more turns (45 and 135
    degrees): where all four views agree, the four-view read replaces the
    two-view one (four views settle what two left open, as for d6 in the
    reader's last look), taught or not. Rendered tabas, seed 951: 3 more read
    untaught, 1 more taught, none wrong. Numerals are left as they were: on
    real d6 photos (epanemu, the autoroller tiles) four views of unsure
    numerals added 12 extra answers and 7 wrong ones."""
    ask = [i for i, rd in enumerate(reads) if rd.agree and UNSURE_MIN_P <= float(rd.probs.max()) < MIN_P
           and faces.CLASSES[int(rd.probs.argmax())][0] == "taba"]
    if not ask:
        return reads
    crops = [faces.crop(frame, reads[i].centre, reads[i].side, a) for i in ask for a in (45.0, 135.0)]
    probs, _ = net.forward(crops)
    out = list(reads)
    for j, i in enumerate(ask):
        rd = reads[i]
        top = int(rd.probs.argmax())
        p45, p135 = probs[2 * j], probs[2 * j + 1]
        if int(p45.argmax()) == top and int(p135.argmax()) == top:
            out[i] = replace(rd, probs=(2 * rd.probs + p45 + p135) / 4)
    return out


def _decide(rd: _Read, outline, profile: Profile | None, min_p: float = MIN_P) -> Die | str:
    """A die, or why not (a refusal's reason)."""
    probs = rd.probs
    if profile is not None:
        allowed = np.zeros(len(faces.CLASSES), bool)
        allowed[:2] = True
        for kv in profile.classes:
            i = faces.class_index(*kv)
            if i is not None:
                allowed[i] = True
        probs = np.where(allowed, probs, 0.0)
        probs = probs / max(1e-6, probs.sum())
    best = int(probs.argmax())
    kind, value = faces.CLASSES[best]
    p = float(probs[best])
    set_name = None
    if profile is not None and len(profile.features):
        vote, share, set_name = _knn(profile, rd.emb)
        if vote is not None and vote != best:
            if share >= 1.0 and probs[vote] >= KNN_OVERRULE_P:
                best, p = vote, float(probs[vote])
                kind, value = faces.CLASSES[best]
            else:
                return NOT_READ
        elif vote is None:
            if kind in (faces.NONE, faces.UNREADABLE) and p >= min_p:
                return UNKNOWN_OBJECT if kind == faces.NONE else UNREADABLE
            return NOT_READ
    elif not rd.agree:
        return NOT_READ
    if kind == faces.NONE:
        return UNKNOWN_OBJECT
    if kind == faces.UNREADABLE:
        return UNREADABLE
    if p < min_p:
        return NOT_READ
    colour = None
    if profile is not None and set_name is not None:
        s = profile.set_named(set_name)
        colour = s.colour if s else None
    if kind == "taba":
        colour = colour or "bone"
    return Die(kind, value, colour, rd.centre, p, tuple(outline))


def _knn(profile: Profile, emb: np.ndarray | None) -> tuple[int | None, float, str | None]:
    """The taught faces' vote: (class index in faces.CLASSES, share, set name)."""
    if emb is None:
        return None, 0.0, None
    sims = profile.features @ emb.astype(np.float32)
    k = min(KNN_K, len(sims))
    top = np.argpartition(-sims, k - 1)[:k]
    cls = profile.class_idx[top]
    vals, counts = np.unique(cls, return_counts=True)
    j = int(counts.argmax())
    share = float(counts[j]) / k
    if share < KNN_MIN_VOTE:
        return None, share, None
    kv = profile.classes[int(vals[j])]
    sets = profile.set_idx[top][cls == vals[j]]
    set_name = profile.sets[int(np.bincount(sets).argmax())].name if len(profile.sets) else None
    return faces.class_index(*kv), share, set_name


# ----------------------------------------------------------------------------- taught


class _Taught:
    """Reading dice against a profile's exemplars (vision.templates)."""

    def __init__(self, profile: Profile, grey: np.ndarray, img_side: float,
                 game_kinds: Collection[str] | None = None) -> None:
        self.profile = profile
        other = _folded_away(game_kinds)
        self.game_only = None if other is None else np.array(
            [profile.classes[c][0] != other for _, c in profile.bank_keys])
        self.grey = grey
        self.img_side = img_side
        self.keys = profile.bank_keys  # (set index, class index) per bank class
        self.answer_of = [profile.classes[c] for _, c in self.keys]
        self._cache: dict[tuple[float, float], np.ndarray] = {}

    @cached_property
    def _face(self) -> np.ndarray:
        """Each bank class's face (class index): the bank classes of one face share it."""
        return np.array([c for _, c in self.keys])

    def prepare(self, reads: list[_Read]) -> None:
        """Match every die `decide` will look at all at once (every set in one
        call: faster than one by one); `scores` then looks them up."""
        new = list({rd.centre: rd for rd in reads
                    if self._refusal(rd) is None and rd.centre not in self._cache}.values())
        if new:
            self._cache.update(zip([rd.centre for rd in new], self._match(new), strict=True))

    def scores(self, rd: _Read) -> np.ndarray:
        """Best exemplar score of every bank class, each set's exemplars
        compared with a crop sized for that set (none for the d8 faces in a
        game of d10, nor the d10's in a game of d8)."""
        if rd.centre not in self._cache:
            self._cache[rd.centre] = self._match([rd])[0]
        sc = self._cache[rd.centre]
        return sc if self.game_only is None else np.where(self.game_only, sc, -1.0)

    def _match(self, reads: list[_Read]) -> np.ndarray:
        """All the sets at once, each set's exemplars against crops sized for it."""
        p = self.profile
        parts = [(rows, self.img_side * (p.side_ratio[si] if si < len(p.side_ratio) else 1.0))
                 for si, rows in p.bank_rows.items()]
        return templates.match_parts(p.bank, self.grey, [rd.centre for rd in reads], parts)

    @staticmethod
    def _refusal(rd: _Read) -> str | None:
        """Why the network alone refuses the die (no matching needed), if it does."""
        if float(rd.probs[0]) > TAUGHT_NONE_MAX:
            return UNKNOWN_OBJECT
        if float(rd.probs[1]) >= MIN_P:
            return UNREADABLE
        return None

    def decide(self, rd: _Read, outline, margin: float = TAUGHT_MARGIN, min_p: float = MIN_P) -> Die | str:
        """The exemplars' answer; where they are unsure, the network's own
        answer (its two reads agree, P >= MIN_P, a taught kind); where both
        answer and differ, or the network gives another face P >=
        TAUGHT_DOUBT_P (too unsure to answer it, sure enough to doubt
        the exemplars), a refusal."""
        why = self._refusal(rd)
        if why is not None:
            return why
        ex = self._exemplars(rd, outline, margin, TAUGHT_LEAN_P if min_p <= MIN_P else SCAN_TIE_LEAN_P)
        net = _decide(rd, outline, None, min_p)
        top = int(rd.probs.argmax())
        if (isinstance(ex, Die) and faces.CLASSES[top] != (ex.kind, ex.value)
                and float(rd.probs[top]) >= TAUGHT_DOUBT_P):
            return NOT_READ  # the network reads another face, if not surely enough to answer it
        if not isinstance(net, Die) or net.kind not in self.profile.kinds:
            # every bone differs: a taba's face needs the network's own reading; of a kind
            # some faces of which were never taught, the network must at least lean to the
            # exemplars' face (an untaught 30 matches a taught 80's exemplars best)
            doubt = isinstance(ex, Die) and (ex.kind == "taba" or (
                ex.kind in self.profile.untaught_faces and _net_face(rd.probs, ex.kind) != ex.value))
            if (isinstance(ex, Die) and ex.kind == "taba" and rd.agree and faces.CLASSES[top] == (ex.kind, ex.value)
                    and float(rd.probs[top]) >= (TABA_AGREE_P if min_p <= MIN_P else TABA_AGREE_P_SCAN)):
                # the exemplars' face is the network's best, in both its views, if not sure
                # enough alone (most often P(none) takes the rest: a taba by the frame's edge
                # or touching another): two reads agree (rendered tabas, seed 951: 6 more read)
                doubt = False
            return NOT_READ if doubt else ex
        if isinstance(ex, Die):
            return ex if (ex.kind, ex.value) == (net.kind, net.value) else NOT_READ
        sets = [s for s in self.profile.sets if net.kind in s.kinds]
        colour = sets[0].colour if len(sets) == 1 and sets[0].colour else net.colour
        return Die(net.kind, net.value, colour, net.center, net.confidence, net.outline)

    def _exemplars(self, rd: _Read, outline, margin: float, lean_p: float = TAUGHT_LEAN_P) -> Die | str:
        probs = rd.probs
        sc = self.scores(rd)
        b = int(sc.argmax())
        kind, value = self.answer_of[b]
        rivals = self._face != self._face[b]  # the bank classes of other faces
        second = sc[rivals].max() if rivals.any() else -1.0
        if sc[b] < TAUGHT_MIN_SCORE:
            return NOT_READ
        if sc[b] - second < margin:
            # two faces nearly tie: the one of them the network leans to, if it does
            top = int(probs.argmax())
            b2 = int(np.flatnonzero(rivals)[sc[rivals].argmax()])
            if float(probs[top]) < lean_p or faces.CLASSES[top] not in (self.answer_of[b],
                                                                         self.answer_of[b2]):
                return NOT_READ
            if faces.CLASSES[top] != self.answer_of[b]:
                b, b2 = b2, b  # the network's face first
            kind, value = self.answer_of[b]
            if (self.answer_of[b2][0] != kind
                    and float(faces.kind_probs(probs[None])[kind][0]) < TAUGHT_TIE_KIND_P):
                return NOT_READ  # a d10's 6 or a d8's 6: the network must be sure of the kind
        kp = faces.kind_probs(probs[None])
        if (float(kp[kind][0]) < TAUGHT_KIND_MIN
                or max(self.profile.kinds, key=lambda k: float(kp[k][0])) != kind):
            return NOT_READ  # the network calls it another of the taught kinds
        if kind == "taba" and _net_face(probs, kind, self.profile.classes) != value:
            return NOT_READ  # every bone differs: the network must read the same face
        s = self.profile.sets[self.keys[b][0]]
        colour = s.colour or ("bone" if kind == "taba" else None)
        return Die(kind, value, colour, rd.centre, float(sc[b]), tuple(outline))


def _net_reads(rd: _Read, d: Die) -> bool:
    """The network's own reading (both views, P >= MIN_P) is the die `d` says."""
    net = _decide(rd, d.outline, None)
    return isinstance(net, Die) and (net.kind, net.value) == (d.kind, d.value)


def _net_face(probs: np.ndarray, kind: str, among: Sequence[tuple[str, int | str]] = faces.CLASSES):
    """The network's most probable face of `kind` among `among` (a profile's
    taught classes, or every face)."""
    idx = [i for kv in among if kv[0] == kind if (i := faces.class_index(*kv)) is not None]
    return faces.CLASSES[max(idx, key=lambda i: probs[i])][1] if idx else None


def _pip_answer_stands(pip: Die, taught: Die | str, rd: _Read, profile: Profile) -> bool:
    """A pip reader's d6 answer under a profile with exemplars: it stands
    unless the exemplars read the die as another face, or the profile never
    taught that d6 face."""
    if isinstance(taught, Die):
        return (taught.kind, taught.value) == (pip.kind, pip.value)
    return taught == NOT_READ and _pips_stand(pip, rd, profile)


def image_side(sides) -> float | None:
    """The image's typical die side: the median of its dice's (blobs') sides."""
    sides = [float(s) for s in sides if s > 0]
    return float(np.median(sides)) if sides else None


# ----------------------------------------------------------------------------- scan


def _add_scanned(net, frame, typical, answers, refused, profile=None, taught=None, game_kinds=None,
                 places=(), whys=None, pairs=(), bones=(), touching=()):
    """Dice the first look missed. Around each place worth a second look (a
    blob refused for another reason than unreadable or leaning, a weak detector peak)
    that no answer covers, the network runs densely over a small window
    (SCAN_REACH_CELLS cells each way, on a grid of half its stride); each
    peak of P(a die) is read twice at its cell (only dice of the game's
    kinds, when given). The whole frame is not scanned: the detector proposes
    every die, d6 or not, and a whole-frame scan cost ~90 ms of a taught read.
    `whys`: only refusals of these reasons are looked around (None: all);
    `pairs` (peaks as big as two touching dice) even beside an answer; those
    with a `touching` peak within a die's side further (see reread)."""
    k = faces.DIE_PX / typical
    h, w = frame.shape[:2]
    spots: list[tuple[float, float]] = []
    wide: list[tuple[float, float]] = []  # pairs' spots: the two dice lie half a side or more from them
    # a die refused unreadable, or by the lean network, is not looked at again (the dense look
    # finds a face on a leaning die as readily as on a flat one)
    looked = [r.center for r in refused if r.why != UNREADABLE and not r.leans
              and (whys is None or r.why in whys)]
    # (the far look not in a crop a die fills: its typical side is a pip's and a die's mean, the die a pair's size)
    far = min(h, w) >= SCAN_PAIR_FRAME_SIDES * typical
    # The far look answers every kind for a taught set or a game of d6 alone. Untaught among other
    # kinds it answers d6 only, and the pair's spot is also looked at near, for every kind: far reads
    # of every kind answered 5 extra d10 on epanemu's trays of d6; d6 only without the near look lost
    # a d10 beside a pair on bartek-polyhedral.
    any_kind_far = taught is not None or (game_kinds is not None and set(game_kinds) == {"d6"})
    # (pairs first: a pair's peak is often also a place, and its spot is looked at wider)
    candidates = [(tuple(c), True) for c in pairs] + [(c, False) for c in looked + [tuple(p) for p in places]]
    for c, beside_answers in candidates:
        if ((beside_answers or not _near(c, answers, MERGE_SIDES * typical))
                and not near_points(c, spots + wide, MERGE_SIDES * typical) and 0 <= c[0] < w and 0 <= c[1] < h):
            if beside_answers and far and near_points(c, touching, typical):
                wide.append(c)
                if not any_kind_far:
                    spots.append(c)
            else:
                spots.append(c)
    for c in bones:
        if not near_points(c, spots + wide, BONE_FREE_SIDES * typical):
            spots.append(c)
    if not spots and not wide:
        return answers, refused
    die_p, corners, round_pair = [], [], []
    for group, cells in ((spots, SCAN_REACH_CELLS), (wide, SCAN_PAIR_REACH_CELLS)):
        if group:
            windows, at = _scan_windows(frame, group, k, cells)
            die_p += list(1.0 - net.dense_many(windows)[..., 0])  # (cells, cells) each
            corners += at
            round_pair += [group is wide] * len(at)
    new, strength = [], {}
    d6_only: list[bool] = []  # per new place: found round a pair by the far look of an untaught read
    bone_answers = [a for a in answers if a.kind == "taba"]
    for (x0, y0, px), dp, pair in zip(corners, die_p, round_pair, strict=True):
        # (round a pair, an answer's own top face seen apart from its front face in an oblique view
        # lies 0.6-0.7 of a side from it; two flat dice touching lie 0.9 or more)
        apart = (SCAN_PAIR_APART_SIDES if pair else MERGE_SIDES) * typical
        for i, j, p in _plateau_middles(dp) if pair else _peaks(dp):
            # cell (i, j) is the crop whose top-left is (j, i) * stride in the window
            c = (x0 + (j * faces.STRIDE_PX + faces.CROP_PX / 2) * px,
                 y0 + (i * faces.STRIDE_PX + faces.CROP_PX / 2) * px)
            if not _near(c, answers, apart) and not _near(c, bone_answers, SCAN_TABA_APART * typical):
                new.append(c)
                strength[c] = p
                d6_only.append(pair and not any_kind_far)
    if taught is not None:  # the strongest few peaks only (matching costs time); all of any kind
        new = sorted((c for c in new if strength[c] >= SCAN_TAUGHT_MIN_P),
                     key=lambda c: -strength[c])[:SCAN_TAUGHT_MAX]
        d6_only = [False] * len(new)
    if not new:
        return answers, refused
    reads = _read_at(net, frame, new, [typical] * len(new), game_kinds)
    # a numeral die is smaller than the frame's typical side (a d6's, from above): read again a
    # little smaller, the surer read of the same face stands (only a d8, d10 or d10t face, so only
    # those reads are read again: the network reads each crop of a batch as alone)
    again = [i for i, a in enumerate(reads) if faces.CLASSES[int(a.probs.argmax())][0] in NUMERAL_KINDS]
    small = _read_at(net, frame, [new[i] for i in again], [SCAN_SMALL_SIDES * typical] * len(again),
                     game_kinds)
    for i, b in zip(again, small, strict=True):
        a = reads[i]
        if (b.agree and int(b.probs.argmax()) == int(a.probs.argmax())
                and float(b.probs.max()) > float(a.probs.max())):
            reads[i] = b
    if taught is not None:
        taught.prepare(reads)
    # A pair's own `cocked` refusal (two touching dice in one crop look leaning) vetoes no die the far
    # look finds round it where that look answers every kind: each such d6 is asked the lean network
    # on its own crop, below. Untaught among other kinds the veto stands: a d6 leaning on a numeral
    # die, seen as a pair, was answered from the far look (make_scenes seed 203_000).
    cocked = [r for r in refused if r.why == COCKED
              and not (any_kind_far and near_points(r.center, wide, PAIR_SAME_SIDES * typical))]
    leaning = _leaning(frame, cocked, typical)
    doubted = [r for r in refused if r.why in TAUGHT_D6_DOUBT]  # the d6 reader saw no die there it could read
    answers = list(answers)
    found: list[Die] = []
    for rd, only_d6 in zip(reads, d6_only, strict=True):
        h2 = typical / 2  # no blob: a square of the typical side
        box = ((rd.centre[0] - h2, rd.centre[1] - h2), (rd.centre[0] + h2, rd.centre[1] - h2),
               (rd.centre[0] + h2, rd.centre[1] + h2), (rd.centre[0] - h2, rd.centre[1] + h2))
        d = (taught.decide(rd, box, TAUGHT_MARGIN_SCAN, MIN_P_SCAN) if taught is not None
             else _decide(rd, box, profile, MIN_P_SCAN))
        if isinstance(d, Die) and d.kind != "d6" and only_d6:
            continue
        if isinstance(d, Die) and d.kind == "d6" and _near(rd.centre, leaning, MERGE_SIDES * typical):
            continue  # a leaning d6 stays refused (its top face reads as well as a flat one's)
        if (isinstance(d, Die) and d.kind == "d6" and d.confidence < SCAN_COCKED_MIN_P
                and _near(rd.centre, cocked, typical)):
            continue
        if (taught is not None and isinstance(d, Die) and d.kind == "d6" and _near(rd.centre, doubted, typical)
                and not _net_reads(rd, d)):
            continue  # as where the first look reads a taught d6 there: the exemplars alone do not answer
        if isinstance(d, Die) and d.kind == "taba" and _near(rd.centre, answers + found, SCAN_TABA_APART * typical):
            continue  # the other end of a long bone answered already
        if isinstance(d, Die):
            if game_kinds is None or d.kind in game_kinds:
                found.append(d)
        elif d == UNREADABLE:
            refused.append(Rejection(rd.centre, UNREADABLE, box, "faces scan"))
    # nor a d6 the lean network sees leaning (a die against another, found beside a pair's peak)
    sixes = [d for d in found if d.kind == "d6"]
    lean = lean_p(frame, [d.center for d in sixes], [typical] * len(sixes))
    leaning_d6 = set() if lean is None else {id(d) for d, p in zip(sixes, lean, strict=True) if p >= SCAN_LEAN_P}
    return answers + [d for d in found if id(d) not in leaning_d6], refused


def _peaks(dp: np.ndarray) -> list[tuple[float, float, float]]:
    """(row, column, P) of the cells of a scan window's P(a die) that are
    local maxima of at least PEAK_MIN_P."""
    peak = (dp >= PEAK_MIN_P) & (dp >= cv2.dilate(dp, np.ones((3, 3), np.uint8)))
    return [(float(i), float(j), float(dp[i, j])) for i, j in zip(*np.nonzero(peak), strict=True)]


def _plateau_middles(dp: np.ndarray) -> list[tuple[float, float, float]]:
    """(row, column, P) of the middles (P-weighted) of the plateaus of a scan
    window's P(a die) at least SCAN_PAIR_PLATEAU_P: round a pair's peak. The
    window reaches far enough to hold cells a third of a side off a die,
    sure of a die too (P saturates): a local maximum there is as likely as
    at the middle, and its crop cuts a corner pip off (a 3 read as a 2)."""
    n, labels = cv2.connectedComponents((dp >= SCAN_PAIR_PLATEAU_P).astype(np.uint8), connectivity=4)
    out = []
    for m in range(1, n):
        i, j = np.nonzero(labels == m)
        wts = dp[i, j]
        out.append((float((i * wts).sum() / wts.sum()), float((j * wts).sum() / wts.sum()), float(wts.max())))
    return out


def _scan_windows(frame: np.ndarray, spots: list[tuple[float, float]], k: float,
                  cells: int) -> tuple[list[np.ndarray], list[tuple[float, float, float]]]:
    """The windows the scan looks at around each spot (`cells` network cells
    each way, the frame scaled by `k`), each also shifted half a cell each way,
    and each window's top-left corner and pixel size in the frame."""
    h, w = frame.shape[:2]
    half = faces.CROP_PX // 2 + cells * faces.STRIDE_PX
    h2 = faces.STRIDE_PX // 2
    side = 2 * half + h2  # scaled pixels around a spot: its windows at every shift
    reach = int(np.ceil(side / k))  # ... in frame pixels
    windows, corners = [], []
    for cx, cy in spots:
        # the frame's pixels around the spot, scaled (area-averaged: no aliasing); edges repeated
        x0, y0 = int(round(cx - half / k)), int(round(cy - half / k))
        region = frame[max(0, y0) : max(0, y0 + reach), max(0, x0) : max(0, x0 + reach)]
        top, left = max(0, -y0), max(0, -x0)
        region = cv2.copyMakeBorder(region, top, reach - top - region.shape[0], left,
                                    reach - left - region.shape[1], cv2.BORDER_REPLICATE)
        small = cv2.resize(region, (side, side), interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
        # each spot also shifted half a cell each way: a grid of half the network's stride
        # (a peak exactly on a refused blob's centre reads as it did)
        for dx, dy in ((0, 0), (h2, h2), (h2, 0), (0, h2)):
            windows.append(small[dy : dy + 2 * half, dx : dx + 2 * half])
            corners.append((x0 + dx * reach / side, y0 + dy * reach / side, reach / side))
    return windows, corners


def _bone_places(frame: np.ndarray, typical: float, answers: list[Die],
                 refused: list[Rejection]) -> list[tuple[float, float]]:
    """Where a taba may lie that nothing answered or refused accounts for:
    the middles of what is unlike the tray around it (each pixel against a
    wide median of the thumbnail, as the classical reader's segmentation
    compares; vision.segment), at least BONE_MIN_HALF sides from the tray,
    BONE_FREE_SIDES from every answer, refusal and other place."""
    k = min(1.0, BONE_SEG_PX / typical)
    n = max(1, int(0.5 / k))  # area resizing by a whole factor first (several times faster), then the rest
    small = cv2.resize(frame, None, fx=1 / n, fy=1 / n, interpolation=cv2.INTER_AREA) if n > 1 else frame
    small = cv2.resize(small, None, fx=k * n, fy=k * n, interpolation=cv2.INTER_AREA) if k < 1 else small
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2Lab)
    local = segment.local_background(lab, DEFAULT_PARAMS)
    # the tray's spread: its pixels' distance to the median around them (the frame is mostly tray)
    spread = np.median(cv2.absdiff(lab, local)[::2, ::2].reshape(-1, 3), axis=0)
    sigma = tuple(float(v) for v in np.maximum(1.4826 * spread, DEFAULT_PARAMS.bg_min_sigma))
    # against `local`, foreground_mask takes only the spread of the Background (no whole-frame colour)
    fg = segment.foreground_mask(lab, segment.Background(lab=(0.0,) * 3, sigma=sigma, bgr=(0.0,) * 3),
                                 DEFAULT_PARAMS, local)
    dt = cv2.distanceTransform((fg > 0).astype(np.uint8), cv2.DIST_L2, 3)
    r = max(3, int(round(BONE_PEAK_SIDES * typical * k)) | 1)
    peak = (dt >= BONE_MIN_HALF * typical * k) & (dt >= cv2.dilate(dt, np.ones((r, r), np.uint8)))
    seen = [d.center for d in answers] + [q.center for q in refused]
    out: list[tuple[float, float]] = []
    for x, y in zip(*np.nonzero(peak)[::-1], strict=True):
        c = ((x + 0.5) / k - 0.5, (y + 0.5) / k - 0.5)
        if not near_points(c, seen + out, BONE_FREE_SIDES * typical):
            out.append(c)
    return out


# ----------------------------------------------------------------------------- helpers


def one_refusal_each(rejected: Sequence[Rejection], typical: float) -> list[Rejection]:
    """The refusals, one for each thing refused for one reason: of those of
    the same reason closer than MERGE_SIDES die sides, the first stands. The
    scan reads several peaks on one bone on its end or one die leaning, and
    refuses each: a user should see one refusal there, not five. Refusals of
    two reasons both stand (a blob the d6 reader saw blurred beside where the
    scan found a bone unreadable: which one is right is not known here)."""
    kept: list[Rejection] = []
    for r in rejected:
        if not _near(r.center, [k for k in kept if k.why == r.why], MERGE_SIDES * typical):
            kept.append(r)
    return kept


def _lying_flat(frame: np.ndarray, cands: list[tuple[Rejection, Die]], typical: float) -> list[Die]:
    """Untaught: of the d6 classifier's `cocked` refusals that the network
    reads as a d6 face (both views alike, P >= MIN_P), paired with that read,
    the reads of those the lean network thinks lie flat (P < FLAT_LEAN_P):
    the classifier alone calls a flat die cocked beside a touching one, or
    with a perspective strip in view. The others stay refused (a leaning
    die's top face reads as well as a flat one's, and the lean network sees
    most of them lean). A die the scan then finds there is answered instead
    (on an oblique view it finds the top face, the blob's read the side)."""
    if not cands:
        return []
    lean = lean_p(frame, [r.center for r, _ in cands], [_side(r, typical) for r, _ in cands])
    if lean is None:
        return []
    return [d for (_, d), p in zip(cands, lean, strict=True) if float(p) < FLAT_LEAN_P]


def _leaning(frame: np.ndarray, cocked: list[Rejection], typical: float) -> list[Rejection]:
    """Of the d6 classifier's `cocked` refusals, those the lean network (the
    d6 reader's, vision.learned) also thinks lean (P >= SCAN_LEAN_P): the scan
    answers no d6 there. The classifier alone calls a flat die in a wide
    perspective strip cocked now and then; the two together less often (but
    two flat d6 of the numeral fixtures)."""
    lean = lean_p(frame, [r.center for r in cocked], [_side(r, typical) for r in cocked])
    if lean is None:
        return list(cocked)
    return [r for r, p in zip(cocked, lean, strict=True) if p >= SCAN_LEAN_P]


def lean_p(frame: np.ndarray, centres, sides) -> np.ndarray | None:
    """P(the die leans or lies on another) of the lean network (the d6
    reader's, vision.learned) at each centre; None without that network."""
    models = learned.load_models() if len(centres) and learned.models_present() else None
    if models is None or models.lean is None:
        return None
    crops = [learned.crop_die(frame, c, s) for c, s in zip(centres, sides, strict=True)]
    return learned.lean_probs(models.lean, crops)


def _typical_side(frame, items, profile: Profile | None) -> float | None:
    """The frame's typical die side: its dice's (the detector's sizes), else
    the profile's taught sizes."""
    sides = [blob_side(it.outline) for it in items if len(it.outline) >= 3]
    if sides:
        return float(np.median(sides))
    if profile is not None and profile.sets:
        return float(np.median([s.side_frac for s in profile.sets])) * max(frame.shape[:2])
    return None


def _pips_stand(d: Die, rd: _Read, profile: Profile) -> bool:
    """With a profile, a pip answer the network did not confirm stands when the
    profile taught that face and, for a value a numeral can fake, the network
    at least calls the die a d6 when the set has dice of other kinds (a d10's
    8 reads as two pips); of a set of d6 only, when the network is not sure
    the die is of another kind (P < NOT_D6_MIN_P, as without a profile: it
    reads some real 1s and 2s as a taba or a d10 at 0.5-0.8)."""
    if (d.kind, d.value) not in profile.classes:
        return False
    if d.value not in SUSPECT_D6_VALUES:
        return True
    if any(k != "d6" for k in profile.kinds):
        return float(faces.kind_probs(rd.probs[None])["d6"][0]) >= 0.5
    return _not_d6_p(rd.probs[None])[0] < NOT_D6_MIN_P


def _not_d6_p(probs: np.ndarray) -> np.ndarray:
    """The network's P(a die of another kind than d6) of each read, (N,)."""
    kp = faces.kind_probs(probs)
    return np.sum([kp[k] for k in faces.KINDS if k != "d6"], axis=0)


def _clamp(side: float, typical: float) -> float:
    return side if SIDE_CLAMP[0] * typical < side < SIDE_CLAMP[1] * typical else typical


def _side(item: Die | Rejection, typical: float) -> float:
    """An answer's or a refusal's side: its outline's, or the typical one when that is far off."""
    return _clamp(blob_side(item.outline, typical), typical)


def _near(c, others, dist: float) -> bool:
    return near_points(c, [o.center for o in others], dist)


def near_points(c, points, dist: float) -> bool:
    """Whether any of `points` ((x, y) each) lies nearer than `dist` to `c`."""
    return any(np.hypot(c[0] - p[0], c[1] - p[1]) < dist for p in points)


def _merge(answers: list[Die], typical: float, found: Collection[Die] = ()) -> list[Die]:
    """One answer per die: of answers closer than MERGE_SIDES, the surest. Two
    of `found` (the d6 reader's answers) that read different values both
    stand: two dice touching, their top faces seen in perspective, lie closer
    than that (a frame's die side is what the detector finds, top and side
    faces). Two of the same value are one die found twice, as often as not."""
    firm = {id(d) for d in found}
    out: list[Die] = []
    for a in sorted(answers, key=lambda d: -d.confidence):
        near = [o for o in out if _near(a.center, [o], MERGE_SIDES * typical)]
        if not near or (id(a) in firm and all(id(o) in firm and o.value != a.value for o in near)):
            out.append(a)
    return out

