"""The learned d6 reader: a small detector and a crop classifier (ONNX, vision.onnxnet).

Two ONNX models, trained by scripts/train_dice.py (never imported at run time):

- **detector** (`vision/models/dice_det.onnx`): the frame scaled to DET_LONG_PX
  on its long side -> at stride DET_STRIDE a heat map of top-face centres
  (sigmoid), the centre's offset within its cell and log(die side in detector
  pixels). Every die is found, d6 or not, readable or not.
- **classifier** (`vision/models/dice_cls.onnx`): a CROP_PX square crop around
  each found die (CROP_SIDES die sides wide, any rotation) -> logits of
  CLASSES (the d6 values and the reasons to refuse) and the die's centre
  offset in the crop, in die sides. All crops of a frame go through one
  forward pass.

The preprocessing here is shared with the training script, so that training
and reading see the same pixels. Models are loaded lazily, once per path
(`load_models`), never at import time.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.onnxnet import Net, softmax

MODELS_DIR = Path(__file__).resolve().parent / "models"
DET_MODEL = MODELS_DIR / "dice_det.onnx"
CLS_MODEL = MODELS_DIR / "dice_cls.onnx"
CLS2_MODEL = MODELS_DIR / "dice_cls_medium.onnx"  # optional: a bigger classifier for unsure dice
LEAN_MODEL = MODELS_DIR / "dice_lean.onnx"  # optional: does an answered die lean or lie on another?
TOUCH_MODEL = MODELS_DIR / "dice_det_touch.onnx"  # optional: a detector that finds both dice of a touching pair

DET_LONG_PX = 448  # the frame's long side for the detector
DET_STRIDE = 4  # detector output cell, detector pixels
DET_MULTIPLE = 32  # detector input sides are padded to a multiple of this
CLOSE_UP_MAX_PX = 300  # frames this small are a crop of a die or a few
CLOSE_UP_LONG_PX = 64  # ... scaled to this long side ...
CLOSE_UP_CANVAS_PX = 128  # ... in a canvas this big (edge pixels repeated)
PAD_GREY = 114  # padding of the detector input to its multiple

CROP_PX = 48  # classifier input side
CROP_SIDES = 1.5  # the crop spans this many die sides (context: leaning faces)

# classifier classes: index -> the d6 value (int) or the reason to refuse (str)
CLASSES: tuple[int | str, ...] = (1, 2, 3, 4, 5, 6, "cocked", "stacked", "blurred",
                                  "outside", "unknown object")
N_CLASSES = len(CLASSES)
CLASS_OF_WHY = {"cocked": 6, "unclear": 6, "stacked": 7, "blurred": 8, "outside": 9}
OTHER = 10


@dataclass(frozen=True)
class DetInput:
    """The detector's input image and how to map its pixels back to the frame."""

    image: np.ndarray  # BGR uint8, sides multiples of DET_MULTIPLE
    scale: float  # detector pixels per frame pixel
    offset: tuple[float, float]  # where frame pixel (0, 0) lands, detector pixels

    def to_frame(self, x_det: float, y_det: float) -> tuple[float, float]:
        return ((x_det - self.offset[0]) / self.scale, (y_det - self.offset[1]) / self.scale)


def _pad_to(img: np.ndarray, h: int, w: int, top: int, left: int, mode: int) -> np.ndarray:
    return cv2.copyMakeBorder(img, top, h - img.shape[0] - top, left, w - img.shape[1] - left,
                              mode, value=(PAD_GREY, PAD_GREY, PAD_GREY))


def _shrink(img: np.ndarray, nw: int, nh: int) -> np.ndarray:
    """Area-averaged shrink; one by more than 2 as bilinear to twice the
    size, then a 2x2 average (OpenCV's whole-factor INTER_AREA is ~4x faster
    than a fractional one: 2.6 against 10.6 ms for a 2 MP frame on one core,
    pixels within 0.15 grey levels on average)."""
    if img.shape[1] > 2 * nw:
        img = cv2.resize(img, (2 * nw, 2 * nh), interpolation=cv2.INTER_LINEAR)
    return cv2.resize(img, (nw, nh), interpolation=cv2.INTER_AREA)


def det_input(frame_bgr: np.ndarray) -> DetInput:
    """The frame scaled for the detector: long side DET_LONG_PX; a close-up
    (a crop of one die) small in the middle of a canvas of its own edges."""
    h, w = frame_bgr.shape[:2]
    long_side = max(h, w)
    if long_side <= CLOSE_UP_MAX_PX:
        s = CLOSE_UP_LONG_PX / long_side
        nw, nh = max(1, round(w * s)), max(1, round(h * s))
        small = cv2.resize(frame_bgr, (nw, nh), interpolation=cv2.INTER_AREA)
        c = CLOSE_UP_CANVAS_PX
        top, left = (c - nh) // 2, (c - nw) // 2
        img = _pad_to(small, c, c, top, left, cv2.BORDER_REPLICATE)
        return DetInput(img, s, (left, top))
    s = DET_LONG_PX / long_side
    nw, nh = max(1, round(w * s)), max(1, round(h * s))
    small = _shrink(frame_bgr, nw, nh)
    m = DET_MULTIPLE
    ph, pw = -(-nh // m) * m, -(-nw // m) * m
    return DetInput(_pad_to(small, ph, pw, 0, 0, cv2.BORDER_CONSTANT), s, (0.0, 0.0))


def crop_matrix(centre: tuple[float, float], side_px: float, angle_deg: float = 0.0,
                out_px: int = CROP_PX, sides: float = CROP_SIDES) -> np.ndarray:
    """The affine map frame -> crop: `sides` die sides around `centre` onto
    `out_px` pixels, turned by `angle_deg`."""
    k = out_px / (sides * max(side_px, 1.0))
    m = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), angle_deg, k)
    m[0, 2] += out_px / 2 - centre[0]
    m[1, 2] += out_px / 2 - centre[1]
    return m


class Shrunk:
    """A frame and its reductions by whole factors (OpenCV's fast whole-factor
    INTER_AREA, cells from the frame's corner), each made when first asked
    for: a read that cuts hundreds of crops of big dice shrinks the frame
    once per factor instead of each crop's neighbourhood (`crop_die`'s
    `shrunk`). Its crops differ from those of the neighbourhood, whose cells
    start by the crop, only in where the cells start: within one cell."""

    def __init__(self, frame_bgr: np.ndarray) -> None:
        self.frame = frame_bgr
        self._by: dict[int, np.ndarray] = {}

    def by(self, f: int) -> np.ndarray:
        if f not in self._by:
            h, w = self.frame.shape[0] // f, self.frame.shape[1] // f
            self._by[f] = cv2.resize(self.frame[:h * f, :w * f], (w, h), interpolation=cv2.INTER_AREA)
        return self._by[f]


def _shrink_factor(side_px: float, sides: float = CROP_SIDES, out_px: int = CROP_PX) -> int:
    """The whole factor a big die's neighbourhood is shrunk by before its crop
    is warped (the crop's pixels span this many of the frame's, at least 2;
    1: not shrunk)."""
    f = int(sides * side_px / out_px)
    return f if f >= 2 else 1


def _neighbourhood_half(side_px: float, sides: float = CROP_SIDES) -> float:
    """Half the side of the square around a die that its crop is cut from (a
    turned crop reaches 0.71 of `sides` sides out, and its warp a pixel more)."""
    return sides * side_px * 0.75 + 2


def shrunk_for(frame_bgr: np.ndarray, sides_px: list[float], sides: float = CROP_SIDES,
               out_px: int = CROP_PX) -> Shrunk | None:
    """The frame's reductions for crops of dice of these sides, when their
    neighbourhoods (`crop_die`) would shrink more pixels than the frame has
    (a few big crops: None, each shrinks its own)."""
    area = sum((2 * _neighbourhood_half(s, sides)) ** 2 for s in sides_px if _shrink_factor(s, sides, out_px) > 1)
    return Shrunk(frame_bgr) if area > frame_bgr.shape[0] * frame_bgr.shape[1] else None


def crop_die(frame_bgr: np.ndarray, centre: tuple[float, float], side_px: float,
             angle_deg: float = 0.0, out_px: int = CROP_PX, sides: float = CROP_SIDES,
             squash: float = 1.0, shrunk: Shrunk | None = None) -> np.ndarray:
    """The classifier's crop of one die; beyond the frame is black (a die
    cut by the frame's edge looks cut). `squash` < 1: the crop takes in that
    share of its height from the frame, stretched to square (a top face
    seen obliquely, foreshortened up and down, looks as from above).
    `shrunk`: the frame's whole-factor reductions, for a read that cuts many
    crops (faster; the cells start at the frame's corner, not by the crop).
    Without it the crop is what scripts/train_dice.py cuts from the die's
    own patch."""
    src = frame_bgr
    m = crop_matrix(centre, side_px, angle_deg, out_px, sides)
    if squash != 1.0:
        m[1] = (m[1] - [0.0, 0.0, out_px / 2]) / squash + [0.0, 0.0, out_px / 2]
    f = _shrink_factor(side_px, sides, out_px)
    if f > 1:  # big dice: shrink the neighbourhood first, against aliasing
        if shrunk is not None and squash == 1.0:  # (a squashed crop reaches out of the neighbourhood)
            src, x0, y0 = shrunk.by(f), 0, 0  # the whole frame's reduction
        else:
            half = _neighbourhood_half(side_px, sides)
            x0 = max(0, int(centre[0] - half))
            y0 = max(0, int(centre[1] - half))
            # a whole number of f-pixel cells: OpenCV's whole-factor INTER_AREA is ~10x faster
            x1 = x0 + (min(frame_bgr.shape[1], int(centre[0] + half) + 1) - x0) // f * f
            y1 = y0 + (min(frame_bgr.shape[0], int(centre[1] + half) + 1) - y0) // f * f
            if x1 - x0 >= f and y1 - y0 >= f:
                src = cv2.resize(frame_bgr[y0:y1, x0:x1], ((x1 - x0) // f, (y1 - y0) // f),
                                 interpolation=cv2.INTER_AREA)
            else:  # (nothing of the frame there: the crop is black)
                f, x0, y0 = 1, 0, 0
        # the crop's map after sub-sampled -> frame (p = origin + f p')
        m = np.hstack([m[:, :2] * f, m[:, :2] @ [[x0], [y0]] + m[:, 2:]])
    return cv2.warpAffine(src, m[:2], (out_px, out_px), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))


def blob_of(images: list[np.ndarray]) -> np.ndarray:
    """NCHW float32 in [0, 1], RGB: what both models take."""
    return cv2.dnn.blobFromImages(images, 1 / 255.0, swapRB=True)


@dataclass(frozen=True)
class Models:
    detector: Net
    classifier: Net
    second: Net | None = None  # looks again at what `classifier` is unsure of
    lean: Net | None = None  # one logit: the die leans (cocked) or lies on another
    touching: Net | None = None  # the detector fine-tuned on touching dice: its peaks the first missed


def models_present(det_path: Path = DET_MODEL, cls_path: Path = CLS_MODEL) -> bool:
    return Path(det_path).is_file() and Path(cls_path).is_file()


@functools.lru_cache(maxsize=4)
def load_models(det_path: str = str(DET_MODEL), cls_path: str = str(CLS_MODEL),
                second_path: str = str(CLS2_MODEL), lean_path: str = str(LEAN_MODEL),
                touch_path: str = str(TOUCH_MODEL)) -> Models:
    """The networks, read once per set of paths (cached for the process); the
    second classifier, the lean network and the touching-dice detector only
    if their files are there.
    On cv2.dnn (no onnxruntime) the crop networks run on OpenCV's classic
    engine: on these small networks and batches of 48 px crops it is 1.8-2
    times faster than the new one, the default of OpenCV 5 (the outputs the
    same within 1e-4; bench/bench_engines.py). The detector keeps the
    default: on its one large image the new engine is faster."""
    second, lean = (Net(p, classic=True) if Path(p).is_file() else None for p in (second_path, lean_path))
    touching = Net(touch_path) if Path(touch_path).is_file() else None
    return Models(Net(det_path), Net(cls_path, classic=True), second, lean, touching)


@dataclass(frozen=True)
class Found:
    """A die the detector found: centre and side in frame pixels, peak score."""

    center: tuple[float, float]
    side_px: float
    score: float


def detect(net: Net, frame_bgr: np.ndarray, min_score: float,
           max_dice: int = 64, di: DetInput | None = None) -> tuple[list[Found], DetInput]:
    """Peaks of the detector's heat map (3x3 local maxima above min_score);
    `di`: the frame's detector input, when another detector made it already."""
    di = di or det_input(frame_bgr)
    out = net.run(blob_of([di.image]))[0][0]  # (4, H/4, W/4): heat, dx, dy, log side
    heat = out[0]
    peaks = (heat >= min_score) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-heat[ys, xs])[:max_dice]
    found = []
    for i in order:
        y, x = int(ys[i]), int(xs[i])
        xd = (x + float(out[1, y, x])) * DET_STRIDE
        yd = (y + float(out[2, y, x])) * DET_STRIDE
        side_d = float(np.exp(out[3, y, x]))
        found.append(Found(di.to_frame(xd, yd), side_d / di.scale, float(heat[y, x])))
    return found, di


def _turns(crop: np.ndarray, n: int) -> list[np.ndarray]:
    """The crop and its first n-1 other views of the square's symmetries
    (quarter turns, then mirrored): a d6 face reads the same in all eight."""
    views = [crop, np.rot90(crop, 1), np.rot90(crop, 2), np.rot90(crop, 3)]
    views += [v[:, ::-1] for v in views]
    return [np.ascontiguousarray(v) for v in views[:n]]


def classify(net: Net, crops: list[np.ndarray], views: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Class probabilities (N, N_CLASSES) and centre offsets (N, 2), die sides.

    With `views` > 1 every crop is also looked at turned and mirrored (up to
    8 views, one forward pass for all) and the probabilities are averaged:
    a value one view is unsure of, the others usually confirm, and a guess
    that holds in one view only is damped. Offsets are the unturned view's.
    """
    if not crops:
        return np.zeros((0, N_CLASSES), np.float32), np.zeros((0, 2), np.float32)
    views = max(1, min(8, views))
    batch = [v for c in crops for v in _turns(c, views)] if views > 1 else crops
    out = net.run(blob_of(batch))[0]  # (N * views, N_CLASSES + 2)
    logits = out[:, :N_CLASSES]
    p = softmax(logits).reshape(len(crops), views, N_CLASSES).mean(axis=1)
    return p, out[::views, N_CLASSES:]


def lean_probs(net: Net, crops: list[np.ndarray]) -> np.ndarray:
    """P(the die leans or lies on another) of each classifier crop, (N,)."""
    if not crops:
        return np.zeros(0, np.float32)
    return 1.0 / (1.0 + np.exp(-net.run(blob_of(crops))[0][:, 0]))
