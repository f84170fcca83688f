"""How well a reading of the table fits the table a game state says lies there: the interpreter's score.

A game describes its table as zones (0 the rolling area, 1.. its casinos or fields) of
:class:`Expected` dice; a reading gives per zone the dice read. Each read die is matched to at most one
expected die (cheapest pairs first, while a pair costs less than leaving both unexplained); what stays
unmatched costs a miss (an expected die not read; :data:`GONE_COST` for an ``optional`` one, such as
dice a player may already have taken back) or an extra (a die read that is not there).
"""

from __future__ import annotations

from collections import Counter
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
        self._cache: dict[tuple[int, tuple[Expected, ...]], float] = {}
        self._lost: tuple[int, frozenset[int]] | None = None
        """``id`` of the reading before and the zones where this reading lacks a die it read there."""

    def zone(self, zone: int, expected: Sequence[Expected]) -> float:
        """The cost of what was read in ``zone`` if ``expected`` lies there."""
        key = (zone, tuple(expected))
        cost = self._cache.get(key)
        if cost is None:
            cost = self._cache[key] = _zone_cost(self.model, zone, key[1], self.reading.get(zone, ()))
        return cost

    def __call__(self, table: Table, before: Table | None = None, previous: TableCost | None = None) -> float:
        """The cost of the reading if ``table`` lies there (zones absent from ``table`` are empty).

        With ``previous`` (the reading before) and ``before`` (the table this history said lay there
        then), a zone where dice were only added since, in the reading and in the table alike, costs
        only what its misfit grew by (never less than nothing): the reader's errors last while dice
        do not move (a die hidden under others stays hidden while dice are put beside it), so such a
        die is charged once, when it goes unseen, not again each time its casino gains a die. A zone
        read as before where the table did not change costs nothing (no new evidence).
        """
        zones = {*table, *self.reading}  # any other zone is empty in both: it costs nothing
        if previous is None or before is None:
            return sum(self.zone(zone, table.get(zone, ())) for zone in zones)
        lost = self._lost_since(previous)
        total = 0.0
        for zone in zones:
            expected = tuple(table.get(zone, ()))
            cost = self.zone(zone, expected)
            if cost and zone not in lost:
                was = tuple(before.get(zone, ()))
                if was == expected or _added_only(was, expected):
                    cost = max(0.0, cost - previous.zone(zone, was))
            total += cost
        return total

    def _lost_since(self, previous: TableCost) -> frozenset[int]:
        """The zones where this reading lacks a die ``previous`` read there.

        Found once per reading before, not per candidate table: the interpreter scores every candidate
        against the same one.
        """
        if self._lost is None or self._lost[0] != id(previous):
            zones = {*self.reading, *previous.reading}
            lost = frozenset(z for z in zones if not _added_only(previous.reading.get(z, ()), self.reading.get(z, ())))
            self._lost = (id(previous), lost)
        return self._lost[1]


def _added_only(before: Sequence[object], after: Sequence[object]) -> bool:
    """True when ``after`` holds every item of ``before`` (as many times), perhaps more."""
    if len(after) < len(before):
        return False
    left = Counter(after)
    left.subtract(before)
    return min(left.values(), default=0) >= 0
