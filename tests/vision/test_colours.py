import numpy as np
import pytest

from vision.colours import PALETTE, PALETTE_NAMES, ColourBook


def head(**probabilities):
    out = np.zeros((1, len(PALETTE_NAMES)), np.float32)
    for name, p in probabilities.items():
        out[0, PALETTE_NAMES.index(name)] = p
    return out


def test_the_head_is_restricted_to_the_games_colours():
    book = ColourBook(["red", "black", "white"])
    # read grey (not in this game) but nearly as likely white: a white die
    scores = book.scores(head(grey=0.6, white=0.3, black=0.1))
    assert scores.shape == (1, 3) and scores.sum() == pytest.approx(1)
    assert book.decide(head(grey=0.6, white=0.3, black=0.1)) == ["white"]
    assert scores[0].tolist() == pytest.approx([0, 0.25, 0.75], abs=1e-6)


def test_a_dim_white_die_is_white_by_the_head_not_black_by_its_body():
    book = ColourBook(["black", "white"])
    dim_white = np.array([[120, 120, 120]], np.float32)  # nearer black than white in CIELAB
    assert book.classify(dim_white) == ["black"]
    assert book.decide(head(white=0.9, black=0.1), dim_white) == ["white"]


def test_learned_colours_weigh_in_with_the_head():
    book = ColourBook(["red", "blue"])
    book.learn("blue", [(90, 30, 20)])  # this camera's blue: dark
    body = np.array([[90, 30, 20]], np.float32)
    assert book.decide(head(red=0.55, blue=0.45), body) == ["blue"]  # the learned colour tips an unsure head
    assert book.decide(head(red=0.55, blue=0.45), np.array([PALETTE["red"]], np.float32)) == ["red"]


def test_a_thing_the_head_gives_none_of_the_games_colours_is_no_die_of_the_game():
    """Royale's chips boxed as dice read yellow or orange (traced: a chip at casino 5's edge, restricted to red,
    blue and green, read as a green 1): a box whose head gives the game's colours together under 2 % is not
    one of its dice, unless its body lies near a colour learned at setup."""
    book = ColourBook(["red", "blue", "green", "grey", "black"])
    boxes = np.concatenate([head(yellow=0.6, orange=0.395, green=0.005), head(orange=0.9, red=0.08, green=0.02),
                            head(blue=0.99, black=0.01)])  # fmt: skip
    assert book.of_the_game(boxes).tolist() == [False, True, True]
    assert ColourBook(["red", "yellow"]).of_the_game(boxes[:1]).tolist() == [True]  # a yellow player's game
    book.learn("green", [(40, 200, 230)])  # this camera's green looks yellowish
    assert book.of_the_game(boxes[:1], np.array([[40, 195, 228]], np.float32)).tolist() == [True]
    assert book.of_the_game(boxes[:1], np.array([[200, 40, 40]], np.float32)).tolist() == [False]


def test_without_the_head_the_nearest_colour_decides():
    book = ColourBook(["red", "blue"])
    assert book.scores(None, np.array([PALETTE["blue"]], np.float32)).tolist() == [[0, 1]]
    assert book.decide(None, np.zeros((0, 3))) == []


def test_an_unsure_die_is_told_by_the_dice_its_picture_shows_surely():
    """A translucent black die on green cloth looks greenish and the head hesitates between black and green:
    the black and green dice read surely in the same picture show how each colour looks under this light."""
    book = ColourBook(["green", "black"])
    heads = np.concatenate([head(black=0.99, green=0.01), head(black=0.97, green=0.03), head(green=0.98, black=0.02),
                            head(green=0.99, black=0.01), head(green=0.6, black=0.4)])  # fmt: skip
    bodies = np.array([[30, 30, 30], [36, 34, 35], [60, 150, 50], [55, 140, 45], [34, 44, 34]], np.float32)
    assert book.decide(heads, bodies) == ["black", "black", "green", "green", "black"]
    assert book.decide(heads[4:], bodies[4:]) == ["green"]  # alone in its picture: the head decides
    assert book.decide(heads[4:]) == ["green"]  # no bodies: the head decides
    # a colour only one die shows surely is not known from the picture: it weighs as one sigma
    assert book.decide(heads[[0, 2, 3, 4]], bodies[[0, 2, 3, 4]]) == ["black", "green", "green", "black"]
    # black known and green not: a body half a sigma from black's tips only a closer call than 0.6 to 0.4
    assert book.decide(heads[[0, 1, 2, 4]], bodies[[0, 1, 2, 4]]) == ["black", "black", "green", "green"]
    closer = np.concatenate([heads[[0, 1, 2]], head(green=0.52, black=0.48)])
    assert book.decide(closer, bodies[[0, 1, 2, 4]]) == ["black", "black", "green", "black"]
    # a die read surely keeps its colour whatever its body
    sure = np.concatenate([heads[:4], head(green=0.95, black=0.05)])
    assert book.decide(sure, bodies) == ["black", "black", "green", "green", "green"]
    scores = book.scores(heads, bodies)
    assert scores.sum(axis=1) == pytest.approx(np.ones(5))
    assert np.allclose(scores[:4], book.scores(heads[:4]))  # the sure dice's scores are the head's
