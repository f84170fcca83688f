"""Heaps of hobby dice as people photograph them: the real photos' dice that the tables do not show.

The detector trained on rendered tables and the real training photos still misses real dice of a few
kinds (``models/dice_detector/TRIALS.md``): dice in piles of mixed hobby dice, touching dice it boxes as
one, dice cut by the photo's edge, large close-ups, dark dice on greyscale photos. :func:`render_pile`
draws such photos: 1 to 40 dice of one to four sets (half of them the hard hobby looks,
:func:`vision.synth.scene.hard_look`) heaped on felt, paper, wood, a dark cloth or a tray, touching and
leaning, a phone held over them at any turn, framed from a close-up of one die to a heap running off
the picture; some photos greyscale, some stretched to a square as the real photos' export did.

Labels come from the renderer, as for the tables: each die's box is the box of its visible pixels.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.colours import PALETTE
from vision.synth.camera import look_at
from vision.synth.dice import DieLook, DiePose, overlaps
from vision.synth.scene import (
    DIE_MM,
    DieLabel,
    Scene,
    draw_dice,
    hard_look,
    labelled,
    photo_effects,
    seen,
    set_look,
    shadows,
)

__all__ = ["PILE_SIZES", "SURFACES", "render_pile"]

PILE_SIZES = ((640, 640), (640, 480), (800, 600), (1024, 768), (1280, 720), (720, 1280), (960, 1280))
"""Frame sizes (width, height): webcams and phones, upright and across."""
SURFACES = ("felt", "paper", "wood", "cloth", "tray")
"""What the dice lie on: coloured felt, white paper, wood, a dark cloth, a tray (felt inside a wall)."""


def _hsv(rng: np.random.Generator, saturation: tuple[int, int], value: tuple[int, int]) -> np.ndarray:
    """A BGR colour of any hue, its saturation and value drawn from the ranges given."""
    hsv = [rng.integers(0, 180), rng.integers(*saturation), rng.integers(*value)]
    return cv2.cvtColor(np.uint8([[hsv]]), cv2.COLOR_HSV2BGR)[0, 0]


def _surface(rng: np.random.Generator, size_px: int, px_per_mm: float) -> np.ndarray:
    """A square texture of ``size_px`` pixels of one of :data:`SURFACES`, its centre at the pile's."""
    style = str(rng.choice(SURFACES))
    base = {  # every style's colour is drawn, so that each draws alike
        "felt": _hsv(rng, (90, 230), (60, 200)),
        "paper": np.full(3, rng.uniform(190, 250)) + rng.normal(0, 6, 3),
        "wood": np.array([rng.uniform(30, 90), rng.uniform(70, 140), rng.uniform(110, 200)]),
        "cloth": np.full(3, rng.uniform(15, 60)) + rng.normal(0, 5, 3),
        "tray": _hsv(rng, (60, 230), (40, 180)),
    }[style].astype(np.float32)
    tex = np.empty((size_px, size_px, 3), np.float32)
    tex[:] = base
    grain = rng.standard_normal((size_px // 4 + 1, size_px // 4 + 1)).astype(np.float32)
    grain = cv2.resize(grain, (size_px, size_px), interpolation=cv2.INTER_LINEAR)[..., None]
    if style == "wood":  # long streaks along one axis
        streaks = cv2.resize(rng.standard_normal((1, max(2, size_px // 6))).astype(np.float32), (size_px, size_px))
        tex += (streaks[..., None] * 18 + grain * 5) * (base / base.max())
    else:
        tex += grain * float(rng.uniform(2, 10))
    if style == "tray":  # the tray's wall: a band of another shade around the floor, a die's height high
        half = float(rng.uniform(40, 120)) * px_per_mm
        centre = size_px / 2 + rng.normal(0, 0.15, 2) * half
        inside = np.zeros((size_px, size_px), np.uint8)
        cv2.rectangle(inside, tuple(int(v) for v in centre - half), tuple(int(v) for v in centre + half), 255, -1)
        wall = base * float(rng.choice([0.55, 1.35]))
        tex[inside == 0] = np.clip(wall, 0, 255)
    return np.clip(tex, 0, 255).astype(np.uint8)


def _heap(rng: np.random.Generator, count: int, sizes: list[float], spread: float) -> list[tuple[DiePose, int]]:
    """Up to ``count`` dice (pose, set) lying about the origin, none through another, most touching another."""
    placed: list[tuple[DiePose, int]] = []
    for _ in range(count):
        kind = int(rng.integers(len(sizes)))
        size = sizes[kind] * (1 + 0.01 * rng.uniform(-1, 1))
        yaw = float(rng.uniform(0, 360))
        poses = [pose for pose, _ in placed]
        spots = rng.normal(0, spread, (40, 2))
        free = np.flatnonzero(~overlaps(spots, size, yaw, poses, clearance=0.2))
        if not len(free):
            continue
        x, y = spots[free[0]]
        if poses and rng.random() < 0.7:  # pushed towards the heap's middle until it meets a die
            steps = np.linspace(1, 0, 16)[1:, None] * [x, y]
            blocked = np.flatnonzero(overlaps(steps, size, yaw, poses, clearance=0.2))
            if not len(blocked):
                x, y = steps[-1]
            elif blocked[0]:
                x, y = steps[blocked[0] - 1]
        near = min((np.hypot(x - p.x_mm, y - p.y_mm) - 0.6 * (size + p.size_mm) for p in poses), default=99.0)
        lean = float(rng.uniform(8, 25)) if near < 3 and rng.random() < 0.3 else 0.0
        top = int(rng.integers(1, 7))
        side = int(rng.choice([v for v in range(1, 7) if v not in (top, 7 - top)]))
        placed.append((DiePose(float(x), float(y), float(size), yaw, top, side, lean), kind))
    return placed


def render_pile(seed: int, size: tuple[int, int] | None = None, effects: bool = True) -> Scene:
    """Renders one photo of a heap of dice (see the module's description); every die is zone 0.

    Args:
        seed: the only source of randomness.
        size: (width, height) of the photo; one of :data:`PILE_SIZES` when None. A third of the photos are
            then stretched to 640x640, as the real photos were.
        effects: light changes, blur, noise, JPEG artefacts and greyscale (off for geometry tests).
    """
    rng = np.random.default_rng(seed)
    width, height = size if size is not None else PILE_SIZES[int(rng.integers(len(PILE_SIZES)))]
    count = int(np.exp(rng.uniform(0, np.log(41))))  # 1 to 40, as many photos of a few dice as of many
    sets: list[tuple[str, DieLook, bool]] = []
    sizes: list[float] = []
    for name in rng.choice(list(PALETTE), int(rng.integers(1, 5))):
        if rng.random() < 0.5:
            sets.append((str(name), hard_look(str(name), rng), True))
        else:
            any_colour = bool(rng.random() < 0.3)
            drawn, look = set_look(str(name), rng, any_colour)
            sets.append((drawn, look, not any_colour))
        sizes.append(DIE_MM * float(rng.uniform(0.75, 1.3)))
    spread = float(np.mean(sizes)) * float(rng.uniform(0.35, 0.9)) * np.sqrt(count)
    heap = _heap(rng, count, sizes, spread)
    poses = [pose for pose, _ in heap]

    # Framing: from a close-up of one die (it fills 40 % of the picture) to a heap running off the picture.
    reach = max((np.hypot(p.x_mm, p.y_mm) + p.size_mm for p in poses), default=DIE_MM)
    span = max(2 * reach / float(rng.uniform(0.6, 1.4)), max(sizes) * 2.5)
    fov = float(rng.uniform(55, 75))
    distance = span / (2 * np.tan(np.radians(fov) / 2))
    target = np.array([*rng.normal(0, 0.15 * reach, 2), 0.0])
    tilt = float(rng.uniform(0, 50))
    camera = look_at(width, height, fov, target, tilt, float(rng.uniform(0, 360)), distance,
                     float(rng.uniform(-180, 180)))  # fmt: skip
    light = np.array([*rng.uniform(-0.6, 0.6, 2), 1.0])
    light /= np.linalg.norm(light)

    # The surface: a texture of the pile's surroundings, finer for close-ups.
    px_per_mm = float(np.clip(2 * max(width, height) / span, 2, 12))
    extent = span * (1.5 + 2.5 * np.sin(np.radians(tilt)))  # a tilted camera sees far beyond the heap
    tex_px = int(min(4096, 2 * extent * px_per_mm))
    px_per_mm = tex_px / (2 * extent)
    tex = _surface(rng, tex_px, px_per_mm)
    to_tex = np.array([[px_per_mm, 0, extent * px_per_mm], [0, -px_per_mm, extent * px_per_mm], [0, 0, 1]])
    shadows(tex, poses, light, float(rng.uniform(0.2, 0.55)), to_tex)
    tex = cv2.GaussianBlur(tex, (0, 0), 1.0)
    scale = 2
    warp = np.diag([scale, scale, 1.0]) @ camera.table_homography() @ np.linalg.inv(to_tex)
    floor = tuple(int(v) for v in tex[0, 0])
    canvas = cv2.warpPerspective(tex, warp, (width * scale, height * scale), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=floor)  # fmt: skip
    ids, full_area = draw_dice(canvas, camera, [(pose, sets[kind][1]) for pose, kind in heap], light, scale, rng)
    image = cv2.resize(canvas, (width, height), interpolation=cv2.INTER_AREA)
    if effects:
        image = photo_effects(image, rng)
    if effects and rng.random() < 0.45:  # the real photos are greyscale more often than not
        image = cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    stretch = (1.0, 1.0)
    if size is None and rng.random() < 1 / 3:
        stretch = (640 / width, 640 / height)
        image = cv2.resize(image, (640, 640), interpolation=cv2.INTER_AREA)
    labels, hidden = [], []
    for index, (pose, kind) in enumerate(heap):
        (x0, y0, x1, y1), visible, die_size = seen(ids, full_area, index, scale)
        box = (x0 * stretch[0], y0 * stretch[1], x1 * stretch[0], y1 * stretch[1])
        name, _, palette = sets[kind]
        die_size = round(die_size * float(np.sqrt(stretch[0] * stretch[1])), 2)
        label = DieLabel(box, pose.top, name, False, 0, visible, palette, die_size)
        (labels if labelled(label) else hidden).append(label)
    return Scene(image, labels, hidden, "", seed, tilt)
