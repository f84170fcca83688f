"""The table notation: one line of text for a complete game state, like chess's FEN.

Seven (or eight) fields separated by single spaces::

    las-vegas+neutral+biggy rbg/w 2 b:1356*4+26 2r1R:60,20/-:50/2w:90/-:40,10/-:70/3b:80 2,2,2 60/-/90,30

1. **rule set**: its canonical name (game and variants joined by ``+``).
2. **seats**: one colour letter per player in seat order (clockwise, round 1's start player first),
   then ``/`` and the neutral colour's letter when the rule set has neutral dice. Letters:
   r red, b blue, g green, k black, w white, y yellow, e grey, v violet, o orange, p pink, n brown, c cyan.
3. **round**: 1-based.
4. **turn**: ``deal`` (notes to deal), ``preroll`` (spare neutral dice to roll), a player's letter
   (he is to roll), a letter with his roll ``b:1356*4+26`` (he is to place; normal faces, then Biggy
   faces after ``*``, then neutral faces after ``+``, each sorted), ``settle`` or ``over``.
5. **casinos**: six ``dice:notes`` entries separated by ``/``, casino 1 first. Dice are count+letter
   runs in seat order (lower case normal dice, upper case Biggys, the neutral colour last) or ``-``;
   notes are in thousands of dollars, highest first, or ``-``.
6. **neutral dice held** per seat, comma-separated, or ``-`` without the neutral variant.
7. **notes won** per seat in thousands, in the order won, seats separated by ``/`` (``-`` for none).
8. only for a rule set whose hooks keep resources or choose the start player otherwise (Las Vegas
   Royale): the **start player**'s letter, then per resource ``:`` and the count per seat,
   comma-separated (``r:2,3,1``: red started the round; chips 2, 3 and 1).

Dice each player holds follow from the rule set less the dice on the casinos, and the pile from the
deck less the notes on the table and the notes won, so neither is written.
"""

from __future__ import annotations

import re

from referee.errors import NotationError, RefereeError
from referee.game import find_ruleset
from referee.lasvegas.events import DiceRolled
from referee.lasvegas.hooks import pass_left
from referee.lasvegas.rules import RuleSet
from referee.lasvegas.state import Casino, GameState, Phase
from referee.types import Colour

__all__ = ["from_notation", "to_notation"]

_RUN = re.compile(r"(\d+)([a-zA-Z])")
_ROLL = re.compile(r"^([a-z]):(\d*)(?:\*(\d+))?(?:\+(\d+))?$")
_KEYWORDS = {Phase.DEAL: "deal", Phase.PREROLL: "preroll", Phase.SETTLE: "settle", Phase.OVER: "over"}


def _notes(notes: tuple[int, ...]) -> str:
    return ",".join(str(note // 1000) for note in notes) or "-"


def _casino(state: GameState, casino: Casino) -> str:
    runs = []
    for seat, player in enumerate(state.players):
        if casino.dice[seat]:
            runs.append(f"{casino.dice[seat]}{player.letter}")
        if casino.biggies[seat]:
            runs.append(f"{casino.biggies[seat]}{player.letter.upper()}")
    if casino.neutral and state.neutral is not None:
        runs.append(f"{casino.neutral}{state.neutral.letter}")
    return f"{''.join(runs) or '-'}:{_notes(casino.banknotes)}"


def _turn(state: GameState) -> str:
    if state.phase in _KEYWORDS:
        return _KEYWORDS[state.phase]
    player = state.players[state.turn]
    roll = state.roll
    if state.phase is Phase.ROLL or roll is None:
        return player.letter
    text = f"{player.letter}:{''.join(map(str, roll.dice))}"
    if roll.biggies:
        text += "*" + "".join(map(str, roll.biggies))
    if roll.neutral:
        text += "+" + "".join(map(str, roll.neutral))
    return text


def to_notation(state: GameState) -> str:
    """Writes the canonical table notation of a state (its history is not part of it)."""
    seats = "".join(p.letter for p in state.players)
    if state.neutral is not None:
        seats += "/" + state.neutral.letter
    fields = [
        state.ruleset.name,
        seats,
        str(state.round),
        _turn(state),
        "/".join(_casino(state, casino) for casino in state.casinos),
        ",".join(map(str, state.held_neutral)) if state.neutral is not None else "-",
        "/".join(_notes(notes) for notes in state.won),
    ]
    if _has_eighth(state.ruleset):
        fields.append(state.players[state.start].letter + "".join(":" + ",".join(str(held[i]) for held in
                      state.resources) for i in range(len(state.ruleset.hooks.resources))))  # fmt: skip
    return " ".join(fields)


def _has_eighth(ruleset: object) -> bool:
    """Whether the notation writes the start player and the resources (not derivable from the round)."""
    hooks = ruleset.hooks  # type: ignore[attr-defined]
    return bool(hooks.resources) or hooks.next_start is not pass_left


def _parse_notes(text: str, where: str) -> tuple[int, ...]:
    if text == "-":
        return ()
    try:
        values = [int(part) * 1000 for part in text.split(",")]
    except ValueError:
        raise NotationError(f"{where}: notes are thousands separated by commas, got {text!r}") from None
    if any(v <= 0 for v in values):
        raise NotationError(f"{where}: notes must be positive, got {text!r}")
    return tuple(values)


def _parse_faces(text: str | None) -> tuple[int, ...]:
    if not text:
        return ()
    faces = tuple(int(ch) for ch in text)
    if any(not 1 <= f <= 6 for f in faces):
        raise NotationError(f"a die shows 1 to 6, got {text!r}")
    return tuple(sorted(faces))


def from_notation(text: str) -> GameState:
    """Parses table notation into a state with an empty history.

    Raises:
        NotationError: if the text is malformed or the state it describes is impossible.
    """
    state = parse(text)
    check(state)
    return state


def parse(text: str) -> GameState:
    """Parses table notation without checking that the state could arise in play (see :func:`check`).

    A game that writes more fields (Royale's main game) parses these first, completes the state, then
    checks it.

    Raises:
        NotationError: if the text is malformed.
    """
    if not isinstance(text, str):
        raise NotationError(f"table notation is a string, got {type(text).__name__}")
    fields = text.split()
    if len(fields) not in (7, 8):
        raise NotationError(f"table notation has 7 space-separated fields, got {len(fields)}: {text!r}")
    name, seats_text, round_text, turn_text, casinos_text, neutral_text, won_text = fields[:7]
    try:
        ruleset = find_ruleset(name)
    except RefereeError as error:
        raise NotationError(str(error)) from None
    if len(fields) != 7 + _has_eighth(ruleset):
        raise NotationError(f"table notation of {ruleset.name} has {7 + _has_eighth(ruleset)} fields, "
                            f"got {len(fields)}: {text!r}")  # fmt: skip
    seat_part, _, neutral_part = seats_text.partition("/")
    players = tuple(Colour.from_letter(ch) for ch in seat_part)
    neutral = Colour.from_letter(neutral_part) if neutral_part else None
    n = len(players)
    if not ruleset.min_players <= n <= ruleset.max_players or len(set(players)) != n:
        raise NotationError(f"seats {seat_part!r}: {ruleset.name} needs {ruleset.min_players}-"
                            f"{ruleset.max_players} players of different colours")  # fmt: skip
    if (neutral is not None) != ruleset.neutral_for(n) or neutral in players:
        raise NotationError(f"seats {seats_text!r}: a neutral colour is written exactly when {ruleset.name} "
                            "has neutral dice, and it is not a player's")  # fmt: skip
    if not round_text.isdigit() or not 1 <= int(round_text) <= ruleset.rounds:
        raise NotationError(f"round {round_text!r}: must be 1 to {ruleset.rounds}")
    round_number = int(round_text)

    keyword = {v: k for k, v in _KEYWORDS.items()}
    roll: DiceRolled | None = None
    if turn_text in keyword:
        phase, turn = keyword[turn_text], -1
    else:
        match = _ROLL.match(turn_text) or re.match(r"^([a-z])$", turn_text)
        if not match:
            raise NotationError(f"turn {turn_text!r}: expected deal, preroll, settle, over or a player letter")
        player = Colour.from_letter(match.group(1))
        if player not in players:
            raise NotationError(f"turn {turn_text!r}: {player} is not playing")
        turn = players.index(player)
        phase = Phase.ROLL
        if ":" in turn_text:
            phase = Phase.PLACE
            roll = DiceRolled(player, *(_parse_faces(match.group(i)) for i in (2, 3, 4)))

    entries = casinos_text.split("/")
    if len(entries) != ruleset.casinos:
        raise NotationError(f"casinos {casinos_text!r}: expected {ruleset.casinos} entries separated by '/'")
    casinos = tuple(_parse_casino(entry, number, players, neutral)
                    for number, entry in enumerate(entries, start=1))  # fmt: skip

    if neutral is not None:
        try:
            held_neutral = tuple(int(x) for x in neutral_text.split(","))
        except ValueError:
            raise NotationError(f"neutral dice held {neutral_text!r}: one number per seat") from None
        if len(held_neutral) != n:
            raise NotationError(f"neutral dice held {neutral_text!r}: one number per seat")
    elif neutral_text != "-":
        raise NotationError(f"neutral dice held {neutral_text!r}: must be '-' without neutral dice")
    else:
        held_neutral = (0,) * n

    won_parts = won_text.split("/")
    if len(won_parts) != n:
        raise NotationError(f"notes won {won_text!r}: one entry per seat separated by '/'")
    won = tuple(_parse_notes(part, f"notes won by {p}") for part, p in zip(won_parts, players, strict=True))

    held_dice = tuple(ruleset.dice_per_player - sum(c.dice[s] for c in casinos) for s in range(n))
    held_biggies = tuple(ruleset.biggies_per_player - sum(c.biggies[s] for c in casinos) for s in range(n))
    start = (round_number - 1) % n
    resources: tuple[tuple[int, ...], ...] = ()
    if len(fields) == 8:
        start, resources = _parse_eighth(fields[7], ruleset, players)
    state = GameState(ruleset=ruleset, players=players, neutral=neutral, round=round_number, phase=phase,
                      turn=turn, start=start, casinos=casinos, held_dice=held_dice, held_biggies=held_biggies,
                      held_neutral=held_neutral, roll=roll, won=won, resources=resources)  # fmt: skip
    return state


def _parse_eighth(text: str, ruleset: RuleSet, players: tuple[Colour, ...]) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """The start seat and the resources per seat from field 8 (``r:2,3,1``)."""
    letter, *counts = text.split(":")
    names = [name for name, _ in ruleset.hooks.resources]
    try:
        start = players.index(Colour.from_letter(letter))
        per_resource = [tuple(int(c) for c in part.split(",")) for part in counts]
    except (ValueError, NotationError):
        raise NotationError(
            f"field 8 {text!r}: the start player's letter, then ':' and each resource per seat"
        ) from None
    signed = ruleset.hooks.signed_resources  # a debt may be negative
    if len(per_resource) != len(names) or any(
        len(c) != len(players) or (min(c) < 0 and name not in signed)
        for name, c in zip(names, per_resource, strict=False)
    ):
        raise NotationError(f"field 8 {text!r}: {', '.join(names) or 'no resources'}, one count per seat each")
    return start, tuple(tuple(c[seat] for c in per_resource) for seat in range(len(players)))


def _parse_casino(entry: str, number: int, players: tuple[Colour, ...], neutral: Colour | None) -> Casino:
    dice_text, sep, notes_text = entry.partition(":")
    if not sep:
        raise NotationError(f"casino {number} {entry!r}: expected dice:notes")
    n = len(players)
    dice, biggies, neutral_count = [0] * n, [0] * n, 0
    if dice_text != "-":
        if _RUN.sub("", dice_text):
            raise NotationError(f"casino {number} {dice_text!r}: dice are count+letter runs like 3r1R")
        for count_text, letter in _RUN.findall(dice_text):
            colour = Colour.from_letter(letter.lower())
            count = int(count_text)
            if colour == neutral and letter.islower():
                neutral_count += count
            elif colour in players:
                (biggies if letter.isupper() else dice)[players.index(colour)] += count
            else:
                raise NotationError(f"casino {number}: {letter!r} is neither a player nor the neutral colour")
    notes = _parse_notes(notes_text, f"casino {number}")
    return Casino(tuple(dice), tuple(biggies), neutral_count, tuple(sorted(notes, reverse=True)))


def check(state: GameState) -> None:
    """Raises NotationError if a parsed state could not arise in play."""
    rules = state.ruleset
    n = len(state.players)
    deck = rules.deck_counts()
    notes = [*(note for c in state.casinos for note in c.banknotes), *(note for won in state.won for note in won),
             *state.bank]  # fmt: skip
    strangers = sorted({note for note in notes if note not in deck})
    if strangers:
        values = ", ".join(str(v // 1000) for v in sorted(deck))
        raise NotationError(f"impossible state: {', '.join(str(v // 1000) for v in strangers)} (thousands) "
                            f"is not a note of {rules.name}'s deck ({values})")  # fmt: skip
    problems = []
    for seat, player in enumerate(state.players):
        if state.held_dice[seat] < 0 or state.held_biggies[seat] < 0:
            problems.append(f"{player} has more dice on the casinos than he owns")
    neutral_on_table = sum(c.neutral for c in state.casinos)
    preroll_done = state.phase in (Phase.ROLL, Phase.PLACE, Phase.SETTLE)
    expected_neutral = rules.neutral_total_for(n) if preroll_done else rules.neutral_dice_for(n) * n
    if any(h < 0 for h in state.held_neutral) or sum(state.held_neutral) + neutral_on_table != expected_neutral:
        problems.append(f"neutral dice held and on the casinos must add up to {expected_neutral}")
    dealt = any(c.banknotes for c in state.casinos)
    on_table = any(c.has_dice for c in state.casinos)
    if state.phase is Phase.DEAL and (dealt or on_table):
        problems.append("before the deal the casinos are empty")
    if state.phase is Phase.PREROLL and on_table:
        problems.append("before the neutral pre-roll no dice are placed")
    if state.phase is Phase.OVER and (dealt or on_table or state.round != rules.rounds):
        problems.append(f"a finished game has an empty table in round {rules.rounds}")
    if state.phase in (Phase.ROLL, Phase.PLACE):
        seat = state.turn
        if not any(state.held(seat)):
            problems.append(f"{state.players[seat]} is to act but holds no dice")
    if state.phase is Phase.SETTLE and (sum(state.held_dice) + sum(state.held_biggies) + sum(state.held_neutral)):
        problems.append("the round is settled only when every die is placed")
    roll = state.roll
    if roll is not None:
        seat = state.turn
        if (len(roll.dice), len(roll.biggies), len(roll.neutral)) != (
            state.held_dice[seat],
            state.held_biggies[seat],
            state.held_neutral[seat],
        ):
            problems.append(f"{roll.player}'s roll must have one face per die he holds")
    pile = state.pile()
    for note, count in sorted(pile.items()):
        if count < 0:
            problems.append(f"more notes of ${note:,} on the table and won than the deck holds")
    if problems:
        raise NotationError("impossible state: " + "; ".join(problems))
