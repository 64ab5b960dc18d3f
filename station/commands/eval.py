"""`dicestation eval [--profile DIR] [--kinds K,...] DATASET`: measure the reader on labelled images."""

from __future__ import annotations

import argparse
import sys

from calibration.dataset import DatasetError, load_dataset
from calibration.evaluate import evaluate
from vision import read_dice


def run(args: argparse.Namespace) -> int:
    skipped: list[str] = []  # a label file with a fault is named and left out: the others count
    try:
        samples = load_dataset(args.dataset, skipped)
    except DatasetError as exc:
        print(f"dicestation eval: {exc}", file=sys.stderr)
        return 2
    for message in skipped:
        print(f"dicestation eval: {message} (skipped)", file=sys.stderr)
    if not samples:
        print(f"dicestation eval: no labelled images in {args.dataset}", file=sys.stderr)
        return 2
    profile = None
    if args.profile:
        from calibration.profile_io import ProfileError, load  # a taught set (issue 4)

        try:
            profile = load(args.profile)
        except ProfileError as exc:
            print(f"dicestation eval: {exc}", file=sys.stderr)
            return 2
    kinds = getattr(args, "kinds", None)
    report = evaluate(samples, lambda frame: read_dice(frame, profile, game_kinds=kinds))
    for line in report.lines():
        print(line)
    return 1 if skipped else 0
