"""The station killed with SIGKILL in the middle of a session, and restarted.

A subprocess runs `dicestation run` on a data folder (ReplayCamera over a
recorded Red Man's Throw; LabelReader stand-in). A driver presses through the
API, and kills the station while a read is in flight, three times. After each
restart the game resumes; in the end the state is the scripted one, every
photo was stored exactly once, and no read was lost or counted twice.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from rules import play_script, state_json
from station.store import EventStore
from tests.station.compare import strip
from tests.station.conftest import load_example, photos

TOKEN = "crash-test-token"
START_TIMEOUT_S = 60


class Running:
    def __init__(self, config: Path, data: Path) -> None:
        env = dict(os.environ, DICESTATION_GM_TOKEN=TOKEN, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "station.cli", "run", "--config", str(config), "--data",
             str(data)],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            env=env, text=True,
        )
        deadline = time.monotonic() + START_TIMEOUT_S
        self.url = None
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            m = re.search(r"serving on (http://\S+?)/?$", line.strip())
            if m:
                self.url = m.group(1)
                break
        assert self.url, "the station did not start"

    def call(self, method: str, path: str, body: dict | None = None, timeout: float = 30):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.url + path, data=data, method=method, headers={
            "Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                return resp.status, json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            with exc:
                return exc.code, json.loads(exc.read())

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.proc.stdout.close()

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=30)
        self.proc.stdout.close()


def test_sigkill_mid_session_loses_nothing_and_counts_nothing_twice(recorded, tmp_path):
    script = load_example("red_mans_throw")
    steps, folder = recorded(script)
    n_photos = len(photos(steps))
    config = tmp_path / "station.toml"
    config.write_text(
        f'[camera]\nkind = "replay"\nfolder = "{folder}"\n'
        '[read]\nreader = "labels"\n'
        '[web]\nhost = "127.0.0.1"\nport = 0\nthreads = 4\n'
    )
    data = tmp_path / "data"
    rng = random.Random(5)
    station = Running(config, data)
    assert station.call("POST", "/api/games", {k: script[k] for k in ("game", "players",
                                                                      "options")})[0] == 201
    kills = 0
    presses = 0
    while True:
        status, state = station.call("GET", "/api/state")
        if state["finished"]:
            break
        presses += 1
        assert presses < 3 * n_photos, "the game does not advance"
        if kills < 3 and presses % 4 == 2:
            # press, and kill the station while the read is (probably) in flight
            t = threading.Thread(target=_ignore, args=(station.call, "POST", "/api/read"))
            t.start()
            time.sleep(rng.uniform(0.0, 0.03))
            station.kill()
            t.join()
            kills += 1
            station = Running(config, data)
            continue
        status, answer = station.call("POST", "/api/read")
        assert status == 200, answer
    final = station.call("GET", "/api/state")[1]
    station.stop()
    assert kills == 3
    assert strip(final) == state_json(play_script(script))
    assert final["reads"] == n_photos
    with EventStore(data) as store:
        assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        game = store.latest_game()
        sources = [e.data["source"] for e in store.events(game.id) if e.kind == "read"]
    assert sources == sorted(set(sources)) and len(sources) == n_photos


def _ignore(fn, *args):
    try:
        fn(*args)
    except (OSError, urllib.error.URLError, json.JSONDecodeError):
        pass  # the station died under the request
