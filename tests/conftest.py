"""Fixtures shared across test packages."""

from __future__ import annotations

import pytest

from station.camera import ReplayCamera, default_replay_folder
from station.labels import LabelReader
from station.station import Station
from station.store import EventStore


@pytest.fixture
def demo_station(tmp_path):
    """A station over the bundled demo session (looping), read by its own labels."""
    folder = default_replay_folder()
    store = EventStore(tmp_path / "data")
    st = Station(store, ReplayCamera(folder, loop=True), LabelReader(folder))
    yield st
    st.wait_idle()
    st.close()
    store.close()
