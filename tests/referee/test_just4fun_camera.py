"""Just 4 Fun refereed from readings of the board (referee/just4fun/camera.py): placements said from new stones,
stacks entered on the page, the cards played checked against the field, alerts with the rules' reasons."""

from __future__ import annotations

import pytest

from referee.errors import IllegalEventError
from referee.just4fun import CardsDrawn, HandDiscarded, Phase, StonePlaced, apply, play
from referee.just4fun.camera import BoardReading, JustForFunCamera, board_interpreter, entered, provisional
from referee.just4fun.rules import CENTRE
from referee.types import Colour
from tests.referee.test_just4fun import BLACK, BLUE, RED, WHITE, table

CAMERA = JustForFunCamera()


def board(state, frame=0, **changes):
    """The reading of a perfect reader: each player's top stone on his spot, a secured stack in the centre.

    ``changes``: ``"field_spot"`` -> a colour name, or None to take a stone off (``f10_1="black"``).
    """
    stones = {}
    for number in range(1, 37):
        holder = state.secured[number - 1]
        for seat, count in enumerate(state.stack(number)):
            if count:
                stones[number, CENTRE if seat == holder else seat] = state.players[seat]
    for key, colour in changes.items():
        number, spot = (int(part) for part in key[1:].split("_"))
        if colour is None:
            stones.pop((number, spot), None)
        else:
            stones[number, spot] = Colour.from_str(colour)
    return BoardReading(frame, frame / 10, stones)


referee = board_interpreter


def said(verdicts, kind="event"):
    return [v.text if kind == "event" else v.reason for v in verdicts if v.kind == kind]


def test_a_new_stone_is_a_placement_said_with_the_fewest_cards_that_name_its_field():
    state = table(hands=[(1, 2, 3, 9), (5, 5, 6, 6), (7, 7, 8, 8)])
    interpreter = referee(state)
    assert interpreter.observe(board(state)) == []  # nothing new
    verdicts = interpreter.observe(board(state, 1, f3_0="red"))
    assert said(verdicts) == ["red plays 3 and places a stone on field 3"]  # 3 alone, not 1 + 2
    assert verdicts[0].reason == "the cards played are to be entered"  # 1 + 2 make 3 too
    assert interpreter.state.phase is Phase.DRAW
    asked = "red: enter the 1 cards drawn (and the cards played, if not 3)"
    assert JustForFunCamera.waits_for(interpreter.state) == asked
    assert provisional(state, 12) == StonePlaced(RED, (3, 9), 12) and provisional(state, 36) is None


def test_the_cards_entered_replace_the_ones_said_when_they_name_the_same_field():
    state = table(hands=[(1, 2, 3, 9), (5, 5, 6, 6), (7, 7, 8, 8)])
    assert entered(state, (2, 1), seen=3) == StonePlaced(RED, (1, 2), 3)
    assert entered(state, (9, 3)) == StonePlaced(RED, (3, 9), 12)  # nothing seen: the cards name the field
    with pytest.raises(IllegalEventError, match="red's stone lies on field 3, but the cards 1 \\+ 3 make 4"):
        entered(state, (1, 3), seen=3)
    with pytest.raises(IllegalEventError, match="holds no 4"):
        entered(state, (4,), seen=4)
    with pytest.raises(IllegalEventError, match="draws 1 cards first"):
        entered(apply(state, StonePlaced(RED, (3,), 3)), (9,))


def test_a_stone_on_his_own_stack_is_not_seen_and_is_entered_on_the_page():
    state = table(stacks={9: (1, 1, 0)}, hands=[(1, 2, 3, 9), (5, 5, 6, 6), (7, 7, 8, 8)])
    interpreter = referee(state)
    for frame in range(3):  # the table is as it was: a stone on red's stack changes nothing seen
        assert said(interpreter.observe(board(state, frame))) == []
    assert interpreter.state == state
    verdicts = interpreter.answer(entered(interpreter.state, (9,)))  # the page: red played 9
    assert said(verdicts) == ["red plays 9 and places a stone on field 9"] and interpreter.state.stack(9) == (2, 1, 0)


def test_a_field_secured_shows_the_stack_in_the_centre_and_the_others_stones_gone():
    state = table(stacks={10: (2, 1, 0)}, hands=[(4, 6, 10, 1), (5, 5, 6, 6), (7, 7, 8, 8)])
    interpreter = referee(state)
    secured = apply(state, StonePlaced(RED, (10,), 10))
    verdicts = interpreter.observe(board(secured, 1))
    assert said(verdicts) == ["red plays 10 and places a stone on field 10: red secures field 10"]
    # the stack moved to the centre before the black stone is taken off: said once the board is as the rules say
    interpreter = referee(state)
    first = interpreter.observe(board(secured, 1, f10_1="black"))
    assert said(first + interpreter.observe(board(secured, 2))) == said(verdicts)


HANDS = [(1, 2, 4, 9), (5, 5, 6, 6), (7, 7, 8, 8)]


@pytest.mark.parametrize(("stacks", "changes", "reason"), [
    ({}, {"f5_1": "black"}, "a black stone appeared on field 5, but it is red's turn"),
    ({}, {"f30_0": "red"}, "no cards of red's hand (1 2 4 9) make 30"),
    ({7: (0, 2, 0)}, {"f7_0": "red"}, "two or more ahead, so red may not place there"),
    ({7: (0, 1, 0)}, {"f7_1": None}, "black's stone on field 7 is gone: put it back"),
    ({}, {"f4_0": "yellow"}, "a yellow stone lies on field 4, but yellow does not play"),
])  # fmt: skip
def test_a_board_no_legal_move_explains_is_an_alert_with_the_rules_reason(stacks, changes, reason):
    state = table(stacks=stacks, hands=HANDS)
    interpreter = referee(state)
    verdicts = [v for frame in range(6) for v in interpreter.observe(board(state, frame, **changes))]
    assert reason in " ".join(said(verdicts, "alert")), [str(v) for v in verdicts]
    assert interpreter.state == state  # nothing was booked


def test_stones_left_on_a_secured_field_are_said_to_be_taken_off():
    state = table(stacks={10: (3, 0, 0)}, secured=(-1,) * 9 + (0,) + (-1,) * 26)
    assert "field 10 is secured by red: take the black stone off" in JustForFunCamera.diagnose(
        state, board(state, f10_1="black")
    )


def test_a_hand_that_can_place_nowhere_is_thrown_by_the_rules_once_the_draw_is_entered():
    blocked = {n: (0, 2, 0) for n in range(1, 37)}  # black two ahead everywhere: red cannot place
    state = table(stacks=blocked, hands=[(1, 2, 3, 4), (5, 5, 5, 5), (6, 6, 6)], phase=Phase.DRAW, to_draw=1, turn=2)
    interpreter = referee(state)
    verdicts = interpreter.answer(CardsDrawn(WHITE, (7,)))
    assert verdicts[-1].event == HandDiscarded(RED) and interpreter.state.phase is Phase.DRAW
    assert JustForFunCamera.waits_for(interpreter.state) == "red: enter the 4 cards drawn"


@pytest.mark.parametrize(("players", "seed"), [((RED, BLUE), 11), ((RED, BLUE, BLACK), 12),
                                               ((WHITE, RED, BLUE, BLACK), 13)])  # fmt: skip
def test_whole_random_games_refereed_from_perfect_readings_and_the_page(players, seed):
    """Every placement that changes the board is said by the camera; the rest (stacks) and the cards are entered."""
    game = list(play(players, seed))
    interpreter = referee(game[0][1])
    seen = on_stacks = 0
    for frame, ((event, after), (_, before)) in enumerate(zip(game[1:], game, strict=False)):
        if isinstance(event, StonePlaced):
            for k in range(2):
                interpreter.observe(board(after, 2 * frame + k))
            if interpreter.state.phase is Phase.PLAY:  # not seen: on his own stack
                assert CAMERA.expected(after) == CAMERA.expected(before)
                interpreter.answer(entered(interpreter.state, event.cards))
                on_stacks += 1
            else:
                assert interpreter.state.history[-1].field == event.field
                interpreter.reset(apply(before, entered(before, event.cards, seen=event.field)))
                seen += 1
        elif isinstance(event, CardsDrawn):
            interpreter.answer(event)
        assert interpreter.state == after, event
    assert seen > on_stacks > 0 and interpreter.state.phase is Phase.OVER
