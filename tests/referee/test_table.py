"""Validation of camera snapshots (G5): impossible readings are named, plausible ones pass."""

from dataclasses import replace

import pytest

from referee import Colour, GameState, find_ruleset
from referee.lasvegas.simulate import default_players, play
from referee.lasvegas.table import Problem, findings, validate
from referee.readings import DieReading, TableSnapshot

MID_ROUND = GameState.from_notation(
    "las-vegas+neutral+biggy rbg/w 2 b:1356*4+26 2r1R:60,20/-:50/2w:90/-:40,10/-:70/3b:80 2,2,2 60/-/90,30"
)
RED, BLUE, WHITE = Colour.RED, Colour.BLUE, Colour.WHITE


def with_casino(snapshot, number, dice):
    casinos = list(snapshot.casinos)
    casinos[number - 1] = tuple(dice)
    return replace(snapshot, casinos=tuple(casinos))


def test_every_state_of_random_games_reads_as_plausible():
    for name in ("las-vegas", "las-vegas+neutral+biggy"):
        for _, state in play(find_ruleset(name), default_players(3), 5):
            assert validate(TableSnapshot.from_state(state), state) == Problem.NONE, state.to_notation()


def test_from_state_lists_casinos_and_tray():
    snap = TableSnapshot.from_state(MID_ROUND, frame_index=12, timestamp_s=0.4)
    assert (snap.frame_index, snap.timestamp_s) == (12, 0.4)
    assert snap.casinos[0] == (DieReading(RED, False, 1),) * 2 + (DieReading(RED, True, 1),)
    assert snap.casinos[2] == (DieReading(WHITE, False, 3),) * 2
    assert [d.pips for d in snap.tray] == [1, 3, 5, 6, 4, 2, 6]
    assert [d.big for d in snap.tray].count(True) == 1


BASE = TableSnapshot.from_state(MID_ROUND)


@pytest.mark.parametrize(
    ("snapshot", "problem", "message"),
    [
        (replace(BASE, casinos=BASE.casinos[:5]), Problem.WRONG_NUMBER_OF_CASINOS, "5 casinos read"),
        (with_casino(BASE, 2, [DieReading(Colour.PINK, False, 2)]), Problem.UNKNOWN_COLOUR, "pink is not playing"),
        (
            with_casino(BASE, 2, [DieReading(RED, False, 2)] * 9),
            Problem.TOO_MANY_DICE_OF_COLOUR,
            "12 red dice: a player has 7 and a Biggy",
        ),
        (with_casino(BASE, 2, [DieReading(RED, True, 2)]), Problem.TOO_MANY_BIGGIES, "2 red Biggys"),
        (with_casino(BASE, 2, [DieReading(WHITE, True, 2)]), Problem.NEUTRAL_BIGGY, "neutral dice have no Biggy"),
        (with_casino(BASE, 2, [DieReading(WHITE, False, 2)] * 9), Problem.TOO_MANY_DICE_OF_COLOUR, "the game has 8"),
        (with_casino(BASE, 2, [DieReading(BLUE, False, 3)]), Problem.PIPS_DONT_MATCH_CASINO, "casino 2 shows 3"),
        (with_casino(BASE, 2, [DieReading(BLUE, False, 0)]), Problem.UNREADABLE_PIPS, "could not be read"),
        (
            with_casino(BASE, 6, [DieReading(BLUE, False, 6)] * 2),
            Problem.DICE_REMOVED_MID_ROUND,
            "casino 6 shows 2 blue dice, but 3 were placed",
        ),
        (
            with_casino(BASE, 1, [DieReading(RED, False, 1)] * 2),
            Problem.DICE_REMOVED_MID_ROUND,
            "casino 1 shows 2 red dice, but 3 were placed",
        ),
    ],
)
def test_each_problem_is_flagged_and_explained(snapshot, problem, message):
    flags = validate(snapshot, MID_ROUND)
    assert flags & problem
    assert any(p is problem and message in text for p, text in findings(snapshot, MID_ROUND))


def test_problems_combine():
    snap = with_casino(BASE, 2, [DieReading(Colour.PINK, False, 4), DieReading(Colour.GREEN, False, 0)])
    assert (
        validate(snap, MID_ROUND) == Problem.UNKNOWN_COLOUR | Problem.PIPS_DONT_MATCH_CASINO | Problem.UNREADABLE_PIPS
    )
