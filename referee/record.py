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

import itertools
import json
import os
from collections.abc import Iterable, Iterator
from typing import Any

from referee import safejson
from referee.errors import IllegalEventError, NotationError, RefereeError
from referee.game import Game, find_game, game_of

__all__ = ["FORMAT_VERSION", "MAX_LINE_BYTES", "MAX_RECORD_BYTES", "read_record", "read_record_file", "record_lines"]

MAX_LINE_BYTES = 1 << 20
"""A record's longest line (an event is about 100 bytes; a header a few hundred)."""
MAX_RECORD_BYTES = 64 << 20
"""A record's largest size (a long game is some 50 kB)."""

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
            obj = safejson.loads(line)
        except NotationError as error:
            raise NotationError(f"line {number}: {error}") from None
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


def read_record_file(path: str | os.PathLike[str]) -> Any:
    """Replays the game record in file ``path``, reading at most :data:`MAX_RECORD_BYTES`.

    Lines are read with a bound (``/dev/zero`` is refused, not swallowed), decoded as UTF-8 one by one.

    Raises:
        OSError: the file cannot be opened or read.
        NotationError: too large, a line too long, not UTF-8, or malformed (the message gives the line).
        IllegalEventError: for an event the rules forbid.
    """
    return read_record(_bounded_lines(path))


def _bounded_lines(path: str | os.PathLike[str]) -> Iterator[str]:
    total = 0
    with open(path, "rb") as handle:
        for number in itertools.count(1):
            line = handle.readline(MAX_LINE_BYTES + 1)
            if not line:
                return
            total += len(line)
            if len(line) > MAX_LINE_BYTES:
                raise NotationError(f"line {number}: longer than {MAX_LINE_BYTES >> 20} MiB: not a game record")
            if total > MAX_RECORD_BYTES:
                raise NotationError(f"larger than {MAX_RECORD_BYTES >> 20} MiB: not a game record")
            try:
                yield safejson.decode_utf8(line)
            except NotationError as error:
                raise NotationError(f"line {number}: {error}") from None


def _header(obj: Any) -> tuple[Game, Any]:
    if not isinstance(obj, dict) or obj.get("record") != "dice-referee":
        raise NotationError('the first line must be the header {"record": "dice-referee", ...}')
    if obj.get("version") != FORMAT_VERSION:
        raise NotationError(f"record version {obj.get('version')!r} is not supported (this is {FORMAT_VERSION})")
    name = str(obj.get("ruleset"))
    game = find_game(name)
    return game, game.from_header(game.find_ruleset(name), obj)
