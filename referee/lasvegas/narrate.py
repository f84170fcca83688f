"""Events and settlements as sentences, for logs, the command line and the live page."""

from __future__ import annotations

from referee.lasvegas.events import (
    BanknotesDealt,
    DicePlaced,
    DiceRolled,
    Event,
    NeutralDiceRolled,
    Passed,
    ResourcesCounted,
    RoundScored,
)
from referee.lasvegas.scoring import RoundPayout
from referee.lasvegas.state import GameState, nowhere_to_place
from referee.types import format_usd

__all__ = ["amount_of", "describe", "describe_payout"]


def _faces(values: tuple[int, ...]) -> str:
    return " ".join(map(str, values))


def _placed(event: DicePlaced) -> str:
    parts = []
    for count, singular, plural in ((event.dice, "die", "dice"), (event.biggies, "Biggy", "Biggys"),
                                    (event.neutral, "neutral die", "neutral dice")):  # fmt: skip
        if count:
            parts.append(f"{count} {singular if count == 1 else plural}")
    return " and ".join(parts)


def describe(event: Event, before: GameState) -> str:
    """One sentence for an event applied to ``before`` (the state it was applied to).

    Example:
        >>> from referee import find_ruleset, new_game, Colour
        >>> describe(DicePlaced(Colour.RED, 3, 2), new_game(find_ruleset("las-vegas"), ["red", "blue"]))
        'red places 2 dice showing 3 on casino 3'
    """
    if isinstance(event, BanknotesDealt):
        notes = "; ".join(
            f"{number}: {', '.join(format_usd(n) for n in sorted(notes, reverse=True)) or 'nothing'}"
            for number, notes in enumerate(event.casinos, start=1)
        )
        kind = "money cards" if before.ruleset.notes_per_casino else "banknotes"
        return f"round {before.round}: {kind} dealt ({notes})"
    if isinstance(event, NeutralDiceRolled):
        if not before.ruleset.neutral_dice_for(len(before.players)):  # Royale's 2-player game
            return f"the imaginary player's {before.neutral} dice are rolled onto the casinos: {_faces(event.values)}"
        return f"{before.players[before.start_seat]} rolls the spare neutral dice: {_faces(event.values)}"
    if isinstance(event, DiceRolled):
        text = f"{event.player} rolls {_faces(event.dice)}"
        if event.biggies:
            text += f", Biggy {_faces(event.biggies)}"
        if event.neutral:
            text += f", neutral {_faces(event.neutral)}"
        return text
    if isinstance(event, DicePlaced):
        return f"{event.player} places {_placed(event)} showing {event.casino} on casino {event.casino}"
    if isinstance(event, Passed):
        if nowhere_to_place(before):
            return f"{event.player} takes his dice back for free: a tile forbids every value rolled"
        return f"{event.player} pays {_cost(before)} to pass and takes his dice back{_left(event, before)}"
    if isinstance(event, RoundScored):
        return f"round {before.round} settled"
    if isinstance(event, ResourcesCounted):
        counts = ", ".join(f"{player} {count}" for player, count in zip(before.players, event.counts, strict=True))
        return f"the table counts the {event.resource}: {counts}"
    raise TypeError(f"not an event: {event!r}")


def amount_of(count: int, name: str) -> str:
    """``"1 chip"``, ``"2 chips"``: a count of a resource named in the plural."""
    return f"{count} {name[:-1] if count == 1 and name.endswith('s') else name}"


def _cost(state: GameState) -> str:
    cost = state.ruleset.hooks.pass_cost or ()
    return " and ".join(amount_of(count, name) for name, count in cost)


def _left(event: Passed, before: GameState) -> str:
    """`` (1 chip left)``: what the player has after paying, or "" where a pass costs nothing."""
    cost = before.ruleset.hooks.pass_cost or ()
    seat = before.players.index(event.player) if event.player in before.players else -1
    if seat < 0 or not cost:
        return ""
    parts = [amount_of(before.resource(name)[seat] - count, name) for name, count in cost]
    return f" ({', '.join(parts)} left)"


def describe_payout(payout: RoundPayout) -> list[str]:
    """The settlement casino by casino, as a referee reads it out."""
    lines = []
    for casino in payout.casinos:
        reasons = casino.explain()
        returned = (f"; back under the pile: {', '.join(format_usd(n) for n in casino.returned)}"
                    if casino.returned else "")  # fmt: skip
        lines.append(f"casino {int(casino.casino)}: {'; '.join(reasons) or 'no dice'}{returned}")
    return lines
