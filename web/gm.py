"""The GM screen (behind the credential): start games, read, correct, undo, decide, history.

The screen's buttons call the JSON API (web.api) with the session's CSRF
token; this blueprint serves the pages, the login form, and the one call the
API lacks: a re-throw (cancel the last read so the same throw is taken again).
"""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)

from rules import game_ids, get_game
from rules.base import KIND_VALUES
from rules.options import describe
from web.i18n import translate
from web.security import GM_KEY, check_csrf, check_token, gm_required

bp = Blueprint("gm", __name__, url_prefix="/gm")


def games_catalogue() -> list[dict[str, Any]]:
    """Every game with its player limits and options (the start form is made from it)."""
    out = []
    for gid in game_ids():
        g = get_game(gid)
        out.append({"id": gid, "title": g.title, "min_players": g.min_players,
                    "max_players": g.max_players, "options": describe(g.Options)})
    return out


def station():
    st = current_app.extensions.get("station")
    if st is None:
        abort(503, "the station is not running")
    return st


def _safe_next(target: str | None) -> str:
    if target and target.startswith("/") and not target.startswith("//"):
        return target
    return url_for("gm.screen")


@bp.route("/login", methods=["GET", "POST"])
def login():
    error = None
    if request.method == "POST":
        check_csrf()
        if check_token(request.form.get("token", "")):
            session.clear()
            session[GM_KEY] = True
            session.permanent = True
            return redirect(_safe_next(request.args.get("next")))
        error = translate("Wrong token")
        if not current_app.config.get("GM_TOKEN"):
            error = "no GM token is configured (web.gm_token or DICESTATION_GM_TOKEN)"
        return render_template("login.html", error=error), 401
    return render_template("login.html", error=error)


@bp.post("/logout")
@gm_required
def logout():
    session.clear()
    return redirect(url_for("table.page"))


@bp.get("/")
@gm_required
def screen():
    return render_template("gm.html", games=games_catalogue(),
                           kinds={k: list(v) for k, v in KIND_VALUES.items()})


@bp.get("/history")
@gm_required
def history():
    games = station().history()
    titles = {gid: get_game(gid).title for gid in game_ids()}  # "Red Man's Throw", not its id
    return render_template("history.html", games=list(reversed(games)), titles=titles)


@bp.get("/games.json")
def catalogue():
    return jsonify(games_catalogue())


@bp.post("/rethrow")
@gm_required
def rethrow():
    """Cancel the last read (an undo of it), so the table throws again."""
    st = station()
    rp = st.replay
    last = rp.last_read if rp is not None else None
    if last is None or not rp.undoable or rp.undoable[-1] != last.id:
        abort(409, "the last change is not a read: nothing to throw again (use Undo)")
    state = st.post_event({"type": "undo"})
    return jsonify(state=state, undone=last.id)
