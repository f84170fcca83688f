"""The events of Royale's main game beyond Las Vegas's: tiles laid, the bank, the black dice, decisions.

Like every event they are inputs to :func:`referee.lasvegas.state.apply`: the referee never draws
them itself. Chance (the tiles laid, the bank, the black dice) is entered or read like any roll; a
decision or hidden information a tile needs (Lucky Punch's tokens, Fifty Fifty's bet, Black Box's
piles, My Choice's pick) is a :class:`TileChoice` the page asks for.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from referee.types import Colour

__all__ = ["BankLaid", "BlackDiceRolled", "RoyaleEvent", "TileChoice", "TilesLaid"]


@dataclass(frozen=True, slots=True)
class TilesLaid:
    """The casino tiles laid at the start of a round: ``(casino, tile code)`` pairs, e.g. ``((1, "A2"),)``."""

    tiles: tuple[tuple[int, str], ...]


@dataclass(frozen=True, slots=True)
class BankLaid:
    """Round 1 of the main game: the money cards laid face up as the bank (the seed, "Preparar").

    The 12 cards of rounds 2 and 3 are set aside face down; the rest of the pile is the bank.
    """

    notes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BlackDiceRolled:
    """The 2 black extra dice rolled for a tile (Jackpot, Prime Time, Fifty Fifty, My Choice)."""

    values: tuple[int, ...]
    tray_colour: ClassVar[Colour] = Colour.BLACK
    """They are rolled in the tray (the arena) and lie there until the next move: a camera reads them."""


@dataclass(frozen=True, slots=True)
class TileChoice:
    """A player's decision for a tile, or hidden information he reveals.

    ``choice`` names it (``"guess"``, ``"reveal"``, ``"stop"``, ``"higher"``, ``"lower"``, ``"split"``,
    ``"pick"``, ``"take"``); ``amount`` is the number it carries (tokens, a pile's size or dollars, a face).
    """

    player: Colour
    choice: str
    amount: int = 0


RoyaleEvent = TilesLaid | BankLaid | BlackDiceRolled | TileChoice
"""Any event of Royale's main game beyond Las Vegas's."""
