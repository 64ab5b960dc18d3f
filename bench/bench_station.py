"""How long a read takes from the press to the stored event, on this machine.

    .venv/bin/python bench/bench_station.py [--reads 30]

Replays the bundled demo session (station/data/demo, 800x600 JPEGs, 1-3 d6)
through the station: ReplayCamera -> reader -> table -> SQLite (WAL, fsync) +
two JPEGs written atomically. Prints the median and 95th percentile from
`request_read` (the press) to the committed event, with the vision reader and
with the LabelReader stand-in (the station's own cost without reading).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from station.camera import ReplayCamera, default_replay_folder  # noqa: E402
from station.labels import LabelReader  # noqa: E402
from station.station import Station  # noqa: E402
from station.store import EventStore  # noqa: E402

GAME = {"game": "red_mans_throw", "players": ["Ana", "Bruno"], "options": {}}


def measure(reader, reads: int) -> list[float]:
    folder = default_replay_folder()
    times = []
    with tempfile.TemporaryDirectory() as tmp, EventStore(tmp) as store, Station(
        store, ReplayCamera(folder, loop=True), reader
    ) as station:
        station.start_game(**GAME)
        station.press(override=True)  # warm-up (imports, first allocations)
        while len(times) < reads:
            if station.state_json()["finished"]:
                station.start_game(**GAME)
            out = station.press(override=True)
            times.append(out.ms)  # stored and refused reads alike are committed events
    return times


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reads", type=int, default=30)
    args = ap.parse_args()
    from vision import read_dice

    rows = [("vision reader", measure(lambda f: read_dice(f), args.reads)),
            ("labels stand-in", measure(LabelReader(default_replay_folder()), args.reads))]
    print(f"press -> stored event, {args.reads} reads, 800x600 demo frames")
    print(f"{'reader':<18}{'median ms':>10}{'p95 ms':>10}{'max ms':>10}")
    for name, t in rows:
        t = sorted(t)
        p95 = t[min(len(t) - 1, int(0.95 * len(t)))]
        print(f"{name:<18}{statistics.median(t):>10.1f}{p95:>10.1f}{t[-1]:>10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
