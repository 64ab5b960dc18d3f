"""A hall of tables: every stored event published over MQTT (paho-mqtt).

One scoreboard can follow many tables through an existing broker (Mosquitto).
Topics, for a table named `t1` under the prefix `dicestation`:

    dicestation/t1/events   each stored event as JSON (QoS 1, in order)
    dicestation/t1/state    the game's state after the latest event (retained)
    dicestation/t1/status   "online" / "offline" (retained; "offline" is the will)

The bridge never blocks the station: it reads the station's live feed on its
own thread. While the broker is away, paho keeps QoS 1 messages queued; after
a reconnect the bridge also re-sends what the station stored since the last
event the broker acknowledged, so no event is lost (a scoreboard may see one
twice: events carry their id).
"""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Callable
from typing import Any, Protocol

POLL_S = 0.2
QOS = 1


class EventSource(Protocol):
    """What the bridge needs of a station: its live feed and a way to catch up."""

    def subscribe(self) -> queue.Queue: ...

    def unsubscribe(self, q: queue.Queue) -> None: ...

    def events_after(self, event_id: int) -> list[dict[str, Any]]: ...


def _default_client(client_id: str):
    from paho.mqtt import client as mqtt  # only the bridge needs paho

    return mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id)


class MqttBridge:
    """Publish a station's stored events to an MQTT broker. close() it."""

    def __init__(
        self,
        source: EventSource,
        host: str,
        port: int = 1883,
        table: str = "table",
        prefix: str = "dicestation",
        keepalive_s: int = 30,
        client_factory: Callable[[str], Any] = _default_client,
    ) -> None:
        self.source = source
        self.host, self.port = host, port
        self.base = f"{prefix}/{table}"
        self._client = client_factory(f"dicestation-{table}")
        self._client.will_set(f"{self.base}/status", "offline", qos=QOS, retain=True)
        self._client.reconnect_delay_set(min_delay=1, max_delay=30)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._keepalive = keepalive_s
        self._last_id = 0  # the newest event id handed to paho
        self._wake = threading.Event()
        self._queue = source.subscribe()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._pump, name="mqtt-bridge", daemon=True)
        self.connected = threading.Event()

    def start(self, last_id: int = 0) -> MqttBridge:
        """Connect (in the background; the station runs on without a broker) and pump."""
        self._last_id = last_id
        self._client.connect_async(self.host, self.port, keepalive=self._keepalive)
        self._client.loop_start()
        self._thread.start()
        return self

    def _on_connect(self, client, userdata, flags, reason_code, properties=None) -> None:
        if reason_code.is_failure:
            return
        client.publish(f"{self.base}/status", "online", qos=QOS, retain=True)
        self.connected.set()
        self._wake.set()  # the pump catches up on what was stored while the broker was away

    def _on_disconnect(self, client, userdata, flags, reason_code, properties=None) -> None:
        self.connected.clear()

    def _send_new(self) -> None:
        """Send, in order, every stored event after the last one sent (pump thread only)."""
        for message in self.source.events_after(self._last_id):
            if not self.connected.is_set():
                return
            self._client.publish(f"{self.base}/events", json.dumps(message), qos=QOS)
            if "state" in message:
                self._client.publish(f"{self.base}/state", json.dumps(message["state"]),
                                     qos=QOS, retain=True)
            self._last_id = message["id"]

    def _pump(self) -> None:
        # Live messages only wake the pump: what is sent always comes from the
        # station's store, in id order, from this one thread, so a reconnect's
        # catch-up and new events can never overtake each other.
        while not self._stop.is_set():
            try:
                self._queue.get(timeout=POLL_S)
            except queue.Empty:
                if not self._wake.is_set():
                    continue
            self._wake.clear()
            if self.connected.is_set():
                self._send_new()

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=2)
        self.source.unsubscribe(self._queue)
        if self.connected.is_set():
            self._client.publish(f"{self.base}/status", "offline", qos=QOS, retain=True).wait_for_publish(2)
        self._client.disconnect()
        self._client.loop_stop()

    def __enter__(self) -> MqttBridge:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "connected" if self.connected.is_set() else "waiting for the broker"
        return f"<MqttBridge {self.host}:{self.port} {self.base} {state}>"
