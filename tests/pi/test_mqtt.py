"""A hall of tables: stored events reach a real Mosquitto broker (issue 7)."""

from __future__ import annotations

import json
import queue
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("paho.mqtt")
from paho.mqtt import client as mqtt  # noqa: E402

from station.mqtt import MqttBridge  # noqa: E402

MOSQUITTO = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None)
pytestmark = pytest.mark.skipif(MOSQUITTO is None, reason="mosquitto not installed (Debian: mosquitto)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Broker:
    """A real Mosquitto on a free loopback port, started and stopped by the test."""

    def __init__(self, tmp: Path, port: int | None = None) -> None:
        self.port = port or free_port()
        conf = tmp / f"mosquitto-{self.port}.conf"
        conf.write_text(f"listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(conf)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("mosquitto did not start")

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=5)


class FakeStation:
    """The station's live feed: stored events in order, and catch-up by id."""

    def __init__(self) -> None:
        self.events: list[dict] = []
        self.subs: list[queue.Queue] = []

    def store(self, kind: str) -> dict:
        msg = {"id": len(self.events) + 1, "type": kind, "state": {"events": len(self.events) + 1}}
        self.events.append(msg)
        for q in self.subs:
            q.put(msg)
        return msg

    def subscribe(self) -> queue.Queue:
        q: queue.Queue = queue.Queue()
        self.subs.append(q)
        return q

    def unsubscribe(self, q: queue.Queue) -> None:
        self.subs.remove(q)

    def events_after(self, event_id: int) -> list[dict]:
        return [e for e in self.events if e["id"] > event_id]


class Scoreboard:
    """A subscriber collecting what the broker delivers."""

    def __init__(self, port: int, topic: str = "dicestation/#") -> None:
        self.messages: dict[str, list] = {}
        self.lock = threading.Lock()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"board-{port}-{time.time()}")
        self.client.on_message = self._on_message
        self.client.on_connect = lambda c, *a: c.subscribe(topic, qos=1)
        self.subscribed = threading.Event()
        self.client.on_subscribe = lambda *a: self.subscribed.set()
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        assert self.subscribed.wait(10), "the scoreboard could not subscribe"

    def _on_message(self, client, userdata, msg) -> None:
        with self.lock:
            self.messages.setdefault(msg.topic, []).append(msg.payload.decode())

    def wait_for(self, topic: str, count: int, timeout_s: float = 10) -> list:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            with self.lock:
                got = list(self.messages.get(topic, []))
            if len(got) >= count:
                return got
            time.sleep(0.02)
        return got

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def broker(tmp_path):
    b = Broker(tmp_path)
    yield b
    b.stop()


def test_every_stored_event_reaches_the_scoreboard_in_order(broker):
    station = FakeStation()
    board = Scoreboard(broker.port)
    with MqttBridge(station, "127.0.0.1", broker.port, table="t1").start() as bridge:
        assert bridge.connected.wait(10)
        for kind in ("game", "read", "read", "decision", "correction"):
            station.store(kind)
        got = board.wait_for("dicestation/t1/events", 5)
        assert [json.loads(m)["id"] for m in got] == [1, 2, 3, 4, 5]
        assert [json.loads(m)["type"] for m in got][:2] == ["game", "read"]
        assert board.wait_for("dicestation/t1/status", 1)[-1] == "online"
        state = board.wait_for("dicestation/t1/state", 5)
        assert json.loads(state[-1]) == {"events": 5}
    assert board.wait_for("dicestation/t1/status", 2)[-1] == "offline"
    board.close()


def test_events_stored_while_the_broker_is_down_arrive_after_it_returns(tmp_path):
    station = FakeStation()
    port = free_port()
    bridge = MqttBridge(station, "127.0.0.1", port, table="t2").start()  # no broker yet
    try:
        station.store("game")
        station.store("read")  # the station goes on without a broker
        assert not bridge.connected.is_set()
        broker = Broker(tmp_path, port)
        try:
            board = Scoreboard(port)
            assert bridge.connected.wait(40), "the bridge did not reconnect"
            station.store("read")
            got = board.wait_for("dicestation/t2/events", 3)
            assert sorted({json.loads(m)["id"] for m in got}) == [1, 2, 3]
            board.close()
        finally:
            broker.stop()
    finally:
        bridge.close()


def test_the_state_is_retained_for_a_scoreboard_that_joins_later(broker):
    station = FakeStation()
    with MqttBridge(station, "127.0.0.1", broker.port, table="t3").start() as bridge:
        assert bridge.connected.wait(10)
        station.store("game")
        station.store("read")
        time.sleep(0.5)
        late = Scoreboard(broker.port)
        assert json.loads(late.wait_for("dicestation/t3/state", 1)[-1]) == {"events": 2}
        late.close()
