"""The game record: a game as JSON lines, from which it replays to the same state.

The first line is a header naming the rule set, the players and the neutral colour; every further
line is one event::

    {"record": "dice-referee", "version": 1, "ruleset": "las-vegas", "players": ["red", "blue"], "neutral": null}
    {"event": "dealt", "casinos": [[60000], [50000], [90000], [70000], [80000], [10000, 40000]]}
    {"event": "rolled", "player": "red", "dice": [1, 2, 3, 3, 5, 6, 6, 6]}
    {"event": "placed", "player": "red", "casino": 6, "dice": 3}
    {"event": "scored"}

Optional fields (``biggies``, ``neutral``) are written only when non-empty.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from referee.errors import NotationError, RefereeError
from referee.events import BanknotesDealt, DicePlaced, DiceRolled, Event, NeutralDiceRolled, RoundScored
from referee.rules import find_ruleset
from referee.state import GameState, new_game, replay
from referee.types import Colour

__all__ = ["FORMAT_VERSION", "event_from_json", "event_to_json", "read_record", "record_lines"]

FORMAT_VERSION = 1


def event_to_json(event: Event) -> dict[str, Any]:
    """One event as a JSON-ready dict."""
    if isinstance(event, BanknotesDealt):
        return {"event": "dealt", "casinos": [list(notes) for notes in event.casinos]}
    if isinstance(event, NeutralDiceRolled):
        return {"event": "neutral-rolled", "values": list(event.values)}
    if isinstance(event, DiceRolled):
        out: dict[str, Any] = {"event": "rolled", "player": event.player.value, "dice": list(event.dice)}
        if event.biggies:
            out["biggies"] = list(event.biggies)
        if event.neutral:
            out["neutral"] = list(event.neutral)
        return out
    if isinstance(event, DicePlaced):
        out = {"event": "placed", "player": event.player.value, "casino": int(event.casino), "dice": event.dice}
        if event.biggies:
            out["biggies"] = event.biggies
        if event.neutral:
            out["neutral"] = event.neutral
        return out
    if isinstance(event, RoundScored):
        return {"event": "scored"}
    raise NotationError(f"not an event: {event!r}")


def _ints(obj: dict[str, Any], key: str, default: Any = None) -> tuple[int, ...]:
    value = obj.get(key, default)
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise NotationError(f"{key!r} must be a list of whole numbers, got {value!r}")
    return tuple(value)


def _int(obj: dict[str, Any], key: str, default: Any = None) -> int:
    value = obj.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise NotationError(f"{key!r} must be a whole number, got {value!r}")
    return value


def event_from_json(obj: Any) -> Event:
    """Parses one event dict (as written by :func:`event_to_json`).

    Raises:
        NotationError: for an unknown event type or a missing or mistyped field.
    """
    if not isinstance(obj, dict):
        raise NotationError(f"an event is a JSON object, got {obj!r}")
    kind = obj.get("event")
    if kind == "dealt":
        casinos = obj.get("casinos")
        if not isinstance(casinos, list):
            raise NotationError(f"'casinos' must be a list of note lists, got {casinos!r}")
        return BanknotesDealt(tuple(_ints({"notes": c}, "notes") for c in casinos))
    if kind == "neutral-rolled":
        return NeutralDiceRolled(_ints(obj, "values"))
    if kind == "rolled":
        return DiceRolled(Colour.from_str(obj.get("player")), _ints(obj, "dice"), _ints(obj, "biggies", []),
                          _ints(obj, "neutral", []))  # fmt: skip
    if kind == "placed":
        return DicePlaced(Colour.from_str(obj.get("player")), _int(obj, "casino"), _int(obj, "dice"),
                          _int(obj, "biggies", 0), _int(obj, "neutral", 0))  # fmt: skip
    if kind == "scored":
        return RoundScored()
    raise NotationError(f"unknown event {kind!r}; events: dealt, neutral-rolled, rolled, placed, scored")


def record_lines(state: GameState) -> Iterator[str]:
    """The game record of a state: a header line, then one line per event in its history."""
    header = {
        "record": "dice-referee",
        "version": FORMAT_VERSION,
        "ruleset": state.ruleset.name,
        "players": [p.value for p in state.players],
        "neutral": state.neutral.value if state.neutral is not None else None,
    }
    yield json.dumps(header)
    for event in state.history:
        yield json.dumps(event_to_json(event))


def read_record(lines: Iterable[str]) -> GameState:
    """Replays a game record to its state (with the full history).

    Raises:
        NotationError: for a malformed header or line (the message gives the line number).
        IllegalEventError: for an event the rules forbid (the message gives the event number).
    """
    events: list[Event] = []
    state: GameState | None = None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as error:
            raise NotationError(f"line {number}: not JSON ({error.msg})") from None
        try:
            if state is None:
                state = _header(obj)
            else:
                events.append(event_from_json(obj))
        except RefereeError as error:
            raise NotationError(f"line {number}: {error}") from None
    if state is None:
        raise NotationError("empty game record: the first line must be the header")
    return replay(state, events)


def _header(obj: Any) -> GameState:
    if not isinstance(obj, dict) or obj.get("record") != "dice-referee":
        raise NotationError('the first line must be the header {"record": "dice-referee", ...}')
    if obj.get("version") != FORMAT_VERSION:
        raise NotationError(f"record version {obj.get('version')!r} is not supported (this is {FORMAT_VERSION})")
    players = obj.get("players")
    if not isinstance(players, list):
        raise NotationError(f"'players' must be a list of colours, got {players!r}")
    neutral = obj.get("neutral")
    return new_game(find_ruleset(str(obj.get("ruleset"))), players, neutral)
