"""A game's state as the replay of its stored events.

Stored kinds: `game` (set-up), `read` (throw events made from a photo),
`refused` (a read that did not fit: kept for audit, changes nothing),
`correction` (`{"read", "die", "value"}`: a die of a read was misread),
`decision` (a §3 event: join, sit_out, stake, predict, pay_parte, withdraw,
tip_hat, end), `undo` (`{"undoes": ID}`: cancels a read, correction or
decision). Nothing is edited in place: a correction or an undo is one more
event and the state is rebuilt from the start.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules import Event, RulesError, State, get_game
from rules.text import Text, text_of
from station.store import StoredEvent, StoredGame

UNDOABLE = ("read", "correction", "decision")


@dataclass(frozen=True)
class Replay:
    state: State
    reads: tuple[StoredEvent, ...]  # stored reads in force (not undone), corrected
    rule_events: tuple[Event, ...]
    undoable: tuple[int, ...]  # ids that an undo would cancel, last last

    @property
    def last_read(self) -> StoredEvent | None:
        return self.reads[-1] if self.reads else None


def corrected(read: StoredEvent, fixes: dict[int, Any]) -> StoredEvent:
    """The read with its corrected die values, in its dice list and in its throw events."""
    if not fixes:
        return read
    data = copy.deepcopy(read.data)
    for index, value in fixes.items():
        data["dice"][index]["value"] = value
        data["dice"][index]["corrected"] = True
        for throw in data.get("throws", []):
            if index in throw["dice"]:
                k = throw["dice"].index(index)
                die = throw["event"]["dice"][k]
                if isinstance(die, dict):
                    die["value"] = value
                else:
                    throw["event"]["dice"][k] = value
    return StoredEvent(read.id, read.game_id, read.kind, read.time, data)


def replay(game_row: StoredGame, events: Sequence[StoredEvent]) -> Replay:
    """Rebuild the state from the stored events; RulesError if they no longer fit."""
    cancelled: set[int] = set()
    stack: list[int] = []
    for ev in events:
        if ev.kind in UNDOABLE:
            stack.append(ev.id)
        elif ev.kind == "undo":
            target = ev.data["undoes"]
            cancelled.add(target)
            if target in stack:
                stack.remove(target)
    fixes: dict[int, dict[int, Any]] = {}
    for ev in events:
        if ev.kind == "correction" and ev.id not in cancelled:
            fixes.setdefault(ev.data["read"], {})[ev.data["die"]] = ev.data["value"]
    game = get_game(game_row.game)
    state = game.new(list(game_row.players), game_row.options)
    reads: list[StoredEvent] = []
    rule_events: list[Event] = []
    for ev in events:
        if ev.id in cancelled:
            continue
        if ev.kind == "read":
            read = corrected(ev, fixes.get(ev.id, {}))
            for throw in read.data.get("throws", []):
                rule_events.append(Event.from_json(throw["event"]))
            reads.append(read)
        elif ev.kind == "decision":
            rule_events.append(Event.from_json(ev.data["event"]))
    for index, event in enumerate(rule_events):
        try:
            state = game.apply(state, event)
        except RulesError as exc:
            raise type(exc)(Text("replaying event {index}: {error}", index=index, error=text_of(exc))) from None
    return Replay(state, tuple(reads), tuple(rule_events), tuple(stack))


def script(game_row: StoredGame, rp: Replay) -> dict[str, Any]:
    """The game as a FORMATS.md §3 game script (what `dicestation score` plays)."""
    return {
        "game": game_row.game,
        "players": list(game_row.players),
        "options": game_row.options,
        "events": [e.to_json() for e in rp.rule_events],
    }
