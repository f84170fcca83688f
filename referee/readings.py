"""What a camera reads off a dice table, in referee types: shared by every dice game.

The vision pipeline turns a stable frame into a :class:`TableSnapshot` (the referee never sees a
bounding box): each die read as a :class:`DieReading`, per numbered zone (a casino) and in the
rolling area. A game checks a snapshot against its state with its own rules (for Las Vegas,
:func:`referee.lasvegas.table.validate`) and says which snapshot a state shows
(:meth:`TableSnapshot.from_state`), which is also how synthetic training images get their labels.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.types import Colour

__all__ = ["DieReading", "TableSnapshot"]


@dataclass(frozen=True, slots=True)
class DieReading:
    """One die as read from an image.

    Example:
        >>> DieReading(Colour.RED, big=False, pips=5, confidence=0.97)
        DieReading(colour=Colour.RED, big=False, pips=5, confidence=0.97, track=-1, size_mm=0.0)
    """

    colour: Colour
    """The colour read (owner, or the neutral colour)."""
    big: bool
    """True for a Biggy (judged by size on the table plane)."""
    pips: int
    """The face read, 1..6; 0 when it could not be read."""
    confidence: float = 1.0
    """The reader's confidence, 0..1."""
    track: int = -1
    """The tracker's id for this physical die (-1 when unknown): the same id means the same die, unmoved."""
    size_mm: float = 0.0
    """Its size on the table plane, in millimetres (0 when unknown): the referee tells a roll's Biggy by it."""


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """The dice on the table at one moment: per casino (a dice game's numbered zones), and in the rolling area."""

    frame_index: int
    """Index of the frame it was read from."""
    timestamp_s: float
    """Time of that frame, in seconds from the start of the source."""
    casinos: tuple[tuple[DieReading, ...], ...]
    """Dice resting on each casino, casino 1 first."""
    tray: tuple[DieReading, ...] = ()
    """Dice rolled but not yet placed."""

    @classmethod
    def from_state(cls, state: Any, frame_index: int = 0, timestamp_s: float = 0.0) -> TableSnapshot:
        """The dice a game state says lie on the table (the game of the state draws it).

        This is how the referee's expectations and synthetic training labels are made: each dice game
        says where its state puts the dice (:meth:`referee.game.Game.snapshot`).
        """
        from referee.game import dice_game_of

        return dice_game_of(state).snapshot(state, frame_index, timestamp_s)

    def all_dice(self) -> list[DieReading]:
        """Every die read, casinos first, then the tray."""
        return [die for casino in self.casinos for die in casino] + list(self.tray)
