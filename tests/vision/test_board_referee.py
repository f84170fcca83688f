"""Just 4 Fun refereed from rendered films of its board (vision/board_referee.py): hands over the board say
nothing, each stone put down is said on its field, the page's entries (cards drawn, cards played) are checked."""

from __future__ import annotations

import numpy as np
import pytest

from referee.errors import IllegalEventError
from referee.just4fun import CardsDrawn, Phase, StonePlaced
from vision.board_referee import BoardReferee
from vision.capture import Frame
from vision.synth.board import RenderedBoard


@pytest.fixture(scope="module")
def game():
    return RenderedBoard(seed=21, players=("white", "black", "yellow"))


def film(referee, game, index, hands=(), still=4):
    said = []
    for hand in [*hands, *[None] * still]:
        k = film.frame = getattr(film, "frame", 0) + 1
        frame = Frame(k, k / 10, game.picture(index, noise_seed=k, hand=hand))
        said += referee.process(frame)
    return said


def test_the_first_placements_of_a_rendered_game_are_said_on_their_fields_and_hands_say_nothing(game):
    referee = BoardReferee(game.states[0])
    placements = 0
    for index, event in enumerate(game.events[:30]):
        if isinstance(event, CardsDrawn):
            referee.enter(event)
        elif isinstance(event, StonePlaced):
            before = game.states[index - 1]
            hands = [(event.field, before.turn, r / 3) for r in (1, 2, 3)]
            said = [v for v in film(referee, game, index, hands) if v.kind != "uncertain"]
            assert [v.kind for v in said] in (["event"], []), [str(v) for v in said]
            if said:  # a new stone: said on its field, with cards the player then confirms or corrects
                assert said[0].event.field == event.field
                placements += 1
            referee.enter(event)
        assert referee.state == game.states[index], (index, event)
    assert placements >= 6


def test_cards_that_do_not_make_the_field_where_the_stone_lies_are_refused_and_nothing_changes(game):
    referee = BoardReferee(game.states[0])
    first = next(i for i, e in enumerate(game.events) if isinstance(e, StonePlaced))
    for event in game.events[1:first]:
        referee.enter(event)
    event = game.events[first]
    film(referee, game, first, [(event.field, 0, 1.0)])
    assert referee.state.phase is Phase.DRAW and referee.state.history[-1].field == event.field
    state = referee.state
    hand = game.states[first - 1].hands[0]
    other = next(c for c in hand if c != event.field)
    with pytest.raises(IllegalEventError, match=f"stone lies on field {event.field}, but the cards {other} make"):
        referee.enter(StonePlaced(event.player, (other,), other))
    assert referee.state == state


def test_a_frame_without_the_board_is_not_judged():
    referee = BoardReferee(RenderedBoard(seed=2, players=("red", "blue")).states[0])
    seen = referee.see(Frame(0, 0.0, np.full((720, 1280, 3), 90, np.uint8)))
    assert not seen.found and seen.reading is None and referee.judge(seen) == []


def test_a_hand_resting_over_the_board_is_no_reading_and_an_alert_once_it_stays(game):
    """What a hand hides is no stone in play (vision.stones.STONE_COLOUR_DISTANCE): a still hand is not read as
    stones; lying still past ``stray`` frames it is said once; taken away, the stone under it is said."""
    referee = BoardReferee(game.states[0], stray=8)
    first = next(i for i, e in enumerate(game.events) if isinstance(e, StonePlaced))
    for event in game.events[1:first]:
        referee.enter(event)
    event = game.events[first]
    resting = film(referee, game, first, [(event.field, 0, 1.0)] * 10, still=0)
    assert [v.kind for v in resting] == ["alert"] and "no stone in play" in resting[0].reason
    assert referee.state == game.states[first - 1]  # nothing said while the hand lies there
    said = film(referee, game, first)
    assert next(v.event for v in said if v.kind == "event").field == event.field


def test_a_real_board_without_markers_is_refereed_from_its_corners_and_its_picture_empty():
    """A board printed by someone else (other colours, artwork, no markers): calibrated by its grid's four corners,
    each spot compared with the board seen empty, its placements are said on their fields."""
    real = RenderedBoard(seed=22, players=("red", "yellow"), real=True)
    referee = BoardReferee(real.states[0], corners=real.grid_corners())  # the first frame: the board empty
    seen = referee.see(Frame(0, 0.0, real.picture(0)))
    assert seen.reading is not None and seen.reading.stones == {} and not seen.covered
    said = 0
    for index, event in enumerate(real.events[:24]):
        if isinstance(event, CardsDrawn):
            referee.enter(event)
        elif isinstance(event, StonePlaced):
            placed = [v for v in film(referee, real, index) if v.kind == "event"]
            assert placed == [] or placed[0].event.field == event.field
            said += len(placed)
            referee.enter(event)
        assert referee.state == real.states[index]
    assert said >= 5
