"""El Rey y el Mendigo (RULES.md section 5, seed 003): five tabas, Reyes, Mendigos, Chicos.

A **hand** is the seed's game: everyone pays the ante into the pot, players
take turns in seat order, and the first to `goal` Reyes or `goal` Chicos
triggers the end; the round of turns is finished, and the one player at the
goal takes the pot (several: tie-break rounds). Without `elimination` the
game is one hand; with it, hands follow each other until one player has chips.

A turn: the player throws the tabas in hand (5 at the start of the turn; the
station sees only those caught in the catching step, so a throw may hold
fewer, even none: a player who drops them all ends the turn). In one throw:

- 3+ Picos or 3+ Hoyos: one Chico (`chico_pairs`: 2+ of a face; at most one
  Chico a throw unless `pair_chicos` is "per_face").
- each Rey scores one Rey and is set aside;
- each Mendigo is set aside and asks a decision: `pay_parte` (the parte into
  the pot) or `withdraw` (out of the hand: no more turns, the ante and partes
  paid stay in the pot, Reyes and Chicos no longer count). With several
  Mendigos, one decision each; a withdrawal ends them.
- the player throws again with the tabas left (those thrown minus those set
  aside) while the throw showed a Rey or a Mendigo (`chico_rethrows`: or a
  Chico; the Chico's tabas stay in hand); the turn ends when no tabas are left
  or a throw shows none of these.

Choices of this module where the seed is silent (documented, some options):

- The last player left in a hand (every other withdrew) takes the pot at once.
- "Reaching the goal" counts at the end of the round: a player at the goal who
  later falls below it (no_stakes "costs_rey") is no longer a candidate; 4
  Reyes against 3 is still a tie (RULES.md: "several at 3+").
- Tie-break rounds: each tied player takes one turn, in seat order; the gain
  is the Reyes plus Chicos of that turn (minus Reyes lost). The single highest
  gain wins; otherwise `tiebreak` says who goes on ("top": those tied at the
  top; "all": every tied player).
- `round_winners` has one entry per **hand** (the unit that is decided and
  pays the pot). Rounds of turns that decide nothing and tie-break rounds add
  no entry, like throw-offs.
- With `elimination`, a player who cannot pay the ante at the start of a hand
  is out, the first thrower moves one seat each hand, and each player out
  raises the ante by `raise_per_out` (the parte grows in the same proportion).
  A player with fewer chips than the parte can only withdraw on a Mendigo.

Flags: `chico:A` (A made a Chico), `rey_goal:A` / `chico_goal:A` (A reached
the goal in Reyes / Chicos: the page's "third Rey"), `withdrew:B`,
`tiebreak` (a hand went to tie-break rounds), `last_standing:A` (A won a hand
because every other player withdrew), `rey_lost:A` (no_stakes "costs_rey"),
`out:B` (elimination), `ended` (the table ended the game).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from typing import Any

from rules.base import Game, Next, RoundResult, State, add_flags, expect_throw
from rules.errors import BadOption, IllegalEvent
from rules.events import Event, EventType
from rules.options import option
from rules.text import Text

TABAS = 5
POT = "pot"
DICE_KINDS = ("taba", "d8", "d10", "d6")


class Role(Enum):
    MENDIGO = "mendigo"
    REY = "rey"
    PICO = "pico"
    HOYO = "hoyo"


TABA_ROLES: Mapping[str, Role] = {
    "liso": Role.MENDIGO,
    "carnero": Role.REY,
    "tripas": Role.PICO,
    "hoyo": Role.HOYO,
}
# The face that is the Rey on each die; 1 is always the Mendigo.
REY_VALUE: Mapping[str, int] = {"d8": 8, "d10": 0, "d6": 6}


def role_of(kind: str, value: int | str) -> Role:
    """The role of one taba or die: d8/d10/d6 1 Mendigo, top face Rey (d10: 0), even Pico, odd Hoyo."""
    if kind == "taba":
        return TABA_ROLES[str(value)]
    value = int(value)
    if value == REY_VALUE[kind]:
        return Role.REY
    if value == 1:
        return Role.MENDIGO
    return Role.PICO if value % 2 == 0 else Role.HOYO


@dataclass(frozen=True)
class ThrowReading:
    """What one throw is worth."""

    reyes: int
    mendigos: int
    chicos: int
    roles: tuple[Role, ...]


def read_throw(
    roles: tuple[Role, ...], *, pairs: bool = False, per_face: bool = False
) -> ThrowReading:
    """Count Reyes, Mendigos and Chicos (3+ Picos or Hoyos; with `pairs` 2+)."""
    need = 2 if pairs else 3
    faces = sum(1 for face in (Role.PICO, Role.HOYO) if roles.count(face) >= need)
    chicos = faces if per_face else min(faces, 1)
    return ThrowReading(roles.count(Role.REY), roles.count(Role.MENDIGO), chicos, roles)


@dataclass(frozen=True)
class ReyOptions:
    ante: int = option(3, "chips every player puts in the pot at the start of a hand", min=0)
    parte: int = option(1, "chips paid into the pot for each Mendigo (seed: 1/2 or 1/3 of the ante)", min=0)
    dice: str = option(
        "taba",
        "what is thrown: 'taba' (liso Mendigo, carnero Rey, tripas Pico, hoyo Hoyo) or 5 dice: "
        "'d8' (1 Mendigo, 8 Rey, even Pico, odd Hoyo), 'd10' (1 Mendigo, 0 Rey), 'd6' (1 Mendigo, 6 Rey)",
        choices=DICE_KINDS,
    )
    goal: int = option(3, "Reyes or Chicos that trigger the end of a hand", min=1)
    chico_rethrows: bool = option(False, "a Chico also lets the player throw again (tabas left)")
    chico_pairs: bool = option(False, "Chicos from pairs (2+ Picos or 2+ Hoyos) instead of trios")
    pair_chicos: str = option(
        "one",
        "[reading] with chico_pairs, a throw with a pair of Picos and a pair of Hoyos: 'one' Chico "
        "(at most one a throw, as with trios) or 'per_face' (two)",
        choices=("one", "per_face"),
    )
    long_game: bool = option(False, "long game: the goal's Reyes or Chicos must come in one turn")
    no_stakes: bool = option(False, "play for fun: no ante, no partes, a Mendigo asks no decision")
    no_stakes_mendigo: str = option(
        "rethrow",
        "[reading] with no_stakes, a Mendigo 'rethrow's (only lets the player throw again) or "
        "'costs_rey' (also takes away one Rey, if the player has one)",
        choices=("rethrow", "costs_rey"),
    )
    tiebreak: str = option(
        "top",
        "[reading] a tie-break round that leaves a tie: 'top' = only those tied at the top go on, "
        "'all' = every tied player goes on",
        choices=("top", "all"),
    )
    elimination: bool = option(
        False, "elimination with chips: hands follow each other until one player has chips"
    )
    chips: int = option(40, "with elimination: each player's chips at the start (seed: 30-50)", min=1)
    raise_per_out: int = option(
        0, "with elimination: the ante grows by this much for each player out (parte in proportion)",
        min=0,
    )


Tally = tuple[tuple[str, int], ...]


def _bump(tally: Tally, player: str, delta: int) -> Tally:
    return tuple((p, max(0, n + delta) if p == player else n) for p, n in tally)


@dataclass(frozen=True)
class ReyState(State):
    hand: int = 1
    first: int = 0  # seat of the hand's first thrower
    round_number: int = 1  # round of turns within the hand (tie-break rounds included)
    active: tuple[str, ...] = ()  # still in the hand (not withdrawn, not out)
    out: tuple[str, ...] = ()  # eliminated (elimination)
    to_play: tuple[str, ...] = ()  # this round's players still to take a turn; [0] is on turn
    in_hand: int = TABAS  # tabas the player on turn holds
    pending: int = 0  # Mendigos still to decide on
    reyes: Tally = ()
    chicos: Tally = ()
    turn_reyes: int = 0  # net Reyes of the turn on
    turn_chicos: int = 0
    long_hits: tuple[str, ...] = ()  # long game: reached the goal in one turn this hand
    tiebreak: tuple[str, ...] = ()  # players in tie-break rounds (empty: none)
    gains: Tally = ()  # this tie-break round's gains
    hand_throws: tuple[tuple[str, tuple[int | str, ...]], ...] = ()
    last_throw: tuple[tuple[str, Any], ...] = ()  # for the table page


class ReyYMendigo(Game):
    id = "rey_y_mendigo"
    title = "El Rey y el Mendigo"
    Options = ReyOptions
    min_players = 2
    pots = (POT,)

    # --- set-up ------------------------------------------------------------
    def initial(self, players: tuple[str, ...], options: ReyOptions) -> ReyState:
        if options.elimination and options.no_stakes:
            raise BadOption(Text("option 'elimination' plays for chips: it cannot go with 'no_stakes'"))
        if options.elimination and options.chips < options.ante:
            raise BadOption(Text("option 'chips' ({chips}) must cover the ante ({ante})", chips=options.chips,
                                 ante=options.ante))
        state = ReyState(self.id, players, options, self.open_ledger(players))
        return self._start_hand(state, first=0)

    def _stakes(self, state: ReyState) -> tuple[Fraction, Fraction]:
        """The ante and the parte now (elimination raises them)."""
        opts = state.options
        if opts.no_stakes:
            return Fraction(0), Fraction(0)
        ante, parte = Fraction(opts.ante), Fraction(opts.parte)
        raised = opts.raise_per_out * len(state.out) if opts.elimination else 0
        if raised:
            parte = parte * (ante + raised) / ante if ante else parte
            ante += raised
        return ante, parte

    def chips_left(self, state: ReyState, player: str) -> Fraction | None:
        if not state.options.elimination:
            return None
        return state.options.chips + state.ledger.balance(player)

    def _can_ante(self, state: ReyState, player: str, ante: Fraction) -> bool:
        left = self.chips_left(state, player)
        return left is not None and left > 0 and left >= ante

    def _seat_order(self, state: ReyState, among: tuple[str, ...]) -> tuple[str, ...]:
        n = len(state.players)
        seats = (state.players[(state.first + i) % n] for i in range(n))
        return tuple(p for p in seats if p in among)

    def _start_hand(self, state: ReyState, first: int) -> ReyState:
        state = replace(state, first=first)
        ante, _ = self._stakes(state)
        ledger = state.ledger
        active = self._seat_order(state, tuple(p for p in state.players if p not in state.out))
        for p in active:
            ledger = ledger.transfer(p, "pot:" + POT, ante)
        zero = tuple((p, 0) for p in state.players)
        return replace(
            state,
            ledger=ledger,
            round_number=1,
            active=active,
            to_play=active,
            in_hand=TABAS,
            pending=0,
            reyes=zero,
            chicos=zero,
            turn_reyes=0,
            turn_chicos=0,
            long_hits=(),
            tiebreak=(),
            gains=(),
            hand_throws=(),
        )

    # --- what the game waits for -------------------------------------------
    def next(self, state: ReyState) -> Next | None:
        if state.finished:
            return None
        player = state.to_play[0]
        note = "tie-break" if state.tiebreak else ""
        if state.pending:
            _, parte = self._stakes(state)
            left = self.chips_left(state, player)
            choices = ("withdraw",) if left is not None and left < parte else ("pay_parte", "withdraw")
            return Next("decide", (player,), choices=choices, note=note or "mendigo")
        kinds = (state.options.dice,) * state.in_hand
        return Next("throw", (player,), kinds, min_dice=1, note=note)

    # --- moving ------------------------------------------------------------
    def _apply(self, state: ReyState, event: Event) -> ReyState:
        if event.type is EventType.END:
            return replace(state, finished=True, flags=add_flags(state, "ended"))
        nxt = self.next(state)
        assert nxt is not None
        player = nxt.players[0]
        if event.type in (EventType.PAY_PARTE, EventType.WITHDRAW):
            if not state.pending:
                raise IllegalEvent(
                    f"no Mendigo to decide on: expected a throw from {player}, not {event.type.value}"
                )
            if event.player != player:
                raise IllegalEvent(Text("it is {player}'s Mendigo to decide on, not {other}'s", player=player,
                                        other=event.player))
            if event.type is EventType.WITHDRAW:
                return self._withdraw(state, player)
            return self._pay_parte(state, player)
        if event.type is not EventType.THROW:
            raise IllegalEvent(f"El Rey y el Mendigo has no {event.type.value} event; expected {self._expected(nxt)}")
        if state.pending:
            raise IllegalEvent(
                f"{player} must decide on a Mendigo first: pay_parte or withdraw, not a throw"
            )
        if event.player != player:
            raise IllegalEvent(f"it is {player}'s throw, not {event.player}'s")
        if len(event.dice) > state.in_hand:
            noun = "taba" if state.options.dice == "taba" else state.options.dice
            raise IllegalEvent(
                f"{player} holds {state.in_hand} {noun}{'s' if state.in_hand != 1 else ''}, "
                f"{len(event.dice)} were thrown"
            )
        if not event.dice:  # caught none in the catching step: the turn ends
            return self._end_turn(replace(state, last_throw=(("player", player), ("dice", ()))))
        values = expect_throw(event, nxt.dice[: len(event.dice)], who=player)
        return self._throw(state, player, values)

    def _expected(self, nxt: Next) -> str:
        if nxt.action == "decide":
            return f"{' or '.join(nxt.choices)} from {nxt.players[0]}"
        return f"a throw from {nxt.players[0]}"

    def _throw(self, state: ReyState, player: str, values: tuple[int | str, ...]) -> ReyState:
        opts = state.options
        roles = tuple(role_of(opts.dice, v) for v in values)
        got = read_throw(roles, pairs=opts.chico_pairs, per_face=opts.pair_chicos == "per_face")
        before = self._count(state, player)
        reyes = _bump(state.reyes, player, got.reyes)
        turn_reyes = state.turn_reyes + got.reyes
        lost = 0
        if opts.no_stakes and opts.no_stakes_mendigo == "costs_rey" and got.mendigos:
            have = turn_reyes if opts.long_game else dict(reyes)[player]
            lost = min(have, got.mendigos)
            reyes = _bump(reyes, player, -lost)
            turn_reyes -= lost
        state = replace(
            state,
            reyes=reyes,
            chicos=_bump(state.chicos, player, got.chicos),
            turn_reyes=turn_reyes,
            turn_chicos=state.turn_chicos + got.chicos,
            in_hand=len(values) - got.reyes - got.mendigos,
            hand_throws=state.hand_throws + ((player, values),),
        )
        now = self._count(state, player)
        goal = opts.goal
        rey_goal = before[0] < goal <= now[0]
        chico_goal = before[1] < goal <= now[1]
        new_flags = [
            flag
            for flag, on in (
                (f"chico:{player}", got.chicos > 0),
                (f"rey_lost:{player}", lost > 0),
                (f"rey_goal:{player}", rey_goal),
                (f"chico_goal:{player}", chico_goal),
            )
            if on
        ]
        shown = (
            ("player", player),
            ("dice", values),
            ("roles", tuple(r.value for r in roles)),
            ("reyes", got.reyes),
            ("mendigos", got.mendigos),
            ("chicos", got.chicos),
            ("reyes_lost", lost),
            ("rey_goal", rey_goal),
            ("chico_goal", chico_goal),
        )
        state = replace(state, flags=add_flags(state, *new_flags), last_throw=shown)
        if got.mendigos and not opts.no_stakes:
            return replace(state, pending=got.mendigos)
        return self._after_throw(state, got)

    def _count(self, state: ReyState, player: str) -> tuple[int, int]:
        """(Reyes, Chicos) that count toward the goal: the hand's, or the turn's in the long game."""
        if state.options.long_game:
            return state.turn_reyes, state.turn_chicos
        return dict(state.reyes)[player], dict(state.chicos)[player]

    def _after_throw(self, state: ReyState, got: ThrowReading | None) -> ReyState:
        """Throw again or end the turn (got None: after the Mendigo decisions)."""
        again = got is None or got.reyes or got.mendigos or (
            got.chicos and state.options.chico_rethrows
        )
        if again and state.in_hand > 0:
            return state
        return self._end_turn(state)

    def _pay_parte(self, state: ReyState, player: str) -> ReyState:
        _, parte = self._stakes(state)
        left = self.chips_left(state, player)
        if left is not None and left < parte:
            raise IllegalEvent(Text("{player} has {left} chips, the parte is {parte}: {player} must withdraw",
                                    player=player, left=left, parte=parte))
        ledger = state.ledger.transfer(player, "pot:" + POT, parte)
        state = replace(state, ledger=ledger, pending=state.pending - 1)
        if state.pending:
            return state
        return self._after_throw(state, None)

    def _withdraw(self, state: ReyState, player: str) -> ReyState:
        active = tuple(p for p in state.active if p != player)
        tiebreak = tuple(p for p in state.tiebreak if p != player)
        state = replace(
            state,
            active=active,
            tiebreak=tiebreak,
            pending=0,
            flags=add_flags(state, f"withdrew:{player}"),
        )
        if len(active) == 1:
            why = Text("{player} withdrew: {last} is the last in the hand", player=player, last=active[0])
            return self._win_hand(state, active[0], why, last=True)
        if state.tiebreak and len(tiebreak) == 1:
            why = Text("{player} withdrew from the tie-break: {winner} wins it", player=player, winner=tiebreak[0])
            return self._win_hand(state, tiebreak[0], why)
        return self._end_turn(state, withdrawn=True)

    def _end_turn(self, state: ReyState, withdrawn: bool = False) -> ReyState:
        player = state.to_play[0]
        long_hits = state.long_hits
        gains = state.gains
        if not withdrawn:
            goal = state.options.goal
            if state.options.long_game and player not in long_hits and (
                state.turn_reyes >= goal or state.turn_chicos >= goal
            ):
                long_hits = long_hits + (player,)
            if state.tiebreak:
                gains = gains + ((player, state.turn_reyes + state.turn_chicos),)
        state = replace(
            state,
            to_play=state.to_play[1:],
            in_hand=TABAS,
            pending=0,
            turn_reyes=0,
            turn_chicos=0,
            long_hits=long_hits,
            gains=gains,
        )
        if state.to_play:
            return state
        return self._end_round(state)

    def _at_goal(self, state: ReyState) -> tuple[str, ...]:
        goal = state.options.goal
        if state.options.long_game:
            return tuple(p for p in state.active if p in state.long_hits)
        r, c = dict(state.reyes), dict(state.chicos)
        return tuple(p for p in state.active if r[p] >= goal or c[p] >= goal)

    def _describe(self, state: ReyState, player: str) -> str:
        r, c = dict(state.reyes)[player], dict(state.chicos)[player]
        return f"{player} {r} Rey{'es' if r != 1 else ''}, {c} Chico{'s' if c != 1 else ''}"

    def _end_round(self, state: ReyState) -> ReyState:
        state = replace(state, round_number=state.round_number + 1)
        if state.tiebreak:
            gains = dict(state.gains)
            contenders = tuple(p for p in state.tiebreak if p in gains)
            top = max(gains[p] for p in contenders)
            best = tuple(p for p in contenders if gains[p] == top)
            shown = ", ".join(f"{p} +{gains[p]}" for p in contenders)
            if len(best) == 1:
                return self._win_hand(
                    state, best[0],
                    Text("tie-break: {player} gained the most Reyes and Chicos ({shown})", player=best[0], shown=shown),
                )
            keep = best if state.options.tiebreak == "top" else contenders
            return replace(state, tiebreak=keep, to_play=keep, gains=())
        at_goal = self._at_goal(state)
        if not at_goal:
            return replace(state, to_play=state.active)
        goal = state.options.goal
        what = Text("{goal} Reyes or {goal} Chicos in one turn" if state.options.long_game
                    else "{goal} Reyes or {goal} Chicos", goal=goal)
        if len(at_goal) == 1:
            winner = at_goal[0]
            others = "; ".join(self._describe(state, p) for p in state.active if p != winner)
            reason = Text("{player} reached {what} ({counts})", player=winner, what=what,
                          counts=self._describe(state, winner))
            if others:
                reason = Text("{reason}; the round was finished: {others}", reason=reason, others=others)
            return self._win_hand(state, winner, reason)
        return replace(
            state,
            tiebreak=at_goal,
            to_play=at_goal,
            gains=(),
            flags=add_flags(state, "tiebreak"),
        )

    def _win_hand(self, state: ReyState, winner: str, reason: Text, last: bool = False) -> ReyState:
        pot = state.ledger.pot(POT)
        ledger = state.ledger.transfer("pot:" + POT, winner, pot)
        result = RoundResult(state.hand, winner, reason, state.hand_throws)
        flags = add_flags(state, f"last_standing:{winner}") if last else state.flags
        state = replace(
            state,
            ledger=ledger,
            rounds=state.rounds + (result,),
            flags=flags,
            to_play=(),
            pending=0,
            in_hand=0,
            tiebreak=(),
            gains=(),
        )
        if not state.options.elimination:
            return replace(state, finished=True, winner=winner)
        return self._next_hand(state)

    def _next_hand(self, state: ReyState) -> ReyState:
        # Out, one by one: each player out raises the ante the others must pay.
        while True:
            ante, _ = self._stakes(state)
            broke = [
                p for p in self._seat_order(state, state.players)
                if p not in state.out and not self._can_ante(state, p, ante)
            ]
            if not broke:
                break
            state = replace(state, out=state.out + (broke[0],), flags=add_flags(state, f"out:{broke[0]}"))
        remaining = tuple(p for p in state.players if p not in state.out)
        if len(remaining) == 1:
            return replace(state, finished=True, winner=remaining[0], active=remaining)
        n = len(state.players)
        first = next(
            (state.first + i) % n
            for i in range(1, n + 1)
            if state.players[(state.first + i) % n] not in state.out
        )
        return self._start_hand(replace(state, hand=state.hand + 1), first)

    # --- showing -----------------------------------------------------------
    def extra_json(self, state: ReyState) -> dict[str, Any]:
        ante, parte = self._stakes(state)
        r, c = dict(state.reyes), dict(state.chicos)
        last = dict(state.last_throw)
        if last:
            last["dice"] = list(last["dice"])
            if "roles" in last:
                last["roles"] = list(last["roles"])
        out: dict[str, Any] = {
            "hand": state.hand,
            "round": state.round_number,
            "turn": None if state.finished else state.to_play[0],
            "tabas_in_hand": 0 if state.finished else state.in_hand,
            "pending_mendigos": state.pending,
            "tallies": {
                p: {
                    "reyes": r[p],
                    "chicos": c[p],
                    "playing": p in state.active,
                    "out": p in state.out,
                }
                for p in state.players
            },
            "turn_tally": {"reyes": state.turn_reyes, "chicos": state.turn_chicos},
            "at_goal": list(self._at_goal(state)) if not state.finished else [],
            "tiebreak": list(state.tiebreak),
            "last_throw": last or None,
            "stakes": {"ante": _num(ante), "parte": _num(parte)},
            "pot_meaning": {POT: "the hand's antes and partes; the hand's winner takes it"},
        }
        if state.options.elimination:
            out["chips"] = {p: _num(self.chips_left(state, p)) for p in state.players}
        return out


def _num(value: Fraction | None) -> int | float | None:
    if value is None:
        return None
    return int(value) if value.denominator == 1 else float(value)
