"""Spanish and English pages: chosen by the browser, or by the switch (a cookie).

Texts are written in English in templates and scripts (`t("Undo")`); the
Spanish catalogue maps them. A text missing from it shows in English. The
scripts get the catalogue of the page's language as JSON (`window.I18N`).
What the rules and the station say comes with its template beside it
(rules.text); the catalogue has their Spanish too (web/messages_es.py), and
`say_form` / `sayForm` (static/common.js) say them in the page's language.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, make_response, redirect, request, url_for

from web.messages_es import MESSAGES_ES

LANGS = ("en", "es")
COOKIE = "lang"
COOKIE_MAX_AGE_S = 365 * 24 * 3600

ES: dict[str, str] = {
    "Table": "Mesa",
    "GM screen": "Pantalla del croupier",
    "Statistics": "Estadísticas",
    "Calibration": "Calibración",
    "Read a photo": "Leer una foto",
    "History": "Historial",
    "Language": "Idioma",
    "No game is open": "No hay ninguna partida abierta",
    "The GM starts one on the GM screen.": "El croupier abre una en su pantalla.",
    "Waiting for {player}: {dice}": "Esperando a {player}: {dice}",
    "Waiting for {players}: {dice}": "Esperando a {players}: {dice}",
    "Waiting for a decision from {players}": "Esperando una decisión de {players}",
    "Game over": "Partida terminada",
    "{winner} wins the game": "{winner} gana la partida",
    "Round {n}": "Ronda {n}",
    "Round": "Ronda",
    "Winner": "Ganador",
    "Reason": "Motivo",
    "void": "nula",
    "Last read": "Última lectura",
    "No read yet": "Aún no hay lecturas",
    "Throws this round": "Tiradas de esta ronda",
    "Round wins": "Rondas ganadas",
    "Balances": "Saldos",
    "Pots": "Botes",
    "Chips": "Fichas",
    "Rounds": "Rondas",
    "Player": "Jugador",
    "Dice": "Dados",
    "live": "en directo",
    "reconnecting…": "reconectando…",
    "Looks like I'm the red man": "Parece que soy el hombre rojo",
    "I tip my hat (to you)": "Me quito el sombrero (ante usted)",
    "{player} is the red man": "{player} es el hombre rojo",
    "Salvation": "Salvación",
    "{player} is blessed": "{player} es el bendecido",
    "The bar": "La barra",
    "Triple zero: {player} throws 100": "Triple cero: {player} saca 100",
    "Exact match: {player} throws the red numbers": "Acierto exacto: {player} saca los números rojos",
    "Chico for {player}": "Chico para {player}",
    "Third Rey: {player}": "Tercer Rey: {player}",
    "Reyes": "Reyes",
    "Chicos": "Chicos",
    "Central dice": "Dados centrales",
    "refused": "rechazada",
    "corrected": "corregido",
    "throw-off": "desempate",
    "Log in": "Entrar",
    "Log out": "Salir",
    "GM token": "Clave del croupier",
    "The token is in the station's config or printed when it starts.":
        "La clave está en la configuración de la estación o se muestra al arrancar.",
    "Wrong token": "Clave incorrecta",
    "Start a game": "Empezar una partida",
    "Game": "Juego",
    "Players (one per line, in seat order)": "Jugadores (uno por línea, en orden de asiento)",
    "Options": "Opciones",
    "Start": "Empezar",
    "Read the dice": "Leer los dados",
    "Read anyway (not moved)": "Leer igualmente (sin mover)",
    "Undo": "Deshacer",
    "Ask for a re-throw": "Pedir que se vuelva a tirar",
    "End the game": "Terminar la partida",
    "Decisions": "Decisiones",
    "Players": "Jugadores",
    "Tap a die on the photo to correct it.": "Toque un dado en la foto para corregirlo.",
    "Correct die {n}": "Corregir el dado {n}",
    "New value": "Valor nuevo",
    "Save": "Guardar",
    "Cancel": "Cancelar",
    "Export JSON": "Exportar JSON",
    "Export CSV": "Exportar CSV",
    "Started": "Empezada",
    "Status": "Estado",
    "open": "abierta",  # a game's status in the history
    "finished": "terminada",
    "abandoned": "abandonada",
    "Amount": "Cantidad",
    "Stake": "Apuesta",
    "join": "entrar",
    "sit_out": "no jugar",
    "stake": "apostar",
    "predict": "predecir",
    "pay_parte": "pagar la parte",
    "withdraw": "retirarse",
    "tip_hat": "quitarse el sombrero",
    "end": "terminar",
    "Done": "Hecho",
    "Error": "Error",
    "Back": "Volver",
    "Send": "Enviar",
    "Photo": "Foto",
    "Read this photo for the open game.": "Leer esta foto para la partida abierta.",
    "Take the photo from above, with all the dice on the tray.":
        "Haga la foto desde arriba, con todos los dados en la bandeja.",
    "Faces seen": "Caras vistas",
    "per die kind": "por tipo de dado",
    "per player": "por jugador",
    "Throws": "Tiradas",
    "Fairness": "Equidad",
    "Face": "Cara",
    "Seen": "Vistas",
    "Expected": "Esperadas",
    "Chi-square": "Chi cuadrado",
    "p-value": "valor p",
    "Verdict": "Veredicto",
    "Face named in advance": "Cara elegida de antemano",
    "Test": "Probar",
    "Empty tray": "Bandeja vacía",
    "Capture the empty tray": "Fotografiar la bandeja vacía",
    "Tray corners and seat zones": "Esquinas de la bandeja y zonas de asiento",
    "Drag the corners; add a zone per seat and drag its points.":
        "Arrastre las esquinas; añada una zona por asiento y arrastre sus puntos.",
    "Add a seat zone": "Añadir una zona de asiento",
    "Save corners and zones": "Guardar esquinas y zonas",
    "Teach a dice set": "Enseñar un juego de dados",
    "Set name": "Nombre del juego",
    "Kind": "Tipo",
    "Photograph each face, then click each die and type its value.":
        "Fotografíe cada cara y luego haga clic en cada dado y escriba su valor.",
    "Add the labelled photo": "Añadir la foto etiquetada",
    "Teach": "Enseñar",
    "Evaluation": "Evaluación",
    "Run the evaluation": "Evaluar",
    "Saved": "Guardado",
    "Dice set in use": "Juego de dados en uso",
    "The station reads": "La estación lee",
    "any dice (untaught)": "cualquier dado (sin enseñar)",
    "Use": "Usar",
    "In use": "En uso",
    "Zone": "Zona",
}

ES.update(MESSAGES_ES)  # what the rules and the station say

CATALOGUES = {"en": {}, "es": ES}

bp = Blueprint("i18n", __name__)


def current_lang() -> str:
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGS:
        return chosen
    return request.accept_languages.best_match(LANGS) or "en"


def translate(text: str, **values: Any) -> str:
    out = CATALOGUES[current_lang()].get(text, text)
    return out.format(**values) if values else out


def say_form(form: Any, catalogue: dict[str, str]) -> str:
    """A text's template form (rules.text.Text.to_json) said in a catalogue's language, inner
    texts first; a template missing from it stays English. sayForm in static/common.js is the same."""
    if not isinstance(form, dict):
        return str(form)
    if "parts" in form:
        return form["join"].join(say_form(p, catalogue) for p in form["parts"])
    out = catalogue.get(form["text"], form["text"])
    for key, value in (form.get("values") or {}).items():
        out = out.replace("{" + key + "}", say_form(value, catalogue))
    return out


def say(obj: dict[str, Any], key: str) -> str:
    """`obj[key]` in the page's language, from `obj[key + "_i18n"]` when there is one."""
    form = obj.get(key + "_i18n")
    return say_form(form, CATALOGUES[current_lang()]) if form else str(obj.get(key) or "")


@bp.get("/lang/<code>")
def switch(code: str):
    """The language switch: a cookie, then back to the page (only to our own paths)."""
    if code not in LANGS:
        from flask import abort

        abort(404, f"unknown language {code!r} (known: {', '.join(LANGS)})")
    back = request.args.get("next") or ""
    if not back.startswith("/") or back.startswith("//"):
        back = url_for("table.page")
    resp = make_response(redirect(back))
    resp.set_cookie(COOKIE, code, max_age=COOKIE_MAX_AGE_S, samesite="Lax")
    return resp


def install(app: Flask) -> None:
    app.register_blueprint(bp)

    @app.context_processor
    def inject() -> dict[str, Any]:
        lang = current_lang()
        return {"t": translate, "say": say, "lang": lang, "catalogue": CATALOGUES[lang], "langs": LANGS}
