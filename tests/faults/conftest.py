"""Fixtures of the fault tests: the station fixtures of tests/station, recorded photos."""

from __future__ import annotations

from station.scenes import Photo, SceneDie, write_session
from tests.station.conftest import mock_factory, recorded, station_on  # noqa: F401

RED_MAN = {"game": "red_mans_throw", "players": ["Ana", "Bruno"], "options": {}}


def d6(value, x, y, colour="white") -> SceneDie:
    return SceneDie("d6", value, colour, (float(x), float(y)))


def three(a: int, b: int, c: int, shift: int = 0) -> Photo:
    """A photo of three d6 (shift moves them, so a read is not 'the same dice, same place')."""
    return Photo((), (d6(a, 100 + shift, 100), d6(b, 300 + shift, 300), d6(c, 500 + shift, 200)))


def session(folder, n: int):
    """n photos of three dice, each different from the one before."""
    write_session(folder, [three(1 + i % 6, 1 + (i + 2) % 6, 1 + (i + 4) % 6, shift=(i % 5) * 20)
                           for i in range(n)])
    return folder


def snapshot(st) -> tuple:
    """What a change would alter: the state, and every stored event."""
    return st.state_json(), [e.to_json() for e in st.store.events_after(0)]
