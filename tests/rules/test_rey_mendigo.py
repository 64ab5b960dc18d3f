"""El Rey y el Mendigo (RULES.md section 5, seed 003 "El Rey y el Mendigo: Juego tabernario")."""

from __future__ import annotations

import json
import random
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import (
    BadOption,
    Event,
    EventType,
    IllegalEvent,
    ScriptError,
    get_game,
    play_script,
    state_json,
)
from rules.events import Die
from rules.rey_mendigo import Role, read_throw, role_of
from station.cli import main as cli_main
from tests.rules.strategies import random_game

GAME = get_game("rey_y_mendigo")
# Short names for taba faces: R(ey) carnero, M(endigo) liso, P(ico) tripas, H(oyo) hoyo.
FACE = {"R": "carnero", "M": "liso", "P": "tripas", "H": "hoyo"}


def T(player, faces):
    """A throw of tabas written as a string of R, M, P, H."""
    return {"type": "throw", "player": player, "dice": [FACE[f] for f in faces]}


def D(player, *values):
    return {"type": "throw", "player": player, "dice": list(values)}


def PAY(player):
    return {"type": "pay_parte", "player": player}


def WD(player):
    return {"type": "withdraw", "player": player}


def play(events, players=("A", "B", "C"), **options):
    return state_json(
        play_script(
            {"game": "rey_y_mendigo", "players": list(players), "options": options, "events": events}
        )
    )


def new(players=("A", "B", "C"), **options):
    return GAME.new(players, options)


def run(state, *events):
    for raw in events:
        state = GAME.apply(state, Event.from_json(raw))
    return state


# --- the full hand of the brief: Reyes, Mendigos paid and refused, a Chico, end of round ----

FULL_HAND = [
    # Round 1. A: a Rey, a Mendigo (paid) and three Picos = a Chico; 3 tabas back in hand.
    T("A", "RMPPP"), PAY("A"),
    T("A", "HPH"),  # neither Rey nor Mendigo: the turn ends (no Chico: 2 Hoyos)
    # B caught only 4: two Reyes, throws the 2 left: a Rey (third: the end is triggered) and a Mendigo.
    T("B", "RRHP"),
    T("B", "RM"), PAY("B"),  # no tabas left: the turn ends
    # The round is finished: C throws too. Three Hoyos (a Chico) and two Mendigos: pays one, withdraws.
    T("C", "MMHHH"), PAY("C"), WD("C"),
]


def test_a_full_hand_with_reyes_mendigos_a_chico_and_the_end_of_round_rule():
    state = play(FULL_HAND)
    assert state["finished"] and state["winner"] == "B"
    assert state["round_winners"] == ["B"]
    assert state["round_wins"] == {"A": 0, "B": 1, "C": 0}
    # Antes 3x3 = 9, partes A, B and C: 12 in the pot, all to B.
    assert state["balances"] == {"A": -4, "B": 8, "C": -4}
    assert state["pots"] == {"pot": 0}
    assert state["tallies"]["A"] == {"reyes": 1, "chicos": 1, "playing": True, "out": False}
    assert state["tallies"]["B"]["reyes"] == 3
    assert state["tallies"]["C"] == {"reyes": 0, "chicos": 1, "playing": False, "out": False}
    assert {"chico:A", "chico:C", "rey_goal:B", "withdrew:C"} <= set(state["flags"])
    assert "B reached 3 Reyes or 3 Chicos" in state["rounds"][0]["reason"]
    assert "the round was finished" in state["rounds"][0]["reason"]
    assert len(state["rounds"][0]["throws"]) == 5


def test_the_full_hand_step_by_step():
    state = new()
    assert GAME.to_json(state)["pots"] == {"pot": 9}
    nxt = GAME.next(state)
    assert nxt.action == "throw" and nxt.players == ("A",)
    assert nxt.dice == ("taba",) * 5 and nxt.min_dice == 1
    state = run(state, FULL_HAND[0])
    nxt = GAME.next(state)
    assert nxt.action == "decide" and nxt.players == ("A",)
    assert nxt.choices == ("pay_parte", "withdraw")
    state = run(state, FULL_HAND[1])
    assert GAME.next(state).dice == ("taba",) * 3  # the Rey and the Mendigo are set aside
    state = run(state, FULL_HAND[2])
    assert GAME.next(state).players == ("B",)
    state = run(state, FULL_HAND[3])
    assert GAME.next(state).dice == ("taba",) * 2  # 4 caught, 2 Reyes set aside
    state = run(state, FULL_HAND[4], FULL_HAND[5])
    printed = GAME.to_json(state)
    assert printed["last_throw"]["rey_goal"] is True  # the page's "third Rey"
    assert printed["at_goal"] == ["B"]
    assert not state.finished  # the round is finished first: C still throws
    assert GAME.next(state).players == ("C",)
    state = run(state, FULL_HAND[6], FULL_HAND[7])
    assert GAME.next(state).action == "decide"  # the second Mendigo
    state = run(state, FULL_HAND[8])
    assert state.finished and state.winner == "B"


def test_a_player_who_reaches_the_goal_later_in_the_round_ties_and_a_tiebreak_decides():
    events = [
        T("A", "RRRHP"),  # A: 3 Reyes, then 2 tabas left
        T("A", "HP"),
        T("B", "RRPHH"),  # B: 2 Reyes, rethrows 3
        T("B", "RPH"),  # B: third Rey in the same round: tie
        T("B", "PH"),
        T("C", "PPH"),
        # Tie-break round between A and B only; C does not throw.
        T("A", "RPH"), T("A", "HH"),  # A gains one Rey
        T("B", "HHP"),  # B gains nothing
    ]
    state = play(events)
    assert state["finished"] and state["winner"] == "A"
    assert state["round_winners"] == ["A"]  # tie-break rounds add no entry
    assert "tiebreak" in state["flags"]
    assert "tie-break" in state["rounds"][0]["reason"]
    assert state["balances"] == {"A": 6, "B": -3, "C": -3}


def test_tiebreak_rounds_go_on_while_tied():
    events = [
        T("A", "RRRHP"), T("A", "HP"),
        T("B", "RRRHP"), T("B", "HP"),
        T("C", "HP"),
        T("A", "RHP"), T("A", "PP"),  # tie-break 1: A +1
        T("B", "RHP"), T("B", "PH"),  # B +1: still tied
        T("A", "HP"),  # tie-break 2: A +0
    ]
    state = play(events)
    assert not state["finished"]
    assert state["tiebreak"] == ["A", "B"] and state["next"]["player"] == "B"
    assert state["next"]["note"] == "tie-break"
    state = play(events + [T("B", "PPPH")])  # B: a Chico, +1
    assert state["winner"] == "B"


@pytest.mark.parametrize(("keep", "expected"), [("top", ["A", "B"]), ("all", ["A", "B", "C"])])
def test_tiebreak_option_who_goes_on(keep, expected):
    events = [
        T("A", "RRRHP"), T("A", "HP"),
        T("B", "RRRHP"), T("B", "HP"),
        T("C", "RRRHP"), T("C", "HP"),
        T("A", "RHP"), T("A", "PH"),
        T("B", "RHP"), T("B", "PH"),
        T("C", "PH"),
    ]
    state = play(events, tiebreak=keep)
    assert state["tiebreak"] == expected and not state["finished"]


def test_the_goal_by_chicos():
    events = []
    for _ in range(3):
        events += [T("A", "PPPHH"), T("B", "PH")]
    state = play(events, players=("A", "B"))
    assert state["winner"] == "A"
    assert "chico_goal:A" in state["flags"]
    assert state["tallies"]["A"]["chicos"] == 3


def test_nobody_at_the_goal_plays_another_round():
    state = play([T("A", "PH"), T("B", "PH")], players=("A", "B"))
    assert state["round"] == 2 and state["next"]["player"] == "A"
    assert state["round_winners"] == []


# --- seed sentences -----------------------------------------------------------------------


def test_seed_stakes_example_each_puts_3_and_the_parte_is_1():
    # "cada jugador apuesta 3 monedas, y la parte es 1 moneda": the defaults.
    state = play([T("A", "MPH"), PAY("A")], players=("A", "B"))
    assert state["stakes"] == {"ante": 3, "parte": 1}
    assert state["pots"] == {"pot": 7}
    assert state["balances"] == {"A": -4, "B": -3}


def test_seed_one_taba_three_reyes_in_a_row():
    # "usar una sola taba, y aún así obtener 3 reyes seguidos": a Rey with one taba leaves none.
    events = []
    for _ in range(3):
        events += [T("A", "R"), T("B", "H")]
    state = play(events, players=("A", "B"))
    assert state["winner"] == "A" and state["tallies"]["A"]["reyes"] == 3


def test_seed_two_mendigos_each_asks_a_parte():
    # "a ti te salen 2 mendigos, ¿te interesa pagarlos...?"
    state = play([T("A", "MMPHH"), PAY("A"), PAY("A")], players=("A", "B"))
    assert state["pots"] == {"pot": 8}
    assert state["next"] == {
        "player": "A", "players": ["A"], "action": "throw", "dice": "1-3 taba",
    }


def test_seed_a_chico_needs_three_tabas():
    # "es necesario tirar al menos 3 tabas para obtener Chicos"
    assert read_throw((Role.PICO, Role.PICO)).chicos == 0
    assert read_throw((Role.PICO, Role.PICO, Role.PICO)).chicos == 1
    assert read_throw((Role.HOYO,) * 4 + (Role.REY,)).chicos == 1


def test_seed_withdrawing_leaves_the_last_player_the_pot():
    # "Si elige no pagar el Mendigo, se retirará del juego."
    state = play([T("A", "RMPH"), WD("A")], players=("A", "B"))
    assert state["winner"] == "B" and state["finished"]
    assert {"withdrew:A", "last_standing:B"} <= set(state["flags"])
    assert state["balances"] == {"A": -3, "B": 3}
    assert "A withdrew" in state["rounds"][0]["reason"]


def test_a_withdrawn_player_takes_no_more_turns():
    state = play([T("A", "MPH"), WD("A"), T("B", "PH"), T("C", "PH")])
    assert state["next"]["player"] == "B"  # round 2: A is skipped
    assert state["tallies"]["A"]["playing"] is False


def test_withdrawing_from_a_tiebreak_gives_it_to_the_other():
    events = [
        T("A", "RRRHP"), T("A", "HP"),
        T("B", "RRRHP"), T("B", "HP"),
        T("C", "HP"),
        T("A", "MPH"), WD("A"),
    ]
    state = play(events)
    assert state["winner"] == "B"


def test_dropping_every_taba_in_the_catch_ends_the_turn():
    state = play([{"type": "throw", "player": "A", "dice": []}], players=("A", "B"))
    assert state["next"]["player"] == "B"


# --- variants -----------------------------------------------------------------------------


def test_chico_rethrows_option():
    plain = play([T("A", "PPPHH")], players=("A", "B"))
    assert plain["next"]["player"] == "B"
    again = play([T("A", "PPPHH")], players=("A", "B"), chico_rethrows=True)
    assert again["next"]["player"] == "A" and again["next"]["dice"] == "1-5 taba"


def test_chico_pairs_option():
    assert play([T("A", "PPH")], players=("A", "B"))["tallies"]["A"]["chicos"] == 0
    state = play([T("A", "PPH")], players=("A", "B"), chico_pairs=True)
    assert state["tallies"]["A"]["chicos"] == 1
    assert "chico:A" in state["flags"]


@pytest.mark.parametrize(("mode", "chicos"), [("one", 1), ("per_face", 2)])
def test_pair_chicos_reading(mode, chicos):
    state = play([T("A", "PPHHR"), T("A", "M")], players=("A", "B"), chico_pairs=True,
                 pair_chicos=mode, no_stakes=True)
    assert state["tallies"]["A"]["chicos"] == chicos


def test_long_game_needs_the_goal_in_one_turn():
    events = []
    for _ in range(3):
        events += [T("A", "RPH"), T("A", "PH"), T("B", "PH")]
    state = play(events, players=("A", "B"), long_game=True)
    assert not state["finished"]  # 3 Reyes, but over three turns
    assert state["tallies"]["A"]["reyes"] == 3
    state = play(events + [T("A", "RRPHH"), T("A", "RPH"), T("A", "H"), T("B", "H")],
                 players=("A", "B"), long_game=True)
    assert state["winner"] == "A"
    assert "in one turn" in state["rounds"][0]["reason"]


def test_long_game_chicos_in_one_turn_with_rethrows():
    events = [T("A", "PPPHH"), T("A", "HHHPP"), T("A", "PPPPP"), T("A", "M"), PAY("A"),
              T("B", "PH")]
    state = play(events, players=("A", "B"), long_game=True, chico_rethrows=True)
    assert state["winner"] == "A"


def test_no_stakes_mendigo_rethrows():
    state = play([T("A", "MPH")], players=("A", "B"), no_stakes=True)
    assert state["pots"] == {"pot": 0} and state["balances"] == {"A": 0, "B": 0}
    assert state["next"]["action"] == "throw" and state["next"]["player"] == "A"
    assert state["next"]["dice"] == "1-2 taba"


def test_no_stakes_mendigo_costs_a_rey():
    events = [T("A", "RRPH"), T("A", "MH"), T("A", "P")]
    kept = play(events, players=("A", "B"), no_stakes=True)
    assert kept["tallies"]["A"]["reyes"] == 2
    lost = play(events, players=("A", "B"), no_stakes=True, no_stakes_mendigo="costs_rey")
    assert lost["tallies"]["A"]["reyes"] == 1
    assert "rey_lost:A" in lost["flags"]
    zero = play([T("A", "MPH"), T("A", "P")], players=("A", "B"), no_stakes=True,
                no_stakes_mendigo="costs_rey")
    assert zero["tallies"]["A"]["reyes"] == 0  # nothing to lose


def test_no_stakes_refuses_a_parte():
    state = new(("A", "B"), no_stakes=True)
    state = run(state, T("A", "MPH"))
    with pytest.raises(IllegalEvent, match="no Mendigo to decide on"):
        run(state, PAY("A"))


def test_elimination_plays_hands_until_one_has_chips():
    opts = {"elimination": True, "chips": 6, "ante": 3, "parte": 1}
    # Hand 1: A wins 6 (B paid 3). Hand 2 starts with B; B pays the ante (0 left).
    state = play([T("A", "RRRHP"), T("A", "HP"), T("B", "PH")], players=("A", "B"), **opts)
    assert not state["finished"]
    assert state["hand"] == 2 and state["round_winners"] == ["A"]
    assert state["chips"] == {"A": 6, "B": 0}
    assert state["next"]["player"] == "B"  # the first thrower moves one seat
    # B, with no chips, can only withdraw on a Mendigo; A then has all the chips.
    state = play([T("A", "RRRHP"), T("A", "HP"), T("B", "PH"), T("B", "MPH")],
                 players=("A", "B"), **opts)
    assert state["next"]["choices"] == ["withdraw"]
    with pytest.raises(ScriptError, match="must withdraw"):
        play([T("A", "RRRHP"), T("A", "HP"), T("B", "PH"), T("B", "MPH"), PAY("B")],
             players=("A", "B"), **opts)
    state = play([T("A", "RRRHP"), T("A", "HP"), T("B", "PH"), T("B", "MPH"), WD("B")],
                 players=("A", "B"), **opts)
    assert state["finished"] and state["winner"] == "A"
    assert state["round_winners"] == ["A", "A"]
    assert "out:B" in state["flags"]
    assert state["chips"] == {"A": 12, "B": 0}


def test_elimination_raises_the_ante_per_player_out():
    opts = {"elimination": True, "chips": 3, "ante": 3, "parte": 1, "raise_per_out": 3}
    state = play([T("A", "RRRHP"), T("A", "HP"), T("B", "PH"), T("C", "PH")], **opts)
    # B and C have no chips after hand 1: A alone has chips.
    assert state["finished"] and state["winner"] == "A"
    assert {"out:B", "out:C"} <= set(state["flags"])
    opts = {"elimination": True, "chips": 10, "ante": 3, "parte": 3, "raise_per_out": 3}
    state = play([T("A", "RRRHP"), T("A", "HP"), T("B", "PH"),
                  T("C", "MMPHH"), PAY("C"), PAY("C"), T("C", "PH")], **opts)
    # After hand 1: A 22, B 7, C 1. C cannot pay 3 and is out; the ante becomes 6, the
    # parte 6 (in proportion); B can still pay.
    assert state["hand"] == 2 and "out:C" in state["flags"] and "out:B" not in state["flags"]
    assert state["stakes"] == {"ante": 6, "parte": 6}
    assert state["chips"] == {"A": 16, "B": 1, "C": 1}
    assert state["pots"] == {"pot": 12}
    assert state["next"]["player"] == "B"
    assert state["tallies"]["C"]["out"] is True


def test_bad_option_combinations():
    with pytest.raises(BadOption):
        new(elimination=True, no_stakes=True)
    with pytest.raises(BadOption):
        new(elimination=True, chips=2, ante=3)
    with pytest.raises(BadOption):
        new(dice="d12")


# --- dice instead of tabas ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "mendigo", "rey", "picos", "hoyos"),
    [
        ("d8", [1], [8], [2, 4, 6], [3, 5, 7]),
        ("d10", [1], [0], [2, 4, 6, 8], [3, 5, 7, 9]),
        ("d6", [1], [6], [2, 4], [3, 5]),
    ],
)
def test_dice_mappings(kind, mendigo, rey, picos, hoyos):
    got = {role: [v for v in GAME_VALUES[kind] if role_of(kind, v) is role] for role in Role}
    assert got == {Role.MENDIGO: mendigo, Role.REY: rey, Role.PICO: picos, Role.HOYO: hoyos}


GAME_VALUES = {"d8": range(1, 9), "d10": range(0, 10), "d6": range(1, 7)}


def test_taba_mapping():
    assert [role_of("taba", f) for f in ("liso", "carnero", "tripas", "hoyo")] == [
        Role.MENDIGO, Role.REY, Role.PICO, Role.HOYO,
    ]


def test_a_d8_hand():
    # 8 Rey, 1 Mendigo, 2+4+6 even: a Chico of Picos ("pares").
    events = [D("A", 8, 1, 2, 4, 6), PAY("A"), D("A", 8, 8, 3), D("A", 5), D("B", 2, 3)]
    state = play(events, players=("A", "B"), dice="d8")
    assert state["winner"] == "A"
    assert state["tallies"]["A"] == {"reyes": 3, "chicos": 1, "playing": True, "out": False}
    assert state["last_throw"]["roles"] == ["pico", "hoyo"]


def test_a_d10_zero_is_the_rey():
    state = play([D("A", 0, 0, 0, 9, 7), D("A", 3, 5)], players=("A", "B"), dice="d10")
    assert state["tallies"]["A"]["reyes"] == 3
    assert state["next"]["player"] == "B" and state["next"]["dice"] == "1-5 d10"


def test_a_d6_hand_odd_chico():
    state = play([D("A", 3, 5, 3, 6, 1), PAY("A"), D("A", 2, 2, 4)], players=("A", "B"), dice="d6")
    assert state["tallies"]["A"] == {"reyes": 1, "chicos": 2, "playing": True, "out": False}


# --- illegal events -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "bad", "message"),
    [
        ([], T("B", "PH"), "it is A's throw, not B's"),
        ([T("A", "RRPH")], T("A", "PHHHH"), "A holds 2 tabas, 5 were thrown"),
        ([T("A", "MPHH")], T("A", "PH"), "A must decide on a Mendigo first"),
        ([T("A", "MPHH")], PAY("B"), "it is A's Mendigo to decide on, not B's"),
        ([], PAY("A"), "no Mendigo to decide on: expected a throw from A"),
        ([], WD("A"), "no Mendigo to decide on"),
        ([], D("A", 1, 2), "die 1 shows 1, a taba shows liso, carnero, tripas, hoyo"),
        ([], {"type": "throw", "player": "A", "dice": [{"kind": "d8", "value": 8}]},
         "die 1 is a d8"),
        ([], {"type": "stake", "player": "A", "amount": 2}, "has no stake event"),
        ([], {"type": "throw", "player": "Z", "dice": ["hoyo"]}, "'Z' is not playing"),
    ],
)
def test_illegal_events_are_refused_and_change_nothing(before, bad, message):
    state = run(new(), *before)
    snapshot = GAME.to_json(state)
    with pytest.raises(IllegalEvent, match=message):
        GAME.apply(state, Event.from_json(bad))
    with pytest.raises(IllegalEvent):
        GAME.check(state, Event.from_json(bad))
    assert GAME.to_json(state) == snapshot


def test_a_d8_value_out_of_range():
    state = new(("A", "B"), dice="d8")
    with pytest.raises(IllegalEvent, match="die 2 shows 9, a d8 shows 1-8"):
        GAME.apply(state, Event.throw("A", 8, 9))
    with pytest.raises(IllegalEvent, match="a d8 shows"):
        GAME.apply(state, Event.throw("A", "carnero"))


def test_no_move_after_the_end():
    state = run(new(), *FULL_HAND)
    with pytest.raises(IllegalEvent, match="the game is over"):
        GAME.apply(state, Event.throw("A", "hoyo"))
    assert GAME.next(state) is None


def test_the_table_may_end_the_game():
    state = play([T("A", "MPH"), PAY("A"), {"type": "end"}], players=("A", "B"))
    assert state["finished"] and state["winner"] is None and "ended" in state["flags"]
    assert state["pots"] == {"pot": 7} and state["next"] is None


def test_a_script_error_names_the_event():
    with pytest.raises(ScriptError, match=r"^event 2: B holds 2 tabas, 5 were thrown"):
        play([T("A", "PPH"), T("B", "RRPH"), T("B", "PPPPP")], players=("A", "B"))


def test_score_through_the_command_line(tmp_path, capsys):
    script = tmp_path / "hand.json"
    script.write_text(json.dumps({
        "game": "rey_y_mendigo", "players": ["A", "B", "C"], "options": {"ante": 3, "parte": 1},
        "events": FULL_HAND,
    }))
    assert cli_main(["score", str(script)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["winner"] == "B" and out["balances"] == {"A": -4, "B": 8, "C": -4}
    assert out["next"] is None
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"game": "rey_y_mendigo", "players": ["A", "B"],
                               "events": [T("A", "RRPH"), T("A", "PPPPP")]}))
    assert cli_main(["score", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "event 1: A holds 2 tabas, 5 were thrown" in err and "Traceback" not in err


# --- properties -----------------------------------------------------------------------------

ROLE = st.sampled_from(list(Role))


@settings(max_examples=200, deadline=None)
@given(roles=st.lists(ROLE, min_size=0, max_size=5), pairs=st.booleans(), per_face=st.booleans())
def test_reading_a_throw_ignores_order_and_pairs_only_add_chicos(roles, pairs, per_face):
    roles = tuple(roles)
    got = read_throw(roles, pairs=pairs, per_face=per_face)
    assert got.reyes + got.mendigos <= len(roles)
    assert 0 <= got.chicos <= (2 if per_face else 1)
    for perm in list(permutations(roles))[:10]:
        again = read_throw(perm, pairs=pairs, per_face=per_face)
        assert (again.reyes, again.mendigos, again.chicos) == (got.reyes, got.mendigos, got.chicos)
    assert read_throw(roles, pairs=True, per_face=per_face).chicos >= read_throw(
        roles, pairs=False, per_face=per_face
    ).chicos
    if len(roles) < (2 if pairs else 3):
        assert got.chicos == 0


VARIANTS = [
    {},
    {"dice": "d6", "chico_rethrows": True},
    {"dice": "d10", "long_game": True, "tiebreak": "all"},
    {"no_stakes": True, "no_stakes_mendigo": "costs_rey", "chico_pairs": True},
    {"chico_pairs": True, "chico_rethrows": True, "pair_chicos": "per_face"},
    {"elimination": True, "chips": 12, "raise_per_out": 1},
]


@pytest.mark.parametrize("options", VARIANTS, ids=[json.dumps(v) for v in VARIANTS])
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_hands_end_pay_the_pot_and_replay(options, seed):
    events, states = random_game(GAME, ("A", "B", "C"), options, seed, 20000)
    final = states[-1]
    assert final.finished and final.winner in ("A", "B", "C")
    assert all(s.ledger.total() == 0 for s in states)
    assert final.ledger.pot("pot") == 0
    assert len(final.rounds) >= 1 and final.rounds[-1].winner == final.winner
    replay = GAME.new(("A", "B", "C"), options)
    for event in events:
        replay = GAME.apply(replay, Event.from_json(event.to_json()))
    assert replay == final
    if options.get("no_stakes"):
        assert all(v == 0 for v in final.ledger.balances().values())
    rng = random.Random(seed)
    for state in rng.sample(states[:-1], min(5, len(states) - 1)):
        nxt = GAME.next(state)
        other = next(p for p in ("A", "B", "C") if p not in nxt.players)
        with pytest.raises(IllegalEvent):
            GAME.apply(state, Event(EventType.THROW, other, (Die("hoyo"),)))
