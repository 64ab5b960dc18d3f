"""The station process caps malloc's arenas (less resident memory on the Pi)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from station import memory
from station.commands import demo, run

ROOT = Path(__file__).resolve().parents[2]

# eight threads allocate at once; prints how many arenas malloc made
THREADS = """
import sys, threading
sys.path.insert(0, {root!r})
from station import memory
if {limit}:
    memory.limit_arenas()
start = threading.Barrier(8)
def work():
    start.wait()
    for _ in range(200):
        blocks = [bytearray(2000 + i) for i in range(300)]
        del blocks
threads = [threading.Thread(target=work) for _ in range(8)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(memory.arena_count())
"""


def _arenas(limit: bool) -> int:
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"}
    out = subprocess.run([sys.executable, "-c", THREADS.format(root=str(ROOT), limit=limit)],
                         capture_output=True, text=True, env=env, check=True, timeout=60)
    return int(out.stdout.strip())


glibc = pytest.mark.skipif(memory.arena_count() is None, reason="not glibc: malloc arenas are glibc's")


@glibc
def test_threads_of_the_station_share_two_arenas():
    free = _arenas(limit=False)
    if free <= memory.ARENAS:
        pytest.skip(f"the threads made only {free} arenas without a cap here: nothing to show")
    assert _arenas(limit=True) <= memory.ARENAS


def test_a_users_malloc_arena_max_wins(monkeypatch):
    monkeypatch.setenv("MALLOC_ARENA_MAX", "3")  # glibc read it at start: the cap is the user's
    assert memory.limit_arenas() is False


def test_a_cap_below_one_is_refused():
    with pytest.raises(ValueError, match="at least 1"):
        memory.limit_arenas(0)


@pytest.mark.parametrize("command", [run, demo])
def test_the_station_commands_cap_arenas_before_building_the_station(command, monkeypatch):
    calls = []
    monkeypatch.setattr(command, "limit_arenas", lambda: calls.append("arenas"))

    def build(*a, **kw):
        calls.append("build")
        raise SystemExit(0)  # stop before serving

    monkeypatch.setattr(command, "build_station", build)
    if command is run:
        monkeypatch.setattr(command, "load_config", lambda *a, **kw: object())
    args = argparse.Namespace(config=None, data="/nonexistent-dicestation-data", port=0)
    with pytest.raises(SystemExit):
        command.run(args)
    assert calls == ["arenas", "build"]
