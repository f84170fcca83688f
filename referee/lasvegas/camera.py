"""Las Vegas seen from the table: the game's side of the camera interpreter (:mod:`referee.interpret`).

It says what a state's table shows (per zone: 0 the tray, 1-6 the casinos) and which legal events
may explain a reading:

- a roll: the dice of the player to roll read in the tray (their own colour, and the neutral dice
  they hold); dice not seen are filled in every way when one or two are missing, and when more are
  missing two of them in every way and the others with each face seen, the most seen first (their
  placement or the player's next roll tells which was right); with at most one die unseen, each die
  seen (the neutral ones too) may show the faces it is most often misread from (a 4 read as 5 is told
  by the casino it goes to);
- a roll with its placement, when the dice are on a casino before the roll was read whole (a roll none
  of whose dice was read in the tray costs :data:`UNSEEN_ROLL`); when the next player's dice lie in the
  tray, also followed by that roll, and the dice not seen may have stayed in the tray (not the placed face);
- each legal placement, alone or followed by the next player's roll (a placement not seen);
- a pass where the rules have one (Royale: a chip paid, the roll taken back from the tray), alone or
  followed by the next player's roll, at the prior cost :data:`PASS_COST`; with the next player's roll in the
  tray and this player's never read, his roll and pass not seen (a pass leaves nothing on the table);
- the neutral pre-roll: the casinos' dice, taken as the spare neutral dice.

Example:
    >>> from referee import find_ruleset, new_game, DieReading, TableSnapshot, Colour
    >>> from referee.interpret import Interpreter
    >>> from referee.lasvegas.events import BanknotesDealt
    >>> deal = BanknotesDealt(((60_000,), (50_000,), (90_000,), (70_000,), (20_000, 30_000), (10_000, 40_000)))
    >>> interpreter = Interpreter(LasVegasCamera(), new_game(find_ruleset("las-vegas"), ["red", "blue"]),
    ...                           deal=lambda state: deal)
    >>> red = [DieReading(Colour.RED, False, v) for v in (3, 3, 1, 2, 4, 5, 6, 6)]
    >>> [str(v) for v in interpreter.observe(TableSnapshot(1, 0.1, ((),) * 6, tuple(red)))][1]
    'red rolls 1 2 3 3 4 5 6 6'
    >>> placed = ((), (), tuple(red[:2]), (), (), ())
    >>> [str(v) for v in interpreter.observe(TableSnapshot(2, 0.2, placed, tuple(red[2:])))]
    ['red places 2 dice showing 3 on casino 3']
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from referee.errors import IllegalEventError
from referee.game import game_of
from referee.interpret.decode import Candidate
from referee.interpret.model import ObservationModel
from referee.interpret.table import Expected, Reading, Seen, Table
from referee.lasvegas import GAME
from referee.lasvegas.events import DicePlaced, DiceRolled, Event, NeutralDiceRolled, Passed, RoundScored
from referee.lasvegas.hooks import extra_dice
from referee.lasvegas.state import (
    GameState,
    Phase,
    apply,
    legal_pass,
    legal_placements,
    nowhere_to_place,
    place_all,
)
from referee.lasvegas.table import Problem, findings
from referee.readings import DieReading, TableSnapshot
from referee.types import Colour

__all__ = ["LasVegasCamera", "canonical_event", "canonical_history"]

_MAX_FILLED = 2
"""Dice missing from a roll's reading that are filled in every way (the others: with each face seen)."""
_MAX_MISREAD_FILLED = 1
"""A roll's seen dice may be misread only when at most this many are missing (each misreading is tried with
one way of filling them in: the face of a die not seen matters only once it is placed)."""
UNSEEN_ROLL = 3.0
"""The prior cost (nats) of a roll never read in the tray, only its placement: the camera sees each roll
come to rest unless the hand comes back at once. Free, it was as likely as a die read twice on the
casino: a black 1 read twice among ten dice was taken for black's last roll and placement, and the
round was settled there, before black's true roll was read (seed 4073)."""
PASS_COST = 3.0
"""The prior cost (nats) of a pass (Royale: a chip paid, the roll taken back), about 5 % of the turns after a
roll: dearer than waiting while the roll lies in the tray, cheaper than a whole roll gone missing once the tray
is empty with no die placed. At 4.0, a lone die rolled and taken back at the end of a round (players passing
one die in turn) was weighed near a die read that is not there (5.0) and its pass against nothing new: three
passes in a row were lost (5 players, seed 341). Chosen on those games (2.0, 2.5, 3.0,
3.5 and 4.0 tried; 2.0, the simulated players' 13 % of passes, took dice hidden on a casino for passes) and
measured on games never tuned on (README)."""
BIGGY_BY_SIZE_COST = 3.0
"""The prior cost (nats) of a roll's Biggy being another die than the one its size chose (the reader marked
none, or too many): the size says something, little among dark dice (a black Biggy measured 22 mm in the tray
beside black dice of 25 mm). The dice placed tell (a normal die read as a Biggy on a casino costs about 7).
At 1.0 a roll passed at once kept two histories in doubt over which die was its Biggy, and the table was asked
(main game, seed 341); at 3.0, the margin, it never is. Tried on seeds 341-342 and 351-352: 0, 1 and 3."""
UNSEEN_MISREAD_COST = 9.0
"""The prior cost (nats) of a die seen taken to show a face never seen read as what was read (beside what the
observation model's floor charges; :meth:`ObservationModel.confusable`): believed only where the dice placed
strain every other history beyond an alert. Free, one of yellow's two 2s put on casino 2, unseen there for a
while, was taken for a 6 misread as a 2, and his chips went wrong (Royale main game 432, five players, camera
alone); at 9 the three 2s and a 4 that were four 2s (main game 444) are still told by the dice placed. Tried
on those and basic game 440: 0, 3, 6 and 9."""
READ_TWICE_COST = 3.0
"""The prior cost (nats) of a roll read with another die than the oldest left out as the one read twice
(:func:`_read_twice`): the dice placed and left must tell it, not a history that needs a die fewer. Free, a
history in which blue had put a die on casino 6 (a green die there read blue) took blue's next roll of three
dice, 5 3 and a Biggy 3, for 3 and a Biggy with the 5 read twice, and the pass before it was lost (Royale seed
397, five players). 0 and 3 tried (the traced games and the saved games of every table)."""
_MAX_COMBINATIONS = 64
"""Neutral pre-roll readings tried at most (dice on the casinos taken as the spare neutral dice)."""


class LasVegasCamera:
    """The Las Vegas :class:`~referee.interpret.decode.Game`; see the module's description.

    Args:
        model: the observation model whose pip confusions suggest the faces a die may really show.
    """

    def __init__(self, model: ObservationModel | None = None) -> None:
        self.model = model or ObservationModel.default()
        self._tables: dict[tuple[Hashable, DiceRolled | None, tuple[Expected, ...]], Table] = {}
        # each face a die read as ``face`` may show, likeliest first, with its prior cost (see _misread)
        self._misread_from = {
            face: tuple(
                (true, 0.0 if self.model.confusable(true, face) else UNSEEN_MISREAD_COST)
                for true in self.model.misread_from(face, 5)
            )
            for face in range(1, 7)
        }

    # --- the table ------------------------------------------------------------------------------

    @staticmethod
    def apply(state: GameState, event: Event) -> GameState:
        """:func:`referee.lasvegas.state.apply`."""
        return apply(state, event)

    @staticmethod
    def reading(snapshot: TableSnapshot) -> Reading:
        """Zone 0 the tray, 1-6 the casinos."""
        zones: dict[int, Sequence[DieReading]] = {0: snapshot.tray}
        zones.update({number: dice for number, dice in enumerate(snapshot.casinos, start=1)})
        return zones

    def expected(self, state: GameState) -> Table:
        """The dice on each casino; in the tray the roll to place, or (optional) the last placement's leftovers."""
        last, rolled = _tray_events(state)
        leftovers = _leftovers(last) if state.phase is not Phase.PLACE else None
        extra = _extra_dice(rolled)
        key = (self.key(state), leftovers, extra)
        table = self._tables.get(key)
        if table is None:
            if len(self._tables) > 20_000:
                self._tables.clear()
            table = self._tables[key] = _expected(state, leftovers, extra)
        return table

    @staticmethod
    def key(state: GameState) -> Hashable:
        """What the rest of the round depends on: histories that reach the same key have the same future."""
        return GAME.key(state)

    @staticmethod
    def canonical(event: Event) -> Hashable:
        """A roll with its faces sorted (a camera cannot tell their order)."""
        return canonical_event(event)

    @staticmethod
    def askable(event: Event) -> bool:
        """Not a roll (the faces of dice since taken back, or never seen, the table cannot tell): a move."""
        return not isinstance(event, DiceRolled | NeutralDiceRolled)

    @staticmethod
    def describe(event: Event, before: GameState) -> str:
        """The event in words, by the state's game (Royale narrates its own events too)."""
        narrated: str = game_of(before).narrate(event, before)
        return narrated

    @staticmethod
    def forced(state: GameState) -> Event | None:
        """The settlement, once the last die is placed (and nothing the table must enter is pending)."""
        return RoundScored() if state.phase is Phase.SETTLE and state.pending is None else None

    @staticmethod
    def round_over(event: Event) -> bool:
        """The settlement ends a round: the casinos are cleared before the next deal."""
        return isinstance(event, RoundScored)

    @staticmethod
    def cleared(reading: Reading) -> bool:
        """No dice on any casino."""
        return not any(dice for zone, dice in reading.items() if zone)

    @staticmethod
    def needs_deal(state: GameState) -> bool:
        """Banknotes are dealt at the start of every round (and a game's own dealt steps: Royale's tiles, bank)."""
        pending = state.pending
        return pending.dealt if pending is not None else state.phase is Phase.DEAL

    @staticmethod
    def waits_for(state: GameState) -> str:
        """A step the table answers on the page (Royale's black dice, a tile's decision), in words; else ""."""
        pending = state.pending
        return pending.what if pending is not None and not pending.dealt else ""

    def read_step(self, state: GameState, reading: Reading) -> Event | None:
        """The roll of dice no player owns the pending step waits for (Royale's 2 black dice), read in the tray.

        The dice of that colour beyond those the tray should hold (a black player's leftovers) are the roll,
        the newest first; None until as many as it rolls are read. The same dice rolled again (Fifty Fifty's
        next sum) lie there as the roll before until they land: read showing other faces, they are the new
        roll; showing the same (one time in 18 or so), the page says.
        """
        pending = state.pending
        if pending is None or pending.dealt or pending.rolled is None:
            return None
        colour, count = pending.rolled
        expected = self.expected(state).get(0, ())
        before = sorted(e.pips for e in expected if e.group == _STEP_DICE)
        tray = [d for d in reading.get(0, ()) if d.colour is colour and not d.big]
        # A black player's leftovers lie there too: his normal dice (the roll's dice are normal; counted with his
        # Biggy, the roll was read only once a die too many was read, and the newest two were his leftover 1
        # come back and that die: Royale main game 425, round 3). The dice read as his leftovers read are his.
        leftovers = Counter(e.pips for e in expected if e.colour == colour.value and e.group != _STEP_DICE
                            and not e.big)  # fmt: skip
        if len(tray) < leftovers.total() + count:
            return None
        others = []
        for die in sorted(tray, key=lambda d: d.track):  # the oldest taken for his first
            if leftovers[die.pips]:
                leftovers[die.pips] -= 1
            else:
                others.append(die)
        faces = sorted(d.pips for d in _newest(others if len(others) >= count else tray, count))
        if faces == before:
            return None  # the roll before, still lying there (or the same faces again)
        event: Event = pending.accepts[0](tuple(faces))
        return event

    # --- the candidates -------------------------------------------------------------------------

    def candidates(self, state: GameState, reading: Reading) -> Iterator[Candidate]:
        """Legal event sequences that may explain ``reading`` (see the module's description)."""
        if state.phase is Phase.ROLL:
            yield from self._rolls(state, reading, with_placements=True)
        elif state.phase is Phase.PLACE:
            passed = legal_pass(state)  # Royale: a chip paid, the dice taken back from the tray
            if passed is not None:
                # Where a tile forbids every value rolled the pass is the only move: no prior against it (traced:
                # a lone 6 with casino 6 blocked was taken for a die read that was not there, seed 331).
                forced = nowhere_to_place(state)
                cost = 0.0 if forced else PASS_COST
                note = "nowhere to place: the dice go back" if forced else "the dice taken back: a pass"
                yield Candidate((passed,), cost, note)
                after = apply(state, passed)
                if after.phase is Phase.ROLL:
                    for roll in self._rolls(after, reading, with_placements=False, fill=1):
                        yield Candidate((passed, *roll.events), cost + roll.cost, roll.note, roll.variant)
            player, neutral = state.players[state.turn], state.neutral
            for placement in legal_placements(state):
                there = reading.get(placement.casino, ())
                shown = Counter(d.colour for d in there)
                placed_shown = shown[player] + (shown[neutral] if neutral is not None else 0)
                lying = sum(e.colour in (player.value, getattr(neutral, "value", ""))
                            for e in self.expected(state).get(placement.casino, ()))  # fmt: skip
                yield Candidate(
                    (placement,), self._stale_cost(reading, placement, there, placed_shown - lying, neutral)
                )
                if placed_shown <= lying:
                    continue  # nothing new there: this placement was not made before the reading
                placed = apply(state, placement)
                if placed.phase is Phase.ROLL:
                    for roll in self._rolls(placed, reading, with_placements=False, fill=1):
                        yield Candidate((placement, *roll.events), roll.cost, roll.note, roll.variant)
        elif state.phase is Phase.PREROLL:
            yield from _prerolls(state, reading)

    def _stale_cost(
        self, reading: Reading, placement: DicePlaced, there: Sequence[DieReading], extra: int, neutral: Colour | None
    ) -> float:
        """What a placement's dice not seen cost where the casino shows the player's look only on dice lying there.

        The table's cost matches dice by their looks: a die of the player's colour read on the casino beyond
        those he put there before (another's die misread, a phantom) would be taken for the die just put,
        free; but where the tracker read it lying there at the reading before (:class:`Seen`), it is not the
        die put since, and that die is unseen: its miss is charged here. Traced: green's pass taken for a
        placement on casino 4, where one of black's dice among nine had been read green for good since
        before green rolled (Royale main game 427, five players).
        """
        if not isinstance(reading, Seen) or extra <= 0:
            return 0.0
        mine = {placement.player, neutral}
        fresh = sum(d.colour in mine and not reading.lay_before(placement.casino, d) for d in there)
        stale = min(placement.dice + placement.biggies + placement.neutral, extra) - fresh
        return max(0, stale) * self.model.miss_cost(len(there), "casino", placement.player.value)

    @staticmethod
    def unseen(state: GameState) -> Iterator[Candidate]:
        """Moves the camera did not see at all, for a round's end not seen (the casinos cleared with it not over).

        The player to roll rolls every die he holds showing one value, not seen, and places them all (each
        value): the round's end in the fewest moves, where the last table read decides which (its dice not
        seen there are misses). A roll read and its placement not seen are among :meth:`candidates` already.
        """
        if state.phase is not Phase.ROLL:
            return
        for value in range(1, len(state.casinos) + 1):
            roll = _showing(state, value)
            try:
                rolled = apply(state, roll)
                placement = place_all(rolled, value)
                apply(rolled, placement)
            except IllegalEventError:
                continue
            yield Candidate((roll, placement), UNSEEN_ROLL, f"a roll of {value}s not seen")

    def _rolls(self, state: GameState, reading: Reading, *, with_placements: bool,
               fill: int = _MAX_FILLED) -> Iterator[Candidate]:  # fmt: skip
        """The rolls the tray may show (and with ``with_placements``, a roll placed before it was read whole)."""
        player = state.players[state.turn]
        neutral = state.neutral
        held = state.held(state.turn)
        tray = reading.get(0, ())
        tray_own = [d for d in tray if d.colour is player]
        own = _newest(tray_own, held[0] + held[1])
        mine = _newest([d for d in tray if d.colour is neutral], held[2]) if held[2] else []
        if own or mine:
            yield from self._filled(state, own, mine, held, fill, variants=True, group=0)
            # One die read twice: each look read taken for it, then with a face misread or another Biggy as well
            # (the plain ones first: the same roll is said with the fewest assumptions).
            twice = list(_read_twice(tray_own, own, held[0] + held[1]))
            for variants in (False, True):
                for dice, face in twice:
                    for candidate in self._filled(state, dice, mine, held, fill, variants=variants, group=0,
                                                  plain=not variants):  # fmt: skip
                        note = f"{candidate.note}; " if candidate.note else ""
                        cost = candidate.cost + READ_TWICE_COST
                        yield replace(candidate, cost=cost, note=f"{note}a {face} read twice", variant="twice")
        if not with_placements:
            return
        before = self.expected(state)
        # Another player's dice in the tray: the game has gone on, so this player's roll and placement were
        # made and not read (a hand over the tray), and the next roll lies there; the dice not seen may have
        # stayed in the tray. With nothing else to show for it, a die on a casino and no roll read is a die
        # put there before the roll (an alert). Traced: green's roll and placement of one 3 were never
        # read, and with black's roll in the tray four 3s were booked on casino 3 where one lay (seed 3093).
        moved_on = any(d.colour is not player and d.colour is not neutral for d in tray)
        for number in range(1, len(state.casinos) + 1):
            was = Counter(e.colour for e in before.get(number, ()))
            now = Counter(d.colour.value for d in reading.get(number, ()))
            new_own = max(0, now[player.value] - was[player.value])
            new_neutral = max(0, now[neutral.value] - was[neutral.value]) if neutral is not None and held[2] else 0
            if not new_own and not new_neutral:
                continue
            there = reading.get(number, ())
            ours = {player, neutral}
            fresh = sum(d.colour is player and not (isinstance(reading, Seen) and reading.lay_beside(d, ours))
                        for d in there)  # fmt: skip
            if new_own > fresh:
                # The tracker read them lying there while another player's dice lay in the tray: put there before
                # this turn began, not in it (traced: a blue phantom read for good among eight on casino 2 from
                # green's turn on, its size read now normal, now Biggy, was taken at blue's turn for his roll and
                # placement, unseen; his true roll then was out of turn, Royale main game 424, five players).
                continue
            placed = [replace(d, pips=number) for d in there if d.colour is player][-new_own:] if new_own else []
            placed_neutral = [replace(d, pips=number) for d in there if d.colour is neutral][-new_neutral:] if (
                new_neutral) else []  # fmt: skip
            unseen = len(placed) >= held[0] + held[1] and len(placed_neutral) >= held[2]  # none of it in the tray
            # the new dice on the casino first: with more dice read than held, a die read in the tray goes
            for candidate in self._filled(state, placed + own, placed_neutral + mine, held, fill, variants=False,
                                          group=number, placed_face=number if moved_on else 0):  # fmt: skip
                try:
                    rolled = apply(state, candidate.events[0])
                    placement = place_all(rolled, number)
                    after = apply(rolled, placement)
                except IllegalEventError:
                    continue
                cost = candidate.cost + (UNSEEN_ROLL if unseen else 0.0)
                yield Candidate((*candidate.events, placement), cost, candidate.note, candidate.variant)
                if moved_on and after.phase is Phase.ROLL:  # and the next roll, read in the tray
                    for roll in self._rolls(after, reading, with_placements=False, fill=1):
                        yield Candidate((*candidate.events, placement, *roll.events), cost + roll.cost,
                                        candidate.note, candidate.variant)  # fmt: skip
        if moved_on:
            yield from self._unseen_pass(state, reading)

    def _unseen_pass(self, state: GameState, reading: Reading) -> Iterator[Candidate]:
        """A roll and a pass neither read (both within a few seconds, under a hand), then the next roll, read.

        A pass leaves nothing on the table: the next player's roll in the tray is all that shows it. Traced:
        green rolled and passed within two seconds, no reading settled between, and with black's roll read
        "while it is green's turn" the referee explained nothing more of the round (5 players, seed 341).
        The faces of a roll never read are not known and do not matter once it is taken back: it is booked
        showing 1s (said in the note); a pass a tile would force for those faces is not taken for one.
        """
        if state.ruleset.hooks.pass_cost is None:  # no pass in these rules (Las Vegas): nothing to try
            return
        player = state.players[state.turn]
        roll = _showing(state, 1)
        try:
            rolled = apply(state, roll)
        except IllegalEventError:
            return
        passed = legal_pass(rolled)
        if passed is None or nowhere_to_place(rolled):
            return
        after = apply(rolled, passed)
        if after.phase is not Phase.ROLL:
            return
        note = f"{player}'s roll and pass not read (the roll booked as 1s: its faces are unknown)"
        for seen in self._rolls(after, reading, with_placements=False, fill=1):
            yield Candidate((roll, passed, *seen.events), UNSEEN_ROLL + PASS_COST + seen.cost, note, seen.variant)

    def _filled(self, state: GameState, own: list[DieReading], mine: list[DieReading], held: tuple[int, int, int],
                fill: int, *, variants: bool, group: Hashable, placed_face: int = 0, plain: bool = True,
                ) -> Iterator[Candidate]:  # fmt: skip
        """The roll of ``own`` and ``mine`` (neutral) dice, the dice not seen filled in (see the module).

        ``variants``: with a die seen misread, or another taken for the Biggy, too; ``plain`` False: those alone.

        The ways of filling them in are one group (``group``, see :attr:`Candidate.variant`): as likely as
        each other until those dice are seen; a misreading is a candidate of its own. With ``placed_face``
        (a roll read from its placement on that casino, the game gone on), the dice not seen beyond those
        filled in every way may also show a face other than the placed one: left in the tray unseen and
        taken back, not hidden on the casino.
        """
        player = state.players[state.turn]
        normal, biggies, neutral_held = held
        own = own[: normal + biggies]
        mine = mine[:neutral_held]
        big = _biggies(own, biggies, normal + biggies)
        read_big = [d.big for d in own]
        faces = [d.pips or 1 for d in own]
        neutral_faces = [d.pips or 1 for d in mine]
        missing_own = normal + biggies - len(own)
        missing_neutral = neutral_held - len(mine)
        missing = missing_own + missing_neutral
        fills: Iterator[tuple[int, ...]]
        if missing > fill:  # too many to fill in every way: the others show a face seen (the most seen first)
            seen = Counter(faces + neutral_faces)
            shown = sorted(seen, key=lambda f: (-seen[f], f)) or [1]
            if placed_face and all(face == placed_face for face in shown):
                shown.append(1 if placed_face != 1 else 2)
            free = list(itertools.combinations_with_replacement(range(1, 7), fill))
            rests = ((face,) * (missing - fill) + rest for face in shown for rest in free)
            fills = iter(dict.fromkeys(tuple(sorted(faces_filled)) for faces_filled in rests))
            note = f"{missing} dice not seen in the tray"
        else:
            fills = itertools.combinations_with_replacement(range(1, 7), missing)
            note = f"{missing} {'die' if missing == 1 else 'dice'} not seen in the tray" if missing else ""
        big_missing = min(biggies - sum(big), missing_own)
        flags = big + [True] * big_missing + [False] * (missing_own - big_missing)
        for n, extra in enumerate(fills):
            extra_own, extra_neutral = list(extra[:missing_own]), list(extra[missing_own:])
            all_faces, all_neutral = faces + extra_own, neutral_faces + extra_neutral
            filled = note + (f" (taken to show {' '.join(map(str, extra))})" if extra else "")
            if plain:
                roll = _roll(player, all_faces, flags, all_neutral)
                yield Candidate((roll,), 0.0, filled, group if missing else None)
            # a die seen misread, with the first fill only: with every fill the beam would hold little else
            if variants and missing <= _MAX_MISREAD_FILLED and not n:
                for faces_now, neutral_now, misread, prior in self._misread(all_faces, flags, all_neutral, len(faces),
                                                                            len(neutral_faces)):  # fmt: skip
                    yield Candidate((_roll(player, faces_now, flags, neutral_now),), prior,
                                    f"{filled}; {misread}" if filled else misread)  # fmt: skip
                by_size = BIGGY_BY_SIZE_COST if big != read_big else 0.0  # the Biggy chosen by size, or as read
                for flags_now, swapped in _biggy_swaps(all_faces, flags, len(faces)):
                    yield Candidate((_roll(player, all_faces, flags_now, all_neutral),), by_size,
                                    f"{filled}; {swapped}" if filled else swapped)  # fmt: skip
            if variants and missing <= _MAX_MISREAD_FILLED:  # the Biggy among the dice not seen, with each fill
                for flags_now, swapped in _biggy_unseen(flags, len(faces), missing_own):
                    yield Candidate((_roll(player, all_faces, flags_now, all_neutral),), 0.0, f"{filled}; {swapped}")

    def _misread(self, faces: list[int], flags: list[bool], neutral: list[int], seen: int, seen_neutral: int,
                 ) -> Iterator[tuple[list[int], list[int], str, float]]:  # fmt: skip
        """A roll's faces with one die seen taken to show another face, what was assumed, and its prior cost.

        The dice seen are the first ``seen`` of ``faces`` and the first ``seen_neutral`` of ``neutral``. Every
        other face is tried, the likeliest first; the table's cost prices each by the observation model, and a
        face never seen read so costs ``UNSEEN_MISREAD_COST`` more. Trying only the two a face is most often
        misread from lost rounds the dice placed told plainly: black's Biggy 1 read as a normal 2 (a 1 the
        third), the largest die, so taken for the Biggy as a 2, 3 or 4, and his die and Biggy put on casino 1
        booked as a die alone (Royale basic game 440, five players); yellow's four 2s read as three 2s and a 4
        (never seen), the four put on casino 2 booked as three (Royale main game 444, five players).
        """
        tried = set()
        for i, face in enumerate(faces[:seen]):
            if (face, flags[i]) in tried:
                continue
            tried.add((face, flags[i]))
            for true, prior in self._misread_from[face]:
                other = list(faces)
                other[i] = true
                yield other, neutral, f"a die read as {face} taken to show {true}", prior
        for face in sorted(set(neutral[:seen_neutral])):  # a neutral die misread, the same way
            for true, prior in self._misread_from[face]:
                others = list(neutral)
                others[others.index(face)] = true
                yield faces, others, f"a neutral die read as {face} taken to show {true}", prior

    # --- an alert's reason ----------------------------------------------------------------------

    @staticmethod
    def diagnose(state: GameState, snapshot: TableSnapshot) -> str:
        """Why the reading fits no legal move, in a sentence for the table ("" when nothing is clearly wrong).

        Casinos cleared while the round is not over are the round's end, some moves of it not seen, not dice
        taken off (traced: Royale main game 403, a placement on Block It's casino unseen and taken for a pass;
        the table, cleared after the round's last die, was told to put back every die of every casino).
        """
        playing = state.phase in (Phase.ROLL, Phase.PLACE)
        if playing and any(casino.has_dice for casino in state.casinos) and not any(snapshot.casinos):
            holding = [str(player) for seat, player in enumerate(state.players) if any(state.held(seat))]
            hold = "holds" if len(holding) == 1 else "hold"
            return (f"the casinos were cleared, but the round is not over ({' and '.join(holding)} still {hold} "
                    "dice): enter the moves not seen, or undo")  # fmt: skip
        problems = findings(snapshot, state)
        taken = [text for problem, text in problems if problem & Problem.DICE_REMOVED_MID_ROUND]
        if taken:
            return "; ".join(taken) + ": put them back"
        counted = [text for problem, text in problems if problem & Problem.TOO_MANY_DICE_OF_COLOUR]
        if counted:
            return "; ".join(counted)
        if state.phase not in (Phase.ROLL, Phase.PLACE):
            return ""
        player = state.players[state.turn]
        before = TableSnapshot.from_state(state)
        added = {}
        for number, (seen, placed) in enumerate(zip(snapshot.casinos, before.casinos, strict=False), start=1):
            more = Counter(d.colour for d in seen) - Counter(d.colour for d in placed)
            if more:
                added[number] = more
        if state.phase is Phase.ROLL:
            if added:
                casinos = ", ".join(str(n) for n in sorted(added))
                return (f"dice appeared on casino {casinos} before {player} rolled: {player} rolls all their dice "
                        "in the tray first")  # fmt: skip
            others = sorted({d.colour.value for d in snapshot.tray if d.colour not in (player, state.neutral)})
            return f"{' and '.join(others)} dice were rolled, but it is {player}'s turn" if others else ""
        roll = state.roll
        assert roll is not None
        for number, more in sorted(added.items()):
            if more[player] or (state.neutral is not None and more[state.neutral]):
                big = min(roll.biggies.count(number), more[player])
                event = DicePlaced(player, number, more[player] - big, big,
                                   more[state.neutral] if state.neutral is not None else 0)  # fmt: skip
                try:
                    apply(state, event)
                except IllegalEventError as error:
                    return str(error)
            strangers = sorted(c.value for c in more if c not in (player, state.neutral))
            if strangers:
                return f"{' and '.join(strangers)} dice appeared on casino {number}, but it is {player}'s turn"
        return ""


def canonical_event(event: Event) -> Event:
    """The event as a camera can know it: a roll's faces sorted (which faces, not their order)."""
    if isinstance(event, DiceRolled):
        return replace(event, dice=tuple(sorted(event.dice)), biggies=tuple(sorted(event.biggies)),
                       neutral=tuple(sorted(event.neutral)))  # fmt: skip
    if isinstance(event, NeutralDiceRolled):
        return replace(event, values=tuple(sorted(event.values)))
    if getattr(event, "tray_colour", None) is not None:  # dice no player owns (Royale's black dice)
        rolled: Any = event
        return replace(rolled, values=tuple(sorted(rolled.values)))  # type: ignore[no-any-return]
    return event


def canonical_history(history: Sequence[Event]) -> list[Event]:
    """A history with every roll's faces sorted: what a camera can know (which faces, not their order).

    Two games watched and played compare equal by this, e.g. ``canonical_history(watched.history) ==
    canonical_history(truth.history)``.
    """
    return [canonical_event(event) for event in history]


def _tray_events(state: GameState) -> tuple[tuple[Event, ...], Any]:
    """What the tray shows follows from: the last two events before the steps since the last move, and a roll.

    The steps since the last move (a tile's roll or decision, a count entered) move no player's dice; the two
    events before them come oldest first, and the roll is the newest of those steps that rolled dice no player
    owns (Royale's black dice), or None. One walk back through the log for both (the table of every candidate
    state asks for them).
    """
    log, rolled = state.log, None
    while log is not None and not isinstance(log[1], _MOVES):
        log, event = log
        if rolled is None and getattr(event, "tray_colour", None) is not None:
            rolled = event
    last: list[Event] = []
    while log is not None and len(last) < 2:
        log, event = log
        last.append(event)
    return tuple(reversed(last)), rolled


def _extra_dice(rolled: Any) -> tuple[Expected, ...]:
    """The dice no player owns that ``rolled`` (:func:`_tray_events`) left lying in the tray.

    Optional, as a group of their own: they lie there through the steps that follow (a tile's decision; Fifty
    Fifty's next roll replaces them) and are taken away at the next move, apart from the player's leftovers.
    """
    if rolled is None:
        return ()
    return tuple(Expected(rolled.tray_colour.value, False, value, optional=True, group=_STEP_DICE)
                 for value in rolled.values)  # fmt: skip


def _expected(state: GameState, leftovers: DiceRolled | None, extra: tuple[Expected, ...] = ()) -> Table:
    neutral = state.neutral.value if state.neutral is not None else ""
    players = tuple(player.value for player in state.players)
    zones: dict[int, tuple[Expected, ...]] = {}
    for number, casino in enumerate(state.casinos, start=1):
        dice = _casino_dice(number, players, casino.dice, casino.biggies, casino.neutral if neutral else 0, neutral)
        if dice:
            zones[number] = dice
    for number, colour, count in extra_dice(state):  # a tile's dice (Royale's grey dice), seen like any other
        zones[number] = (*zones.get(number, ()), *[Expected(colour.value, False, number)] * count)
    if state.phase is Phase.PLACE and state.roll is not None:  # the roll waiting to be placed is its tray
        tray = _roll_dice(state.roll, neutral, optional=False)
        if tray:
            zones[0] = tray
    elif leftovers is not None:
        zones[0] = _roll_dice(leftovers, neutral, optional=True)
    if extra:
        zones[0] = (*zones.get(0, ()), *extra)
    return zones


@functools.lru_cache(maxsize=8192)
def _casino_dice(number: int, players: tuple[str, ...], dice: tuple[int, ...], biggies: tuple[int, ...], neutral: int,
                 neutral_colour: str) -> tuple[Expected, ...]:  # fmt: skip
    """The dice on casino ``number``, in the order :func:`~referee.lasvegas.table.snapshot_of` lists them.

    Made once per content: a candidate changes one casino, the others hold the same dice as in every other.
    """
    lying: list[Expected] = []
    for player, normal, big in zip(players, dice, biggies, strict=True):
        lying += [Expected(player, False, number)] * normal + [Expected(player, True, number)] * big
    return (*lying, *[Expected(neutral_colour, False, number)] * neutral)


def _roll(player: Colour, faces: list[int], big: list[bool], neutral: list[int]) -> DiceRolled:
    """The roll of ``faces`` (``big`` says which are Biggys) and the neutral dice's faces."""
    return DiceRolled(
        player,
        tuple(sorted(f for f, b in zip(faces, big, strict=True) if not b)),
        tuple(sorted(f for f, b in zip(faces, big, strict=True) if b)),
        tuple(sorted(neutral)),
    )


def _showing(state: GameState, value: int) -> DiceRolled:
    """A roll never read: every die the player to roll holds, booked showing ``value``."""
    normal, big, neutral = state.held(state.turn)
    return _roll(state.players[state.turn], [value] * (normal + big), [False] * normal + [True] * big,
                 [value] * neutral)  # fmt: skip


def _roll_dice(roll: DiceRolled, neutral: str, *, optional: bool) -> tuple[Expected, ...]:
    player = roll.player.value
    return (*[Expected(player, False, v, optional) for v in roll.dice],
            *[Expected(player, True, v, optional) for v in roll.biggies],
            *[Expected(neutral, False, v, optional) for v in roll.neutral])  # fmt: skip


def _leftovers(last: tuple[Event, ...]) -> DiceRolled | None:
    """The dice the last placement left in the tray (the player takes them back), as a roll; None if none.

    ``last``: the two events before the steps since (:func:`_tray_events`): steps that move no player's dice
    after it (a tile's roll or decision, a count entered) leave them there.
    """
    if len(last) < 2:
        return None
    roll, placed = last
    if isinstance(placed, Passed) and isinstance(roll, DiceRolled):
        return roll  # a pass: the whole roll goes back to the player's hand
    if not isinstance(placed, DicePlaced) or not isinstance(roll, DiceRolled):
        return None
    value = placed.casino
    return DiceRolled(
        roll.player,
        tuple(v for v in roll.dice if v != value),
        tuple(v for v in roll.biggies if v != value),
        tuple(v for v in roll.neutral if v != value),
    )


_STEP_DICE = 1
"""The :attr:`Expected.group` of dice no player owns rolled for a step (a player's leftovers are group 0)."""

_MOVES = (DiceRolled, DicePlaced, Passed, RoundScored, NeutralDiceRolled)
"""Events that move dice (what a tile's steps, the counts entered and the deals are not)."""


def _newest(dice: list[DieReading], count: int) -> list[DieReading]:
    """At most ``count`` of ``dice``, the most recently tracked first kept (older ones are leftovers)."""
    if len(dice) <= count:
        return dice
    return sorted(dice, key=lambda d: -d.track)[:count]


def _read_twice(tray: list[DieReading], kept: list[DieReading], count: int) -> Iterator[tuple[list[DieReading], str]]:
    """The roll read in the tray with another die than ``kept`` left out: one die read twice.

    More of a player's dice read in the tray than he holds are older dice left there (the newest kept,
    :func:`_newest`) or one die read twice (a Biggy read as a Biggy and as a normal die beside it, two
    dice touching read as three); which one the dice placed and the leftovers tell. Each look read is
    tried as the one read twice (the others kept newest first), with what was assumed. Traced: red's
    roll of seven dice and a Biggy 3 read with nine dice, the Biggy also read as a normal 3; the newest
    eight kept one 3 too many and lost a 4, no roll tried held the true faces, the referee asked which
    of two wrong rolls it was while the table played on, and three players' moves were booked wrong
    (Royale seed 391, five players).
    """
    if len(tray) <= count:
        return
    seen = {tuple(sorted((d.pips, d.big) for d in kept))}
    oldest = sorted(tray, key=lambda d: d.track)
    for look in dict.fromkeys((d.pips, d.big) for d in tray):
        twice = next(d for d in oldest if (d.pips, d.big) == look)
        rest = _newest([d for d in tray if d is not twice], count)
        faces = tuple(sorted((d.pips, d.big) for d in rest))
        if faces not in seen:
            seen.add(faces)
            yield rest, f"{'Biggy ' if look[1] else ''}{look[0]}"


def _biggies(own: list[DieReading], biggies: int, total: int) -> list[bool]:
    """Which of a roll's dice read are Biggys (``total`` held, ``biggies`` of them Biggys).

    As read when that fits; when the whole roll is read and the count is wrong, the largest dice on
    the table plane (when their sizes are known) are the Biggys. A Biggy not read stays among the dice
    not seen.
    """
    flags = [d.big for d in own]
    sized = all(d.size_mm > 0 for d in own)
    if sum(flags) == biggies or (len(own) < total and sum(flags) < biggies) or not sized:
        if sum(flags) > biggies:  # too many read as Biggys and no sizes: the first ones
            chosen = [i for i, f in enumerate(flags) if f][:biggies]
            return [i in chosen for i in range(len(own))]
        return flags
    order = sorted(range(len(own)), key=lambda i: -own[i].size_mm)[:biggies]
    return [i in order for i in range(len(own))]


def _biggy_swaps(faces: list[int], flags: list[bool], seen: int) -> Iterator[tuple[list[bool], str]]:
    """A roll's Biggy flags with a Biggy seen taken for a normal die seen of another face, and what was assumed.

    Dark dice in the tray read alike in size (a black Biggy measured 26 mm beside black dice of 25 to 26 mm),
    so the reader may take a normal die for the Biggy, or none; the dice placed tell which it was. Traced:
    black's Biggy 4 read as a normal 4 and his 2 taken for the Biggy (the largest read), so his Biggy on
    casino 4 was booked as a normal die; black's 3 read as the Biggy and his Biggy 6 as a normal 6 (Royale
    seeds 352 and 351, five and four players).
    """
    tried = set()
    for b in range(seen):
        if not flags[b]:
            continue
        for i in range(seen):
            if flags[i] or faces[i] == faces[b] or (faces[b], faces[i]) in tried:
                continue
            tried.add((faces[b], faces[i]))
            swapped = list(flags)
            swapped[b], swapped[i] = False, True
            yield swapped, f"the Biggy taken to be the die read as {faces[i]}"


def _biggy_unseen(flags: list[bool], seen: int, missing: int) -> Iterator[tuple[list[bool], str]]:
    """A roll's Biggy flags with the die seen as the Biggy taken for a normal die, and the Biggy not seen.

    The reader may take a normal die for the Biggy while the Biggy itself is not read; the dice placed tell
    (the Biggy not seen is filled in with each face, as the dice not seen are). Traced: red's roll read with a
    normal 2 read as the Biggy and the Biggy 4 not seen; no roll tried held a Biggy 4, so red's Biggy and die
    put on casino 4 were taken for dice put there before the roll (an alert), and the histories that booked a
    normal 4 there lost red's pass later in the round (Royale seeds 401 and 402, five players).
    """
    unseen = next((i for i in range(seen, seen + missing) if not flags[i]), None)  # the dice not seen are alike
    if unseen is None:
        return
    for b in range(seen):
        if flags[b]:
            swapped = list(flags)
            swapped[b], swapped[unseen] = False, True
            yield swapped, "the die read as the Biggy a normal die, the Biggy not seen"


def _prerolls(state: GameState, reading: Reading) -> Iterator[Candidate]:
    """The spare neutral dice's pre-roll: the casinos' dice (any colour read) taken as those dice.

    Dice of it not read (missed on their casino) are filled in with every face, as a roll's are.
    """
    count = state.ruleset.neutral_preroll_for(len(state.players))
    dice = [number for number, ds in reading.items() if number for _ in ds]
    tried = 0
    for seen in range(min(count, len(dice)), max(0, count - _MAX_FILLED) - 1, -1):
        for chosen in sorted(set(itertools.combinations(sorted(dice), seen))):
            for filled in itertools.combinations_with_replacement(range(1, 7), count - seen):
                tried += 1
                if tried > _MAX_COMBINATIONS:
                    return
                note = f"{count - seen} not seen, taken to show {' '.join(map(str, filled))}" if filled else ""
                event = NeutralDiceRolled(tuple(sorted(chosen + filled)))
                yield Candidate((event,), 0.0, note, chosen if filled else None)
