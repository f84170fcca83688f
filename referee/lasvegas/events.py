"""Events: everything that happens at the table, as frozen inputs to :func:`referee.lasvegas.state.apply`.

Chance (the banknotes dealt, the faces rolled) is an input like any other, never drawn inside the
engine, so a camera can feed what really happened and any game replays from its event list.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.types import Colour

__all__ = [
    "BanknotesDealt",
    "DicePlaced",
    "DiceRolled",
    "Event",
    "NeutralDiceRolled",
    "Passed",
    "ResourcesCounted",
    "RoundScored",
]


@dataclass(frozen=True, slots=True)
class BanknotesDealt:
    """The notes dealt face up to every casino at the start of a round.

    Example:
        >>> BanknotesDealt(((60_000,), (50_000,), (10_000, 40_000), (90_000,), (20_000, 30_000), (80_000,)))
        ... # doctest: +ELLIPSIS
        BanknotesDealt(casinos=((60000,), ...))
    """

    casinos: tuple[tuple[int, ...], ...]
    """Notes in dollars per casino, casino 1 first (order within a casino does not matter)."""


@dataclass(frozen=True, slots=True)
class NeutralDiceRolled:
    """The start player's roll of the spare neutral dice before a round (3 players, neutral variant).

    Each die is placed on the casino of its value.
    """

    values: tuple[int, ...]
    """The faces rolled."""


@dataclass(frozen=True, slots=True)
class DiceRolled:
    """A player rolled every die he still holds.

    Example:
        >>> DiceRolled(Colour.RED, (1, 3, 3, 5), biggies=(3,), neutral=(6,))
        DiceRolled(player=Colour.RED, dice=(1, 3, 3, 5), biggies=(3,), neutral=(6,))
    """

    player: Colour
    """Whose turn it is."""
    dice: tuple[int, ...]
    """Faces of his normal dice."""
    biggies: tuple[int, ...] = ()
    """Faces of his Biggys (Biggy variant)."""
    neutral: tuple[int, ...] = ()
    """Faces of the neutral dice he holds (neutral variant)."""


@dataclass(frozen=True, slots=True)
class DicePlaced:
    """A player put dice of one value on the casino of that value.

    The counts are what was seen placed; the engine checks they are all the dice of that value.
    """

    player: Colour
    """Whose turn it is."""
    casino: int
    """The casino, 1..6: also the value chosen."""
    dice: int
    """Normal dice placed."""
    biggies: int = 0
    """Biggys placed."""
    neutral: int = 0
    """Neutral dice placed."""


@dataclass(frozen=True, slots=True)
class Passed:
    """A player who rolled places nothing and takes his dice back, paying what the rules ask.

    Las Vegas has no pass (the engine refuses it); a rule set whose hooks give a pass cost allows it
    (Las Vegas Royale: one chip).
    """

    player: Colour
    """Whose turn it is."""


@dataclass(frozen=True, slots=True)
class RoundScored:
    """The round's settlement was carried out: notes paid, leftovers under the pile, dice returned."""


@dataclass(frozen=True, slots=True)
class ResourcesCounted:
    """The table counted each player's resource (Royale's chips) and entered the counts: they now hold these.

    A correction, not a move: where the referee's count went wrong (a pass it did not see, one it booked
    that did not happen) the players count what lies in front of them. Legal at any moment of a game
    whose rule set has the resource (Las Vegas has none: the engine refuses it).
    """

    resource: str
    """Which resource, e.g. ``"chips"``."""
    counts: tuple[int, ...]
    """How many each player holds, in seat order."""


Event = BanknotesDealt | NeutralDiceRolled | DiceRolled | DicePlaced | Passed | RoundScored | ResourcesCounted
"""Any event the engine accepts."""
