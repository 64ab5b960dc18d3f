"""Where a read spends its time: the reader's own steps and a cProfile of one press.

    .venv/bin/python bench/bench_profile.py [--runs 10] [--mp 2] [--dice 20] [--top 12]

Part 1: Reading.timings_ms steps of read_dice (median of --runs), CPU time.
Part 2: cProfile of --runs whole presses (Station._read on this thread: capture,
read_dice, table, annotate, two JPEG encodes, SQLite + fsync): the top
functions by own time and by cumulative time. One core, OpenCV one thread.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_latency import FRAMES, GAME, FramesCamera, pin_one_core  # noqa: E402
from bench.bench_read import draw_frame  # noqa: E402
from station.station import Station  # noqa: E402
from station.store import EventStore  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--mp", type=int, default=2, choices=sorted(FRAMES))
    ap.add_argument("--dice", type=int, default=20)
    ap.add_argument("--top", type=int, default=12)
    args = ap.parse_args()
    pin_one_core()
    from vision import read_dice

    w, h = FRAMES[args.mp]
    frames = [draw_frame(w, h, args.dice, seed=s) for s in (1, 2)]
    read_dice(frames[0])  # warm-up
    steps: dict[str, list[float]] = {}
    cpu = []
    for i in range(args.runs):
        t = time.thread_time()
        r = read_dice(frames[i % 2])
        cpu.append((time.thread_time() - t) * 1e3)
        for k, v in r.timings_ms.items():
            steps.setdefault(k, []).append(v)
    print(f"read_dice steps, {args.mp} MP {w}x{h}, {args.dice} dice, median of {args.runs} "
          f"(Reading.timings_ms, wall ms); CPU ms of the whole call: {statistics.median(cpu):.1f}")
    for k, v in steps.items():
        print(f"  {k:<12}{statistics.median(v):>8.1f}")

    with tempfile.TemporaryDirectory() as tmp, EventStore(tmp) as store:
        with Station(store, FramesCamera(frames), lambda f: read_dice(f)) as st:
            st.start_game(**GAME)
            st._read(True, time.perf_counter())  # warm-up
            prof = cProfile.Profile()
            for _ in range(args.runs):
                if st.state_json()["finished"]:
                    st.start_game(**GAME)
                prof.enable()
                st._read(True, time.perf_counter())
                prof.disable()
    for order in ("tottime", "cumulative"):
        out = io.StringIO()
        stats = pstats.Stats(prof, stream=out).strip_dirs().sort_stats(order)
        stats.print_stats(args.top)
        lines = out.getvalue().splitlines()
        start = next(i for i, x in enumerate(lines) if x.lstrip().startswith("ncalls"))
        print(f"\ncProfile of {args.runs} presses (Station._read), top {args.top} by {order}:")
        print("\n".join(x for x in lines[start:] if x.strip()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
