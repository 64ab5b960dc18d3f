"""Spanish for what the rules and the station say (rules.text.Text templates).

The keys are the English templates as the code writes them; the values keep
their `{fields}`. tests/web/test_messages.py checks that every template in
rules/ and station/ is here, with the same fields, and so are the words
that go into them (places on the photo, refusal reasons, colours).
"""

from __future__ import annotations

MESSAGES_ES: dict[str, str] = {
    # --- shared -----------------------------------------------------------
    "{names} and {last}": "{names} y {last}",
    # --- Gemelos ------------------------------------------------------------
    "twins {a} against twins {b}: void": "gemelos {a} contra gemelos {b}: nula",
    "twins of {hi}s beat twins of {lo}s": "gemelos de {hi} ganan a gemelos de {lo}",
    "{chal} beats {g}+{g} twins: total {total} > {double} and both dice above {g}":
        "{chal} gana a los gemelos {g}+{g}: total {total} > {double} y los dos dados por encima de {g}",
    "total {total} is not above {double}": "el total {total} no pasa de {double}",
    "{chal} has a die at or below {g}": "{chal} tiene un dado de {g} o menos",
    "{g}+{g} twins: {why}": "gemelos {g}+{g}: {why}",
    "{hi} beats {lo}": "{hi} gana a {lo}",
    "equal totals {total}: {hi} has the higher die ({die})":
        "totales iguales ({total}): {hi} tiene el dado más alto ({die})",
    "{a} and {b} are identical: void": "{a} y {b} son idénticas: nula",
    "{throw} beats every other throw": "{throw} gana a todas las demás tiradas",
    "no throw beats every other: thrown again": "ninguna tirada gana a todas las demás: se repite",
    "{throw} beats {top} of {others} throws": "{throw} gana a {top} de {others} tiradas",
    "no single throw beats the most others: thrown again":
        "ninguna tirada sola gana a más que las demás: se repite",
    # --- Red Man's Throw -------------------------------------------------------
    "identical ranking ({rank}): throw-off {hi} beats {lo}":
        "misma jugada ({rank}): en el desempate {hi} gana a {lo}",
    "Salvation: {hi} beats {lo}; {player} is blessed": "Salvación: {hi} gana a {lo}; {player} es el bendecido",
    "6+6+6: the red man wins the game": "6+6+6: el hombre rojo gana la partida",
    "the red man takes it (played: {player} won, {reason})":
        "se la lleva el hombre rojo (se jugó: ganó {player}, {reason})",
    "the red man takes it ({reason})": "se la lleva el hombre rojo ({reason})",
    "6+6+6, the red man": "6+6+6, el hombre rojo",
    "two sixes and a {die}": "dos seises y un {die}",
    "4+5+6": "4+5+6",
    "a six and a pair of {pair}s": "un seis y una pareja de {pair}",
    "a six with {a}+{b}": "un seis con {a}+{b}",
    "straight {a}-{b}-{c}": "escalera {a}-{b}-{c}",
    "trio of {die}s": "trío de {die}",
    "pair of {pair}s, kicker {kicker}": "pareja de {pair}, acompañante {kicker}",
    "nothing ({dice})": "nada ({dice})",
    "no six": "ningún seis",
    "one six": "un seis",
    "two sixes": "dos seises",
    "6+6+6": "6+6+6",
    "a straight": "una escalera",
    "a trio": "un trío",
    "a pair": "una pareja",
    "nothing": "nada",
    "{a} and {b} rank the same: throw-off": "{a} y {b} valen lo mismo: desempate",
    "{hi} beat {lo}": "{hi} ganan a {lo}",
    "two sixes: third die {hi} beats {lo}": "dos seises: el tercer dado {hi} gana a {lo}",
    "4+5+6 beats every other six": "4+5+6 gana a cualquier otro seis",
    "a six and a pair: pair of {hi}s beats pair of {lo}s": "un seis y una pareja: la pareja de {hi} gana a la de {lo}",
    "{hi} ({hi_total}) beats {lo} ({lo_total})": "{hi} ({hi_total}) gana a {lo} ({lo_total})",
    "{hi} beats {lo}: equal totals {total}, higher die {die}":
        "{hi} gana a {lo}: totales iguales ({total}), dado más alto {die}",
    "pair of {hi}s beats pair of {lo}s": "la pareja de {hi} gana a la de {lo}",
    "pair of {pair}s, kicker {hi} beats kicker {lo}": "pareja de {pair}: el acompañante {hi} gana al {lo}",
    "nothing: total {hi} beats {lo}": "nada: el total {hi} gana a {lo}",
    "nothing: {hi} beats {lo} from the top": "nada: {hi} gana a {lo} desde el dado más alto",
    # --- Barras ---------------------------------------------------------------
    "{player}'s {value} beats the bar {bar}: the house pays {chips}":
        "el {value} de {player} supera la barra {bar}: la banca paga {chips}",
    "{player}'s {value} does not beat the bar {bar}: the house keeps the stake":
        "el {value} de {player} no supera la barra {bar}: la banca se queda la apuesta",
    "nobody beats the bar {bar} ({shown}): the house keeps every stake":
        "nadie supera la barra {bar} ({shown}): la banca se queda todas las apuestas",
    "{player}'s {value} is the highest above the bar {bar}": "el {value} de {player} es el más alto por encima de la barra {bar}",
    "{players} tie at {value} above the bar {bar}: they share the stakes":
        "{players} empatan a {value} por encima de la barra {bar}: se reparten las apuestas",
    "tie at {value} above the bar: throw-off won by {player} ({shown})":
        "empate a {value} por encima de la barra: {player} gana el desempate ({shown})",
    "{why}: takes every stake of the round": "{why}: se lleva todas las apuestas de la ronda",
    "nobody plays against the bar {bar}": "nadie juega contra la barra {bar}",
    "nobody plays against the bar {bar}: every player pays {chips} to the house":
        "nadie juega contra la barra {bar}: cada jugador paga {chips} a la banca",
    # --- Dados Centrales ---------------------------------------------------------
    "red {dice}": "rojos {dice}",
    "{red}: {players} tie at {distance} away: the round stakes go to the central pot":
        "{red}: {players} empatan a {distance} de distancia: las apuestas de la ronda van al bote central",
    "{red}: {player}'s {dice} is closest": "{red}: el {dice} de {player} es el más cercano",
    "the red numbers exactly": "exactamente los números rojos",
    "the red sum with other numbers": "la suma roja con otros números",
    "{why}, {what}: +{money} from the central pot": "{why}, {what}: +{money} del bote central",
    "tie round, {red}: {players} tie again at {distance} away":
        "ronda de desempate, {red}: {players} vuelven a empatar a {distance} de distancia",
    "tie round, {red}: {player}'s {dice} is closest": "ronda de desempate, {red}: el {dice} de {player} es el más cercano",
    # --- El Rey y el Mendigo -------------------------------------------------------
    "{player} withdrew: {last} is the last in the hand": "{player} se retiró: {last} es el último en la mano",
    "{player} withdrew from the tie-break: {winner} wins it": "{player} se retiró del desempate: lo gana {winner}",
    "tie-break: {player} gained the most Reyes and Chicos ({shown})":
        "desempate: {player} sumó más Reyes y Chicos ({shown})",
    "{goal} Reyes or {goal} Chicos": "{goal} Reyes o {goal} Chicos",
    "{goal} Reyes or {goal} Chicos in one turn": "{goal} Reyes o {goal} Chicos en un turno",
    "{player} reached {what} ({counts})": "{player} llegó a {what} ({counts})",
    "{reason}; the round was finished: {others}": "{reason}; se terminó la vuelta: {others}",
    # --- the station: a read that does not fit -------------------------------------------
    "throw again: the die at the {place} is {why}": "vuelvan a tirar: el dado que está {place} está {why}",
    "throw again: the die at the {place} is {why} (and {more} more)":
        "vuelvan a tirar: el dado que está {place} está {why} (y {more} más)",
    "throw again: the dice lie exactly as in the last read (not thrown); the GM can override":
        "vuelvan a tirar: los dados están exactamente como en la lectura anterior (no se tiraron); "
        "el croupier puede leerlos igualmente",
    "no seat zone for {player}: add a zone for seat {seat} in the config":
        "no hay zona de asiento para {player}: añada una zona para el asiento {seat} en la configuración",
    "no dice seen on the tray: throw again": "no se ve ningún dado en la bandeja: vuelvan a tirar",
    "the game is over: start a new game": "la partida ha terminado: empiece una nueva",
    "a decision": "una decisión",
    "the game waits for {what} from {who}, not a throw": "la partida espera {what} de {who}, no una tirada",
    "{n} die/dice too many on the tray (one at the {place}): throw again with only the dice in play":
        "sobran {n} dado(s) en la bandeja (uno {place}): vuelvan a tirar solo con los dados en juego",
    "this read does not fit the game: {error}; throw again":
        "esta lectura no encaja con la partida: {error}; vuelvan a tirar",
    "no {colour} dice for {player}: throw again": "no hay dados de color {colour} para {player}: vuelvan a tirar",
    "no dice for {player} (expected {want} in {player}'s zone): throw again":
        "no hay dados para {player} (se esperaban {want} en la zona de {player}): vuelvan a tirar",
    "throw again: the die at the {place} is outside every seat zone":
        "vuelvan a tirar: el dado que está {place} está fuera de todas las zonas de asiento",
    "{player} throws {dice}, but {n} dice are on the tray: throw again":
        "{player} tira {dice}, pero hay {n} dados en la bandeja: vuelvan a tirar",
    "{player} throws {dice}, got {got}: throw again": "{player} tira {dice}, pero salió {got}: vuelvan a tirar",
    "{player} throws {dice}, but a {kind} is on the tray: throw again":
        "{player} tira {dice}, pero hay un {kind} en la bandeja: vuelvan a tirar",
    "the dice are still moving: press again when they lie still":
        "los dados aún se mueven: pulse otra vez cuando estén quietos",
    "no game is open: start one first": "no hay ninguna partida abierta: empiece una primero",
    "camera problem: {error}; press again": "problema de la cámara: {error}; pulse otra vez",
    # --- refusals of a decision or a game set-up (the GM screen) ---------------------
    "a player's name must be a non-empty string, got {name}": "el nombre de un jugador no puede estar vacío: {name}",
    "two players have the same name": "dos jugadores tienen el mismo nombre",
    "'{house}' is the house, not a player's name": "'{house}' es la banca, no el nombre de un jugador",
    "{game} needs {span} players, got {n}": "{game} necesita {span} jugadores, hay {n}",
    "exactly {n}": "exactamente {n}",
    "at least {n}": "al menos {n}",
    "the game is over: no more events": "la partida ha terminado: no se admiten más acciones",
    "replaying event {index}: {error}": "{error} (acción {index})",
    "{player} has thrown this round: stakes go before the throw":
        "{player} ya ha tirado en esta ronda: las apuestas van antes de la tirada",
    "the house does not join: its throw is the bar": "la banca no entra: su tirada es la barra",
    "{player} has already decided this round": "{player} ya ha decidido en esta ronda",
    "{player} has no chips left and is out of the game": "a {player} no le quedan fichas y está fuera de la partida",
    "a sit_out carries no stake": "quien no juega no apuesta",
    "{player}'s stake must be more than 0 chips": "la apuesta de {player} debe ser de más de 0 fichas",
    "{player} has only {have} chips: cannot stake {stake}": "{player} solo tiene {have} fichas: no puede apostar {stake}",
    "{player} has thrown this round: {what} go before the throw":
        "{player} ya ha tirado en esta ronda: {what} van antes de la tirada",
    "a stake needs an amount": "una apuesta necesita una cantidad",
    "prediction bets are off in this game (option 'predictions')":
        "en esta partida no hay apuestas de predicción (opción 'predictions')",
    "no predictions in a {phase}: it is one die each": "no hay predicciones ahora ({phase}): es un dado cada uno",
    "the game is over with no red man: there is no hat to tip":
        "la partida terminó sin hombre rojo: no hay sombrero que quitarse",
    "only {loser} tips the hat to the red man {red}": "solo {loser} se quita el sombrero ante el hombre rojo {red}",
    "{player} has already tipped the hat": "{player} ya se ha quitado el sombrero",
    "{player} has {left} chips, the parte is {parte}: {player} must withdraw":
        "{player} tiene {left} fichas y la parte es {parte}: {player} debe retirarse",
    "it is {player}'s Mendigo to decide on, not {other}'s": "el Mendigo es de {player}, no de {other}: decide {player}",
    "option {name} of {game}": "la opción {name} de {game}",
    "{where} must be true or false, got {value}": "{where} debe ser true o false, no {value}",
    "{where} must be a whole number, got {value}": "{where} debe ser un número entero, no {value}",
    "{where} must be a number, got {value}": "{where} debe ser un número, no {value}",
    "{where} must be a string, got {value}": "{where} debe ser un texto, no {value}",
    "{where} must be one of {choices}, got {value}": "{where} debe ser una de estas: {choices}; no {value}",
    "{where} must be at least {min}, got {value}": "{where} debe ser al menos {min}, no {value}",
    "{where} must be at most {max}, got {value}": "{where} debe ser como mucho {max}, no {value}",
    "option 'elimination' plays for chips: it cannot go with 'no_stakes'":
        "la opción 'elimination' se juega con fichas: no puede ir con 'no_stakes'",
    "option 'chips' ({chips}) must cover the ante ({ante})":
        "la opción 'chips' ({chips}) debe cubrir la entrada ({ante})",
    # what a Red Man's stake or prediction comes before, and the phases it can't come in
    "stakes": "las apuestas",
    "predictions": "las predicciones",
    "salvation": "salvación",
    # --- words that go into them ----------------------------------------------------
    # places on the photo (station.table.PLACES): "el dado que está arriba a la izquierda"
    "top left": "arriba a la izquierda",
    "top": "arriba",
    "top right": "arriba a la derecha",
    "left": "a la izquierda",
    "centre": "en el centro",
    "right": "a la derecha",
    "bottom left": "abajo a la izquierda",
    "bottom": "abajo",
    "bottom right": "abajo a la derecha",
    # refusal reasons (vision): "el dado ... está inclinado"
    "cocked": "inclinado",
    "stacked": "encima de otro",
    "blurred": "movido (borroso)",
    "outside": "fuera de la bandeja",
    "unknown object": "irreconocible (objeto desconocido)",
    "low confidence": "dudoso (poca confianza)",
    "not a d6": "sin leer (no es un d6)",
    "unreadable": "ilegible",
    "not read": "sin leer",
    # colours (Dados Centrales roles)
    "red": "rojo",
    "orange": "naranja",
    "yellow": "amarillo",
    "green": "verde",
    "blue": "azul",
    "purple": "morado",
    "black": "negro",
    "white": "blanco",
    "ivory": "marfil",
    "grey": "gris",
}
