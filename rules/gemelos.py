"""Gemelos (RULES.md section 1): two d8 per player, twins change everything."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from rules.base import Game, Next, RoundResult, State, add_flags, expect_throw
from rules.errors import IllegalEvent
from rules.events import Event, EventType
from rules.options import option
from rules.text import Text

DICE = ("d8", "d8")
Throw = tuple[int, int]


@dataclass(frozen=True)
class GemelosOptions:
    wins_needed: int = option(3, "round wins needed to take the match (3: best of five)", min=1)
    stake: int = option(0, "chips every player puts on each round; its winner takes them", min=0)
    alternate_first: bool = option(False, "the first thrower moves one seat on each round")
    many_players: str = option(
        "beats_all",
        "[reading] with 3+ players: 'beats_all' = the throw that beats every other wins, "
        "a cycle is thrown again; 'most_beaten' = the throw that beats most others wins",
        choices=("beats_all", "most_beaten"),
    )


@dataclass(frozen=True)
class GemelosState(State):
    round_number: int = 1
    throws: tuple[tuple[str, Throw], ...] = ()  # this round's, in throwing order
    stakes: tuple[tuple[str, Fraction], ...] = ()  # stakes placed for this round
    first: int = 0  # seat index of this round's first thrower


def _pair(t: Throw) -> int | None:
    return t[0] if t[0] == t[1] else None


def _show(t: Throw) -> str:
    return f"{t[0]}+{t[1]}"


def compare(x: Throw, y: Throw) -> tuple[int, str]:
    """+1 if x wins, -1 if y wins, 0 if void; and why, in a few words."""
    px, py = _pair(x), _pair(y)
    if px is not None and py is not None:
        if px == py:
            return 0, Text("twins {a} against twins {b}: void", a=_show(x), b=_show(y))
        hi, lo = (x, y) if px > py else (y, x)
        return (1 if px > py else -1), Text("twins of {hi}s beat twins of {lo}s", hi=hi[0], lo=lo[0])
    if px is not None or py is not None:
        sign = 1 if py is not None else -1  # +1: x is the challenger of y's twins
        chal, twins = (x, y) if py is not None else (y, x)
        g = twins[0]
        if sum(chal) > sum(twins) and min(chal) > g:
            return sign, Text(
                "{chal} beats {g}+{g} twins: total {total} > {double} and both dice above {g}",
                chal=_show(chal), g=g, total=sum(chal), double=2 * g)
        if sum(chal) <= sum(twins):
            why = Text("total {total} is not above {double}", total=sum(chal), double=2 * g)
        else:
            why = Text("{chal} has a die at or below {g}", chal=_show(chal), g=g)
        return -sign, Text("{g}+{g} twins: {why}", g=g, why=why)
    if sum(x) != sum(y):
        hi, lo = (x, y) if sum(x) > sum(y) else (y, x)
        return (1 if sum(x) > sum(y) else -1), Text("{hi} beats {lo}", hi=sum(hi), lo=sum(lo))
    if max(x) != max(y):
        hi, lo = (x, y) if max(x) > max(y) else (y, x)
        return (1 if max(x) > max(y) else -1), Text(
            "equal totals {total}: {hi} has the higher die ({die})", total=sum(x), hi=_show(hi), die=max(hi))
    return 0, Text("{a} and {b} are identical: void", a=_show(x), b=_show(y))


class Gemelos(Game):
    id = "gemelos"
    title = "Gemelos"
    Options = GemelosOptions
    min_players = 2

    def initial(self, players: tuple[str, ...], options: GemelosOptions) -> GemelosState:
        return GemelosState(self.id, players, options, self.open_ledger(players))

    def _order(self, state: GemelosState) -> tuple[str, ...]:
        n = len(state.players)
        return tuple(state.players[(state.first + i) % n] for i in range(n))

    def next(self, state: GemelosState) -> Next | None:
        if state.finished:
            return None
        player = self._order(state)[len(state.throws)]
        return Next("throw", (player,), DICE, choices=("stake",))

    def _apply(self, state: GemelosState, event: Event) -> GemelosState:
        nxt = self.next(state)
        assert nxt is not None
        if event.type is EventType.STAKE:
            return self._stake(state, event)
        if event.type is EventType.END:
            return replace(state, finished=True, flags=add_flags(state, "ended"))
        if event.type is not EventType.THROW:
            raise IllegalEvent(f"Gemelos has no {event.type.value} event; expected a throw")
        if event.player != nxt.player:
            raise IllegalEvent(f"it is {nxt.player}'s throw, not {event.player}'s")
        a, b = expect_throw(event, DICE, who=event.player)
        throws = state.throws + ((event.player, (int(a), int(b))),)
        state = replace(state, throws=throws)
        if len(throws) < len(state.players):
            return state
        return self._close_round(state)

    def _stake(self, state: GemelosState, event: Event) -> GemelosState:
        thrown = {p for p, _ in state.throws}
        if event.player in thrown:
            raise IllegalEvent(Text("{player} has thrown this round: stakes go before the throw", player=event.player))
        assert event.amount is not None
        stakes = tuple((p, a) for p, a in state.stakes if p != event.player)
        return replace(state, stakes=stakes + ((event.player, event.amount),))

    def _winner(self, state: GemelosState) -> tuple[str | None, str]:
        throws = state.throws
        if len(throws) == 2:
            (pa, ta), (pb, tb) = throws
            sign, why = compare(ta, tb)
            return (pa if sign > 0 else pb if sign < 0 else None), why
        beaten = {p: [] for p, _ in throws}
        for i, (pa, ta) in enumerate(throws):
            for pb, tb in throws[i + 1 :]:
                sign, _ = compare(ta, tb)
                if sign > 0:
                    beaten[pa].append(pb)
                elif sign < 0:
                    beaten[pb].append(pa)
        others = len(throws) - 1
        if state.options.many_players == "beats_all":
            best = [p for p, b in beaten.items() if len(b) == others]
            if best:
                return best[0], Text("{throw} beats every other throw", throw=_show(dict(throws)[best[0]]))
            return None, Text("no throw beats every other: thrown again")
        top = max(len(b) for b in beaten.values())
        best = [p for p, b in beaten.items() if len(b) == top]
        if len(best) == 1 and top > 0:
            return best[0], Text("{throw} beats {top} of {others} throws",
                                 throw=_show(dict(throws)[best[0]]), top=top, others=others)
        return None, Text("no single throw beats the most others: thrown again")

    def _close_round(self, state: GemelosState) -> GemelosState:
        winner, why = self._winner(state)
        result = RoundResult(state.round_number, winner, why, tuple(state.throws))
        rounds = state.rounds + (result,)
        if winner is None:  # void: the same stakes stand for the throw again
            return replace(state, rounds=rounds, round_number=state.round_number + 1, throws=())
        ledger = state.ledger
        placed = dict(state.stakes)
        for p in state.players:
            if p != winner:
                ledger = ledger.transfer(p, winner, placed.get(p, state.options.stake))
        wins = sum(1 for r in rounds if r.winner == winner)
        n = len(state.players)
        first = (state.first + 1) % n if state.options.alternate_first else state.first
        state = replace(
            state,
            rounds=rounds,
            ledger=ledger,
            round_number=state.round_number + 1,
            throws=(),
            stakes=(),
            first=first,
        )
        if wins >= state.options.wins_needed:
            state = replace(state, finished=True, winner=winner)
        return state

    def extra_json(self, state: GemelosState) -> dict:
        return {
            "round": state.round_number,
            "current_throws": [{"player": p, "dice": list(t)} for p, t in state.throws],
        }
