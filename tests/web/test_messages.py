"""What the rules and the station say reaches a Spanish page in Spanish (web/messages_es.py).

The page says a text again from its template and values (`sayForm` in
web/static/common.js, `say_form` in web/i18n.py for the pages drawn on the
server; the browser test checks that both agree), so these tests check
what a Spanish player reads: every template has its Spanish, the English
comes back whole from the template (nothing is lost on the way), and the
words that go into a template (places, refusal reasons, colours) are there.
"""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from rules import game_ids, get_game
from rules.text import Text, names, text_json
from station.table import PLACES
from tests.rules.strategies import random_game
from tests.rules.test_properties import SETUPS
from vision import kinds, learned, reader
from vision.colour import HUE_NAMES
from web.i18n import ES, say_form

ROOT = Path(__file__).resolve().parents[2]


def spoken(form, catalogue: dict[str, str], missing: set[str] | None = None) -> str:
    """`say_form`, noting the templates the catalogue lacks."""
    if missing is not None:
        _missing(form, catalogue, missing)
    return say_form(form, catalogue)


def _missing(form, catalogue: dict[str, str], missing: set[str]) -> None:
    if isinstance(form, dict):
        if "parts" in form:
            for p in form["parts"]:
                _missing(p, catalogue, missing)
            return
        if form["text"] not in catalogue:
            missing.add(form["text"])
        for v in (form.get("values") or {}).values():
            _missing(v, catalogue, missing)


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}


def _templates() -> dict[str, str]:
    """Every constant template given to Text( in rules/ and station/, with where it is."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "rules").glob("*.py")) + sorted((ROOT / "station").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Text" and node.args:
                arg = node.args[0]
                for c in ([arg.body, arg.orelse] if isinstance(arg, ast.IfExp) else [arg]):
                    if isinstance(c, ast.Constant) and isinstance(c.value, str):
                        found.setdefault(c.value, f"{path.name}:{node.lineno}")
    return found


def test_every_template_the_rules_and_the_station_say_has_its_spanish():
    templates = _templates()
    assert len(templates) > 80  # the scan sees the rules' and the station's texts
    missing = [f"{where}: {t!r}" for t, where in templates.items() if t not in ES]
    assert not missing, "no Spanish for:\n" + "\n".join(missing)
    wrong = [t for t in templates if _fields(ES[t]) != _fields(t)]
    assert not wrong, f"Spanish with other fields than the English: {wrong}"


def test_the_words_that_go_into_them_have_their_spanish():
    whys = {reader.OUTSIDE, reader.BLURRED, reader.COCKED, reader.STACKED, reader.UNKNOWN,
            reader.LOW_CONFIDENCE, reader.NOT_D6, kinds.UNREADABLE, kinds.NOT_READ, kinds.UNKNOWN_OBJECT}
    whys |= {c for c in learned.CLASSES if isinstance(c, str)}
    colours = {name for _, name in HUE_NAMES} | {"black", "white", "ivory", "grey"}
    red_man = {"stakes", "predictions", "throw-off", "salvation"}  # rules/red_man.py: _not_thrown, _predict
    words = set(PLACES) | whys | colours | red_man
    assert not [w for w in words if w not in ES]
    assert spoken(Text("{a}", a=Text("cocked")).to_json(), ES) == "inclinado"


def test_a_text_keeps_its_english_and_its_template():
    template = "{players} tie at {value} above the bar {bar}: they share the stakes"
    said = Text(template, players=names(["A", "B", "C"]), value=70, bar=40)
    assert said == "A, B and C tie at 70 above the bar 40: they share the stakes"
    form = text_json(said)
    assert form == {"text": template,
                    "values": {"players": {"text": "{names} and {last}", "values": {"names": "A, B", "last": "C"}},
                               "value": 70, "bar": 40}}
    assert spoken(form, ES) == "A, B y C empatan a 70 por encima de la barra 40: se reparten las apuestas"
    assert text_json("plain") is None and names(["A"]) == "A"
    joined = Text.joined(" / ", [Text("join"), Text("sit_out")])
    assert joined == "join / sit_out" and spoken(joined.to_json(), ES) == "entrar / no jugar"


@pytest.mark.parametrize("game_id", game_ids())
def test_every_round_of_random_games_reads_in_spanish(game_id):
    """Random legal games of every set-up: each round's reason (and each Red Man rank) comes
    back as the same English from its template, and in Spanish with no English template left."""
    game = get_game(game_id)
    missing: set[str] = set()
    reasons = 0
    for players, options in SETUPS[game_id]:
        for seed in range(12):
            _, states = random_game(game, players, options, seed)
            for state in states[-1:] + states[::7]:
                printed = game.to_json(state)
                said = [(r["reason"], r.get("reason_i18n")) for r in printed["rounds"]]
                said += [(t["rank"], t.get("rank_i18n")) for t in printed.get("current_throws", []) if "rank" in t]
                for english, form in said:
                    assert form is not None, f"{english!r} has no template: the page can't translate it"
                    assert spoken(form, {}) == english
                    assert spoken(form, ES, missing) != english or english[:1].isdigit()
                    reasons += 1
    assert reasons > 20
    assert not missing, f"{game_id}: no Spanish for {sorted(missing)}"
