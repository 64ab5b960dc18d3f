"""A bouncing button, a camera that raises, a read that does not fit the game:
each leaves the game unchanged and says why."""

from __future__ import annotations

import threading
import time

import pytest

from station.camera import Frame, ReplayCamera, RetryingCamera
from station.errors import CameraError
from station.labels import LabelReader
from station.scenes import Photo, SceneDie, write_session
from station.station import Station
from station.store import EventStore
from station.trigger import GpioButton, StatusLed

PIN = 17
RED_MAN = {"game": "red_mans_throw", "players": ["Ana", "Bruno"], "options": {}}


def d6(value, x, y, colour="white"):
    return SceneDie("d6", value, colour, (float(x), float(y)))


def session(tmp_path, *photos: Photo):
    folder = tmp_path / "imgs"
    write_session(folder, list(photos))
    return folder


def unchanged(station, before):
    after = station.state_json()
    assert after == before


def test_a_bouncing_button_reads_once(tmp_path, station_on, mock_factory):
    folder = session(tmp_path, Photo((), (d6(1, 100, 100), d6(2, 300, 300), d6(3, 500, 200))),
                     Photo((), (d6(4, 100, 100), d6(5, 300, 300), d6(6, 500, 200))))
    st = station_on(folder)
    st.start_game(**RED_MAN)
    pin = mock_factory.pin(PIN)
    with GpioButton(PIN, st.request_read, bounce_s=0.2, pin_factory=mock_factory) as button:
        for _ in range(5):  # contacts chatter for a few ms
            pin.drive_low()
            pin.drive_high()
        st.wait_idle()
        assert button.presses == 1 and button.bounces == 4
    assert st.state_json()["reads"] == 1
    assert st.camera.position == 1  # the second photo was never taken


def test_contacts_chattering_longer_than_the_bounce_time_are_one_press(mock_factory, monkeypatch):
    """Edges 30 ms apart for 300 ms (worn contacts, or a loaded CPU handing the
    edges over late) with a bounce time of 50 ms: one press; the next press,
    after 50 ms of quiet, is a second one."""
    clock = [100.0]
    monkeypatch.setattr("station.trigger.time.monotonic", lambda: clock[0])
    pressed = []
    with GpioButton(PIN, lambda: pressed.append(clock[0]), bounce_s=0.05, pin_factory=mock_factory) as button:
        for _ in range(10):
            button._pressed()
            clock[0] += 0.03
        clock[0] += 0.05
        button._pressed()
    assert pressed == [100.0, clock[0]]
    assert button.presses == 2 and button.bounces == 9


def test_a_press_during_a_read_is_ignored_not_queued(tmp_path, station_on, mock_factory):
    folder = session(tmp_path, Photo((), (d6(1, 100, 100), d6(2, 300, 300), d6(3, 500, 200))),
                     Photo((), (d6(4, 100, 100), d6(5, 300, 300), d6(6, 500, 200))))
    labels = LabelReader(folder)
    gate = threading.Event()

    def slow_reader(frame):
        gate.wait(5)
        return labels(frame)

    st = station_on(folder, reader=slow_reader)
    st.start_game(**RED_MAN)
    pin = mock_factory.pin(PIN)
    with GpioButton(PIN, st.request_read, bounce_s=None, pin_factory=mock_factory) as button:
        pin.drive_low()
        pin.drive_high()
        time.sleep(0.05)
        pin.drive_low()  # pressed again while the first read is in progress
        pin.drive_high()
        assert st.press().status == "busy"
        gate.set()
        st.wait_idle()
        assert button.presses == 2
    assert st.state_json()["reads"] == 1
    assert st.camera.position == 1


class FailingCamera(ReplayCamera):
    def __init__(self, folder, failures):
        super().__init__(folder)
        self.failures = failures

    def capture(self) -> Frame:
        if self.failures:
            self.failures -= 1
            raise CameraError("no frame within 5 s")
        return super().capture()


def test_a_camera_that_raises_changes_nothing_and_the_next_press_works(tmp_path):
    folder = session(tmp_path, Photo((), (d6(1, 100, 100), d6(2, 300, 300), d6(3, 500, 200))))
    opened = []

    def factory():
        if not opened:
            opened.append(1)
            raise CameraError("cannot open: pipeline handler in use by another process")
        return FailingCamera(folder, failures=1)

    with EventStore(tmp_path / "data") as store, Station(
        store, RetryingCamera(factory), LabelReader(folder)
    ) as st:
        st.start_game(**RED_MAN)
        before = st.state_json()
        first = st.press()
        assert first.status == "camera" and "pipeline handler in use" in first.message
        unchanged(st, before)
        second = st.press()
        assert second.status == "camera" and "no frame" in second.message
        unchanged(st, before)
        assert [e.kind for e in store.events(before["game_id"])] == ["game"]
        third = st.press()
        assert third.status == "stored"
        assert st.state_json()["reads"] == 1


@pytest.mark.parametrize(
    "photo, says",
    [
        (Photo((), (d6(1, 100, 100), d6(2, 300, 300), d6(3, 500, 200), d6(4, 700, 500))),
         "4 dice are on the tray"),
        (Photo((), (d6(1, 100, 100), d6(2, 300, 300)), (((700.0, 100.0), "cocked"),)),
         "the die at the top right is cocked"),
        (Photo((), (SceneDie("d8", 7, "white", (100.0, 100.0)), d6(2, 300, 300),
                     d6(3, 500, 200))), "a d8 is on the tray"),
        (Photo((), ()), "no dice seen"),
    ],
    ids=["too-many", "cocked", "wrong-kind", "empty"],
)
def test_a_read_that_does_not_fit_changes_nothing_and_says_why(tmp_path, station_on, photo, says):
    st = station_on(session(tmp_path, photo))
    st.start_game(**RED_MAN)
    before = st.state_json()
    out = st.press()
    assert out.status == "refused"
    assert says in out.message and "throw again" in out.message
    unchanged(st, before)
    last = st.last_read()  # the refusal is kept for audit, with its annotated photo
    assert last["status"] == "refused" and last["message"] == out.message
    assert (st.store.photos / f"{last['id']}-annotated.jpg").stat().st_size > 0


def test_a_die_outside_every_zone_is_refused(tmp_path):
    """The Salvation: both players throw one die at once, each in their seat zone."""
    from rules import get_game, play_script
    from station.config import Zone
    from station.errors import Misfit
    from station.table import Seating, map_read
    from tests.station.conftest import load_example
    from vision.types import Die, Reading

    script = load_example("red_mans_throw")
    state = play_script(dict(script, events=script["events"][:14]))  # 3-3: Salvation
    game = get_game("red_mans_throw")
    assert game.next(state).note == "salvation"
    seating = Seating(zones=(Zone("Ana", ((0, 0), (300, 0), (300, 600), (0, 600))),
                             Zone("Bruno", ((500, 0), (800, 0), (800, 600), (500, 600)))))
    in_ana = Die("d6", 4, "white", (100.0, 300.0), 1.0)
    in_bruno = Die("d6", 2, "white", (700.0, 300.0), 1.0)
    between = Die("d6", 2, "white", (400.0, 80.0), 1.0)
    with pytest.raises(Misfit, match="the die at the top is outside every seat zone"):
        map_read(game, state, Reading((in_ana, in_bruno, between)), seating, (800, 600))
    with pytest.raises(Misfit, match="no dice for Bruno"):
        map_read(game, state, Reading((in_ana, between)), seating, (800, 600))
    throws, after = map_read(game, state, Reading((in_bruno, in_ana)), seating, (800, 600))
    assert [(t.event.player, t.event.values, t.event.dice[0].zone) for t in throws] == [
        ("Ana", (4,), "Ana"), ("Bruno", (2,), "Bruno")]
    assert after.finished and after.winner == "Ana"


def test_the_same_dice_in_the_same_place_are_refused_unless_the_gm_overrides(tmp_path, station_on):
    photo = Photo((), (d6(1, 100, 100), d6(2, 300, 300), d6(3, 500, 200)))
    st = station_on(session(tmp_path, photo, photo, photo))
    st.start_game(**RED_MAN)
    assert st.press().status == "stored"
    before = st.state_json()
    out = st.press()
    assert out.status == "refused" and "not thrown" in out.message
    unchanged(st, before)
    assert st.press(override=True).status == "stored"


def test_the_status_led_follows_the_read(tmp_path, mock_factory):
    folder = session(tmp_path, Photo((), (d6(1, 100, 100), d6(2, 300, 300), d6(3, 500, 200))),
                     Photo((), (d6(1, 100, 100),)))
    with EventStore(tmp_path / "data") as store, Station(
        store, ReplayCamera(folder), LabelReader(folder),
        led=StatusLed(18, pin_factory=mock_factory),
    ) as st:
        st.start_game(**RED_MAN)
        st.press()
        assert st.led.shown == "done"
        st.press()
        assert st.led.shown == "rethrow"


def test_a_nearly_full_disk_stops_reads_with_a_message_and_stores_nothing(tmp_path, station_on):
    from station.config import Config
    from station.storage import StorageLimits

    photo = Photo((), (d6(1, 100, 100), d6(2, 300, 300), d6(3, 500, 200)))
    full = Config(storage=StorageLimits(min_free_mb=1e12))
    st = station_on(session(tmp_path, photo), config=full)
    st.start_game(**RED_MAN)
    before = st.state_json()
    out = st.press()
    assert out.status == "disk_full" and "nothing was lost" in out.message
    unchanged(st, before)
    assert st.store.events_after(0)[-1].kind == "game"


def test_a_store_that_cannot_write_changes_nothing(tmp_path, station_on, monkeypatch):
    photo = Photo((), (d6(1, 100, 100), d6(2, 300, 300), d6(3, 500, 200)))
    st = station_on(session(tmp_path, photo))
    st.start_game(**RED_MAN)
    before = st.state_json()

    def no_space(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("station.store.write_atomic", no_space)
    out = st.press()
    assert out.status == "disk_full" and "nothing changed" in out.message
    unchanged(st, before)
    assert [e.kind for e in st.store.events_after(0)] == ["game"]
