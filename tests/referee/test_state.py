"""The state machine's contract: construction, chance nodes, immutability, replay."""

import dataclasses

import pytest

from referee import (
    CHANCE,
    GAME_OVER,
    BanknotesDealt,
    Colour,
    DicePlaced,
    DiceRolled,
    IllegalEventError,
    NotationError,
    UnknownRuleSetError,
    apply,
    find_ruleset,
    legal_placements,
    new_game,
    next_actor,
    outcome,
    place_all,
    preview,
    replay,
    standings,
)
from referee.lasvegas.simulate import default_players, random_game

DEAL = BanknotesDealt(((60_000,), (50_000,), (90_000,), (70_000,), (80_000,), (10_000, 40_000)))


@pytest.mark.parametrize(
    ("name", "players", "neutral", "error", "message"),
    [
        ("las-vegas", ["red"], "white", UnknownRuleSetError, "2 to 5 players, not 1"),
        ("las-vegas", ["red"] * 6, "white", UnknownRuleSetError, "not 6"),
        ("las-vegas", ["red", "red"], "white", IllegalEventError, "dice of his own colour"),
        ("las-vegas", ["red", "mauve"], "white", NotationError, "unknown colour 'mauve'"),
        ("las-vegas+neutral", ["red", "white"], "white", IllegalEventError, "white is the neutral colour"),
        ("las-vegas+neutral", ["red", "blue"], None, UnknownRuleSetError, "needs a neutral colour"),
    ],
)
def test_new_game_rejects_impossible_tables(name, players, neutral, error, message):
    with pytest.raises(error, match=message):
        new_game(find_ruleset(name), players, neutral)


def test_neutral_colour_is_ignored_without_the_variant_and_can_be_chosen_with_it():
    assert new_game(find_ruleset("las-vegas"), ["red", "blue"]).neutral is None
    state = new_game(find_ruleset("las-vegas+neutral"), ["red", "white"], neutral="grey")
    assert state.neutral is Colour.GREY


def test_chance_nodes_and_actors_through_a_round():
    state = new_game(find_ruleset("las-vegas"), ["red", "blue"])
    assert next_actor(state) is CHANCE and state.to_act is None
    state = apply(state, DEAL)
    assert next_actor(state) is CHANCE and state.to_act is Colour.RED
    state = apply(state, DiceRolled(Colour.RED, (1, 1, 2, 2, 3, 3, 4, 4)))
    assert next_actor(state) is Colour.RED
    assert [p.casino for p in legal_placements(state)] == [1, 2, 3, 4]
    assert place_all(state, 4) == DicePlaced(Colour.RED, 4, 2)
    final = random_game(find_ruleset("las-vegas"), ["red", "blue"], 3)
    assert next_actor(final) is GAME_OVER
    assert legal_placements(final) == ()


def test_states_are_immutable_and_keep_their_history():
    state = new_game(find_ruleset("las-vegas"), ["red", "blue"])
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.round = 2
    after = apply(state, DEAL)
    assert state.history == () and after.history == (DEAL,)
    assert state.casinos[0].banknotes == () and after.casinos[0].banknotes == (60_000,)


def test_roll_faces_are_stored_sorted_but_the_event_is_kept_as_given():
    state = apply(new_game(find_ruleset("las-vegas"), ["red", "blue"]), DEAL)
    roll = DiceRolled(Colour.RED, (6, 1, 3, 3, 2, 2, 5, 4))
    after = apply(state, roll)
    assert after.roll.dice == (1, 2, 2, 3, 3, 4, 5, 6)
    assert after.history[-1] == roll


def test_replay_names_the_failing_event():
    state = new_game(find_ruleset("las-vegas"), ["red", "blue"])
    with pytest.raises(IllegalEventError, match="event 2: no deal now"):
        replay(state, [DEAL, DEAL])
    with pytest.raises(IllegalEventError, match="not an event"):
        apply(state, "deal")


def test_place_all_needs_a_roll():
    with pytest.raises(IllegalEventError, match="no placement now"):
        place_all(new_game(find_ruleset("las-vegas"), ["red", "blue"]), 3)


def test_preview_mid_round_and_standings():
    state = apply(new_game(find_ruleset("las-vegas"), ["red", "blue"]), DEAL)
    state = apply(state, DiceRolled(Colour.RED, (3, 3, 3, 1, 1, 2, 5, 6)))
    state = apply(state, place_all(state, 3))
    assert preview(state).totals() == {Colour.RED: 90_000}
    assert outcome(state) is None
    assert [s.rank for s in standings(state)] == [1, 1]
    final = random_game(find_ruleset("las-vegas"), default_players(4), 11)
    result = outcome(final)
    assert result is not None and result.winners
    assert sum(final.money().values()) == sum(s.money_usd for s in result.standings)
