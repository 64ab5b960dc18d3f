"""Properties every game keeps, on random legal event streams (issue 2)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import Event, EventType, IllegalEvent, RulesError, game_ids, get_game
from rules.events import Die
from tests.rules.strategies import random_game

SETUPS = {
    "gemelos": [((("A", "B")), {}), (("A", "B", "C"), {"stake": 2, "alternate_first": True})],
    "red_mans_throw": [(("A", "B"), {"stake": 5}), (("A", "B"), {"predictions": True})],
    "barras": [(("A", "B"), {"chips": 20}), (("A", "B", "C"), {"chips": 15, "no_play_fee": 1})],
    "dados_centrales": [(("A",), {"rounds": 3}), (("A", "B", "C", "D"), {"rounds": 4})],
    "rey_y_mendigo": [(("A", "B"), {}), (("A", "B", "C"), {"dice": "d8", "chico_pairs": True})],
}
LIMIT = 5000

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _cases():
    for gid in game_ids():
        for i, (players, options) in enumerate(SETUPS[gid]):
            yield pytest.param(gid, players, options, id=f"{gid}-{i}")


CASES = list(_cases())


@pytest.mark.parametrize(("game_id", "players", "options"), CASES)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_terminate_and_keep_the_ledger_at_zero(game_id, players, options, seed):
    game = get_game(game_id)
    events, states = random_game(game, players, options, seed, LIMIT)
    assert states[-1].finished, f"{game_id} did not finish in {LIMIT} events"
    assert game.next(states[-1]) is None
    for state in states:
        assert state.ledger.total() == 0
    printed = game.to_json(states[-1])
    assert printed["finished"] is True and printed["next"] is None
    assert sum(printed["balances"].values()) + sum(printed["pots"].values()) == pytest.approx(0)


@pytest.mark.parametrize(("game_id", "players", "options"), CASES)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_replaying_the_events_gives_the_identical_state(game_id, players, options, seed):
    game = get_game(game_id)
    events, states = random_game(game, players, options, seed, LIMIT)
    state = game.new(players, options)
    for event in events:
        state = game.apply(state, Event.from_json(event.to_json()))
    assert state == states[-1]
    assert game.to_json(state) == game.to_json(states[-1])


def _mutations(event: Event, players: tuple[str, ...], rng: random.Random) -> list[Event]:
    """Events that are likely illegal: wrong player, wrong count, bad values, odd types."""
    out = [
        Event(EventType.THROW, "nobody", event.dice),
        Event(EventType.THROW, rng.choice(players), event.dice + (Die(3),) * 6),
        Event(EventType.THROW, rng.choice(players), ()),
        Event(EventType.THROW, rng.choice(players), tuple(Die(99) for _ in event.dice)),
        Event(EventType.TIP_HAT, rng.choice(players)),
        Event(EventType.WITHDRAW, rng.choice(players)),
    ]
    if event.dice:
        out.append(Event(EventType.THROW, event.player, event.dice[:-1]))
    return out


@pytest.mark.parametrize(("game_id", "players", "options"), CASES)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_an_illegal_event_never_changes_the_state(game_id, players, options, seed):
    game = get_game(game_id)
    events, states = random_game(game, players, options, seed, LIMIT)
    rng = random.Random(seed)
    checked = 0
    for event, state in zip(events, states, strict=False):
        snapshot = game.to_json(state)
        for bad in _mutations(event, players, rng):
            try:
                game.apply(state, bad)
            except RulesError as exc:
                assert isinstance(exc, ValueError)
                assert str(exc)
                with pytest.raises(RulesError):
                    game.check(state, bad)
                checked += 1
            assert game.to_json(state) == snapshot
    final = states[-1]
    with pytest.raises(IllegalEvent):
        game.apply(final, Event(EventType.THROW, players[0], (Die(1),)))
    assert checked > 0
