"""The built-in game: a whole seeded Las Vegas game filmed on the printed mat, frame by frame.

:class:`RenderedGame` turns the moments of a simulated game (``referee.lasvegas.simulate.table_moments``)
into the video a webcam on a stand would record: the play mat with its markers on a table, a slight
camera angle, dice of the players' colours lying where they were put, a hand reaching in for every
roll, placement and clearing (so the picture moves, then rests), and sensor noise. The truth comes
with it: which moment every frame shows and the game's events, so tests and benchmarks can check
what the referee made of it.

Everything is drawn from the seed: the same seed gives the same frames. Each moment's still picture
is drawn once and reused for its frames, so a game renders faster than it plays.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from statistics import NormalDist

import cv2
import numpy as np

from referee import Colour, find_ruleset, game_of
from referee.lasvegas.simulate import Moment, table_moments
from referee.readings import DieReading
from vision.capture import Frame
from vision.colours import PALETTE
from vision.detections import Detections
from vision.mat import draw_mat, mat_for
from vision.synth.camera import Camera, look_at
from vision.synth.dice import DieLook, DiePose, crossings, die_faces, draw_die, overlaps
from vision.synth.props import TILE_MM, draw_props, spots
from vision.synth.scene import BIGGY_MM, DIE_MM, shadows

__all__ = ["RenderedGame", "Span"]

_TEX_PX_PER_MM = 3.0
_TABLE_MM = (-330.0, -250.0, 330.0, 250.0)  # the drawn table top, x0, y0, x1, y1 (y towards the far side)
_NOISE_SIGMA = 2.0
_SLIDES = np.radians([0.0, 30.0, -30.0, 60.0, -60.0, 90.0, -90.0])  # a pushed die's way: away, else along a line
# Sensor noise from random bytes through a table: a byte k becomes the Gaussian quantile (k + 0.5) / 256
# rounded to a whole level, stored plus 128: near-Gaussian noise in whole levels (sigma 2, cut at +-6),
# drawn 8 times faster than Gaussian samples (6 ms a 1280x720 frame instead of 49): rendering cost the
# demo and the end-to-end tests mostly this.
_NOISE_TABLE = np.array([128 + round(NormalDist(0, _NOISE_SIGMA).inv_cdf((k + 0.5) / 256)) for k in range(256)],
                        np.uint8)  # fmt: skip


@dataclass(frozen=True)
class Span:
    """The frames that show one moment: first a hand at work (``hand`` frames), then the table at rest."""

    moment: Moment
    first: int
    """Index of the first frame."""
    hand: int
    """Frames with a hand over the table (the picture moves)."""
    still: int
    """Frames of the table at rest after it."""

    @property
    def end(self) -> int:
        """One past the last frame."""
        return self.first + self.hand + self.still


def _look(colour: Colour, rng: np.random.Generator) -> DieLook:
    """How one colour's dice look in a game: the palette's body, dark or light pips, matte or glossy."""
    body = PALETTE[colour.value]
    pip = (25, 25, 25) if sum(body) / 3 > 150 else (240, 240, 240)
    finish = str(rng.choice(["matte", "glossy"]))
    return DieLook(body, pip, finish, float(rng.uniform(0.15, 0.19)), int(rng.integers(1 << 30)))


class RenderedGame:
    """A seeded game of Las Vegas on the play mat, as a frame source with its truth.

    Args:
        seed: draws the game (rolls, choices, deals: ``table_moments(..., seed)``) and the picture.
        players: player colours in seat order (palette names).
        rules: rule-set name, e.g. ``"las-vegas"`` or ``"las-vegas+biggy"``.
        size: frame size (width, height).
        fps: frames per second of the recording.
        hand_s: how long a hand is over the table for each move.
        still_s: how long the table then rests.
        rounds: film only the first ``rounds`` rounds (None: the whole game).
        tilt_deg: the camera's angle from vertical (None: drawn from the seed, 12-28 degrees).
    """

    def __init__(self, seed: int = 2026, players: Sequence[str] = ("red", "blue", "green"), rules: str = "las-vegas",
                 size: tuple[int, int] = (1280, 720), fps: float = 10.0, hand_s: float = 0.8,
                 still_s: float = 1.2, rounds: int | None = None, tilt_deg: float | None = None) -> None:  # fmt: skip
        self.seed, self.size, self.fps = seed, size, fps
        self.ruleset = find_ruleset(rules)
        self.mat = mat_for(self.ruleset.game)
        """The mat the game is played on (Royale's ring around the dice arena, or the Las Vegas mat)."""
        self.players = tuple(Colour(p) for p in players)
        self.moments = []
        for moment in table_moments(self.ruleset, self.players, seed):
            self.moments.append(moment)
            if moment.what == "cleared" and rounds is not None and moment.state.round > rounds:
                break
        self.spans: list[Span] = []
        first = 0
        for index, moment in enumerate(self.moments):
            changed = index > 0 and moment.what != "settled"
            hand = round(hand_s * fps) if changed else 0
            still = round((still_s if index else 2 * still_s) * fps)
            self.spans.append(Span(moment, first, hand, still))
            first += hand + still
        self.frame_count = first
        self.start_frame = 0
        """The first frame :meth:`frames` gives (:meth:`resume` moves it)."""
        self._last_index = 0
        rng = np.random.default_rng(seed)
        self._setup(rng, tilt_deg)
        self._poses: dict[int, DiePose] = {}
        self._grids: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._layouts = [self._layout(moment) for moment in self.moments]  # in order: poses follow from the seed
        self._cache: tuple[int, np.ndarray] | None = None

    # --- the constant parts: table, mat, camera, light, dice looks ---------------------------------

    def _setup(self, rng: np.random.Generator, tilt_deg: float | None) -> None:
        width, height = self.size
        self.mat_angle = float(rng.uniform(-6, 6))
        self.mat_offset = rng.uniform(-15, 15, 2)
        tilt = float(rng.uniform(12, 28))
        tilt = tilt if tilt_deg is None else float(tilt_deg)
        fov = 62.0
        span = max(self.mat.width_mm, self.mat.height_mm * width / height) / float(rng.uniform(0.8, 0.9))
        distance = span / (2 * np.tan(np.radians(fov) / 2))
        target = np.array([*(self.mat_offset + rng.normal(0, 8, 2)), 0.0])
        self.camera: Camera = look_at(width, height, fov, target, tilt, float(rng.normal(0, 6)), distance,
                                      float(rng.normal(0, 2)))  # fmt: skip
        light = np.array([*rng.uniform(-0.4, 0.4, 2), 1.0])
        self.light = light / np.linalg.norm(light)
        self.gain = float(rng.uniform(0.8, 1.05))
        self.texture = self._table_texture(rng)
        self.looks: dict[Colour, DieLook] = {colour: _look(colour, rng) for colour in (*self.players, Colour.WHITE)}
        extra = np.random.default_rng([self.seed, 1])  # the tiles' grey and black dice: the looks above unchanged
        for colour in (Colour.GREY, Colour.BLACK):
            self.looks.setdefault(colour, _look(colour, extra))
        self.pose_rng = np.random.default_rng(rng.integers(1 << 62))
        self.noise_seed = int(rng.integers(1 << 62))

    def _table_texture(self, rng: np.random.Generator) -> np.ndarray:
        x0, y0, x1, y1 = _TABLE_MM
        w, h = round((x1 - x0) * _TEX_PX_PER_MM), round((y1 - y0) * _TEX_PX_PER_MM)
        base = rng.integers(40, 150, 3).astype(np.float32)
        grain = cv2.resize(rng.standard_normal((h // 8, w // 64), dtype=np.float32), (w, h)) * 14
        texture = np.clip(grain[..., None] + base, 0, 255).astype(np.uint8)
        mat = draw_mat(_TEX_PX_PER_MM, self.mat)
        to_tex = self._mat_to_texture()
        warped = cv2.warpAffine(mat, to_tex[:2], (w, h), flags=cv2.INTER_AREA, borderValue=(0, 0, 0))
        inside = cv2.warpAffine(np.full(mat.shape[:2], 255, np.uint8), to_tex[:2], (w, h), flags=cv2.INTER_LINEAR)
        alpha = (inside.astype(np.float32) / 255)[..., None]
        return (warped * alpha + texture * (1 - alpha)).astype(np.uint8)

    def mat_to_table(self, points_mm: np.ndarray) -> np.ndarray:
        """Mat millimetres (origin far-left, y towards the players) to the renderer's table (y away)."""
        points = np.asarray(points_mm, dtype=np.float64).reshape(-1, 2)
        centred = np.column_stack([points[:, 0] - self.mat.width_mm / 2, self.mat.height_mm / 2 - points[:, 1]])
        a = np.radians(self.mat_angle)
        rotation = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        return centred @ rotation.T + self.mat_offset

    def _table_to_texture(self) -> np.ndarray:
        x0, _, _, y1 = _TABLE_MM
        k = _TEX_PX_PER_MM
        return np.array([[k, 0, -x0 * k], [0, -k, y1 * k], [0, 0, 1.0]])

    def _mat_to_texture(self) -> np.ndarray:
        """Affine map from mat pixels (drawn at the texture's density) to texture pixels."""
        src = np.array([[0, 0], [self.mat.width_mm, 0], [0, self.mat.height_mm]])
        dst = self.mat_to_table(src)
        dst_px = (self._table_to_texture() @ np.column_stack([dst, np.ones(3)]).T).T[:, :2]
        return np.vstack([cv2.getAffineTransform((src * _TEX_PX_PER_MM).astype(np.float32),
                                                 dst_px.astype(np.float32)), [0, 0, 1]])  # fmt: skip

    # --- dice poses, kept per physical die ---------------------------------------------------------

    def _zone(self, zone: int) -> np.ndarray:
        """The polygon of a zone, mat millimetres: 0 the tray or arena, 1-6 a casino, -1 to -6 its tile."""
        if zone < 0:
            _, (x, y, angle) = spots(self.mat, -zone)
            return np.asarray(cv2.boxPoints(((x, y), (TILE_MM, TILE_MM), angle)), np.float64)
        return self.mat.rolling_area if zone == 0 else self.mat.casinos[zone]

    def _pose(self, die: DieReading, zone: int, taken: list[DiePose]) -> DiePose:
        pose = self._poses.get(die.track)
        if pose is not None:
            return pose
        rng = self.pose_rng
        size = (BIGGY_MM if die.big else DIE_MM) * float(rng.uniform(0.97, 1.03))
        candidates = self._spots(zone, size, rng)
        order = [0]
        if taken:
            others = np.array([self._table_to_mat(pose.x_mm, pose.y_mm) for pose in taken])
            reach = np.array([0.75 * (size + pose.size_mm) for pose in taken])
            gaps = (np.linalg.norm(candidates[:, None, :] - others[None], axis=2) - reach[None]).min(axis=1)
            order = list(np.argsort(-gaps, kind="stable"))
        side = int(rng.choice([s for s in range(1, 7) if s not in (die.pips, 7 - die.pips)]))
        yaw = float(rng.uniform(0, 360))
        x, y, yaw = self._free_spot(zone, size, yaw, candidates[order], taken)
        return DiePose(x, y, size, yaw, die.pips, side)

    def _free_spot(self, zone: int, size: float, yaw: float, candidates: np.ndarray,
                   taken: list[DiePose]) -> tuple[float, float, float]:  # fmt: skip
        """The first candidate (table millimetres) where a die lies without going through another, and its yaw.

        Dice are solid: where the best-spread spot would put a die into a neighbour (a crowded casino), the
        next candidates are tried, then the gap deepest in the zone on a fine grid, the die partly over
        the zone's line if need be (its centre still well inside), turned as drawn or squared to a
        neighbour, as a player pushes a die into the last gap. No random draw is added, so a die that
        fits takes the spot it always took. A zone too full even for that gives the best-spread spot, and
        the player pushes the dice there aside to lay it (:meth:`_make_room`).
        """
        spots = self.mat_to_table(candidates)
        free = ~overlaps(spots, size, yaw, taken)
        if free.any():
            x, y = spots[int(np.argmax(free))]
            return float(x), float(y), yaw
        grid, depth = self._edge_grid(zone)
        near = depth >= 0.2 * size
        spilled, depth = self.mat_to_table(grid[near]), depth[near]
        for turned in (yaw, *(pose.yaw_deg for pose in taken[::-1])):
            free = ~overlaps(spilled, size, turned, taken)
            if free.any():
                x, y = spilled[int(np.argmax(np.where(free, depth, -np.inf)))]  # the gap deepest in the zone
                return float(x), float(y), turned
        x, y = spots[0]
        return float(x), float(y), yaw

    def _edge_grid(self, zone: int) -> tuple[np.ndarray, np.ndarray]:
        """Points on a 1.5 mm grid over a zone's box (mat millimetres), their depth into it (cached)."""
        if zone in self._grids:
            return self._grids[zone]
        step = 1.5
        polygon = self._zone(zone)
        (x0, y0), (x1, y1) = polygon.min(axis=0), polygon.max(axis=0)
        grid = np.stack(np.meshgrid(np.arange(x0, x1, step), np.arange(y0, y1, step)), axis=-1).reshape(-1, 2)
        contour = polygon.astype(np.float32).reshape(-1, 1, 2)
        depth = np.array([cv2.pointPolygonTest(contour, (float(u), float(v)), True) for u, v in grid])
        self._grids[zone] = grid, depth
        return grid, depth

    def _spots(self, zone: int, size: float, rng: np.random.Generator) -> np.ndarray:
        """Candidate spots for a die's centre inside a zone (mat millimetres), the whole die inside.

        On a rectangle (the Las Vegas mat) 64 are drawn uniformly, keeping the casino's number clear; on
        any other polygon (Royale's ring, its numbers printed outside) 256 are drawn in its box, kept where
        the die fits.
        """
        polygon = self._zone(zone)
        inside = 0.71 * size  # half a die's diagonal: the whole die lies in its zone, however turned
        (x0, y0), (x1, y1) = polygon.min(axis=0), polygon.max(axis=0)
        if self.mat.numbers is None and zone >= 0:  # rectangles, the number in the far-left corner
            top_margin = 12.0 if zone else 4.0  # keep casino numbers visible
            # Best-candidate sampling: dice spread out as people leave them, touching only when crowded
            # (a casino holds a dozen dice side by side; dice lying flat do not overlap).
            return np.column_stack([rng.uniform(x0 + inside, x1 - inside, 64),
                                    rng.uniform(y0 + inside + top_margin, y1 - inside, 64)])  # fmt: skip
        contour = polygon.astype(np.float32).reshape(-1, 1, 2)
        spots: list[tuple[float, float]] = []
        while len(spots) < 256:  # more than on a rectangle: a sector's corners crowd first
            u, v = float(rng.uniform(x0, x1)), float(rng.uniform(y0, y1))
            if cv2.pointPolygonTest(contour, (u, v), True) >= inside:
                spots.append((u, v))
        return np.array(spots)

    def _layout(self, moment: Moment) -> list[tuple[DiePose, DieReading]]:
        snapshot = moment.snapshot
        placed: list[tuple[DiePose, DieReading]] = []
        zones = [*enumerate(snapshot.casinos, start=1), (0, snapshot.tray)]
        if self.mat.beside_mm is not None:
            zones += self._aside(moment)
        for zone, dice in zones:
            new = [die for die in dice if die.track not in self._poses]
            lying = {die.track: self._poses[die.track] for die in dice if die.track in self._poses}
            mine = {die.track for die in dice}
            beside = [self._poses[die.track] for _, others in zones for die in others
                      if die.track in self._poses and die.track not in mine] if new else []  # fmt: skip
            for die in new:
                pose, pushed = self._make_room(zone, self._pose(die, zone, list(lying.values())), lying, beside)
                lying.update(pushed)
                self._poses.update(pushed)
                lying[die.track] = self._poses[die.track] = pose
            placed += [(self._poses[die.track], die) for die in dice]
        return placed

    def _make_room(self, zone: int, pose: DiePose, lying: dict[int, DiePose],
                   beside: list[DiePose]) -> tuple[DiePose, dict[int, DiePose]]:  # fmt: skip
        """Where a die laid at ``pose`` comes to lie, and the dice of its zone it pushes aside (track -> pose).

        Dice are solid: on a casino too full for another die the player lays it anyway and the dice it
        meets give way, as a hand sliding a die into a crowd shoves them. Step by step every die that
        another goes through (the new one too) moves half a millimetre away from those it meets, or slides
        along the zone's line where that stops it, never with its centre nearer the line than a fifth of
        its edge, so it stays on its casino; the dice of other zones (``beside``) stand firm. The dice
        pushed keep their new spots (the picture moves while the hand is there).
        """
        tracks = list(lying)
        everyone = [pose, *lying.values(), *beside]
        if not overlaps(np.array([[pose.x_mm, pose.y_mm]]), pose.size_mm, pose.yaw_deg, everyone[1:])[0]:
            return pose, {}
        centres = np.array([[p.x_mm, p.y_mm] for p in everyone])
        sizes, yaws = np.array([p.size_mm for p in everyone]), np.array([p.yaw_deg for p in everyone])
        contour = self._zone(zone).astype(np.float32).reshape(-1, 1, 2)
        for _ in range(400):
            hit = crossings(centres, sizes, yaws, centres, sizes, yaws)
            np.fill_diagonal(hit, False)
            hit[len(tracks) + 1 :] = False  # the dice beside stand firm
            if not hit.any():
                break
            away = centres[:, None] - centres[None]  # (N, N, 2): from each die it meets to it
            away /= np.maximum(np.linalg.norm(away, axis=2, keepdims=True), 1e-6)
            push = (away * hit[..., None]).sum(axis=1)
            for i in np.flatnonzero(hit.any(axis=1)):
                heading = np.arctan2(push[i][1], push[i][0])
                for turn in _SLIDES:  # straight away, else along the zone's line (the crowd slides on the edge)
                    step = centres[i] + 0.5 * np.array([np.cos(heading + turn), np.sin(heading + turn)])
                    u, v = self._table_to_mat(float(step[0]), float(step[1]))
                    if cv2.pointPolygonTest(contour, (u, v), True) >= 0.2 * sizes[i]:
                        centres[i] = step
                        break
        pose = replace(pose, x_mm=float(centres[0][0]), y_mm=float(centres[0][1]))
        pushed = {track: replace(lying[track], x_mm=float(x), y_mm=float(y))
                  for track, (x, y) in zip(tracks, centres[1 : len(tracks) + 1], strict=True)}  # fmt: skip
        return pose, {track: moved_to for track, moved_to in pushed.items() if moved_to != lying[track]}

    @staticmethod
    def _aside(moment: Moment) -> list[tuple[int, tuple[DieReading, ...]]]:
        """The dice each tile keeps off its casino (a bar, a side bet, reward spaces), lying on the tile.

        The zone of a tile is minus its casino's number; no zone of the mat's, so the camera counts them for
        no casino. A die keeps its identity (the tracker's, and its pose) while it lies there.
        """
        state = moment.state
        kept = []
        for index, laid in enumerate(state.tiles):
            dice = []
            for seat, count in enumerate(laid.tile.aside(state, index)):
                for k in range(count):
                    face = 1 + (3 * seat + 5 * k + laid.casino) % 6
                    dice.append(
                        DieReading(state.players[seat], False, face, track=(1 << 30) + 1000 * index + 50 * seat + k)
                    )
            if dice:
                kept.append((-laid.casino, tuple(dice)))
        return kept

    def _table_to_mat(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        """A point in the renderer's table millimetres to mat millimetres (the inverse of :meth:`mat_to_table`)."""
        a = -np.radians(self.mat_angle)
        x, y = np.array([x_mm, y_mm]) - self.mat_offset
        xr, yr = x * np.cos(a) - y * np.sin(a), x * np.sin(a) + y * np.cos(a)
        return float(xr + self.mat.width_mm / 2), float(self.mat.height_mm / 2 - yr)

    # --- pictures ------------------------------------------------------------------------------------

    def still(self, index: int) -> np.ndarray:
        """The picture of moment ``index`` at rest, without noise (drawn once, then cached)."""
        if self._cache is not None and self._cache[0] == index:
            return self._cache[1]
        width, height = self.size
        scale, k = 2, _TEX_PX_PER_MM
        dice = self._layouts[index]
        texture = self.texture.copy()
        draw_props(
            texture,
            self.moments[index].state,
            self.mat,
            self._mat_to_texture() @ np.diag([k, k, 1.0]),
            self.seed + 7919 * index,
        )
        shadows(texture, [pose for pose, _ in dice], self.light, 0.35, self._table_to_texture())
        warp = np.diag([scale, scale, 1.0]) @ self.camera.table_homography() @ np.linalg.inv(self._table_to_texture())
        canvas = cv2.warpPerspective(texture, warp, (width * scale, height * scale), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=(30, 40, 50))  # fmt: skip
        mask = np.zeros(canvas.shape[:2], np.uint8)
        eye = self.camera.centre_mm
        for pose, die in sorted(dice, key=lambda item: -np.hypot(*(eye[:2] - [item[0].x_mm, item[0].y_mm]))):
            look = self.looks.get(die.colour, self.looks[Colour.WHITE])
            draw_die(canvas, mask, self.camera, pose, look, self.light, scale, np.random.default_rng(die.track))
            mask[:] = 0
        image = cv2.resize(canvas, (width, height), interpolation=cv2.INTER_AREA)
        image = np.clip(image.astype(np.float32) * self.gain, 0, 255).astype(np.uint8)
        self._cache = (index, image)
        return image

    def _hand(self, image: np.ndarray, span: Span, k: int) -> np.ndarray:
        """A hand reaching from the players' edge to the zone that changes, and back."""
        out = image.copy()
        width, height = self.size
        moment = span.moment
        zones = [n for n, dice in enumerate(moment.snapshot.casinos, start=1) if dice] or [0]
        event = moment.event
        zone = int(getattr(event, "casino", 0) or 0) if moment.what == "placed" else (0 if moment.what != "cleared"
                                                                                         else zones[0])  # fmt: skip
        polygon = self._zone(zone)
        target = self.camera.project(np.array([[*self.mat_to_table(polygon.mean(axis=0, keepdims=True))[0], 30.0]]))[0]
        progress = np.sin(np.pi * (k + 0.5) / span.hand)
        start = np.array([width * 0.5 + (target[0] - width / 2) * 0.3, height * 1.15])
        palm = start + (target - start) * progress
        direction = (target - start) / max(np.linalg.norm(target - start), 1.0)
        angle = float(np.degrees(np.arctan2(direction[1], direction[0])))
        size = width * 0.07
        skin = (95, 140, 200)
        cv2.ellipse(out, (int(palm[0]), int(palm[1])), (int(size * 1.3), int(size)), angle, 0, 360, skin, -1,
                    cv2.LINE_AA)  # fmt: skip
        side = np.array([-direction[1], direction[0]])
        for f in range(4):
            tip = palm + direction * size * 1.6 + side * (f - 1.5) * size * 0.45
            cv2.ellipse(out, (int(tip[0]), int(tip[1])), (int(size * 0.6), int(size * 0.17)), angle, 0, 360,
                        (90, 132, 192), -1, cv2.LINE_AA)  # fmt: skip
        arm = start - direction * size * 3
        cv2.line(out, (int(arm[0]), int(arm[1])), (int(palm[0]), int(palm[1])), skin, int(size * 1.4), cv2.LINE_AA)
        return out

    def span_of(self, frame_index: int) -> Span:
        """The moment span a frame belongs to."""
        for span in self.spans:
            if frame_index < span.end:
                return span
        raise IndexError(f"frame {frame_index} is past the end ({self.frame_count} frames)")

    def _shown(self, index: int) -> tuple[Span, int, int]:
        """The span of a frame, the moment whose dice it shows, and the frame's step within the span."""
        span = self.span_of(index)
        moment_index = self.spans.index(span)
        k = index - span.first
        return span, moment_index - 1 if k < span.hand // 2 else moment_index, k

    def truth(self, index: int) -> Detections:
        """The dice frame ``index`` shows, as a perfect reader would give them (hands do not hide them).

        Columns ``pips``, ``colour`` (palette name), ``biggy``, and ``track`` (which physical die it is);
        confidence 1.
        """
        _, shown, _ = self._shown(index)
        boxes, pips, colours, biggy, tracks = [], [], [], [], []
        for pose, die in self._layouts[shown]:
            corners = [c + a * u + b * v for _, c, _, u, v in die_faces(pose) for a in (-1, 1) for b in (-1, 1)]
            pixels = self.camera.project(np.array(corners))
            boxes.append([*pixels.min(axis=0), *pixels.max(axis=0)])
            pips.append(die.pips)
            colours.append(die.colour.value)
            biggy.append(die.big)
            tracks.append(die.track)
        return Detections(np.array(boxes, np.float32).reshape(-1, 4), np.ones(len(boxes), np.float32),
                          {"pips": np.array(pips, int), "colour": np.array(colours, object),
                           "biggy": np.array(biggy, bool), "track": np.array(tracks, int)})  # fmt: skip

    def frame(self, index: int) -> np.ndarray:
        """Frame ``index`` (BGR): the previous moment under a moving hand, then this moment at rest."""
        span, shown, k = self._shown(index)
        image = self.still(shown)
        if k < span.hand:
            image = self._hand(image, span, k)
        random = np.frombuffer(np.random.default_rng([self.noise_seed, index]).bytes(image.size), np.uint8)
        noise = cv2.LUT(random.reshape(image.shape), _NOISE_TABLE)
        return cv2.addWeighted(image, 1.0, noise, 1.0, -128.0)  # saturates at 0 and 255

    def resume(self, history: Sequence[object]) -> bool:
        """Starts :meth:`frames` where the game stood after ``history`` (a restored game's events), at rest.

        Returns False (and changes nothing) when this game never reaches that history: the log was
        corrected by hand or belongs to another game.
        """
        if not self.spans:
            return False
        final = self.spans[-1].moment.state
        to_json = game_of(final).event_to_json

        def seen(event: object) -> str:  # the camera reads a roll's dice in its own order
            return json.dumps({k: sorted(v) if isinstance(v, list) else v for k, v in to_json(event).items()})

        if [seen(e) for e in final.history[: len(history)]] != [seen(e) for e in history]:
            return False
        # The table as it stood after the last moment the log reached (a deal, unseen, adds no moment).
        span = [s for s in self.spans if len(s.moment.state.history) <= len(history)][-1]
        self.start_frame = span.first + span.hand
        return True

    def frames(self) -> Iterator[Frame]:
        """Every frame in order from :attr:`start_frame`, timed at ``fps`` (the frame-source interface)."""
        for index in range(self.start_frame, self.frame_count):
            self._last_index = index
            yield Frame(index, index / self.fps, self.frame(index))

    def truth_reader(self) -> Callable[[np.ndarray], Detections]:
        """A dice reader that reads the renderer's labels of the frame :meth:`frames` gave last.

        It stands in for the model (``--reader truth``): everything but the model is checked with it.
        """
        return lambda image: self.truth(self._last_index)

    def write_video(self, path: str | os.PathLike[str]) -> None:
        """Writes the game as a video file (MJPG in .avi, or mp4v in .mp4)."""
        codec = "mp4v" if os.fspath(path).lower().endswith(".mp4") else "MJPG"
        writer = cv2.VideoWriter(os.fspath(path), cv2.VideoWriter.fourcc(*codec), self.fps, self.size)
        if not writer.isOpened():
            raise OSError(f"cannot write a video to {path}")
        try:
            for frame in self.frames():
                writer.write(frame.image)
        finally:
            writer.release()
