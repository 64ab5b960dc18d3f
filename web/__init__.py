"""The station's web pages and JSON API (Flask). `create_app(config=None, station=None)`."""

from web.app import create_app

__all__ = ["create_app"]
