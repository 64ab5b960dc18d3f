"""Errors of the running station: one root, each also a builtin exception."""

from __future__ import annotations


class StationError(Exception):
    """Root of every error raised by `station`."""


class ConfigError(StationError, ValueError):
    """A config file that cannot be used; the message names the key."""


class CameraError(StationError, RuntimeError):
    """The camera failed or timed out; the station keeps running and retries."""


class NoOpenGame(StationError, LookupError):
    """A call that needs an open game when there is none."""


class NotAccepted(StationError, ValueError):
    """A decision, correction or game set-up the station (or the rules) refuses."""


class Misfit(StationError, ValueError):
    """A read that does not fit the game; the message says what the table should do."""
