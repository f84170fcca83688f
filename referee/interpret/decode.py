"""The camera interpreter: each settled reading explained by the most likely legal history.

A camera cannot say "red places two 3s"; it reads the table. For each settled reading the
interpreter asks the game for the legal next events that could explain it (a roll of the dice held,
each placement, a neutral pre-roll, and short sequences of them when a move was not seen), applies
them to every history in a small beam, and scores each resulting table by how likely the reading is
if that table lay there (:class:`~referee.interpret.model.ObservationModel`: misread faces and
colours, missed dice, dice read twice). Costs add up over the readings, so a die missed in one
reading and seen in the next, or a roll whose hidden die only its placement reveals, is decided by
all the evidence, not by one frame.

What it says (:class:`Verdict`):

- ``event``: the events every history within :attr:`Interpreter.margin` nats of the best agree on,
  once; a later reading that makes another history that much better revises them: the first new
  event carries ``replaces`` (the first event taken back) and ``undone`` (how many);
- ``uncertain``: the two best histories disagree on what just happened (said once per pair): the
  table is asked;
- ``alert``: even the best legal history explains the reading badly (a move against the rules, or
  dice taken off): the game's diagnosis of the reading is the reason; nothing changes;
- ``cleared``: after a settlement, the table was cleared.

The interpreter knows no game: a :class:`Game` supplies its legal moves seen from the table, the
table a state shows, its diagnosis of a misfit and when a round is over.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from referee.errors import IllegalEventError
from referee.interpret.model import ObservationModel
from referee.interpret.table import Reading, Seen, Table, TableCost
from referee.types import Colour

__all__ = ["Candidate", "Game", "Interpreter", "Verdict"]


@dataclass(frozen=True)
class Verdict:
    """What the interpreter made of a reading (see the module's description)."""

    kind: str
    """``event``, ``alert``, ``uncertain`` or ``cleared``."""
    frame_index: int
    timestamp_s: float
    reason: str = ""
    """For alerts and uncertain readings: a sentence for the table; for an event, what was assumed."""
    event: Any = None
    before: Any = field(default=None, repr=False)
    state: Any = field(default=None, repr=False)
    replaces: Any = None
    """For a revision: the first event of the history taken back (``before`` is the state before it)."""
    undone: int = 0
    """For a revision: how many events were taken back (the last ``undone`` of the history)."""
    candidates: tuple[tuple[str, float], ...] = ()
    """The histories weighed, as (their last events in words, cost above the best in nats)."""
    text: str = ""
    """The event in words (set by the interpreter from the game's narration)."""
    options: tuple[Any, ...] = ()
    """For an uncertain reading: the two answers asked about, the first event where the two best histories
    part (None: nothing happened); the table answers with :meth:`Interpreter.choose`."""

    def __str__(self) -> str:
        if self.kind == "event":
            text = self.text
            if self.replaces is not None:
                text += " (read again: an earlier reading taken back)"
            return f"{text} ({self.reason})" if self.reason else text
        if self.kind == "cleared":
            return "the casinos are cleared"
        return self.reason


@dataclass(frozen=True)
class Candidate:
    """A sequence of events that may explain a reading, with its prior cost (nats)."""

    events: tuple[Any, ...]
    cost: float = 0.0
    note: str = ""
    """What it assumes, said with the event (e.g. "1 die not seen, taken to show 4")."""
    variant: Hashable = None
    """Candidates of one history with the same ``variant`` (not None) are one explanation with the dice not
    seen filled in differently: as likely as each other until those dice are seen, they take one place in
    the beam together (the face of a die not seen is decided when it is seen)."""


class Game(Protocol):
    """What the interpreter needs of a game."""

    def apply(self, state: Any, event: Any) -> Any:
        """The state after ``event``; raises ``IllegalEventError`` when the rules refuse it."""

    def reading(self, snapshot: Any) -> Reading:
        """The dice read per zone."""

    def expected(self, state: Any) -> Table:
        """The dice ``state`` says lie per zone."""

    def candidates(self, state: Any, reading: Reading) -> Iterable[Candidate]:
        """Legal next event sequences that may explain ``reading``."""

    def key(self, state: Any) -> Hashable:
        """Two states with the same key have the same future (their histories merge)."""

    def describe(self, event: Any, before: Any) -> str:
        """The event in words."""

    def forced(self, state: Any) -> Any:
        """The event the rules make next without a move (a settlement), or None."""

    def round_over(self, event: Any) -> bool:
        """True for the event that ends a round (the table is then cleared before play goes on)."""

    def cleared(self, reading: Reading) -> bool:
        """True when the table shows no dice in play (after a round)."""

    def needs_deal(self, state: Any) -> bool:
        """True when chance must be dealt (banknotes) before anyone moves."""

    def waits_for(self, state: Any) -> str:
        """What the table must enter before the camera can go on, in words; "" when nothing.

        A decision, or a roll of dice no player owns (Royale's black dice): the page asks for it (and a roll
        may be read meanwhile: :meth:`read_step`).
        """

    def read_step(self, state: Any, reading: Reading) -> Any:
        """The event the step :meth:`waits_for` names, read on the table; None when not seen (or no roll).

        Royale's black dice rolled in the tray: the camera answers the step as the page would.
        """

    def diagnose(self, state: Any, snapshot: Any) -> str:
        """Why the reading fits no legal move (an alert's reason)."""

    def canonical(self, event: Any) -> Hashable:
        """The event as a camera can know it (e.g. a roll's faces sorted)."""

    def unseen(self, state: Any) -> Iterable[Candidate]:
        """Moves no reading shows (tried only at a round's end not seen: the table cleared with it not over)."""

    def askable(self, event: Any) -> bool:
        """True when the table can say whether this event or another happened (a move: what a player did).

        False for chance it may no longer see (a roll's faces, its dice since taken back).
        """


@dataclass(frozen=True)
class _Moment:
    """When the table answered (what :meth:`Interpreter._say` needs of a reading)."""

    frame_index: int
    timestamp_s: float


@dataclass(frozen=True)
class _History:
    state: Any
    events: tuple[Any, ...]
    """Events since the interpreter's anchor (the last state no history disputes)."""
    cost: float
    notes: tuple[str, ...]
    """Per event, what was assumed."""
    table: Any = None
    """The table this history said lay there at the last reading."""
    group: Hashable = None
    """Histories with the same group (not None) take one place in the beam (see :attr:`Candidate.variant`)."""


COMPLETION_MOVES = 12
"""Moves at most that the round's end not seen may hold (a roll and a placement a turn)."""

RESIDUAL = 1.0
"""Nats of misfit that are no error: the dice read as they lie cost a hundredth of a nat each, an error
that lasts a fortieth at each reading; the cheapest error the reader makes, a die missed in a pile of
sixteen, costs 2."""


class Interpreter:
    """Referees a game from settled readings; see the module's description.

    Args:
        game: the game's side (:class:`Game`).
        state: the game so far.
        deal: called when chance must be dealt (banknotes); without it the interpreter waits for :meth:`apply`.
        model: the reader's observation model; by default the game's own (``game.model``: a camera built
            with a model prices its candidates in it, and the interpreter then prices readings alike),
            else the shipped one.
        beam: how many histories are kept.
        margin: nats by which a history must beat every other that disagrees before its events are said.
        event_cost: the prior cost of each event (a move is less likely than no move between two readings).
        most: how many histories are kept at all, counting each one of a group (the ways of filling in
            dice not seen) apart.
        alert_cost: the cost of what changed in one reading, under the best history, above which nothing
            is said from it; the misfit of whole readings summed while each passes a third of it (and is
            more than one die hidden, at whatever the model prices it: :meth:`TableCost.hidden`), above
            which the reading is an alert, when the game finds what is wrong with it.
        prompts: say what the table is to enter (:meth:`Game.waits_for`) as an ``uncertain`` verdict when it is
            first asked; False where entries are routine and the page shows them anyway (Just 4 Fun's cards).
        hidden_forgiven: one die hidden, and nothing else, never strains (the dice reader's commonest lasting
            error); False for a reader that does not hide what lies there (Just 4 Fun's stones: a stone gone is
            a stone taken off).
    """

    def __init__(self, game: Game, state: Any, deal: Callable[[Any], Any] | None = None,
                 model: ObservationModel | None = None, *, beam: int = 24, margin: float = 3.0,
                 event_cost: float = 0.5, alert_cost: float = 14.0, most: int = 48,
                 prompts: bool = True, hidden_forgiven: bool = True) -> None:  # fmt: skip
        self.game = game
        self.model = model or getattr(game, "model", None) or ObservationModel.default()
        self.beam = beam
        self.most = max(most, beam)
        self.margin = margin
        self.event_cost = event_cost
        self.alert_cost = alert_cost
        self.hidden_forgiven = hidden_forgiven
        self.prompts = prompts
        self._deal = deal
        self._reading_before: Reading = {}
        """The last reading (:class:`Seen`'s ``before``; kept through a reset)."""
        self._company: dict[int, frozenset[Colour]] = {}
        """Per id of a die read on a casino, the colours read in the tray beside it (:class:`Seen`)."""
        self.reset(state)

    @property
    def one_error(self) -> float:
        """A reading whose misfit passes this has more than about one error (unless it is one die hidden)."""
        return self.alert_cost / 3

    # --- what the pipeline calls -----------------------------------------------------------------

    @property
    def awaiting_clear(self) -> bool:
        """True after a round until the table is seen cleared."""
        return self._awaiting_clear

    def reset(self, state: Any) -> None:
        """Continues from ``state`` (after a correction): every history but that one is forgotten."""
        self.state = state
        self._anchor = state
        self._histories = [_History(state, (), 0.0, ())]
        self._readings = 0
        """Readings decoded since the reset (groups are told apart by the reading that made them)."""
        self._previous: TableCost | None = None
        """The reading before, scored (what each history's table cost then)."""
        self._last_table: Reading | None = None
        """The last reading of a table not cleared (what lay there when the casinos were cleared)."""
        self._said: list[Any] = []
        """The events said since the anchor."""
        self._awaiting_clear = False
        self._spoken: set[tuple[str, str]] = set()
        self._standing: float | None = None
        """While the misfit of the last alert lasts, the reading's misfit when it was said: another alert is
        said only when the misfit grows by ``one_error`` (a new error), or once it has ended."""
        self._doubt_before: frozenset[str] | None = None
        self._question: tuple[int, tuple[Any, ...], Any] | None = None
        """The last question asked: where its histories part (events since the reset), its answers and the
        state where they part."""
        self._committed = 0
        """Events the anchor has moved past since the reset."""
        self._asked = ""
        """What the table was last asked to enter (:meth:`Game.waits_for`), so it is asked once."""
        self._held: Hashable | None = None
        """The state key of the best history of the reading before, when that reading was held back."""
        self._strain = 0.0
        """The misfit of the best history summed over the readings in a row it explains with more
        than about one error (a misread face costs about 9 nats, a die read that is not there 5 to 6), one
        die hidden alone apart (2 to 7 nats by the crowd: what the reader does most, and it lasts)."""

    def apply(self, event: Any, frame_index: int = 0, timestamp_s: float = 0.0) -> Verdict:
        """Applies an event that did not come from the camera (a deal entered by hand, a correction).

        Raises:
            IllegalEventError: when the rules refuse it (nothing changes).
        """
        before = self.state
        after = self.game.apply(before, event)
        self.reset(after)
        return Verdict("event", frame_index, timestamp_s, event=event, before=before, state=after,
                       text=self.game.describe(event, before))  # fmt: skip

    def answer(self, event: Any, frame_index: int = 0, timestamp_s: float = 0.0) -> list[Verdict]:
        """Applies what the table entered on the page (:meth:`Game.waits_for`), then what follows by itself.

        What follows: the settlement after the last die, once nothing else is awaited. The answer goes to every
        history waiting for that step (``_answered``), not to the one said alone: a rival further behind than
        the margin may still come to lead (traced: yellow's second 2 on casino 2 unseen, his placement said as
        one die 4.7 nats ahead; Block It's grey dice entered for blue forgot every other history, and when that
        die was read again and yellow's next roll held a die fewer, none was left to explain them: casino 2
        settled a die short, Royale main game 432, five players). Histories at another step are dropped, as the
        page says where the game is, unless one within the margin disputes what was said. The next reading is
        weighed whole, as after :meth:`reset`: the answer changed the table each history expects (a tile's grey
        dice) with no reading between, and weighing only what changed since the reading before lost whole rounds
        once rivals were kept (Royale main game 430 round 1, 433 round 3, five players).

        Raises:
            IllegalEventError: when the rules refuse it (nothing changes).
        """
        if len(self._histories) > 1:
            verdicts = [self._answered(event, frame_index, timestamp_s, others=self._in_doubt())]
        else:
            verdicts = [self.apply(event, frame_index, timestamp_s)]
        if not self.game.waits_for(self.state):
            verdicts += self._settle(frame_index, timestamp_s)
        return verdicts

    def _answered(self, event: Any, frame_index: int, timestamp_s: float, others: bool) -> Verdict:
        """The step awaited on the page, answered in every history waiting for it (see :meth:`answer`).

        The answer goes to every history waiting for the same step; with ``others``, a history not at that step
        (its round over, say) goes on as it was; either may still take back what was said before the step if it
        comes to lead by the margin. Forgetting every other history here lost a rival 0.5 nats behind: blue's
        last die put unseen among eleven on casino 4 was said as a pass, the black dice a tile rolled were read
        on the table, and the round was then carried to its end by a roll and placement of blue's never seen
        (Royale main game 420, round 1: every casino right, blue's chips one short).
        """
        game = self.game
        before = self.state
        after = game.apply(before, event)
        step = game.waits_for(before)
        answered, took = [], False
        for history in self._histories:
            if game.waits_for(history.state) != step:
                if others:
                    answered.append(history)
                continue
            try:
                state = game.apply(history.state, event)
            except IllegalEventError:
                continue
            took = took or self._keeps_said(history)
            answered.append(replace(history, state=state, events=(*history.events, event),
                                    notes=(*history.notes, "entered"), group=None))  # fmt: skip
        if not took:  # what was said is no longer weighed: the answer alone
            return self.apply(event, frame_index, timestamp_s)
        best = answered[0].cost
        self._histories = [replace(h, cost=h.cost - best) for h in answered]
        if not others:  # the next reading is weighed whole (see :meth:`answer`)
            self._previous = None
        self._said.append(event)
        self.state = after
        self._commit()
        return Verdict("event", frame_index, timestamp_s, event=event, before=before, state=after,
                       text=game.describe(event, before))  # fmt: skip

    def _settle(self, frame_index: int, timestamp_s: float) -> list[Verdict]:
        """The settlement where the rules now make it (after the table entered or answered something)."""
        forced = self.game.forced(self.state)
        if forced is None:
            return []
        verdict = self.apply(forced, frame_index, timestamp_s)
        self._awaiting_clear = self.game.round_over(forced)
        return [verdict]

    def observe(self, snapshot: Any) -> list[Verdict]:
        """Judges one settled reading; returns what happened (often nothing)."""
        frame, time_s = snapshot.frame_index, snapshot.timestamp_s
        verdicts: list[Verdict] = []
        reading = Seen(self.game.reading(snapshot), self._reading_before, self._company)
        self._reading_before, self._company = dict(reading), reading.company_after()
        if self._awaiting_clear:
            if not self.game.cleared(reading):
                return []
            self._awaiting_clear = False
            verdicts.append(Verdict("cleared", frame, time_s))
        while self.game.needs_deal(self.state):  # banknotes; a game's own dealt steps (Royale's tiles, bank)
            if self._deal is None:
                return verdicts
            verdicts.append(self.apply(self._deal(self.state), frame, time_s))
        waiting = self.game.waits_for(self.state)
        decoded = None
        if waiting and self._in_doubt():
            # The step was said in doubt (see :meth:`_say`): the readings while it waits still weigh the
            # histories, and a rival that comes to lead by the margin takes it back (traced: a green die read
            # twice on casino 5 taken for green's last roll and placement, 1.3 nats ahead; the round's end,
            # Prime Time's roll, was said, and green's true last roll in the tray and its die on casino 3 were
            # never weighed: the round was settled with casino 3 empty, Royale main game 417). The histories at
            # the step weigh its roll read on the table as the rivals weigh those dice (see :meth:`_decode`).
            decoded = self._decode(snapshot, reading)
            waiting = self.game.waits_for(self.state)
            if waiting:  # still the step awaited: what the reading asks or alerts is said beside it
                verdicts += decoded
        if waiting:  # a decision or a roll: a roll seen answers it, else asked once, and the readings wait
            read = self.game.read_step(self.state, reading)
            if read is not None:
                answered = self.answer(read, frame, time_s)
                answered[0] = replace(answered[0], reason="read on the table")
                return verdicts + answered
            if waiting != self._asked:
                self._asked = waiting
                if self.prompts:
                    verdicts.append(Verdict("uncertain", frame, time_s, reason=f"enter on the page: {waiting}"))
            return verdicts
        self._asked = ""
        verdicts += self._decode(snapshot, reading) if decoded is None else decoded
        if verdicts and verdicts[-1].kind == "event":
            verdicts += self._settle(frame, time_s)
            if self._awaiting_clear and self.game.cleared(reading):  # the reading that ended the round is cleared
                self._awaiting_clear = False
                verdicts.append(Verdict("cleared", frame, time_s))
        return verdicts

    # --- decoding -------------------------------------------------------------------------------

    def _extend(self, history: _History, candidate: Candidate, parent: int) -> _History | None:
        state = history.state
        try:
            for event in candidate.events:
                state = self.game.apply(state, event)
        except IllegalEventError:
            return None
        added = (candidate.note, *[""] * (len(candidate.events) - 1)) if candidate.events else ()
        cost = history.cost + candidate.cost + self.event_cost * len(candidate.events)
        if candidate.variant is not None:
            group: Hashable = (self._readings, parent, candidate.variant)
        else:  # nothing new: the history stays in its group
            group = history.group if not candidate.events else None
        return _History(state, history.events + candidate.events, cost, history.notes + added, history.table, group)

    def _decode(self, snapshot: Any, reading: Reading) -> list[Verdict]:
        """Extends every history by what may explain ``reading``, keeps the likeliest, says what they agree on.

        A history at a step the table answers (:meth:`Game.waits_for`) is extended by the step read on the
        table (:meth:`Game.read_step`: a tile's black dice), as the history said is (``observe``). Else a rival
        at such a step could never go on (traced: white's die put unseen on Jackpot's casino, the black dice
        then read in the tray; stuck at the roll, that history lost to a pass of white's and white's chips were
        wrong, Royale main game 423, white, yellow and violet); nor could the step said in doubt, while a rival
        took the black dice for a black player's roll (traced: green's die put unseen on Fifty Fifty's casino,
        the tile's roll weighed as dice nobody rolled, and a pass of green's and a roll of black's took over:
        round 3 never settled, Royale main game 437, five players).
        """
        game = self.game
        score = TableCost(self.model, reading)
        previous, self._previous = self._previous, score
        merged: dict[Hashable, tuple[_History, float]] = {}
        self._readings += 1
        for parent, history in enumerate(self._histories):
            options = [Candidate(())] if game.forced(history.state) is not None else [
                Candidate(()), *game.candidates(history.state, reading)]  # fmt: skip
            if game.waits_for(history.state):
                read = game.read_step(history.state, reading)
                if read is not None:
                    options.append(Candidate((read,), 0.0, "read on the table"))
            for candidate in options:
                extended = self._extend(history, candidate, parent)
                if extended is None:
                    continue
                table = game.expected(extended.state)
                here = score(table, history.table, previous)
                extended = replace(extended, cost=extended.cost + here, table=table)
                key = game.key(extended.state)
                if key not in merged or extended.cost < merged[key][0].cost:
                    merged[key] = (extended, here)
        ranked = sorted(merged.values(), key=lambda pair: pair[0].cost)
        if not ranked:  # no history survives (cannot happen: staying put is always legal)
            return []
        cleared = game.cleared(reading)
        if cleared and any(zone for zone in game.expected(self.state)):
            # The table was cleared: the round is over. Of the histories whose round is over, the one
            # the readings before this one liked best is what happened (this reading tells none apart).
            over = [(h.cost - here, h) for h, here in ranked if game.forced(h.state) is not None]
            if not over and self._last_table is not None:
                # No history has the round over: its last moves were not seen, and those the last table read
                # explains best end it (traced, seed 404: the last moves of three players unseen, 24 nats; the
                # round never settled, and the next rounds' readings were taken for this one's). Dearer than
                # two alerts, the table was more likely cleared too early, a mistake alerted (thirteen dice of
                # two players cleared away: 43 nats).
                over = [(h.cost, h) for h in self._completed(self._last_table) if h.cost <= 2 * self.alert_cost]
            if over:
                # What was said stands unless another history is likelier by the margin (traced: two
                # histories 0.25 nats apart at the clearing, the one never said taken, seed 5091).
                least = min(cost for cost, _ in over)
                kept = [pair for pair in over if pair[0] <= least + self.margin and self._keeps_said(pair[1])]
                history = min(kept or over, key=lambda pair: pair[0])[1]
                self._histories = [replace(history, cost=0.0, group=None)]
                return self._say(snapshot)
        if not cleared:
            self._last_table = reading
        best_cost = ranked[0][0].cost
        ranked = [(replace(h, cost=h.cost - best_cost), c) for h, c in self._kept(ranked)]
        self._histories = [h for h, _ in ranked]
        best_here = score(self._histories[0].table)  # the whole reading, zones read as before included
        # One die hidden, and nothing else, is the reader's commonest lasting error whatever the model says
        # it costs (with the table's reader a die hidden among three or more costs 5-7 nats, over a third of
        # alert_cost): it does not strain; with any other error beside it, the whole misfit counts.
        strains = best_here > self.one_error and (
            not self.hidden_forgiven or best_here - score.hidden(self._histories[0].table) >= RESIDUAL
        )
        self._strain = self._strain + best_here if strains else 0.0
        if not self._strain:
            self._standing = None
        # Even the best legal history explains what changed in this reading with two errors or more:
        # what lies there is likely a move against the rules, so nothing is said from it (the histories
        # still weigh it) and the game's diagnosis is the alert. Only what changed: a crowd that hides
        # dice reading after reading is weighed once (a zone costs what its misfit grew by), not a
        # reason to say nothing for the rest of the round. A reading off by about one error is explained
        # (events said), and alerted when it stays so (two dice taken off a casino, a face misread for good).
        # A reading held stays held while it is read again unchanged and the same history is best: an error
        # is charged once, when it arises, so the same reading read again costs that history nothing more.
        key = game.key(self._histories[0].state)
        again = self._held == key and previous is not None and score.same_as(previous)
        held = ranked[0][1] > self.alert_cost or again
        self._held = key if held else None
        said = [] if held else self._say(snapshot)
        if self._strain > self.alert_cost and not any(v.kind == "event" for v in said):
            reason = game.diagnose(self.state, snapshot)
            # Said once while it stands: moves that do not mend it do not make it news (traced: a white die
            # unseen on casino 3 alerted again at each of ten moves of the others, seed 8074; a die read
            # twice on casino 4 alerted at each player's turn, "before white rolled", "before red rolled").
            if reason and (self._standing is None or best_here > self._standing + self.one_error):
                self._standing = best_here
                return self._once("alert", reason, snapshot)
            if reason and self._standing is not None and previous is not None and score.same_as(previous):
                # The alert stands over the same reading: it is what the table is asked, not which of two poor
                # fits it was (traced: two dice put on a casino not rolled, then asked which lone die went
                # where). A reading that changed may ask (traced: with every question kept back while an old
                # misfit lasted, red's placement was never asked about, and settled wrong, seed 8104). The
                # question kept back is not spoken: it may be asked on a reading that changed.
                self._spoken.difference_update((v.kind, v.reason) for v in said)
                return []
        return said

    def _completed(self, table: Reading) -> list[_History]:
        """The histories of the beam carried on to the round's end by moves not seen.

        Those ``table`` (the last reading before the casinos were cleared) explains best: a short search over
        the game's candidates, each history's cost grown by the candidates' and by how much worse (or better)
        the last table fits it. Its zones alone, not the rolling area: a roll read there was read before
        the moves not seen, and is no move of theirs.
        """
        game = self.game
        table = {zone: dice for zone, dice in table.items() if zone}
        score = TableCost(self.model, table)
        unseen = "not seen before the casinos were cleared"
        beam = [(h, h.cost - score(h.table or {})) for h in self._histories[: self.beam]]
        done: list[_History] = []
        for _ in range(COMPLETION_MOVES):
            grown: dict[Hashable, tuple[_History, float]] = {}
            for history, _ in beam:
                for candidate in (*game.candidates(history.state, table), *game.unseen(history.state)):
                    if not candidate.events:
                        continue
                    note = f"{unseen}; {candidate.note}" if candidate.note else unseen
                    extended = self._extend(history, replace(candidate, note=note), 0)
                    if extended is None:
                        continue
                    extended = replace(extended, table=game.expected(extended.state), group=None)
                    ranked = extended.cost + score(extended.table)
                    key = game.key(extended.state)
                    if key not in grown or ranked < grown[key][1]:
                        grown[key] = (extended, ranked)
            beam = sorted(grown.values(), key=lambda pair: pair[1])[: self.beam]
            done += [replace(h, cost=ranked) for h, ranked in beam if game.forced(h.state) is not None]
            beam = [(h, ranked) for h, ranked in beam if game.forced(h.state) is None]
            if not beam:
                break
        return sorted(done, key=lambda h: h.cost)[: self.beam]

    def _kept(self, ranked: list[tuple[_History, float]]) -> list[tuple[_History, float]]:
        """The ``beam`` cheapest histories, a group counted once (all of it kept), at most ``most`` in all."""
        kept: list[tuple[_History, float]] = []
        groups: set[Hashable] = set()
        places = 0
        for pair in ranked:
            group = pair[0].group
            if group is None or group not in groups:
                if places == self.beam:
                    continue
                places += 1
                if group is not None:
                    groups.add(group)
            kept.append(pair)
            if len(kept) == self.most:
                break
        return kept

    def _say(self, snapshot: Any) -> list[Verdict]:
        """Says the events every history within the margin agrees on (or revises what was said)."""
        game = self.game
        close = in_doubt = [h for h in self._histories if h.cost <= self.margin]
        if self._keeps_said(close[0]):
            # The best history stands by what was said: a rival that parts from it before is asked about
            # (``_unsure``) and revises it if it comes to lead by the margin, but does not keep what comes
            # after from being said (traced: a rival 1.2 nats behind disputed a placement said seven moves
            # before, and nothing was said for the last 25 moves of the round, seed 5091).
            close = [h for h in close if self._keeps_said(h)]
        sure = list(close[0].events)
        step = game.waits_for(close[0].state)
        if not step or not (self._keeps_said(close[0]) or all(game.waits_for(h.state) == step for h in close)):
            for history in close[1:]:
                del sure[self._agreed(sure, history.events) :]
        # Else the best history has come to a step the table enters on the page (a tile's roll or decision):
        # it is said, doubt or not, so that the page can ask; the readings weigh on after the answer too
        # (``_answered``). So too where it takes back what was said but every history within the margin
        # waits for that same step: the answer goes to each (traced: black's two 1s on Block It's casino,
        # two dice or a die and his Biggy, tied, one taking back his roll; nothing was said, the page never
        # asked for the grey dice, and at the next roll a pass of black's took over, Royale main game 423).
        # Kept in doubt, no history could go past the step and the readings after it were explained by a
        # rival that could (traced: blue's placement on Block It's casino taken for a pass three moves later).
        said = self._said
        agree = self._agreed(sure, said)
        verdicts: list[Verdict] = []
        if agree < len(said):  # another history is now sure: take back what was said after it parted
            if len(sure) <= agree:
                return self._unsure(snapshot)
            undone = len(said) - agree
        else:
            undone = 0
        if len(sure) == agree:
            return self._unsure(snapshot) if len(in_doubt) > 1 else []
        best = close[0]
        state = self._anchor
        for event in best.events[:agree]:
            state = game.apply(state, event)
        weighed = tuple((self._words(h, agree), round(h.cost, 2)) for h in self._histories[:4])
        first_replaced = said[agree] if undone else None
        for k, event in enumerate(best.events[agree : len(sure)], start=agree):
            before, state = state, game.apply(state, event)
            verdicts.append(Verdict("event", snapshot.frame_index, snapshot.timestamp_s, reason=best.notes[k],
                                    event=event, before=before, state=state, text=game.describe(event, before),
                                    replaces=first_replaced if k == agree else None,
                                    undone=undone if k == agree else 0, candidates=weighed))  # fmt: skip
        self._said = list(best.events[: len(sure)])
        self.state = state
        self._spoken.clear()
        self._commit()
        return verdicts

    def _commit(self) -> None:
        """Moves the anchor past the events all histories share (nothing can take them back any more)."""
        shared = min((self._agreed(self._said, h.events) for h in self._histories), default=0)
        if not shared:
            return
        for event in self._said[:shared]:
            self._anchor = self.game.apply(self._anchor, event)
        self._committed += shared
        self._said = self._said[shared:]
        self._histories = [replace(h, events=h.events[shared:], notes=h.notes[shared:]) for h in self._histories]

    def _in_doubt(self) -> bool:
        """True when a history within the margin disputes what was said (said at a step awaited on the page)."""
        return any(h.cost <= self.margin and not self._keeps_said(h) for h in self._histories[1:])

    def _keeps_said(self, history: _History) -> bool:
        """True when ``history`` holds every event said since the anchor."""
        return self._agreed(self._said, history.events) == len(self._said)

    def _agreed(self, first: Sequence[Any], second: Sequence[Any], start: int = 0) -> int:
        """Where two histories first part from ``start`` on (the events compared as a camera knows them)."""
        n = start
        canonical = self.game.canonical
        while n < min(len(first), len(second)) and canonical(first[n]) == canonical(second[n]):
            n += 1
        return n

    def _words(self, history: _History, since: int, until: int | None = None) -> str:
        """The events ``since:until`` of a history, in words."""
        state = self._anchor
        words = []
        for k, event in enumerate(history.events[:until]):
            if k >= since:
                words.append(self.game.describe(event, state))
            state = self.game.apply(state, event)
        return "; ".join(words) or "nothing new"

    def _unsure(self, snapshot: Any) -> list[Verdict]:
        """The two best histories disagree: asked once per pair (see :meth:`_asking`)."""
        if len(self._histories) < 2:
            return []
        first, second, since = self._asking()
        # The first event where they part: the question stays the same while both go on alike after it.
        a, b = self._words(first, since, since + 1), self._words(second, since, since + 1)
        pair = frozenset((a, b))  # whichever of the two leads: two histories this close trade places
        if a == b or self._doubt_before != pair:  # asked when the doubt outlasts one reading
            self._doubt_before = pair
            return []
        options = tuple(h.events[since] if len(h.events) > since else None for h in (first, second))
        branch = self._anchor
        for event in first.events[:since]:
            branch = self.game.apply(branch, event)
        self._question = (self._committed + since, options, branch)
        return [replace(v, options=options) for v in self._once("uncertain", f"is it {a}, or {b}?", snapshot)]

    def _asking(self) -> tuple[_History, _History, int]:
        """The two histories to ask about, and where (``since``, events since the anchor).

        Of the histories within the margin (the best pairs first), two that part at moves of two kinds (a
        placement or a pass: the plainest question); else the two best where they first part, unless the
        table may not be able to tell their events there apart (:meth:`Game.askable`: two rolls, a die not
        seen filled in one way or the other), then two that part at moves further on: the table knows what a
        player did, not the face of a die nobody saw that he has since taken back. Traced:
        green rolled with a die unseen and passed; his next roll, read with a die unseen too, made the
        histories where he had placed that die (never seen on its casino) as likely, and the table was asked
        which face the unseen die had shown, for 30 seconds, nothing said meanwhile (Royale main game, seed
        341); green's roll read with a 6 as a 5, and his two 6s on casino 6 taken for one and a die read
        twice: the table was asked which roll it was, not how many dice he put there (seed 351).
        """
        first, second = self._histories[0], self._histories[1]
        since = self._agreed(first.events, second.events)  # a rival may dispute what was said
        close = [h for h in self._histories if h.cost <= self.margin]
        pairs = [(earlier, later, self._agreed(earlier.events, later.events))
                 for j, later in enumerate(close[1:], start=1) for earlier in close[:j]]  # fmt: skip
        for earlier, later, parted in pairs:
            if self._askable_at(earlier, later, parted) and self._of_two_kinds(earlier, later, parted):
                return earlier, later, parted
        if self._askable_at(first, second, since):
            return first, second, since
        for earlier, later, parted in pairs:
            while not self._askable_at(earlier, later, parted):
                parted = self._agreed(earlier.events, later.events, parted + 1)
            if parted < max(len(earlier.events), len(later.events)):
                return earlier, later, parted
        return first, second, since

    @staticmethod
    def _of_two_kinds(first: _History, second: _History, since: int) -> bool:
        """True when the two histories' events at ``since`` are of two kinds (or one has none)."""
        if since >= len(first.events) or since >= len(second.events):
            return True
        return type(first.events[since]) is not type(second.events[since])

    def _askable_at(self, first: _History, second: _History, since: int) -> bool:
        """True when the table can tell the two histories' events at ``since`` apart (one may have none)."""
        if since >= len(first.events) or since >= len(second.events):
            return True
        askable = self.game.askable
        return askable(first.events[since]) and askable(second.events[since])

    @property
    def asked(self) -> tuple[Any, tuple[Any, ...]] | None:
        """The open question: the state where its two histories part, and its answers; None when none is open."""
        return None if self._question is None else (self._question[2], self._question[1])

    def choose(self, option: Any, frame_index: int = 0, timestamp_s: float = 0.0) -> list[Verdict]:
        """The table's answer to the last question (one of its :attr:`Verdict.options`).

        The histories that agree with it are kept, and what they now agree on is said.

        Raises:
            ValueError: when nothing was asked, or no history kept gives that answer any more.
        """
        if self._question is None:
            raise ValueError("no question is open")
        since = self._question[0] - self._committed
        if since < 0:
            raise ValueError("the readings have settled that question already")
        canonical = self.game.canonical

        def agrees(history: _History) -> bool:
            if option is None:
                return len(history.events) <= since
            return len(history.events) > since and canonical(history.events[since]) == canonical(option)

        kept = [h for h in self._histories if agrees(h)]
        if not kept:
            raise ValueError("that answer is no longer among the histories weighed")
        self._question = None
        self._histories = [replace(h, cost=h.cost - kept[0].cost) for h in kept]
        verdicts = self._say(_Moment(frame_index, timestamp_s))
        if verdicts and verdicts[-1].kind == "event":  # the answer may have said the last move of the round
            verdicts += self._settle(frame_index, timestamp_s)
        return verdicts

    def _once(self, kind: str, reason: str, snapshot: Any) -> list[Verdict]:
        """A verdict, said once while nothing changes (the table is read many times a second)."""
        if (kind, reason) in self._spoken:
            return []
        self._spoken.add((kind, reason))
        weighed = tuple((self._words(h, len(self._said)), round(h.cost, 2)) for h in self._histories[:4])
        return [Verdict(kind, snapshot.frame_index, snapshot.timestamp_s, reason=reason, candidates=weighed)]
