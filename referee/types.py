"""Small value types of the table: dice colours, casinos and dice.

Banknotes are plain ``int`` values in US dollars (``value_usd``): they are fungible amounts, and a
wrapper class would only add conversions to every sum. Players are identified by the colour of their
dice, which is what the camera sees; display names belong to the web layer.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from referee.errors import NotationError

__all__ = ["DENOMINATIONS_USD", "CasinoId", "Colour", "Die", "Ownerless", "format_usd"]

#: Every banknote value used by the Las Vegas family, in dollars.
DENOMINATIONS_USD: tuple[int, ...] = tuple(range(10_000, 100_001, 10_000))


class Colour(enum.Enum):
    """The colour of a die, which names its owner.

    Each colour has a one-letter code for the table notation (``Colour.RED.letter == "r"``).
    The base box has red, blue, green, black and white dice; Las Vegas Boulevard adds yellow, grey and
    violet; people also play with whatever dice they own, hence the longer list.

    Example:
        >>> Colour.from_str("Gray")
        Colour.GREY
        >>> Colour.from_letter("k").value
        'black'
    """

    RED = "red"
    BLUE = "blue"
    GREEN = "green"
    BLACK = "black"
    WHITE = "white"
    YELLOW = "yellow"
    GREY = "grey"
    VIOLET = "violet"
    ORANGE = "orange"
    PINK = "pink"
    BROWN = "brown"
    CYAN = "cyan"

    @property
    def letter(self) -> str:
        """The one-letter code of this colour in the table notation."""
        return _LETTERS[self]

    @classmethod
    def from_str(cls, name: object) -> Colour:
        """Parses a colour name, case-insensitively, accepting common aliases.

        Raises:
            NotationError: if the name is not a known colour.
        """
        if not isinstance(name, str):
            raise NotationError(f"a colour must be a string, got {name!r}")
        colour = _BY_NAME.get(name.strip().lower())
        if colour is None:
            known = ", ".join(c.value for c in cls)
            raise NotationError(f"unknown colour {name!r}; known colours: {known}")
        return colour

    @classmethod
    def from_letter(cls, letter: str) -> Colour:
        """Parses a one-letter colour code (lower case).

        Raises:
            NotationError: if the letter is not a colour code.
        """
        colour = _BY_LETTER.get(letter)
        if colour is None:
            codes = ", ".join(f"{c.letter}={c.value}" for c in cls)
            raise NotationError(f"unknown colour letter {letter!r}; codes: {codes}")
        return colour

    def __repr__(self) -> str:
        return f"Colour.{self.name}"

    def __str__(self) -> str:
        return self.value

    # Members are singletons, so identity hashing (in C) is exact; Enum's default hashes the name in
    # Python, which the settlement's dict look-ups pay for on every turn.
    __hash__ = object.__hash__


_LETTERS: dict[Colour, str] = {
    Colour.RED: "r",
    Colour.BLUE: "b",
    Colour.GREEN: "g",
    Colour.BLACK: "k",  # "b" is blue, as in CMYK
    Colour.WHITE: "w",
    Colour.YELLOW: "y",
    Colour.GREY: "e",  # grEy: "g" is green
    Colour.VIOLET: "v",
    Colour.ORANGE: "o",
    Colour.PINK: "p",
    Colour.BROWN: "n",  # browN: "b" is blue
    Colour.CYAN: "c",
}
_BY_LETTER: dict[str, Colour] = {letter: colour for colour, letter in _LETTERS.items()}
_BY_NAME: dict[str, Colour] = {c.value: c for c in Colour} | {
    "gray": Colour.GREY,
    "purple": Colour.VIOLET,
    "lilac": Colour.VIOLET,
}


class CasinoId(enum.IntEnum):
    """A casino, numbered 1 to 6 like the die face that is placed on it."""

    GOLD_RUSH = 1
    PALAZZO = 2
    MIRACLE = 3
    OASIS = 4
    SPHINX = 5
    SHOW_HALL = 6

    @classmethod
    def parse(cls, value: object) -> CasinoId:
        """Converts ``value`` to a casino, with a readable error for anything but 1..6.

        Raises:
            NotationError: if ``value`` is not an integer from 1 to 6.
        """
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
            raise NotationError(f"a casino is numbered 1 to 6, got {value!r}")
        return cls(value)

    def __repr__(self) -> str:
        return f"CasinoId({self.value})"


@dataclass(frozen=True, slots=True)
class Die:
    """One physical die as the referee distinguishes it.

    Example:
        >>> Die(Colour.RED, big=True)
        Die(Colour.RED, big=True)
    """

    colour: Colour
    """The colour of the die; for a player's die it names the owner."""
    big: bool = False
    """True for a Biggy, the large die that counts as two dice at settlement."""

    def __repr__(self) -> str:
        return f"Die({self.colour!r}, big={self.big!r})"


@dataclass(frozen=True, slots=True)
class Ownerless:
    """Dice owned by nobody that may share a colour with a player's (Las Vegas Royale's extra dice).

    Settlement ranks them like any owner (they cancel ties and take a rank) but never pays them. Las
    Vegas's neutral dice need no such owner: their colour is one no player may use.

    Example:
        >>> str(Ownerless("extra", Colour.BLACK))
        'extra black'
    """

    name: str
    """What the rules call them, e.g. ``"extra"``."""
    colour: Colour
    """The colour of the dice."""

    def __str__(self) -> str:
        return f"{self.name} {self.colour.value}"


def format_usd(value_usd: int) -> str:
    """Formats dollars the way the banknotes print them: ``60000 -> '$60,000'``."""
    return f"${value_usd:,}"
