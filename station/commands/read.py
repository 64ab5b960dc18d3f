"""`dicestation read [--profile DIR] [--kinds K,...] IMAGE...`: one JSON line per image (FORMATS.md §2)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from station import images
from vision import read_dice

JPEG_START = b"\xff\xd8"
JPEG_END = b"\xff\xd9"
PNG_START = b"\x89PNG\r\n\x1a\n"
TAIL_BYTES = 4096  # where the end marker must be (some cameras pad after it)


class ImageFileError(ValueError):
    """A file that cannot be read as a whole image."""


def decode_image(data: bytes) -> np.ndarray:
    """Decode JPEG/PNG bytes to BGR; refuse a truncated file rather than read half of it."""
    if not data:
        raise ImageFileError("empty file")
    if data.startswith(JPEG_START) and JPEG_END not in data[-TAIL_BYTES:]:
        raise ImageFileError("truncated JPEG (no end marker)")
    if data.startswith(PNG_START) and b"IEND" not in data[-TAIL_BYTES:]:
        raise ImageFileError("truncated PNG (no IEND chunk)")
    try:  # size read from the header and bounded before decoding (station.images)
        return images.decode_image(data, images.MAX_PIXELS)
    except images.ImageError as exc:
        raise ImageFileError(str(exc)) from None


def read_file(path: str, profile=None, game_kinds=None) -> dict:
    """The JSON line's object for one image file."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        return {"image": path, "error": f"cannot read file: {exc.strerror or exc}"}
    try:
        frame = decode_image(data)
    except ImageFileError as exc:
        return {"image": path, "error": str(exc)}
    reading = read_dice(frame, profile, game_kinds=game_kinds)
    out = {"image": path}
    out.update(reading.to_json())
    out["ms"] = round(reading.timings_ms.get("total", 0.0), 1)
    return out


def run(args: argparse.Namespace) -> int:
    profile = None
    if args.profile:
        from calibration.profile_io import ProfileError, load  # a taught set (issue 4)

        try:
            profile = load(args.profile)
        except ProfileError as exc:
            print(f"dicestation read: {exc}", file=sys.stderr)
            return 2
    status = 0
    for path in args.images:
        line = read_file(path, profile, getattr(args, "kinds", None))
        if "error" in line:
            status = 1
        print(json.dumps(line), flush=True)
    return status
