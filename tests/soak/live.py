"""Live pages on real sockets: a waitress server on 127.0.0.1 and SSE clients.

    with Served(station, threads=64) as served:
        pages = [Page(served.port) for _ in range(50)]
        ...  # presses
        Page.wait_all(pages, ids)

A `Page` is what a browser's EventSource does: it reads the stream, keeps the
last event id, and when the stream ends reconnects after `retry` with
Last-Event-ID. It records when each event id arrived (time.perf_counter).
Used by the soak tests and by bench/bench_latency.py.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from typing import Any

import waitress

from station.server import API_RESERVE_THREADS
from web import create_app

TOKEN = "soak-token"


class Served:
    """The station's app served by waitress on 127.0.0.1 (any free port) in a thread."""

    def __init__(self, station: Any, *, threads: int = 64, max_age_s: float | None = None,
                 keepalive_s: float = 0.5) -> None:
        config: dict[str, Any] = {"GM_TOKEN": TOKEN, "SSE_KEEPALIVE_S": keepalive_s,
                                  "SSE_MAX_STREAMS": max(1, threads - API_RESERVE_THREADS)}
        if max_age_s is not None:
            config["SSE_MAX_AGE_S"] = max_age_s
        self.app = create_app(config, station)
        self.server = waitress.create_server(self.app, host="127.0.0.1", port=0, threads=threads)
        self.port = self.server.effective_port
        self._stopping = threading.Event()
        self.thread = threading.Thread(target=self._serve, name="waitress", daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        # the loop closes its own sockets: closed from another thread while it waits in
        # select(), select() fails with EBADF and the thread dies with an exception
        from waitress import wasyncore

        while not self._stopping.is_set():
            wasyncore.loop(timeout=0.05, map=self.server._map, count=1)
        # every channel still open (a stream whose page has not hung up yet) and the
        # listener: left to the garbage collector they warn in whichever test runs next
        wasyncore.close_all(self.server._map)

    def get(self, path: str, timeout: float = 10.0) -> tuple[int, dict]:
        import urllib.request

        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=timeout) as r:
            return r.status, json.loads(r.read())

    def close(self) -> None:
        # streams notice a page that left at their next write (a keepalive): wait for them
        station = self.app.extensions["station"]
        deadline = time.monotonic() + 5
        while station.broker._subs and time.monotonic() < deadline:
            time.sleep(0.01)
        self.server.task_dispatcher.shutdown(timeout=5)
        self._stopping.set()
        self.thread.join(5)

    def __enter__(self) -> Served:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Page(threading.Thread):
    """An EventSource on a raw socket (HTTP/1.0: the body is the stream, no chunking)."""

    def __init__(self, port: int, *, after: int | None = None, max_retry_s: float = 0.2) -> None:
        super().__init__(name="page", daemon=True)
        self.port = port
        self.last_id = after  # None: from now on (the server tells the id at the start)
        self.max_retry_s = max_retry_s  # tests do not wait the page's 2-10 s retry
        self.ids: list[int] = []  # every event id received, in order (duplicates kept)
        self.arrived: dict[int, float] = {}  # id -> perf_counter when its message was complete
        self.connects = 0
        self.told_busy = 0
        self.connected = threading.Event()
        self.stopped = threading.Event()
        self.sock: socket.socket | None = None
        self.start()

    def run(self) -> None:
        while not self.stopped.is_set():
            retry_s = self._stream()
            if self.stopped.is_set():
                return
            time.sleep(min(retry_s, self.max_retry_s))

    def _stream(self) -> float:
        retry_s = 2.0
        try:
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        except OSError:
            return retry_s
        self.sock = sock
        head = "GET /api/events HTTP/1.0\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        if self.last_id is not None:
            head += f"Last-Event-ID: {self.last_id}\r\n"
        try:
            sock.sendall((head + "\r\n").encode())
            buf = b""
            headers_done = False
            fields: dict[str, str] = {}
            while not self.stopped.is_set():
                chunk = sock.recv(65536)
                if not chunk:
                    return retry_s
                buf += chunk
                if not headers_done:
                    if b"\r\n\r\n" not in buf:
                        continue
                    status, buf = buf.split(b"\r\n\r\n", 1)
                    assert status.split()[1] == b"200", status
                    headers_done = True
                    self.connects += 1
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    text = line.decode()
                    if text == "":  # dispatch
                        if "id" in fields:
                            self.last_id = int(fields["id"])
                        if fields.get("data"):
                            self.arrived.setdefault(int(fields["id"]), time.perf_counter())
                            self.ids.append(int(fields["id"]))
                        fields = {}
                        self.connected.set()
                    elif text.startswith(":"):
                        if "every live stream is taken" in text:
                            self.told_busy += 1
                    else:
                        name, _, value = text.partition(":")
                        value = value[1:] if value.startswith(" ") else value
                        if name == "retry":
                            retry_s = int(value) / 1000
                        elif name in ("id", "data", "event"):
                            fields[name] = value
            return retry_s
        except OSError:
            return retry_s
        finally:
            sock.close()

    def stop(self) -> None:
        self.stopped.set()
        if self.sock is not None:
            try:
                self.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self.join(5)

    @staticmethod
    def wait_all(pages: list[Page], last_id: int, timeout_s: float = 60.0) -> None:
        deadline = time.monotonic() + timeout_s
        for p in pages:
            while (p.last_id or 0) < last_id and time.monotonic() < deadline:
                time.sleep(0.01)
