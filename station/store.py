"""The event store: SQLite in WAL mode, photos on disk beside it.

Every change to a game is one row of `events` (kinds: game, read, refused,
correction, decision, undo, end). A read's photos are written atomically
(tmp + fsync + rename) inside the transaction that stores its row, so when
`append` returns, the read survives a SIGKILL or a power cut. The state of a
game is never stored: it is the replay of its events (station.session).
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    options TEXT NOT NULL,
    started REAL NOT NULL,
    ended REAL,
    status TEXT NOT NULL DEFAULT 'open'  -- open | finished | abandoned
);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games(id),
    kind TEXT NOT NULL,
    time REAL NOT NULL,
    data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_game ON events(game_id, id);
"""
BUSY_TIMEOUT_S = 10.0


@dataclass(frozen=True)
class StoredGame:
    id: int
    game: str
    players: tuple[str, ...]
    options: dict[str, Any]
    started: float
    ended: float | None
    status: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.game, "players": list(self.players),
                "options": self.options, "started": self.started, "ended": self.ended,
                "status": self.status}


@dataclass(frozen=True)
class StoredEvent:
    id: int
    game_id: int
    kind: str
    time: float
    data: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.game_id, "kind": self.kind, "time": self.time,
                "data": self.data}


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that a crash leaves the old file or the new, never half."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


class EventStore:
    """One SQLite file and a photo folder under `folder`. Thread-safe; close() it."""

    def __init__(self, folder: str | Path, *, clock: Callable[[], float] = time.time) -> None:
        self.folder = Path(folder)
        self.photos = self.folder / "photos"
        self.photos.mkdir(parents=True, exist_ok=True)
        self.clock = clock
        self._lock = threading.RLock()
        self.db = sqlite3.connect(
            self.folder / "dicestation.db", timeout=BUSY_TIMEOUT_S,
            check_same_thread=False, isolation_level=None,
        )
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")  # a stored read survives a power cut
        self.db.executescript(SCHEMA)

    # --- games -----------------------------------------------------------
    def start_game(self, game: str, players: list[str], options: Mapping[str, Any]) -> StoredGame:
        """A new open game; any game still open is marked abandoned."""
        now = self.clock()
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                self.db.execute(
                    "UPDATE games SET status='abandoned', ended=? WHERE status='open'", (now,)
                )
                cur = self.db.execute(
                    "INSERT INTO games (game, players, options, started) VALUES (?, ?, ?, ?)",
                    (game, json.dumps(players), json.dumps(dict(options)), now),
                )
                gid = cur.lastrowid
                self.db.execute(
                    "INSERT INTO events (game_id, kind, time, data) VALUES (?, 'game', ?, ?)",
                    (gid, now, json.dumps({"game": game, "players": players,
                                           "options": dict(options)})),
                )
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
        game_row = self.game(gid)
        assert game_row is not None
        return game_row

    def finish_game(self, game_id: int) -> None:
        with self._lock:
            self.db.execute(
                "UPDATE games SET status='finished', ended=? WHERE id=? AND status='open'",
                (self.clock(), game_id),
            )

    def reopen_game(self, game_id: int) -> None:
        """An undo of the last event of a finished game opens it again."""
        with self._lock:
            self.db.execute(
                "UPDATE games SET status='abandoned', ended=? WHERE status='open' AND id<>?",
                (self.clock(), game_id),
            )
            self.db.execute("UPDATE games SET status='open', ended=NULL WHERE id=?", (game_id,))

    def game(self, game_id: int) -> StoredGame | None:
        with self._lock:
            row = self.db.execute("SELECT * FROM games WHERE id=?", (game_id,)).fetchone()
        return _game(row) if row else None

    def open_game(self) -> StoredGame | None:
        with self._lock:
            row = self.db.execute(
                "SELECT * FROM games WHERE status='open' ORDER BY id DESC LIMIT 1"
            ).fetchone()
        return _game(row) if row else None

    def latest_game(self) -> StoredGame | None:
        with self._lock:
            row = self.db.execute("SELECT * FROM games ORDER BY id DESC LIMIT 1").fetchone()
        return _game(row) if row else None

    def games(self) -> list[StoredGame]:
        with self._lock:
            rows = self.db.execute("SELECT * FROM games ORDER BY id").fetchall()
        return [_game(r) for r in rows]

    # --- events ----------------------------------------------------------
    def append(
        self,
        game_id: int,
        kind: str,
        data: Mapping[str, Any],
        photos: Mapping[str, bytes] | None = None,
    ) -> StoredEvent:
        """Store one event (and its photos, named `<id><suffix>`) durably; returns it.

        `photos` maps a suffix (".jpg", "-annotated.jpg") to JPEG bytes; the
        event's data gets "photo"/"annotated" names for them.
        """
        now = self.clock()
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                cur = self.db.execute(
                    "INSERT INTO events (game_id, kind, time, data) VALUES (?, ?, ?, '{}')",
                    (game_id, kind, now),
                )
                eid = cur.lastrowid
                full = dict(data)
                for suffix, blob in (photos or {}).items():
                    name = f"{eid}{suffix}"
                    write_atomic(self.photos / name, blob)
                    full["annotated" if "annotated" in suffix else "photo"] = name
                self.db.execute("UPDATE events SET data=? WHERE id=?", (json.dumps(full), eid))
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
        return StoredEvent(eid, game_id, kind, now, full)

    def events(self, game_id: int) -> list[StoredEvent]:
        with self._lock:
            rows = self.db.execute(
                "SELECT id, game_id, kind, time, data FROM events WHERE game_id=? ORDER BY id",
                (game_id,),
            ).fetchall()
        return [_event(r) for r in rows]

    def events_after(self, event_id: int, limit: int = 1000) -> list[StoredEvent]:
        """Every stored event with an id above `event_id` (catch-up of a live page)."""
        with self._lock:
            rows = self.db.execute(
                "SELECT id, game_id, kind, time, data FROM events WHERE id>? ORDER BY id LIMIT ?",
                (event_id, limit),
            ).fetchall()
        return [_event(r) for r in rows]

    def event(self, event_id: int) -> StoredEvent | None:
        with self._lock:
            row = self.db.execute(
                "SELECT id, game_id, kind, time, data FROM events WHERE id=?", (event_id,)
            ).fetchone()
        return _event(row) if row else None

    def last_event_id(self) -> int:
        with self._lock:
            row = self.db.execute("SELECT MAX(id) FROM events").fetchone()
        return int(row[0] or 0)

    def close(self) -> None:
        with self._lock:
            self.db.close()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<EventStore {self.folder}>"


def _game(row: tuple) -> StoredGame:
    gid, game, players, options, started, ended, status = row
    return StoredGame(gid, game, tuple(json.loads(players)), json.loads(options), started, ended,
                      status)


def _event(row: tuple) -> StoredEvent:
    eid, gid, kind, t, data = row
    return StoredEvent(eid, gid, kind, t, json.loads(data))
