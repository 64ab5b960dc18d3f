"""The SD card never fills: photos pruned by age and size, reads stopped when full."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from station.storage import DiskFull, StorageLimits, check_free_space, prune_photos

DAY = 86400.0


def make_photos(folder: Path, count: int, size: int, now: float, step_s: float) -> list[Path]:
    paths = []
    for i in range(count):
        p = folder / f"{i + 1}.jpg"
        p.write_bytes(b"\xff" * size)
        t = now - (count - i) * step_s  # 1.jpg is the oldest
        os.utime(p, (t, t))
        paths.append(p)
    return paths


def test_old_photos_go_and_the_newest_stay(tmp_path):
    now = 1_000_000_000.0
    paths = make_photos(tmp_path, 10, 1000, now, DAY)  # 10 days, one a day
    report = prune_photos(tmp_path, StorageLimits(keep_days=4.5, max_photos_mb=0, keep_last=2), now)
    assert report.removed == 6
    assert [p.exists() for p in paths] == [False] * 6 + [True] * 4


def test_the_folder_is_kept_under_its_size(tmp_path):
    now = 1_000_000_000.0
    paths = make_photos(tmp_path, 10, 1024 * 1024, now, 60)  # 10 MB
    report = prune_photos(tmp_path, StorageLimits(keep_days=0, max_photos_mb=4, keep_last=1), now)
    assert report.kept == 4 and report.kept_mb == pytest.approx(4.0)
    assert [p.exists() for p in paths] == [False] * 6 + [True] * 4


def test_keep_last_wins_over_every_limit_and_other_files_are_untouched(tmp_path):
    now = 1_000_000_000.0
    paths = make_photos(tmp_path, 5, 1000, now, 100 * DAY)
    db = tmp_path / "station.db"
    db.write_bytes(b"sqlite")
    os.utime(db, (0, 0))
    prune_photos(tmp_path, StorageLimits(keep_days=1, max_photos_mb=0.0001, keep_last=3), now)
    assert [p.exists() for p in paths] == [False, False, True, True, True]
    assert db.exists()


def test_a_full_disk_stops_reads_with_a_message(tmp_path):
    with pytest.raises(DiskFull, match="nearly full .* nothing was lost"):
        check_free_space(tmp_path, StorageLimits(min_free_mb=1e12))
    check_free_space(tmp_path, StorageLimits(min_free_mb=1))
