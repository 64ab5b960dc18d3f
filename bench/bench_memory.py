"""Peak resident memory of the running station (`dicestation run`), by frame size.

    .venv/bin/python bench/bench_memory.py [--reads 30] [--pages 10] [--frames 2,12]

Starts `dicestation run` as its own process (one core, taskset-like affinity)
on a replay folder of drawn frames (20 white d6) with the real vision reader
and the default config (web.threads 64), opens --pages live pages (SSE on
real sockets), presses --reads times through the API, and reads the
process's VmRSS and VmHWM (peak resident) from /proc/PID/status: after start,
after the pages connected, after the reads.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_latency import FRAMES, GAME  # noqa: E402
from bench.bench_read import draw_frame  # noqa: E402
from tests.soak.live import Page  # noqa: E402

TOKEN = "bench-token"
TARGET_MB = 150.0


def status(pid: int) -> dict[str, float]:
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile", "Threads"):
            out[key] = float(value.split()[0]) / (1024 if key != "Threads" else 1)
    return out


def call(url: str, method: str, path: str, body: dict | None = None) -> dict:
    req = urllib.request.Request(url + path, method=method,
                                 data=json.dumps(body).encode() if body is not None else None,
                                 headers={"Authorization": f"Bearer {TOKEN}",
                                          "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as exc:
        with exc:
            return json.loads(exc.read())


def measure(mp: int, reads: int, pages: int) -> list[tuple[str, dict]]:
    w, h = FRAMES[mp]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "frames"
        folder.mkdir()
        for i in range(4):
            cv2.imwrite(str(folder / f"f{i}.jpg"), draw_frame(w, h, 20, seed=i))
        config = Path(tmp) / "station.toml"
        config.write_text(f'[camera]\nkind = "replay"\nfolder = "{folder}"\nloop = true\n'
                          '[web]\nhost = "127.0.0.1"\nport = 0\n'
                          '[storage]\nmin_free_mb = 0.0\n')
        env = dict(os.environ, DICESTATION_GM_TOKEN=TOKEN, PYTHONUNBUFFERED="1")
        proc = subprocess.Popen(
            ["taskset", "-c", str(sorted(os.sched_getaffinity(0))[0]), sys.executable, "-m",
             "station.cli", "run", "--config", str(config), "--data", str(Path(tmp) / "data")],
            cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, env=env)
        rows = []
        live: list[Page] = []
        try:
            url = None
            for line in proc.stdout:
                m = re.search(r"serving on (http://\S+?)/?$", line.strip())
                if m:
                    url = m.group(1)
                    break
            assert url, "the station did not start"
            port = int(url.rsplit(":", 1)[1])
            time.sleep(0.5)
            rows.append(("started", status(proc.pid)))
            call(url, "POST", "/api/games", GAME)
            live = [Page(port) for _ in range(pages)]
            for p in live:
                p.connected.wait(30)
            rows.append((f"{pages} pages open", status(proc.pid)))
            for _ in range(reads):
                if call(url, "GET", "/api/state")["finished"]:
                    call(url, "POST", "/api/games", GAME)
                call(url, "POST", "/api/read", {"override": True})
            rows.append((f"after {reads} reads", status(proc.pid)))
        finally:
            for p in live:
                p.stop()
            proc.terminate()
            proc.wait(30)
            proc.stdout.close()
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reads", type=int, default=30)
    ap.add_argument("--pages", type=int, default=10)
    ap.add_argument("--frames", default="2,12")
    args = ap.parse_args()
    print("resident memory of `dicestation run` (vision reader, 20 dice a frame, default config)")
    print("RssFile: mapped library code (OpenCV alone ~50 MB), shared and evictable; "
          "RssAnon: the station's own")
    print(f"{'frame':<16}{'moment':<18}{'VmRSS MB':>9}{'VmHWM MB':>9}{'RssAnon':>8}"
          f"{'RssFile':>8}{'threads':>8}")
    verdicts = []
    for mp in (int(x) for x in args.frames.split(",")):
        w, h = FRAMES[mp]
        rows = measure(mp, args.reads, args.pages)
        for moment, s in rows:
            print(f"{f'{mp} MP {w}x{h}':<16}{moment:<18}{s['VmRSS']:>9.0f}{s['VmHWM']:>9.0f}"
                  f"{s['RssAnon']:>8.0f}{s['RssFile']:>8.0f}{s['Threads']:>8.0f}", flush=True)
        peak = rows[-1][1]["VmHWM"]
        verdicts.append(f"{mp} MP peak resident {peak:.0f} MB (target <= {TARGET_MB:.0f}): "
                        f"{'met' if peak <= TARGET_MB else 'MISSED'}")
    for v in verdicts:
        print(v)
    return 0


if __name__ == "__main__":
    sys.exit(main())
