"""Image -> dice. Pure: numpy arrays in, values out."""

from vision.params import DEFAULT_PARAMS, Params
from vision.reader import BadFrame, VisionError, read_dice
from vision.types import Die, Kind, Reading, Rejection

__all__ = [
    "DEFAULT_PARAMS",
    "BadFrame",
    "Die",
    "Kind",
    "Params",
    "Reading",
    "Rejection",
    "VisionError",
    "read_dice",
]
