"""What else lies on a Royale table: the money cards beside each casino, the casino tiles and the chips.

A camera over a Las Vegas Royale table sees more than dice: each casino's pair of money cards (printed
amounts, a detector's temptation), the tiles of the main game with their names and spaces, and the
players' chips, round tokens the size of a die. :func:`draw_props` draws them flat on the table's
texture, where the game's state puts them, before the dice: the detector is trained and the referee
benchmarked with them in view. They lie outside every zone, as on a real table, so they are never a die.

Only a mat with room beside its casinos gets them (:attr:`vision.mat.MatLayout.beside_mm`, Royale's
ring); the Las Vegas mat fills its sheet with the casinos, and its banknotes lie off the camera's view.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from referee.lasvegas.state import GameState
from vision.mat import MatLayout

__all__ = ["CARD_MM", "CHIP_MM", "TILE_MM", "draw_props", "spots"]

CARD_MM = (40.0, 62.0)
"""A money card's width and length, millimetres (drawn a little under the real card's size)."""
TILE_MM = 52.0
"""A casino tile's side, millimetres."""
CHIP_MM = 19.0
"""A chip's diameter, millimetres (a die is 16)."""
_PX_PER_MM = 3.0
"""Pixels per millimetre of a card's or tile's picture before it is laid on the texture."""
_CARD_TINTS = {30: (150, 200, 160), 40: (190, 170, 120), 50: (140, 170, 220), 60: (200, 150, 190),
               70: (120, 200, 220), 80: (200, 200, 140), 90: (160, 140, 220), 100: (110, 190, 235)}  # fmt: skip
"""Each card value's print colour (BGR), by thousands of dollars; other amounts use the 50's."""
_CHIP = ((40, 160, 215), (25, 95, 140))
"""A chip's face and rim (gold, BGR)."""

Affine = Callable[[np.ndarray], np.ndarray]


def spots(mat: MatLayout, casino: int) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """Where the cards and the tile of ``casino`` lie: ``(x, y, angle)`` each, mat millimetres and degrees.

    Beside the casino, outside the ring, at ``mat.beside_mm`` from the arena's centre: the cards a little
    anticlockwise of the casino's middle, the tile a little clockwise, each turned to face the arena.
    """
    assert mat.beside_mm is not None
    centre = mat.rolling_area.mean(axis=0)
    middle = mat.casinos[casino].mean(axis=0) - centre
    heading = float(np.degrees(np.arctan2(middle[1], middle[0])))
    placed = []
    for turn in (-13.0, 15.0):
        angle = np.radians(heading + turn)
        x, y = centre + mat.beside_mm * np.array([np.cos(angle), np.sin(angle)])
        placed.append((float(x), float(y), heading + turn + 90.0))
    return placed[0], placed[1]


def draw_props(texture: np.ndarray, state: GameState | None, mat: MatLayout, to_texture: np.ndarray,
               rng_seed: int) -> None:  # fmt: skip
    """Draws on ``texture`` (in place) the cards, tiles and chips ``state`` has on the table.

    Args:
        texture: the table's texture (BGR).
        state: the game at this moment (None: nothing is drawn).
        mat: the mat; nothing is drawn unless it has room beside its casinos.
        to_texture: 3x3 affine from mat millimetres to texture pixels.
        rng_seed: places the chips' piles and jitter (the same seed, the same table).
    """
    if state is None or mat.beside_mm is None:
        return
    rng = np.random.default_rng(rng_seed)
    for number, casino in enumerate(state.casinos, start=1):
        (x, y, angle), _ = spots(mat, number)
        # The lower card below, the higher one on top, fanned so that both amounts show.
        for k, note in enumerate(sorted(casino.banknotes)):
            shift = (k - (len(casino.banknotes) - 1) / 2) * 14.0
            dx, dy = shift * np.cos(np.radians(angle)), shift * np.sin(np.radians(angle))
            _lay(texture, _card(note), to_texture, (x + dx, y + dy), angle + 8.0 * (k - 0.5), CARD_MM)
    for laid in state.tiles:
        _, (x, y, angle) = spots(mat, laid.casino)
        _lay(texture, _tile(laid.tile.name), to_texture, (x, y), angle, (TILE_MM, TILE_MM))
    names = [name for name, _ in state.ruleset.hooks.resources]
    if "chips" in names:
        chips = state.resource("chips")
        for seat, count in enumerate(chips):
            # Each player's pile on the table at the mat's near edge, spread along it by seat.
            along = (seat + 0.5) / len(chips)
            centre = np.array([mat.width_mm * (0.12 + 0.76 * along), mat.height_mm + 12.0])
            for _ in range(count):
                x, y = centre + rng.normal(0, 9.0, 2)
                _chip(texture, to_texture, (float(x), float(y)))


def _card(note: int) -> np.ndarray:
    """A money card's face: its value's tint, a white border, the amount large and in full."""
    w, h = round(CARD_MM[0] * _PX_PER_MM), round(CARD_MM[1] * _PX_PER_MM)
    thousands = note // 1000
    card = np.full((h, w, 3), 245, np.uint8)
    cv2.rectangle(card, (6, 6), (w - 7, h - 7), _CARD_TINTS.get(thousands, _CARD_TINTS[50]), -1)
    cv2.rectangle(card, (0, 0), (w - 1, h - 1), (90, 90, 90), 1)
    big = str(thousands)
    (tw, th), _ = cv2.getTextSize(big, cv2.FONT_HERSHEY_DUPLEX, 2.0, 3)
    cv2.putText(card, big, ((w - tw) // 2, (h + th) // 2), cv2.FONT_HERSHEY_DUPLEX, 2.0, (30, 30, 30), 3, cv2.LINE_AA)
    cv2.putText(card, f"${note:,}", (12, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (30, 30, 30), 1, cv2.LINE_AA)
    return card


def _tile(name: str) -> np.ndarray:
    """A casino tile's face: dark felt, a gold frame, its name, and three round spaces."""
    side = round(TILE_MM * _PX_PER_MM)
    tile = np.full((side, side, 3), (70, 35, 95), np.uint8)
    cv2.rectangle(tile, (4, 4), (side - 5, side - 5), (60, 170, 215), 3)
    for line, word in enumerate(name.upper().split()[:2]):
        (tw, _), _ = cv2.getTextSize(word, cv2.FONT_HERSHEY_SIMPLEX, 0.6, 2)
        cv2.putText(tile, word, ((side - tw) // 2, 34 + 24 * line), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (230, 230, 230), 2,
                    cv2.LINE_AA)  # fmt: skip
    for k in range(3):
        cv2.circle(tile, (side * (k + 1) // 4, side - 38), 15, (50, 130, 170), 2, cv2.LINE_AA)
    return tile


def _lay(texture: np.ndarray, picture: np.ndarray, to_texture: np.ndarray, centre: tuple[float, float],
         angle: float, size_mm: tuple[float, float]) -> None:  # fmt: skip
    """Lays a flat picture (a card, a tile) of ``size_mm`` on the texture, centred and turned on the mat."""
    h, w = picture.shape[:2]
    a = np.radians(angle)
    turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    scale = np.diag([size_mm[0] / w, size_mm[1] / h])
    to_mat = np.eye(3)
    to_mat[:2, :2] = turn @ scale
    to_mat[:2, 2] = np.array(centre) - turn @ scale @ np.array([w / 2, h / 2])
    warp = to_texture @ to_mat
    corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], np.float64) @ warp.T
    x0, y0 = np.floor(corners[:, :2].min(axis=0)).astype(int)
    x1, y1 = np.ceil(corners[:, :2].max(axis=0)).astype(int)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, texture.shape[1]), min(y1, texture.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    shifted = warp.copy()
    shifted[:2, 2] -= (x0, y0)
    size = (int(x1 - x0), int(y1 - y0))
    laid = cv2.warpAffine(picture, shifted[:2], size, flags=cv2.INTER_AREA)
    alpha = cv2.warpAffine(np.full((h, w), 255, np.uint8), shifted[:2], size, flags=cv2.INTER_LINEAR)
    alpha = (alpha.astype(np.float32) / 255)[..., None]
    roi = texture[y0:y1, x0:x1]
    roi[:] = (laid * alpha + roi * (1 - alpha)).astype(np.uint8)


def _chip(texture: np.ndarray, to_texture: np.ndarray, centre: tuple[float, float]) -> None:
    """A round chip lying flat at ``centre`` (mat millimetres)."""
    x, y = (to_texture @ np.array([*centre, 1.0]))[:2]
    radius = CHIP_MM / 2 * float(np.hypot(*to_texture[:2, 0]))
    if not (0 <= x < texture.shape[1] and 0 <= y < texture.shape[0]):
        return
    face, rim = _CHIP
    cv2.circle(texture, (round(x), round(y)), round(radius), rim, -1, cv2.LINE_AA)
    cv2.circle(texture, (round(x), round(y)), round(radius * 0.8), face, -1, cv2.LINE_AA)
    cv2.circle(texture, (round(x), round(y)), round(radius * 0.45), rim, 2, cv2.LINE_AA)
