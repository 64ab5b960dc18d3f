"""docs/games.md lists every option of every game as the engine has it."""

from __future__ import annotations

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "games_doc.py"


def test_games_doc_is_up_to_date():
    spec = importlib.util.spec_from_file_location("games_doc", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.DOC.read_text() == module.render(), "run: python scripts/games_doc.py"
    for option in ("wins_needed", "predictions", "house_pays", "central_stake", "chico_pairs"):
        assert f"`{option}`" in module.DOC.read_text()
