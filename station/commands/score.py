"""`dicestation score SCRIPT.json`: play a game script, print the state as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rules import RulesError, play_script, state_json


def run(args: argparse.Namespace) -> int:
    name = args.script
    try:
        text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
    except OSError as exc:
        print(f"dicestation score: cannot read {name}: {exc.strerror}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"dicestation score: {name} is not UTF-8 text", file=sys.stderr)
        return 2
    try:
        script = json.loads(text)
    except json.JSONDecodeError as exc:
        print(
            f"dicestation score: {name} is not valid JSON: line {exc.lineno} column {exc.colno}: {exc.msg}",
            file=sys.stderr,
        )
        return 2
    except RecursionError:
        print(f"dicestation score: {name} is not a game script: JSON nested too deeply",
              file=sys.stderr)
        return 2
    try:
        state = play_script(script)
    except RulesError as exc:
        print(f"dicestation score: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(state_json(state), ensure_ascii=False))
    return 0
