"""Random legal game scripts, made only from what each game's `next()` offers."""

from __future__ import annotations

import random

from rules import Event, EventType, get_game
from rules.base import KIND_VALUES
from rules.events import Die
from rules.ledger import amount

GAMES = {
    "gemelos": (["Ana", "Bruno", "Carla"], {"stake": 2}),
    "red_mans_throw": (["Ana", "Bruno"], {"stake": 5}),
    "barras": (["Ana", "Bruno", "Carla"], {"chips": 12}),
    "dados_centrales": (["Ana", "Bruno"], {"rounds": 3}),
    "rey_y_mendigo": (["Ana", "Bruno"], {}),
}


def random_script(game_id: str, seed: int, limit: int = 80) -> dict:
    """A whole game (or `limit` events, then `end`) as a FORMATS.md §3 script."""
    players, options = GAMES[game_id]
    game = get_game(game_id)
    rng = random.Random(seed)
    state = game.new(players, options)
    events = []
    while not state.finished and len(events) < limit:
        nxt = game.next(state)
        player = nxt.players[0]
        if nxt.action == "decide":
            choice = EventType(nxt.choices[0] if rng.random() < 0.8 else rng.choice(nxt.choices))
            if choice in (EventType.JOIN, EventType.STAKE):
                chips = game.to_json(state).get("chips", {}).get(player)
                top = 4 if chips is None else max(1, min(4, int(chips)))
                event = Event(choice, player, amount=amount(rng.randint(1, top)))
            else:
                event = Event(choice, player)
        else:
            lo = len(nxt.dice) if nxt.min_dice is None else nxt.min_dice
            count = rng.randint(lo, len(nxt.dice))
            dice = tuple(Die(rng.choice(KIND_VALUES[k])) for k in nxt.dice[:count])
            event = Event(EventType.THROW, player, dice, role=nxt.role)
        state = game.apply(state, event)
        events.append(event)
    if not state.finished:
        events.append(Event(EventType.END))
        state = game.apply(state, events[-1])
    return {"game": game_id, "players": players, "options": options,
            "events": [e.to_json() for e in events]}
