"""The table notation round-trips for every state of random games, and rejects bad text clearly."""

import pytest

from referee import GameState, NotationError, find_ruleset
from referee.lasvegas.simulate import default_players, play

RULESETS = ["las-vegas", "las-vegas+neutral", "las-vegas+biggy+100k", "las-vegas+neutral+biggy+six-players"]


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_state_of_random_games_round_trips(name, players):
    rules = find_ruleset(name)
    seen_phases = set()
    for seed in range(3):
        for _, state in play(rules, default_players(players), seed):
            text = state.to_notation()
            parsed = GameState.from_notation(text)
            assert parsed == state, text
            assert parsed.to_notation() == text
            assert eval(repr(state), {"GameState": GameState}) == state
            seen_phases.add(state.phase)
    assert len(seen_phases) >= 5


def test_documented_example_parses():
    text = "las-vegas+neutral+biggy rbg/w 2 b:1356*4+26 2r1R:60,20/-:50/2w:90/-:40,10/-:70/3b:80 2,2,2 60/-/90,30"
    state = GameState.from_notation(text)
    assert state.to_notation() == text
    assert state.roll.biggies == (4,) and state.held_dice == (5, 4, 7)


def test_str_is_the_notation():
    state = next(play(find_ruleset("las-vegas"), default_players(2), 0))[1]
    assert str(state) == "las-vegas rb 1 deal -:-/-:-/-:-/-:-/-:-/-:- - -/-"


VALID = "las-vegas kr 1 k 3k:50/-:60/-:70/-:80/-:90/-:40,10 - -/-"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "7 space-separated fields"),
        (VALID.replace("las-vegas ", "chess "), "unknown game"),
        (VALID.replace(" kr ", " kk "), "players of different colours"),
        (VALID.replace(" kr ", " kz "), "unknown colour letter"),
        (VALID.replace(" 1 k ", " 5 k "), "round '5'"),
        (VALID.replace(" 1 k ", " 1 x "), "not playing|unknown colour letter"),
        (VALID.replace(" 1 k ", " 1 k:339 "), "a die shows 1 to 6"),
        (VALID.replace(" 1 k ", " 1 k:33 "), "one face per die he holds"),
        (VALID.replace("3k:50", "9k:50"), "more dice on the casinos than he owns"),
        (VALID.replace("3k:50", "3q:50"), "unknown colour letter"),
        (VALID.replace("3k:50", "3w:50"), "neither a player nor the neutral colour"),
        (VALID.replace("3k:50", "3k50"), "expected dice:notes"),
        (VALID.replace("3k:50", "k3:50"), "count\\+letter runs"),
        (VALID.replace("3k:50", "3k:5x"), "thousands separated by commas"),
        (VALID.replace("/-:40,10", ""), "6 entries"),
        (VALID.replace(" - -/-", " 2 -/-"), "must be '-' without neutral dice"),
        (VALID.replace(" -/-", " -"), "one entry per seat"),
        (VALID.replace("-:60", "-:90,90,90,90,90"), "more notes of \\$90,000"),
        (VALID.replace(" 1 k ", " 1 deal "), "before the deal the casinos are empty"),
        (VALID.replace(" 1 k ", " 1 settle "), "only when every die is placed"),
        ("las-vegas+neutral rb 1 r -:50/-:60/-:70/-:80/-:90/-:40,10 4,4 -/-", "a neutral colour is written"),
        ("las-vegas+neutral rb/w 1 r -:50/-:60/-:70/-:80/-:90/-:40,10 4,3 -/-", "must add up to 8"),
        ("las-vegas+neutral rb/w 1 r -:50/-:60/-:70/-:80/-:90/-:40,10 4 -/-", "one number per seat"),
        (None, "is a string"),
    ],
)
def test_bad_notation_is_a_clear_error(text, message):
    assert GameState.from_notation(VALID).to_notation() == VALID
    with pytest.raises(NotationError, match=message):
        GameState.from_notation(text)
