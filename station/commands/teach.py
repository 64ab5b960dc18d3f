"""`dicestation teach --out DIR DATASET`: learn a dice set's profile from labelled photos."""

from __future__ import annotations

import argparse
import sys

from calibration.dataset import DatasetError
from calibration.profile_io import save
from calibration.teach import TeachError, teach


def run(args: argparse.Namespace) -> int:
    try:
        profile = teach(args.dataset, log=lambda m: print(m, file=sys.stderr))
    except (DatasetError, TeachError) as exc:
        print(f"dicestation teach: {exc}", file=sys.stderr)
        return 2
    out = save(profile, args.out)
    print(profile.describe())
    print(f"profile written to {out}")
    return 0
