"""Hostile image files: random bytes, truncated photos, headers that lie about the size."""

from __future__ import annotations

import struct
import zlib

import cv2
import numpy as np


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png_claiming(width: int, height: int, rows: int = 4) -> bytes:
    """A well-formed PNG whose header claims width x height (RGB): a few rows of data, then
    IEND. A decoder that trusts the header allocates width*height*3 bytes first."""
    row = b"\x00" + b"\x00" * (3 * width)
    data = zlib.compress(row * rows, 9)
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", data) + _chunk(b"IEND", b"")


def jpeg_claiming(width: int, height: int) -> bytes:
    """A small real JPEG whose frame header is rewritten to claim width x height."""
    ok, buf = cv2.imencode(".jpg", np.full((64, 64, 3), 128, np.uint8))
    assert ok
    data = bytearray(buf.tobytes())
    i = data.index(b"\xff\xc0")
    data[i + 5:i + 9] = struct.pack(">HH", height, width)
    return bytes(data)


def real_png(width: int, height: int) -> bytes:
    ok, buf = cv2.imencode(".png", np.full((height, width, 3), 90, np.uint8))
    assert ok
    return buf.tobytes()


def real_jpeg(width: int = 640, height: int = 480) -> bytes:
    img = np.full((height, width, 3), (40, 110, 30), np.uint8)
    cv2.rectangle(img, (100, 100), (160, 160), (235, 235, 235), -1)
    ok, buf = cv2.imencode(".jpg", img)
    assert ok
    return buf.tobytes()
