"""How well a reading of the table fits the table a game state says lies there: the interpreter's score.

A game describes its table as zones (0 the rolling area, 1.. its casinos or fields) of
:class:`Expected` dice; a reading gives per zone the dice read. Each read die is matched to at most one
expected die (cheapest pairs first, while a pair costs less than leaving both unexplained); what stays
unmatched costs a miss (an expected die not read; :data:`GONE_COST` for an ``optional`` one, such as
dice a player may already have taken back) or an extra (a die read that is not there).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from referee.interpret.model import ObservationModel
from referee.readings import DieReading
from referee.types import Colour

__all__ = ["Expected", "TableCost", "zone_cost"]


@dataclass(frozen=True, slots=True)
class Expected:
    """A die the state says lies in a zone."""

    colour: str
    big: bool
    pips: int
    """Its face (0: any)."""
    optional: bool = False
    """It may be gone (dice a player takes back): not reading it costs :data:`GONE_COST`, not a miss."""


GONE_COST = 0.7
"""The cost of not reading an optional die: as likely gone as still there (-log 0.5)."""

Table = Mapping[int, Sequence[Expected]]
"""Expected dice per zone."""
Reading = Mapping[int, Sequence[DieReading]]
"""Dice read per zone."""


def zone_cost(model: ObservationModel, zone: int, expected: Sequence[Expected], read: Sequence[DieReading]) -> float:
    """The cost (nats) of reading ``read`` in ``zone`` where ``expected`` lies.

    Example:
        >>> model = ObservationModel.generic()
        >>> red3 = Expected("red", False, 3)
        >>> zone_cost(model, 3, [red3], [DieReading(Colour.RED, False, 3)]) < zone_cost(model, 3, [red3], [])
        True
    """
    return _zone_cost(model, zone, expected, [(_VALUES[r.colour], r.big, r.pips) for r in read])


_VALUES = {colour: colour.value for colour in Colour}


def _zone_cost(model: ObservationModel, zone: int, expected: Sequence[Expected], read: Sequence[tuple[str, bool, int]],
               ) -> float:  # fmt: skip
    kind = "tray" if zone == 0 else "casino"
    miss = model.miss_cost(len(expected), kind)
    extra = model.extra_cost()
    if not read:
        return sum(GONE_COST if e.optional else miss for e in expected)
    pairs = []
    die_cost = model.die_cost
    for i, e in enumerate(expected):
        leave = (GONE_COST if e.optional else miss) + extra
        for j, (colour, big, pips) in enumerate(read):
            cost = die_cost(e.colour, e.big, e.pips, colour, big, pips)
            if cost < leave:
                pairs.append((cost - leave, cost, i, j))
    pairs.sort()
    used_e: set[int] = set()
    used_r: set[int] = set()
    total = 0.0
    for _, cost, i, j in pairs:
        if i in used_e or j in used_r:
            continue
        used_e.add(i)
        used_r.add(j)
        total += cost
    total += sum(GONE_COST if e.optional else miss for i, e in enumerate(expected) if i not in used_e)
    return total + extra * (len(read) - len(used_r))


class TableCost:
    """The cost of one reading against many candidate tables, each zone's cost computed once per content."""

    def __init__(self, model: ObservationModel, reading: Reading) -> None:
        self.model = model
        self.reading = {zone: [(_VALUES[r.colour], r.big, r.pips) for r in dice] for zone, dice in reading.items()}
        self.signature = {zone: tuple(sorted(dice)) for zone, dice in self.reading.items() if dice}
        """Per zone with dice, what was read there (to tell which zones read as before)."""
        self._cache: dict[tuple[int, tuple[Expected, ...]], float] = {}

    def __call__(self, table: Table, before: Table | None = None, unchanged: frozenset[int] = frozenset()) -> float:
        """The cost of the reading if ``table`` lies there (zones absent from ``table`` are empty).

        A zone in ``unchanged`` (read as in the reading before) where ``table`` holds what ``before``
        (the table of the reading before) held brings no new evidence: it costs nothing (a die hidden
        in a crowd stays hidden while nothing moves there, and is counted once, not at every reading).
        """
        total = 0.0
        for zone in {*table, *self.reading}:
            expected = tuple(table.get(zone, ()))
            if zone in unchanged and before is not None and expected == tuple(before.get(zone, ())):
                continue
            key = (zone, expected)
            cost = self._cache.get(key)
            if cost is None:
                cost = _zone_cost(self.model, zone, expected, self.reading.get(zone, ()))
                self._cache[key] = cost
            total += cost
        return total
