"""Chips: every game keeps a ledger where chips move only by transfers.

Accounts are the players (by name) and pots (`pot:NAME`). Every account
starts at zero and every transfer takes from one and gives to another, so the
sum of all balances and pots is always zero.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from numbers import Rational

POT_PREFIX = "pot:"

Amount = Fraction


def amount(value: int | float | Fraction | str) -> Fraction:
    """An exact amount of chips from an int, float, Fraction or decimal string."""
    if isinstance(value, bool):
        raise TypeError("an amount of chips is a number, not true/false")
    if isinstance(value, Rational):
        return Fraction(value)
    return Fraction(str(value)).limit_denominator(10**6)


def to_json_number(value: Fraction) -> int | float:
    """Chips as JSON: an int when whole, else a float."""
    if value.denominator == 1:
        return int(value)
    return float(value)


@dataclass(frozen=True)
class Ledger:
    """Balances of players and pots; immutable, every change makes a new one."""

    accounts: tuple[tuple[str, Fraction], ...] = ()

    @classmethod
    def open(cls, players: tuple[str, ...], pots: tuple[str, ...] = ()) -> Ledger:
        names = tuple(players) + tuple(POT_PREFIX + p for p in pots)
        return cls(tuple((n, Fraction(0)) for n in names))

    def _get(self, name: str) -> Fraction:
        for key, value in self.accounts:
            if key == name:
                return value
        raise KeyError(name)

    def balance(self, player: str) -> Fraction:
        return self._get(player)

    def pot(self, name: str) -> Fraction:
        return self._get(POT_PREFIX + name)

    def transfer(self, source: str, target: str, value: int | Fraction) -> Ledger:
        """Move `value` chips from one account to another (`pot:X` for pots)."""
        value = amount(value)
        if value < 0:
            raise ValueError(f"a transfer of {value} chips is negative")
        if value == 0 or source == target:
            return self
        names = {k for k, _ in self.accounts}
        for name in (source, target):
            if name not in names:
                raise KeyError(f"no account {name!r} in the ledger")
        return Ledger(
            tuple(
                (k, v - value if k == source else v + value if k == target else v)
                for k, v in self.accounts
            )
        )

    def total(self) -> Fraction:
        return sum((v for _, v in self.accounts), Fraction(0))

    def balances(self) -> dict[str, Fraction]:
        return {k: v for k, v in self.accounts if not k.startswith(POT_PREFIX)}

    def pots(self) -> dict[str, Fraction]:
        return {k[len(POT_PREFIX) :]: v for k, v in self.accounts if k.startswith(POT_PREFIX)}
