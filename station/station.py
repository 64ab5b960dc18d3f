"""The running station: a press becomes a stored, scored, published read.

    press -> camera (still frames) -> reader -> table (map to throws) -> store -> publish

One worker thread owns the camera; a press while a read is in progress is
ignored, not queued. Every change is stored before it is published, and the
state is always the replay of the stored events (station.session).
"""

from __future__ import annotations

import contextlib
import csv
import io
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from rules import BadEvent, Event, EventType, RulesError, get_game, state_json
from rules.text import Text, said, text_of
from station.annotate import annotate, encode_jpeg
from station.camera import Camera, Frame
from station.config import Config
from station.errors import CameraError, Misfit, NoOpenGame, NotAccepted
from station.session import Replay, replay, script
from station.storage import DiskFull, check_free_space, prune_photos
from station.store import EventStore, StoredEvent, StoredGame
from station.table import Seating, check_moved, map_read
from station.tray import Layout, LayoutError, limit_to_tray, load_layout
from vision.types import Reading

log = logging.getLogger(__name__)

Reader = Callable[[np.ndarray], Reading]  # may also take game_kinds= (see takes_game_kinds)
STILL_WORK_WIDTH_PX = 160  # frames are compared at this width: cheap, and ignores sensor noise
SUBSCRIBER_QUEUE = 1000
PRUNE_EVERY_READS = 50  # photos are pruned (station.storage) after this many stored reads


@dataclass(frozen=True)
class ReadOutcome:
    """What a press gave: a stored read, a refusal (stored for audit), or nothing."""

    status: str  # "stored" | "refused" | "busy" | "camera" | "no_game" | "disk_full"
    message: str = ""
    read: dict[str, Any] | None = None
    ms: float = 0.0  # from the press to the stored event
    state: dict[str, Any] | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "ms": round(self.ms, 1)}
        if self.message:
            out.update(said("message", self.message))
        if self.read is not None:
            out["read"] = self.read
        if self.state is not None:
            out["state"] = self.state
        return out


class Broker:
    """Publish/subscribe of stored events to live pages (one queue per subscriber)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subs: list[queue.Queue] = []

    def subscribe(self) -> queue.Queue:
        q: queue.Queue = queue.Queue(SUBSCRIBER_QUEUE)
        with self._lock:
            self._subs.append(q)
        return q

    def unsubscribe(self, q: queue.Queue) -> None:
        with self._lock:
            if q in self._subs:
                self._subs.remove(q)

    def publish(self, message: dict[str, Any]) -> None:
        with self._lock:
            subs = list(self._subs)
        for q in subs:
            try:
                q.put_nowait(message)
            except queue.Full:  # a page that stopped reading: it catches up by Last-Event-ID
                pass


def sse_type(kind: str) -> str:
    return {"undo": "decision"}.get(kind, kind)


def read_json(ev: StoredEvent) -> dict[str, Any]:
    """A stored read as the API shows it (GET /api/last-read)."""
    d = ev.data
    out = {
        "id": ev.id,
        "time": ev.time,
        "status": "refused" if ev.kind == "refused" else "stored",
        "dice": d.get("dice", []),
        "rejected": d.get("rejected", []),
        "photo": f"/photos/{d['photo']}" if d.get("photo") else None,
        "annotated": f"/photos/{d['annotated']}" if d.get("annotated") else None,
        "throws": [t["event"] for t in d.get("throws", [])],
    }
    if d.get("message"):
        out["message"] = d["message"]
    if d.get("message_i18n"):
        out["message_i18n"] = d["message_i18n"]
    return out


class Station:
    """The table session around a store, a camera and a reader. close() it."""

    def __init__(
        self,
        store: EventStore,
        camera: Camera,
        reader: Reader,
        config: Config | None = None,
        *,
        led: Any = None,
        auto_game: Mapping[str, Any] | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.store = store
        self.camera = camera
        self.reader = reader
        self.config = config or Config()
        self.seating = Seating.from_config(self.config.table)
        self.tray_corners: tuple[tuple[float, float], ...] = ()  # none: the whole photo counts
        self.layout_problem = ""  # why the saved tray layout was ignored ("" if it was not)
        self.led = led
        self.auto_game = dict(auto_game) if auto_game else None  # demo: start one when needed
        self.sleep = sleep
        self.broker = Broker()
        self._lock = threading.RLock()  # guards the game and its replay
        self._pending = threading.Lock()  # held from an accepted press to the end of its read
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="camera")
        self._reads_since_prune = PRUNE_EVERY_READS  # prune at the first read
        self._hung: threading.Thread | None = None  # a capture that did not return in time
        self._hung_since = 0.0
        self.game_row: StoredGame | None = None
        self.replay: Replay | None = None
        self._load_layout()
        self._load()
        last = self._last_source()
        if last and hasattr(camera, "resume_after"):
            try:
                camera.resume_after(last)  # a replayed session continues where it was stopped
            except CameraError:
                pass  # the camera is not ready: the first press retries

    # --- loading ---------------------------------------------------------
    def _load(self) -> None:
        with self._lock:
            self.game_row = self.store.open_game() or self.store.latest_game()
            if self.game_row is not None and self.game_row.status == "abandoned":
                self.game_row = None
            self.replay = None
            if self.game_row is not None:
                self.replay = replay(self.game_row, self.store.events(self.game_row.id))

    def _load_layout(self) -> None:
        """The tray corners and seat zones saved by the calibration page, if any. An unusable
        file is reported and ignored: the station runs on the config's zones."""
        try:
            layout = load_layout(self.store.folder)
        except LayoutError as exc:
            self.layout_problem = (f"the tray calibration was ignored ({exc}): open the GM "
                                   "screen, Calibrate, and save the corners and zones again")
            log.warning("dicestation: %s", self.layout_problem)
            return
        if layout is not None:
            self.set_layout(layout)

    def set_layout(self, layout: Layout) -> None:
        """Use these tray corners and seat zones from the next read on (zones: the config's
        when the layout has none)."""
        zones = layout.zones or self.config.table.zones
        with self._lock:
            self.seating = replace(self.seating, zones=zones)
            self.tray_corners = tuple(layout.corners)
            self.layout_problem = ""

    def _last_source(self) -> str | None:
        for g in reversed(self.store.games()):
            for ev in reversed(self.store.events(g.id)):
                if ev.kind in ("read", "refused") and ev.data.get("source"):
                    return ev.data["source"]
        return None

    # --- what pages show -------------------------------------------------
    def state_json(self) -> dict[str, Any]:
        with self._lock:
            if self.game_row is None or self.replay is None:
                return {"game": None, "finished": False, "next": None, "reads": 0, "game_id": None}
            out = state_json(self.replay.state)
            out["reads"] = len(self.replay.reads)
            out["game_id"] = self.game_row.id
            out["undoable"] = bool(self.replay.undoable)
            return out

    def last_read(self) -> dict[str, Any] | None:
        """The last read of the game: stored, or refused if that came later."""
        with self._lock:
            if self.game_row is None or self.replay is None:
                return None
            last = self.replay.last_read
            events = self.store.events(self.game_row.id)
        refused = [e for e in events if e.kind == "refused" and (last is None or e.id > last.id)]
        if refused:
            return read_json(refused[-1])
        return read_json(last) if last else None

    def photo_folder(self):
        return self.store.photos

    # --- games and decisions ---------------------------------------------
    def start_game(self, game: Any, players: Any, options: Any = None) -> dict[str, Any]:
        """Start a game (the open one, if any, is abandoned); NotAccepted says what is wrong."""
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise NotAccepted("'options' must be a JSON object")
        try:
            rules = get_game(game)
            rules.new(players, options)  # validates players and options
        except RulesError as exc:
            raise NotAccepted(text_of(exc)) from None
        with self._lock:
            with _stored("the new game"):
                row = self.store.start_game(game, list(players), dict(options))
            self.game_row = row
            self.replay = replay(row, self.store.events(row.id))
            ev = self.store.events(row.id)[-1]
        self._publish(ev)
        return self.state_json()

    def _next_kinds(self) -> frozenset[str] | None:
        """The kinds of die the game's next throw uses (None: it waits for no throw)."""
        if self.game_row is None or self.replay is None:
            return None
        nxt = get_game(self.game_row.game).next(self.replay.state)
        if nxt is None or nxt.action != "throw" or not nxt.dice:
            return None
        return frozenset(nxt.dice)

    def _open(self) -> tuple[StoredGame, Replay]:
        if self.game_row is None or self.replay is None:
            raise NoOpenGame("no game is open: start one (POST /api/games)")
        return self.game_row, self.replay

    def post_event(self, data: Any) -> dict[str, Any]:
        """A decision (§3 vocabulary), a correction or an undo, checked then stored."""
        if not isinstance(data, Mapping):
            raise NotAccepted("an event is a JSON object with a 'type'")
        kind = data.get("type")
        with self._lock:
            row, rp = self._open()
            if kind == "correct":
                stored_kind, payload = "correction", self._correction(rp, data)
            elif kind == "undo":
                if set(data) - {"type"}:
                    raise NotAccepted("an undo has no other fields")
                if not rp.undoable:
                    raise NotAccepted("nothing to undo")
                stored_kind, payload = "undo", {"undoes": rp.undoable[-1]}
            else:
                if kind == EventType.THROW.value:
                    raise NotAccepted("throws come from the camera: press the button (POST /api/read)"
                                      " or correct a read ({\"type\": \"correct\", ...})")
                try:
                    event = Event.from_json(data)
                except BadEvent as exc:
                    raise NotAccepted(text_of(exc)) from None
                stored_kind, payload = "decision", {"event": event.to_json()}
            if row.status == "finished" and stored_kind == "decision":
                pass  # a closing word after the end (tip the hat) is up to the game
            trial = list(self.store.events(row.id)) + [
                StoredEvent(2**62, row.id, stored_kind, 0.0, payload)
            ]
            try:
                replay(row, trial)
            except RulesError as exc:
                raise NotAccepted(text_of(exc)) from None
            with _stored(f"the {stored_kind}"):
                ev = self.store.append(row.id, stored_kind, payload)
            self._after_change(row)
        self._publish(ev)
        return self.state_json()

    def _correction(self, rp: Replay, data: Mapping[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(data) - {"type", "read", "die", "value"})
        if unknown:
            raise NotAccepted(f"unknown field {unknown[0]!r} in a correction")
        read_id, die, value = data.get("read"), data.get("die"), data.get("value")
        if isinstance(read_id, bool) or not isinstance(read_id, int):
            raise NotAccepted("a correction needs 'read': the id of a stored read")
        target = next((r for r in rp.reads if r.id == read_id), None)
        if target is None:
            raise NotAccepted(f"read {read_id} is not a read of this game")
        n = len(target.data.get("dice", []))
        if isinstance(die, bool) or not isinstance(die, int) or not 0 <= die < n:
            raise NotAccepted(f"'die' must be the index of a die of read {read_id} (0-{n - 1})")
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise NotAccepted("'value' must be a number or a taba face")
        return {"read": read_id, "die": die, "value": value}

    def _after_change(self, row: StoredGame) -> None:
        """Rebuild the state from the store; mark the game finished (or open again)."""
        rp = replay(row, self.store.events(row.id))
        if rp.state.finished and row.status == "open":
            self.store.finish_game(row.id)
        elif not rp.state.finished and row.status == "finished":
            self.store.reopen_game(row.id)
        self.game_row = self.store.game(row.id)
        self.replay = rp

    # --- reads -----------------------------------------------------------
    def request_read(self, override: bool = False) -> Future | None:
        """Start a read on the camera thread; None (ignored) if one is in progress."""
        if not self._pending.acquire(blocking=False):
            return None
        t_press = time.perf_counter()
        try:
            return self._worker.submit(self._read_job, override, t_press)
        except BaseException:
            self._pending.release()
            raise

    def press(self, override: bool = False, timeout_s: float = 60.0) -> ReadOutcome:
        """A press that waits for its read (the API); "busy" if one is in progress."""
        future = self.request_read(override)
        if future is None:
            return ReadOutcome("busy", "a read is already in progress: press ignored")
        return future.result(timeout_s)

    def wait_idle(self, timeout_s: float = 30.0) -> None:
        """Wait until no read is in progress (tests, shutdown)."""
        if self._pending.acquire(timeout=timeout_s):
            self._pending.release()

    def _read_job(self, override: bool, t_press: float) -> ReadOutcome:
        try:
            self._led("reading")
            outcome = self._read(override, t_press)
            self._led({"stored": "done"}.get(outcome.status, "rethrow"))
            return outcome
        finally:
            self._pending.release()

    def _led(self, what: str) -> None:
        if self.led is not None:
            self.led.show(what)

    def _capture(self) -> Frame:
        """camera.capture() with a deadline (camera.timeout_s, monotonic): a capture that never
        returns is a CameraError and the station stays usable. The stuck call is left on its
        own daemon thread; until it returns, presses are answered at once that the camera is
        not answering (no second thread piles up on a stuck driver)."""
        timeout_s = self.config.camera.timeout_s or None  # 0: no deadline
        if self._hung is not None:
            if self._hung.is_alive():
                stuck_s = time.monotonic() - self._hung_since
                raise CameraError(f"the camera has not answered a capture for {stuck_s:.0f} s: "
                                  "check its cable, or restart the station")
            self._hung = None
        box: dict[str, Any] = {}

        def capture() -> None:
            try:
                box["frame"] = self.camera.capture()
            except BaseException as exc:  # handed to the read, re-raised there
                box["error"] = exc

        thread = threading.Thread(target=capture, name="capture", daemon=True)
        thread.start()
        thread.join(timeout_s)
        if thread.is_alive():
            self._hung, self._hung_since = thread, time.monotonic()
            raise CameraError(f"the camera did not answer within {timeout_s:g} s")
        if "error" in box:
            raise box["error"]
        return box["frame"]

    def _capture_still(self) -> Frame:
        """A frame of dice lying still: consecutive frames must agree (live cameras only)."""
        cfg = self.config.read
        frame = self._capture()
        if not self.camera.live or cfg.still_frames <= 1:
            return frame
        deadline = time.monotonic() + cfg.still_timeout_s
        agree = 1
        small = _small_grey(frame.image_bgr)
        while agree < cfg.still_frames:
            if time.monotonic() > deadline:
                raise Misfit(Text("the dice are still moving: press again when they lie still"))
            nxt = self._capture()
            nsmall = _small_grey(nxt.image_bgr)
            diff = float(np.mean(cv2.absdiff(small, nsmall)))
            agree = agree + 1 if diff <= cfg.still_max_diff else 1
            frame, small = nxt, nsmall
        return frame

    def _read(self, override: bool, t_press: float, *, on_tray: bool = True) -> ReadOutcome:
        """One read. `on_tray`: the frame is the station camera's, so the calibrated tray
        applies (a phone's upload is not in the camera's pixels)."""
        with self._lock:
            if (self.game_row is None or self.game_row.status != "open") and self.auto_game:
                self.start_game(**self.auto_game)
            if self.game_row is None or self.game_row.status != "open":
                return ReadOutcome("no_game", Text("no game is open: start one first"))
            kinds = self._next_kinds()
        try:
            check_free_space(self.store.photos, self.config.storage)
        except DiskFull as exc:
            return ReadOutcome("disk_full", str(exc))
        try:
            frame = self._capture_still()
        except CameraError as exc:
            return ReadOutcome("camera", Text("camera problem: {error}; press again", error=str(exc)))
        except Misfit as exc:
            return ReadOutcome("refused", text_of(exc))
        raw = (self.reader(frame.image_bgr, game_kinds=kinds)
               if getattr(self.reader, "takes_game_kinds", False) else self.reader(frame.image_bgr))
        h, w = frame.image_bgr.shape[:2]
        with self._lock:
            tray = self.tray_corners if on_tray else ()
            reading = limit_to_tray(raw, tray)  # stored, drawn and shown alike
            row, rp = self._open()
            message = ""
            throws = []
            try:
                if not override and rp.last_read is not None:
                    check_moved(reading.dice, rp.last_read.data.get("dice", []),
                                self.config.read.same_place_px)
                throws, _ = map_read(get_game(row.game), rp.state, reading, self.seating, (w, h))
                kind = "read"
            except Misfit as exc:
                kind, message = "refused", text_of(exc)
            data: dict[str, Any] = {
                "source": frame.metadata.get("source"),
                "metadata": _plain(frame.metadata),
                "taken": frame.time,
                "size": [w, h],
                "dice": [d.to_json() for d in reading.dice],
                "rejected": [r.to_json() for r in reading.rejected],
                "throws": [t.to_json() for t in throws],
                "override": bool(override),
                "reader_ms": {k: round(v, 1) for k, v in reading.timings_ms.items()},
            }
            if message:
                data.update(said("message", message))  # and its template: the page's language
            if tray:
                data["tray"] = [list(p) for p in tray]  # the tray the read was limited to
            q = self.config.read.jpeg_quality
            photos = {
                ".jpg": encode_jpeg(frame.image_bgr, q),
                "-annotated.jpg": encode_jpeg(annotate(frame.image_bgr, reading, message, tray), q),
            }
            try:
                ev = self.store.append(row.id, kind, data, photos)
            except (OSError, sqlite3.OperationalError) as exc:  # ENOSPC, "database or disk is full"
                return ReadOutcome("disk_full", f"the read could not be stored ({exc}): nothing "
                                   "changed; free some disk space and press again")
            self._reads_since_prune += 1
            if self._reads_since_prune >= PRUNE_EVERY_READS:
                self._reads_since_prune = 0
                prune_photos(self.store.photos, self.config.storage)
            ms = (time.perf_counter() - t_press) * 1000
            if kind == "read":
                self._after_change(row)
        self._publish(ev)
        return ReadOutcome("stored" if kind == "read" else "refused", message, read_json(ev), ms,
                           self.state_json())

    # --- live pages ------------------------------------------------------
    def message(self, ev: StoredEvent, with_state: bool = True) -> dict[str, Any]:
        out = {"id": ev.id, "type": sse_type(ev.kind), "kind": ev.kind, "game": ev.game_id,
               "time": ev.time}
        if ev.kind in ("read", "refused"):
            out["read"] = read_json(ev)
        else:
            out["data"] = ev.data
        if with_state:
            out["state"] = self.state_json()
        return out

    def _publish(self, ev: StoredEvent) -> None:
        self.broker.publish(self.message(ev))

    def subscribe(self) -> queue.Queue:
        return self.broker.subscribe()

    def unsubscribe(self, q: queue.Queue) -> None:
        self.broker.unsubscribe(q)

    def events_after(self, event_id: int) -> list[dict[str, Any]]:
        """Stored events after `event_id`, as live messages (a page catching up)."""
        evs = self.store.events_after(event_id)
        return [self.message(e, with_state=(i == len(evs) - 1)) for i, e in enumerate(evs)]

    # --- history ---------------------------------------------------------
    def history(self) -> list[dict[str, Any]]:
        return [g.to_json() for g in self.store.games()]

    def export_script(self, game_id: int) -> dict[str, Any]:
        row = self.store.game(game_id)
        if row is None:
            raise NoOpenGame(f"no game {game_id}")
        return script(row, replay(row, self.store.events(game_id)))

    def export_csv(self, game_id: int) -> str:
        row = self.store.game(game_id)
        if row is None:
            raise NoOpenGame(f"no game {game_id}")
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow(["event", "time", "kind", "player", "type", "dice", "amount", "photo"])
        rp = replay(row, self.store.events(game_id))
        live = {r.id: r for r in rp.reads}
        for ev in self.store.events(game_id):
            if ev.kind == "read":
                read = live.get(ev.id, ev)
                for t in read.data.get("throws", []):
                    e = t["event"]
                    dice = " ".join(str(d["value"] if isinstance(d, dict) else d) for d in e["dice"])
                    w.writerow([ev.id, ev.time, "read" if ev.id in live else "read (undone)",
                                e.get("player"), "throw", dice, "", read.data.get("photo", "")])
            elif ev.kind == "decision":
                e = ev.data["event"]
                w.writerow([ev.id, ev.time, ev.kind, e.get("player", ""), e["type"], "",
                            e.get("amount", ""), ""])
            else:
                w.writerow([ev.id, ev.time, ev.kind, "", "", "", "", ev.data.get("photo", "")])
        return out.getvalue()

    # --- shutdown --------------------------------------------------------
    def close(self) -> None:
        self._worker.shutdown(wait=True)
        self.camera.close()
        if self.led is not None:
            self.led.close()

    def __enter__(self) -> Station:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        game = self.game_row.game if self.game_row else None
        return f"<Station game={game} camera={self.camera!r}>"


@contextlib.contextmanager
def _stored(what: str) -> Iterator[None]:
    """A store write that fails on a full disk ("database or disk is full", ENOSPC) is a
    DiskFull saying nothing changed (the transaction was rolled back)."""
    try:
        yield
    except (OSError, sqlite3.OperationalError) as exc:
        raise DiskFull(f"{what} could not be stored ({exc}): nothing changed; free some disk "
                       "space and try again") from None


def _small_grey(image_bgr: np.ndarray) -> np.ndarray:
    h, w = image_bgr.shape[:2]
    scale = STILL_WORK_WIDTH_PX / max(w, 1)
    small = cv2.resize(image_bgr, (STILL_WORK_WIDTH_PX, max(1, int(h * scale))),
                       interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)


def _plain(meta: Mapping[str, Any]) -> dict[str, Any]:
    """Frame metadata as JSON-safe values."""
    out = {}
    for k, v in meta.items():
        if isinstance(v, (str, int, float, bool)) or v is None:
            out[k] = v
        elif isinstance(v, (tuple, list)):
            out[k] = [x if isinstance(x, (str, int, float, bool)) else str(x) for x in v]
        else:
            out[k] = str(v)
    return out
