"""`dicestation doctor [--config FILE]`: check camera, button, GPIO, disk, config, calibration."""

from __future__ import annotations

import argparse

from station.doctor import FAIL, run_checks


def run(args: argparse.Namespace) -> int:
    results = run_checks(args.config)
    failed = [c for c in results if c.status == FAIL]
    print(f"{len(results) - len(failed)} of {len(results)} checks passed" if failed
          else f"all {len(results)} checks passed")
    return 1 if failed else 0
