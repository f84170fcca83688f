"""Narrow errors of the rules engine.

All are ``ValueError`` subclasses, and each message is a sentence a referee could read out at the table.
"""

from __future__ import annotations

__all__ = [
    "IllegalDealError",
    "IllegalEventError",
    "IllegalPlacementError",
    "IllegalRollError",
    "ImpossibleTableError",
    "NotationError",
    "OutOfTurnError",
    "RefereeError",
    "UnknownRuleSetError",
]


class RefereeError(ValueError):
    """Base class of every error the rules engine raises on bad input."""


class NotationError(RefereeError):
    """Text (table notation, a colour name, a JSON record) that cannot be parsed."""


class UnknownRuleSetError(RefereeError):
    """A game or variant name that is not defined, or variants that cannot be combined."""


class IllegalEventError(RefereeError):
    """An event that does not fit the state at all (for example a roll while notes are being dealt)."""


class OutOfTurnError(IllegalEventError):
    """A player acted while it was not his turn."""


class IllegalRollError(IllegalEventError):
    """A roll that breaks the rules: not every held die rolled, or a face outside 1..6."""


class IllegalPlacementError(IllegalEventError):
    """A placement that breaks the rules: a value not rolled, or not all dice of that value."""


class IllegalDealError(IllegalEventError):
    """A banknote deal that breaks the rules: below the minimum, notes not in the pile."""


class ImpossibleTableError(RefereeError):
    """A table that cannot occur with the game's components (nine red dice, a Biggy of neutral dice)."""
