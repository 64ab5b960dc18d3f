"""Every tuning number of the reader, in one place.

Sizes are relative to the die where they can be (a die's side in pixels is
measured per die), so the same numbers work on a 640 px phone photo and on a
12 MP Pi frame.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Params:
    # -- segmentation (vision.segment) ---------------------------------------
    seg_max_side_px: int = 800  # frames are segmented at most this big
    bg_sample_side_px: int = 160  # background colour is estimated on a thumbnail
    local_bg_frac: float = 0.17  # median window for the local tray colour, of the frame
    crop_max_side_px: int = 300  # frames this small are close-ups: one tray colour
    bg_bin_l: int = 16  # Lab histogram bin widths for the dominant colour
    bg_bin_ab: int = 6
    bg_min_sigma: float = 4.0  # floor of the background's spread per channel
    bg_l_weight: float = 0.5  # lightness counts less than chroma (shadows)
    fg_sigmas: float = 4.0  # a pixel this many spreads away is not tray
    fg_min_dist: float = 14.0  # ... and at least this far in Lab units
    fg_weak_sigmas: float = 2.3  # fainter pixels count when joined to clear ones
    fg_weak_min_dist: float = 8.0
    use_edges: bool = False  # add strong edges to the mask (white on white); merges clusters
    edge_min_grad: float = 10.0  # lightness step (3x3) that outlines a die ...
    edge_texture_factor: float = 5.0  # ... and this many times the tray's texture
    min_die_area_frac: float = 0.00012  # of the segmented frame
    max_die_area_frac: float = 0.85
    # -- one die (vision.reader) --------------------------------------------
    crop_side_px: int = 96  # a die is read in a crop scaled to this side
    crop_margin: float = 0.18  # margin around the die in the crop, of its side
    min_rectangularity: float = 0.72  # contour area / minAreaRect area
    max_aspect_topdown: float = 1.35  # minAreaRect long/short side
    cluster_area_factor: float = 1.7  # a blob this many dice big is a cluster
    maybe_cluster_area_factor: float = 1.25  # ... and this big if not square
    min_side_of_typical: float = 0.45  # smaller blobs are specks
    max_side_of_typical: float = 2.2  # bigger ones are not one die
    mask_erode_frac: float = 0.02  # of the crop side: drop the die's outline
    blur_min_laplacian_var: float = 12.0  # of the crop, below: blurred
    border_margin_px: int = 2  # a die touching this band is outside
    # -- the die's own region in its crop (vision.pips.refine_mask) ----------
    inner_erode_frac: float = 0.08  # of the crop side: surely die, for its colour
    body_spread_factor: float = 1.8  # body pixels lie within this many spreads
    body_min_dist: float = 14.0  # ... but at least this near (Lab units)
    body_max_dist: float = 45.0
    refine_min_ratio: float = 0.35  # refined / segmented area, else keep segmented
    refine_max_ratio: float = 1.6
    # -- pips (vision.pips) ---------------------------------------------------
    pip_min_area: float = 0.004  # of the die's area
    pip_max_area: float = 0.09
    pip_min_circularity: float = 0.55
    pip_contrast: float = 28.0  # Lab distance from the body colour
    pip_min_axis_ratio: float = 0.45  # below: a side-face pip seen edge on
    pattern_max_residual: float = 0.23  # of the pip grid step
    min_confidence: float = 0.5
    lone_pip_step: float = 0.28  # grid step of a face around a lone pip, of the face side
    grid_probe_radius: float = 0.6  # an empty place is probed this far, of a pip radius
    grid_empty_max: float = 0.6  # ... and must stay below this much of the pip threshold
    # -- the learned reader (vision.learned; used when its models are present) --
    det_min_score: float = 0.3  # heat-map peak that is a die
    junk_max_score: float = 0.5  # an 'unknown object' peak below this is not refused (tray texture,
    # mostly): only a place for vision.kinds' second look
    sure_side_min: int = 3  # after the first look, the frame's die side is the median of the peaks
    # read surely, when there are this many (0: never); a tray of dice touching in pairs, half its
    # peaks two dice found as one, gave a side 1.3 times its dice's (bench 20p, rendered seeds 0-7
    # at 2 MP: 126 -> 133 of 160 right); counted: peaks read as a d6 value or as no d6 (numeral
    # dice: a mixed frame), at `side_ref_score` (a printed cloth's motifs are weak peaks)
    dup_sides: float = 0.5  # two peaks nearer than this many sides are one die
    touch_gate: float = 1.15  # the touching-dice detector looks only at a frame with a peak this many
    # times the median side (two dice seen as one; a tray of like dice pays nothing; 1.3: 5 of
    # the rendered tuning sets' 14 more dice lost) ...
    touch_min_score: float = 0.5  # ... and its peaks this strong are dice too ...
    touch_min_side: float = 0.75  # ... when at least this many times the first detector's median
    # side (smaller ones are halves of one die) and not one of its peaks (dup_sides); rendered
    # tuning sets at 0.5 and no side floor: 2 more dice read wrong, both a die seen as two halves
    twin_apart: float = 0.6  # a first peak with two touching peaks this many of their sides apart on
    # either side of it is those two dice (0: never; their sides, like the pair's, come out big:
    # at 0.8 no pair of bench 20p's seeds 0-7 at 2 MP split; at 0.6 122 -> 126 of 160 right,
    # the real and rendered sets the same but seed 7400 +1) ...
    twin_reach: float = 0.75  # ... each within this many of the first peak's side from it
    # dice too big for the detector (a photo taken close; vision.reader.with_big_dice; rendered
    # close-ups for tuning, seed 501: 60 -> 97 of 100 right, wrong 6 -> 2) ...
    zoom_out: float = 3.0  # ... it looks again at its input this many times smaller (1: never) ...
    big_min_score: float = 0.5  # ... where a peak this strong ...
    big_min_prob: float = 0.5  # ... read as a d6 face this surely ...
    big_other_p: float = 0.8  # ... (or as no d6 this surely: a numeral die, none of the peaks it
    # takes read as a d6 face at `pip_not_die_p`) ...
    big_det_px: float = 64.0  # ... and this big in the detector's input (the real sets' dice are
    # 21-40 px there, 99 % below 63) takes the place of the first peaks nearer than ...
    big_reach: float = 0.6  # ... this share of its side (its pips and pieces), unless ...
    whole_share: float = 0.7  # ... the one peak there is this share of its side (the die found
    # whole; an oblique die, whose big peak takes in a side face too: matteop65) or ...
    pair_min_share: float = 0.45  # ... two peaks there this big (share of its side) ...
    pair_apart: float = 0.7  # ... lie this far apart (of the smaller's side): dice of their own;
    big_sides: float = 2.5  # a smaller one takes the place of the peaks in its square when this many
    # times their median side ...
    pip_not_die_p: float = 0.9  # ... and none of them read as a d6 face this surely (a heap of small
    # dice: nell-byler), or of none when no peak is within its side; and either way ...
    glyph_one_p: float = 0.5  # ... or one or two peaks, none read as a d6 face but a 1 at this: a
    # numeral's glyph or loop seen as a die (close-ups seeds 503/505: d8 6s, d10t 60s and 80s
    # answered as a d6 1); two touching d6 read 5 and 3 (font_ev seed 941) are dice of their own.
    # A numeral die smaller than big_det_px takes such peaks too, at big_sides their median side,
    # or at `glyph_sides` when read as no d6 (>= big_other_p) and they are its glyphs: each digit
    # of a two-digit numeral is found as a die half the die's side (close-ups, seed 9910)
    glyph_sides: float = 1.6
    big_body_dist: float = 20.0  # ... its middle (less the pips) is unlike the tray round it ...
    big_one_colour: float = 25.0  # ... and of one colour: this share of it within this Lab ...
    big_one_share: float = 0.6  # ... distance of its median (a heap of dice of many colours is not)
    pip_share: float = 0.5  # (peaks smaller than this share of its side are its pips: not body)
    pip_peak_ratio: float = 0.45  # a first peak smaller than this share of another's side ...
    pip_peak_sides: float = 0.5  # ... this near its centre (of its side) is its pip: left out
    max_dice: int = 160  # heat-map peaks looked at, strongest first (a heap of dice has 100)
    side_spread: float = 1.33  # a die's side is kept within this factor of the frame's median
    side_ref_score: float = 0.8  # ... the median of the peaks at least this share of the strongest's
    # score (0: every peak; a patterned cloth's many weak peaks are not dice)
    weak_own_side: float = 0.8  # a peak weaker than this share of the strongest keeps its side if smaller
    speck_side: float = 0.9  # a 1 or 2 (speck_values) read on a peak smaller than this share of the frame's die side ...
    speck_edge: float = 30.0  # ... with no edge where its outline would be (0.35-0.85 of its side
    # from the pip: 90th percentile Sobel magnitude, the largest of L, a, b, below this) ...
    speck_colour: float = 10.0  # ... and its body's ring (0.2-0.45) of the colour (Lab distance) of
    # what lies 1-1.6 frame die sides away, is a speck on the tray or a lone pip: left out
    speck_values: tuple[int, ...] = (1, 2)  # the values a speck (or two side by side) is read as
    speck_ring: float = 0.55  # the outline ring is looked for at least this share of the frame's
    # die side out (a speck's own blur fills the ring of a peak much smaller than a die)
    side_face_max: float = 0.7  # an answer smaller than this share of the frame's die side ...
    side_face_ratio: float = 1.4  # ... beside one at least this many times its side, whose square
    # it would overlap (centres nearer than half their sides' sum), is that die's side face seen
    # obliquely, left out (matteop65's close-ups: 6 such extra dice of its training side, 0 right;
    # epanemu, never seen: 2 extra and a small die half behind a big one)
    close_off_middle: float = 0.33  # a d8, d10 or d10t answered this share of its side off the middle
    # of a die photographed close (numerals.big_objects: alone on the background, no more than
    # close_die_frame of the frame's long side wide) ...
    close_die_frame: float = 0.5
    close_piece: float = 3.0  # ... and smaller than this share of it (a piece of it, not the die)
    # is a side face's numeral: refused (bartek-single elvish: a neighbour's 9 and 6 answered 7
    # and 1; of every answer of the eval sets in a big blob, the right ones with these sizes lie
    # at most 0.29 of its side off its middle)
    big_lean_sides: float = 1.3  # a d6 answered this many frame die sides wide (the side clamp's
    # top is side_spread) ...
    big_lean_p: float = 0.7  # ... that the lean network gives this much is refused: a cocked die
    # shows its sides too, a stacked one lies nearer the camera (rendered tuning scenes: 9 of 11
    # such leaning or stacked dice answered; of the 47 readable ones of every tuning set, the
    # most leaning 0.64)
    foreshortened_aniso: float = 0.87  # a 4 or 5 whose pip layout is squashed below this (short
    # over long axis of its affine fit) ...
    foreshortened_pips: float = 0.90  # ... and whose pips are ellipses narrower than this (median
    # minor over major axis) is refused cocked: its top face is seen at a slant ...
    foreshortened_pips_3: float = 0.80  # a 3 (its layout is a line: no squash to see) whose pips
    # are ellipses narrower than this ...
    pips_aligned: float = 0.9  # ... all long the same way (mean resultant length of their long
    # axes' doubled angles: 1 all parallel; two or three round pips' noise points anywhere) is too
    lean_on_sides: float = 1.6  # ... looked at only where a die can lean: another die or refusal
    # this many frame die sides away (centres), ...
    lean_wall_sides: float = 2.0  # ... or the frame's edge (a tray's wall) this near (a die on bare
    # felt lies flat; the 2 MP 20-dice benchmark read 20 -> 52 ms looking at every die)
    top_down_near: int = 8  # the frame's look from above: the die and its this many nearest d6 ...
    top_down_pips: float = 0.93  # ... in a frame seen from above: the median pip of its d6 at least
    # this round (oblique photos squash every face; there flat dice look so) ...
    top_down_min_dice: int = 3  # ... over at least this many d6 (the training sides of the four
    # real d6 sets and rendered seeds 7300 and 7310: cocked or stacked dice answered 79 -> 72,
    # readable right the same; of ~3,300 readable dice of the real training sides at most 2
    # lost; a 1 or 2 tells too little, and a 6's two columns stand apart differently on every
    # make of die)
    pair_sides: float = 1.3  # a peak this many times the frame's die side may be two dice touching
    # (rendered seed 203 at 1.2, 1.3, 1.45, 1.6: 1017, 1015, 1012, 1009 right, unreadable answered 71, 69, 67, 65)
    split_shifts: tuple[float, ...] = (0.35, 0.6, 0.8)  # a peak read as no sure value may be two dice
    # touching found as one between them: crops start this many frame die sides from it (8 ways;
    # (): no such look) ...
    domino_min: float = 1.6  # ... first as an oblong this many to `domino_max` times as long as wide,
    domino_max: float = 2.6  # (0: never) ... within `domino_reach` frame sides of the peak: its two
    domino_reach: float = 1.3  # halves looked at alone, two dice when both are read (else the 8 ways)
    split_steps: int = 2  # ... follow the classifier's centre offsets this many times ...
    split_ask_prob: float = 0.5  # ... where the classifier reads a value this surely (once for crops
    split_same: float = 0.25  # ... nearer than this many sides), the bigger one reads ...
    split_min_prob: float = 0.9  # ... and two or more dice read there this surely ...
    split_views: int = 2  # ... (the bigger classifier reading at this many views; also the oblong
    # look's halves) ...
    split_apart: float = 0.75  # ... this many frame die sides apart (and from every other sure die) ...
    split_reach: float = 1.0  # ... within this many of the peak are its dice
    relook_below: float = 0.9  # a die read less sure than this at first is looked at again ...
    leant_min_prob: float = 0.85  # ... also when refused at first as leaning or stacked, but then
    # answered only this sure (else refused as at first; the tuning sets' touching dice)
    other_min_prob: float = 0.75  # ... and when read at first as no d6 (`unknown object`) on a peak
    # of at least `junk_max_score`, but then answered only this sure, and never as a 1 (a lone round
    # thing: a token, a coin; else refused as at first; 0: not looked at again)
    views: int = 2  # ... turned and mirrored this many ways, the probabilities averaged
    min_value_prob: float = 0.75  # answer a value only this sure (else 'low confidence')
    agree_min_prob: float = 0.4  # ... or this sure and the classical pip count agrees
    low_views: int = 4  # ... or, refused so far, in a last look of the bigger classifier at this
    # many views of the die centred (0: no last look) ...
    low_min_prob: float = 0.75  # ... this sure
    whole_sides: tuple[float, ...] = (0.6, 0.7, 0.8, 0.9)  # a close-up frame where only pieces of a
    # die (smaller than the first of these parts of its shorter side) were answered or refused, or
    # refusals of no sure read: its middle read at these parts of its shorter side (empty: not) ...
    whole_min_prob: float = 0.6  # ... answered when all read one value, this sure on average
    mark_min_part: float = 0.02  # ... a 1 only where one mark of this part of the face's middle or
    mark_min_round: float = 0.6  # more shows, this round (4 pi area / perimeter^2) ...
    mark_max_part: float = 0.35  # ... and at most this part of it (a pip, not the face) ...
    mark_min_solid: float = 0.9  # ... and this much of its convex hull (a numeral's stroke is hollow)
    mark_face_part: float = 0.7  # a 1 answered in a close-up frame: the middle this part of a face looked at
    pip_off_middle: float = 0.35  # ... for a pip this near its centre (part of the crop's side) ...
    pip_face_rim: float = 0.5  # ... on a face that makes this much of the crop's rim or more
    pip_die_sides: float = 1.25  # a die answered inside one this many times as wide: its pip
    far_shift: float = 0.3  # ... or, still refused, in a look this many sides up the frame (the top
    # face of a die seen from a camera that looks forward and down lies above its front face, which
    # can be the bigger; 0: no such look) ...
    far_min_prob: float = 0.8  # ... this sure, of a peak at most `far_max_sides` of the frame's die
    far_max_sides: float = 1.2  # side (a white tray's round grey button, 1.25-1.35 sides, reads as a 1)
    above_below: float = 0.8  # a d6 answered less surely than this (0: never) ...
    above_min_prob: float = 0.9  # ... whose top face's own crop up the frame reads another value this
    # surely takes that value
    top_width: float = 0.8  # ... also in a crop there as wide as this many of the die's sides,
    top_squash: float = 0.7  # ... taking in this share of its height, stretched to square (the top
    # face foreshortened, as from above; 0: no such crop)
    lean_max_p: float = 0.99  # a die the lean network thinks leans or is stacked this surely is refused
    lean_ask_min: float = 0.02  # ... looked at only when the classifier gives cocked + stacked this much
    cut_sides: float = 0.5  # a die whose centre is nearer the edge than this many sides is outside ...
    cut_frame_sides: float = 0.42  # ... and than this many of the frame's die sides (an oblique die's
    # own side takes in its side faces, a die's its outline: its top face may still be whole; 0: off)
    other_kinds: bool = True  # read the blobs' other kinds with the face network (vision.kinds);
    # False: the blobs as the d6 reader sees them (teaching and training look at those)
    numerals: bool = True  # untaught, read the numerals no other reader read (vision.numerals: fonts never
    # taught, dice photographed close)


DEFAULT_PARAMS = Params()
