"""Events: the only way a game moves. They parse and print themselves.

A throw's dice are plain values (`[6, 3, 1]`, `["liso", "hoyo"]`) or objects
`{"kind", "value", "colour", "zone"}` as the station records them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from rules.errors import BadEvent
from rules.ledger import amount, to_json_number

DIE_KINDS = ("d6", "d8", "d10", "d10t", "taba")
TABA_FACES = ("liso", "carnero", "tripas", "hoyo")


class EventType(StrEnum):
    THROW = "throw"
    JOIN = "join"
    SIT_OUT = "sit_out"
    STAKE = "stake"
    PREDICT = "predict"
    PAY_PARTE = "pay_parte"
    WITHDRAW = "withdraw"
    TIP_HAT = "tip_hat"
    END = "end"


@dataclass(frozen=True)
class Die:
    """One die of a throw: its value, and what the camera knew about it."""

    value: int | str
    kind: str | None = None
    colour: str | None = None
    zone: str | None = None

    def to_json(self) -> int | str | dict:
        if self.kind is None and self.colour is None and self.zone is None:
            return self.value
        out: dict[str, Any] = {"value": self.value}
        for key in ("kind", "colour", "zone"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out


Prediction = str | tuple[int, ...] | tuple[str, int]


@dataclass(frozen=True)
class Event:
    """One event of a game (FORMATS.md section 3)."""

    type: EventType
    player: str | None = None
    dice: tuple[Die, ...] = ()
    role: str | None = None
    amount: Fraction | None = None
    prediction: Prediction | None = None

    @property
    def values(self) -> tuple[int | str, ...]:
        return tuple(d.value for d in self.dice)

    @classmethod
    def throw(cls, player: str, *values: int | str, role: str | None = None) -> Event:
        return cls(EventType.THROW, player, tuple(Die(v) for v in values), role=role)

    @classmethod
    def decision(cls, type_: str | EventType, player: str | None = None, **kw: Any) -> Event:
        return cls(EventType(type_), player, **kw)

    @classmethod
    def from_json(cls, data: Any) -> Event:
        """Parse one event; raises BadEvent naming the field that is wrong."""
        if not isinstance(data, Mapping):
            raise BadEvent(f"an event is a JSON object, got {type(data).__name__}")
        raw_type = data.get("type")
        try:
            etype = EventType(raw_type)
        except ValueError:
            known = ", ".join(t.value for t in EventType)
            raise BadEvent(f"unknown event type {raw_type!r} (known: {known})") from None
        known_fields = {"type", "player", "dice", "role", "amount", "stake", "prediction"}
        unknown = sorted(set(data) - known_fields)
        if unknown:
            raise BadEvent(f"unknown field {unknown[0]!r} in a {etype.value} event")
        player = data.get("player")
        if player is not None and (not isinstance(player, str) or not player):
            raise BadEvent("'player' must be a non-empty name")
        if etype is not EventType.END and etype is not EventType.THROW and player is None:
            raise BadEvent(f"a {etype.value} event needs a 'player'")
        dice: tuple[Die, ...] = ()
        if etype is EventType.THROW:
            if player is None:
                raise BadEvent("a throw needs a 'player'")
            dice = _parse_dice(data.get("dice"))
        elif "dice" in data:
            raise BadEvent(f"a {etype.value} event has no 'dice'")
        role = data.get("role")
        if role is not None and not isinstance(role, str):
            raise BadEvent("'role' must be a string")
        chips = None
        raw_amount = data.get("amount", data.get("stake"))
        if raw_amount is not None:
            if isinstance(raw_amount, bool) or not isinstance(raw_amount, (int, float)):
                raise BadEvent(f"'amount' must be a number, got {raw_amount!r}")
            if raw_amount < 0 or not math.isfinite(raw_amount):
                raise BadEvent(f"'amount' must be a finite number of chips, not negative, got {raw_amount!r}")
            chips = amount(raw_amount)
        elif etype is EventType.STAKE:
            raise BadEvent("a stake event needs an 'amount'")
        prediction = None
        if etype is EventType.PREDICT:
            prediction = _parse_prediction(data.get("prediction"))
        elif "prediction" in data:
            raise BadEvent(f"a {etype.value} event has no 'prediction'")
        return cls(etype, player, dice, role, chips, prediction)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type.value}
        if self.player is not None:
            out["player"] = self.player
        if self.type is EventType.THROW:
            out["dice"] = [d.to_json() for d in self.dice]
        if self.role is not None:
            out["role"] = self.role
        if self.amount is not None:
            out["amount"] = to_json_number(self.amount)
        if self.prediction is not None:
            p = self.prediction
            if isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str):
                out["prediction"] = {p[0]: p[1]}
            elif isinstance(p, tuple):
                out["prediction"] = list(p)
            else:
                out["prediction"] = p
        return out


def _parse_value(raw: Any) -> int | str:
    if isinstance(raw, bool):
        raise BadEvent(f"a die's value must be a number or a taba face, got {raw!r}")
    if isinstance(raw, int):
        return raw
    if isinstance(raw, float) and raw.is_integer():
        return int(raw)
    if isinstance(raw, str) and raw in TABA_FACES:
        return raw
    raise BadEvent(
        f"a die's value must be a whole number or a taba face ({', '.join(TABA_FACES)}), got {raw!r}"
    )


def _parse_dice(raw: Any) -> tuple[Die, ...]:
    if not isinstance(raw, list):
        raise BadEvent("a throw needs 'dice': a list of values")
    dice = []
    for item in raw:
        if isinstance(item, Mapping):
            unknown = sorted(set(item) - {"kind", "value", "colour", "zone", "center", "confidence"})
            if unknown:
                raise BadEvent(f"unknown field {unknown[0]!r} in a die")
            if "value" not in item:
                raise BadEvent("a die object needs a 'value'")
            kind = item.get("kind")
            if kind is not None and kind not in DIE_KINDS:
                raise BadEvent(f"unknown die kind {kind!r} (known: {', '.join(DIE_KINDS)})")
            colour, zone = item.get("colour"), item.get("zone")
            if colour is not None and not isinstance(colour, str):
                raise BadEvent("a die's 'colour' must be a string")
            if zone is not None and not isinstance(zone, str):
                raise BadEvent("a die's 'zone' must be a string")
            dice.append(Die(_parse_value(item["value"]), kind, colour, zone))
        else:
            dice.append(Die(_parse_value(item)))
    return tuple(dice)


def _parse_prediction(raw: Any) -> Prediction:
    if isinstance(raw, str) and raw:
        return raw
    if isinstance(raw, list) and raw and all(
        isinstance(v, int) and not isinstance(v, bool) for v in raw
    ):
        return tuple(raw)
    if (
        isinstance(raw, Mapping)
        and len(raw) == 1
        and isinstance(next(iter(raw)), str)
        and isinstance(next(iter(raw.values())), int)
    ):
        key = next(iter(raw))
        return (key, raw[key])
    raise BadEvent(
        "'prediction' must be a class name (\"pair\"), exact dice ([2,3,4]) or {\"pair\": 2}, "
        f"got {raw!r}"
    )
