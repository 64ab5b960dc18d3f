"""The engine's core: ledger, options, events, scripts and `dicestation score`."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from rules import (
    BadEvent,
    BadOption,
    Event,
    IllegalEvent,
    Ledger,
    ScriptError,
    get_game,
    play_script,
)
from rules.base import Next
from station.cli import main


def test_ledger_transfers_keep_the_sum_at_zero_and_never_mutate():
    ledger = Ledger.open(("A", "B"), ("central",))
    after = ledger.transfer("A", "pot:central", 15).transfer("B", "A", Fraction(5, 2))
    assert after.balance("A") == Fraction(-25, 2)
    assert after.pot("central") == 15
    assert after.total() == 0
    assert ledger.balance("A") == 0
    with pytest.raises(ValueError):
        ledger.transfer("A", "B", -1)
    with pytest.raises(KeyError):
        ledger.transfer("A", "Z", 1)


def test_options_are_checked_by_name():
    game = get_game("gemelos")
    with pytest.raises(BadOption, match="unknown option 'wins' for gemelos"):
        game.new(["A", "B"], {"wins": 3})
    with pytest.raises(BadOption, match="'wins_needed' of gemelos must be a whole number"):
        game.new(["A", "B"], {"wins_needed": "three"})
    with pytest.raises(BadOption, match="must be at least 1"):
        game.new(["A", "B"], {"wins_needed": 0})
    # JSON's NaN and Infinity (Python's json reads them) are no whole number either
    for bad in (float("nan"), float("inf"), float("-inf")):
        with pytest.raises(BadOption, match="'chips' of barras must be a whole number"):
            get_game("barras").new(["A", "B"], {"chips": bad})
        with pytest.raises(BadOption, match="'house_pays' of barras must be a number"):
            get_game("barras").new(["A", "B"], {"house_pays": bad})
    with pytest.raises(BadOption, match="true or false"):
        game.new(["A", "B"], {"alternate_first": 1})


@pytest.mark.parametrize(
    ("players", "message"),
    [(["A"], "needs at least 2 players"), (["A", "A"], "same name"), (["A", "house"], "the house"),
     (["A", ""], "non-empty"), ("AB", "list of names")],
)
def test_bad_players_are_refused(players, message):
    with pytest.raises(IllegalEvent, match=message):
        get_game("gemelos").new(players)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"type": "dance"}, "unknown event type 'dance'"),
        ({"type": "throw", "dice": [1, 2]}, "needs a 'player'"),
        ({"type": "throw", "player": "A"}, "needs 'dice'"),
        ({"type": "throw", "player": "A", "dice": [1, "x"]}, "whole number or a taba face"),
        ({"type": "throw", "player": "A", "dice": [True]}, "a number or a taba face"),
        ({"type": "throw", "player": "A", "dice": [{"kind": "d7", "value": 1}]}, "unknown die kind"),
        ({"type": "stake", "player": "A"}, "needs an 'amount'"),
        ({"type": "stake", "player": "A", "amount": -2}, "not negative"),
        ({"type": "stake", "player": "A", "amount": float("inf")}, "finite number"),
        ({"type": "stake", "player": "A", "amount": float("nan")}, "finite number"),
        ({"type": "predict", "player": "A", "prediction": 3}, "'prediction' must be"),
        ({"type": "throw", "player": "A", "dice": [1], "colour": "red"}, "unknown field 'colour'"),
        ([1, 2], "JSON object"),
    ],
)
def test_malformed_events_name_what_is_wrong(raw, message):
    with pytest.raises(BadEvent, match=message):
        Event.from_json(raw)


def test_events_print_and_parse_themselves():
    for raw in [
        {"type": "throw", "player": "A", "dice": [6, 3, 1]},
        {"type": "throw", "player": "house", "role": "central", "dice": [{"value": 4, "kind": "d6", "colour": "red"}]},
        {"type": "predict", "player": "A", "prediction": {"pair": 2}},
        {"type": "predict", "player": "A", "prediction": [2, 3, 4]},
        {"type": "join", "player": "B", "amount": 5},
        {"type": "end"},
    ]:
        assert Event.from_json(raw).to_json() == raw


def test_next_prints_what_the_table_waits_for():
    assert Next("throw", ("B",), ("d6",) * 3).to_json() == {
        "player": "B", "players": ["B"], "action": "throw", "dice": "3d6"}
    assert Next("throw", ("A",), ("d10t", "d10")).dice_text() == "d10t+d10"
    assert Next("throw", ("A",), ("taba",) * 5, min_dice=1).dice_text() == "1-5 taba"


def test_script_errors_name_the_event_index():
    script = {"game": "gemelos", "players": ["A", "B"], "events": [
        {"type": "throw", "player": "A", "dice": [3, 4]},
        {"type": "throw", "player": "A", "dice": [3, 4]}]}
    with pytest.raises(ScriptError, match="event 1: it is B's throw, not A's"):
        play_script(script)
    script["events"][1] = {"type": "throw", "player": "B", "dice": [3]}
    with pytest.raises(ScriptError, match=r"event 1: expected 2d8 from B, got 1 dice"):
        play_script(script)
    script["events"][1] = {"type": "throw", "player": "B", "dice": [3, 9]}
    with pytest.raises(ScriptError, match="event 1: expected 2d8 from B: die 2 shows 9"):
        play_script(script)
    with pytest.raises(ScriptError, match="unknown game 'poker'"):
        play_script({"game": "poker", "players": ["A", "B"]})


def _score(tmp_path, text, capsys):
    path = tmp_path / "script.json"
    path.write_text(text)
    status = main(["score", str(path)])
    return status, capsys.readouterr()


def test_score_prints_the_state_as_one_json_object(tmp_path, capsys):
    script = {"game": "gemelos", "players": ["A", "B"], "options": {"wins_needed": 1},
              "events": [{"type": "throw", "player": "A", "dice": [6, 4]},
                         {"type": "throw", "player": "B", "dice": [8, 1]}]}
    status, out = _score(tmp_path, json.dumps(script), capsys)
    assert status == 0
    state = json.loads(out.out)
    assert state["finished"] and state["winner"] == "A" and state["next"] is None
    assert state["round_winners"] == ["A"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "is not valid JSON: line 1 column 2"),
        ('{"game": "chess", "players": ["A", "B"]}', "unknown game 'chess'"),
        ('{"game": "gemelos", "players": ["A", "B"], "options": {"x": 1}}', "unknown option 'x'"),
        ('{"game": "gemelos", "players": ["A", "B"], "events": [{"type": "throw", "player": "Z", "dice": [1, 2]}]}',
         "event 0: 'Z' is not playing"),
        ('{"game": "gemelos", "players": ["A", "B"], "options": {"wins_needed": 1}, "events": ['
         '{"type": "throw", "player": "A", "dice": [6, 4]}, {"type": "throw", "player": "B", "dice": [8, 1]},'
         '{"type": "throw", "player": "A", "dice": [6, 4]}]}', "event 2: the game is over"),
    ],
)
def test_score_refuses_bad_input_with_one_line_and_status_2(tmp_path, capsys, text, message):
    status, out = _score(tmp_path, text, capsys)
    assert status == 2
    assert out.out == ""
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in out.err


def test_score_command_runs_as_a_console_script(tmp_path):
    path = tmp_path / "s.json"
    path.write_text('{"game": "gemelos", "players": ["A", "B"], "events": []}')
    done = subprocess.run([sys.executable, "-m", "station.cli", "score", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["next"] == {
        "player": "A", "players": ["A"], "action": "throw", "dice": "2d8", "choices": ["stake"]}
