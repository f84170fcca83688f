"""The game record: a game as JSON lines, from which it replays to the same state, for any game.

The first line is a header naming the rule set (whose first part names the game) and what the game
needs to start (for Las Vegas the players and the neutral colour); every further line is one event
in the game's JSON (for Las Vegas, :func:`referee.lasvegas.jsonio.event_to_json`)::

    {"record": "dice-referee", "version": 1, "ruleset": "las-vegas", "players": ["red", "blue"], "neutral": null}
    {"event": "dealt", "casinos": [[60000], [50000], [90000], [70000], [80000], [10000, 40000]]}
    {"event": "rolled", "player": "red", "dice": [1, 2, 3, 3, 5, 6, 6, 6]}
    {"event": "placed", "player": "red", "casino": 6, "dice": 3}
    {"event": "scored"}

A record that does not replay fails at its exact line: malformed JSON or a field the game cannot read
raises ``NotationError`` with the line number, an event the rules forbid raises ``IllegalEventError``
with the line number.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from referee.errors import IllegalEventError, NotationError, RefereeError
from referee.game import Game, find_game, game_of

__all__ = ["FORMAT_VERSION", "read_record", "record_lines"]

FORMAT_VERSION = 1


def record_lines(state: Any) -> Iterator[str]:
    """The game record of a state: a header line, then one line per event in its history."""
    game = game_of(state)
    header = {"record": "dice-referee", "version": FORMAT_VERSION, "ruleset": state.ruleset.name, **game.header(state)}
    yield json.dumps(header)
    for event in state.history:
        yield json.dumps(game.event_to_json(event))


def read_record(lines: Iterable[str]) -> Any:
    """Replays a game record to its state (with the full history).

    Raises:
        NotationError: for a malformed header or line (the message gives the line number).
        IllegalEventError: for an event the rules forbid (the message gives the line and event number).
    """
    game: Game | None = None
    state: Any = None
    count = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as error:
            raise NotationError(f"line {number}: not JSON ({error.msg})") from None
        if game is None:
            try:
                game, state = _header(obj)
            except RefereeError as error:
                raise NotationError(f"line {number}: {error}") from None
            continue
        try:
            event = game.event_from_json(obj)
        except RefereeError as error:
            raise NotationError(f"line {number}: {error}") from None
        count += 1
        try:
            state = game.apply(state, event)
        except IllegalEventError as error:
            raise type(error)(f"line {number}: event {count}: {error}") from error
    if game is None:
        raise NotationError("empty game record: the first line must be the header")
    return state


def _header(obj: Any) -> tuple[Game, Any]:
    if not isinstance(obj, dict) or obj.get("record") != "dice-referee":
        raise NotationError('the first line must be the header {"record": "dice-referee", ...}')
    if obj.get("version") != FORMAT_VERSION:
        raise NotationError(f"record version {obj.get('version')!r} is not supported (this is {FORMAT_VERSION})")
    name = str(obj.get("ruleset"))
    game = find_game(name)
    return game, game.from_header(game.find_ruleset(name), obj)
