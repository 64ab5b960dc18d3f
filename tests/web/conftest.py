"""Fixtures for the page tests: a station on the bundled demo session, an app, clients."""

from __future__ import annotations

import re

import pytest

from web import create_app

TOKEN = "test-token"
BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
DEMO_GAME = {"game": "red_mans_throw", "players": ["Ana", "Bruno"], "options": {"stake": 5}}


@pytest.fixture
def station(demo_station):
    return demo_station


@pytest.fixture
def app(station):
    return create_app({"GM_TOKEN": TOKEN, "TESTING": True}, station)


@pytest.fixture
def client(app):
    """A client that asks for pages as a browser does (API paths answer JSON anyway)."""
    c = app.test_client()
    c.environ_base["HTTP_ACCEPT"] = BROWSER_ACCEPT
    return c


def csrf_of(client, path: str = "/gm/login") -> str:
    html = client.get(path).get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


@pytest.fixture
def gm(client):
    """A client logged in as the GM; `gm.csrf` is its CSRF token."""
    token = csrf_of(client)
    resp = client.post("/gm/login", data={"token": TOKEN, "csrf_token": token})
    assert resp.status_code == 302
    token = csrf_of(client, "/gm/")  # a new session (and token) after logging in
    client.csrf = token
    client.environ_base["HTTP_X_CSRF_TOKEN"] = token
    return client
