"""Dados Centrales (RULES.md section 4, seed 002, the tavern game)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import Event, IllegalEvent, ScriptError, get_game, play_script, state_json
from rules.dados_centrales import closeness

GAME = get_game("dados_centrales")


def red(*dice):
    return {"type": "throw", "player": "house", "role": "central", "dice": list(dice)}


def own(player, *dice):
    return {"type": "throw", "player": player, "dice": list(dice)}


def round_(central, **throws):
    """One round: the red dice, then each player's (`H` is the house's green dice)."""
    events = [red(*central)]
    for name, dice in throws.items():
        events.append(own("house" if name == "H" else name, *dice))
    return events


def play(events, players=("A", "B"), **options):
    return state_json(play_script({"game": "dados_centrales", "players": list(players),
                                   "options": options, "events": events}))


def apply_all(state, events):
    for raw in events:
        state = GAME.apply(state, Event.from_json(raw))
    return state


# --- the seed's rules 3 and 4 ------------------------------------------------------

def test_rule_3_same_sum_other_numbers_takes_the_round_and_2_from_the_central_pot():
    # The seed's example: red 4-2-1 (7), the player 3-3-1 (7).
    state = play(round_((4, 2, 1), A=(3, 3, 1), B=(6, 6, 6), H=(1, 1, 1)))
    assert state["round_winners"] == ["A"]
    # A: -15 central, -2 round, +6 round stakes, +2 bonus; B: -15 -2; house: -2.
    assert state["balances"] == {"A": -9, "B": -17, "house": -2}
    assert state["pots"] == {"central": 28, "round": 0}
    assert "same_sum:A" in state["flags"]
    assert "+2 from the central pot" in state["rounds"][0]["reason"]


def test_rule_4_the_red_numbers_exactly_take_4_from_the_central_pot():
    state = play(round_((4, 2, 1), A=(1, 4, 2), B=(3, 3, 1), H=(1, 1, 1)))
    assert state["round_winners"] == ["A"]  # exact beats same sum at distance 0
    assert state["balances"] == {"A": -7, "B": -17, "house": -2}
    assert state["pots"]["central"] == 26
    assert "exact_match:A" in state["flags"] and "same_sum:B" not in state["flags"]


def test_reading_option_exact_first_off_makes_exact_and_same_sum_tie():
    state = play(round_((4, 2, 1), A=(1, 4, 2), B=(3, 3, 1), H=(1, 1, 1)), exact_first=False)
    assert state["round_winners"] == [None]
    assert state["pots"] == {"central": 36, "round": 0}


def test_rule_1_a_tie_for_closest_sends_the_round_stakes_to_the_central_pot():
    state = play(round_((2, 2, 2), A=(1, 1, 3), B=(3, 3, 1), H=(6, 6, 6)))
    assert state["round_winners"] == [None]
    assert state["balances"] == {"A": -17, "B": -17, "house": -2}
    assert state["pots"] == {"central": 36, "round": 0}
    assert "A and B tie at 1 away" in state["rounds"][0]["reason"]
    assert state["round"] == 2  # the round still counts


def test_a_bonus_takes_at_most_what_the_central_pot_holds():
    state = play(round_((3, 3, 3), A=(3, 3, 3), H=(1, 1, 1)), players=("A",), central_stake=1)
    assert state["balances"] == {"A": 2, "house": -2}  # -1 -2 +4 round +1 bonus
    assert state["pots"] == {"central": 0, "round": 0}


# --- full games with hand-computed ledgers ------------------------------------------

TWELVE_ROUNDS = [
    # red, A, B, house: winner; A, B, house, central after the round
    round_((4, 2, 1), A=(3, 3, 1), B=(6, 6, 6), H=(1, 1, 1)),  # A same sum: -9 -17 -2 28
    round_((5, 5, 5), A=(1, 2, 3), B=(5, 5, 5), H=(6, 6, 2)),  # B exact: -11 -9 -4 24
    round_((2, 2, 2), A=(1, 1, 3), B=(3, 3, 1), H=(6, 6, 6)),  # tie: -13 -11 -6 30
    round_((3, 4, 5), A=(6, 6, 1), B=(2, 2, 2), H=(4, 4, 4)),  # house same sum: -15 -13 0 28
    round_((1, 1, 1), A=(1, 1, 2), B=(2, 2, 2), H=(3, 3, 3)),  # A: -11 -15 -2 28
    round_((6, 6, 6), A=(6, 6, 5), B=(6, 6, 6), H=(6, 6, 6)),  # B and house exact, tie: -13 -17 -4 34
    round_((3, 3, 3), A=(4, 4, 1), B=(3, 3, 3), H=(1, 2, 3)),  # B exact over A's sum: -15 -9 -6 30
    round_((2, 3, 4), A=(2, 3, 5), B=(1, 1, 1), H=(1, 1, 2)),  # A: -11 -11 -8 30
    round_((1, 2, 6), A=(1, 1, 1), B=(5, 5, 5), H=(6, 2, 1)),  # house exact: -13 -13 0 26
    round_((6, 5, 4), A=(5, 5, 5), B=(1, 1, 1), H=(1, 1, 1)),  # A same sum: -7 -15 -2 24
    round_((1, 1, 2), A=(6, 6, 6), B=(1, 1, 3), H=(1, 1, 1)),  # B and house tie: -9 -17 -4 30
    round_((3, 3, 4), A=(6, 6, 6), B=(4, 3, 3), H=(1, 1, 1)),  # B exact: -11 -9 -6 26
]


def test_a_full_twelve_round_game():
    events = [e for r in TWELVE_ROUNDS for e in r]
    state = play(events[:-4])
    assert state["balances"] == {"A": -9, "B": -17, "house": -4}
    assert state["pots"] == {"central": 30, "round": 0}
    state = play(events)
    assert state["round_winners"] == ["A", "B", None, "house", "A", None, "B", "A", "house",
                                      "A", None, "B"]
    assert state["round_wins"] == {"A": 4, "B": 3}
    assert state["wins"] == {"A": 4, "B": 3, "house": 2}
    # A takes the central pot of 26: -11 + 26.
    assert state["finished"] and state["winner"] == "A"
    assert state["balances"] == {"A": 15, "B": -9, "house": -6}
    assert state["pots"] == {"central": 0, "round": 0}
    assert {"same_sum:A", "exact_match:B", "same_sum:house", "exact_match:house"} <= set(
        state["flags"])
    assert state["next"] is None


def test_the_full_game_through_the_score_command(tmp_path):
    script = tmp_path / "tavern.json"
    script.write_text(json.dumps({"game": "dados_centrales", "players": ["A", "B"],
                                  "events": [e for r in TWELVE_ROUNDS for e in r]}))
    out = subprocess.run([sys.executable, "-m", "station.cli", "score", str(script)],
                         capture_output=True, text=True, check=True)
    state = json.loads(out.stdout)
    assert state["winner"] == "A" and state["balances"] == {"A": 15, "B": -9, "house": -6}


def test_rule_2_a_tie_after_the_last_round_goes_to_tie_rounds():
    events = (round_((1, 2, 3), A=(2, 2, 3), B=(6, 6, 6), H=(6, 6, 5))  # A: -11 -17 -2 30
              + round_((6, 6, 6), A=(1, 1, 1), B=(6, 6, 5), H=(1, 1, 1)))  # B: -13 -13 -4 30
    state = play(events, rounds=2)
    assert state["round_winners"] == ["A", "B"] and not state["finished"]
    assert state["tie_players"] == ["A", "B"] and "tie_round" in state["flags"]
    assert state["next"]["role"] == "central" and state["next"]["note"] == "tie round"
    # Tie round 1: each pays 5 into the central pot (40); 7 and 5 against 6: tied again.
    events += round_((2, 2, 2), A=(3, 3, 1), B=(2, 2, 1))
    state = play(events, rounds=2)
    assert state["balances"] == {"A": -18, "B": -18, "house": -4}
    assert state["pots"] == {"central": 40, "round": 0}
    assert not state["finished"] and state["next"]["players"] == ["house"]
    with pytest.raises(ScriptError, match="only A and B play the tie round, not house"):
        play(events + [red(1, 1, 1), own("house", 1, 1, 1)], rounds=2)
    # Tie round 2: 5 more each (50); B's 4-4-4 is exact: B takes the pot.
    events += round_((4, 4, 4), A=(6, 6, 1), B=(4, 4, 4))
    state = play(events, rounds=2)
    assert state["finished"] and state["winner"] == "B"
    assert state["balances"] == {"A": -23, "B": 27, "house": -4}
    assert state["pots"] == {"central": 0, "round": 0}
    assert state["round_winners"] == ["A", "B"]  # tie rounds add no entries
    assert [r["winner"] for r in state["tie_rounds"]] == [None, "B"]


def test_a_tied_tie_round_narrows_to_the_still_tied():
    # One round, a three-way tie at 0 wins: A, B and the house play the tie round.
    events = round_((2, 2, 2), A=(1, 1, 3), B=(3, 3, 1), H=(2, 2, 1))
    state = play(events, rounds=1)
    assert state["tie_players"] == ["A", "B", "house"]
    events += round_((3, 3, 3), A=(4, 4, 2), B=(6, 6, 6), H=(3, 3, 2))  # A and house at 1
    state = play(events, rounds=1)
    assert state["tie_players"] == ["A", "house"]
    events += round_((5, 5, 5), A=(1, 1, 1), H=(5, 5, 4))
    state = play(events, rounds=1)
    # A: -15 -2 -5 -5; B: -15 -2 -5; house: -2 -5 -5 + pot (30 + 6 + 15 + 10 = 61).
    assert state["winner"] == "house"
    assert state["balances"] == {"A": -27, "B": -22, "house": 49}


# --- options ----------------------------------------------------------------------

def test_scale_multiplies_every_amount_and_the_bonuses():
    state = play(round_((4, 2, 1), A=(3, 3, 1), H=(1, 1, 1)), players=("A",), scale=2)
    # central 30, round stake 4 each, bonus 4: A -30 -4 +8 +4.
    assert state["balances"] == {"A": -22, "house": -4}
    assert state["pots"]["central"] == 26
    state = play(round_((4, 2, 1), A=(3, 3, 1), H=(1, 1, 1)), players=("A",), scale=2,
                 scale_bonuses=False)
    assert state["balances"] == {"A": -24, "house": -4}


def test_scale_multiplies_the_tie_entry():
    events = round_((2, 2, 2), A=(1, 1, 3), H=(3, 3, 1)) + [red(1, 1, 1)]
    state = play(events, players=("A",), rounds=1, scale=0.5)
    # central 7.5, round 1 each (tie: to the central pot), entry 2.5 each.
    assert state["balances"] == {"A": -11, "house": -3.5}
    assert state["pots"] == {"central": 14.5, "round": 0}


def test_amount_options():
    state = play(round_((4, 2, 1), A=(6, 6, 6), H=(4, 2, 2)), players=("A",), central_stake=10,
                 round_stake=3, same_sum_bonus=1, exact_bonus=9)
    assert state["balances"] == {"A": -13, "house": 3}
    assert state["pots"]["central"] == 10


def test_reading_option_the_house_does_not_compete():
    events = round_((4, 2, 1), A=(6, 6, 6), B=(5, 5, 5))
    state = play(events, house_competes=False)
    assert state["round_winners"] == ["B"]
    assert state["balances"] == {"A": -17, "B": -13, "house": 0}
    assert "house" not in state["wins"]
    nxt = play([red(1, 1, 1)], house_competes=False)["next"]
    assert nxt["players"] == ["A", "B"] and nxt["colour"] == "blue"
    with pytest.raises(ScriptError, match="the house does not compete"):
        play([red(1, 1, 1), own("house", 1, 1, 1)], house_competes=False)


def test_reading_option_the_house_pays_no_round_stake():
    state = play(round_((4, 2, 1), A=(6, 6, 6), B=(5, 5, 5), H=(1, 1, 1)),
                 house_round_stake=False)
    assert state["round_winners"] == ["house"]
    assert state["balances"] == {"A": -17, "B": -17, "house": 4}


def test_reading_option_the_house_pays_the_central_stake():
    state = play([], house_central_stake=True)
    assert state["balances"] == {"A": -15, "B": -15, "house": -15}
    assert state["pots"]["central"] == 45


def test_rounds_option():
    state = play(round_((4, 2, 1), A=(6, 6, 6), H=(1, 2, 4)), players=("A",), rounds=1)
    assert state["finished"] and state["winner"] == "house"
    assert state["balances"] == {"A": -17, "house": 17}


def test_one_to_four_bettors():
    with pytest.raises(IllegalEvent, match="1-4 players"):
        GAME.new(["A", "B", "C", "D", "E"])
    assert GAME.new(["A"]).players == ("A",)


# --- what the game waits for, and refusals ----------------------------------------

def test_next_central_first_then_everyone_at_once():
    state = GAME.new(["A", "B"])
    nxt = GAME.next(state)
    assert (nxt.players, nxt.role, nxt.colour, nxt.dice) == (("house",), "central", "red",
                                                            ("d6", "d6", "d6"))
    state = apply_all(state, [red(1, 2, 3)])
    nxt = GAME.next(state)
    assert nxt.players == ("A", "B", "house") and nxt.role is None and nxt.colour is None
    state = apply_all(state, [own("A", 1, 1, 1), own("B", 1, 1, 1)])
    assert GAME.next(state).colour == "green"
    state = apply_all(state, [{"type": "throw", "player": "house", "role": "house",
                               "dice": [2, 2, 2]}])
    assert GAME.next(state).role == "central"
    printed = GAME.to_json(state)
    assert printed["colours"] == {"A": "blue", "B": "blue", "house": "green", "central": "red"}
    assert printed["rounds"][0]["throws"][0] == {"player": "central", "dice": [1, 2, 3]}


def test_the_round_stakes_are_taken_with_the_red_throw_and_shown():
    state = play([red(1, 2, 3), own("A", 1, 1, 2)])
    assert state["pots"] == {"central": 30, "round": 6}
    assert state["central"] == {"dice": [1, 2, 3], "sum": 6}
    assert state["current_throws"] == [{"player": "A", "dice": [1, 1, 2], "sum": 4, "distance": 2}]


def test_the_table_ends_the_game_round_stakes_back_the_leader_takes_the_pot():
    events = round_((4, 2, 1), A=(6, 6, 6), B=(3, 2, 1), H=(1, 1, 1)) + [red(1, 1, 1),
                                                                         {"type": "end"}]
    state = play(events)
    # B won round 1 (-15 -2 +6: -11, A -17, house -2); round 2's stakes go back;
    # B takes the central 30.
    assert state["finished"] and state["winner"] == "B" and "ended" in state["flags"]
    assert state["balances"] == {"A": -17, "B": 19, "house": -2}
    assert state["pots"] == {"central": 0, "round": 0}


def test_the_table_ends_a_tied_game_the_pot_is_shared():
    state = play([{"type": "end"}], players=("A",), house_competes=False)
    assert state["finished"] and state["winner"] == "A"
    state = play([{"type": "end"}])
    assert state["winner"] is None
    assert state["balances"] == {"A": -5, "B": -5, "house": 10}


@pytest.mark.parametrize(("events", "bad", "message"), [
    ([], own("A", 1, 2, 3), "the central \\(red\\) dice come first"),
    ([], own("house", 1, 2, 3), "expected a throw from house with role 'central'"),
    ([red(1, 2, 3)], red(1, 2, 3), "the central dice are already thrown this round"),
    ([red(1, 2, 3), own("A", 1, 1, 1)], own("A", 1, 1, 1), "A has already thrown this round"),
    ([red(1, 2, 3)], {"type": "throw", "player": "A", "role": "central", "dice": [1, 1, 1]},
     "only the house throws the central dice"),
    ([red(1, 2, 3)], {"type": "throw", "player": "house", "role": "bar", "dice": [1, 1, 1]},
     "unknown role 'bar'"),
    ([red(1, 2, 3)], own("A", 1, 1), "expected 3d6 from A, got 2 dice"),
    ([], red(1, 2, 7), "die 3 shows 7, a d6 shows 1-6"),
    ([red(1, 2, 3)], {"type": "throw", "player": "A",
                      "dice": [1, {"value": 2, "colour": "red"}, 3]},
     "expected blue dice for A's dice: die 2 is red"),
    ([], {"type": "throw", "player": "house", "role": "central",
          "dice": [{"value": 2, "colour": "green"}, 1, 3]}, "expected red dice"),
    ([], {"type": "stake", "player": "A", "amount": 3}, "Dados Centrales has no stake event"),
])
def test_refused_events_say_what_was_expected_and_change_nothing(events, bad, message):
    state = apply_all(GAME.new(["A", "B"]), events)
    before = GAME.to_json(state)
    with pytest.raises(IllegalEvent, match=message):
        GAME.apply(state, Event.from_json(bad))
    assert GAME.to_json(state) == before


def test_no_event_after_the_end():
    state = apply_all(GAME.new(["A"]), [{"type": "end"}])
    with pytest.raises(IllegalEvent, match="the game is over"):
        GAME.apply(state, Event.from_json(red(1, 2, 3)))


# --- closeness: a property ---------------------------------------------------------

D6 = st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6))


@given(a=D6, b=D6, central=D6, exact_first=st.booleans())
def test_closeness_orders_by_distance_then_exactness(a, b, central, exact_first):
    ka, kb = closeness(a, central, exact_first), closeness(b, central, exact_first)
    da, db = abs(sum(a) - sum(central)), abs(sum(b) - sum(central))
    if da < db:
        assert ka < kb
    assert closeness(central, central, exact_first) <= ka
    assert closeness(tuple(reversed(a)), central, exact_first) == ka  # order of dice is free
    if da == db and da > 0:
        assert ka == kb
    if not exact_first:
        assert ka == (da, 1)
