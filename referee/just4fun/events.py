"""Just 4 Fun's events: the cards drawn (chance, fed in), a stone placed with the cards played, a hand thrown.

Like every event they are inputs to :func:`referee.just4fun.state.apply`; the referee never draws cards
itself. A hand is known to its player, who enters it (or a camera reads it); the cards played are shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.errors import NotationError
from referee.types import Colour

__all__ = ["CardsDrawn", "Event", "HandDiscarded", "StonePlaced", "event_from_json", "event_to_json"]


@dataclass(frozen=True, slots=True)
class CardsDrawn:
    """``player`` draws ``cards`` from the pile (the pile shuffled again from the discards when it runs out)."""

    player: Colour
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class StonePlaced:
    """``player`` plays ``cards`` (1 to 4 of his hand) and puts one stone on the field their sum names."""

    player: Colour
    cards: tuple[int, ...]
    field: int


@dataclass(frozen=True, slots=True)
class HandDiscarded:
    """``player`` can place nowhere with any cards of his hand: he throws all of them (then draws anew)."""

    player: Colour


Event = CardsDrawn | StonePlaced | HandDiscarded


def event_to_json(event: Event) -> dict[str, Any]:
    """The event as JSON (``{"event": "drawn" | "placed" | "discarded", ...}``)."""
    if isinstance(event, CardsDrawn):
        return {"event": "drawn", "player": event.player.value, "cards": list(event.cards)}
    if isinstance(event, StonePlaced):
        return {"event": "placed", "player": event.player.value, "cards": list(event.cards), "field": event.field}
    return {"event": "discarded", "player": event.player.value}


def event_from_json(obj: Mapping[str, Any]) -> Event:
    """The event a JSON object names (see :func:`event_to_json`).

    Raises:
        NotationError: for anything else, with what is wrong.
    """
    if not isinstance(obj, Mapping):
        raise NotationError(f"an event is a JSON object, not {obj!r}")
    try:
        kind, player = obj["event"], Colour.from_str(obj["player"])
        if kind == "drawn":
            return CardsDrawn(player, _cards(obj["cards"]))
        if kind == "placed":
            return StonePlaced(player, _cards(obj["cards"]), _whole(obj["field"]))
        if kind == "discarded":
            return HandDiscarded(player)
    except KeyError as missing:
        raise NotationError(f"a {obj.get('event')!r} event needs {missing}") from None
    raise NotationError(f"unknown Just 4 Fun event {kind!r} (drawn, placed or discarded)")


def _whole(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise NotationError(f"expected a whole number, got {value!r}")
    return value


def _cards(value: object) -> tuple[int, ...]:
    if not isinstance(value, list | tuple):
        raise NotationError(f"cards are a list of numbers, got {value!r}")
    return tuple(sorted(_whole(v) for v in value))
