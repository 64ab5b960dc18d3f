"""Load a labelled data set (FORMATS.md section 1): NAME.jpg/.png + NAME.json.

A data set is a folder of such pairs, searched recursively. An image without
a label file is skipped (a data set may hold other pictures); a label file
that does not follow the format is an error naming the file and the fault.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")
KINDS = ("d6", "d8", "d10", "d10t", "taba")
TABA_FACES = ("liso", "carnero", "tripas", "hoyo")


class DatasetError(ValueError):
    """A data set or one of its label files is not as FORMATS.md says."""


@dataclass(frozen=True)
class LabelDie:
    kind: str
    value: int | str
    colour: str | None = None
    center: tuple[float, float] | None = None
    set: str | None = None


@dataclass(frozen=True)
class LabelUnreadable:
    center: tuple[float, float] | None
    why: str = ""


@dataclass(frozen=True)
class Sample:
    image: Path
    dice: tuple[LabelDie, ...]
    unreadable: tuple[LabelUnreadable, ...] = ()
    tray: tuple[tuple[float, float], ...] | None = None

    @property
    def has_centres(self) -> bool:
        return all(d.center is not None for d in self.dice)


HELDOUT_FRACTION = 0.3  # of each real set, never trained on (scripts/train_dice.py)


def is_heldout(image: str | Path, fraction: float = HELDOUT_FRACTION) -> bool:
    """Deterministic split by the image's file name (md5 as a number in
    [0, 1) below `fraction`): the same whatever else is in the folder."""
    h = int(hashlib.md5(Path(image).name.encode("utf-8")).hexdigest()[:8], 16) / 2**32
    return h < fraction


def load_dataset(root: str | Path, skipped: list[str] | None = None) -> list[Sample]:
    """Every labelled image under `root`, sorted by path. A label file with a
    fault raises DatasetError, or, given a `skipped` list, is left out and
    its message appended there."""
    root = Path(root)
    if not root.is_dir():
        raise DatasetError(f"{root}: not a folder")
    samples = []
    for path in sorted(root.rglob("*")):
        if path.suffix.lower() not in IMAGE_SUFFIXES or not path.is_file():
            continue
        label = path.with_suffix(".json")
        if not label.is_file():
            continue
        try:
            samples.append(load_sample(path, label))
        except DatasetError as exc:
            if skipped is None:
                raise
            skipped.append(str(exc))
    return samples


def load_sample(image: Path, label: Path) -> Sample:
    try:
        obj = json.loads(label.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DatasetError(f"{label}: cannot read labels: {exc}") from exc
    return parse_labels(obj, image, str(label))


def parse_labels(obj: object, image: Path, source: str = "labels") -> Sample:
    if not isinstance(obj, dict):
        raise DatasetError(f"{source}: top level must be an object")
    dice_raw = obj.get("dice", [])
    if not isinstance(dice_raw, list):
        raise DatasetError(f"{source}: 'dice' must be a list")
    dice = tuple(_parse_die(d, f"{source}: dice[{i}]") for i, d in enumerate(dice_raw))
    unread_raw = obj.get("unreadable", [])
    if not isinstance(unread_raw, list):
        raise DatasetError(f"{source}: 'unreadable' must be a list")
    unreadable = []
    for i, u in enumerate(unread_raw):
        where = f"{source}: unreadable[{i}]"
        if not isinstance(u, dict):
            raise DatasetError(f"{where}: must be an object")
        c = _parse_point(u.get("center"), where) if "center" in u else None
        unreadable.append(LabelUnreadable(c, str(u.get("why", ""))))
    tray = None
    if isinstance(obj.get("tray"), dict) and "corners" in obj["tray"]:
        tray = tuple(_parse_point(p, f"{source}: tray") for p in obj["tray"]["corners"])
    return Sample(image=image, dice=dice, unreadable=tuple(unreadable), tray=tray)


def _parse_die(d: object, where: str) -> LabelDie:
    if not isinstance(d, dict):
        raise DatasetError(f"{where}: must be an object")
    kind = d.get("kind")
    if kind not in KINDS:
        raise DatasetError(f"{where}: kind {kind!r} is not one of {', '.join(KINDS)}")
    value = d.get("value")
    _check_value(kind, value, where)
    colour = d.get("colour")
    if colour is not None and not isinstance(colour, str):
        raise DatasetError(f"{where}: colour must be a string")
    c = _parse_point(d["center"], where) if d.get("center") is not None else None
    s = d.get("set")
    return LabelDie(kind, value, colour, c, s if isinstance(s, str) else None)


def _check_value(kind: str, value: object, where: str) -> None:
    if kind == "taba":
        if value not in TABA_FACES:
            raise DatasetError(f"{where}: taba value {value!r} is not one of {TABA_FACES}")
        return
    ok_range = {"d6": range(1, 7), "d8": range(1, 9), "d10": range(0, 10),
                "d10t": range(0, 100, 10)}[kind]
    if isinstance(value, bool) or not isinstance(value, int) or value not in ok_range:
        raise DatasetError(f"{where}: {kind} value {value!r} out of range")


def _parse_point(p: object, where: str) -> tuple[float, float]:
    if (
        not isinstance(p, list | tuple)
        or len(p) != 2
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in p)
    ):
        raise DatasetError(f"{where}: a point must be [x, y], not {p!r}")
    return (float(p[0]), float(p[1]))
