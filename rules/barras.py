"""Barras (RULES.md section 3, seed 000 "Dados, tercera parte"): beat the house's bar.

Every throw is a percentile pair `[tens, units]` (a `d10t` showing 0, 10, ..., 90 and
a `d10` showing 0-9), read as tens + units: `[80, 6]` reads 86. `[0, 0]` (triple
zero) reads 0 for the house and 100 for a player.

A round, and what `next()` says at each step:

1. the house throws the bar: `Next("throw", ("house",), ("d10t", "d10"), note="bar")`;
2. every player who still has chips decides, in any order: `join` (with `stake` or
   `amount`; without one the `default_stake` option is used) or `sit_out`; a `stake`
   event is the same as a join. `Next("decide", undecided, choices=("join", "sit_out",
   "stake"), note="stakes")`. A stake moves at once from the player to the pot
   `stakes`, so a player's chips (`chips` option + balance) always show what is left;
3. the players who joined throw, in any order (`Next.players` = those who have not
   thrown yet); a tie for the highest throw above the bar is thrown off between the
   tied players (`note="throw-off"`, option `highest_tie`).

Settlement: nobody joins: every player pays `no_play_fee` to the house (at most the
chips they have). One player: against the house, who pays `house_pays` x stake on a
win and keeps the stake otherwise. Two or more: the highest throw above the bar
takes every stake of the round; nobody above the bar: the house keeps them all.

Round winners (`round_winners`): the winning player; `"house"` when the house keeps
the stakes; `null` when nobody played or (option `highest_tie="split"`) the stakes
were shared. A player with no chips left is out and is not asked to join. The game
ends when at most one player has chips, or on an `end` event (stakes of an unfinished
round go back to their players); the winner is the player with the most chips,
`null` on a tie for most.

Flags: `triple_zero:A` (a player threw 00+0, read 100), `house_zero` (the bar was
00+0, read 0), `out:A` (A has no chips left), `ended` (the table ended the game).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from rules.base import HOUSE, Game, Next, RoundResult, State, add_flags, expect_throw
from rules.errors import IllegalEvent
from rules.events import Event, EventType
from rules.ledger import Ledger, amount, to_json_number
from rules.options import option
from rules.text import Text, names

DICE = ("d10t", "d10")
POT = "pot:stakes"
DECISIONS = (EventType.JOIN, EventType.SIT_OUT, EventType.STAKE)
Throw = tuple[int, int]


@dataclass(frozen=True)
class BarrasOptions:
    chips: int = option(
        100, "starting chips per player; a player's chips are these plus their balance", min=1
    )
    house_pays: float = option(
        1.0, "one player against the house: the house pays this times the stake on a win", min=0
    )
    no_play_fee: int = option(
        0, "nobody plays a round: every player pays the house this (at most their chips)", min=0
    )
    default_stake: int = option(1, "the stake of a join that names no amount", min=1)
    over_stake: str = option(
        "refuse",
        "a stake above the player's chips: 'all_in' = the player stakes all the chips they "
        "have; 'refuse' = the join is refused (IllegalEvent)",
        choices=("all_in", "refuse"),
    )
    highest_tie: str = option(
        "throw_off",
        "[reading] a tie for the highest throw above the bar: 'throw_off' = the tied players "
        "throw again between themselves for the stakes; 'split' = they share the stakes",
        choices=("throw_off", "split"),
    )


@dataclass(frozen=True)
class BarrasState(State):
    round_number: int = 1
    bar: Throw | None = None  # the house's throw this round; None: not thrown yet
    seated: tuple[str, ...] = ()  # players with chips when the bar was thrown: they decide
    decisions: tuple[tuple[str, Fraction | None], ...] = ()  # stake, or None: sat out
    throws: tuple[tuple[str, Throw], ...] = ()  # this round's player throws
    throw_off: tuple[str, ...] = ()  # players throwing off for the highest throw
    off_throws: tuple[tuple[str, Throw], ...] = ()  # the current throw-off's throws


def reading(throw: Throw, house: bool = False) -> int:
    """The value of a throw: tens + units; 00+0 is 0 for the house, 100 for a player."""
    tens, units = throw
    if tens == 0 and units == 0:
        return 0 if house else 100
    return tens + units


def _chips_text(value: Fraction) -> str:
    return str(to_json_number(value))


class Barras(Game):
    id = "barras"
    title = "Barras"
    Options = BarrasOptions
    min_players = 2
    has_house = True
    pots = ("stakes",)

    def initial(self, players: tuple[str, ...], options: BarrasOptions) -> BarrasState:
        return BarrasState(self.id, players, options, self.open_ledger(players))

    # --- chips ------------------------------------------------------------
    def chips(self, state: BarrasState, player: str) -> Fraction:
        """What a player has left to stake: starting chips plus balance."""
        return state.options.chips + state.ledger.balance(player)

    def _in_play(self, state: BarrasState) -> tuple[str, ...]:
        return tuple(p for p in state.players if self.chips(state, p) > 0)

    # --- what the game waits for ------------------------------------------
    def next(self, state: BarrasState) -> Next | None:
        if state.finished:
            return None
        if state.bar is None:
            return Next("throw", (HOUSE,), DICE, note="bar")
        decided = {p for p, _ in state.decisions}
        undecided = tuple(p for p in state.seated if p not in decided)
        if undecided:
            return Next("decide", undecided, choices=tuple(t.value for t in DECISIONS),
                        note="stakes")
        if state.throw_off:
            thrown = {p for p, _ in state.off_throws}
            waiting = tuple(p for p in state.throw_off if p not in thrown)
            return Next("throw", waiting, DICE, note="throw-off")
        thrown = {p for p, _ in state.throws}
        joined = {p for p, s in state.decisions if s is not None}
        waiting = tuple(p for p in state.seated if p in joined and p not in thrown)
        return Next("throw", waiting, DICE)

    # --- moving -------------------------------------------------------------
    def _apply(self, state: BarrasState, event: Event) -> BarrasState:
        if event.type is EventType.END:
            return self._end(state)
        nxt = self.next(state)
        assert nxt is not None
        if nxt.note == "bar":
            if event.type is not EventType.THROW or event.player != HOUSE:
                raise IllegalEvent("the bar has not been thrown: expected a throw from house")
            bar = self._throw_values(event, HOUSE)
            flags = add_flags(state, "house_zero") if bar == (0, 0) else state.flags
            return replace(state, bar=bar, seated=self._in_play(state), flags=flags)
        if nxt.action == "decide":
            return self._decide(state, event, nxt)
        return self._throw(state, event, nxt)

    def _throw_values(self, event: Event, who: str) -> Throw:
        dice = event.dice
        # A read may list the units die first; its kinds say which is which.
        if len(dice) == 2 and dice[0].kind == "d10" and dice[1].kind == "d10t":
            event = replace(event, dice=(dice[1], dice[0]))
        tens, units = expect_throw(event, DICE, who=who)
        return int(tens), int(units)

    def _decide(self, state: BarrasState, event: Event, nxt: Next) -> BarrasState:
        waiting = names(nxt.players)
        if event.type not in DECISIONS:
            if event.type is EventType.THROW and event.player == HOUSE:
                raise IllegalEvent(f"the bar is thrown: waiting for join or sit_out from {waiting}")
            if event.type is EventType.THROW:
                raise IllegalEvent(
                    f"players throw after every player has decided: waiting for join or "
                    f"sit_out from {waiting}"
                )
            raise IllegalEvent(
                f"Barras has no {event.type.value} event here: expected join or sit_out "
                f"from {waiting}"
            )
        player = event.player
        if player == HOUSE:
            raise IllegalEvent(Text("the house does not join: its throw is the bar"))
        if player not in nxt.players:
            if player in {p for p, _ in state.decisions}:
                raise IllegalEvent(Text("{player} has already decided this round", player=player))
            raise IllegalEvent(Text("{player} has no chips left and is out of the game", player=player))
        if event.type is EventType.SIT_OUT:
            if event.amount is not None:
                raise IllegalEvent(Text("a sit_out carries no stake"))
            state = replace(state, decisions=state.decisions + ((player, None),))
        else:
            stake = event.amount if event.amount is not None else amount(state.options.default_stake)
            if stake <= 0:
                raise IllegalEvent(Text("{player}'s stake must be more than 0 chips", player=player))
            have = self.chips(state, player)
            if stake > have:
                if state.options.over_stake == "refuse":
                    raise IllegalEvent(Text("{player} has only {have} chips: cannot stake {stake}",
                                            player=player, have=_chips_text(have), stake=_chips_text(stake)))
                stake = have
            state = replace(
                state,
                ledger=state.ledger.transfer(player, POT, stake),
                decisions=state.decisions + ((player, stake),),
            )
        if len(state.decisions) < len(state.seated):
            return state
        if all(s is None for _, s in state.decisions):
            return self._nobody_plays(state)
        return state

    def _throw(self, state: BarrasState, event: Event, nxt: Next) -> BarrasState:
        waiting = names(nxt.players)
        if event.type is not EventType.THROW:
            raise IllegalEvent(
                f"the stakes are placed: expected a throw from {waiting}, not a {event.type.value}"
            )
        if event.player not in nxt.players:
            if event.player == HOUSE:
                raise IllegalEvent(f"the bar is already thrown: waiting for a throw from {waiting}")
            raise IllegalEvent(f"it is {waiting}'s throw, not {event.player}'s")
        throw = self._throw_values(event, event.player)
        flags = state.flags
        if reading(throw) == 100:
            flags = add_flags(state, f"triple_zero:{event.player}")
        state = replace(state, flags=flags)
        if state.throw_off:
            state = replace(state, off_throws=state.off_throws + ((event.player, throw),))
            if len(state.off_throws) < len(state.throw_off):
                return state
            return self._settle_throw_off(state)
        state = replace(state, throws=state.throws + ((event.player, throw),))
        if len(state.throws) < sum(1 for _, s in state.decisions if s is not None):
            return state
        return self._settle(state)

    # --- settling a round ---------------------------------------------------
    def _settle(self, state: BarrasState) -> BarrasState:
        assert state.bar is not None
        bar = reading(state.bar, True)
        stakes = {p: s for p, s in state.decisions if s is not None}
        values = {p: reading(t) for p, t in state.throws}
        ledger = state.ledger
        if len(stakes) == 1:
            (player, stake), = stakes.items()
            if values[player] > bar:
                win = stake * amount(state.options.house_pays)
                ledger = ledger.transfer(POT, player, stake).transfer(HOUSE, player, win)
                why = Text("{player}'s {value} beats the bar {bar}: the house pays {chips}",
                           player=player, value=values[player], bar=bar, chips=_chips_text(win))
                return self._close(state, ledger, player, why)
            ledger = ledger.transfer(POT, HOUSE, stake)
            why = Text("{player}'s {value} does not beat the bar {bar}: the house keeps the stake",
                       player=player, value=values[player], bar=bar)
            return self._close(state, ledger, HOUSE, why)
        above = {p: v for p, v in values.items() if v > bar}
        if not above:
            ledger = ledger.transfer(POT, HOUSE, ledger.pot("stakes"))
            shown = ", ".join(f"{p} {v}" for p, v in values.items())
            why = Text("nobody beats the bar {bar} ({shown}): the house keeps every stake", bar=bar, shown=shown)
            return self._close(state, ledger, HOUSE, why)
        top = max(above.values())
        best = tuple(p for p in state.players if above.get(p) == top)
        if len(best) == 1:
            why = Text("{player}'s {value} is the highest above the bar {bar}", player=best[0], value=top, bar=bar)
            return self._take_all(state, best[0], why)
        if state.options.highest_tie == "split":
            share = ledger.pot("stakes") / len(best)
            for p in best:
                ledger = ledger.transfer(POT, p, share)
            why = Text("{players} tie at {value} above the bar {bar}: they share the stakes",
                       players=names(best), value=top, bar=bar)
            return self._close(state, ledger, None, why)
        return replace(state, throw_off=best, off_throws=())

    def _settle_throw_off(self, state: BarrasState) -> BarrasState:
        values = {p: reading(t) for p, t in state.off_throws}
        top = max(values.values())
        best = tuple(p for p in state.throw_off if values[p] == top)
        if len(best) > 1:
            return replace(state, throw_off=best, off_throws=())
        tied_at = max(reading(t) for p, t in state.throws if p in state.throw_off)
        shown = ", ".join(f"{p} {v}" for p, v in values.items())
        return self._take_all(
            state, best[0], Text("tie at {value} above the bar: throw-off won by {player} ({shown})",
                                 value=tied_at, player=best[0], shown=shown)
        )

    def _take_all(self, state: BarrasState, winner: str, why: Text) -> BarrasState:
        ledger = state.ledger.transfer(POT, winner, state.ledger.pot("stakes"))
        return self._close(state, ledger, winner, Text("{why}: takes every stake of the round", why=why))

    def _nobody_plays(self, state: BarrasState) -> BarrasState:
        ledger = state.ledger
        fee = amount(state.options.no_play_fee)
        for p in state.seated:
            ledger = ledger.transfer(p, HOUSE, min(fee, self.chips(state, p)))
        assert state.bar is not None
        why = Text("nobody plays against the bar {bar}", bar=reading(state.bar, True))
        if fee:
            why = Text("nobody plays against the bar {bar}: every player pays {chips} to the house",
                       bar=reading(state.bar, True), chips=_chips_text(fee))
        return self._close(state, ledger, None, why)

    def _close(self, state: BarrasState, ledger: Ledger, winner: str | None, why: str) -> BarrasState:
        assert state.bar is not None
        throws = ((HOUSE, state.bar),) + state.throws + state.off_throws
        result = RoundResult(state.round_number, winner, why, throws)
        state = replace(
            state,
            ledger=ledger,
            rounds=state.rounds + (result,),
            round_number=state.round_number + 1,
            bar=None,
            seated=(),
            decisions=(),
            throws=(),
            throw_off=(),
            off_throws=(),
        )
        out = [f"out:{p}" for p in state.players if self.chips(state, p) <= 0]
        state = replace(state, flags=add_flags(state, *out))
        if len(self._in_play(state)) <= 1:
            return self._finish(state)
        return state

    def _end(self, state: BarrasState) -> BarrasState:
        """The table ends the game: stakes of an unfinished round go back to their players."""
        ledger = state.ledger
        for p, s in state.decisions:
            if s is not None:
                ledger = ledger.transfer(POT, p, s)
        state = replace(
            state, ledger=ledger, bar=None, seated=(), decisions=(), throws=(),
            throw_off=(), off_throws=(), flags=add_flags(state, "ended"),
        )
        return self._finish(state)

    def _finish(self, state: BarrasState) -> BarrasState:
        chips = {p: self.chips(state, p) for p in state.players}
        top = max(chips.values())
        best = [p for p, c in chips.items() if c == top]
        return replace(state, finished=True, winner=best[0] if len(best) == 1 else None)

    # --- showing --------------------------------------------------------------
    def extra_json(self, state: BarrasState) -> dict[str, Any]:
        bar = None
        if state.bar is not None:
            bar = {"dice": list(state.bar), "value": reading(state.bar, True)}
        return {
            "round": state.round_number,
            "bar": bar,
            "chips": {p: to_json_number(self.chips(state, p)) for p in state.players},
            "out": [p for p in state.players if self.chips(state, p) <= 0],
            "decisions": {
                p: ("sit_out" if s is None else to_json_number(s)) for p, s in state.decisions
            },
            "current_throws": [
                {"player": p, "dice": list(t), "value": reading(t)} for p, t in state.throws
            ],
            "throw_off": list(state.throw_off),
            "throw_off_throws": [
                {"player": p, "dice": list(t), "value": reading(t)} for p, t in state.off_throws
            ],
        }
