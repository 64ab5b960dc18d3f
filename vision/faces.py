"""The face network: what a die is and which face it shows, from a small crop.

One small convolutional network (trained at development time by
scripts/train_faces.py, run here by vision.onnxnet; no torch at run
time) looks at a CROP_PX square crop centred on a die, scaled so that the die
is DIE_PX wide, at any rotation. It answers:

- `probs`: a probability over CLASSES: every (kind, value) of FORMATS.md
  (d6 1-6, d8 1-8, d10 0-9, d10t 00-90, the four taba faces), plus `none`
  (not a die: felt, shadow, a toy, half a die) and `unreadable` (a cocked die,
  a taba standing on an end);
- `embedding`: the penultimate layer, unit length: what a taught profile's
  nearest-neighbour vote compares (vision.kinds).

The network is fully convolutional: run on a bigger (scaled) image it gives
the same answers on a grid of STRIDE_PX (`dense_many`), which is how the
second look around what the first look refused finds a die (vision.kinds).

Pure functions on arrays; the weights are package data (vision/models/).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision import onnxnet
from vision.onnxnet import Net, softmax
from vision.types import TABA_FACES

CROP_PX = 48  # network input side
DIE_PX = 40.0  # a die's side in the crop (the crop shows 1.2 die sides: a numeral's detail)
STRIDE_PX = 8  # the network's output grid, in input pixels
INPUT_SCALE = 1 / 64.0  # (pixel - INPUT_MEAN) * INPUT_SCALE
INPUT_MEAN = 128.0
MODEL_NAME = "faces.onnx"
MODEL_VERSION = 4  # bump when CLASSES, the crop geometry or the weights' meaning change

NONE = "none"
UNREADABLE = "unreadable"
CLASSES: tuple[tuple[str, int | str], ...] = (
    (NONE, 0),
    (UNREADABLE, 0),
    *(("d6", v) for v in range(1, 7)),
    *(("d8", v) for v in range(1, 9)),
    *(("d10", v) for v in range(10)),
    *(("d10t", v) for v in range(0, 100, 10)),
    *(("taba", f) for f in TABA_FACES),
)
KINDS = ("d6", "d8", "d10", "d10t", "taba")


def class_index(kind: str, value) -> int | None:
    try:
        return CLASSES.index((kind, value))
    except ValueError:
        return None


_KIND_IDX = {k: [i for i, (kk, _) in enumerate(CLASSES) if kk == k] for k in (NONE, UNREADABLE, *KINDS)}


def kind_probs(probs: np.ndarray) -> dict[str, np.ndarray]:
    """Per-kind probability (sum over the kind's faces), for rows of `probs`."""
    return {k: probs[:, idx].sum(axis=1) for k, idx in _KIND_IDX.items()}


@dataclass(frozen=True)
class FaceNet:
    """The loaded network (vision.onnxnet), with the class list it was trained on."""

    net: Net

    def forward(self, crops_bgr: list[np.ndarray] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Probabilities (N, len(CLASSES)) and unit embeddings (N, D) of
        CROP_PX crops, all in one forward pass."""
        if len(crops_bgr) == 0:
            return np.zeros((0, len(CLASSES)), np.float32), np.zeros((0, 0), np.float32)
        blob = cv2.dnn.blobFromImages(list(crops_bgr), INPUT_SCALE, (CROP_PX, CROP_PX),
                                      (INPUT_MEAN,) * 3, swapRB=False, crop=False)
        logits, emb = self._run(blob)
        return softmax(logits.reshape(len(crops_bgr), -1)), _unit(emb.reshape(len(crops_bgr), -1))

    def dense_many(self, images_bgr: list[np.ndarray]) -> np.ndarray:
        """Probabilities (N, H', W', C) on the grid of each image (all of one
        size, one forward pass): cell (i, j) is the crop whose top-left
        corner is (j, i) * STRIDE_PX in the image."""
        blob = cv2.dnn.blobFromImages(list(images_bgr), INPUT_SCALE, None, (INPUT_MEAN,) * 3,
                                      swapRB=False, crop=False)
        logits, _ = self._run(blob)
        lg = logits.transpose(0, 2, 3, 1)
        return softmax(lg.reshape(-1, lg.shape[3])).reshape(lg.shape)

    def _run(self, blob: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        logits, emb = self.net.run(blob, ["logits", "embedding"])
        return logits, emb


@lru_cache(maxsize=2)
def load_net(onnx_bytes: bytes | None = None) -> FaceNet | None:
    """The face network from package data (or the given ONNX bytes); None
    when the weights are not installed, or cannot be loaded here
    (`load_error` says why): then the d6 reader and the numeral network
    read without it."""
    return onnxnet.load_shipped(MODEL_NAME, lambda b: FaceNet(Net(b)), onnx_bytes,
                                "tabas are not read, numeral dice only by the numeral network, "
                                "and no dice set can be taught")


def load_error() -> str:
    """Why the installed face network could not be loaded ('' when it could,
    or was not asked for yet)."""
    return onnxnet.load_error(MODEL_NAME) if load_net() is None else ""


def crop(frame_bgr: np.ndarray, centre: tuple[float, float], side_px: float,
         angle_deg: float = 0.0) -> np.ndarray:
    """The network's crop: CROP_PX square around `centre`, the die `side_px`
    wide scaled to DIE_PX, turned by `angle_deg`."""
    k = DIE_PX / max(1.0, side_px)
    M = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), angle_deg, k)
    M[0, 2] += CROP_PX / 2 - centre[0]
    M[1, 2] += CROP_PX / 2 - centre[1]
    interp = cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR
    return cv2.warpAffine(frame_bgr, M, (CROP_PX, CROP_PX), flags=interp,
                          borderMode=cv2.BORDER_REPLICATE)


def _unit(x: np.ndarray) -> np.ndarray:
    return (x / (np.linalg.norm(x, axis=1, keepdims=True) + 1e-6)).astype(np.float32)
