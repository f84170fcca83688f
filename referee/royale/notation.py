"""Royale's table notation: Las Vegas's eight fields, and three more in the main game.

The basic game is written exactly as :mod:`referee.lasvegas.notation` writes it (its eighth field
holds the start player and the chips). The main game adds, space-separated:

9. the **tiles** laid this round, ``casino`` + code + ``:`` + memory (``-`` for none, a number, or
   numbers joined by ``,``), ``/``-separated, or ``-``: ``1A2:40000/2C1:-/3E2:0,1,2`` (the Jackpot
   stands at $40,000, nobody holds High Five, the Knockout bar holds 0, 1 and 2 dice per seat);
10. the **bank**, ``value*count`` in thousands, comma-separated, or ``-``: ``30*9,40*7``;
11. the **steps pending**, ``|``-separated, each its owner (a tile's index in field 9, a tile's code
    once the round's tiles are gone, or ``setup``) and its data, ``.``-separated, or ``-``:
    ``0.guess.2`` (the tile laid first waits for the guess on seat 2's fist).

Example:
    >>> from referee.royale import GAME
    >>> from referee.royale.main import main_ruleset
    >>> text = to_notation(GAME.new_game(main_ruleset(), ["red", "blue", "green"]))
    >>> text.split()[8:]
    ['-', '-', 'setup.tiles|setup.bank']
    >>> from_notation(text) == GAME.new_game(main_ruleset(), ["red", "blue", "green"])
    True
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from referee.errors import IllegalEventError, NotationError, RefereeError
from referee.lasvegas import notation as base
from referee.lasvegas.hooks import LaidTile, Pending
from referee.lasvegas.state import GameState
from referee.royale.main import MainGame, setup_of
from referee.royale.tiles import TILES

__all__ = ["from_notation", "to_notation"]


def to_notation(state: GameState) -> str:
    """One line for a Royale state (see the module)."""
    text = base.to_notation(state)
    if setup_of(state) is None:
        return text
    tiles = "/".join(f"{t.casino}{t.tile.id}:{_memo_text(t.memo)}" for t in state.tiles) or "-"
    counts = sorted(Counter(state.bank).items(), reverse=True)
    bank = ",".join(f"{value // 1000}*{count}" for value, count in counts) or "-"
    steps = []
    step = state.pending
    while step is not None:
        steps.append(".".join(str(part) for part in step.data))
        step = step.then
    return f"{text} {tiles} {bank} {'|'.join(steps) or '-'}"


def from_notation(text: str) -> GameState:
    """Parses a Royale state (see the module).

    Raises:
        NotationError: malformed text or an impossible state.
    """
    if not isinstance(text, str):
        raise NotationError(f"table notation is a string, got {type(text).__name__}")
    fields = text.split()
    state = base.parse(" ".join(fields[:8]))
    setup = setup_of(state)
    if setup is None:
        if len(fields) != 8:
            raise NotationError(f"table notation of {state.ruleset.name} has 8 fields, got {len(fields)}: {text!r}")
        base.check(state)
        return state
    if len(fields) != 11:
        raise NotationError(f"table notation of {state.ruleset.name} has 11 fields (tiles, bank, steps pending), "
                            f"got {len(fields)}: {text!r}")  # fmt: skip
    state = state.evolve(tiles=_tiles(fields[8], setup, len(state.players)), bank=_bank(fields[9]))
    held = list(state.held_dice)  # dice a tile keeps aside (a bar, a side bet) are not in hand either
    for index, laid in enumerate(state.tiles):
        for seat, count in enumerate(laid.tile.aside(state, index)):
            held[seat] -= count
    state = state.evolve(held_dice=tuple(held))
    base.check(state)
    try:
        state = state.evolve(pending=_steps(fields[10], state, setup))
    except (RefereeError, LookupError, ValueError, TypeError) as error:
        raise NotationError(f"steps pending {fields[10]!r}: {error}") from None
    if any(count < 0 for count in state.pile().values()):
        raise NotationError("impossible state: more cards on the table, won and in the bank than the deck holds")
    return state


def _tiles(text: str, setup: MainGame, players: int) -> tuple[LaidTile, ...]:
    if text == "-":
        return ()
    laid = []
    for entry in text.split("/"):
        head, sep, memo = entry.partition(":")
        if not sep or len(head) != 3 or not head[0].isdigit() or head[1:] not in TILES:
            raise NotationError(f"tile {entry!r}: casino, tile code, ':' and its memory (e.g. 1A2:40000)")
        laid.append((int(head[0]), head[1:], _memo(memo, entry)))
    try:
        checked = setup.check_tiles(tuple((casino, code) for casino, code, _ in laid))
    except IllegalEventError as error:
        raise NotationError(f"tiles {text!r}: {error}") from None
    memos = {casino: memo for casino, _, memo in laid}
    for t in checked:
        if not TILES[t.tile.id].valid_memo(memos[t.casino], players):
            raise NotationError(f"tile {t.casino}{t.tile.id}: {memos[t.casino]!r} is no memory {t.tile.name} has")
    return tuple(LaidTile(t.casino, t.tile, memos[t.casino]) for t in checked)


def _bank(text: str) -> tuple[int, ...]:
    if text == "-":
        return ()
    notes: list[int] = []
    for entry in text.split(","):
        value, sep, count = entry.partition("*")
        if not sep:
            raise NotationError(f"bank {entry!r}: value in thousands '*' count (e.g. 30*9)")
        notes += [_int(value, entry) * 1000] * _int(count, entry)
    return tuple(sorted(notes, reverse=True))


def _memo_text(memo: Any) -> str:
    """A tile's memory: ``-`` (none), a number, or numbers joined by ``,`` (a count per seat or casino)."""
    if memo is None:
        return "-"
    return ",".join(map(str, memo)) if isinstance(memo, tuple) else str(memo)


def _memo(text: str, where: str) -> Any:
    if text == "-":
        return None
    if "," in text:
        return tuple(_signed(part, where) for part in text.split(","))
    return _signed(text, where)


def _signed(text: str, where: str) -> int:
    return -_int(text[1:], where) if text.startswith("-") and len(text) > 1 else _int(text, where)


def _int(text: str, where: str) -> int:
    if not text.isdigit():
        raise NotationError(f"{where!r}: {text!r} is not a whole number")
    return int(text)


def _steps(text: str, state: GameState, setup: MainGame) -> Pending | None:
    if text == "-":
        return None
    chain: Pending | None = None
    for entry in reversed(text.split("|")):
        owner, *rest = entry.split(".")
        data: tuple[Any, ...] = (owner, *rest) if owner == "setup" else tuple(_part(p) for p in (owner, *rest))
        handler: Any = setup if owner == "setup" else TILES[owner] if owner in TILES else state.tiles[data[0]].tile
        step = handler.pending(state, data)
        chain = Pending(step.actor, step.accepts, step.what, step.handler, step.data, chain, step.dealt, step.rolled)
    return chain


def _part(text: str) -> int | str:
    return int(text) if text.isdigit() else text
