"""Las Vegas on the table: the dice a state shows, and the checks that keep impossible readings out.

:func:`snapshot_of` is the :class:`~referee.readings.TableSnapshot` a state shows (the roll waiting to
be placed lies in the tray); :func:`validate` says, as :class:`Problem` flags, why a reading cannot
be right for a state, so the pipeline can hold an implausible reading back instead of feeding it on.
"""

from __future__ import annotations

import enum
from collections import Counter

from referee.lasvegas.hooks import extra_dice
from referee.lasvegas.state import GameState, Phase
from referee.readings import DieReading, TableSnapshot
from referee.types import Colour

__all__ = ["Problem", "findings", "snapshot_of", "validate"]


def snapshot_of(state: GameState, frame_index: int = 0, timestamp_s: float = 0.0) -> TableSnapshot:
    """The dice a game state says lie on the table.

    The roll waiting to be placed lies in the tray; a tile's own dice (Royale's grey ones) on their casinos.
    """
    casinos = []
    extras = extra_dice(state)
    for number, casino in enumerate(state.casinos, start=1):
        dice: list[DieReading] = []
        for player, normal, big in zip(state.players, casino.dice, casino.biggies, strict=True):
            dice += [DieReading(player, False, number)] * normal + [DieReading(player, True, number)] * big
        if casino.neutral and state.neutral is not None:
            dice += [DieReading(state.neutral, False, number)] * casino.neutral
        dice += [DieReading(colour, False, number) for where, colour, n in extras if where == number for _ in range(n)]
        casinos.append(tuple(dice))
    tray: list[DieReading] = []
    roll = state.roll
    if roll is not None:
        tray += [DieReading(roll.player, False, v) for v in roll.dice]
        tray += [DieReading(roll.player, True, v) for v in roll.biggies]
        if state.neutral is not None:
            tray += [DieReading(state.neutral, False, v) for v in roll.neutral]
    return TableSnapshot(frame_index, timestamp_s, tuple(casinos), tuple(tray))


class Problem(enum.IntFlag):
    """Why a snapshot cannot be a true reading of the table (flags combine)."""

    NONE = 0
    WRONG_NUMBER_OF_CASINOS = enum.auto()
    """The snapshot does not have one entry per casino."""
    UNKNOWN_COLOUR = enum.auto()
    """A die of a colour that is neither a player's nor the neutral colour."""
    TOO_MANY_DICE_OF_COLOUR = enum.auto()
    """More dice of a colour than the game has."""
    TOO_MANY_BIGGIES = enum.auto()
    """More Biggys of a colour than the game has."""
    NEUTRAL_BIGGY = enum.auto()
    """A Biggy of the neutral colour: neutral dice have none."""
    PIPS_DONT_MATCH_CASINO = enum.auto()
    """A die resting on casino n does not show n."""
    UNREADABLE_PIPS = enum.auto()
    """A die whose face could not be read."""
    DICE_REMOVED_MID_ROUND = enum.auto()
    """A casino holds fewer dice of an owner than were placed there this round."""


def findings(snapshot: TableSnapshot, state: GameState) -> list[tuple[Problem, str]]:
    """Every problem of a snapshot for this state, each with a sentence for the table."""
    rules = state.ruleset
    found: list[tuple[Problem, str]] = []
    if len(snapshot.casinos) != rules.casinos:
        found.append((Problem.WRONG_NUMBER_OF_CASINOS, f"{len(snapshot.casinos)} casinos read, not {rules.casinos}"))
    normal: Counter[Colour] = Counter()
    big: Counter[Colour] = Counter()
    for die in snapshot.all_dice():
        (big if die.big else normal)[die.colour] += 1
        if die.pips == 0:
            found.append((Problem.UNREADABLE_PIPS, f"a {die.colour} die could not be read"))
    for number, dice in enumerate(snapshot.casinos, start=1):
        for die in dice:
            if die.pips and die.pips != number:
                found.append((Problem.PIPS_DONT_MATCH_CASINO,
                              f"a {die.colour} die on casino {number} shows {die.pips}"))  # fmt: skip
    n = len(state.players)
    tiles: Counter[tuple[int, Colour]] = Counter()  # a tile's own dice (Royale's grey ones) per casino and colour
    for number, colour, count in extra_dice(state):
        tiles[number, colour] += count
    for (_, colour), count in tiles.items():  # they are no player's
        normal[colour] -= min(count, normal[colour])
    for colour in sorted({c for c in (*normal, *big) if normal[c] or big[c]}, key=list(Colour).index):
        if colour == state.neutral:
            if big[colour]:
                found.append((Problem.NEUTRAL_BIGGY, f"a {colour} Biggy: neutral dice have no Biggy"))
            total = rules.neutral_total_for(n)
            if normal[colour] > total:
                found.append((Problem.TOO_MANY_DICE_OF_COLOUR,
                              f"{normal[colour]} neutral {colour} dice: the game has {total}"))  # fmt: skip
        elif colour not in state.players:
            found.append((Problem.UNKNOWN_COLOUR, f"{colour} dice on the table, but {colour} is not playing"))
        else:
            # Counted together: a Biggy misjudged as a normal die (size is hard to read) is no extra die.
            total, allowed = normal[colour] + big[colour], rules.dice_per_player + rules.biggies_per_player
            if total > allowed:
                kit = f"{rules.dice_per_player} and a Biggy" if rules.biggies_per_player == 1 else str(allowed)
                found.append((Problem.TOO_MANY_DICE_OF_COLOUR, f"{total} {colour} dice: a player has {kit}"))
            if big[colour] > rules.biggies_per_player:
                found.append((Problem.TOO_MANY_BIGGIES,
                              f"{big[colour]} {colour} Biggys: a player has {rules.biggies_per_player}"))  # fmt: skip
    if state.phase in (Phase.ROLL, Phase.PLACE, Phase.SETTLE):
        expected = snapshot_of(state)
        for number, (seen, placed) in enumerate(zip(snapshot.casinos, expected.casinos, strict=False), start=1):
            have = Counter(d.colour for d in seen)
            for colour, count in Counter(d.colour for d in placed).items():
                if have[colour] >= count:
                    continue
                tile = colour not in state.players and tiles[number, colour]
                but = f"the tiles put {count} there" if tile else f"{count} were placed there this round"
                text = f"casino {number} shows {have[colour]} {colour} dice, but {but}"
                found.append((Problem.DICE_REMOVED_MID_ROUND, text))
    return found


def validate(snapshot: TableSnapshot, state: GameState) -> Problem:
    """The problems of a snapshot for this state as flags (``Problem.NONE`` if it is plausible).

    Example:
        >>> from referee import GameState
        >>> state = GameState.from_notation("las-vegas kr 1 k 3k:50/-:60/-:70/-:80/-:90/-:40,10 - -/-")
        >>> validate(TableSnapshot.from_state(state), state)
        <Problem.NONE: 0>
    """
    flags = Problem.NONE
    for problem, _ in findings(snapshot, state):
        flags |= problem
    return flags
