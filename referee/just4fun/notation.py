"""Just 4 Fun's table notation: a whole state on one line that reads back the same.

Space-separated parts: the game, the players' letters in seat order, the phase, the seat to act, the cards
it draws, the hands (``/`` between seats, ``-`` for none), the pile and the discards (sorted cards), the
stones per field 1-36 (``/`` between fields, ``-`` for none, else each seat's count joined by ``.``), the
secured fields (``field:seat`` joined by ``,``), the stones each seat has left, the stones gone, the
winner's seat (``-`` for none), and with a board of one's own its layout (``L`` then the numbers)::

    just-4-fun rb play 0 0 1,2,5,9/3,3,7,12 <pile> - -/-/.../- - 20,20 0 -

Example:
    >>> from referee.just4fun.state import new_game
    >>> state = new_game(None, ["red", "blue"])
    >>> from_notation(to_notation(state)) == state
    True
"""

from __future__ import annotations

from referee.errors import NotationError
from referee.just4fun.rules import DEFAULT_LAYOUT, GAME_NAME, Rules, ruleset
from referee.just4fun.state import FIELDS, Phase, State, unaccounted
from referee.types import Colour

__all__ = ["from_notation", "to_notation"]


def to_notation(state: State) -> str:
    """The state as one line (its history is not part of it: a record keeps that)."""
    parts = [
        GAME_NAME,
        "".join(p.letter for p in state.players),
        state.phase.value,
        str(state.turn),
        str(state.to_draw),
        "/".join(_cards(h) for h in state.hands),
        _cards(state.pile),
        _cards(state.discards),
        "/".join(".".join(map(str, s)) if any(s) else "-" for s in state.stacks),
        ",".join(f"{n}:{s}" for n, s in enumerate(state.secured, start=1) if s >= 0) or "-",
        ",".join(map(str, state.stones)),
        str(state.gone),
        str(state.winner) if state.winner >= 0 else "-",
    ]
    if state.rules.layout != DEFAULT_LAYOUT:
        parts.append("L" + ",".join(map(str, state.rules.layout)))
    return " ".join(parts)


def from_notation(text: str) -> State:
    """Reads :func:`to_notation`'s line back.

    Raises:
        NotationError: for malformed text or a state no game reaches (cards not the deck, stones not counted).
    """
    if not isinstance(text, str):
        raise NotationError(f"notation is text, got {text!r}")
    parts = text.split()
    if len(parts) not in (13, 14) or parts[0] != GAME_NAME:
        raise NotationError(f"Just 4 Fun notation has 13 parts (14 with a layout) starting {GAME_NAME!r}: {text!r}")
    try:
        rules = ruleset(layout=_numbers(parts[13][1:], ",")) if len(parts) == 14 else ruleset()
    except (ValueError, IndexError) as error:
        raise NotationError(f"bad layout: {error}") from None
    players = tuple(Colour.from_letter(letter) for letter in parts[1])
    n, (fewest, most) = len(players), rules.players
    if not fewest <= n <= most or len(set(players)) != n:
        raise NotationError(f"{fewest} to {most} players of different colours, got {parts[1]!r}")
    try:
        phase = Phase(parts[2])
    except ValueError:
        raise NotationError(f"unknown phase {parts[2]!r}") from None
    turn, to_draw, gone = _whole(parts[3]), _whole(parts[4]), _whole(parts[11])
    hands = tuple(_card_list(h) for h in parts[5].split("/"))
    stacks = tuple(tuple(_whole(c) for c in f.split(".")) if f != "-" else (0,) * n for f in parts[8].split("/"))
    stones = tuple(_whole(s) for s in parts[10].split(","))
    if len(hands) != n or len(stones) != n or turn >= n:
        raise NotationError("hands, stones and the seat to act must fit the players")
    if len(stacks) != FIELDS or any(len(s) != n for s in stacks):
        raise NotationError(f"the stones of {FIELDS} fields, each with a count per player")
    secured = [-1] * FIELDS
    for pair in [] if parts[9] == "-" else parts[9].split(","):
        number, _, seat = pair.partition(":")
        if not 1 <= _whole(number) <= FIELDS or _whole(seat) >= n:
            raise NotationError(f"bad secured field {pair!r}")
        secured[int(number) - 1] = int(seat)
    winner = -1 if parts[12] == "-" else _whole(parts[12])
    state = State(rules, players, phase, turn, hands, _card_list(parts[6]), _card_list(parts[7]), stacks,
                  tuple(secured), stones, to_draw, winner, gone)  # fmt: skip
    _check(state, rules)
    return state


def _check(state: State, rules: Rules) -> None:
    problems = unaccounted(state)
    if problems:
        raise NotationError(f"no game reaches this state: {'; '.join(problems)}")
    if any(s > rules.stones for s in state.stones):
        raise NotationError(f"a player has at most {rules.stones} stones: {list(state.stones)}")
    if any(len(h) > rules.hand for h in state.hands) or state.winner >= len(state.players):
        raise NotationError("a hand holds at most 4 cards; the winner is a seat")


def _cards(cards: tuple[int, ...]) -> str:
    return ",".join(map(str, cards)) or "-"


def _card_list(text: str) -> tuple[int, ...]:
    return () if text == "-" else tuple(sorted(_numbers(text, ",")))


def _numbers(text: str, sep: str) -> list[int]:
    return [_whole(t) for t in text.split(sep)]


def _whole(text: str) -> int:
    if not text.isdigit():
        raise NotationError(f"expected a whole number, got {text!r}")
    return int(text)
