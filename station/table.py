"""How a read becomes throw events: by turn, by seat zone, by colour role.

`map_read` asks the game what it waits for (`next`) and hands it the dice on
the tray: all of them to the one player whose turn it is; when several throw
at once, each player's dice from their seat zone; in Dados Centrales by body
colour first (red = central, thrown for the house; green = the house's own;
blue = bettors, by zone). A read that does not fit raises `Misfit` with what
the table should do, and nothing changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules import Die as RuleDie
from rules import Event, EventType, Game, RulesError, State
from rules.base import HOUSE, Next
from rules.text import Text, text_of
from station.config import TableConfig, Zone
from station.errors import Misfit
from vision.types import Die, Reading

Point = tuple[float, float]
COLOUR_ROLE_GAMES = frozenset({"dados_centrales"})


@dataclass(frozen=True)
class Throw:
    """One throw event made from a read, and which of the read's dice it holds."""

    event: Event
    dice: tuple[int, ...]  # indices into the read's dice, in the event's order

    def to_json(self) -> dict:
        return {"event": self.event.to_json(), "dice": list(self.dice)}


PLACES = ("top left", "top", "top right", "left", "centre", "right", "bottom left", "bottom", "bottom right")


def where(center: Point, size_wh: tuple[int, int]) -> Text:
    """Where a point lies on the photo, in words: "top left", "centre", "bottom right"."""
    w, h = size_wh
    col = ("left", "centre", "right")[min(2, int(3 * center[0] / max(w, 1)))]
    row = ("top", "middle", "bottom")[min(2, int(3 * center[1] / max(h, 1)))]
    if row == "middle":
        return Text("centre" if col == "centre" else col)
    return Text(row if col == "centre" else f"{row} {col}")  # one of PLACES


def check_refusals(reading: Reading, size_wh: tuple[int, int]) -> None:
    """A read with a refused die asks for the throw again, naming the die and why."""
    if not reading.rejected:
        return
    first = reading.rejected[0]
    more = len(reading.rejected) - 1
    place, why = where(first.center, size_wh), Text(first.why)  # a refusal's reason: a fixed word
    if more:
        raise Misfit(Text("throw again: the die at the {place} is {why} (and {more} more)",
                          place=place, why=why, more=more))
    raise Misfit(Text("throw again: the die at the {place} is {why}", place=place, why=why))


def check_moved(dice: Sequence[Die], previous: Sequence[dict], tolerance_px: float) -> None:
    """Refuse dice lying exactly as in the previous read: they were not thrown again."""
    if not dice or len(dice) != len(previous):
        return
    left = list(previous)
    for die in dice:
        match = next(
            (
                p for p in left
                if p.get("value") == die.value
                and abs(p["center"][0] - die.center[0]) <= tolerance_px
                and abs(p["center"][1] - die.center[1]) <= tolerance_px
            ),
            None,
        )
        if match is None:
            return
        left.remove(match)
    raise Misfit(Text("throw again: the dice lie exactly as in the last read (not thrown); "
                      "the GM can override"))


def inside(point: Point, polygon: Sequence[Point]) -> bool:
    """Ray casting: is `point` inside `polygon` (x, y pixels)?"""
    x, y = point
    hit = False
    n = len(polygon)
    for i in range(n):
        (x1, y1), (x2, y2) = polygon[i], polygon[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def strip_zones(players: Sequence[str], size_wh: tuple[int, int]) -> tuple[Zone, ...]:
    """No zones configured: the photo split into equal vertical strips in seat order."""
    w, h = size_wh
    n = max(1, len(players))
    return tuple(
        Zone(p, ((w * i / n, 0.0), (w * (i + 1) / n, 0.0), (w * (i + 1) / n, float(h)),
                 (w * i / n, float(h))))
        for i, p in enumerate(players)
    )


@dataclass(frozen=True)
class Seating:
    """Seat zones (in seat order) and the colour of each Dados Centrales role."""

    zones: tuple[Zone, ...] = ()
    central_colour: str = "red"
    house_colour: str = "green"
    bettor_colour: str = "blue"

    @classmethod
    def from_config(cls, cfg: TableConfig) -> Seating:
        return cls(cfg.zones, cfg.central_colour, cfg.house_colour, cfg.bettor_colour)

    def zone_for(self, player: str, players: Sequence[str], size_wh: tuple[int, int]) -> Zone:
        zones = self.zones or strip_zones(players, size_wh)
        for z in zones:
            if z.name == player:
                return z
        seat = list(players).index(player) if player in players else len(zones)
        if seat >= len(zones):
            raise Misfit(Text("no seat zone for {player}: add a zone for seat {seat} in the config",
                              player=player, seat=seat + 1))
        return zones[seat]

    def colour_for(self, game_id: str, state: State, nxt: Next, player: str) -> str | None:
        """The body colour of `player`'s dice in this step (None: any colour).

        Dados Centrales names its colours in the game's options (central_colour,
        house_colour, bettor_colour); the table config's colours are the fallback.
        """
        opts = state.options
        if nxt.role == "central":
            return getattr(opts, "central_colour", None) or nxt.colour or self.central_colour
        if game_id in COLOUR_ROLE_GAMES:
            if player == HOUSE:
                return getattr(opts, "house_colour", self.house_colour)
            return getattr(opts, "bettor_colour", self.bettor_colour)
        return nxt.colour


def map_read(
    game: Game,
    state: State,
    reading: Reading,
    seating: Seating,
    size_wh: tuple[int, int],
) -> tuple[list[Throw], State]:
    """The throw events a read makes, and the state after them; Misfit if it does not fit."""
    check_refusals(reading, size_wh)
    dice = reading.dice
    if not dice:
        raise Misfit(Text("no dice seen on the tray: throw again"))
    if state.finished:
        raise Misfit(Text("the game is over: start a new game"))
    remaining = list(range(len(dice)))
    throws: list[Throw] = []
    s = state
    while remaining:
        nxt = game.next(s)
        if nxt is None or nxt.action != "throw":
            if not throws:
                who = ", ".join(nxt.players) if nxt else ""
                what = (Text.joined(" / ", (Text(c) for c in nxt.choices)) if nxt and nxt.choices
                        else Text("a decision"))
                raise Misfit(Text("the game waits for {what} from {who}, not a throw", what=what, who=who))
            first = dice[remaining[0]]
            raise Misfit(Text(
                "{n} die/dice too many on the tray (one at the {place}): throw again with only the dice in play",
                n=len(remaining), place=where(first.center, size_wh)))
        groups = _groups(game, s, nxt, dice, remaining, seating, size_wh)
        for player, idx, zone_name in groups:
            ordered = _order(nxt, player, [dice[i] for i in idx], idx, zone_name)
            event = Event(
                EventType.THROW,
                player,
                tuple(
                    RuleDie(dice[i].value, dice[i].kind, dice[i].colour, zone)
                    for i, zone in ordered
                ),
                role=nxt.role,
            )
            try:
                s = game.apply(s, event)
            except RulesError as exc:
                raise Misfit(Text("this read does not fit the game: {error}; throw again",
                                  error=text_of(exc))) from None
            throws.append(Throw(event, tuple(i for i, _ in ordered)))
            used = {i for i, _ in ordered}
            remaining = [i for i in remaining if i not in used]
    return throws, s


def _groups(
    game, state, nxt, dice, remaining, seating, size_wh
) -> list[tuple[str, list[int], str | None]]:
    """Which of the remaining dice belong to each player this step waits for."""
    players = nxt.players
    if len(players) == 1:
        colour = seating.colour_for(game.id, state, nxt, players[0])
        idx = [i for i in remaining if colour is None or dice[i].colour == colour]
        if not idx:
            raise Misfit(Text("no {colour} dice for {player}: throw again", colour=Text(str(colour)),
                              player=players[0]))
        return [(players[0], idx, None)]
    groups = []
    for player in players:
        colour = seating.colour_for(game.id, state, nxt, player)
        zone_name = None
        if player == HOUSE and colour is not None and game.id in COLOUR_ROLE_GAMES:
            idx = [i for i in remaining if dice[i].colour == colour]
        else:
            zone = seating.zone_for(player, state.players, size_wh)
            zone_name = zone.name
            idx = [
                i for i in remaining
                if (colour is None or dice[i].colour == colour)
                and inside(dice[i].center, zone.polygon)
            ]
        if not idx:
            want = nxt.dice_text()
            raise Misfit(Text("no dice for {player} (expected {want} in {player}'s zone): throw again",
                              player=player, want=want))
        groups.append((player, idx, zone_name))
    claimed = {i for _, idx, _ in groups for i in idx}
    loose = [i for i in remaining if i not in claimed]
    if loose:
        die = dice[loose[0]]
        raise Misfit(Text("throw again: the die at the {place} is outside every seat zone",
                          place=where(die.center, size_wh)))
    return groups


def _order(
    nxt: Next, player: str, dice: list[Die], idx: list[int], zone: str | None
) -> list[tuple[int, str | None]]:
    """The dice in the order the game expects (Barras: tens then units), left to right."""
    pairs = sorted(zip(idx, dice, strict=True), key=lambda p: (p[1].center[0], p[1].center[1]))
    kinds = list(nxt.dice)
    lo = nxt.min_dice if nxt.min_dice is not None else len(kinds)
    if not lo <= len(pairs) <= len(kinds):
        raise Misfit(Text("{player} throws {dice}, but {n} dice are on the tray: throw again",
                          player=player, dice=nxt.dice_text(), n=len(pairs)))
    if len(set(kinds)) > 1:
        ordered = []
        left = list(pairs)
        for kind in kinds:
            pick = next((p for p in left if p[1].kind == kind), None)
            if pick is None:
                got = "+".join(d.kind for _, d in pairs)
                raise Misfit(Text("{player} throws {dice}, got {got}: throw again",
                                  player=player, dice=nxt.dice_text(), got=got))
            left.remove(pick)
            ordered.append(pick)
        pairs = ordered
    else:
        for _, die in pairs:
            if die.kind != kinds[0]:
                raise Misfit(Text("{player} throws {dice}, but a {kind} is on the tray: throw again",
                                  player=player, dice=nxt.dice_text(), kind=die.kind))
    return [(i, zone) for i, _ in pairs]
