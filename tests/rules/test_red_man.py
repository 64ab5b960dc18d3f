"""Red Man's Throw (RULES.md section 2; seeds 000 "Dados, segunda parte" and 001)."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Event, EventType, IllegalEvent, ScriptError, get_game, play_script, state_json
from rules.events import Die
from rules.red_man import (
    PREDICTION_CLASSES,
    RedMansThrow,
    check_prediction,
    compare,
    prediction_holds,
    rank,
)
from station.cli import main as cli_main

GAME = get_game("red_mans_throw")
ALL_THROWS = list(product(range(1, 7), repeat=3))


def t(player, *dice):
    return {"type": "throw", "player": player, "dice": list(dice)}


def rounds(*pairs):
    """A then B throws for each (A's dice, B's dice) pair."""
    out = []
    for a, b in pairs:
        out.append(t("A", *a))
        if b is not None:
            out.append(t("B", *b))
    return out


def play(events, **options):
    return state_json(play_script(
        {"game": "red_mans_throw", "players": ["A", "B"], "options": options, "events": events}
    ))


def beats(x, y, **opts):
    sx, why = compare(x, y, **opts)
    sy, _ = compare(y, x, **opts)
    assert sx == -sy
    return sx == 1, why


EXAMPLE_1 = [
    *rounds(((6, 3, 1), (4, 4, 1)), ((5, 2, 1), (6, 6, 2)), ((5, 5, 3), (6, 3, 2)),
            ((5, 4, 3), (1, 1, 2)), ((6, 5, 2), (5, 3, 1)), ((6, 6, 4), (6, 6, 4))),
    t("A", 1), t("B", 4),  # round 6: identical, one die each
    t("A", 4), t("B", 6),  # round 7: Salvation
]
EXAMPLE_2 = rounds(((6, 6, 2), (5, 2, 1)), ((5, 4, 2), (3, 2, 1)), ((6, 1, 2), (3, 3, 3)),
                   ((2, 2, 2), (5, 4, 4)), ((6, 2, 4), (5, 5, 2)))
EXAMPLE_3 = rounds(((3, 3, 1), (2, 5, 1)), ((5, 3, 4), (2, 2, 3)), ((6, 5, 5), (1, 1, 1)),
                   ((5, 5, 3), (6, 6, 6)))
EXAMPLE_4 = [t("A", 6, 6, 6)]


# --- ranking: the seed's bullets and RULES.md's checked pairs ----------------------


@pytest.mark.parametrize(("winner", "loser"), [
    # the seed's five bullets
    ((2, 2, 1), (2, 4, 5)),
    ((3, 3, 4), (3, 3, 2)),
    ((3, 3, 3), (5, 4, 1)),
    ((2, 3, 4), (4, 4, 4)),
    ((3, 4, 5), (1, 2, 3)),
    # RULES.md "checked by the seed" (from the example games)
    ((6, 1, 2), (3, 3, 3)),
    ((3, 2, 1), (5, 4, 2)),
])
def test_checked_by_the_seed(winner, loser):
    won, _ = beats(winner, loser)
    assert won


def test_reasons_say_why():
    assert beats((3, 3, 4), (3, 3, 2))[1] == "pair of 3s, kicker 4 beats kicker 2"
    assert beats((2, 3, 4), (4, 4, 4))[1] == "a straight beats a trio"
    assert beats((6, 6, 1), (6, 5, 4))[1] == "two sixes beat one six"
    assert beats((6, 1, 2), (3, 3, 3))[1] == "one six beats no six"
    assert beats((6, 6, 5), (6, 6, 2))[1] == "two sixes: third die 5 beats 2"
    assert beats((3, 4, 5), (1, 2, 3))[1] == "straight 3-4-5 beats straight 1-2-3"
    assert beats((4, 4, 4), (2, 2, 2))[1] == "trio of 4s beats trio of 2s"
    assert beats((5, 5, 1), (4, 4, 5))[1] == "pair of 5s beats pair of 4s"
    assert beats((5, 4, 1), (4, 3, 1))[1] == "nothing: total 10 beats 8"
    assert beats((6, 4, 5), (6, 3, 3))[1] == "4+5+6 beats every other six"
    assert compare((6, 6, 4), (4, 6, 6))[0] == 0


def test_more_sixes_beat_fewer_always():
    for x, y in product(ALL_THROWS, repeat=2):
        if x.count(6) > y.count(6):
            assert compare(x, y)[0] == 1, (x, y)


def test_six_six_six_is_strongest_and_six_six_five_second():
    for y in ALL_THROWS:
        if sorted(y) != [6, 6, 6]:
            assert compare((6, 6, 6), y)[0] == 1
        if sorted(y) not in ([6, 6, 6], [5, 6, 6]):
            assert compare((6, 6, 5), y)[0] == 1, y


def test_four_five_six_beats_every_other_one_six_throw():
    for y in ALL_THROWS:
        if y.count(6) <= 1 and sorted(y) != [4, 5, 6]:
            assert compare((4, 5, 6), y)[0] == 1, y


def test_one_six_pair_beside_the_six_then_total_then_higher_die():
    assert beats((6, 2, 2), (6, 5, 3))[0]  # a pair beside the six beats a higher total
    assert beats((6, 3, 3), (6, 2, 2))[0]  # higher pair
    assert beats((6, 5, 3), (6, 5, 2))[0]  # total 8 beats 7
    won, why = beats((6, 5, 1), (6, 4, 2))  # equal totals 6: the higher die
    assert won and "higher die 5" in why


def test_one_six_order_reading_straight_total():
    opts = {"one_six": "straight_total"}
    assert beats((6, 5, 3), (6, 2, 2), **opts)[0]
    assert beats((6, 4, 5), (6, 5, 5), **opts)[0]  # 4+5+6 still first
    assert beats((6, 3, 3), (6, 4, 1), **opts)[0]  # a pair counts only by its total


def test_nothing_order_readings_agree_on_three_d6():
    # Without a six, straight, trio or pair the dice are five distinct-ish values
    # in 1-5; total and high card order them the same way (both readings kept).
    nothing = [x for x in ALL_THROWS if rank(x)[:2] == (0, 0)]
    for x, y in product(nothing, repeat=2):
        assert compare(x, y, nothing="total")[0] == compare(x, y, nothing="high_card")[0]
    assert rank((5, 2, 1), nothing="high_card") == (0, 0, 5, 2, 1)
    assert rank((5, 2, 1)) == (0, 0, 8, 5, 2, 1)


@settings(max_examples=300, deadline=None)
@given(
    st.tuples(*[st.integers(1, 6)] * 3),
    st.tuples(*[st.integers(1, 6)] * 3),
    st.tuples(*[st.integers(1, 6)] * 3),
    st.sampled_from(["straight_pair_total", "straight_total"]),
    st.sampled_from(["total", "high_card"]),
    st.permutations([0, 1, 2]),
)
def test_ranking_is_a_total_order(x, y, z, one_six, nothing, perm):
    opts = {"one_six": one_six, "nothing": nothing}
    sxy, sxz, syz = (compare(a, b, **opts)[0] for a, b in ((x, y), (x, z), (y, z)))
    assert compare(y, x, **opts)[0] == -sxy  # antisymmetric
    assert compare(x, x, **opts)[0] == 0
    if sxy >= 0 and syz >= 0:  # transitive
        assert sxz >= 0
    if sxy > 0 and syz >= 0:
        assert sxz > 0
    shuffled = tuple(x[i] for i in perm)
    assert compare(shuffled, y, **opts)[0] == sxy  # order of dice is irrelevant
    # identical ranking means the same dice: a throw-off, never two different throws
    assert (sxy == 0) == (sorted(x) == sorted(y))


# --- the seed's four example games -----------------------------------------------------


def test_example_1_throw_off_and_salvation():
    state = play(EXAMPLE_1)
    assert state["round_winners"] == ["A", "B", "B", "A", "A", "B", "B"]
    assert state["round_wins"] == {"A": 3, "B": 4}
    assert state["finished"] and state["winner"] == "B"
    assert state["flags"] == ["salvation", "blessed:B"]
    assert state["blessed"] == "B"
    r6, r7 = state["rounds"][5], state["rounds"][6]
    assert "throw-off 4 beats 1" in r6["reason"] and r6["flags"] == ["throw_off"]
    assert r7["number"] == 7 and "salvation" in r7["flags"]
    assert r7["throws"] == [{"player": "A", "dice": [4]}, {"player": "B", "dice": [6]}]
    assert state["next"] is None


def test_example_1_the_throw_off_and_the_salvation_as_next_says():
    game = RedMansThrow()
    script = {"game": "red_mans_throw", "players": ["A", "B"], "events": EXAMPLE_1[:12]}
    state = play_script(script)
    nxt = game.next(state)
    assert (nxt.players, nxt.dice, nxt.note, nxt.choices) == (("A",), ("d6",), "throw-off", ())
    assert len(state.rounds) == 5  # the tie added no entry
    state = game.apply(state, Event.throw("A", 3))
    state = game.apply(state, Event.throw("B", 3))  # equal: again, no entry
    assert len(state.rounds) == 5 and game.next(state).players == ("A",)
    state = game.apply(state, Event.throw("A", 1))
    state = game.apply(state, Event.throw("B", 4))
    nxt = game.next(state)
    assert nxt.players == ("A", "B") and nxt.dice == ("d6",) and nxt.note == "salvation"
    assert "salvation" in state.flags
    state = game.apply(state, Event.throw("B", 2))  # simultaneous: any order
    assert game.next(state).players == ("A",)
    state = game.apply(state, Event.throw("A", 2))  # equal: repeat
    assert not state.finished and game.next(state).players == ("A", "B")
    state = game.apply(state, Event.throw("A", 4))
    state = game.apply(state, Event.throw("B", 6))
    assert state.finished and state.winner == "B" and "blessed:B" in state.flags


def test_example_2_ends_early_at_4_1():
    state = play(EXAMPLE_2)
    assert state["round_winners"] == ["A", "B", "A", "A", "A"]
    assert state["round_wins"] == {"A": 4, "B": 1}
    assert state["finished"] and state["winner"] == "A"
    assert state["flags"] == []
    assert state["rounds"][1]["reason"] == "a straight beats nothing"
    assert state["rounds"][3]["reason"] == "a trio beats a pair"


def test_example_2_not_over_after_round_4_at_3_1():
    state = play(EXAMPLE_2[:8])
    assert not state["finished"]  # B can still reach 3-3 and the Salvation
    assert state["next"]["player"] == "A" and state["next"]["dice"] == "3d6"


def test_example_3_red_man_wins_every_round_retroactively():
    state = play(EXAMPLE_3 + [{"type": "tip_hat", "player": "A"}], stake=5)
    assert state["round_winners"] == ["B", "B", "B", "B"]
    assert state["round_wins"] == {"A": 0, "B": 4}
    assert state["finished"] and state["winner"] == "B"
    assert state["flags"] == ["red_man", "red_man:B", "tip_hat:A"]
    assert state["red_man"] == "B" and state["red_man_says"] == "Looks like I'm the red man"
    assert state["hat_tipped"] is True and state["tip_hat_by"] == "A"
    assert [r["flags"] for r in state["rounds"][:3]] == [["retroactive"]] * 3
    assert "played: A won" in state["rounds"][0]["reason"]
    assert state["rounds"][3]["flags"] == ["red_man"]
    assert state["balances"] == {"A": -20, "B": 20}  # all four of A's stakes


def test_example_4_red_man_on_the_first_throw_b_does_not_throw():
    state = play(EXAMPLE_4)
    assert state["round_winners"] == ["A"]
    assert state["rounds"][0]["throws"] == [{"player": "A", "dice": [6, 6, 6]}]
    assert state["finished"] and state["winner"] == "A" and state["next"] is None
    assert state["flags"] == ["red_man", "red_man:A"]
    assert state["hat_tipped"] is False and state["tip_hat_by"] == "B"
    state = play(EXAMPLE_4 + [{"type": "tip_hat", "player": "B"}])
    assert state["flags"] == ["red_man", "red_man:A", "tip_hat:B"]
    assert state["tip_hat_says"] == "I tip my hat (to you)"


def test_example_1_through_the_score_command(tmp_path, capsys):
    path = tmp_path / "example1.json"
    path.write_text(json.dumps({"game": "red_mans_throw", "players": ["A", "B"],
                                "options": {"stake": 10}, "events": EXAMPLE_1}))
    assert cli_main(["score", str(path)]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["round_winners"] == ["A", "B", "B", "A", "A", "B", "B"]
    assert state["balances"] == {"A": -10, "B": 10}
    assert state["flags"] == ["salvation", "blessed:B"]


def test_a_bad_event_through_the_score_command(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"game": "red_mans_throw", "players": ["A", "B"],
                                "events": [t("A", 1, 2, 3), t("A", 4, 5, 6)]}))
    assert cli_main(["score", str(path)]) == 2
    err = capsys.readouterr().err
    assert "event 1" in err and "it is B's throw, not A's" in err


# --- stakes and the ledger ------------------------------------------------------------------


def test_stakes_stay_pending_until_the_end():
    state = play(EXAMPLE_2[:8], stake=3)
    assert state["balances"] == {"A": 0, "B": 0}
    assert state["pending"] == [
        {"round": 1, "from": "B", "to": "A", "amount": 3, "why": "B's stake"},
        {"round": 2, "from": "A", "to": "B", "amount": 3, "why": "A's stake"},
        {"round": 3, "from": "B", "to": "A", "amount": 3, "why": "B's stake"},
        {"round": 4, "from": "B", "to": "A", "amount": 3, "why": "B's stake"},
    ]
    state = play(EXAMPLE_2, stake=3)
    assert state["balances"] == {"A": 9, "B": -9}
    assert state["pending"] == [] and len(state["settled"]) == 5


def test_stake_events_set_each_players_stake_for_the_round():
    events = [
        {"type": "stake", "player": "A", "amount": 4},
        {"type": "stake", "player": "B", "amount": 7},  # before A throws
        t("A", 6, 3, 1),
        {"type": "stake", "player": "B", "amount": 8},  # just before throwing
        t("B", 4, 4, 1),
        t("A", 5, 2, 1), t("B", 6, 6, 2),  # round 2: the default stake again
    ]
    state = play(events, stake=2)
    assert [p["amount"] for p in state["pending"]] == [8, 2]
    assert state["stakes"] == {"A": 2, "B": 2}


def test_red_man_takes_every_stake_of_the_game():
    events = [
        {"type": "stake", "player": "A", "amount": 10}, *rounds(((6, 3, 1), (4, 4, 1))),
        {"type": "stake", "player": "A", "amount": 1}, {"type": "stake", "player": "B", "amount": 2},
        *rounds(((5, 2, 1), (6, 6, 6))),
    ]
    state = play(events, stake=5)
    # round 1 (A won) now B's: A's 10; round 2: A's 1
    assert state["balances"] == {"A": -11, "B": 11}
    assert [(s["from"], s["to"], s["amount"]) for s in state["settled"]] == [
        ("A", "B", 10), ("A", "B", 1)]


def test_stake_after_throwing_is_refused():
    state = play_script({"game": "red_mans_throw", "players": ["A", "B"], "events": [t("A", 1, 2, 4)]})
    with pytest.raises(IllegalEvent, match="A has thrown this round: stakes go before the throw"):
        GAME.apply(state, Event(EventType.STAKE, "A", amount=Fraction(3)))
    GAME.apply(state, Event(EventType.STAKE, "B", amount=Fraction(3)))


# --- prediction bets -----------------------------------------------------------------------


def predict(player, prediction):
    return {"type": "predict", "player": player, "prediction": prediction}


@pytest.mark.parametrize(("prediction", "a_dice", "b_dice", "a_balance"), [
    ("pair", (2, 2, 5), (1, 2, 4), 2 * 7),        # right and won: +2R
    ("pair", (2, 2, 5), (6, 1, 3), 0),            # right but lost: 0
    ("trio", (2, 2, 5), (6, 1, 3), -2 * 3),       # wrong and lost: -2S
    ("trio", (2, 2, 5), (1, 2, 4), 7),            # wrong but won: +R
])
def test_prediction_settlement(prediction, a_dice, b_dice, a_balance):
    events = [
        {"type": "stake", "player": "A", "amount": 3},
        {"type": "stake", "player": "B", "amount": 7},
        predict("A", prediction),
        *rounds((a_dice, b_dice)),
        {"type": "end"},
    ]
    state = play(events, predictions=True)
    assert state["balances"]["A"] == a_balance
    assert state["balances"]["A"] + state["balances"]["B"] == 0


def test_prediction_settlement_keep_stake_reading():
    events = [{"type": "stake", "player": "A", "amount": 3}, predict("A", "pair"),
              *rounds(((2, 2, 5), (6, 1, 3))), {"type": "end"}]
    state = play(events, predictions=True, prediction_settlement="keep_stake")
    assert state["balances"]["A"] == -3
    assert "stake kept" in state["settled"][0]["why"]


def test_both_players_predict():
    # A right and won (+1 stake of B), B wrong and lost (+1): B pays three times.
    events = [predict("A", [4, 6, 5]), predict("B", "straight"),
              *rounds(((4, 5, 6), (2, 2, 1))), {"type": "end"}]
    state = play(events, predictions=True, stake=2)
    assert state["balances"] == {"A": 6, "B": -6}
    assert state["rounds"][0]["flags"] == ["predicted:A:right", "predicted:B:wrong"]


def test_predictions_are_shown_and_offered():
    state = play_script({"game": "red_mans_throw", "players": ["A", "B"],
                         "options": {"predictions": True}, "events": [predict("A", {"pair": 2})]})
    assert GAME.next(state).choices == ("stake", "predict")
    assert state_json(state)["predictions"] == {"A": {"pair": 2}}
    plain = GAME.new(["A", "B"])
    assert GAME.next(plain).choices == ("stake",)


def test_predict_with_predictions_off_is_refused():
    with pytest.raises(ScriptError, match="prediction bets are off"):
        play([predict("A", "pair")])


def test_unknown_prediction_lists_the_known_ones():
    with pytest.raises(ScriptError, match="unknown prediction") as info:
        play([predict("A", "full_house")], predictions=True)
    for name in ("pair", "straight", "trio", "six_and_pair", "six_no_pair", "two_sixes", "red_man"):
        assert f'"{name}"' in str(info.value)
    for bad in ([1, 2], [0, 2, 3], [2, 3, 7], {"pair": 7}, {"quad": 2}):
        with pytest.raises(ScriptError, match="unknown prediction"):
            play([predict("A", bad)], predictions=True)


def test_predict_after_throwing_or_in_a_throw_off_is_refused():
    with pytest.raises(ScriptError, match="A has thrown this round: predictions go before"):
        play([t("A", 1, 2, 4), predict("A", "pair")], predictions=True)
    with pytest.raises(ScriptError, match="no predictions in a throw-off"):
        play([t("A", 1, 2, 4), t("B", 4, 2, 1), predict("A", "pair")], predictions=True)


@pytest.mark.parametrize(("prediction", "dice", "holds"), [
    ("pair", (2, 2, 5), True), ("pair", (2, 2, 2), False), ("pair", (6, 6, 1), True),
    ("straight", (3, 2, 1), True), ("straight", (4, 5, 6), True), ("straight", (1, 2, 4), False),
    ("trio", (4, 4, 4), True), ("trio", (4, 4, 3), False),
    ("six_and_pair", (3, 6, 3), True), ("six_and_pair", (6, 6, 3), False),
    ("six_no_pair", (6, 5, 4), True), ("six_no_pair", (6, 2, 2), False),
    ("two_sixes", (6, 1, 6), True), ("red_man", (6, 6, 6), True), ("one_six", (6, 6, 1), False),
    ("nothing", (5, 2, 1), True), ("nothing", (1, 2, 3), False), ("nothing", (6, 2, 1), False),
    ("no_six", (5, 5, 5), True), ("four_five_six", (6, 4, 5), True),
    ((2, 3, 4), (4, 3, 2), True), ((2, 3, 4), (2, 3, 5), False),
    (("pair", 2), (2, 5, 2), True), (("pair", 2), (3, 3, 2), False), (("trio", 5), (5, 5, 5), True),
])
def test_prediction_vocabulary(prediction, dice, holds):
    assert prediction_holds(check_prediction(prediction), dice) is holds


def test_every_prediction_class_is_known():
    for name in PREDICTION_CLASSES:
        assert check_prediction(name) == name


# --- options -------------------------------------------------------------------------------


def test_alternate_first_moves_the_first_thrower_each_round():
    state = play(rounds(((6, 3, 1), (4, 4, 1))), alternate_first=True)
    assert state["next"]["player"] == "B" and state["first_thrower"] == "B"
    state = play([t("A", 6, 3, 1), t("B", 4, 4, 1), t("B", 6, 6, 2), t("A", 5, 2, 1)],
                 alternate_first=True)
    assert state["round_winners"] == ["A", "B"]
    assert state["rounds"][1]["throws"][0]["player"] == "B"
    with pytest.raises(ScriptError, match="it is B's throw, not A's"):
        play(rounds(((6, 3, 1), (4, 4, 1))) + [t("A", 1, 2, 3)], alternate_first=True)


def test_without_early_end_all_six_rounds_are_played():
    state = play(EXAMPLE_2, early_end=False)
    assert not state["finished"] and state["round"] == 6
    state = play(EXAMPLE_2 + rounds(((1, 2, 4), (6, 6, 6))), early_end=False)
    assert state["winner"] == "B" and state["round_winners"] == ["B"] * 6


def test_options_are_validated():
    with pytest.raises(ScriptError, match="one_six_order"):
        play([], one_six_order="pairs_last")
    with pytest.raises(ScriptError, match="needs exactly 2 players"):
        play_script({"game": "red_mans_throw", "players": ["A", "B", "C"]})


def test_one_six_order_option_changes_a_round():
    events = rounds(((6, 2, 2), (6, 5, 3)))
    assert play(events)["round_winners"] == ["A"]
    assert play(events, one_six_order="straight_total")["round_winners"] == ["B"]


def test_nothing_order_option_is_accepted():
    state = play(rounds(((5, 4, 1), (4, 3, 1))), nothing_order="high_card")
    assert state["round_winners"] == ["A"]
    assert state["rounds"][0]["reason"] == "nothing: 5+4+1 beats 4+3+1 from the top"


# --- what is refused, and refusing changes nothing -----------------------------------------


@pytest.mark.parametrize(("events", "event", "message"), [
    ([], Event.throw("B", 1, 2, 3), "it is A's throw, not B's"),
    ([], Event.throw("A", 1, 2), "expected 3d6 from A, got 2 dice"),
    ([], Event.throw("A", 1, 2, 3, 4), "expected 3d6 from A, got 4 dice"),
    ([], Event.throw("A", 1, 2, 7), "die 3 shows 7, a d6 shows 1-6"),
    ([], Event.throw("A", 0, 2, 3), "die 1 shows 0"),
    ([], Event(EventType.THROW, "A", (Die(1, "d8"), Die(2), Die(3))), "die 1 is a d8"),
    ([], Event.throw("C", 1, 2, 3), "'C' is not playing"),
    ([], Event(EventType.JOIN, "A", amount=Fraction(1)), "no join event"),
    ([], Event(EventType.TIP_HAT, "A"), "the game is not over"),
    (EXAMPLE_1[:12], Event.throw("A", 1, 2, 3), "expected d6 from A \\(throw-off\\), got 3 dice"),
    (EXAMPLE_1[:12], Event.throw("B", 3), "it is A's throw \\(throw-off\\), not B's"),
    (EXAMPLE_1[:14], Event.throw("A", 4, 4), "expected d6 from A \\(salvation\\), got 2 dice"),
    (EXAMPLE_1[:14] + [t("A", 5)], Event.throw("A", 3), "it is B's throw \\(salvation\\)"),
    (EXAMPLE_2, Event.throw("A", 1, 2, 3), "the game is over"),
    (EXAMPLE_2, Event(EventType.TIP_HAT, "B"), "no red man"),
    (EXAMPLE_4, Event(EventType.TIP_HAT, "A"), "only B tips the hat"),
    (EXAMPLE_4, Event.throw("B", 1, 2, 3), "the game is over"),
    (EXAMPLE_4, Event(EventType.STAKE, "B", amount=Fraction(1)), "the game is over"),
    (EXAMPLE_4 + [{"type": "tip_hat", "player": "B"}], Event(EventType.TIP_HAT, "B"),
     "already tipped"),
])
def test_refused_events_leave_the_state_unchanged(events, event, message):
    state = play_script({"game": "red_mans_throw", "players": ["A", "B"], "events": events})
    before = GAME.to_json(state)
    with pytest.raises(IllegalEvent, match=message):
        GAME.apply(state, event)
    with pytest.raises(IllegalEvent):
        GAME.check(state, event)
    assert GAME.to_json(state) == before


def test_the_table_can_end_the_game_and_stakes_are_settled():
    state = play(rounds(((6, 3, 1), (4, 4, 1))) + [{"type": "end"}], stake=4)
    assert state["finished"] and state["winner"] == "A" and state["flags"] == ["ended"]
    assert state["balances"] == {"A": 4, "B": -4}


def test_the_state_shows_the_round_in_progress():
    state = play([{"type": "stake", "player": "A", "amount": 2}, t("A", 6, 5, 5)])
    assert state["current_throws"] == [
        {"player": "A", "dice": [6, 5, 5], "rank": "a six and a pair of 5s",
         "rank_i18n": {"text": "a six and a pair of {pair}s", "values": {"pair": 5}}}]
    assert state["next"] == {"player": "B", "players": ["B"], "action": "throw",
                             "dice": "3d6", "choices": ["stake"]}
    assert state["stakes"] == {"A": 2, "B": 0} and state["phase"] == "round"
    assert state["red_man"] is None and state["red_man_says"] is None


def test_stakes_in_the_salvation_and_the_dice_shown_meanwhile():
    events = EXAMPLE_1[:14] + [{"type": "stake", "player": "A", "amount": 9}, t("B", 6)]
    state = play(events, stake=1)
    assert state["phase"] == "salvation" and state["one_die"] == [{"player": "B", "die": 6}]
    assert state["next"]["players"] == ["A"] and state["next"]["choices"] == ["stake"]
    state = play(events + [t("A", 4)], stake=1)
    assert state["settled"][-1] == {"round": 7, "from": "A", "to": "B", "amount": 9,
                                    "why": "A's stake"}
    assert state["balances"] == {"A": -9, "B": 9}


def test_red_man_by_the_first_thrower_when_b_opens_the_round():
    events = [t("A", 6, 3, 1), t("B", 4, 4, 1), t("B", 6, 6, 6)]
    state = play(events, alternate_first=True, stake=2)
    assert state["round_winners"] == ["B", "B"] and state["winner"] == "B"
    assert state["rounds"][1]["throws"] == [{"player": "B", "dice": [6, 6, 6]}]
    assert state["balances"] == {"A": -4, "B": 4}


def test_a_red_man_voids_the_predictions():
    events = [{"type": "stake", "player": "A", "amount": 3}, predict("A", "pair"),
              *rounds(((2, 2, 5), (6, 6, 6)))]
    state = play(events, predictions=True)
    assert state["balances"] == {"A": -3, "B": 3}  # A's stake only: no refund, no doubling
    assert state["rounds"][0]["flags"] == ["red_man", "predicted:A:right"]
