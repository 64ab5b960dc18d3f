"""Keeping the SD card from filling: photos pruned by age and size, reads
stopped with a clear message when the disk is nearly full.

The event log (SQLite) is never pruned: it is the game. Photos are evidence
for audits and corrections; the oldest go first, and the photos of the most
recent reads are always kept. A pruned photo leaves its event intact (the
page shows "photo pruned").
"""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from station.errors import StationError

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png")
MB = 1024 * 1024


class DiskFull(StationError, OSError):
    """Too little free disk for another read: nothing was stored."""


@dataclass(frozen=True)
class StorageLimits:
    keep_days: float = 30.0  # photos older than this are removed (0 = keep by age)
    max_photos_mb: float = 2000.0  # the photo folder is kept under this (0 = no limit)
    keep_last: int = 200  # the newest photos are never pruned
    min_free_mb: float = 200.0  # below this, new reads stop with a message


@dataclass(frozen=True)
class PruneReport:
    removed: int
    freed_mb: float
    kept: int
    kept_mb: float

    def __str__(self) -> str:
        return (f"removed {self.removed} photos ({self.freed_mb:.1f} MB); "
                f"kept {self.kept} ({self.kept_mb:.1f} MB)")


def prune_photos(folder: Path, limits: StorageLimits, now: float | None = None) -> PruneReport:
    """Remove the oldest photos beyond the age and size limits; never the newest `keep_last`."""
    now = time.time() if now is None else now
    photos = []
    for entry in os.scandir(folder):
        if entry.is_file() and entry.name.lower().endswith(PHOTO_SUFFIXES):
            st = entry.stat()
            photos.append((st.st_mtime, st.st_size, Path(entry.path)))
    photos.sort(reverse=True)  # newest first
    total = sum(size for _, size, _ in photos)
    keep_bytes = limits.max_photos_mb * MB if limits.max_photos_mb > 0 else float("inf")
    max_age_s = limits.keep_days * 86400 if limits.keep_days > 0 else float("inf")
    removed = freed = 0
    running = 0
    for index, (mtime, size, path) in enumerate(photos):
        running += size
        if index < limits.keep_last:
            continue
        if now - mtime > max_age_s or running > keep_bytes:
            try:
                path.unlink()
            except FileNotFoundError:
                pass
            removed += 1
            freed += size
            running -= size
    return PruneReport(removed, freed / MB, len(photos) - removed, (total - freed) / MB)


def free_mb(folder: Path) -> float:
    return shutil.disk_usage(folder).free / MB


def check_free_space(folder: Path, limits: StorageLimits) -> None:
    """Raise DiskFull, saying what to do, when the disk is below the minimum."""
    left = free_mb(folder)
    if left < limits.min_free_mb:
        raise DiskFull(
            f"the disk is nearly full ({left:.0f} MB free, {limits.min_free_mb:.0f} MB needed): "
            "new reads are stopped and nothing was lost. Free some space, or lower "
            "storage.keep_days / storage.max_photos_mb in the config so old photos are pruned."
        )
