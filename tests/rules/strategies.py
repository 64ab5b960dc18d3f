"""Random legal event streams, generated only from what `next()` offers."""

from __future__ import annotations

import random

from rules import Event, EventType, Game, State
from rules.base import KIND_VALUES
from rules.events import Die
from rules.ledger import amount

PREDICTIONS = ("pair", "straight", "trio", "six_and_pair", "six_no_pair", (2, 3, 4), ("pair", 2))


def random_event(game: Game, state: State, rng: random.Random, decide_p: float = 0.2) -> Event:
    """One event the game says it accepts now, chosen at random."""
    nxt = game.next(state)
    assert nxt is not None, "a game that is not finished must say what it waits for"
    player = rng.choice(nxt.players)
    if nxt.choices and (nxt.action == "decide" or rng.random() < decide_p):
        choice = EventType(rng.choice(nxt.choices))
        if choice in (EventType.JOIN, EventType.STAKE):
            # a table never stakes more chips than the player has (Barras counts them)
            chips = game.to_json(state).get("chips", {}).get(player)
            top = 10 if chips is None else max(1, min(10, int(chips)))
            return Event(choice, player, amount=amount(rng.randint(1, top)))
        if choice is EventType.PREDICT:
            return Event(choice, player, prediction=rng.choice(PREDICTIONS))
        return Event(choice, player)
    assert nxt.action == "throw", f"unknown action {nxt.action!r}"
    lo = len(nxt.dice) if nxt.min_dice is None else nxt.min_dice
    count = rng.randint(lo, len(nxt.dice))
    dice = tuple(Die(rng.choice(KIND_VALUES[k])) for k in nxt.dice[:count])
    return Event(EventType.THROW, player, dice, role=nxt.role)


def random_game(game: Game, players: tuple[str, ...], options: dict, seed: int, limit: int = 5000):
    """Play a random legal game; returns (events, states) including the initial state."""
    rng = random.Random(seed)
    state = game.new(players, options)
    events, states = [], [state]
    while not state.finished and len(events) < limit:
        event = random_event(game, state, rng)
        state = game.apply(state, event)
        events.append(event)
        states.append(state)
    return events, states
