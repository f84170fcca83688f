"""Settlement: who takes which banknote, who is cancelled by which tie, and final standings.

Everything here is computed by :func:`score_casino`; the round payout, the live preview and the
``dice-referee settle`` command are built from it, so the three can never disagree.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from referee._fast import fast_constructor
from referee.errors import ImpossibleTableError
from referee.types import CasinoId, Colour, Ownerless, format_usd

__all__ = [
    "CasinoPayout",
    "Outcome",
    "Payment",
    "RoundPayout",
    "Standing",
    "Termination",
    "Tie",
    "rank_standings",
    "score_casino",
]

_COLOUR_ORDER = {colour: index for index, colour in enumerate(Colour)}


def _dice(count: int) -> str:
    return f"{count} {'die' if count == 1 else 'dice'}"


@dataclass(frozen=True, slots=True)
class Tie:
    """Owners removed from a casino because they have the same number of dice."""

    count: int
    """The (weighted) number of dice each of them has there."""
    owners: tuple[Colour, ...]
    """The owners who cancel each other, in colour order."""

    def reason(self) -> str:
        """A sentence for the table: ``'red and blue cancel: 3 dice each'``."""
        names = [str(owner) for owner in self.owners]
        joined = " and ".join(names) if len(names) == 2 else ", ".join(names[:-1]) + " and " + names[-1]
        return f"{joined} cancel: {_dice(self.count)} each"


@dataclass(frozen=True, slots=True)
class Payment:
    """One rank at a casino after tie cancellation."""

    owner: Colour
    """Who holds this rank."""
    count: int
    """His (weighted) number of dice at the casino."""
    banknote_usd: int | None
    """The note he takes, or None when the casino ran out of notes before his rank."""
    neutral: bool = False
    """True for a neutral owner, whose note goes back under the pile."""
    source: str = ""
    """Why he is paid when not for his rank with a note lying here (a tile's reward from the bank)."""


@dataclass(frozen=True, slots=True)
class CasinoPayout:
    """The settlement of one casino, with its reasons.

    Example:
        >>> payout = score_casino(CasinoId(3), {Colour.RED: 5, Colour.BLUE: 3, Colour.GREEN: 3,
        ...                                      Colour.BLACK: 1}, [60_000, 30_000])
        >>> [(p.owner.value, p.banknote_usd) for p in payout.paid], payout.ties[0].reason()
        ([('red', 60000), ('black', 30000)], 'blue and green cancel: 3 dice each')
    """

    casino: CasinoId
    """Which casino."""
    counts: tuple[tuple[Colour, int], ...]
    """Every owner with dice here and his weighted count, most dice first."""
    ties: tuple[Tie, ...]
    """Groups cancelled by equal counts, highest count first."""
    ranking: tuple[Payment, ...]
    """The owners left after cancellation, most dice first, with the note each takes."""
    returned: tuple[int, ...]
    """Notes that go back under the pile (left over or won by a neutral owner), highest first."""

    @property
    def paid(self) -> tuple[Payment, ...]:
        """Payments to real players, in rank order."""
        return tuple(p for p in self.ranking if p.banknote_usd is not None and not p.neutral)

    @property
    def cancelled(self) -> tuple[Colour, ...]:
        """Every owner removed by a tie, highest count first."""
        return tuple(owner for tie in self.ties for owner in tie.owners)

    def explain(self) -> list[str]:
        """Sentences a referee reads out for this casino."""
        lines = [tie.reason() for tie in self.ties]
        for payment in self.ranking:
            dice = _dice(payment.count)
            who = f"{payment.owner} (neutral)" if payment.neutral else str(payment.owner)
            if payment.banknote_usd is None:
                lines.append(f"{who} gets nothing: no note left for {dice}")
            elif payment.neutral:
                lines.append(f"{who} takes {format_usd(payment.banknote_usd)} with {dice}: it goes under the pile")
            elif payment.source:
                lines.append(f"{who} takes {format_usd(payment.banknote_usd)}: {payment.source}")
            else:
                lines.append(f"{who} takes {format_usd(payment.banknote_usd)} with {dice}")
        return lines


@dataclass(frozen=True, slots=True)
class RoundPayout:
    """The settlement of every casino, as at the end of a round (or as a live preview)."""

    casinos: tuple[CasinoPayout, ...]
    """One payout per casino, casino 1 first."""

    def totals(self) -> dict[Colour, int]:
        """Dollars each real player receives, for players who receive something."""
        totals: dict[Colour, int] = {}
        for casino in self.casinos:
            for payment in casino.paid:
                assert payment.banknote_usd is not None
                totals[payment.owner] = totals.get(payment.owner, 0) + payment.banknote_usd
        return totals

    def notes_won(self) -> dict[Colour, list[int]]:
        """The notes each real player receives, in casino order."""
        won: dict[Colour, list[int]] = {}
        for casino in self.casinos:
            for payment in casino.paid:
                assert payment.banknote_usd is not None
                won.setdefault(payment.owner, []).append(payment.banknote_usd)
        return won

    def returned(self) -> list[int]:
        """Every note that goes back under the pile, casino 1 first."""
        return [note for casino in self.casinos for note in casino.returned]


def score_casino(
    casino: CasinoId,
    counts: Mapping[Colour, int],
    banknotes: Sequence[int],
    neutral: Collection[Colour] = (),
) -> CasinoPayout:
    """Settles one casino.

    Every owner whose count equals another owner's count is removed, at any rank; the others, from
    most dice to fewest, each take the highest note still there; leftover notes and notes won by a
    neutral owner go back under the pile.

    Args:
        casino: the casino being settled.
        counts: weighted dice count per owner (a Biggy already counted as two); zeros are ignored.
        banknotes: the notes lying at the casino, in any order.
        neutral: owners that are not players (neutral dice): they cancel ties and rank like anyone.

    Returns:
        The payout with its ties, ranking and returned notes.

    Raises:
        ImpossibleTableError: for an owner that is not a ``Colour``, a negative or non-integer count,
            or a banknote that is not a positive whole number of dollars.
    """
    if not (_INT_TYPE.issuperset(map(type, counts.values())) and _INT_TYPE.issuperset(map(type, banknotes))):
        _reject(counts, banknotes)
    # Rank by count, most first; colour order only fixes the listing order of tied owners.
    try:
        ranked = sorted((-count, _COLOUR_ORDER[owner], owner) for owner, count in counts.items() if count > 0)
    except KeyError:
        ranked = sorted((-count, _order(casino, owner), owner) for owner, count in counts.items() if count > 0)
    if min(counts.values(), default=0) < 0 or min(banknotes, default=1) <= 0:
        _reject(counts, banknotes)
    notes = sorted(banknotes, reverse=True)
    ties: list[Tie] = []
    ranking: list[Payment] = []
    returned: list[int] = []
    index, total = 0, len(ranked)
    while index < total:
        count = ranked[index][0]
        end = index + 1
        while end < total and ranked[end][0] == count:
            end += 1
        if end - index > 1:
            ties.append(_tie(-count, tuple(item[2] for item in ranked[index:end])))
        else:
            owner = ranked[index][2]
            rank = len(ranking)
            note = notes[rank] if rank < len(notes) else None
            is_neutral = owner in neutral
            if is_neutral and note is not None:
                returned.append(note)
            ranking.append(_payment(owner, -count, note, is_neutral, ""))
        index = end
    returned.extend(notes[len(ranking) :])
    returned.sort(reverse=True)
    present = tuple((item[2], -item[0]) for item in ranked)
    return _casino_payout(casino, present, tuple(ties), tuple(ranking), tuple(returned))


def _order(casino: CasinoId, owner: object) -> int:
    """Listing order of an owner: colours in :class:`Colour` order, then dice owned by nobody."""
    if isinstance(owner, Ownerless):
        return len(_COLOUR_ORDER) + _COLOUR_ORDER[owner.colour]
    if owner in _COLOUR_ORDER:
        return _COLOUR_ORDER[owner]
    raise ImpossibleTableError(f"casino {int(casino)}: {owner!r} is not a colour")


def _reject(counts: Mapping[Colour, int], banknotes: Sequence[int]) -> None:
    for owner, count in counts.items():
        if type(count) is not int or count < 0:
            raise ImpossibleTableError(f"{owner} has {count!r} dice: a count is a whole number >= 0")
    for note in banknotes:
        if type(note) is not int or note <= 0:
            raise ImpossibleTableError(f"{note!r} is not a banknote: notes are positive whole dollars")


_INT_TYPE = {int}
_tie = fast_constructor(Tie)
_payment = fast_constructor(Payment)
_casino_payout = fast_constructor(CasinoPayout)


def score_round(
    tables: Iterable[tuple[CasinoId, Mapping[Colour, int], Sequence[int]]],
    neutral: Collection[Colour] = (),
) -> RoundPayout:
    """Settles every casino of a round: ``(casino, counts, banknotes)`` for each."""
    return RoundPayout(tuple(score_casino(c, counts, notes, neutral) for c, counts, notes in tables))


class Termination(enum.Enum):
    """Why a game ended."""

    ROUNDS_PLAYED = "all rounds played"


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's place in the final (or running) standings."""

    player: Colour
    """The player."""
    money_usd: int
    """Dollars won."""
    banknotes: int
    """Number of notes won: the tie-break."""
    rank: int
    """1 for the winner(s); players tied on money and notes share a rank."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game."""

    termination: Termination
    """Why it ended."""
    standings: tuple[Standing, ...]
    """Every player, best first."""

    @property
    def winners(self) -> tuple[Colour, ...]:
        """The player(s) ranked first: more than one means a shared win."""
        return tuple(s.player for s in self.standings if s.rank == 1)


def rank_standings(won: Mapping[Colour, Sequence[int]]) -> tuple[Standing, ...]:
    """Ranks players by money, then by number of banknotes; equal on both shares a rank.

    Args:
        won: the notes each player has won, in seat order (the order breaks nothing; it only orders
            players of equal rank).
    """
    return rank_money({player: (sum(notes), len(notes)) for player, notes in won.items()})


def rank_money(totals: Mapping[Colour, tuple[int, int]]) -> tuple[Standing, ...]:
    """Ranks players by ``(money, count)`` pairs: most money, then the higher count; equal on both share a rank.

    The count is what breaks a tie of money (Las Vegas: notes; Royale: cards plus chips).
    """
    keyed = [(usd, count, player) for player, (usd, count) in totals.items()]
    ordered = sorted(keyed, key=lambda item: (-item[0], -item[1]))
    standings: list[Standing] = []
    for index, (money, count, player) in enumerate(ordered):
        tied = index and (money, count) == ordered[index - 1][:2]
        rank = standings[-1].rank if tied else index + 1
        standings.append(Standing(player, money, count, rank))
    return tuple(standings)
