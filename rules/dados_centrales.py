"""Dados Centrales (RULES.md section 4, seed 002, "the tavern game"): closest to the red dice.

Dice: 3 red central dice thrown by the house under a cup, the house's own 3 green
dice, 3 blue dice per bettor (1-4 bettors: the script's players). Every throw is 3d6.

A round, and what `next()` says:

1. the central dice first: `Next("throw", ("house",), 3d6, role="central",
   colour="red")`; the event is `{"player": "house", "role": "central", "dice": [...]}`.
   This is when the round stakes are taken (pot `round`). The house must send
   `role: "central"` here (a house throw without a role is its own green dice);
2. then everyone else at the same time, in any order: `Next.players` = the bettors and
   the house (its green dice: a house throw with no role or role `"house"`) who have
   not thrown. `Next.colour` is the colour they share (`blue`/`green`), or None when
   both kinds are still awaited; `colours` in the printed state maps each player to
   the colour of their dice. A die that names a colour must be of its thrower's colour.

The closest sum to the red sum (absolute difference) wins the round stakes (rule 1:
a tie for closest sends them to the central pot; the round counts, winner None). At
distance 0 the winner also takes a bonus from the central pot, at most what is there:
`same_sum_bonus` (rule 3) or `exact_bonus` for the red numbers exactly (rule 4).
After `rounds` rounds the most round wins takes the central pot; a tie (rule 2) is
played off in tie rounds among the tied (red thrown again, each pays `tie_entry` into
the central pot, no round stake), the closest takes the pot; still tied, again among
those still tied. Tie rounds are throw-offs: they add no `round_winners` entry; they
are listed under `tie_rounds`.

An `end` event stops the game: the round stakes of an unfinished round go back to
who paid them; the central pot goes to the leader in round wins, or is shared
equally among the tied leaders (winner None).

`round_winners` holds `"house"` for a round the house wins (its wins are in
`wins`, beside the players' `round_wins`). A round's `throws` list the red dice under
the name `"central"`, first.

Flags: `exact_match:C` (C threw the red numbers), `same_sum:C` (same sum, other
numbers), `tie_round` (the game went to tie rounds), `ended` (the table ended it).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from rules.base import HOUSE, Game, Next, RoundResult, State, add_flags, expect_throw
from rules.errors import IllegalEvent
from rules.events import Event, EventType
from rules.ledger import amount, to_json_number
from rules.options import option
from rules.text import Text, names

DICE = ("d6", "d6", "d6")
CENTRAL = "central"  # the role of the red dice, and their name in a round's throws
CENTRAL_POT = "pot:central"
ROUND_POT = "pot:round"
Dice = tuple[int, int, int]


@dataclass(frozen=True)
class DadosCentralesOptions:
    central_stake: int = option(15, "each bettor's stake into the central pot at the start", min=0)
    round_stake: int = option(2, "each player's stake to take part in a round", min=0)
    tie_entry: int = option(5, "rule 2: each tied player's entry to a tie round, into the central pot", min=0)
    rounds: int = option(12, "rounds in a game; then the most round wins takes the central pot", min=1)
    scale: float = option(
        1.0, "multiplies central_stake, round_stake and tie_entry (and the bonuses, see "
        "scale_bonuses)", min=0
    )
    same_sum_bonus: int = option(2, "rule 3: the red sum with other numbers takes this from the central pot", min=0)
    exact_bonus: int = option(4, "rule 4: the red numbers exactly take this from the central pot", min=0)
    scale_bonuses: bool = option(True, "scale also multiplies the rule 3 and rule 4 bonuses")
    house_competes: bool = option(
        True, "[reading] the house throws its own green dice and competes like a bettor: "
        "it can win rounds and the central pot"
    )
    house_round_stake: bool = option(
        True, "[reading] the house pays the round stake when it competes (every player who "
        "takes part in the round pays it)"
    )
    house_central_stake: bool = option(
        False, "[reading] the house also puts the central stake at the start (default: bettors only)"
    )
    exact_first: bool = option(
        True, "[reading] at distance 0 an exact match (the red numbers) beats a same-sum "
        "match; false: both are closest and tie"
    )
    central_colour: str = option("red", "colour of the central dice")
    house_colour: str = option("green", "colour of the house's own dice")
    bettor_colour: str = option("blue", "colour of the bettors' dice")


@dataclass(frozen=True)
class DadosCentralesState(State):
    round_number: int = 1
    central: Dice | None = None  # this round's red dice; None: not thrown yet
    throws: tuple[tuple[str, Dice], ...] = ()  # this round's own throws
    paid: tuple[tuple[str, Fraction], ...] = ()  # this round's stakes, to give back on `end`
    tie_players: tuple[str, ...] = ()  # in the tie rounds (rule 2): who plays them
    tie_rounds: tuple[RoundResult, ...] = ()


def _show(dice: Dice) -> str:
    return "+".join(map(str, dice)) + f" = {sum(dice)}"


def closeness(dice: Dice, central: Dice, exact_first: bool = True) -> tuple[int, int]:
    """How close a throw is to the red dice: lower is better.

    (distance of the sums, 0 for an exact match at distance 0 when exact ranks first,
    else 1).
    """
    distance = abs(sum(dice) - sum(central))
    exact = distance == 0 and exact_first and Counter(dice) == Counter(central)
    return distance, 0 if exact else 1


def _money(value: Fraction) -> str:
    return str(to_json_number(value))


class DadosCentrales(Game):
    id = "dados_centrales"
    title = "Dados Centrales"
    Options = DadosCentralesOptions
    min_players = 1
    max_players = 4
    has_house = True
    pots = ("central", "round")

    # --- amounts ----------------------------------------------------------
    def _amount(self, options: DadosCentralesOptions, base: int, bonus: bool = False) -> Fraction:
        if bonus and not options.scale_bonuses:
            return amount(base)
        return amount(base) * amount(options.scale)

    def initial(self, players: tuple[str, ...], options: DadosCentralesOptions) -> DadosCentralesState:
        ledger = self.open_ledger(players)
        stake = self._amount(options, options.central_stake)
        payers = players + ((HOUSE,) if options.house_central_stake else ())
        for p in payers:
            ledger = ledger.transfer(p, CENTRAL_POT, stake)
        return DadosCentralesState(self.id, players, options, ledger)

    def competitors(self, state: DadosCentralesState) -> tuple[str, ...]:
        """Who throws their own dice this round (tie rounds: the tied)."""
        if state.tie_players:
            return state.tie_players
        return state.players + ((HOUSE,) if state.options.house_competes else ())

    def colour_of(self, state: DadosCentralesState, player: str) -> str:
        o = state.options
        return o.house_colour if player == HOUSE else o.bettor_colour

    # --- what the game waits for ------------------------------------------
    def next(self, state: DadosCentralesState) -> Next | None:
        if state.finished:
            return None
        note = "tie round" if state.tie_players else ""
        if state.central is None:
            return Next("throw", (HOUSE,), DICE, role=CENTRAL,
                        colour=state.options.central_colour, note=note or CENTRAL)
        thrown = {p for p, _ in state.throws}
        waiting = tuple(p for p in self.competitors(state) if p not in thrown)
        colours = {self.colour_of(state, p) for p in waiting}
        colour = colours.pop() if len(colours) == 1 else None
        return Next("throw", waiting, DICE, colour=colour, note=note)

    # --- moving -------------------------------------------------------------
    def _apply(self, state: DadosCentralesState, event: Event) -> DadosCentralesState:
        if event.type is EventType.END:
            return self._end(state)
        if event.type is not EventType.THROW:
            raise IllegalEvent(f"Dados Centrales has no {event.type.value} event: only throws")
        nxt = self.next(state)
        assert nxt is not None
        player, role = event.player, event.role
        if role not in (None, HOUSE, CENTRAL):
            raise IllegalEvent(f"unknown role {role!r}: a throw's role is 'central' or none")
        if player != HOUSE and role is not None:
            raise IllegalEvent(f"{player} throws their own dice: only the house throws the central dice")
        if state.central is None:
            if player != HOUSE or role != CENTRAL:
                raise IllegalEvent(
                    f"the central ({state.options.central_colour}) dice come first: expected a "
                    "throw from house with role 'central'"
                )
            dice = self._dice(state, event, state.options.central_colour, "the central dice")
            return self._start_round(replace(state, central=dice))
        if player == HOUSE and role == CENTRAL:
            raise IllegalEvent(
                f"the central dice are already thrown this round: waiting for {names(nxt.players)}"
            )
        if player not in nxt.players:
            if player in {p for p, _ in state.throws}:
                raise IllegalEvent(f"{player} has already thrown this round")
            if state.tie_players:
                raise IllegalEvent(
                    f"only {names(state.tie_players)} play the tie round, not {player}"
                )
            raise IllegalEvent(
                "the house does not compete (house_competes is false): "
                f"waiting for {names(nxt.players)}"
            )
        who = "house's own dice" if player == HOUSE else f"{player}'s dice"
        dice = self._dice(state, event, self.colour_of(state, player), who)
        state = replace(state, throws=state.throws + ((player, dice),))
        if len(state.throws) < len(self.competitors(state)):
            return state
        return self._settle_tie_round(state) if state.tie_players else self._settle(state)

    def _dice(self, state: DadosCentralesState, event: Event, colour: str, who: str) -> Dice:
        values = expect_throw(event, DICE, who=event.player)
        for i, die in enumerate(event.dice):
            if die.colour is not None and die.colour != colour:
                raise IllegalEvent(f"expected {colour} dice for {who}: die {i + 1} is {die.colour}")
        a, b, c = (int(v) for v in values)
        return a, b, c

    def _start_round(self, state: DadosCentralesState) -> DadosCentralesState:
        o = state.options
        ledger = state.ledger
        paid: list[tuple[str, Fraction]] = []
        if state.tie_players:
            entry = self._amount(o, o.tie_entry)
            for p in state.tie_players:
                ledger = ledger.transfer(p, CENTRAL_POT, entry)
            return replace(state, ledger=ledger)
        stake = self._amount(o, o.round_stake)
        for p in self.competitors(state):
            if p == HOUSE and not o.house_round_stake:
                continue
            ledger = ledger.transfer(p, ROUND_POT, stake)
            paid.append((p, stake))
        return replace(state, ledger=ledger, paid=tuple(paid))

    # --- settling -------------------------------------------------------------
    def _closest(self, state: DadosCentralesState) -> tuple[tuple[str, ...], tuple[int, int]]:
        assert state.central is not None
        keys = {p: closeness(d, state.central, state.options.exact_first) for p, d in state.throws}
        best = min(keys.values())
        return tuple(p for p in self.competitors(state) if keys[p] == best), best

    def _match_flag(self, state: DadosCentralesState, player: str) -> str | None:
        assert state.central is not None
        dice = dict(state.throws)[player]
        if sum(dice) != sum(state.central):
            return None
        exact = Counter(dice) == Counter(state.central)
        return f"exact_match:{player}" if exact else f"same_sum:{player}"

    def _settle(self, state: DadosCentralesState) -> DadosCentralesState:
        assert state.central is not None
        o = state.options
        best, (distance, _) = self._closest(state)
        ledger = state.ledger
        red = Text("red {dice}", dice=_show(state.central))
        flags: list[str] = []
        if len(best) > 1:
            ledger = ledger.transfer(ROUND_POT, CENTRAL_POT, ledger.pot("round"))
            winner = None
            why = Text("{red}: {players} tie at {distance} away: the round stakes go to the central pot",
                       red=red, players=names(best), distance=distance)
        else:
            winner = best[0]
            ledger = ledger.transfer(ROUND_POT, winner, ledger.pot("round"))
            mine = dict(state.throws)[winner]
            why = Text("{red}: {player}'s {dice} is closest", red=red, player=winner, dice=_show(mine))
            flag = self._match_flag(state, winner) if distance == 0 else None
            if flag is not None:
                exact = flag.startswith("exact")
                base = o.exact_bonus if exact else o.same_sum_bonus
                bonus = min(self._amount(o, base, bonus=True), ledger.pot("central"))
                ledger = ledger.transfer(CENTRAL_POT, winner, bonus)
                what = Text("the red numbers exactly" if exact else "the red sum with other numbers")
                why = Text("{why}, {what}: +{money} from the central pot", why=why, what=what,
                           money=_money(bonus))
                flags.append(flag)
        throws = ((CENTRAL, state.central),) + state.throws
        result = RoundResult(state.round_number, winner, why, throws, tuple(flags))
        state = replace(
            state, ledger=ledger, rounds=state.rounds + (result,),
            round_number=state.round_number + 1, central=None, throws=(), paid=(),
            flags=add_flags(state, *flags),
        )
        if len(state.rounds) < o.rounds:
            return state
        wins = self.wins(state)
        top = max(wins.values())
        leaders = tuple(p for p, w in wins.items() if w == top)
        if len(leaders) == 1:
            return self._award(state, leaders[0])
        return replace(state, tie_players=leaders, flags=add_flags(state, "tie_round"))

    def _settle_tie_round(self, state: DadosCentralesState) -> DadosCentralesState:
        assert state.central is not None
        best, (distance, _) = self._closest(state)
        red = Text("red {dice}", dice=_show(state.central))
        flags = [f for f in (self._match_flag(state, p) for p in best) if f] if distance == 0 else []
        if len(best) > 1:
            why = Text("tie round, {red}: {players} tie again at {distance} away",
                       red=red, players=names(best), distance=distance)
            winner = None
        else:
            winner = best[0]
            why = Text("tie round, {red}: {player}'s {dice} is closest",
                       red=red, player=winner, dice=_show(dict(state.throws)[winner]))
        throws = ((CENTRAL, state.central),) + state.throws
        result = RoundResult(len(state.tie_rounds) + 1, winner, why, throws, tuple(flags))
        state = replace(
            state, tie_rounds=state.tie_rounds + (result,), central=None, throws=(),
            tie_players=best, flags=add_flags(state, *flags),
        )
        if winner is None:
            return state
        return self._award(replace(state, tie_players=()), winner)

    def _award(self, state: DadosCentralesState, winner: str) -> DadosCentralesState:
        ledger = state.ledger.transfer(CENTRAL_POT, winner, state.ledger.pot("central"))
        return replace(state, ledger=ledger, finished=True, winner=winner)

    def _end(self, state: DadosCentralesState) -> DadosCentralesState:
        ledger = state.ledger
        for p, paid in state.paid:
            ledger = ledger.transfer(ROUND_POT, p, paid)
        wins = self.wins(state)
        top = max(wins.values())
        leaders = [p for p, w in wins.items() if w == top]
        state = replace(
            state, ledger=ledger, central=None, throws=(), paid=(), tie_players=(),
            flags=add_flags(state, "ended"), finished=True,
        )
        if len(leaders) == 1:
            return self._award(state, leaders[0])
        share = ledger.pot("central") / len(leaders)
        for p in leaders:
            ledger = ledger.transfer(CENTRAL_POT, p, share)
        return replace(state, ledger=ledger, winner=None)

    def wins(self, state: DadosCentralesState) -> dict[str, int]:
        """Round wins of everyone who can win rounds (the house when it competes)."""
        counted = state.players + ((HOUSE,) if state.options.house_competes else ())
        wins = dict.fromkeys(counted, 0)
        for r in state.rounds:
            if r.winner in wins:
                wins[r.winner] += 1
        if state.tie_players:  # in the tie rounds only the tied can still win
            wins = {p: w for p, w in wins.items() if p in state.tie_players}
        return wins

    # --- showing --------------------------------------------------------------
    def extra_json(self, state: DadosCentralesState) -> dict[str, Any]:
        o = state.options
        central = None
        if state.central is not None:
            central = {"dice": list(state.central), "sum": sum(state.central)}

        def throw_json(p: str, d: Dice) -> dict[str, Any]:
            out: dict[str, Any] = {"player": p, "dice": list(d), "sum": sum(d)}
            if state.central is not None:
                out["distance"] = abs(sum(d) - sum(state.central))
            return out

        colours = {p: o.bettor_colour for p in state.players}
        colours[HOUSE] = o.house_colour
        colours[CENTRAL] = o.central_colour
        return {
            "round": state.round_number,
            "rounds_total": o.rounds,
            "central": central,
            "current_throws": [throw_json(p, d) for p, d in state.throws],
            "wins": {p: sum(1 for r in state.rounds if r.winner == p)
                     for p in state.players + ((HOUSE,) if o.house_competes else ())},
            "colours": colours,
            "pots_meaning": {
                "central": "the central pot: central stakes, tied rounds' stakes and tie "
                "entries; the game's winner takes it",
                "round": "this round's stakes; the closest throw takes them",
            },
            "tie_players": list(state.tie_players),
            "tie_rounds": [r.to_json() for r in state.tie_rounds],
        }
