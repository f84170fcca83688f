"""Just 4 Fun's rules as data: the deck, the stones, the hand, and the board's numbering.

Numbers from ``../shared/rules/just-4-fun.md`` (our summary; the seed rulebook's digits were lost in its
extraction): 2-4 players, 55 cards (1-12 four times, 13-19 once), hands of 4, 20 stones a player, a 6x6
board of fields numbered 1-36, four fields in a line to win.

The printed board's order of the numbers is not in our sources (a review calls it "chaotic"): the default
:data:`DEFAULT_LAYOUT` is ours, a fixed shuffle, and a user enters the board on the table once
(:func:`ruleset` with ``layout``). Fields are addressed by their number everywhere; the layout only says
where each lies (for the lines of four and for the camera).

Example:
    >>> rules = ruleset()
    >>> len(rules.deck), sum(rules.deck), rules.position(rules.layout[0])
    (55, 424, (0, 0))
    >>> ruleset(layout=list(range(1, 37))).position(8)
    (1, 1)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from referee.errors import UnknownRuleSetError
from referee.game import name_key

__all__ = ["ALIASES", "CENTRE", "DECK", "DEFAULT_LAYOUT", "GAME_NAME", "SIDE", "Rules", "ruleset"]

GAME_NAME = "just-4-fun"
ALIASES = ("just4fun", "just-four-fun")
"""Other spellings of the game's name (compared as :func:`referee.game.name_key` writes them)."""
SIDE = 6
"""The board is SIDE x SIDE fields."""
CENTRE = 4
"""A field's spots: 0-3 by each seat's side (seat 0 near, 1 left, 2 far, 3 right), CENTRE the middle, where a
secured stack stands."""
DECK: tuple[int, ...] = tuple(sorted([v for v in range(1, 13) for _ in range(4)] + list(range(13, 20))))
"""The 55 cards: 1-12 four times each, 13-19 once each (summary)."""
DEFAULT_LAYOUT: tuple[int, ...] = tuple(random.Random(2005).sample(range(1, SIDE * SIDE + 1), SIDE * SIDE))
"""The field numbers row by row from the first player's far-left corner: ours (a fixed shuffle), not the
printed board's order, which our sources do not give; enter yours with ``ruleset(layout=...)``."""


@dataclass(frozen=True)
class Rules:
    """A Just 4 Fun rule set: the numbers the game is played with."""

    name: str = GAME_NAME
    game: str = GAME_NAME
    players: tuple[int, int] = (2, 4)
    """Fewest and most players."""
    stones: int = 20
    """Stones a player has (summary)."""
    hand: int = 4
    """Cards in a hand; a play is 1 to this many cards."""
    deck: tuple[int, ...] = DECK
    layout: tuple[int, ...] = DEFAULT_LAYOUT
    """Field numbers row by row (row 0 is the far side from the first player, column 0 his left)."""
    line: int = 4
    """Fields in a straight line that win."""
    _where: dict[int, tuple[int, int]] = field(default_factory=dict, compare=False, repr=False)
    _through: dict[int, tuple[tuple[int, ...], ...]] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if sorted(self.layout) != list(range(1, SIDE * SIDE + 1)):
            raise UnknownRuleSetError(f"a board layout holds each field 1-{SIDE * SIDE} once, row by row; "
                                      f"got {list(self.layout)}")  # fmt: skip
        self._where.update({n: divmod(i, SIDE) for i, n in enumerate(self.layout)})

    def position(self, number: int) -> tuple[int, int]:
        """(row, column) of field ``number`` on the board."""
        return self._where[number]

    def lines_through(self, number: int) -> tuple[tuple[int, ...], ...]:
        """The lines of :meth:`lines` that hold field ``number``."""
        through = self._through.get(number)
        if through is None:
            through = self._through[number] = tuple(line for line in self.lines() if number in line)
        return through

    def lines(self) -> tuple[tuple[int, ...], ...]:
        """Every straight line of :attr:`line` adjacent fields (rows, columns, both diagonals), as field numbers."""
        found = []
        for r in range(SIDE):
            for c in range(SIDE):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    cells = [(r + k * dr, c + k * dc) for k in range(self.line)]
                    if all(0 <= rr < SIDE and 0 <= cc < SIDE for rr, cc in cells):
                        found.append(tuple(self.layout[rr * SIDE + cc] for rr, cc in cells))
        return tuple(found)


def ruleset(name: str = GAME_NAME, layout: Sequence[int] | None = None) -> Rules:
    """The rule set ``name`` (Just 4 Fun has one), on the default board or on ``layout``.

    Raises:
        UnknownRuleSetError: for another name or a layout that is not the numbers 1-36 once each.
    """
    if name_key(name) not in (GAME_NAME, *ALIASES):
        raise UnknownRuleSetError(f"unknown Just 4 Fun rule set {name!r}")
    return Rules(layout=tuple(int(n) for n in layout)) if layout is not None else Rules()
