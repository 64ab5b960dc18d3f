"""The rules engine: the five games of RULES.md. Pure, standard library only.

    game = get_game("red_mans_throw")
    state = game.new(["A", "B"], {"stake": 10})
    state = game.apply(state, Event.throw("A", 6, 3, 1))
    game.next(state)  # -> Next(action="throw", players=("B",), dice=("d6",)*3)
"""

from rules.base import HOUSE, Game, Next, RoundResult, State
from rules.errors import BadEvent, BadOption, IllegalEvent, RulesError, ScriptError, UnknownGame
from rules.events import Die, Event, EventType
from rules.ledger import Ledger
from rules.registry import game_ids, get_game
from rules.script import play_script, state_json

__all__ = [
    "HOUSE",
    "BadEvent",
    "BadOption",
    "Die",
    "Event",
    "EventType",
    "Game",
    "IllegalEvent",
    "Ledger",
    "Next",
    "RoundResult",
    "RulesError",
    "ScriptError",
    "State",
    "UnknownGame",
    "game_ids",
    "get_game",
    "play_script",
    "state_json",
]
