"""10,000 reads replayed through the station: resident memory is flat after warm-up.

ReplayCamera (loop) over the bundled recorded session, the LabelReader stand-in,
fast presses through Station.press, games restarted as they end, photos pruned
as configured. fsync is skipped here (durability is the crash tests' job): this
test is about memory. The curve (VmRSS every SAMPLE_EVERY reads) is printed.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from station.camera import ReplayCamera, default_replay_folder
from station.config import Config
from station.labels import LabelReader
from station.station import Station
from station.storage import StorageLimits
from station.store import EventStore

READS = int(os.environ.get("SOAK_READS", 10_000))
WARMUP_READS = READS // 5
SAMPLE_EVERY = READS // 20
MAX_GROWTH_MB = 16.0  # after warm-up; a leak of 2 KB a read would pass 16 MB by the end
GAME = {"game": "red_mans_throw", "players": ["Ana", "Bruno"], "options": {"stake": 5}}


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


@pytest.mark.slow
def test_10000_reads_keep_resident_memory_flat(tmp_path, monkeypatch):
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    folder = default_replay_folder()
    config = Config(storage=StorageLimits(min_free_mb=0.0, max_photos_mb=5.0, keep_last=20))
    store = EventStore(tmp_path / "data")
    store.db.execute("PRAGMA synchronous=OFF")
    curve: list[tuple[int, float]] = []
    statuses: dict[str, int] = {}
    with Station(store, ReplayCamera(folder, loop=True), LabelReader(folder), config) as st:
        for i in range(1, READS + 1):
            state = st.state_json()
            if state["game"] is None or state["finished"]:
                st.start_game(**GAME)
            out = st.press(override=True)
            statuses[out.status] = statuses.get(out.status, 0) + 1
            if i % SAMPLE_EVERY == 0:
                curve.append((i, rss_mb()))
    reads = sum(1 for e in store.events_after(0, limit=10 * READS) if e.kind in ("read", "refused"))
    photos = len(list(store.photos.iterdir()))
    store.close()
    text = "reads -> VmRSS MB: " + ", ".join(f"{n}: {mb:.1f}" for n, mb in curve)
    print(text)
    print(f"outcomes: {statuses}; photos kept: {photos}")
    assert reads == READS and sum(statuses.values()) == READS
    assert set(statuses) <= {"stored", "refused"}, statuses
    base = next(mb for n, mb in curve if n == WARMUP_READS)
    growth = max(mb for n, mb in curve if n >= WARMUP_READS) - base
    assert growth < MAX_GROWTH_MB, f"resident memory grew {growth:.1f} MB after warm-up; {text}"
    assert photos < 400  # pruned as configured
