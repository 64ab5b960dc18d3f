"""A storm of button bounces (hundreds of edges) and a wall clock jumping back and forth:
each press reads once, no event is lost or doubled, ordering follows the ids."""

from __future__ import annotations

import time

from station.camera import Frame, ReplayCamera
from station.config import Config, ReadConfig
from station.labels import LabelReader
from station.station import Station
from station.store import EventStore
from station.trigger import GpioButton
from tests.faults.conftest import RED_MAN, session

PIN = 17
BURSTS = 5
EDGES_PER_BURST = 200
BOUNCE_S = 0.05


def test_a_storm_of_bounces_gives_one_read_per_press(tmp_path, station_on, mock_factory):
    folder = session(tmp_path / "imgs", BURSTS + 2)
    st = station_on(folder)
    st.start_game(**RED_MAN)
    pin = mock_factory.pin(PIN)
    futures = []

    def on_press():
        futures.append(st.request_read(override=True))

    with GpioButton(PIN, on_press, bounce_s=BOUNCE_S, pin_factory=mock_factory) as button:
        for _ in range(BURSTS):
            for _ in range(EDGES_PER_BURST // 2):  # contacts chattering within a few ms
                pin.drive_low()
                pin.drive_high()
            st.wait_idle()
            time.sleep(BOUNCE_S * 1.5)  # the player lets go, and presses again later
        st.wait_idle()
        assert button.presses == BURSTS
        assert button.presses + button.bounces == BURSTS * EDGES_PER_BURST // 2
    outcomes = [f.result() for f in futures if f is not None]
    assert len(futures) == BURSTS and len(outcomes) == BURSTS
    reads = [e for e in st.store.events_after(0) if e.kind in ("read", "refused")]
    assert len(reads) == BURSTS
    sources = [e.data["source"] for e in reads]
    assert sources == sorted(set(sources))  # each photo once, in order
    assert st.camera.position == BURSTS


class JumpingClock:
    """time.time() that jumps a day back, then forward, then back (NTP, a dead RTC battery)."""

    def __init__(self) -> None:
        self.jumps = [0.0, -86_400.0, +3 * 86_400.0, -7 * 86_400.0, 3_600.0]
        self.calls = 0

    def __call__(self) -> float:
        self.calls += 1
        return time.monotonic() + 1.7e9 + self.jumps[self.calls % len(self.jumps)]


def test_a_jumping_wall_clock_changes_no_order(tmp_path, monkeypatch):
    clock = JumpingClock()
    monkeypatch.setattr("station.camera.time.time", clock)
    folder = session(tmp_path / "imgs", 8)
    with EventStore(tmp_path / "data", clock=clock) as store, Station(
        store, ReplayCamera(folder), LabelReader(folder)
    ) as st:
        st.start_game(**RED_MAN)
        outs = [st.press(override=True) for _ in range(6)]
        assert all(o.status in ("stored", "refused") for o in outs)
        assert all(o.ms >= 0 for o in outs)  # durations are monotonic
        events = store.events_after(0)
        times = [e.time for e in events]
        assert times != sorted(times)  # the wall clock really went backwards
        assert [e.id for e in events] == list(range(1, len(events) + 1))
        assert st.last_read()["id"] == outs[-1].read["id"]  # the last by id, not by time
        caught_up = st.events_after(2)
        assert [m["id"] for m in caught_up] == [e.id for e in events if e.id > 2]
        sources = [e.data["source"] for e in events if e.kind in ("read", "refused")]
        assert sources == sorted(sources)


class StillFrames(ReplayCamera):
    live = True  # the stillness wait runs, against its monotonic deadline


def test_the_stillness_wait_ignores_wall_clock_jumps(tmp_path, monkeypatch):
    clock = JumpingClock()
    clock.jumps = [0.0, 10 * 86_400.0]
    monkeypatch.setattr("time.time", clock)
    folder = session(tmp_path / "imgs", 1)

    class Same(StillFrames):
        def capture(self) -> Frame:
            self.position = 0
            return super().capture()

    config = Config(read=ReadConfig(still_frames=3, still_timeout_s=1.0))
    with EventStore(tmp_path / "data") as store, Station(
        store, Same(folder), LabelReader(folder), config
    ) as st:
        st.start_game(**RED_MAN)
        assert st.press().status == "stored"
