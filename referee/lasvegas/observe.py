"""From settled table readings to refereed events: the camera's side of the referee.

A camera cannot say "red places two 3s"; it sees the table change. :class:`Observer` holds the game
state and turns each settled :class:`~referee.readings.TableSnapshot` (a reading taken once the table
is still) into what happened, judged by the rules:

- a roll is the current player's dice appearing in the rolling area (the tray);
- a placement is dice of the player's colour (and neutral dice) appearing on one casino;
- when the last die is placed the round is settled at once; the table must then be cleared
  (no dice on any casino) before the next round's banknotes are dealt;
- the neutral pre-roll (3 players, neutral variant) is the spare neutral dice appearing on casinos.

What does not fit becomes a :class:`Verdict`, never a silent change: an illegal move is an ``alert``
with the rulebook reason (the state is unchanged, the players fix the table), and a reading that
cannot be true (a die on casino 4 showing 3, more dice of a colour than exist) is ``uncertain``: it
is held back, because feeding the referee a reading known to be impossible would corrupt the game.

Dice left in the tray after a placement (the ones the player takes back) are *stale*: they are not a
new roll. The tracker gives every die a track id; stale dice are recognised by those ids, or by
their faces when ids are unknown.

A camera misreads now and then, so a roll is confirmed by its placement: the dice on the chosen casino
and those left in the tray are the roll, read again. A roll that was not seen whole (a die missed)
is taken from its placement; a roll whose placement contradicts it (a 4 read as a 5, and then a die
showing 4 is put on casino 4) is corrected from that second reading, when the second reading is a
legal roll that explains the placement. The correction is an ``event`` verdict with ``replaces`` set.
Likewise a die on casino n can only show n: the faces of dice already placed there are known, and the
player's new dice there are taken to show n when their count is exactly the roll's count of n and no
n is left in the tray (a 2 read as a 3 on casino 2 does not hold the game up); otherwise a face that
is not n is held back as uncertain, or an alert when it is a value of the roll (the wrong casino).

A casino hides a die now and then (two dice touching read as one, a crowd). A casino missing one
placed die while it shows others, or one per four it shows, is taken to hide it, not to have lost it;
likewise one die too many beside a colour's own on a crowded casino is one read twice. A die of the
roll that leaves the tray with a placement and is not seen again went on the casino, hidden: the roll
is read again (it showed the casino's number). A placement seen only in part counts whole when the
tray shows exactly the roll's other dice; a
placement not seen at all is known once the next player has moved (or, for the round's last die, once
the casinos are cleared) when just one value of the roll fits. A placement that left an n in the tray
is an alert, but when the next player moves all the same, the n in the tray was misread: the roll is
read again (``replaces``). Likewise a roll read with fewer dice than the player holds is held back
as uncertain (a die missed), and becomes an alert only when its placement confirms that dice were
held back; once the next player moves all the same, the unseen dice are taken to show the face most
seen among those left (the event's ``reason`` says so: only their count matters to the game).

Example:
    >>> from referee import find_ruleset, new_game, DieReading, TableSnapshot, Colour
    >>> from referee.lasvegas.simulate import Dealer
    >>> import random
    >>> dealer = Dealer(find_ruleset("las-vegas"), random.Random(1))
    >>> observer = Observer(new_game(find_ruleset("las-vegas"), ["red", "blue"]), deal=virtual_deal(dealer))
    >>> red = [DieReading(Colour.RED, False, v) for v in (3, 3, 1, 2, 4, 5, 6, 6)]
    >>> empty = ((),) * 6
    >>> [v.kind for v in observer.observe(TableSnapshot(1, 0.1, empty, tuple(red)))]
    ['event', 'event']
    >>> placed = ((), (), tuple(red[:2]), (), (), ())
    >>> [str(v) for v in observer.observe(TableSnapshot(2, 0.2, placed, tuple(red[2:])))]
    ['red places 2 dice showing 3 on casino 3']
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

from referee.errors import IllegalEventError
from referee.lasvegas.camera import canonical_event
from referee.lasvegas.events import BanknotesDealt, DicePlaced, DiceRolled, Event, NeutralDiceRolled, RoundScored
from referee.lasvegas.narrate import describe
from referee.lasvegas.simulate import Dealer
from referee.lasvegas.state import GameState, Phase, apply
from referee.lasvegas.table import Problem, findings
from referee.readings import DieReading, TableSnapshot
from referee.types import Colour

__all__ = ["Observer", "Verdict", "canonical_history", "seeded_deal", "virtual_deal"]

_K = TypeVar("_K")

_READING_PROBLEMS = (
    Problem.WRONG_NUMBER_OF_CASINOS | Problem.UNKNOWN_COLOUR | Problem.TOO_MANY_DICE_OF_COLOUR
    | Problem.TOO_MANY_BIGGIES | Problem.NEUTRAL_BIGGY | Problem.PIPS_DONT_MATCH_CASINO | Problem.UNREADABLE_PIPS
)  # fmt: skip
"""Problems that say the *reading* is wrong (held back as uncertain), not that a player broke a rule."""

_DICE_PER_HIDDEN = 4
"""A casino showing this many dice may hide one more placed die from the camera (two at twice as many, ...)."""


def _can_hide(shown: int) -> int:
    """How many placed dice a casino showing ``shown`` dice may hide.

    One beside any die (two dice touching read as one), one more per ``_DICE_PER_HIDDEN`` dice in a
    crowd; none on an empty casino.
    """
    return max(1, shown // _DICE_PER_HIDDEN) if shown else 0


@dataclass(frozen=True)
class Verdict:
    """What the referee made of a reading.

    ``kind`` is one of:

    - ``"event"``: ``event`` was accepted; ``state`` is the game after it;
    - ``"alert"``: a move against the rules (``reason`` says which), nothing changed;
    - ``"uncertain"``: the reading cannot be true (``reason``); it is held back until the table settles;
    - ``"cleared"``: the casinos were cleared after a settlement.
    """

    kind: str
    """``event``, ``alert``, ``uncertain`` or ``cleared``."""
    frame_index: int
    """The frame of the reading that led to it."""
    timestamp_s: float
    """That frame's time."""
    reason: str = ""
    """For alerts and uncertain readings: a sentence for the table; for an event, what was assumed."""
    event: Event | None = None
    """For ``event``: the accepted event."""
    before: GameState | None = field(default=None, repr=False)
    """For ``event``: the state the event was applied to."""
    state: GameState | None = field(default=None, repr=False)
    """For ``event``: the state after it."""
    replaces: Event | None = None
    """For ``event``: the last event of the history, a misread roll, that this event replaces
    (``before`` is then the state before that roll)."""

    def __str__(self) -> str:
        if self.kind == "event" and self.event is not None and self.before is not None:
            text = describe(self.event, self.before)
            if self.replaces is not None:
                text += " (the roll read again when its dice were placed)"
            return f"{text} ({self.reason})" if self.reason else text
        if self.kind == "cleared":
            return "the casinos are cleared"
        return self.reason


def virtual_deal(dealer: Dealer) -> Callable[[GameState], BanknotesDealt]:
    """Deals each round from a virtual pile (``referee.lasvegas.simulate.Dealer``), as the web page shows it.

    The notes nobody won in the previous round go under the pile first, as the rulebook says (the
    same order as :func:`referee.lasvegas.simulate.play`, so a seed deals the same game).
    """
    returned: Counter[int] = Counter()

    def deal(state: GameState) -> BanknotesDealt:
        left = Counter(n for e in state.history if isinstance(e, BanknotesDealt) for notes in e.casinos for n in notes)
        left -= Counter(note for notes in state.won for note in notes)
        left -= returned
        returned.update(left)
        dealer.put_under(sorted(left.elements(), reverse=True))
        return dealer.deal(state.ruleset.casinos, state.ruleset.minimum_usd_for(len(state.players)))

    return deal


def seeded_deal(initial: GameState, seed: int, history: Sequence[Event] = ()) -> Callable[[GameState], BanknotesDealt]:
    """:func:`virtual_deal` from ``Dealer(rules, random.Random(seed))``, advanced past a game's history.

    ``seed`` deals what :func:`referee.lasvegas.simulate.play` with that seed deals. After a restart the pile
    must be where it was: every deal already in ``history`` is dealt again (and the leftovers put under
    the pile) while the history is replayed from ``initial``.
    """
    deal = virtual_deal(Dealer(initial.ruleset, random.Random(seed)))
    state = initial
    for event in history:
        if isinstance(event, BanknotesDealt):
            deal(state)
        state = apply(state, event)
    return deal


def canonical_history(history: Sequence[Event]) -> list[Event]:
    """A history with every roll's faces sorted: what a camera can know (which faces, not their order).

    Two games watched and played compare equal by this, e.g. ``canonical_history(watched.history) ==
    canonical_history(truth.history)``.
    """
    return [canonical_event(event) for event in history]


def _colour(die: DieReading) -> Colour:
    return die.colour


def _key(die: DieReading) -> tuple[Colour, bool, int]:
    return die.colour, die.big, die.pips


class Observer:
    """Referees a game from settled table readings; see the module's description.

    Args:
        state: the game so far (a new game, or one resumed from its record).
        deal: called when banknotes are to be dealt; without it the observer waits until
            :meth:`apply` is given the deal (the notes on the physical table, entered by hand).
    """

    def __init__(self, state: GameState, deal: Callable[[GameState], BanknotesDealt] | None = None) -> None:
        self.state = state
        self._deal = deal
        self._awaiting_clear = False
        self._stale: list[DieReading] = []
        self._said: set[tuple[str, str]] = set()
        self._before_roll: GameState | None = None
        self._last_tray: dict[Colour, list[DieReading]] = {}
        """Per colour, its fresh dice in the tray when last seen there since its owner's last event."""
        self._read_twice: set[tuple[Colour, int]] = set()
        """(colour, casino) where a die of that colour is read twice this round (see _without_phantoms)."""

    @property
    def awaiting_clear(self) -> bool:
        """True after a settlement until the casinos are seen empty."""
        return self._awaiting_clear

    def reset(self, state: GameState) -> None:
        """Continues from another state (after a correction undid events): nothing is awaited any more."""
        self.state = state
        self._awaiting_clear = False
        self._stale = []
        self._said.clear()
        self._before_roll = None
        self._last_tray = {}
        self._read_twice.clear()

    def apply(self, event: Event, frame_index: int = 0, timestamp_s: float = 0.0) -> Verdict:
        """Applies an event that did not come from the camera (a deal entered by hand, a correction).

        Raises:
            IllegalEventError: when the rules refuse it (the state is unchanged).
        """
        before = self.state
        self.state = apply(before, event)
        self._said.clear()
        if isinstance(event, DiceRolled):
            self._before_roll = before
            self._last_tray.pop(event.player, None)
            if before.neutral is not None:
                self._last_tray.pop(before.neutral, None)
        elif isinstance(event, DicePlaced):
            self._last_tray.pop(event.player, None)
        return Verdict("event", frame_index, timestamp_s, event=event, before=before, state=self.state)

    def observe(self, snapshot: TableSnapshot) -> list[Verdict]:
        """Judges one settled reading of the table; returns what happened (often nothing)."""
        fresh = _split_tray(snapshot.tray, self._stale)[0]
        for colour in {die.colour for die in fresh}:
            self._last_tray[colour] = [die for die in fresh if die.colour is colour]
        verdicts: list[Verdict] = []
        for _ in range(8):  # a reading can complete several steps (a placement, then the settlement, ...)
            step = self._step(snapshot)
            if not step:
                break
            verdicts += step
            if step[-1].kind in ("alert", "uncertain"):
                break
        return verdicts

    # --- one step -------------------------------------------------------------------------------

    def _step(self, snapshot: TableSnapshot) -> list[Verdict]:
        state = self.state
        if self._awaiting_clear:
            if any(snapshot.casinos):
                return []
            self._awaiting_clear = False
            self._stale = list(snapshot.tray)
            self._read_twice.clear()
            return [Verdict("cleared", snapshot.frame_index, snapshot.timestamp_s)]
        phase = state.phase
        if phase is Phase.OVER:
            return []
        if phase is Phase.DEAL:
            return [self._accept(self._deal(state), snapshot)] if self._deal is not None else []
        if phase is Phase.SETTLE:
            verdict = self._accept(RoundScored(), snapshot)
            self._awaiting_clear = True
            return [verdict]
        if phase is Phase.PLACE and not any(snapshot.casinos):
            last = self._unseen_placement(snapshot, {})
            if last:
                return last
        snapshot = self._implied_faces(self._without_phantoms(self._with_hidden(snapshot)))
        if phase is Phase.PLACE:
            wrong = self._wrong_casino(snapshot)
            if wrong:
                return self._once("alert", wrong, snapshot)
        problems = findings(snapshot, state)
        reading = [text for problem, text in problems if problem & _READING_PROBLEMS]
        if reading:
            return self._once("uncertain", "; ".join(reading), snapshot)
        if problems:  # dice taken off or moved between casinos mid-round
            return self._once("alert", "; ".join(text for _, text in problems) + ": put them back", snapshot)
        if phase is Phase.PREROLL:
            return self._preroll(snapshot)
        if phase is Phase.ROLL:
            return self._roll(snapshot)
        return self._place(snapshot)

    def _accept(self, event: Event, snapshot: TableSnapshot) -> Verdict:
        return self.apply(event, snapshot.frame_index, snapshot.timestamp_s)

    def _once(self, kind: str, reason: str, snapshot: TableSnapshot) -> list[Verdict]:
        """A verdict, said once while the state does not change (the table is read many times a second)."""
        if (kind, reason) in self._said:
            return []
        self._said.add((kind, reason))
        return [Verdict(kind, snapshot.frame_index, snapshot.timestamp_s, reason=reason)]

    def _fresh_tray(self, snapshot: TableSnapshot) -> list[DieReading]:
        """The tray's dice minus the stale ones; forgets the stale dice once they are gone."""
        fresh, self._stale = _split_tray(snapshot.tray, self._stale)
        return fresh

    def _preroll(self, snapshot: TableSnapshot) -> list[Verdict]:
        state = self.state
        expected = state.ruleset.neutral_preroll_for(len(state.players))
        values = tuple(number for number, dice in enumerate(snapshot.casinos, start=1)
                       for die in dice if die.colour is state.neutral)  # fmt: skip
        if len(values) < expected:
            return []
        return self._try(NeutralDiceRolled(values), snapshot)

    def _roll(self, snapshot: TableSnapshot) -> list[Verdict]:
        state = self.state
        player = state.players[state.turn]
        added = _added(snapshot, state, _colour)
        if added:
            neutral = state.neutral
            mine = self._mine(added)
            if len(mine) == 1:  # the roll was not seen whole (a die missed): read it from its placement
                number = mine[0]
                placed = _new_dice(snapshot, state, number)
                tray = self._fresh_tray(snapshot)
                readings = [tray + placed]
                rolled = self._own(tray)
                if not rolled:  # taken back already: the dice last seen in the tray, after or
                    seen = [d for colour, dice in self._last_tray.items() if colour in (player, neutral)
                            for d in dice]  # fmt: skip
                    # before the placement. Dice left after it never show its number (all of them are
                    # placed): a die of that number seen was the placed die, before it moved.
                    left = [d for d in seen if d.pips != number]
                    readings = [left + placed, seen]
                    rolled = self._own(seen)
                refusals = []
                for reading in readings:
                    event = self._roll_event(state, self._own(reading))
                    refusal = _refusal(state, event) if event is not None else "no dice"
                    if not refusal:
                        return [self._accept(event, snapshot)]  # type: ignore[arg-type]
                    refusals.append(refusal)
                others_moved = any(c not in (player, neutral) for dice in added.values() for c in dice) or any(
                    d.colour not in (player, neutral) for d in tray
                )
                if rolled and others_moved:  # the game went on: dice the camera never saw
                    unseen = self._roll_with_unseen(snapshot, self._own(readings[0]), number, added[number])
                    if unseen:
                        return unseen
                if rolled:  # the roll, read with its placement, breaks a rule (dice held back)
                    return self._once("alert", refusals[0], snapshot)
            casinos = ", ".join(str(n) for n in sorted(added))
            return self._once("alert", f"dice appeared on casino {casinos} before {player} rolled: "
                              f"{player} rolls all their dice in the tray first", snapshot)  # fmt: skip
        fresh = self._fresh_tray(snapshot)
        own = self._own(fresh)
        others = sorted({d.colour.value for d in fresh if d not in own and d.colour is not state.neutral})
        if others and not own:
            return self._once("alert", f"{' and '.join(others)} dice were rolled, but it is {player}'s turn", snapshot)
        event = self._roll_event(state, own)
        if event is None:
            return []
        held = _held(state)
        if len(own) < held:  # a die hidden or missed, more often than one held back: its placement will say
            return self._once("uncertain", f"{len(own)} of {player}'s {held} dice read in the tray", snapshot)
        return self._try(event, snapshot)

    def _roll_with_unseen(self, snapshot: TableSnapshot, reading: list[DieReading], number: int,
                          dice: Counter[Colour]) -> list[Verdict]:  # fmt: skip
        """The roll with dice the camera never saw, and its placement, once the next player has moved.

        ``reading`` (the tray and the placement on casino ``number``) lacks dice the player holds; the
        next player moving says the turn is over, so the game goes on: the unseen dice get the face most
        seen among the dice left (not ``number``: they were not placed), said in the verdict's reason.
        Their faces do not matter to the game (the player rolls them again); the count does.
        """
        state = self.state
        player = state.players[state.turn]
        missing = _held(state) - len(reading)
        if missing <= 0:
            return []
        face = _most_seen([d.pips for d in reading], number)
        event = self._roll_event(state, [*reading, *(DieReading(player, False, face) for _ in range(missing))])
        if event is None or not _legal(state, event):
            return []
        rolled_state = apply(state, event)
        placement = _placement(rolled_state, number, dice)
        if not _legal(rolled_state, placement):
            return []
        note = f"{missing} {'die' if missing == 1 else 'dice'} not seen in the tray, taken to show {face}"
        rolled = replace(self._accept(event, snapshot), reason=note)
        self._stale = []  # the tray now holds the next player's dice
        return [rolled, self._accept(placement, snapshot)]

    def _mine(self, added: dict[int, Counter[Colour]]) -> list[int]:
        """The casinos among ``added`` (new dice per casino) holding the current player's or neutral dice."""
        state = self.state
        player, neutral = state.players[state.turn], state.neutral
        return [number for number, dice in added.items() if any(c in (player, neutral) for c in dice)]

    def _own(self, dice: Sequence[DieReading]) -> list[DieReading]:
        """The dice the current player rolls: their own, and the neutral dice they hold."""
        state = self.state
        player, neutral = state.players[state.turn], state.neutral
        return [d for d in dice if d.colour is player or (d.colour is neutral and state.held_neutral[state.turn])]

    @staticmethod
    def _roll_event(state: GameState, own: Sequence[DieReading]) -> DiceRolled | None:
        """The roll the current player's dice ``own`` show (None when there are none)."""
        if not own:
            return None
        player = state.players[state.turn]
        mine = _biggies_by_size([d for d in own if d.colour is player], state.held_biggies[state.turn],
                                state.held_dice[state.turn])  # fmt: skip
        return DiceRolled(
            player,
            tuple(sorted(d.pips for d in mine if not d.big)),
            tuple(sorted(d.pips for d in mine if d.big)),
            tuple(sorted(d.pips for d in own if d.colour is state.neutral)),
        )

    def _last_roll(self) -> tuple[GameState, DiceRolled] | None:
        """The state before the roll and the roll, while the roll is the last event (to be read again)."""
        state, before = self.state, self._before_roll
        last = state.history[-1] if state.history else None
        if before is None or not isinstance(last, DiceRolled) or len(before.history) != len(state.history) - 1:
            return None
        return before, last

    def _reread_roll(self, snapshot: TableSnapshot, number: int) -> list[Verdict]:
        """The roll read again from its placement on casino ``number`` and the tray; else nothing.

        Only when the roll read before does not explain the placement and the second reading, a legal
        roll, does (see the module's description).
        """
        state, last_roll = self.state, self._last_roll()
        if last_roll is None:
            return []
        before, last = last_roll
        own = self._own(self._fresh_tray(snapshot) + _new_dice(snapshot, state, number))
        event = self._roll_event(before, own)
        if event is None or canonical_history([event]) == canonical_history([last]) or not _legal(before, event):
            return []
        rolled = apply(before, event)
        if not _legal(rolled, _placement(rolled, number, _added(snapshot, state, _colour)[number])):
            return []
        return [self._read_again(snapshot, before, event, rolled, last)]

    def _read_again(self, snapshot: TableSnapshot, before: GameState, event: DiceRolled, rolled: GameState,
                    misread: DiceRolled, reason: str = "") -> Verdict:  # fmt: skip
        """Puts ``event`` (giving ``rolled`` from ``before``) in place of the misread roll, the last event."""
        self.state = rolled
        self._said.clear()
        return Verdict("event", snapshot.frame_index, snapshot.timestamp_s, reason=reason, event=event, before=before,
                       state=rolled, replaces=misread)  # fmt: skip

    def _place(self, snapshot: TableSnapshot) -> list[Verdict]:
        state = self.state
        player = state.players[state.turn]
        added = _added(snapshot, state, _colour)
        if not self._mine(added):
            unseen = self._unseen_placement(snapshot, added)
            if unseen:
                return unseen
        if not added:
            return []
        if len(added) > 1:
            caught_up = self._missed_placement(snapshot, added)
            if caught_up:
                return caught_up
            casinos = " and ".join(str(n) for n in sorted(added))
            return self._once("alert", f"dice were put on casinos {casinos}: {player} places the dice of one "
                              "value on the casino of that number", snapshot)  # fmt: skip
        ((number, dice),) = added.items()
        strangers = sorted({c.value for c in dice if c is not player and c is not state.neutral})
        if strangers:
            return self._once("alert", f"{' and '.join(strangers)} dice were put on casino {number}, but it is "
                              f"{player}'s turn", snapshot)  # fmt: skip
        event = _placement(state, number, dice)
        if not _legal(state, event):
            reread = self._reread_roll(snapshot, number)
            if reread:
                return reread  # the placement follows in the next step
            event = self._hidden_placement(snapshot, number, dice) or event
        else:
            gone = self._gone_from_tray(snapshot, number, dice)
            if gone is not None:
                return gone
        verdicts = self._try(event, snapshot)
        if verdicts and verdicts[0].kind == "event":  # the player's leftovers; not the next player's roll, if seen
            self._stale = [d for d in snapshot.tray if d.colour in (player, state.neutral)]
        return verdicts

    def _gone_from_tray(self, snapshot: TableSnapshot, number: int, dice: Counter[Colour]) -> list[Verdict] | None:
        """A placement whose roll left dice that the tray no longer shows: they went on the casino.

        Dice of the roll (as read) that are not ``number`` should lie in the tray until the player takes
        them back. When some are missing there as the placement is seen, and the casino's crowd can hide
        that many (one per :data:`_DICE_PER_HIDDEN` dice placed there before), the placement is held
        back as uncertain while the tray still shows the player's other dice (a die missed for a moment
        shows again). Taken back without those dice seen again, they were dice of ``number`` misread in
        the roll, hidden on the casino: the roll is read again (``replaces``) and the whole placement
        accepted. None when the tray has nothing to say.
        """
        last_roll = self._last_roll()
        if last_roll is None or dice[last_roll[1].player] == 0:
            return None
        before, roll = last_roll
        player = roll.player
        if roll.biggies or roll.neutral or any(c is not player for c in dice):
            return None
        left = [d.pips for d in self._own(_split_tray(snapshot.tray, self._stale)[0])]
        if not left and player not in self._last_tray:  # not seen in the tray since the roll: nothing to tell
            return None
        seen = Counter(left or [d.pips for d in self._last_tray[player]])
        expected = Counter(v for v in roll.dice if v != number)
        missing = expected - seen
        casino = self.state.casinos[number - 1]
        crowd = sum(casino.dice) + sum(casino.biggies) + casino.neutral  # placed before: what a die hides among
        if not missing or seen - expected or missing.total() > crowd // _DICE_PER_HIDDEN:
            return None
        faces = " and ".join(str(v) for v in sorted(missing.elements()))
        if left:
            return self._once("uncertain", f"{player}'s {faces} not seen in the tray since dice went on casino "
                              f"{number}", snapshot)  # fmt: skip
        reread = replace(
            roll, dice=tuple(sorted((Counter(roll.dice) - missing + Counter({number: missing.total()})).elements()))
        )
        if not _legal(before, reread):
            return None
        rolled = apply(before, reread)
        placement = _placement(rolled, number, dice + Counter({player: missing.total()}))
        if not _legal(rolled, placement):
            return None
        reason = f"the {faces} read in the tray went on casino {number}, hidden there"
        return [self._read_again(snapshot, before, reread, rolled, roll, reason), self._accept(placement, snapshot)]

    def _hidden_placement(self, snapshot: TableSnapshot, number: int, dice: Counter[Colour]) -> DicePlaced | None:
        """The placement of all the roll's dice of ``number`` when the tray says so and the casino hides some.

        Fewer new dice than the roll's count of n on casino n, while the tray shows no n and exactly the
        roll's other dice: the rest of the n are on the casino, hidden in its crowd (the rules make the
        player place them all; a die left in the tray would be seen there).
        """
        state = self.state
        roll = state.roll
        assert roll is not None
        player, neutral = roll.player, state.neutral
        left = self._own(_split_tray(snapshot.tray, self._stale)[0])
        full = Counter({player: _of_value(roll, number)})
        if neutral is not None:
            full[neutral] = max(dice[neutral], roll.neutral.count(number))
        rolled = len(roll.dice) + len(roll.biggies) + len(roll.neutral)
        if any(d.pips == number for d in left) or len(left) + full.total() != rolled or not full > dice:
            return None
        if (full - dice).total() > _can_hide(len(snapshot.casinos[number - 1])):
            return None
        event = _placement(state, number, full)
        return event if _legal(state, event) else None

    def _unseen_placement(self, snapshot: TableSnapshot, added: dict[int, Counter[Colour]]) -> list[Verdict]:
        """The current player's placement when none of it was seen, once the next player has moved.

        It lies hidden on a crowded casino. It is known when the next player's dice are seen (rolled in
        the tray or put on a casino), none of the player's are left in the tray, and just one value of
        the roll is a legal placement on a casino that can hide that many dice (:func:`_can_hide`), or
        just one of those is the value missing from the player's dice last seen in the tray. The
        round's last placement (a roll of one value) is known when the players clear the casinos for the
        next round.
        """
        state = self.state
        roll = state.roll
        assert roll is not None
        fresh = _split_tray(snapshot.tray, self._stale)[0]
        if self._own(fresh):
            return []
        candidates = []
        for number in sorted({*roll.dice, *roll.biggies, *roll.neutral}):
            full = Counter({roll.player: _of_value(roll, number)})
            if state.neutral is not None:
                full[state.neutral] = roll.neutral.count(number)
            event = _placement(state, number, full)
            if not _legal(state, event):
                continue
            after = apply(state, event)
            if after.phase is not Phase.ROLL:  # the round's last die: placed, since the table is being cleared
                if not any(snapshot.casinos):
                    candidates.append(event)
                continue
            mover = after.players[after.turn]
            moved = any(d.colour is mover for d in fresh) or any(dice[mover] for dice in added.values())
            if moved and full.total() <= _can_hide(len(snapshot.casinos[number - 1])):
                candidates.append(event)
        left = self._last_tray.get(roll.player)
        if len(candidates) > 1 and left and not roll.neutral:  # the tray last showed all the roll but one value
            rolled = Counter([*roll.dice, *roll.biggies])
            shown = Counter(d.pips for d in left)
            candidates = [e for e in candidates if rolled - Counter({e.casino: rolled[e.casino]}) == shown]
        if len(candidates) != 1:
            return []
        self._stale = []  # the tray now holds the next player's dice
        return [self._accept(candidates[0], snapshot)]

    def _missed_placement(self, snapshot: TableSnapshot, added: dict[int, Counter[Colour]]) -> list[Verdict]:
        """The current player's placement, when it was missed and the next player has moved since.

        Dice on several casinos at once are a catch-up when the current player's (and neutral) dice lie
        on just one of them and are a legal placement: it is accepted, and the other casinos' dice are
        then the next player's roll and placement (read from the table, see :meth:`_roll`).
        """
        mine = self._mine(added)
        if len(mine) != 1:
            return []
        number = mine[0]
        event = _placement(self.state, number, added[number])
        verdicts = []
        if not _legal(self.state, event):
            verdicts = self._misread_leftover(snapshot, number, added[number])
            if not verdicts:
                return []
            event = _placement(self.state, number, added[number])  # against the roll read again
        self._stale = []  # the tray now holds the next player's dice, not this player's leftovers
        return [*verdicts, self._accept(event, snapshot)]

    def _misread_leftover(self, snapshot: TableSnapshot, number: int, dice: Counter[Colour]) -> list[Verdict]:
        """The roll read again when its placement left an n behind and the game went on all the same.

        The placement of fewer dice than the roll's n on casino n was an alert ("left a 3 in the tray");
        the next player moving says the players saw no n left: the die read as n in the tray was
        misread both times. The roll is corrected (``replaces``): those dice show the face most seen
        among the roll's others, said in the verdict's reason.
        """
        state, last_roll = self.state, self._last_roll()
        if last_roll is None:
            return []
        before, roll = last_roll
        left = roll.dice.count(number) - dice[roll.player]
        if left <= 0 or roll.biggies.count(number) or (state.neutral is not None and dice[state.neutral]):
            return []
        face = _most_seen(roll.dice, number)
        faces = sorted([v for v in roll.dice if v != number] + [number] * dice[roll.player] + [face] * left)
        event = replace(roll, dice=tuple(faces))
        if not _legal(before, event):
            return []
        reason = (
            f"{left} {'die' if left == 1 else 'dice'} read as {number} in the tray taken to show {face}: "
            "the game went on"
        )
        return [self._read_again(snapshot, before, event, apply(before, event), roll, reason)]

    def _with_hidden(self, snapshot: TableSnapshot) -> TableSnapshot:
        """The snapshot with the placed dice a crowded casino hides from the camera put back.

        Dice touching, one in another's shadow, are now and then read as one: a casino missing no more
        placed dice than it can hide (:func:`_can_hide`) is taken to hide them. A casino missing more
        has had dice taken off (an alert; a single die taken off a casino that still shows dice goes
        unnoticed, the price of not stopping the game at every missed die).
        """
        expected = TableSnapshot.from_state(self.state)
        casinos = []
        for seen, placed in zip(snapshot.casinos, expected.casinos, strict=False):
            lost = Counter(d.colour for d in placed) - Counter(d.colour for d in seen)
            if 0 < lost.total() <= _can_hide(len(seen)):
                hidden = []
                for die in placed:  # Biggy or not, as placed
                    if lost[die.colour] > 0:
                        hidden.append(die)
                        lost[die.colour] -= 1
                seen = (*seen, *hidden)
            casinos.append(tuple(seen))
        return replace(snapshot, casinos=tuple(casinos))

    def _without_phantoms(self, snapshot: TableSnapshot) -> TableSnapshot:
        """The snapshot without the dice nobody can have: one die read twice in a crowd.

        A player has only so many dice; when more of a colour are read, the extra ones on casinos
        holding more of them than were placed there are phantoms: a player who is not placing puts no
        dice there, and the player placing puts on casino n no more than the roll's dice of n that are
        not still in the tray. When the count cannot tell (the player still holds dice), a single extra
        die showing n beside the colour's own placed dice on a crowded casino n (:data:`_DICE_PER_HIDDEN`
        dice or more) is still one read twice when its player is not moving now (or has rolled all
        their dice in the tray, or placed no more of that value), and so is a single extra die showing
        a face no die on that casino can show, of a player not placing now (a box found in the crowd,
        its colour and face made up). Such a die stays a phantom on that casino for the round (its
        player's turn comes with it still there), and goes first when a count says a die is too many.
        A player putting a die there out of turn is told when their turn comes: it is then part of no roll.
        """
        state = self.state
        rules = state.ruleset
        allowed = rules.dice_per_player + rules.biggies_per_player
        roll = state.roll if state.phase is Phase.PLACE else None
        counts = Counter(die.colour for die in snapshot.all_dice())
        added = _added(snapshot, state, _colour)
        fresh = _split_tray(snapshot.tray, self._stale)[0]
        in_tray = Counter(d.pips for d in fresh if roll and d.colour is roll.player)
        rolling = state.phase is Phase.ROLL and len(self._own(fresh)) < _held(state)
        mover = state.players[state.turn] if rolling else None  # a die of theirs may be a move; judged in _roll
        placed = TableSnapshot.from_state(state).casinos
        casinos = [list(dice) for dice in snapshot.casinos]
        for colour in state.players:
            excess = counts[colour] - allowed
            for number in sorted(range(1, len(casinos) + 1), key=lambda n: (colour, n) not in self._read_twice):
                dice = casinos[number - 1]
                extra = added.get(number, Counter())[colour]
                if roll is not None and colour is roll.player:
                    extra -= max(0, _of_value(roll, number) - in_tray[number])
                phantom = None
                if extra == 1 and excess <= 0:  # no count tells: one read twice, by where it lies
                    phantom = self._phantom(colour, number, dice, placed[number - 1], mover)
                if phantom is not None:
                    dice.remove(phantom)
                while extra > 0 and excess > 0:
                    dice.remove(next(d for d in reversed(dice) if d.colour is colour))
                    extra, excess = extra - 1, excess - 1
        return replace(snapshot, casinos=tuple(map(tuple, casinos)))

    def _phantom(self, colour: Colour, number: int, seen: list[DieReading], placed: tuple[DieReading, ...],
                 mover: Colour | None) -> DieReading | None:  # fmt: skip
        """The die of ``colour`` read on crowded casino ``number`` that is not there, or None.

        Called for a colour with one die more on the casino than placed (see :meth:`_without_phantoms`):
        a copy showing ``number`` beside the colour's placed dice, or a box with a face no die there can
        show, of a player not placing. Remembered for the round (``mover`` is judged in :meth:`_roll`
        unless its die was seen so before).
        """
        if len(seen) < _DICE_PER_HIDDEN or (colour is mover and (colour, number) not in self._read_twice):
            return None
        state = self.state
        placing = state.phase is Phase.PLACE and state.roll is not None and colour is state.roll.player
        mine = sum(d.colour is colour for d in placed)
        copies = [d for d in seen if d.colour is colour and d.pips == number]
        strays = [d for d in seen if d.colour is colour and d.pips != number]
        if 0 < mine < len(copies):
            phantom = copies[-1]
        elif len(strays) == 1 and not placing:
            phantom = strays[0]
        else:
            return None
        self._read_twice.add((colour, number))
        return phantom

    def _implied_faces(self, snapshot: TableSnapshot) -> TableSnapshot:
        """The snapshot with the faces a die on casino n must show set to n, where nothing else can be.

        Per casino and colour: when no more dice lie there than the state has placed, they are all
        placed dice; when the current player's new dice (and neutral ones) match their roll's count of
        n, with no n left in the tray, they are the placement of that value (see the module's description).
        """
        state = self.state
        added = _added(snapshot, state, _colour)
        explained = self._explained_placements(snapshot) if state.phase is Phase.PLACE else set()
        casinos = []
        for number, seen in enumerate(snapshot.casinos, start=1):
            more = added.get(number, Counter())
            casinos.append(tuple(
                replace(die, pips=number) if die.pips != number and (not more[die.colour] or number in explained)
                else die
                for die in seen
            ))  # fmt: skip
        return replace(snapshot, casinos=tuple(casinos))

    def _explained_placements(self, snapshot: TableSnapshot) -> set[int]:
        """The casinos whose new dice are exactly the current roll's dice of that casino's value."""
        state = self.state
        roll = state.roll
        assert roll is not None
        player, neutral = roll.player, state.neutral
        added = _added(snapshot, state, _colour)
        if len(added) != 1:
            return set()
        ((number, dice),) = added.items()
        left = [d.pips for d in self._own(_split_tray(snapshot.tray, self._stale)[0])]
        counts_match = dice[player] == _of_value(roll, number) and (
            neutral is None or dice[neutral] == roll.neutral.count(number)
        )
        strangers = any(colour not in (player, neutral) for colour in dice)
        return {number} if counts_match and not strangers and number not in left else set()

    def _wrong_casino(self, snapshot: TableSnapshot) -> str:
        """The reason when the player's new dice on a casino show another value of the roll.

        A face that is not in the roll at all is a misreading instead, and is held back as uncertain.
        """
        state = self.state
        roll = state.roll
        assert roll is not None
        rolled = {*roll.dice, *roll.biggies, *roll.neutral}
        faces = _added(snapshot, state, lambda d: d.pips if d.colour in (roll.player, state.neutral) else None)
        for number, new in sorted(faces.items()):
            for value in sorted(v for v in new if v is not None):
                if value != number and value in rolled:
                    return (f"{roll.player} put dice showing {value} on casino {number}: dice go on the casino "
                            f"of their value (casino {value})")  # fmt: skip
        return ""

    def _try(self, event: Event, snapshot: TableSnapshot) -> list[Verdict]:
        try:
            return [self._accept(event, snapshot)]
        except IllegalEventError as error:
            return self._once("alert", str(error), snapshot)


def _split_tray(tray: Sequence[DieReading], stale: list[DieReading]) -> tuple[list[DieReading], list[DieReading]]:
    """The tray's fresh dice (not left from the last placement), and the stale dice still to look out for.

    With track ids the stale dice are known by them, and forgotten once none of them is in the tray;
    without, they stay stale while the tray shows a part of them, unchanged.
    """
    tray = list(tray)
    if not stale:
        return tray, stale
    stale_tracks = {die.track for die in stale if die.track >= 0}
    if stale_tracks:
        fresh = [die for die in tray if die.track not in stale_tracks]
        gone = len(fresh) == len(tray) and not (Counter(map(_key, tray)) & Counter(map(_key, stale)))
        return fresh, [] if gone else stale
    if not Counter(map(_key, tray)) - Counter(map(_key, stale)):
        return [], stale
    return tray, []


def _held(state: GameState) -> int:
    """The dice the current player holds and must roll: normal, Biggys and neutral."""
    turn = state.turn
    return state.held_dice[turn] + state.held_biggies[turn] + state.held_neutral[turn]


def _of_value(roll: DiceRolled, number: int) -> int:
    """The roll's own dice (normal and Biggy) showing ``number``."""
    return roll.dice.count(number) + roll.biggies.count(number)


def _most_seen(faces: Sequence[int], other_than: int) -> int:
    """The face most often among ``faces`` that is not ``other_than`` (the lowest of a tie; 1 or 2 if none)."""
    counts = Counter(f for f in faces if f != other_than)
    return min(counts, key=lambda f: (-counts[f], f)) if counts else (2 if other_than == 1 else 1)


def _refusal(state: GameState, event: Event) -> str:
    """Why the rules refuse ``event`` in ``state`` ("" when they accept it)."""
    try:
        apply(state, event)
    except IllegalEventError as error:
        return str(error)
    return ""


def _legal(state: GameState, event: Event) -> bool:
    return not _refusal(state, event)


def _placement(state: GameState, number: int, dice: Counter[Colour]) -> DicePlaced:
    """The placement of the current player's dice (counted by colour in ``dice``) on casino ``number``.

    Which of the placed dice is the Biggy is known from the roll (sizes are hard to read); the count of
    the player's dice is what the camera sees.
    """
    player, roll = state.players[state.turn], state.roll
    assert roll is not None
    normal, big = roll.dice.count(number), roll.biggies.count(number)
    seen = dice[player]
    if seen != normal + big:
        big = min(big, seen)
        normal = seen - big
    neutral = dice[state.neutral] if state.neutral is not None else 0
    return DicePlaced(player, number, normal, big, neutral)


def _new_dice(snapshot: TableSnapshot, state: GameState, number: int) -> list[DieReading]:
    """The dice read on casino ``number`` beyond those the state has placed there."""
    placed = Counter(map(_key, TableSnapshot.from_state(state).casinos[number - 1]))
    new = []
    for die in snapshot.casinos[number - 1]:
        if placed[_key(die)] > 0:
            placed[_key(die)] -= 1
        else:
            new.append(die)
    return new


def _added(snapshot: TableSnapshot, state: GameState, key: Callable[[DieReading], _K]) -> dict[int, Counter[_K]]:
    """Per casino, the dice read there beyond what the state has placed, counted by ``key``."""
    expected = TableSnapshot.from_state(state)
    added: dict[int, Counter[_K]] = {}
    for number, (seen, placed) in enumerate(zip(snapshot.casinos, expected.casinos, strict=True), start=1):
        more = Counter(map(key, seen)) - Counter(map(key, placed))
        if more:
            added[number] = more
    return added


def _biggies_by_size(dice: list[DieReading], biggies: int, normal: int) -> list[DieReading]:
    """A roll's dice with the Biggys told by size, when the count is right but the sizes were misjudged.

    The player's ``biggies`` largest dice are the Biggys (a Biggy is half as large again as a die); the
    reading stays as it is when the count is wrong (the rules will say so) or sizes are unknown.
    """
    if len(dice) != biggies + normal or sum(d.big for d in dice) == biggies or any(d.size_mm <= 0 for d in dice):
        return dice
    largest = set(sorted(range(len(dice)), key=lambda i: -dice[i].size_mm)[:biggies])
    return [replace(d, big=i in largest) for i, d in enumerate(dice)]
