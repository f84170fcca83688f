"""How well a reading of the table fits the table a game state says lies there: the interpreter's score.

A game describes its table as zones (0 the rolling area, 1.. its casinos or fields) of
:class:`Expected` dice; a reading gives per zone the dice read. Each read die is matched to at most one
expected die (cheapest pairs first, while a pair costs less than leaving both unexplained); what stays
unmatched costs a miss (an expected die not read) or an extra (a die read that is not there).
``optional`` dice (those a player may already have taken back) go together: a zone's optional dice
are all there or all gone, whichever fits better, gone costing :data:`GONE_COST` once.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from referee.interpret.model import ObservationModel
from referee.readings import DieReading
from referee.types import Colour

__all__ = ["Expected", "TableCost", "zone_cost"]


class Expected(NamedTuple):
    """A die the state says lies in a zone (a named tuple: tables of them are hashed for every candidate)."""

    colour: str
    big: bool
    pips: int
    """Its face (0: any)."""
    optional: bool = False
    """It may be gone, with the zone's other optional dice of its group (a player takes his dice back at once)."""
    group: int = 0
    """Which optional dice go together: a player's leftovers (0); dice no player owns rolled for a step (1,
    Royale's black dice, taken away apart from the player's)."""


GONE_COST = 0.7
"""The cost of a zone's optional dice being gone: as likely as their being there (-log 0.5)."""

Table = Mapping[int, Sequence[Expected]]
"""Expected dice per zone."""
Reading = Mapping[int, Sequence[DieReading]]
"""Dice read per zone."""


class Seen(dict[int, Sequence[DieReading]]):
    """A reading (dice read per zone) with what the tracker's ids tell of the readings before it.

    The tracker's same id is the same die, unmoved (:attr:`DieReading.track`). ``before`` is the reading
    before this one; ``company`` holds, per id of a die read on a casino, the colours of the dice read in
    the tray at the readings where it lay there. Games use them to tell a die just put on a casino from one
    lying there all along.

    Example:
        >>> red3 = DieReading(Colour.RED, False, 3, track=7)
        >>> seen = Seen({3: (red3,)}, {3: (red3,)}, {7: frozenset({Colour.BLUE})})
        >>> seen.lay_before(3, red3), seen.lay_before(3, DieReading(Colour.RED, False, 3))
        (True, False)
        >>> seen.lay_beside(red3, {Colour.RED}), seen.lay_beside(red3, {Colour.BLUE})
        (True, False)
    """

    def __init__(self, zones: Reading, before: Reading | None = None,
                 company: Mapping[int, frozenset[Colour]] | None = None) -> None:  # fmt: skip
        super().__init__(zones)
        self.before: Reading = before or {}
        self.company: Mapping[int, frozenset[Colour]] = company or {}
        self._ids = {zone: frozenset(d.track for d in dice if d.track >= 0) for zone, dice in self.before.items()}

    def lay_before(self, zone: int, die: DieReading) -> bool:
        """True when the tracker read ``die`` (its id known) in ``zone`` at the reading before too."""
        return die.track >= 0 and die.track in self._ids.get(zone, frozenset())

    def lay_beside(self, die: DieReading, colours: set[Colour | None]) -> bool:
        """True when ``die`` lay on its casino at a reading before while the tray held dice of other colours."""
        return bool(self.company.get(die.track, frozenset()) - colours) if die.track >= 0 else False

    def company_after(self) -> dict[int, frozenset[Colour]]:
        """``company`` with this reading's casino dice and tray added (the next reading's)."""
        tray = frozenset(d.colour for d in self.get(0, ()))
        company = dict(self.company)
        for zone, dice in self.items():
            for die in dice if zone else ():
                if die.track >= 0:
                    company[die.track] = company.get(die.track, frozenset()) | tray
        return company


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


@dataclass(frozen=True, slots=True)
class _Fit:
    """How a zone's reading fits the dice said to lie there, die by die."""

    total: float
    dice: tuple[float, ...]
    """What each expected die costs: its pair with the die read as it, or its miss (or its share of
    :data:`GONE_COST`)."""
    missed: tuple[bool, ...]
    """Which expected dice are there and not read (not those gone)."""
    extras: tuple[int, ...]
    """The dice read that no expected die explains (indices into the zone's reading)."""
    reads: tuple[int, ...] = ()
    """Per expected die, the die read as it (an index into the zone's reading; -1 where none is)."""
    gone: frozenset[int] = frozenset()
    """The groups of optional dice this fit takes for gone."""


def _zone_cost(model: ObservationModel, zone: int, expected: Sequence[Expected], read: Sequence[tuple[str, bool, int]],
               ) -> float:  # fmt: skip
    return _fit(model, zone, expected, read).total


def _fit(model: ObservationModel, zone: int, expected: Sequence[Expected], read: Sequence[tuple[str, bool, int]],
         ) -> _Fit:  # fmt: skip
    """The fit of ``read`` where ``expected`` lies (see the module): the cheapest of :func:`_fits`."""
    return _cheapest(_fits(model, zone, expected, read))


def _cheapest(fits: tuple[_Fit, ...]) -> _Fit:
    """The fit that costs least; on a tie the first (every die there before the optional ones gone)."""
    return min(fits, key=lambda fit: fit.total)


def _fits(model: ObservationModel, zone: int, expected: Sequence[Expected], read: Sequence[tuple[str, bool, int]],
          barred: frozenset[int] = frozenset()) -> tuple[_Fit, ...]:  # fmt: skip
    """The ways ``read`` may fit where ``expected`` lies: every die there first, then with optional dice gone.

    The dice read at ``barred`` (indices into ``read``) explain no expected die: they are phantoms.

    Each set of the optional dice's groups may be gone (each group gone costs :data:`GONE_COST`): a player's
    leftovers and a tile's black dice are taken away apart (traced: seed 401, the black dice taken away and
    blue's leftovers still there cost two misses, "blue rolls 1 5 5" and a pass were booked).
    """
    there = _matched(model, zone, expected, read, barred)
    groups = sorted({e.group for e in expected if e.optional})
    if not groups:
        return (there,)
    fits = [there]
    for size in range(1, len(groups) + 1):
        for gone in itertools.combinations(groups, size):
            kept = [i for i, e in enumerate(expected) if not (e.optional and e.group in gone)]
            rest = _matched(model, zone, [expected[i] for i in kept], read, barred)
            share = GONE_COST * size / (len(expected) - len(kept))
            dice = [share] * len(expected)
            missed = [False] * len(expected)
            reads = [-1] * len(expected)
            for i, cost, unread, j in zip(kept, rest.dice, rest.missed, rest.reads, strict=True):
                dice[i], missed[i], reads[i] = cost, unread, j
            fits.append(_Fit(GONE_COST * size + rest.total, tuple(dice), tuple(missed), rest.extras, tuple(reads),
                             frozenset(gone)))  # fmt: skip
    return tuple(fits)


def _matched(model: ObservationModel, zone: int, expected: Sequence[Expected], read: Sequence[tuple[str, bool, int]],
             barred: frozenset[int] = frozenset()) -> _Fit:  # fmt: skip
    """The fit of ``read`` where ``expected`` lies, every expected die there (none read as the ``barred`` dice)."""
    kind = "tray" if zone == 0 else "casino"
    crowd = len(expected)
    dice = [model.miss_cost(crowd, kind, e.colour) for e in expected]
    extra = model.extra_cost()
    if not read:
        return _Fit(sum(dice), tuple(dice), (True,) * len(dice), (), (-1,) * len(dice))
    pairs = []
    die_cost = model.die_cost
    for i, e in enumerate(expected):
        leave = dice[i] + extra
        for j, (colour, big, pips) in enumerate(read):
            if j in barred:
                continue
            cost = die_cost(e.colour, e.big, e.pips, colour, big, pips)
            if cost < leave:
                pairs.append((cost - leave, cost, i, j))
    pairs.sort()
    reads = [-1] * len(expected)
    used_r: set[int] = set()
    for _, cost, i, j in pairs:
        if reads[i] >= 0 or j in used_r:
            continue
        reads[i] = j
        used_r.add(j)
        dice[i] = cost
    extras = tuple(j for j in range(len(read)) if j not in used_r)
    missed = tuple(j < 0 for j in reads)
    return _Fit(sum(dice) + extra * len(extras), tuple(dice), missed, extras, tuple(reads))


class TableCost:
    """The cost of one reading against many candidate tables, each zone's cost computed once per content."""

    def __init__(self, model: ObservationModel, reading: Reading) -> None:
        self.model = model
        self.reading = {zone: [(_VALUES[r.colour], r.big, r.pips) for r in dice] for zone, dice in reading.items()}
        self._cache: dict[tuple[Any, ...], tuple[_Fit, ...]] = {}
        self._stay = model.stay_cost()
        self._stayed_reads: tuple[int, dict[int, _Stayed]] | None = None
        """``id`` of the reading before, and per zone the dice read both then and now."""
        self._back: dict[int, Counter[tuple[str, bool, int]]] = {}
        """Per zone but the rolling area, the dice read now that were read there before the reading before and
        not in it (set with ``_grown``, by :meth:`_remember`)."""
        self._read_before: dict[int, Counter[tuple[str, bool, int]]] = {}
        """Per zone but the rolling area, the most dice of each look read there in one reading before this
        one (since the interpreter's reset: the readings are chained through ``previous``)."""
        self._grown: tuple[int, dict[tuple[int, tuple[Expected, ...], tuple[Expected, ...]], float]] = (0, {})
        """``id`` of the reading before, and per (zone, dice there then, dice there now) what its misfit grew by:
        candidates differ in a zone or two, so most zones of most candidates are scored once."""

    def zone(self, zone: int, expected: Sequence[Expected]) -> float:
        """The cost of what was read in ``zone`` if ``expected`` lies there."""
        return self.fit(zone, tuple(expected)).total

    def fit(self, zone: int, expected: tuple[Expected, ...]) -> _Fit:
        """How what was read in ``zone`` fits ``expected``, die by die (cached): the cheapest way."""
        return _cheapest(self.fits(zone, expected))

    def fits(self, zone: int, expected: tuple[Expected, ...], barred: frozenset[int] = frozenset(),
             ) -> tuple[_Fit, ...]:  # fmt: skip
        """The ways what was read in ``zone`` may fit ``expected``, ``barred`` dice phantoms (:func:`_fits`; cached)."""
        key = (zone, expected, barred)
        fits = self._cache.get(key)
        if fits is None:
            fits = self._cache[key] = _fits(self.model, zone, expected, self.reading.get(zone, ()), barred)
        return fits

    def __call__(self, table: Table, before: Table | None = None, previous: TableCost | None = None) -> float:
        """The cost of the reading if ``table`` lies there (zones absent from ``table`` are empty).

        With ``previous`` (the reading before) and ``before`` (the table this history said lay there
        then), each zone costs only what its misfit grew by since, never less than nothing: its cost
        less what was already charged for what did not change, die by die. Each die that stayed (in
        ``before`` and in ``table``) is charged only what it costs now above what it cost then (with
        the die read as it, or its miss), and a die read that nothing explains is not charged again
        where it was read, and explained by nothing, then too; an error that lasts costs the model's
        ``stay`` cost at each reading. The reader's errors last while dice do not move (a die hidden
        under others stays hidden while dice are put beside it or taken away), so an error is charged
        once, when it arises, not again at every reading. A die that moved is read anew and charged
        anew; a die read then as a die that has since left, and still read, is charged anew; a die
        read then and not now, where the history says the die stayed, is a miss charged now.
        """
        zones = {*table, *self.reading}  # any other zone is empty in both: it costs nothing
        if previous is None or before is None:
            return sum(self.zone(zone, table.get(zone, ())) for zone in zones)
        if self._grown[0] != id(previous):
            self._grown = (id(previous), {})
            self._remember(previous)
        grown = self._grown[1]
        total = 0.0
        for zone in zones:
            expected = tuple(table.get(zone, ()))
            was = tuple(before.get(zone, ()))
            key = (zone, was, expected)
            cost = grown.get(key)
            if cost is None:
                cost = grown[key] = self._grown_by(zone, was, expected, previous)
            total += cost
        return total

    def hidden(self, table: Table) -> float:
        """What the dearest die of ``table`` not read costs (0 when every die is read).

        A die hidden beside or under others is the reader's commonest lasting error; it costs the model's
        price for its zone and crowd.
        """
        dearest = 0.0
        for zone, expected in table.items():
            fit = self.fit(zone, tuple(expected))
            for cost, missed in zip(fit.dice, fit.missed, strict=True):
                if missed and cost > dearest:
                    dearest = cost
        return dearest

    def _grown_by(self, zone: int, was: tuple[Expected, ...], expected: tuple[Expected, ...],
                  previous: TableCost) -> float:  # fmt: skip
        """What ``zone``'s misfit grew by since ``previous`` read it, where ``was`` lay then and ``expected`` now.

        With dice that may be gone (a placement's leftovers), each way they may fit then and now is weighed
        and the cheapest taken: leftovers unseen since the roll and unseen still are there, hidden as they
        were, not gone while the dice read among them are phantoms (traced: three dice of a roll unseen,
        and after the placement the leftovers were taken back as soon as their misses, charged again
        whole, cost more than two phantoms). Leftovers read gone are gone: seen again they were there then,
        unseen, and their misses then are charged now (traced: red rolled 1 3, put the 1 on casino 1, took
        the 3 back; his next roll, one die showing 3, was taken for that leftover 3 come back, and the pass
        that followed it was lost; Royale seed 352, four players).
        """
        fits_then = previous.fits(zone, was)
        # The same leftovers then and now (nothing happened in the zone): read gone then, they cannot be there
        # now. A player takes his dice back at once and for good, so there now, they were there then, missed.
        same = len(fits_then) > 1 and _optional(was) == _optional(expected)
        groups = frozenset(e.group for e in expected if e.optional)
        fits_now = self.fits(zone, expected)
        if zone:  # a phantom read on, not a misread die (in the rolling area dice move: read anew)
            fits_then, fits_now = self._phantom_fits(zone, was, fits_then, expected, fits_now, previous)
        grown = None
        for now in fits_now:
            for then in fits_then:
                missed = 0.0
                if same:  # a group gone then is gone now; a group there now was there then, its misses charged
                    if not then.gone <= now.gone:
                        continue
                    if now.gone != groups:
                        missed = then.total - _cheapest(fits_then).total
                if not now.total and not missed:
                    return 0.0
                cost = missed + max(0.0, now.total - self._paid(zone, was, then, expected, now, previous))
                grown = cost if grown is None else min(grown, cost)
        assert grown is not None
        return grown

    def _phantom_fits(self, zone: int, was: tuple[Expected, ...], fits_then: tuple[_Fit, ...],
                      expected: tuple[Expected, ...], fits_now: tuple[_Fit, ...], previous: TableCost,
                      ) -> tuple[tuple[_Fit, ...], tuple[_Fit, ...]]:  # fmt: skip
        """``fits_then`` and ``fits_now``, each also fitting a die read then and now as one phantom throughout.

        Such a die is one that a fit of one reading leaves unexplained and a fit of the other takes for an
        expected die misread.

        The cheapest fit of each reading is found alone: a die read twice (two boxes on one die, the second
        in another colour) is the expected die misread while its true reading is lost, and a phantom while
        it is read too, by turns. Each turn charged the true table anew, a misreading (10 nats) then a new
        phantom (5), while a history in which another player had put a die of the phantom's look there paid
        once, and won (traced: a white die among eleven on casino 2 read green, and now and then white too;
        green's placement on casino 6 was taken for one on casino 2, Las Vegas seed 5171, six players). A
        phantom read on is charged its staying (:meth:`_paid`), the expected die its miss. Only a die read as
        a misreading: a die read as the expected die it is, is that die, whatever was read beside it before.
        """
        read_then, read_now = previous.reading.get(zone, ()), self.reading.get(zone, ())
        both = Counter(read_then) & Counter(read_now)
        if not both:
            return fits_then, fits_now
        phantoms_then = _extra_looks(read_then, fits_then) & both & _misread_looks(read_now, fits_now, expected)
        phantoms_now = _extra_looks(read_now, fits_now) & both & _misread_looks(read_then, fits_then, was)
        if phantoms_then:
            fits_now += self.fits(zone, expected, _alike(read_now, phantoms_then))
        if phantoms_now:
            fits_then += previous.fits(zone, was, _alike(read_then, phantoms_now))
        return fits_then, fits_now

    def _paid(self, zone: int, was: tuple[Expected, ...], then: _Fit, expected: tuple[Expected, ...], now: _Fit,
              previous: TableCost) -> float:  # fmt: skip
        """What of ``now``'s misfit was already charged when ``then`` was the fit."""
        stay = self._stay
        paid = _stayed_paid(was, then, expected, now, stay, self.reading.get(zone, ()), self._back.get(zone),
                            previous.reading.get(zone, ()))  # fmt: skip
        if then.extras:
            lasting = self.model.extra_cost() - (stay or 0.0)  # a phantom lasts as a hidden die does
            read = self.reading.get(zone, ())
            same, other_face, other_colour = _extras_kept(previous.reading[zone], then.extras, read, now.extras,
                                                          self._stayed_since(previous).get(zone))  # fmt: skip
            if not zone:  # the rolling area's dice move: a phantom read on there keeps its colour
                other_colour = 0
            paid += (lasting * same + max(0.0, lasting - PHANTOM_FACE_COST) * other_face
                     + max(0.0, lasting - PHANTOM_COLOUR_COST) * other_colour)  # fmt: skip
        return paid

    def same_as(self, other: TableCost) -> bool:
        """True when ``other`` read the same dice in every zone (in any order)."""
        zones = {*self.reading, *other.reading}
        return all(Counter(self.reading.get(z, ())) == Counter(other.reading.get(z, ())) for z in zones)

    def _remember(self, previous: TableCost) -> None:
        """The looks read before this reading (``_read_before``), and those back now (``_back``), per zone.

        A die lying still that the reader loses now and then comes back as it was read before (traced: a
        blue die among eleven on casino 2, read black in one reading, unseen in the next, black again). Done
        once per reading before, not per candidate table, whatever the candidates cost (the next reading
        builds on what this one read before).
        """
        before = {zone: Counter(looks) for zone, looks in previous._read_before.items()}
        for zone, dice in previous.reading.items():
            if zone:
                before[zone] = before.get(zone, Counter()) | Counter(dice)
        self._read_before = before
        self._back = {}
        for zone, dice in self.reading.items():
            gone = before.get(zone, Counter()) - Counter(previous.reading.get(zone, ()))
            if zone and gone and (found := gone & Counter(dice)):
                self._back[zone] = found

    def _stayed_since(self, previous: TableCost) -> dict[int, _Stayed]:
        """Per zone, the dice read both in ``previous`` and in this reading (as many times as in both).

        They are counted by look, by colour and size whatever their face, and by size whatever their look.
        Found once per reading before, not per candidate table: the interpreter scores every candidate
        against the same one.
        """
        if self._stayed_reads is None or self._stayed_reads[0] != id(previous):
            both = {}
            for zone, dice in self.reading.items():
                then = previous.reading.get(zone, ())
                by_size = Counter(big for _, big, _ in dice) & Counter(big for _, big, _ in then)
                if by_size:
                    by_colour = Counter(d[:2] for d in dice) & Counter(d[:2] for d in then)
                    both[zone] = (Counter(dice) & Counter(then), by_colour, by_size)
            self._stayed_reads = (id(previous), both)
        return self._stayed_reads[1]


def _extra_looks(read: Sequence[tuple[str, bool, int]], fits: tuple[_Fit, ...]) -> Counter[tuple[str, bool, int]]:
    """The looks of the dice read that some fit leaves unexplained (as many of each as the most any fit leaves)."""
    looks: Counter[tuple[str, bool, int]] = Counter()
    for fit in fits:
        looks |= Counter(read[j] for j in fit.extras)
    return looks


def _misread_looks(read: Sequence[tuple[str, bool, int]], fits: tuple[_Fit, ...], expected: tuple[Expected, ...],
                   ) -> Counter[tuple[str, bool, int]]:  # fmt: skip
    """The looks of the dice read that some fit takes for an expected die of another look (a face 0: any)."""
    looks: Counter[tuple[str, bool, int]] = Counter()
    for fit in fits:
        looks |= Counter(read[j] for die, j in zip(expected, fit.reads, strict=True)
                         if j >= 0 and read[j] != (die.colour, die.big, die.pips or read[j][2]))  # fmt: skip
    return looks


def _alike(read: Sequence[tuple[str, bool, int]], looks: Counter[tuple[str, bool, int]]) -> frozenset[int]:
    """Indices of dice read with ``looks``, as many of each as counted there (dice read alike are alike)."""
    left = Counter(looks)
    chosen = []
    for j, die in enumerate(read):
        if left[die] > 0:
            left[die] -= 1
            chosen.append(j)
    return frozenset(chosen)


def _optional(dice: tuple[Expected, ...]) -> Counter[Expected]:
    """The dice that may be gone (a placement's leftovers)."""
    return Counter(die for die in dice if die.optional)


PHANTOM_FACE_COST = math.log(6)
"""A die read that is not there and goes on being read, but with another face: a phantom's face is no
die's face, any of six (it costs this more than staying as it was, and less than a new phantom)."""

PHANTOM_COLOUR_COST = math.log(36)
"""The same on a casino in another colour (of the same size): its colour any of six, and its face."""

_Stayed = tuple[Counter[tuple[str, bool, int]], Counter[tuple[str, bool]], Counter[bool]]
"""The dice read both then and now in a zone: by look, by colour and size, and by size."""


def _extras_kept(read_then: Sequence[tuple[str, bool, int]], extras_then: tuple[int, ...],
                 read_now: Sequence[tuple[str, bool, int]], extras_now: tuple[int, ...],
                 stayed: _Stayed | None) -> tuple[int, int, int]:  # fmt: skip
    """How many dice read that nothing explained then are read still, and still explained by nothing.

    Counted with the same look; besides those, with another face of the same colour and size; besides
    those, in another colour of the same size. Of dice read alike, those an expected die explained then
    are taken to be the ones still read.

    A phantom (a box on a die's side, on a shadow) is no die: what the reader makes of it may change from
    reading to reading, its face (:data:`PHANTOM_FACE_COST`) and on a casino its colour
    (:data:`PHANTOM_COLOUR_COST`), and it is still the same phantom. Traced: a box on the side of a green
    die on casino 5, read as a blue 5, a green 5 and a blue 1 by turns for the whole round, was charged as
    a new phantom at each change of colour, while a history in which the roller had put both his neutral
    dice there (the roll's 6 taken for a 5, the second white die read blue or green by turns: a misread
    colour that flickers costs nothing more) caught up and won (Las Vegas seed 8201, four players with the
    neutral dice and Biggys). Free, a black die among sixteen read blue, yellow and black by turns was
    taken for a phantom that stays whatever it looks like (Royale seed 381, five players). Another size
    is another thing read: a white die read now and then as a white Biggy is that die misread (seed 8144).
    """
    if not stayed:
        return 0, 0, 0
    same = _kept(read_then, extras_then, read_now, extras_now, stayed[0], lambda die: die)
    by_colour = _kept(read_then, extras_then, read_now, extras_now, stayed[1], lambda die: die[:2])
    by_size = _kept(read_then, extras_then, read_now, extras_now, stayed[2], lambda die: die[1])
    return same, max(0, by_colour - same), max(0, by_size - max(same, by_colour))


def _kept(read_then: Sequence[tuple[str, bool, int]], extras_then: tuple[int, ...],
          read_now: Sequence[tuple[str, bool, int]], extras_now: tuple[int, ...],
          stayed: Counter[Any], key: Callable[[tuple[str, bool, int]], Any]) -> int:  # fmt: skip
    unexplained = Counter(key(read_then[j]) for j in extras_then)
    explained = Counter(key(die) for die in read_then) - unexplained
    now = Counter(key(read_now[j]) for j in extras_now)
    return sum(min(n, max(0, stayed[die] - explained[die]), now[die]) for die, n in unexplained.items())


def _by_look(dice: tuple[Expected, ...], fit: _Fit) -> dict[tuple[str, bool, int], list[tuple[bool, float, int]]]:
    """Per look (colour, Biggy, face): whether each such die was missed, its cost in ``fit``, its die read (or -1)."""
    looks: dict[tuple[str, bool, int], list[tuple[bool, float, int]]] = {}
    for die, cost, missed, read in zip(dice, fit.dice, fit.missed, fit.reads, strict=True):
        looks.setdefault((die.colour, die.big, die.pips), []).append((missed, cost, read))
    return looks


def _stayed_paid(was: tuple[Expected, ...], then: _Fit, now: tuple[Expected, ...], fit: _Fit, stay: float | None,
                 read: Sequence[tuple[str, bool, int]] = (), back: Counter[tuple[str, bool, int]] | None = None,
                 read_then: Sequence[tuple[str, bool, int]] = ()) -> float:  # fmt: skip
    """What of the dice that stayed was already charged: per die, what it cost then, at most what it costs now.

    Dice that stayed are as many of each look (colour, Biggy, face) as ``was`` and ``now`` both hold;
    a die is the same die whether or not it may be gone (a roll's dice left in the tray after a
    placement are the roll's dice, now optional). Dice that look alike cannot be told apart, so the
    ones missed then are taken to be the ones missed now, and the dearest then the dearest now (a die
    that was hidden is the one still hidden, not a die just put beside it); but a die read now as one of
    them was read then (``read_then``) is that die first: its reading lasts, and another one went unseen
    (traced: a black die among ten on casino 2 read red for good, and another black die unseen beside it;
    paired the dearest then with the dearest now, the die read red was taken for the one gone unseen and
    its misreading charged again, 10 nats, and a history with blue's pass taken for a blue die placed there
    won; Royale seed 392, five players). A die missed then and now
    is charged its staying hidden (``stay``, when measured), and one read again after a miss the pair
    it is read as (a new reading of it). A die read then and unseen now is charged its miss in full: its
    going unseen is a new error, and a face or colour misread then is no part of it (traced: a roll's 4
    taken for a 5 misread as 4, since that misreading, paid at the roll, was taken as paid for the
    die's going unseen in the tray after the placement, and the true 4 paid its miss in full).

    A die read again after a miss is read anew and charged in full, unless it is read as a die of the
    zone (``back``: read there before the last reading, not in it, and now) was read before it went unseen:
    the reader's error on a die lying still lasts, and coming back as it was it is charged its staying
    (traced: a blue die among eleven on casino 2 read black, unseen, black again, six times in a round; at
    each return the true table paid blue read as black anew, 6 nats, while a history with a third black
    die placed there paid nothing, and won; seed 8144, four players with the neutral dice and Biggys).
    The same for a die read then and now, its face worse now, read now as the zone showed before the last
    reading: its face misread flickers, and comes back (traced: red's 2 on casino 2 read 3, 2, 3 by turns;
    each return to 3 charged the true table a misread face anew, and a history with red's roll misread and
    a 3 placed there won; seed 2162, three players with Biggys). Not its colour: a green die among seven
    yellow ones read yellow by turns, so charged, lost three rounds of a five-player Royale game (seed 341).
    """
    before, after = _by_look(was, then), _by_look(now, fit)
    back = Counter(back) if back else None
    paid = 0.0
    for key, old in before.items():
        new = after.get(key)
        if not new:
            continue
        for (was_missed, then_cost, _), (is_missed, now_cost, j) in _pairs(old, new, read_then, read):
            if not was_missed and is_missed:
                continue  # read then, unseen now: a new error, whatever its reading cost then
            if stay is None or not was_missed:
                face_again = j >= 0 and now_cost > then_cost and read[j][:2] == key[:2]
                if stay is not None and face_again and back and back[read[j]] > 0:  # its face as before: it lasts
                    back[read[j]] -= 1
                    paid += max(then_cost, now_cost - stay)
                else:
                    paid += min(then_cost, now_cost)
            elif is_missed:
                paid += now_cost - stay
            elif j >= 0 and back and back[read[j]] > 0:  # back as it was read before it went unseen: it lasts
                back[read[j]] -= 1
                paid += max(0.0, now_cost - stay)
            # else read again after a miss: its reading is new, charged in full
    return paid


def _pairs(old: list[tuple[bool, float, int]], new: list[tuple[bool, float, int]],
           read_then: Sequence[tuple[str, bool, int]], read: Sequence[tuple[str, bool, int]],
           ) -> list[tuple[tuple[bool, float, int], tuple[bool, float, int]]]:  # fmt: skip
    """Dice of one look then and now taken for the same dice (as many as both hold; see :func:`_stayed_paid`).

    Each die read now as a die of ``old`` was read then is that die; the others go in order, missed dice
    first, then the dearest.
    """
    old, new = sorted(old, reverse=True), sorted(new, reverse=True)
    pairs = []
    if read_then:
        for n in list(new):
            if n[2] < 0:
                continue
            same = next((o for o in old if o[2] >= 0 and read_then[o[2]] == read[n[2]]), None)
            if same is not None:
                old.remove(same)
                new.remove(n)
                pairs.append((same, n))
    return pairs + list(zip(old, new, strict=False))
