"""`dicestation run [--config FILE] [--data DIR]`: the station with its web pages."""

from __future__ import annotations

import argparse
import sys

from station.config import load_config
from station.errors import ConfigError
from station.memory import limit_arenas
from station.server import build_station, serve


def run(args: argparse.Namespace) -> int:
    limit_arenas()  # first, before any thread: a long-running process keeps less memory
    try:
        config = load_config(args.config, data=args.data)
    except ConfigError as exc:
        print(f"dicestation run: {exc}", file=sys.stderr)
        return 2
    station = build_station(config)
    return serve(station, config, host=config.web.host, port=config.web.port,
                 keyboard=sys.stdin.isatty())
