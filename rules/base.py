"""What every game shares: state, rounds, what the game waits for, the API.

A game is a stateless object; its state is a frozen dataclass. `apply`
returns a new state and never changes the old one; `check` tells whether an
event would be accepted without applying it. Games override small hooks
(`initial`, `_apply`, `next`, `extra_json`) and never special-case the core.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from rules.errors import BadEvent, IllegalEvent
from rules.events import TABA_FACES, Event, EventType
from rules.ledger import Ledger, to_json_number
from rules.options import options_json, parse_options
from rules.text import Text, said

HOUSE = "house"

# The values each kind of die can show.
KIND_VALUES: Mapping[str, tuple[int | str, ...]] = {
    "d6": tuple(range(1, 7)),
    "d8": tuple(range(1, 9)),
    "d10": tuple(range(0, 10)),
    "d10t": tuple(range(0, 100, 10)),
    "taba": TABA_FACES,
}


@dataclass(frozen=True)
class RoundResult:
    """A decided (or void) round, with the reason the table page shows (a rules.text.Text)."""

    number: int
    winner: str | None
    reason: str
    throws: tuple[tuple[str, tuple[int | str, ...]], ...] = ()
    flags: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "winner": self.winner,
            **said("reason", self.reason),  # and its template: the page says it in its language
            "throws": [{"player": p, "dice": list(v)} for p, v in self.throws],
            "flags": list(self.flags),
        }


@dataclass(frozen=True)
class Next:
    """What the game waits for: a throw (whose, which dice) or a decision."""

    action: str  # "throw" or "decide"
    players: tuple[str, ...]  # who may act now, in any order
    dice: tuple[str, ...] = ()  # the kind of each die expected, e.g. ("d6", "d6", "d6")
    min_dice: int | None = None  # fewer dice allowed down to this (tabas left in hand)
    role: str | None = None  # e.g. "central": the house's red dice in Dados Centrales
    colour: str | None = None  # body colour the station maps to this throw, if any
    choices: tuple[str, ...] = ()  # event types that answer a decision
    note: str = ""  # e.g. "throw-off", "salvation", "bar"

    @property
    def player(self) -> str | None:
        return self.players[0] if len(self.players) == 1 else None

    def dice_text(self) -> str:
        if not self.dice:
            return ""
        kinds = list(dict.fromkeys(self.dice))
        if len(kinds) == 1:
            n = len(self.dice)
            if self.min_dice is not None and self.min_dice < n:
                return f"{self.min_dice}-{n} {kinds[0]}"
            return f"{n}{kinds[0]}" if n > 1 else kinds[0]
        return "+".join(self.dice)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "player": self.player,
            "players": list(self.players),
            "action": self.action,
        }
        if self.dice:
            out["dice"] = self.dice_text()
        for key in ("role", "colour"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.choices:
            out["choices"] = list(self.choices)
        if self.note:
            out["note"] = self.note
        return out


@dataclass(frozen=True)
class State:
    """Fields every game's state has; games subclass it with their own."""

    game: str
    players: tuple[str, ...]
    options: Any
    ledger: Ledger
    rounds: tuple[RoundResult, ...] = ()
    flags: tuple[str, ...] = ()
    finished: bool = False
    winner: str | None = None
    events: int = 0  # how many events have been applied


class Game(ABC):
    """One game of RULES.md. Subclasses set the class attributes and hooks."""

    id: ClassVar[str]
    title: ClassVar[str]
    Options: ClassVar[type]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int | None] = None
    has_house: ClassVar[bool] = False  # the house plays (as the player "house")
    pots: ClassVar[tuple[str, ...]] = ()

    # --- building a game -------------------------------------------------
    def new(self, players: Sequence[str], options: Mapping[str, Any] | None = None) -> State:
        """A new game; raises BadOption or IllegalEvent for bad set-up."""
        opts = parse_options(self.Options, options, self.id)
        if isinstance(players, str) or not isinstance(players, Sequence):
            raise IllegalEvent("players must be a list of names")
        names = tuple(players)
        for name in names:
            if not isinstance(name, str) or not name.strip():
                raise IllegalEvent(Text("a player's name must be a non-empty string, got {name}", name=repr(name)))
        if len(set(names)) != len(names):
            raise IllegalEvent(Text("two players have the same name"))
        if HOUSE in names:
            raise IllegalEvent(Text("'{house}' is the house, not a player's name", house=HOUSE))
        hi = self.max_players
        if len(names) < self.min_players or (hi is not None and len(names) > hi):
            if hi == self.min_players:
                span = Text("exactly {n}", n=hi)
            else:
                span = f"{self.min_players}-{hi}" if hi else Text("at least {n}", n=self.min_players)
            raise IllegalEvent(Text("{game} needs {span} players, got {n}", game=self.title, span=span, n=len(names)))
        return self.initial(names, opts)

    def open_ledger(self, players: tuple[str, ...]) -> Ledger:
        accounts = players + ((HOUSE,) if self.has_house else ())
        return Ledger.open(accounts, self.pots)

    @abstractmethod
    def initial(self, players: tuple[str, ...], options: Any) -> State:
        """The state before the first event."""

    # --- moving a game ---------------------------------------------------
    def check(self, state: State, event: Event) -> None:
        """Raise IllegalEvent (saying what was expected) if `event` can't be applied."""
        self.apply(state, event)

    def apply(self, state: State, event: Event) -> State:
        """The state after `event`; the old state is untouched."""
        if not isinstance(event, Event):
            raise BadEvent(f"not an event: {event!r}")
        actors = state.players + ((HOUSE,) if self.has_house else ())
        if event.player is not None and event.player not in actors:
            raise IllegalEvent(
                f"{event.player!r} is not playing (players: {', '.join(actors)})"
            )
        new = self._after_end(state, event) if state.finished else self._apply(state, event)
        return replace(new, events=state.events + 1)

    def _after_end(self, state: State, event: Event) -> State:
        """An event after the end: refused, unless a game allows a closing word (tip the hat)."""
        raise IllegalEvent(Text("the game is over: no more events"))

    @abstractmethod
    def _apply(self, state: State, event: Event) -> State:
        """Apply a well-formed event from a known actor, or raise IllegalEvent."""

    @abstractmethod
    def next(self, state: State) -> Next | None:
        """What the game waits for, or None when it is over."""

    # --- showing a game --------------------------------------------------
    def extra_json(self, state: State) -> dict[str, Any]:
        """Game-specific fields for the printed state."""
        return {}

    def to_json(self, state: State) -> dict[str, Any]:
        nxt = None if state.finished else self.next(state)
        wins = {p: 0 for p in state.players}
        for r in state.rounds:
            if r.winner in wins:
                wins[r.winner] += 1
        out = {
            "game": state.game,
            "players": list(state.players),
            "options": options_json(state.options),
            "finished": state.finished,
            "winner": state.winner,
            "round_winners": [r.winner for r in state.rounds],
            "round_wins": wins,
            "balances": {k: to_json_number(v) for k, v in state.ledger.balances().items()},
            "pots": {k: to_json_number(v) for k, v in state.ledger.pots().items()},
            "next": nxt.to_json() if nxt else None,
            "flags": list(state.flags),
            "rounds": [r.to_json() for r in state.rounds],
            "events": state.events,
        }
        out.update(self.extra_json(state))
        return out


def expect_throw(
    event: Event,
    kinds: Sequence[str],
    *,
    min_dice: int | None = None,
    who: str | None = None,
) -> tuple[int | str, ...]:
    """The values of a throw of the expected dice, or IllegalEvent saying what was expected.

    `kinds` is the kind of each expected die, in order (a throw's dice may
    come in any order when all kinds are equal). A die that names its kind
    must be of that kind.
    """
    if event.type is not EventType.THROW:
        raise IllegalEvent(f"expected a throw, got {event.type.value}")
    n = len(kinds)
    lo = n if min_dice is None else min_dice
    got = len(event.dice)
    expected = Next("throw", (), tuple(kinds), min_dice).dice_text()
    whose = f" from {who}" if who else ""
    if not lo <= got <= n:
        raise IllegalEvent(f"expected {expected}{whose}, got {got} dice")
    values = []
    for i, (die, kind) in enumerate(zip(event.dice, kinds, strict=False)):
        if die.kind is not None and die.kind != kind:
            raise IllegalEvent(f"expected {expected}{whose}: die {i + 1} is a {die.kind}")
        allowed = KIND_VALUES[kind]
        if die.value not in allowed or isinstance(die.value, bool):
            shown = (
                ", ".join(map(str, allowed)) if kind in ("taba", "d10t") else
                f"{allowed[0]}-{allowed[-1]}"
            )
            raise IllegalEvent(
                f"expected {expected}{whose}: die {i + 1} shows {die.value!r}, a {kind} shows {shown}"
            )
        values.append(die.value)
    return tuple(values)


def add_flags(state: State, *flags: str) -> tuple[str, ...]:
    return state.flags + tuple(f for f in flags if f not in state.flags)
