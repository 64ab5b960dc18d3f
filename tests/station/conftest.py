"""Fixtures: a recorded session made from a game script, a station over it, mock GPIO."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from station.camera import ReplayCamera
from station.labels import LabelReader
from station.scenes import Photo, session_from_script, write_session
from station.station import Station
from station.store import EventStore

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def load_example(game_id: str) -> dict:
    return json.loads((EXAMPLES / f"{game_id}.json").read_text())


@pytest.fixture
def mock_factory():
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    yield factory
    factory.close()


@pytest.fixture
def recorded(tmp_path):
    """make(script) -> (steps, folder): the photos a table takes playing the script."""

    def make(script: dict, name: str = "session"):
        steps = session_from_script(script)
        folder = tmp_path / name
        write_session(folder, steps)
        return steps, folder

    return make


@pytest.fixture
def station_on(tmp_path):
    """station_on(folder, reader=None) -> a Station over a ReplayCamera of the folder.

    The reader defaults to LabelReader: a stand-in that answers each recorded
    image's own labels, so these tests check the station, not the vision reader.
    """
    made = []

    def make(folder: Path, reader=None, data: Path | None = None, **kw) -> Station:
        store = EventStore(data or tmp_path / "data")
        st = Station(store, ReplayCamera(folder), reader or LabelReader(folder), **kw)
        made.append(st)
        return st

    yield make
    for st in made:
        st.close()
        st.store.close()


def photos(steps) -> list[Photo]:
    return [s for s in steps if isinstance(s, Photo)]
