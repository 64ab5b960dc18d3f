"""SIGKILL during a store write: after a restart SQLite passes PRAGMA integrity_check,
every acknowledged write is there once, no half-written event is visible, every stored
read has its photos whole, and appending goes on with the next id."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from station.store import EventStore

ROOT = Path(__file__).resolve().parents[2]
KILLS = 12


def start(data: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tests.faults.writer", str(data), *extra],
                            cwd=ROOT, stdout=subprocess.PIPE, text=True)


def kill(proc: subprocess.Popen) -> list[int]:
    proc.send_signal(signal.SIGKILL)
    out, _ = proc.communicate(timeout=30)
    return [int(x.split()[1]) for x in out.splitlines() if x.startswith("committed")]


def check(data: Path, acknowledged: set[int]) -> list[int]:
    with EventStore(data) as store:
        assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        events = store.events_after(0, limit=10**6)
        ids = [e.id for e in events]
        assert ids == sorted(set(ids)), "an event twice or out of order"
        assert ids == list(range(1, len(ids) + 1)), "a gap in the ids"
        assert acknowledged <= set(ids), f"lost: {sorted(acknowledged - set(ids))}"
        for e in events:
            if e.kind == "read":
                assert e.data.get("photo") and e.data.get("annotated"), "a half-written event"
                for name in (e.data["photo"], e.data["annotated"]):
                    blob = (store.photos / name).read_bytes()
                    assert blob[:2] == b"\xff\xd8" and blob[-2:] == b"\xff\xd9", name
        return ids


def test_sigkill_at_random_moments_of_a_writing_loop(tmp_path):
    data = tmp_path / "data"
    rng = random.Random(8)
    acknowledged: set[int] = set()
    for _ in range(KILLS):
        proc = start(data)
        assert proc.stdout.readline().startswith("committed")  # it is writing
        time.sleep(rng.uniform(0.0, 0.15))
        acknowledged |= set(kill(proc))
        check(data, acknowledged)
    assert len(acknowledged) >= KILLS


def test_sigkill_inside_the_transaction_leaves_no_trace_and_the_id_is_reused(tmp_path):
    data = tmp_path / "data"
    with EventStore(data) as store:
        game = store.start_game("red_mans_throw", ["Ana", "Bruno"], {})
        store.append(game.id, "read", {"dice": []}, {".jpg": b"\xff\xd8one\xff\xd9",
                                                      "-annotated.jpg": b"\xff\xd8a\xff\xd9"})
    proc = start(data, "--pause-in-window")
    assert proc.stdout.readline().strip() == "in-window"  # row inserted, photo 3.jpg written
    assert kill(proc) == []
    ids = check(data, {1, 2})
    assert ids == [1, 2]  # the event of the killed write is not there
    proc = start(data)  # the game resumes: the next write gets id 3, its photo replaced
    assert proc.stdout.readline().strip() == "committed 3"
    acknowledged = set(kill(proc)) | {1, 2, 3}
    check(data, acknowledged)
