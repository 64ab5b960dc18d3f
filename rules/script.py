"""Game scripts (FORMATS.md section 3): a game, its players, options, events."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.base import State
from rules.errors import RulesError, ScriptError
from rules.events import Event
from rules.registry import get_game

SCRIPT_KEYS = ("game", "players", "options", "events")


def play_script(script: Any) -> State:
    """Play a parsed script; ScriptError names the event's index when it is an event."""
    if not isinstance(script, Mapping):
        raise ScriptError("a game script is a JSON object with game, players, options, events")
    unknown = sorted(set(script) - set(SCRIPT_KEYS))
    if unknown:
        raise ScriptError(f"unknown key {unknown[0]!r} in the script (known: {', '.join(SCRIPT_KEYS)})")
    for key in ("game", "players"):
        if key not in script:
            raise ScriptError(f"the script has no {key!r}")
    try:
        game = get_game(script["game"])
        state = game.new(script["players"], script.get("options"))
    except RulesError as exc:
        raise ScriptError(str(exc)) from None
    events = script.get("events", [])
    if not isinstance(events, list):
        raise ScriptError("'events' must be a list")
    for index, raw in enumerate(events):
        try:
            state = game.apply(state, Event.from_json(raw))
        except RulesError as exc:
            raise ScriptError(str(exc), index) from None
    return state


def state_json(state: State) -> dict[str, Any]:
    return get_game(state.game).to_json(state)
