"""The pages: table, GM screen, calibration, statistics, photo upload.

`register_pages(app)` adds them to the app of `web.app.create_app`, with the
security hooks (CSRF, same-origin, upload limits, error pages) and the
language switch.
"""

from __future__ import annotations

from flask import Flask

from web import i18n, security


def register_pages(app: Flask) -> None:
    from web.calibrate import bp as calibrate
    from web.gm import bp as gm
    from web.stats_views import bp as stats
    from web.table import bp as table
    from web.upload import bp as upload

    security.install(app)
    i18n.install(app)
    for bp in (table, gm, calibrate, stats, upload):
        app.register_blueprint(bp)
