"""Each of the five games: a recorded session replayed through ReplayCamera and mock
button presses (gpiozero MockFactory) to the final state, checked against the same
game played as a script (rules.play_script).

The sessions are drawn by station.scenes from examples/<game>.json. The vision
reader reads d6 only so far, so these replays use LabelReader, a stand-in that
answers each recorded image's own labels; Red Man's Throw is also replayed through
the real vision reader (test_red_mans_throw_with_the_vision_reader).
"""

from __future__ import annotations

import pytest

from rules import play_script, state_json
from station.trigger import GpioButton
from tests.station.compare import normalised, strip
from tests.station.conftest import load_example

GAMES = ("gemelos", "red_mans_throw", "barras", "dados_centrales", "rey_y_mendigo")
BUTTON_PIN = 17


def play_with_button(station, steps, factory):
    """Press the mock button once per photo; decisions go in as the GM would post them."""
    pin = factory.pin(BUTTON_PIN)
    outcomes = []
    with GpioButton(BUTTON_PIN, station.request_read, bounce_s=None, pin_factory=factory) as button:
        for step in steps:
            if isinstance(step, dict):
                station.post_event(step)
                continue
            pin.drive_low()
            pin.drive_high()
            station.wait_idle()
            outcomes.append(station.last_read())
        assert button.presses == len(outcomes)
    return outcomes


@pytest.mark.parametrize("game_id", GAMES)
def test_recorded_session_reaches_the_scripted_final_state(game_id, recorded, station_on,
                                                           mock_factory):
    script = load_example(game_id)
    steps, folder = recorded(script)
    station = station_on(folder)
    station.start_game(script["game"], script["players"], script.get("options"))
    outcomes = play_with_button(station, steps, mock_factory)
    assert all(o["status"] == "stored" for o in outcomes), [o.get("message") for o in outcomes]
    got = station.state_json()
    want = state_json(play_script(script))
    assert got["finished"] and got["reads"] == len(outcomes)
    assert normalised(got) == normalised(want)
    assert strip(got) == want  # dice lie left to right in the script's order
    # the exported game is a script `dicestation score` accepts, with the same result
    exported = station.export_script(got["game_id"])
    assert state_json(play_script(exported)) == strip(got)


def test_red_mans_throw_with_the_vision_reader(recorded, station_on, mock_factory):
    from vision import read_dice

    script = load_example("red_mans_throw")
    steps, folder = recorded(script)
    station = station_on(folder, reader=lambda frame: read_dice(frame))
    station.start_game(script["game"], script["players"], script.get("options"))
    outcomes = play_with_button(station, steps, mock_factory)
    assert [o["status"] for o in outcomes] == ["stored"] * len(outcomes), outcomes[-1]
    assert normalised(station.state_json()) == normalised(state_json(play_script(script)))
