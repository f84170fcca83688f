"""Just 4 Fun's board read from above (vision.stones) on rendered tables (vision.synth.board)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.board import CENTRE, find_board
from vision.stones import read_board, read_stones
from vision.synth.board import RenderedBoard, truth


@pytest.mark.parametrize(("seed", "players"), [(131, ("black", "white", "yellow", "red")), (132, ("green", "white")),
                                               (133, ("red", "blue", "green"))])  # fmt: skip
def test_every_stone_is_read_in_its_colour_and_no_bare_spot_is_taken_for_one(seed, players):
    """Seeds never used to choose the threshold (1-8 were); white and black stones among them."""
    game = RenderedBoard(seed=seed, players=players)
    for index in np.linspace(0, len(game.states) - 1, 4).astype(int):
        image = game.picture(int(index))
        homography = find_board(image, game.layout)
        assert homography is not None
        seen = read_stones(image, homography, game.layout, players)
        assert seen == {(n, s): c for n, s, c, _ in truth(game.states[index])}


def test_a_secured_stack_is_read_on_the_centre_and_the_others_stones_are_gone():
    game = RenderedBoard(seed=134, players=("red", "blue"))
    index = next(k for k, state in enumerate(game.states) if any(h >= 0 for h in state.secured))
    state = game.states[index]
    number = next(n for n in range(1, 37) if state.secured[n - 1] >= 0)
    image = game.picture(index)
    seen = read_stones(image, find_board(image, game.layout), game.layout, ("red", "blue"))
    assert seen[number, CENTRE] == state.players[state.secured[number - 1]].value
    assert not [spot for (n, spot) in seen if n == number and spot != CENTRE]


def test_the_renderers_truth_follows_the_states_stones():
    game = RenderedBoard(seed=135, players=("red", "blue", "green"))
    last = game.states[-1]
    stones = list(truth(last))
    assert sum(height for *_, height in stones) == sum(map(sum, last.stacks))
    assert all(0 <= spot <= CENTRE and 1 <= n <= 36 for n, spot, *_ in stones)


def test_what_a_hand_hides_is_covered_never_a_stone_in_play():
    """A hand reaching over the board: every spot it hides is either read as the stone that lies there or
    covered; none is taken for a stone that is not there (seeds 135-136, never used to choose the threshold)."""
    for seed, players in ((135, ("red", "blue", "green")), (136, ("black", "white", "yellow", "red"))):
        game = RenderedBoard(seed=seed, players=players)
        placed = [i for i, e in enumerate(game.events) if e is not None and hasattr(e, "field")][5::9]
        for index in placed:
            field, seat = game.events[index].field, game.states[index - 1].turn
            for reach in (0.6, 1.0):
                seen = read_board(game.picture(index, hand=(field, seat, reach)), game.pixels_to_board(),
                                  game.layout, players)  # fmt: skip
                true = {(n, s): c for n, s, c, _ in truth(game.states[index])}
                assert seen.covered or reach < 1, (seed, index)  # over the field, the hand hides its spots
                assert all(true.get(spot) == colour for spot, colour in seen.stones.items()), (seed, index, reach)
