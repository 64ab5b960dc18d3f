"""The games the engine knows, by id (FORMATS.md section 3)."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import MappingProxyType

from rules.base import Game
from rules.errors import UnknownGame

# id -> (module, class). Imported when first asked for.
GAME_CLASSES: Mapping[str, tuple[str, str]] = MappingProxyType(
    {
        "gemelos": ("rules.gemelos", "Gemelos"),
        "red_mans_throw": ("rules.red_man", "RedMansThrow"),
        "barras": ("rules.barras", "Barras"),
        "dados_centrales": ("rules.dados_centrales", "DadosCentrales"),
        "rey_y_mendigo": ("rules.rey_mendigo", "ReyYMendigo"),
    }
)


def game_ids() -> tuple[str, ...]:
    return tuple(GAME_CLASSES)


def get_game(game_id: str) -> Game:
    """The game with this id; UnknownGame naming the known ids otherwise."""
    if not isinstance(game_id, str) or game_id not in GAME_CLASSES:
        raise UnknownGame(f"unknown game {game_id!r} (known: {', '.join(GAME_CLASSES)})")
    module, cls = GAME_CLASSES[game_id]
    return getattr(importlib.import_module(module), cls)()
