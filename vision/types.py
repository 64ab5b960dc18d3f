"""Value types of a read: what the reader saw on the tray.

Pure data: frozen dataclasses that print themselves as the JSON of
FORMATS.md section 2.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

Point = tuple[float, float]


class Kind(StrEnum):
    """Kinds of dice the station knows (FORMATS.md section 1)."""

    D6 = "d6"
    D8 = "d8"
    D10 = "d10"
    D10T = "d10t"
    TABA = "taba"


TABA_FACES = ("liso", "carnero", "tripas", "hoyo")
NUMERAL_KINDS = ("d8", "d10", "d10t")  # dice read by the numeral on their top face


def square_outline(centre: Point, side: float) -> tuple[Point, ...]:
    """The upright square of `side` about `centre`, corners clockwise from top left (pixels)."""
    x, y, half = float(centre[0]), float(centre[1]), side / 2
    return ((x - half, y - half), (x + half, y - half), (x + half, y + half), (x - half, y + half))


@dataclass(frozen=True)
class Die:
    """One die answered: its kind, value, body colour and where it lies."""

    kind: str
    value: int | str
    colour: str | None
    center: Point  # centre of the top face, pixels of the input image
    confidence: float
    outline: tuple[Point, ...] = ()  # polygon around the die, input pixels

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "value": self.value,
            "colour": self.colour,
            "center": [round(self.center[0], 1), round(self.center[1], 1)],
            "confidence": round(self.confidence, 3),
        }


@dataclass(frozen=True)
class Rejection:
    """Something seen but refused, with the reason (cocked, stacked, ...)."""

    center: Point
    why: str
    outline: tuple[Point, ...] = ()
    detail: str = ""  # what exactly failed, for debugging; not part of the JSON
    leans: bool = False  # refused by the lean network (the die leans or lies on another)
    read_as: Die | None = None  # what a reader answered there before refusing it (vision.kinds.OTHER_GAME)

    def to_json(self) -> dict:
        return {"center": [round(self.center[0], 1), round(self.center[1], 1)], "why": self.why}


@dataclass(frozen=True)
class Reading:
    """The answer for one frame: dice read, things refused, time per step."""

    dice: tuple[Die, ...] = ()
    rejected: tuple[Rejection, ...] = ()
    timings_ms: dict[str, float] = field(default_factory=dict, compare=False, hash=False)
    tray: tuple[Point, ...] | None = None  # tray corners found, input pixels
    die_side_px: float | None = field(default=None, compare=False)  # the frame's typical die side
    # (the learned reader's; None from the classical one)

    def to_json(self) -> dict:
        return {
            "dice": [d.to_json() for d in self.dice],
            "rejected": [r.to_json() for r in self.rejected],
        }
