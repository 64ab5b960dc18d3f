"""Comparing a station's state with the same game played as a script."""

from __future__ import annotations

from typing import Any

STATION_ONLY = ("reads", "game_id", "undoable")


def normalised(state: Any, key: str = "") -> Any:
    """Dice order on the tray means nothing: sort every list of die values."""
    if isinstance(state, dict):
        return {k: normalised(v, k) for k, v in state.items() if k not in STATION_ONLY}
    if isinstance(state, list):
        items = [normalised(v) for v in state]
        if key == "dice" and all(isinstance(v, (int, str)) for v in items):
            return sorted(items, key=lambda v: (isinstance(v, str), v))
        return items
    return state


def strip(state: dict) -> dict:
    """The state without the station's own fields (as `dicestation score` prints it)."""
    return {k: v for k, v in state.items() if k not in STATION_ONLY}
