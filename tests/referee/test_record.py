"""Game records: JSON lines that replay to the same state, with clear errors for bad lines."""

import json

import pytest

from referee import IllegalEventError, NotationError, find_ruleset
from referee.lasvegas.jsonio import event_from_json, event_to_json
from referee.lasvegas.simulate import default_players, random_game
from referee.record import read_record, record_lines


@pytest.mark.parametrize("name", ["las-vegas", "las-vegas+neutral+biggy", "las-vegas+100k+six-players"])
@pytest.mark.parametrize("players", [3, 5])
def test_record_replays_to_the_same_state(name, players):
    final = random_game(find_ruleset(name), default_players(players), seed=players)
    lines = list(record_lines(final))
    replayed = read_record(lines)
    assert replayed == final
    assert replayed.history == final.history
    assert replayed.to_notation() == final.to_notation()
    for event in final.history:
        assert event_from_json(json.loads(json.dumps(event_to_json(event)))) == event


def _lines():
    return list(record_lines(random_game(find_ruleset("las-vegas"), default_players(2), seed=7)))


@pytest.mark.parametrize(
    ("mutate", "error", "message"),
    [
        (lambda lines: [], NotationError, "empty game record"),
        (lambda lines: ["{not json", *lines[1:]], NotationError, "line 1: not JSON"),
        (lambda lines: lines[1:], NotationError, "line 1: the first line must be the header"),
        (lambda lines: [lines[0].replace('"version": 1', '"version": 9'), *lines[1:]], NotationError, "version 9"),
        (lambda lines: [lines[0].replace("las-vegas", "pachisi"), *lines[1:]], NotationError, "unknown game"),
        (lambda lines: [*lines[:3], '{"event": "jumped"}'], NotationError, "line 4: unknown event 'jumped'"),
        (
            lambda lines: [*lines[:3], '{"event": "rolled", "player": "red", "dice": "66"}'],
            NotationError,
            "'dice' must be a list",
        ),
        (
            lambda lines: [*lines[:3], '{"event": "placed", "player": "mauve", "casino": 1, "dice": 1}'],
            NotationError,
            "unknown colour",
        ),
        (lambda lines: [lines[0], lines[2]], IllegalEventError, "event 1: no roll now: banknotes must be dealt"),
    ],
)
def test_bad_records_are_clear_errors(mutate, error, message):
    with pytest.raises(error, match=message):
        read_record(mutate(_lines()))


def test_blank_lines_are_ignored():
    lines = _lines()
    assert read_record([lines[0], "", *lines[1:], "  "]) == read_record(lines)
