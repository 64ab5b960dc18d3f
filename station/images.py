"""Decoding untrusted image bytes with bounded memory.

`decode_image(data)` reads the width and height from the JPEG or PNG header
*before* decoding, and refuses an image whose decoded size would be too large
(a PNG header claiming 50,000 x 20,000 px passes OpenCV's own limit of 2**30
pixels and would allocate 3 GB), too thin or too small to hold a die, or in another format
(only JPEG and PNG headers are read, so only they can be bounded).

    frame_bgr = decode_image(data)            # ImageError with a clear message
"""

from __future__ import annotations

import struct

import cv2
import numpy as np

from station.errors import StationError

# Twice the largest Pi camera still (HQ camera 4056x3040 = 12.3 MP): a phone photo
# fits; decoded BGR is at most 72 MB.
MAX_PIXELS = 24_000_000
MAX_SIDE_PX = 16_384  # wider than any camera sensor; OpenCV's resize fails on slivers
MIN_SIDE_PX = 32  # a die is bigger than this
MAX_ASPECT = 8  # longer side / shorter side: no camera or phone photo is thinner, and the
# reader's thumbnails of thinner slivers have a zero side (cv2.resize fails)

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
JPEG_SOI = b"\xff\xd8"
# Start-of-frame markers (baseline, progressive, lossless, arithmetic): they carry the size.
JPEG_SOF = frozenset({0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD,
                      0xCE, 0xCF})
JPEG_NO_LENGTH = frozenset({0x01, 0xD8, *range(0xD0, 0xD8)})


class ImageError(StationError, ValueError):
    """Bytes that are not an image this station reads; the message says why."""


class TooLarge(ImageError):
    """An image over the pixel or side limits (refused before decoding)."""


def image_size(data: bytes) -> tuple[int, int]:
    """(width, height) from a JPEG or PNG header, without decoding; ImageError otherwise."""
    if data.startswith(PNG_SIGNATURE):
        if len(data) < 24 or data[12:16] != b"IHDR":
            raise ImageError("truncated PNG (no IHDR header)")
        w, h = struct.unpack(">II", data[16:24])
        return w, h
    if data.startswith(JPEG_SOI):
        return _jpeg_size(data)
    raise ImageError("not a JPEG or PNG image")


def _jpeg_size(data: bytes) -> tuple[int, int]:
    i = 2
    n = len(data)
    while i + 1 < n:
        if data[i] != 0xFF:
            raise ImageError("not a valid JPEG (bad marker)")
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in JPEG_NO_LENGTH:
            i += 2
            continue
        if i + 4 > n:
            break
        (length,) = struct.unpack(">H", data[i + 2:i + 4])
        if length < 2:
            raise ImageError("not a valid JPEG (bad segment length)")
        if marker in JPEG_SOF:
            if i + 9 > n:
                break
            h, w = struct.unpack(">HH", data[i + 5:i + 9])
            return w, h
        if marker == 0xDA:  # start of scan before any frame header
            raise ImageError("not a valid JPEG (no frame header)")
        i += 2 + length
    raise ImageError("truncated JPEG (no frame header)")


def check_size(w: int, h: int, max_pixels: int = MAX_PIXELS) -> None:
    """ImageError unless a w x h image is one the station can read in bounded memory."""
    if w == 0 or h == 0:
        raise ImageError(f"the image header says {w}x{h} px: not a usable image")
    if w * h > max_pixels:
        raise TooLarge(f"the image is too large ({w}x{h} px = {w * h / 1e6:.0f} MP; "
                         f"the limit is {max_pixels / 1e6:.0f} MP): send a smaller photo")
    if max(w, h) > MAX_SIDE_PX:
        raise TooLarge(f"the image is too wide ({w}x{h} px; at most {MAX_SIDE_PX} px a side)")
    if min(w, h) < MIN_SIDE_PX:
        raise ImageError(f"the image is too small ({w}x{h} px; at least {MIN_SIDE_PX} px a side)")
    if max(w, h) > MAX_ASPECT * min(w, h):
        raise ImageError(f"the image is too thin ({w}x{h} px; at most {MAX_ASPECT}:1)")


def decode_image(data: bytes, max_pixels: int = MAX_PIXELS) -> np.ndarray:
    """JPEG/PNG bytes as a BGR array, checked against the limits before decoding."""
    if not data:
        raise ImageError("empty file")
    w, h = image_size(data)
    check_size(w, h, max_pixels)
    frame = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if frame is None:
        raise ImageError("not an image OpenCV can decode (damaged or truncated)")
    if frame.shape[1] != w or frame.shape[0] != h:  # the header lied (e.g. a DNL height)
        check_size(frame.shape[1], frame.shape[0], max_pixels)
    return frame
