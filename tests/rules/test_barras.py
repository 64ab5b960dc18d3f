"""Barras (RULES.md section 3, seed 000 "Dados, tercera parte")."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import Event, EventType, IllegalEvent, ScriptError, get_game, play_script, state_json
from rules.barras import reading
from rules.events import Die

GAME = get_game("barras")


def bar(tens, units):
    return {"type": "throw", "player": "house", "dice": [tens, units]}


def throw(player, tens, units):
    return {"type": "throw", "player": player, "dice": [tens, units]}


def join(player, stake=None):
    event = {"type": "join", "player": player}
    if stake is not None:
        event["stake"] = stake
    return event


def sit(player):
    return {"type": "sit_out", "player": player}


def play(events, players=("A", "B"), **options):
    return state_json(play_script(
        {"game": "barras", "players": list(players), "options": options, "events": events}))


def apply_all(state, events):
    for raw in events:
        state = GAME.apply(state, Event.from_json(raw))
    return state


SEED_ROUND_1 = [bar(70, 2), join("A", 10), join("B", 5), throw("A", 30, 4), throw("B", 90, 5)]
SEED_ROUND_2 = [bar(80, 1), join("A", 10), join("B", 5), throw("A", 50, 3), throw("B", 20, 8)]


# --- the seed's two example rounds ------------------------------------------------

def test_seed_round_bar_72_a_34_b_95_a_stake_goes_to_b():
    state = play(SEED_ROUND_1)
    assert state["round_winners"] == ["B"]
    assert state["balances"] == {"A": -10, "B": 10, "house": 0}
    assert state["pots"] == {"stakes": 0}
    assert state["chips"] == {"A": 90, "B": 110}
    assert "95" in state["rounds"][0]["reason"] and "72" in state["rounds"][0]["reason"]
    assert state["next"]["player"] == "house" and state["next"]["note"] == "bar"


def test_seed_round_bar_81_a_53_b_28_house_keeps_both_stakes():
    state = play(SEED_ROUND_2)
    assert state["round_winners"] == ["house"]
    assert state["balances"] == {"A": -10, "B": -5, "house": 15}
    assert "nobody beats the bar 81" in state["rounds"][0]["reason"]


def test_seed_rounds_through_the_score_command(tmp_path):
    script = tmp_path / "barras.json"
    script.write_text(json.dumps({"game": "barras", "players": ["A", "B"],
                                  "events": SEED_ROUND_1 + SEED_ROUND_2}))
    out = subprocess.run([sys.executable, "-m", "station.cli", "score", str(script)],
                         capture_output=True, text=True, check=True)
    state = json.loads(out.stdout)
    assert state["game"] == "barras"
    assert state["round_winners"] == ["B", "house"]
    assert state["balances"] == {"A": -20, "B": 5, "house": 15}
    assert state["finished"] is False


def test_the_score_command_names_the_bad_event(tmp_path):
    script = tmp_path / "bad.json"
    script.write_text(json.dumps({"game": "barras", "players": ["A", "B"],
                                  "events": [throw("A", 30, 4)]}))
    out = subprocess.run([sys.executable, "-m", "station.cli", "score", str(script)],
                         capture_output=True, text=True)
    assert out.returncode == 2
    assert "event 0" in out.stderr and "the bar has not been thrown" in out.stderr


# --- reading a throw ----------------------------------------------------------------

@pytest.mark.parametrize(("dice", "house", "value"), [
    ((80, 6), False, 86), ((80, 6), True, 86), ((0, 0), True, 0), ((0, 0), False, 100),
    ((0, 7), False, 7), ((50, 0), False, 50), ((90, 9), True, 99),
])
def test_reading(dice, house, value):
    assert reading(dice, house) == value


def test_triple_zero_is_the_best_player_throw_and_the_worst_bar():
    state = play([bar(0, 0), join("A", 5), sit("B"), throw("A", 0, 0)])
    assert state["round_winners"] == ["A"]
    assert "triple_zero:A" in state["flags"] and "house_zero" in state["flags"]
    state = play([bar(90, 9), join("A", 5), join("B", 5), throw("A", 0, 0), throw("B", 90, 8)])
    assert state["round_winners"] == ["A"]
    assert state["balances"] == {"A": 5, "B": -5, "house": 0}


def test_the_bar_must_be_beaten_strictly():
    state = play([bar(70, 2), join("A", 10), sit("B"), throw("A", 70, 2)])
    assert state["round_winners"] == ["house"]
    assert state["balances"] == {"A": -10, "B": 0, "house": 10}


def test_dice_may_come_units_first_when_their_kinds_say_so():
    die = [{"kind": "d10", "value": 2}, {"kind": "d10t", "value": 70}]
    state = play([{"type": "throw", "player": "house", "dice": die}])
    assert state["bar"] == {"dice": [70, 2], "value": 72}


# --- one player against the house; nobody plays -----------------------------------

def test_one_player_against_the_house_wins_the_house_pays_the_set_amount():
    state = play([bar(40, 0), sit("A"), join("B", 10), throw("B", 60, 1)], house_pays=1.5)
    assert state["round_winners"] == ["B"]
    assert state["balances"] == {"A": 0, "B": 15, "house": -15}
    assert "the house pays 15" in state["rounds"][0]["reason"]


def test_one_player_against_the_house_default_pays_one_to_one():
    state = play([bar(40, 0), sit("A"), join("B", 10), throw("B", 60, 1)])
    assert state["balances"] == {"A": 0, "B": 10, "house": -10}


def test_one_player_against_the_house_loses_the_stake():
    state = play([bar(40, 0), sit("A"), join("B", 10), throw("B", 30, 1)])
    assert state["round_winners"] == ["house"]
    assert state["balances"] == {"A": 0, "B": -10, "house": 10}


def test_nobody_plays_every_player_pays_the_fee():
    state = play([bar(90, 8), sit("A"), sit("B")], players=("A", "B", "C"), no_play_fee=3)
    assert state["next"]["action"] == "decide" and state["next"]["players"] == ["C"]
    state = play([bar(90, 8), sit("A"), sit("B"), sit("C")], players=("A", "B", "C"),
                 no_play_fee=3)
    assert state["round_winners"] == [None]
    assert state["balances"] == {"A": -3, "B": -3, "C": -3, "house": 9}
    assert "every player pays 3" in state["rounds"][0]["reason"]


def test_nobody_plays_with_no_fee_costs_nothing():
    state = play([bar(90, 8), sit("A"), sit("B")])
    assert state["round_winners"] == [None]
    assert state["balances"] == {"A": 0, "B": 0, "house": 0}


def test_the_fee_takes_at_most_the_chips_left():
    # A loses 9 of 10 chips, then nobody plays with a fee of 3: A pays its last chip.
    state = play([bar(50, 0), join("A", 9), sit("B"), throw("A", 10, 0),
                  bar(90, 9), sit("A"), sit("B")], chips=10, no_play_fee=3)
    assert state["balances"] == {"A": -10, "B": -3, "house": 13}
    assert state["finished"] and state["winner"] == "B"
    assert "out:A" in state["flags"]


# --- several players, ties for the highest ---------------------------------------

def test_the_highest_above_the_bar_takes_every_stake_of_three():
    state = play([bar(50, 0), join("A", 4), join("B", 6), join("C", 8),
                  throw("A", 60, 0), throw("B", 40, 0), throw("C", 70, 0)], players="ABC")
    assert state["round_winners"] == ["C"]
    assert state["balances"] == {"A": -4, "B": -6, "C": 10, "house": 0}


def test_a_tie_for_the_highest_is_thrown_off_between_the_tied():
    events = [bar(50, 0), join("A", 4), join("B", 6), join("C", 8),
              throw("A", 90, 5), throw("B", 90, 5), throw("C", 70, 0)]
    state = play(events, players="ABC")
    assert state["round_winners"] == []
    assert state["next"]["players"] == ["A", "B"] and state["next"]["note"] == "throw-off"
    state = play(events + [throw("A", 30, 0), throw("B", 30, 0)], players="ABC")
    assert state["next"]["note"] == "throw-off"  # tied again: again
    state = play(events + [throw("A", 30, 0), throw("B", 30, 0),
                           throw("B", 10, 0), throw("A", 0, 0)], players="ABC")
    assert state["round_winners"] == ["A"]  # a throw-off adds no round entry of its own
    assert state["balances"] == {"A": 14, "B": -6, "C": -8, "house": 0}
    assert "throw-off won by A" in state["rounds"][0]["reason"]


def test_a_throw_off_is_only_for_the_tied():
    events = [bar(50, 0), join("A", 4), join("B", 6), join("C", 8),
              throw("A", 90, 5), throw("B", 90, 5), throw("C", 70, 0), throw("C", 10, 0)]
    with pytest.raises(ScriptError, match="event 7: it is A and B's throw, not C's"):
        play(events, players="ABC")


def test_reading_option_split_shares_the_stakes_between_the_tied():
    state = play([bar(50, 0), join("A", 4), join("B", 6), join("C", 8),
                  throw("A", 90, 5), throw("B", 90, 5), throw("C", 70, 0)],
                 players="ABC", highest_tie="split")
    assert state["round_winners"] == [None]
    assert state["balances"] == {"A": 5, "B": 3, "C": -8, "house": 0}


def test_a_tie_below_the_bar_needs_no_throw_off():
    state = play([bar(80, 0), join("A", 4), join("B", 6), throw("A", 20, 5), throw("B", 20, 5)])
    assert state["round_winners"] == ["house"]


# --- stakes and chips ------------------------------------------------------------

def test_a_join_without_an_amount_stakes_the_default():
    state = play([bar(10, 0), join("A"), join("B"), throw("A", 90, 0), throw("B", 20, 0)])
    assert state["balances"] == {"A": 1, "B": -1, "house": 0}
    state = play([bar(10, 0), join("A"), join("B"), throw("A", 90, 0), throw("B", 20, 0)],
                 default_stake=5)
    assert state["balances"] == {"A": 5, "B": -5, "house": 0}


def test_a_stake_event_is_a_join():
    state = play([bar(10, 0), {"type": "stake", "player": "A", "amount": 3}, join("B", 2),
                  throw("A", 90, 0), throw("B", 20, 0)])
    assert state["balances"] == {"A": 2, "B": -2, "house": 0}


def test_a_stake_leaves_the_player_at_once_and_the_page_sees_it():
    state = play([bar(10, 0), join("A", 3), sit("B")])
    assert state["balances"]["A"] == -3 and state["pots"] == {"stakes": 3}
    assert state["decisions"] == {"A": 3, "B": "sit_out"}
    assert state["chips"]["A"] == 97
    assert state["next"] == {"player": "A", "players": ["A"], "action": "throw",
                             "dice": "d10t+d10"}


def test_a_stake_above_the_chips_is_all_in_with_option_all_in():
    state = play([bar(10, 0), join("A", 50), join("B", 5), throw("A", 20, 0), throw("B", 90, 0)],
                 chips=20, over_stake="all_in")
    assert state["balances"] == {"A": -20, "B": 20, "house": 0}
    assert state["finished"] and state["winner"] == "B"
    assert "out:A" in state["flags"]


def test_a_stake_above_the_chips_is_refused_by_default():
    with pytest.raises(ScriptError, match="A has only 20 chips: cannot stake 50"):
        play([bar(10, 0), join("A", 50)], chips=20)


def test_a_player_with_no_chips_is_out_and_not_asked():
    events = [bar(10, 0), join("A", 10), join("B", 10), join("C", 1),
              throw("A", 0, 5), throw("B", 90, 0), throw("C", 0, 5)]
    state = play(events, players="ABC", chips=10)
    assert state["out"] == ["A"] and not state["finished"]
    state = play(events + [bar(20, 0)], players="ABC", chips=10)
    assert state["next"]["players"] == ["B", "C"]
    with pytest.raises(ScriptError, match="A has no chips left"):
        play(events + [bar(20, 0), join("A", 1)], players="ABC", chips=10)


def test_the_game_ends_when_one_player_has_chips():
    state = play([bar(10, 0), join("A", 10), join("B", 10), throw("A", 0, 5), throw("B", 90, 0)],
                 chips=10)
    assert state["finished"] and state["winner"] == "B" and state["next"] is None


def test_the_game_ends_with_nobody_when_every_player_goes_broke():
    state = play([bar(90, 0), join("A", 10), join("B", 10), throw("A", 0, 5), throw("B", 10, 0)],
                 chips=10)
    assert state["finished"] and state["winner"] is None
    assert state["balances"] == {"A": -10, "B": -10, "house": 20}


def test_the_table_ends_the_game_stakes_go_back_most_chips_wins():
    state = play(SEED_ROUND_1 + [bar(20, 0), join("A", 7), {"type": "end"}])
    assert state["finished"] and state["winner"] == "B" and "ended" in state["flags"]
    assert state["balances"] == {"A": -10, "B": 10, "house": 0}
    assert state["pots"] == {"stakes": 0}
    state = play([{"type": "end"}])
    assert state["finished"] and state["winner"] is None


# --- what the game waits for, and refusals ----------------------------------------

def test_next_in_each_step():
    state = GAME.new(["A", "B"])
    nxt = GAME.next(state)
    assert (nxt.action, nxt.players, nxt.dice, nxt.note) == ("throw", ("house",), ("d10t", "d10"),
                                                            "bar")
    state = apply_all(state, [bar(40, 0)])
    nxt = GAME.next(state)
    assert nxt.action == "decide" and nxt.players == ("A", "B")
    assert set(nxt.choices) == {"join", "sit_out", "stake"}
    state = apply_all(state, [join("B", 2), join("A", 2)])
    assert GAME.next(state).players == ("A", "B")
    state = apply_all(state, [throw("B", 10, 0)])
    assert GAME.next(state).players == ("A",)


@pytest.mark.parametrize(("events", "bad", "message"), [
    ([], throw("A", 30, 4), "the bar has not been thrown: expected a throw from house"),
    ([], join("A", 3), "the bar has not been thrown"),
    ([bar(40, 0)], bar(50, 0), "the bar is thrown: waiting for join or sit_out from A and B"),
    ([bar(40, 0)], throw("A", 30, 4), "players throw after every player has decided"),
    ([bar(40, 0), join("A", 3)], join("A", 3), "A has already decided"),
    ([bar(40, 0)], join("house", 3), "the house does not join"),
    ([bar(40, 0)], join("A", 0), "A's stake must be more than 0"),
    ([bar(40, 0)], {"type": "tip_hat", "player": "A"}, "Barras has no tip_hat event"),
    ([bar(40, 0), join("A", 3), join("B", 3)], bar(40, 0), "the bar is already thrown"),
    ([bar(40, 0), join("A", 3), sit("B")], throw("B", 40, 0), "it is A's throw, not B's"),
    ([bar(40, 0), join("A", 3), sit("B")], join("B", 2), "expected a throw from A"),
    ([], {"type": "throw", "player": "house", "dice": [40]}, "expected d10t\\+d10 from house, got 1"),
    ([], {"type": "throw", "player": "house", "dice": [45, 0]}, "die 1 shows 45"),
    ([], {"type": "throw", "player": "house", "dice": [40, 10]}, "die 2 shows 10, a d10 shows 0-9"),
    ([], {"type": "throw", "player": "house", "dice": [{"kind": "d6", "value": 4}, 0]},
     "die 1 is a d6"),
])
def test_refused_events_say_what_was_expected_and_change_nothing(events, bad, message):
    state = apply_all(GAME.new(["A", "B"]), events)
    before = GAME.to_json(state)
    with pytest.raises(IllegalEvent, match=message):
        GAME.apply(state, Event.from_json(bad))
    assert GAME.to_json(state) == before


def test_no_event_after_the_end():
    state = apply_all(GAME.new(["A", "B"]), [{"type": "end"}])
    with pytest.raises(IllegalEvent, match="the game is over"):
        GAME.apply(state, Event.from_json(bar(10, 0)))


def test_two_players_at_least():
    with pytest.raises(IllegalEvent, match="needs at least 2 players"):
        GAME.new(["A"])


# --- a property of settling a round -----------------------------------------------

THROWS = st.tuples(st.sampled_from(range(0, 100, 10)), st.integers(0, 9))


@given(bar_dice=THROWS, player_dice=st.lists(THROWS, min_size=2, max_size=4),
       stakes=st.lists(st.integers(1, 10), min_size=4, max_size=4))
def test_a_round_of_several_players_pays_the_unique_highest_or_the_house(
        bar_dice, player_dice, stakes):
    players = "ABCD"[: len(player_dice)]
    events = [bar(*bar_dice)] + [join(p, s) for p, s in zip(players, stakes, strict=False)]
    events += [throw(p, *d) for p, d in zip(players, player_dice, strict=True)]
    state = apply_all(GAME.new(list(players)), events)
    assert state.ledger.total() == 0
    bar_value = reading(bar_dice, house=True)
    values = {p: reading(d) for p, d in zip(players, player_dice, strict=True)}
    above = {p: v for p, v in values.items() if v > bar_value}
    total = Fraction(sum(stakes[: len(players)]))
    balances = state.ledger.balances()
    if not above:
        assert state.rounds[-1].winner == "house" and balances["house"] == total
        return
    top = max(above.values())
    best = [p for p, v in above.items() if v == top]
    if len(best) > 1:
        assert GAME.next(state).note == "throw-off" and not state.rounds
        return
    winner = best[0]
    assert state.rounds[-1].winner == winner and balances["house"] == 0
    assert balances[winner] == total - stakes[players.index(winner)]
    assert all(v >= 0 for v in state.ledger.pots().values())


def test_an_illegal_mutation_does_not_touch_the_state():
    state = apply_all(GAME.new(["A", "B"]), [bar(40, 0), join("A", 3)])
    before = state
    for bad in (Event(EventType.THROW, "A", (Die(40), Die(0))), Event(EventType.WITHDRAW, "B")):
        with pytest.raises(IllegalEvent):
            GAME.apply(state, bad)
    assert state == before
