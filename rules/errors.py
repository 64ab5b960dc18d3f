"""Errors of the rules engine: one root, each also a builtin ValueError."""

from __future__ import annotations


class RulesError(Exception):
    """Root of every error raised by `rules`."""


class UnknownGame(RulesError, ValueError):
    """A game id that the engine does not know."""


class BadOption(RulesError, ValueError):
    """An unknown option, or an option value of the wrong type or range."""


class BadEvent(RulesError, ValueError):
    """An event that is malformed: missing fields, wrong types."""


class IllegalEvent(RulesError, ValueError):
    """A well-formed event that the game cannot accept now."""


class ScriptError(RulesError, ValueError):
    """A game script that cannot be played; names the event's index when it can."""

    def __init__(self, message: str, index: int | None = None) -> None:
        self.index = index
        prefix = f"event {index}: " if index is not None else ""
        super().__init__(prefix + message)
