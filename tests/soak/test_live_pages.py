"""50 live pages (SSE clients on real sockets to waitress on 127.0.0.1) at once: each
receives every event id, in order, once, while the API stays answerable."""

from __future__ import annotations

import time

import pytest

from station.config import Config
from station.station import Station
from tests.soak.live import Page, Served

PAGES = 50
PRESSES = 40
GAME = {"game": "red_mans_throw", "players": ["Ana", "Bruno"], "options": {"stake": 5}}


@pytest.fixture
def station(demo_station):
    return demo_station


def play(st: Station, presses: int) -> None:
    for _ in range(presses):
        if st.state_json()["finished"] or st.state_json()["game"] is None:
            st.start_game(**GAME)
        st.press(override=True)


def check(pages: list[Page], expected: list[int]) -> None:
    for i, page in enumerate(pages):
        assert page.ids == expected, (i, page.ids[:5], len(page.ids), len(expected))


@pytest.mark.slow
@pytest.mark.parametrize("max_age_s", [None, 1.0], ids=["streams-stay", "streams-rotate"])
def test_50_live_pages_receive_every_event_in_order(station, max_age_s):
    threads = Config().web.threads  # the shipped default must carry 50 pages
    with Served(station, threads=threads, max_age_s=max_age_s) as served:
        pages = [Page(served.port) for _ in range(PAGES)]
        try:
            for p in pages:
                assert p.connected.wait(30), "a page could not connect"
            start = station.store.last_event_id()
            t0 = time.monotonic()
            status, state = served.get("/api/state", timeout=5)  # the API is not starved
            assert status == 200 and time.monotonic() - t0 < 5
            play(station, PRESSES)
            last = station.store.last_event_id()
            Page.wait_all(pages, last, timeout_s=60)
            expected = [e.id for e in station.store.events_after(start)]
            assert len(expected) >= PRESSES
            check(pages, expected)
            if max_age_s is not None:  # streams end and pages come back by Last-Event-ID
                # the presses may all be over before the first stream's age is up: give
                # every stream time to end once (a fast, idle machine), then check again
                deadline = time.monotonic() + 10 * max_age_s + 10
                while time.monotonic() < deadline and not all(p.connects >= 2 for p in pages):
                    time.sleep(0.1)
                assert all(p.connects >= 2 for p in pages)
                check(pages, expected)  # coming back lost nothing and doubled nothing
        finally:
            for p in pages:
                p.stop()


def test_pages_over_the_stream_cap_are_told_to_come_back_and_miss_nothing(station):
    """6 threads: 2 streams at most (4 kept for the API). A third page is told to retry,
    the API still answers, and when a stream ends the third page gets its turn and catches
    up by Last-Event-ID."""
    with Served(station, threads=6, max_age_s=0.5) as served:
        start = station.store.last_event_id()
        pages = [Page(served.port, after=start) for _ in range(3)]
        try:
            deadline = time.monotonic() + 10
            while not any(p.told_busy for p in pages) and time.monotonic() < deadline:
                time.sleep(0.01)
            assert any(p.told_busy for p in pages)
            assert served.get("/api/state", timeout=5)[0] == 200
            play(station, 6)
            last = station.store.last_event_id()
            Page.wait_all(pages, last, timeout_s=30)
            check(pages, [e.id for e in station.store.events_after(start)])
        finally:
            for p in pages:
                p.stop()
