"""Gemelos (RULES.md section 1, seed 000 "Dados, primera parte")."""

from __future__ import annotations

import pytest

from rules import Event, IllegalEvent, get_game, play_script, state_json
from rules.gemelos import compare


def throws(*pairs):
    players = "AB"
    return [{"type": "throw", "player": players[i % 2], "dice": list(p)} for i, p in enumerate(pairs)]


def test_the_seed_game_four_rounds():
    # Round 1: 6+4 vs 8+1; 2: 8+2 vs 8+1; 3: 6+2 vs twins 4+4; 4: 7+3 vs 6+2.
    state = state_json(play_script({
        "game": "gemelos", "players": ["A", "B"],
        "events": throws((6, 4), (8, 1), (8, 2), (8, 1), (6, 2), (4, 4), (7, 3), (6, 2))}))
    assert state["round_winners"] == ["A", "A", "B", "A"]
    assert state["finished"] and state["winner"] == "A"
    assert state["round_wins"] == {"A": 3, "B": 1}
    assert "4+4 twins" in state["rounds"][2]["reason"]


@pytest.mark.parametrize("challenger", [(8, 1), (7, 2), (6, 3), (1, 8), (2, 7)])
def test_twins_of_3_beat_nine_with_a_low_die(challenger):
    sign, why = compare((3, 3), challenger)
    assert sign == 1
    assert "at or below 3" in why
    assert compare(challenger, (3, 3))[0] == -1


def test_twins_of_3_lose_to_5_and_4():
    assert compare((5, 4), (3, 3))[0] == 1
    assert compare((3, 3), (5, 4))[0] == -1


def test_twins_win_an_equal_total():
    assert compare((4, 4), (6, 2))[0] == 1  # 4+4 beats 6+2
    assert compare((1, 1), (2, 1))[0] == 1  # "2 is better than 3"


def test_equal_totals_go_to_the_higher_die_and_identical_throws_are_void():
    assert compare((6, 2), (5, 3))[0] == 1
    assert compare((6, 2), (2, 6))[0] == 0
    assert compare((5, 5), (5, 5))[0] == 0
    assert compare((8, 8), (7, 7))[0] == 1


def test_a_void_round_is_thrown_again_and_recorded_as_null():
    state = state_json(play_script({
        "game": "gemelos", "players": ["A", "B"], "events": throws((6, 2), (2, 6), (5, 4))}))
    assert state["round_winners"] == [None]
    assert state["next"]["player"] == "B"
    assert "void" in state["rounds"][0]["reason"]


def test_three_players_a_cycle_is_thrown_again():
    # 3+3 beats 8+2 (8+2 has a die at or below 3), 8+2 beats 5+4, 5+4 beats 3+3.
    events = [{"type": "throw", "player": p, "dice": d}
              for p, d in zip("ABC", [[3, 3], [5, 4], [8, 2]], strict=True)]
    state = state_json(play_script({"game": "gemelos", "players": ["A", "B", "C"], "events": events}))
    assert state["round_winners"] == [None]
    assert "beats every other" in state["rounds"][0]["reason"]


def test_three_players_the_throw_beating_all_wins():
    events = [{"type": "throw", "player": p, "dice": d}
              for p, d in zip("ABC", [[3, 3], [5, 4], [8, 7]], strict=True)]
    state = state_json(play_script({"game": "gemelos", "players": ["A", "B", "C"],
                                    "options": {"stake": 1}, "events": events}))
    assert state["round_winners"] == ["C"]
    assert state["balances"] == {"A": -1, "B": -1, "C": 2}


def test_most_beaten_reading_settles_a_partial_order():
    events = [{"type": "throw", "player": p, "dice": d}
              for p, d in zip("ABC", [[3, 3], [5, 4], [5, 4]], strict=True)]
    script = {"game": "gemelos", "players": ["A", "B", "C"], "events": events}
    assert state_json(play_script(script))["round_winners"] == [None]
    script["options"] = {"many_players": "most_beaten"}
    assert state_json(play_script(script))["round_winners"] == [None]  # B and C beat one each
    script["events"][2]["dice"] = [2, 1]
    assert state_json(play_script(script))["round_winners"] == ["B"]


def test_stakes_a_player_may_raise_before_throwing():
    events = [{"type": "stake", "player": "B", "amount": 5}] + throws((6, 4), (8, 1))
    state = state_json(play_script({"game": "gemelos", "players": ["A", "B"],
                                    "options": {"stake": 2, "wins_needed": 1}, "events": events}))
    assert state["balances"] == {"A": 5, "B": -5}
    game = get_game("gemelos")
    s = game.new(["A", "B"])
    s = game.apply(s, Event.throw("A", 3, 4))
    with pytest.raises(IllegalEvent, match="stakes go before the throw"):
        game.apply(s, Event.decision("stake", "A", amount=2))


def test_alternate_first_moves_the_first_thrower():
    state = state_json(play_script({"game": "gemelos", "players": ["A", "B"],
                                    "options": {"alternate_first": True},
                                    "events": throws((6, 4), (8, 1))}))
    assert state["next"]["player"] == "B"
