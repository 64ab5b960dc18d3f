"""Red Man's Throw (RULES.md section 2; seeds 000 and 001): 3 d6 each, six rounds.

Two players throw three d6 in turn (A then B each round). The stronger throw
takes the round; an identical ranking is settled by a throw-off of one d6 each
(repeated on equal, no extra round entry). The game is six rounds and ends early
when a player can no longer be caught; 3-3 goes to round 7, the Salvation (one
d6 each, thrown at the same time). 6+6+6 is the red man: the game ends at once
and he wins every round, also the ones already played, and every stake.

Chips are never settled before the end: each decided round leaves an
obligation (shown as "pending"); the ledger moves them all when the game ends.
After a red man the loser may answer once with `tip_hat`, a closing word
recorded after the end.

Flags:
  red_man, red_man:X   X threw 6+6+6 and took the game
  salvation            the game went to round 7
  blessed:X            X won the Salvation
  tip_hat:X            X tipped the hat to the red man
  ended                the table ended the game with an `end` event
Round flags: throw_off, salvation, red_man, retroactive (a round the red man
took after it was played), predicted:X:right / predicted:X:wrong.

Predictions (option `predictions`) name what the bettor will throw; the
vocabulary is PREDICTION_CLASSES plus exact dice ([2, 3, 4]) and
{"pair": n} / {"trio": n}. They describe the dice themselves ("straight" is
any three in a row, 4-5-6 included). A red man takes the rival's stake of
every round as an ordinary win: predictions are void then.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from rules.base import Game, Next, RoundResult, State, add_flags, expect_throw
from rules.errors import IllegalEvent
from rules.events import Event, EventType, Prediction
from rules.ledger import to_json_number
from rules.options import option
from rules.red_man_rank import (  # noqa: F401  (PREDICTION_CLASSES, rank: the game's vocabulary)
    PREDICTION_CLASSES,
    Throw,
    check_prediction,
    compare,
    count_sixes,
    describe,
    prediction_holds,
    prediction_json,
    rank,
)
from rules.text import Text, said

DICE = ("d6", "d6", "d6")
ONE_DIE = ("d6",)
ROUNDS = 6
SALVATION_ROUND = ROUNDS + 1
RED_MAN_LINE = "Looks like I'm the red man"
TIP_HAT_LINE = "I tip my hat (to you)"

# Round phases.
ROUND, THROW_OFF, SALVATION = "round", "throw_off", "salvation"


@dataclass(frozen=True)
class RedMansThrowOptions:
    stake: int = option(
        0, "chips each player stakes on each round; the loser pays his to the winner "
        "(settled at the end of the game)", min=0,
    )
    predictions: bool = option(
        False, "prediction bets: before throwing a player may name what he will throw"
    )
    alternate_first: bool = option(
        False, "the first thrower alternates between rounds (seed examples: A first every round)"
    )
    early_end: bool = option(
        True, "end the game once a player cannot be caught (seed example 2 ends at 4-1); "
        "false: always play six rounds",
    )
    one_six_order: str = option(
        "straight_pair_total",
        "[reading] one-six throws: 'straight_pair_total' = 4+5+6, then a pair beside the six "
        "(higher pair wins), then the other two dice by total and then by the higher; "
        "'straight_total' = 4+5+6, then all the rest by total and higher die (pairs not special)",
        choices=("straight_pair_total", "straight_total"),
    )
    nothing_order: str = option(
        "total",
        "[reading] no six and no straight, trio or pair: 'total' = higher total, then higher "
        "dice from the top; 'high_card' = higher dice from the top (poker), total ignored",
        choices=("total", "high_card"),
    )
    prediction_settlement: str = option(
        "refund",
        "[reading] a prediction that was right but lost the round: 'refund' = the rival "
        "takes the stake and gives it back (bettor 0); 'keep_stake' = the rival keeps it "
        "(bettor -S). Always: right and won +2R, wrong and lost -2S, wrong and won +R",
        choices=("refund", "keep_stake"),
    )


# --- state ---------------------------------------------------------------------


@dataclass(frozen=True)
class Bet:
    """What one decided round owes: its stakes, predictions and the payment."""

    number: int
    winner: str
    loser: str
    stakes: tuple[tuple[str, Fraction], ...]
    predictions: tuple[tuple[str, Prediction, bool], ...] = ()  # (player, prediction, right)
    amount: Fraction = Fraction(0)  # the loser pays the winner this at the end
    why: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.number,
            "from": self.loser,
            "to": self.winner,
            "amount": to_json_number(self.amount),
            "why": self.why,
        }


@dataclass(frozen=True)
class RedMansThrowState(State):
    round_number: int = 1
    phase: str = ROUND
    throws: tuple[tuple[str, Throw], ...] = ()  # this round's three-dice throws
    offs: tuple[tuple[str, int], ...] = ()  # this attempt of a throw-off or Salvation
    equal_offs: tuple[tuple[tuple[str, int], ...], ...] = ()  # earlier equal attempts
    stakes: tuple[tuple[str, Fraction], ...] = ()  # set for this round
    predictions: tuple[tuple[str, Prediction], ...] = ()  # made for this round
    right: tuple[tuple[str, bool], ...] = ()  # predictions checked against the throw
    bets: tuple[Bet, ...] = ()  # one per decided round
    red_man: str | None = None
    hat_tipped: bool = False
    settled: bool = False


class RedMansThrow(Game):
    id = "red_mans_throw"
    title = "Red Man's Throw"
    Options = RedMansThrowOptions
    min_players = 2
    max_players = 2

    def initial(self, players: tuple[str, ...], options: RedMansThrowOptions) -> RedMansThrowState:
        return RedMansThrowState(self.id, players, options, self.open_ledger(players))

    # --- who acts --------------------------------------------------------------
    def _order(self, state: RedMansThrowState) -> tuple[str, ...]:
        a, b = state.players
        swap = state.options.alternate_first and state.round_number % 2 == 0
        return (b, a) if swap else (a, b)

    def next(self, state: RedMansThrowState) -> Next | None:
        if state.finished:
            return None
        if state.phase == SALVATION:
            thrown = {p for p, _ in state.offs}
            waiting = tuple(p for p in state.players if p not in thrown)
            return Next("throw", waiting, ONE_DIE, choices=("stake",), note="salvation")
        if state.phase == THROW_OFF:
            player = self._order(state)[len(state.offs)]
            return Next("throw", (player,), ONE_DIE, note="throw-off")
        player = self._order(state)[len(state.throws)]
        choices = ("stake", "predict") if state.options.predictions else ("stake",)
        return Next("throw", (player,), DICE, choices=choices)

    # --- moves -------------------------------------------------------------------
    def _apply(self, state: RedMansThrowState, event: Event) -> RedMansThrowState:
        if event.type is EventType.STAKE:
            return self._stake(state, event)
        if event.type is EventType.PREDICT:
            return self._predict(state, event)
        if event.type is EventType.END:
            return self._finish(replace(state, flags=add_flags(state, "ended")), self._leader(state))
        if event.type is EventType.TIP_HAT:
            raise IllegalEvent("tip_hat answers a red man after the game: the game is not over")
        if event.type is not EventType.THROW:
            raise IllegalEvent(
                f"Red Man's Throw has no {event.type.value} event; expected a throw, "
                "stake or predict"
            )
        nxt = self.next(state)
        assert nxt is not None
        if event.player not in nxt.players:
            whose = " or ".join(nxt.players)
            what = f" ({nxt.note})" if nxt.note else ""
            raise IllegalEvent(f"it is {whose}'s throw{what}, not {event.player}'s")
        if state.phase == ROUND:
            values = expect_throw(event, DICE, who=event.player)
            return self._round_throw(state, event.player, tuple(int(v) for v in values))
        (value,) = expect_throw(event, ONE_DIE, who=f"{event.player} ({nxt.note})")
        return self._one_die(state, event.player, int(value))

    def _not_thrown(self, state: RedMansThrowState, player: str, what: str) -> None:
        done = {p for p, _ in state.throws} | {p for p, _ in state.offs}
        if state.phase == THROW_OFF or player in done:
            raise IllegalEvent(Text("{player} has thrown this round: {what} go before the throw", player=player,
                                    what=Text(what)))

    def _stake(self, state: RedMansThrowState, event: Event) -> RedMansThrowState:
        assert event.player is not None
        if event.amount is None:
            raise IllegalEvent(Text("a stake needs an amount"))
        self._not_thrown(state, event.player, "stakes")
        stakes = tuple((p, a) for p, a in state.stakes if p != event.player)
        return replace(state, stakes=stakes + ((event.player, event.amount),))

    def _predict(self, state: RedMansThrowState, event: Event) -> RedMansThrowState:
        assert event.player is not None
        if not state.options.predictions:
            raise IllegalEvent(Text("prediction bets are off in this game (option 'predictions')"))
        if state.phase != ROUND:
            raise IllegalEvent(Text("no predictions in a {phase}: it is one die each",
                                    phase=Text(state.phase.replace("_", "-"))))
        self._not_thrown(state, event.player, "predictions")
        prediction = check_prediction(event.prediction)
        kept = tuple((p, x) for p, x in state.predictions if p != event.player)
        return replace(state, predictions=kept + ((event.player, prediction),))

    def _round_throw(self, state: RedMansThrowState, player: str, t: Throw) -> RedMansThrowState:
        said = dict(state.predictions)
        right = state.right
        if player in said:
            right = right + ((player, prediction_holds(said[player], t)),)
        state = replace(state, throws=state.throws + ((player, t),), right=right)
        if count_sixes(t) == 3:
            return self._red_man(state, player)
        if len(state.throws) < 2:
            return state
        (pa, ta), (pb, tb) = state.throws
        opts = state.options
        sign, why = compare(ta, tb, opts.one_six_order, opts.nothing_order)
        if sign == 0:
            return replace(state, phase=THROW_OFF)
        return self._close_round(state, pa if sign > 0 else pb, why)

    def _one_die(self, state: RedMansThrowState, player: str, value: int) -> RedMansThrowState:
        offs = state.offs + ((player, value),)
        if len(offs) < 2:
            return replace(state, offs=offs)
        (pa, va), (pb, vb) = offs
        if va == vb:  # equal: thrown again
            return replace(state, offs=(), equal_offs=state.equal_offs + (offs,))
        winner = pa if va > vb else pb
        hi, lo = max(va, vb), min(va, vb)
        if state.phase == SALVATION:
            why = Text("Salvation: {hi} beats {lo}; {player} is blessed", hi=hi, lo=lo, player=winner)
            return self._close_round(replace(state, offs=offs), winner, why)
        ta = state.throws[0][1]
        why = Text("identical ranking ({rank}): throw-off {hi} beats {lo}",
                   rank=describe(ta, state.options.one_six_order), hi=hi, lo=lo)
        return self._close_round(replace(state, offs=offs), winner, why)

    # --- rounds and the end ----------------------------------------------------------
    def _round_flags(self, state: RedMansThrowState) -> tuple[str, ...]:
        flags: tuple[str, ...] = ()
        if state.phase == THROW_OFF:
            flags += ("throw_off",)
        if state.phase == SALVATION:
            flags += ("salvation",)
        for p, ok in state.right:
            flags += (f"predicted:{p}:{'right' if ok else 'wrong'}",)
        return flags

    def _round_dice(self, state: RedMansThrowState) -> tuple[tuple[str, tuple[int, ...]], ...]:
        if state.phase == SALVATION:
            return tuple((p, (v,)) for p, v in state.offs)
        return tuple(state.throws)

    def _close_round(self, state: RedMansThrowState, winner: str, why: Text) -> RedMansThrowState:
        loser = next(p for p in state.players if p != winner)
        result = RoundResult(
            state.round_number, winner, why, self._round_dice(state), self._round_flags(state)
        )
        bet = self._bet(state, winner, loser)
        salvation = state.phase == SALVATION
        state = replace(
            state,
            rounds=state.rounds + (result,),
            bets=state.bets + (bet,),
            round_number=state.round_number + 1,
            phase=ROUND,
            throws=(),
            offs=(),
            equal_offs=(),
            stakes=(),
            predictions=(),
            right=(),
        )
        if salvation:
            flags = add_flags(state, f"blessed:{winner}")
            return self._finish(replace(state, flags=flags), winner)
        wins = self._wins(state)
        played = len(state.rounds)
        a, b = (wins[p] for p in state.players)
        if played >= ROUNDS or state.options.early_end:
            left = max(ROUNDS - played, 0)
            if abs(a - b) > left:
                return self._finish(state, state.players[0] if a > b else state.players[1])
        if played >= ROUNDS and a == b:
            return replace(
                state, phase=SALVATION, flags=add_flags(state, "salvation")
            )
        return state

    def _stake_of(self, state: RedMansThrowState, player: str) -> Fraction:
        return dict(state.stakes).get(player, Fraction(state.options.stake))

    def _bet(self, state: RedMansThrowState, winner: str, loser: str) -> Bet:
        base = self._stake_of(state, loser)
        said = dict(state.predictions)
        right = dict(state.right)
        times = 1
        notes = []
        if right.get(winner):
            times += 1
            notes.append(f"{winner} predicted right and won: double")
        elif winner in right:
            notes.append(f"{winner} predicted wrong but won")
        if loser in right:
            if right[loser]:
                if state.options.prediction_settlement == "refund":
                    times -= 1
                    notes.append(f"{loser} predicted right but lost: stake given back")
                else:
                    notes.append(f"{loser} predicted right but lost: stake kept")
            else:
                times += 1
                notes.append(f"{loser} predicted wrong and lost: double")
        why = "; ".join(notes) if notes else f"{loser}'s stake"
        return Bet(
            state.round_number,
            winner,
            loser,
            tuple((p, self._stake_of(state, p)) for p in state.players),
            tuple((p, said[p], ok) for p, ok in state.right),
            base * times,
            why,
        )

    def _red_man(self, state: RedMansThrowState, red: str) -> RedMansThrowState:
        """6+6+6: the game ends; he takes every round, played or not, and every stake."""
        loser = next(p for p in state.players if p != red)
        now = RoundResult(
            state.round_number, red, Text("6+6+6: the red man wins the game"),
            tuple(state.throws), ("red_man", *self._round_flags(state)),
        )
        rounds = tuple(
            RoundResult(
                r.number, red,
                Text("the red man takes it (played: {player} won, {reason})", player=r.winner, reason=r.reason)
                if r.winner != red else Text("the red man takes it ({reason})", reason=r.reason),
                r.throws, r.flags + ("retroactive",),
            )
            for r in state.rounds
        ) + (now,)
        bets = tuple(
            Bet(b.number, red, loser, b.stakes, b.predictions, dict(b.stakes)[loser],
                f"the red man takes {loser}'s stake")
            for b in state.bets
        ) + (
            Bet(state.round_number, red, loser,
                tuple((p, self._stake_of(state, p)) for p in state.players),
                (), self._stake_of(state, loser), f"the red man takes {loser}'s stake"),
        )
        state = replace(
            state, rounds=rounds, bets=bets, red_man=red,
            flags=add_flags(state, "red_man", f"red_man:{red}"),
        )
        return self._finish(state, red)

    def _finish(self, state: RedMansThrowState, winner: str | None) -> RedMansThrowState:
        """The end: every round's obligation is paid now, never before."""
        ledger = state.ledger
        for bet in state.bets:
            ledger = ledger.transfer(bet.loser, bet.winner, bet.amount)
        return replace(state, ledger=ledger, finished=True, winner=winner, settled=True)

    def _wins(self, state: RedMansThrowState) -> dict[str, int]:
        wins = {p: 0 for p in state.players}
        for r in state.rounds:
            if r.winner in wins:
                wins[r.winner] += 1
        return wins

    def _leader(self, state: RedMansThrowState) -> str | None:
        wins = self._wins(state)
        a, b = state.players
        return a if wins[a] > wins[b] else b if wins[b] > wins[a] else None

    def _after_end(self, state: RedMansThrowState, event: Event) -> RedMansThrowState:
        """After a red man, the loser may tip his hat, once; nothing else is accepted."""
        if event.type is not EventType.TIP_HAT:
            raise IllegalEvent(Text("the game is over: no more events"))
        if state.red_man is None:
            raise IllegalEvent(Text("the game is over with no red man: there is no hat to tip"))
        loser = next(p for p in state.players if p != state.red_man)
        if event.player != loser:
            raise IllegalEvent(Text("only {loser} tips the hat to the red man {red}", loser=loser, red=state.red_man))
        if state.hat_tipped:
            raise IllegalEvent(Text("{player} has already tipped the hat", player=loser))
        return replace(state, hat_tipped=True, flags=add_flags(state, f"tip_hat:{loser}"))

    # --- showing --------------------------------------------------------------------
    def extra_json(self, state: RedMansThrowState) -> dict[str, Any]:
        opts = state.options
        loser = (
            next(p for p in state.players if p != state.red_man) if state.red_man else None
        )
        blessed = next((f.split(":", 1)[1] for f in state.flags if f.startswith("blessed:")), None)
        return {
            "round": state.rounds[-1].number if state.finished and state.rounds
            else state.round_number,
            "phase": "over" if state.finished else state.phase,
            "first_thrower": self._order(state)[0],
            "current_throws": [
                {"player": p, "dice": list(t), **said("rank", describe(t, opts.one_six_order))}
                for p, t in state.throws
            ],
            "one_die": [{"player": p, "die": v} for p, v in state.offs],
            "stakes": {p: to_json_number(self._stake_of(state, p)) for p in state.players},
            "predictions": {p: prediction_json(x) for p, x in state.predictions},
            "pending": [] if state.settled else [b.to_json() for b in state.bets],
            "settled": [b.to_json() for b in state.bets] if state.settled else [],
            "red_man": state.red_man,
            "red_man_says": RED_MAN_LINE if state.red_man else None,
            "tip_hat_by": loser,
            "tip_hat_says": TIP_HAT_LINE if state.hat_tipped else None,
            "hat_tipped": state.hat_tipped,
            "blessed": blessed,
        }
