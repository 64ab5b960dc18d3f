"""The `dicestation` command: one sub-command per job.

Each sub-command lives in `station.commands.<name>` with a `run(args) -> int`
function, imported only when used so that `score` never loads OpenCV.
"""

from __future__ import annotations

import argparse
import importlib
import sys


def game_kinds(text: str) -> frozenset[str]:
    """`--kinds d6,d10`: the kinds a game throws."""
    from rules.base import KIND_VALUES  # pure Python: no OpenCV

    names = [k.strip() for k in text.split(",") if k.strip()]
    bad = [k for k in names if k not in KIND_VALUES]
    if bad or not names:
        raise argparse.ArgumentTypeError(
            f"{bad[0] if bad else 'nothing'} is not a kind of die: give some of {', '.join(KIND_VALUES)}")
    return frozenset(names)


def _add_kinds(p: argparse.ArgumentParser) -> None:
    p.add_argument("--kinds", type=game_kinds, metavar="KIND,...",
                   help="only the kinds a game throws (d6,d8,d10,d10t,taba): other numbered things are left out")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dicestation", description="A dice-reading station for real tables."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("score", help="play a game script through the rules engine")
    p.add_argument("script", help="game script (JSON, FORMATS.md section 3); - for stdin")

    p = sub.add_parser("read", help="read the dice in photos, one JSON line per image")
    p.add_argument("--profile", help="dice-set profile made by `teach`")
    _add_kinds(p)
    p.add_argument("images", nargs="+", metavar="IMAGE")

    p = sub.add_parser("eval", help="measure the reader on a labelled data set")
    p.add_argument("--profile", help="dice-set profile made by `teach`")
    _add_kinds(p)
    p.add_argument("dataset", metavar="DATASET")

    p = sub.add_parser("teach", help="learn a dice set from a labelled data set")
    p.add_argument("--out", required=True, help="folder to write the profile to")
    p.add_argument("dataset", metavar="DATASET")

    p = sub.add_parser("run", help="run the station with its web pages")
    p.add_argument("--config", help="TOML config file")
    p.add_argument("--data", help="folder for the event store and photos")

    p = sub.add_parser("demo", help="the station on a bundled recorded session, no camera")
    p.add_argument("--port", type=int, default=8080)
    p.add_argument("--data", help="folder for the event store and photos")

    p = sub.add_parser("doctor", help="check camera, button, disk, config and calibration")
    p.add_argument("--config", help="TOML config file")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        module = importlib.import_module(f"station.commands.{args.command}")
    except ModuleNotFoundError as exc:
        if exc.name != f"station.commands.{args.command}":
            raise
        print(f"dicestation: '{args.command}' is not built yet", file=sys.stderr)
        return 2
    return int(module.run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
