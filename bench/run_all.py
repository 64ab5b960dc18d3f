"""Run every benchmark on one core and write docs/benchmarks.md with the latest tables.

    .venv/bin/python bench/run_all.py [--quick]

Each benchmark runs as its own process under `taskset -c 0` (one core, as the
targets are stated); the tables are printed and written to docs/benchmarks.md
with the commands, the machine (nproc, CPU model) and its load average, since
other work on a shared machine inflates wall-clock times (the latency table
also gives CPU times, which do not depend on the load).
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "benchmarks.md"
PY = ".venv/bin/python"


def benches(quick: bool) -> list[tuple[str, list[str]]]:
    runs = ["--runs", "3"] if quick else []
    return [
        ("Reader alone: ms per read_dice and numpy peak", [PY, "bench/bench_read.py", *runs]),
        ("Press -> stored event -> page, by frame size and dice count",
         [PY, "bench/bench_latency.py", *(["--runs", "3"] if quick else ["--runs", "9"])]),
        ("The networks on onnxruntime and OpenCV's dnn engines", [PY, "bench/bench_engines.py"]),
        ("Numeral dice, untaught and taught: ms per read and per die",
         [PY, "bench/bench_kinds.py", *(["--runs", "1", "--scenes", "3"] if quick else [])]),
        ("Where a read spends its time (2 MP, 20 dice)", [PY, "bench/bench_profile.py", *runs]),
        ("Resident memory of the running station",
         [PY, "bench/bench_memory.py", *(["--reads", "10"] if quick else [])]),
        ("Press -> stored event on the bundled demo session (800x600)",
         [PY, "bench/bench_station.py", *(["--reads", "10"] if quick else [])]),
    ]


def machine() -> str:
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("model name", "Model")):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return (f"{platform.machine()}, {os.cpu_count()} CPUs (nproc), {model}; Python "
            f"{platform.python_version()}; load average at the start: {load}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repetitions (a smoke run)")
    ap.add_argument("--out", default=str(DOC))
    args = ap.parse_args()
    started = time.strftime("%Y-%m-%d %H:%M")
    sections = []
    host = machine()
    print(host, flush=True)
    for title, cmd in benches(args.quick):
        shown = "taskset -c 0 " + " ".join(cmd)
        print(f"\n## {title}\n$ {shown}", flush=True)
        t0 = time.monotonic()
        done = subprocess.run(["taskset", "-c", "0", *cmd], cwd=ROOT, capture_output=True,
                              text=True)
        out = done.stdout.strip()
        if done.returncode != 0:
            out += f"\n(exit status {done.returncode})\n" + done.stderr.strip()[-2000:]
        print(out, flush=True)
        sections.append((title, shown, out, time.monotonic() - t0))
    Path(args.out).write_text(render(started, host, sections, args.quick))
    print(f"\nwritten: {args.out}")
    return 0


def render(started: str, host: str, sections, quick: bool) -> str:
    head = Path(DOC).read_text().split("<!-- tables -->")[0] if DOC.exists() else "# Benchmarks\n\n"
    lines = [head.rstrip() + "\n", "<!-- tables -->", "",
             f"Latest run: {started}{' (--quick)' if quick else ''}, by "
             f"`{PY} bench/run_all.py`.", "", f"Machine: {host}.", ""]
    for title, cmd, out, took in sections:
        lines += [f"### {title}", "", f"`{cmd}` ({took:.0f} s)", "", "```", out, "```", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
