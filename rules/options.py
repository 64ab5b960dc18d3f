"""Game options: a frozen dataclass per game, parsed and validated from JSON.

Each field may carry metadata: `min`, `max` (numbers), `choices` (strings),
`help` (one line for the set-up page and the README).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import Any, TypeVar

from rules.errors import BadOption
from rules.text import Text

T = TypeVar("T")


def option(default: Any, help: str, **limits: Any) -> Any:
    """A documented option field with optional `min`, `max` or `choices`."""
    return dataclasses.field(default=default, metadata={"help": help, **limits})


def parse_options(cls: type[T], raw: Any, game_id: str) -> T:
    """Build the options dataclass from a JSON object, naming what is wrong."""
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise BadOption(f"options for {game_id} must be a JSON object")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(raw) - set(fields))
    if unknown:
        known = ", ".join(sorted(fields))
        raise BadOption(f"unknown option {unknown[0]!r} for {game_id} (known: {known})")
    values = {}
    for name, value in raw.items():
        values[name] = _check_value(fields[name], value, game_id)
    return cls(**values)


def _check_value(f: dataclasses.Field, value: Any, game_id: str) -> Any:
    default = f.default
    meta = f.metadata
    where = Text("option {name} of {game}", name=repr(f.name), game=game_id)
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise BadOption(Text("{where} must be true or false, got {value}", where=where, value=repr(value)))
        return value
    # JSON's NaN and Infinity (Python's json reads them) are no number of a game
    number = not isinstance(value, bool) and (isinstance(value, int)
                                              or (isinstance(value, float) and math.isfinite(value)))
    if isinstance(default, int):
        if not number or value != int(value):
            raise BadOption(Text("{where} must be a whole number, got {value}", where=where, value=repr(value)))
        value = int(value)
    elif isinstance(default, float):
        if not number:
            raise BadOption(Text("{where} must be a number, got {value}", where=where, value=repr(value)))
        value = float(value)
    elif isinstance(default, str):
        if not isinstance(value, str):
            raise BadOption(Text("{where} must be a string, got {value}", where=where, value=repr(value)))
        choices = meta.get("choices")
        if choices and value not in choices:
            raise BadOption(Text("{where} must be one of {choices}, got {value}", where=where,
                                     choices=", ".join(choices), value=repr(value)))
        return value
    if "min" in meta and value < meta["min"]:
        raise BadOption(Text("{where} must be at least {min}, got {value}", where=where, min=meta["min"],
                             value=repr(value)))
    if "max" in meta and value > meta["max"]:
        raise BadOption(Text("{where} must be at most {max}, got {value}", where=where, max=meta["max"],
                             value=repr(value)))
    return value


def options_json(options: Any) -> dict[str, Any]:
    return dataclasses.asdict(options)


def describe(cls: type) -> list[dict[str, Any]]:
    """Each option's name, default and help (for pages and docs)."""
    out = []
    for f in dataclasses.fields(cls):
        item = {"name": f.name, "default": f.default, "help": f.metadata.get("help", "")}
        for key in ("min", "max", "choices"):
            if key in f.metadata:
                item[key] = list(f.metadata[key]) if key == "choices" else f.metadata[key]
        out.append(item)
    return out
