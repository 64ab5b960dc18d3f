#!/usr/bin/env python3
"""Compare two runs of `dicestation read` image by image: what a change moved.

    taskset -c 0 .venv/bin/dicestation read [--profile P] DIR/*.jpg > before.jsonl
    (change the code)
    taskset -c 0 .venv/bin/dicestation read [--profile P] DIR/*.jpg > after.jsonl
    python scripts/compare_reads.py before.jsonl after.jsonl

Each file holds `read`'s JSON lines (FORMATS.md section 2). An image reads
the same when its dice (kind, value, colour, centre) and its refusals
(centre, reason) are the same; a change of confidence alone is counted
apart. Prints the images that read differently, what went and what came,
and a summary line; exits 1 when any image reads differently (0 when none).

Run both reads on the same number of cores: numpy's matrix products round
their last bits by the threads they use, and a taught read's template
scores (vision.templates) can move by 1e-5 between one core and two.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


class CompareError(ValueError):
    """A file that is not `dicestation read` output, or two that do not match."""


def load_reads(text: str, name: str) -> dict[str, dict]:
    """`read`'s JSON lines -> {image: its line}; an error names the bad line."""
    out: dict[str, dict] = {}
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise CompareError(f"{name} line {n}: not JSON ({e.msg})") from None
        if not isinstance(obj, dict) or "image" not in obj:
            raise CompareError(f"{name} line {n}: no 'image' (not `dicestation read` output)")
        out[str(obj["image"])] = obj
    return out


def answers(line: dict) -> tuple[list, list]:
    """What a line answers and refuses, confidences left out (sorted); an
    image `read` could not read answers its error."""
    if "error" in line:
        return [("error", str(line["error"]))], []
    dice = sorted((d["kind"], str(d["value"]), str(d.get("colour")), tuple(d["center"]))
                  for d in line.get("dice", []))
    refused = sorted((tuple(r["center"]), r["why"]) for r in line.get("rejected", []))
    return dice, refused


def compare(before: dict[str, dict], after: dict[str, dict]) -> tuple[list[str], int]:
    """Report lines for the images that read differently, and how many
    differ only in confidence. Both runs must have read the same images."""
    if set(before) != set(after):
        only = sorted(set(before) ^ set(after))
        raise CompareError(f"the runs read different images ({len(only)} in one only, e.g. {only[0]})")
    report, conf_only = [], 0
    for image in sorted(before):
        (d0, r0), (d1, r1) = answers(before[image]), answers(after[image])
        if (d0, r0) == (d1, r1):
            if before[image] != after[image]:
                conf_only += 1
            continue
        went = [d for d in d0 if d not in d1] + [r for r in r0 if r not in r1]
        came = [d for d in d1 if d not in d0] + [r for r in r1 if r not in r0]
        report.append(f"{image}: - {went} + {came}")
    return report, conf_only


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    args = ap.parse_args(argv)
    try:
        before = load_reads(args.before.read_text(), str(args.before))
        after = load_reads(args.after.read_text(), str(args.after))
        report, conf_only = compare(before, after)
    except (OSError, CompareError) as e:
        print(f"compare_reads: {e}", file=sys.stderr)
        return 2
    for line in report:
        print(line)
    print(f"images {len(before)}, read differently {len(report)}, confidence only {conf_only}")
    return 1 if report else 0


if __name__ == "__main__":
    raise SystemExit(main())
