"""Serving the station: build it from a config, serve the pages with waitress.

Used by `dicestation run` and `dicestation demo`. One process owns the camera
(no reloader, one waitress process; its threads serve pages while one worker
thread reads).
"""

from __future__ import annotations

import os
import secrets
import signal
import sys
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from station.camera import RetryingCamera, open_camera
from station.config import Config
from station.station import ReadOutcome, Station
from station.store import EventStore

API_RESERVE_THREADS = 4  # waitress threads never taken by live streams (web.api.StreamSlots)


def make_reader(config: Config):
    if config.read.reader == "labels":
        from station.camera import default_replay_folder
        from station.labels import LabelReader

        return LabelReader(config.camera.folder or default_replay_folder())
    from station.vision_reader import VisionReader

    return VisionReader(config.data_dir)


def build_station(config: Config, *, auto_game: Mapping[str, Any] | None = None,
                  pin_factory: Any = None) -> Station:
    config.data_dir.mkdir(parents=True, exist_ok=True)
    store = EventStore(config.data_dir)
    camera = RetryingCamera(lambda: open_camera(config.camera), live=config.camera.kind != "replay")
    led = None
    if config.button.enabled and config.button.led_pin >= 0:
        from station.trigger import StatusLed

        led = StatusLed(config.button.led_pin, pin_factory=pin_factory)
    return Station(store, camera, make_reader(config), config, led=led, auto_game=auto_game)


def gm_token(config: Config) -> tuple[str, bool]:
    """The GM token and whether it was generated for this run."""
    token = config.web.gm_token or os.environ.get("DICESTATION_GM_TOKEN", "")
    if token:
        return token, False
    return secrets.token_urlsafe(12), True


def sse_max_streams(config: Config) -> int:
    """Live pages served at once: waitress's threads less those kept for API calls."""
    return max(1, config.web.threads - API_RESERVE_THREADS)


def describe(outcome: ReadOutcome) -> str:
    if outcome.status == "stored" and outcome.read:
        dice = " ".join(str(d["value"]) for d in outcome.read["dice"])
        return f"read {outcome.read['id']}: {dice} ({outcome.ms:.0f} ms)"
    return f"{outcome.status}: {outcome.message}"


def serve(station: Station, config: Config, *, host: str, port: int, keyboard: bool) -> int:
    import waitress

    from web import create_app

    token, generated = gm_token(config)
    app = create_app({"GM_TOKEN": token, "SSE_MAX_STREAMS": sse_max_streams(config)}, station)
    button = keys = None
    if config.button.enabled:
        from station.trigger import GpioButton

        button = GpioButton(config.button.pin, station.request_read, bounce_s=config.button.bounce_s)
    if keyboard:
        from station.trigger import KeyboardTrigger

        def on_enter() -> None:
            future = station.request_read()
            if future is None:
                print("a read is in progress: press ignored", flush=True)
            else:
                future.add_done_callback(lambda f: print(describe(f.result()), flush=True))

        keys = KeyboardTrigger(sys.stdin, on_enter)
    bridge = None
    if config.mqtt.enabled:
        from station.mqtt import MqttBridge

        last = station.store.events_after(0)
        bridge = MqttBridge(station, config.mqtt.host, config.mqtt.port, table=config.mqtt.table,
                            prefix=config.mqtt.prefix).start(last[-1].id if last else 0)
        print(f"dicestation: publishing events to mqtt://{config.mqtt.host}:{config.mqtt.port}/"
              f"{config.mqtt.prefix}/{config.mqtt.table}", flush=True)
    server = waitress.create_server(app, host=host, port=port, threads=config.web.threads)
    shown = "localhost" if host in ("0.0.0.0", "127.0.0.1", "") else host
    print(f"dicestation: serving on http://{shown}:{server.effective_port}/", flush=True)
    print(f"dicestation: data in {Path(station.store.folder).resolve()}", flush=True)
    if generated:
        print(f"dicestation: GM token for this run: {token}", flush=True)
    if keys:
        print("dicestation: press Enter to read the dice", flush=True)

    warm_up = getattr(station.reader, "warm_up", None)
    if warm_up is not None:  # the networks load while the pages connect, not at the first press
        threading.Thread(target=warm_up, name="reader warm-up", daemon=True).start()

    def stop(signum, frame):  # systemd stops with SIGTERM
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
        if keys:
            keys.close()
        if button:
            button.close()
        if bridge:
            bridge.close()
        station.wait_idle()
        station.close()
        station.store.close()
    return 0
