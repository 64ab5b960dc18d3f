"""`dicestation demo [--port 8080] [--data DIR]`: the station on the bundled recorded session.

No camera needed: a ReplayCamera plays `station/data/demo/` (a Red Man's Throw
between Ana and Bruno, drawn by station.scenes and read by the vision reader).
A game is started if none is open, and again after one ends. Reads come from
the page or the API, or the Enter key when stdin is a terminal.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from station.config import CameraConfig, Config
from station.memory import limit_arenas
from station.server import build_station, serve

DEMO_GAME = {"game": "red_mans_throw", "players": ["Ana", "Bruno"], "options": {"stake": 5}}
DEFAULT_DATA = "~/.local/share/dicestation/demo"


def run(args: argparse.Namespace) -> int:
    limit_arenas()  # first, before any thread: a long-running process keeps less memory
    config = replace(
        Config(),
        data=args.data or DEFAULT_DATA,
        camera=CameraConfig(kind="replay", loop=True),
    )
    config = replace(config, web=replace(config.web, port=args.port))
    station = build_station(config, auto_game=DEMO_GAME)
    if station.game_row is None or station.game_row.status != "open":
        station.start_game(**DEMO_GAME)
    print(f"dicestation demo: {DEMO_GAME['game']} between "
          f"{' and '.join(DEMO_GAME['players'])}; recorded session in "
          f"{Path(__file__).parents[1] / 'data' / 'demo'}", flush=True)
    return serve(station, config, host="127.0.0.1", port=args.port, keyboard=sys.stdin.isatty())
