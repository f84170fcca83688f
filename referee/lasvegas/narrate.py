"""Events and settlements as sentences, for logs, the command line and the live page."""

from __future__ import annotations

from referee.lasvegas.events import BanknotesDealt, DicePlaced, DiceRolled, Event, NeutralDiceRolled, RoundScored
from referee.lasvegas.scoring import RoundPayout
from referee.lasvegas.state import GameState
from referee.types import format_usd

__all__ = ["describe", "describe_payout"]


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
        return f"round {before.round}: banknotes dealt ({notes})"
    if isinstance(event, NeutralDiceRolled):
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
    if isinstance(event, RoundScored):
        return f"round {before.round} settled"
    raise TypeError(f"not an event: {event!r}")


def describe_payout(payout: RoundPayout) -> list[str]:
    """The settlement casino by casino, as a referee reads it out."""
    lines = []
    for casino in payout.casinos:
        reasons = casino.explain()
        returned = (f"; back under the pile: {', '.join(format_usd(n) for n in casino.returned)}"
                    if casino.returned else "")  # fmt: skip
        lines.append(f"casino {int(casino.casino)}: {'; '.join(reasons) or 'no dice'}{returned}")
    return lines
