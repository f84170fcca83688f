"""The Royale table's props (money cards, tiles, chips) in the renderer: where they lie and what they show."""

import cv2
import numpy as np
import pytest

from referee import find_ruleset, new_game
from referee.lasvegas.simulate import play
from referee.lasvegas.state import Casino
from vision.mat import MAT, ROYALE_MAT
from vision.synth.props import CARD_MM, TILE_MM, draw_props, spots

_PX = 3.0  # texture pixels per millimetre in these tests
_TO_TEXTURE = np.array([[_PX, 0, 60.0], [0, _PX, 60.0], [0, 0, 1]])  # mat mm -> texture px, a margin of 20 mm


def _blank() -> np.ndarray:
    return np.full(
        (round((ROYALE_MAT.height_mm + 40) * _PX), round((ROYALE_MAT.width_mm + 40) * _PX), 3), 128, np.uint8
    )


def _rectangle(x: float, y: float, angle: float, size: tuple[float, float]) -> np.ndarray:
    box = cv2.boxPoints(((x, y), size, angle))
    return np.asarray(box, np.float64)


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return float(area)


@pytest.mark.parametrize("casino", range(1, 7))
def test_cards_and_tiles_lie_beside_their_casino_off_every_zone_and_marker(casino):
    (cx, cy, card_angle), (tx, ty, tile_angle) = spots(ROYALE_MAT, casino)
    # The fan of two cards spans about 14 mm more than a card: test the card widened by it.
    card = _rectangle(cx, cy, card_angle, (CARD_MM[0] + 16.0, CARD_MM[1]))
    tile = _rectangle(tx, ty, tile_angle, (TILE_MM, TILE_MM))
    zones = [*ROYALE_MAT.casinos.values(), ROYALE_MAT.rolling_area]
    markers = [ROYALE_MAT.marker_corners(ident) for ident in ROYALE_MAT.markers]
    for thing in (card, tile):
        assert all(_overlap(thing, zone) < 1.0 for zone in zones)
        assert all(_overlap(thing, marker) < 1.0 for marker in markers)
    # Nearest its own casino of all six: a reader of the table knows whose cards they are.
    middle = np.array([cx, cy])
    distances = [np.linalg.norm(ROYALE_MAT.casinos[n].mean(axis=0) - middle) for n in range(1, 7)]
    assert int(np.argmin(distances)) + 1 == casino


def _state_with(notes: tuple[tuple[int, ...], ...]):
    state = new_game(find_ruleset("las-vegas-royale"), ["red", "blue", "green"])
    casinos = tuple(Casino(c.dice, c.biggies, c.neutral, n) for c, n in zip(state.casinos, notes, strict=True))
    return state.evolve(casinos=casinos)


def test_each_casinos_cards_are_drawn_at_its_spot_and_only_there():
    notes = ((), (), (90_000, 30_000), (), (), ())
    texture = _blank()
    draw_props(texture, _state_with(notes), ROYALE_MAT, _TO_TEXTURE, 1)
    changed = np.any(texture != 128, axis=2)
    (x, y, _), _ = spots(ROYALE_MAT, 3)
    u, v = (_TO_TEXTURE @ [x, y, 1])[:2]
    assert changed[round(v), round(u)]
    for other in (1, 3, 4, 6):  # no cards there (2 and 5 lie off the texture's margin)
        (x, y, _), _ = spots(ROYALE_MAT, other)
        u, v = (_TO_TEXTURE @ [x, y, 1])[:2]
        assert changed[round(v), round(u)] == (other == 3)
    # The chips: 2 each at the start, at the near edge off the mat.
    rows = np.nonzero(changed.any(axis=1))[0]
    assert rows.max() > (ROYALE_MAT.height_mm + 20) * _PX


def test_the_main_games_tiles_are_drawn_and_the_las_vegas_mat_gets_nothing():
    ruleset = find_ruleset("las-vegas-royale+main")
    state = next(s for _, s in play(ruleset, ["red", "blue"], 4) if s.tiles and s.casinos[0].banknotes)
    texture = _blank()
    draw_props(texture, state, ROYALE_MAT, _TO_TEXTURE, 1)
    for laid in state.tiles:
        _, (x, y, _) = spots(ROYALE_MAT, laid.casino)
        u, v = (_TO_TEXTURE @ [x, y, 1])[:2]
        assert tuple(texture[round(v), round(u)]) != (128, 128, 128)
    untouched = _blank()
    draw_props(untouched, state, MAT, _TO_TEXTURE, 1)
    assert (untouched == 128).all()


def test_chips_follow_the_state():
    state = _state_with(((),) * 6)
    few, many = _blank(), _blank()
    draw_props(few, state, ROYALE_MAT, _TO_TEXTURE, 1)
    names = [name for name, _ in state.ruleset.hooks.resources]
    richer = state.evolve(resources=tuple(tuple(6 if n == "chips" else v for n, v in zip(names, held, strict=True))
                                          for held in state.resources))  # fmt: skip
    draw_props(many, richer, ROYALE_MAT, _TO_TEXTURE, 1)
    assert np.any(many != 128, axis=2).sum() > 1.5 * np.any(few != 128, axis=2).sum()
