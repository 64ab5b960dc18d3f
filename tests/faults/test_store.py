"""The store's disk full: SQLite's "database or disk is full" during a read's commit, and
for decisions and new games. Each says so, changes nothing, and the next try after space
is freed is stored once (no event lost or doubled)."""

from __future__ import annotations

import sqlite3

import pytest

from station.storage import DiskFull
from tests.faults.conftest import RED_MAN, session, snapshot


def ids(st) -> list[int]:
    return [e.id for e in st.store.events_after(0)]


class FullAtCommit:
    """The store's connection, whose COMMIT fails as SQLite's does when the disk fills."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.full = True

    def execute(self, sql: str, *args):
        if self.full and sql.strip().upper() == "COMMIT":
            raise sqlite3.OperationalError("database or disk is full")
        return self.db.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.db, name)


def test_a_full_database_at_commit_stores_nothing_and_the_next_read_is_stored_once(
        tmp_path, station_on):
    st = station_on(session(tmp_path / "imgs", 3))
    st.start_game(**RED_MAN)
    assert st.press().status == "stored"
    before = snapshot(st)
    real = st.store.db
    st.store.db = proxy = FullAtCommit(real)
    out = st.press()
    assert out.status == "disk_full" and "database or disk is full" in out.message
    assert "nothing changed" in out.message
    assert snapshot(st) == before
    proxy.full = False
    again = st.press()
    assert again.status == "stored"
    st.store.db = real
    assert st.state_json()["reads"] == 2
    assert ids(st) == list(range(1, len(ids(st)) + 1))  # no gap, nothing twice
    photos = sorted(p.name for p in st.store.photos.iterdir())
    assert photos == sorted(f"{i}{s}" for i in (2, 3) for s in (".jpg", "-annotated.jpg"))


def test_decisions_and_new_games_on_a_full_disk_say_so_and_change_nothing(tmp_path, station_on):
    st = station_on(session(tmp_path / "imgs", 3))
    st.start_game(**RED_MAN)
    before = snapshot(st)
    real = st.store.db
    st.store.db = proxy = FullAtCommit(real)
    with pytest.raises(DiskFull, match="disk"):
        st.post_event({"type": "stake", "player": "Ana", "amount": 5})
    with pytest.raises(DiskFull, match="disk"):
        st.start_game(**RED_MAN)
    assert snapshot(st) == before
    proxy.full = False
    assert st.press().status == "stored"
    st.store.db = real
    assert real.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert ids(st) == list(range(1, len(ids(st)) + 1))


def test_the_api_says_507_when_the_disk_is_full(tmp_path, station_on):
    from web import create_app

    st = station_on(session(tmp_path / "imgs", 2))
    st.start_game(**RED_MAN)
    client = create_app({"GM_TOKEN": "t", "TESTING": True}, st).test_client()
    auth = {"Authorization": "Bearer t"}
    st.store.db = FullAtCommit(st.store.db)
    before = snapshot(st)
    r = client.post("/api/events", json={"type": "stake", "player": "Ana", "amount": 5},
                    headers=auth)
    assert r.status_code == 507 and "disk" in r.json["error"]
    r = client.post("/api/games", json=RED_MAN, headers=auth)
    assert r.status_code == 507 and "disk" in r.json["error"]
    r = client.post("/api/read", headers=auth)
    assert r.status_code == 507 and "disk" in r.json["error"]
    assert snapshot(st) == before
