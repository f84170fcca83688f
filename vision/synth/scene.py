"""Synthetic Las Vegas tables: a game state from ``referee.lasvegas.simulate`` drawn as a camera would see it.

Everything random is drawn from one ``numpy.random.Generator`` seeded by the caller, so a seed always
gives the same image and labels. Labels come from the generator (the state and the drawn geometry),
never from a model: each die's box is the bounding box of its *visible* pixels, found from an id
buffer after every die, hand and occluder has been drawn.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

import cv2
import numpy as np

from referee import GameState, find_ruleset
from referee.lasvegas.simulate import default_players, play
from referee.readings import TableSnapshot
from vision.colours import PALETTE, nearest_colour
from vision.synth.camera import Camera, look_at
from vision.synth.dice import DieLook, DiePose, die_faces, draw_die

__all__ = [
    "BIGGY_MM",
    "DIE_MM",
    "DieLabel",
    "Scene",
    "photo_effects",
    "random_state",
    "render_scene",
    "set_look",
    "shadows",
]

DIE_MM = 16.0
BIGGY_MM = 24.0


@dataclass(frozen=True)
class DieLabel:
    """The ground truth of one die in a rendered image."""

    box: tuple[float, float, float, float]
    """x0, y0, x1, y1 in pixels around the visible die."""
    pips: int
    """The value on the upper face."""
    colour: str
    """Palette name of the body colour."""
    biggy: bool
    """True for a Biggy."""
    zone: int
    """Casino 1..6 it lies on, or 0 for the rolling area."""
    visible: float
    """Fraction of the die's silhouette left visible (hands and other dice hide the rest)."""
    palette: bool = True
    """False for a die drawn in an arbitrary colour (``colour`` is then only the nearest name)."""
    size: float = 0.0
    """Square root of the area of the die's whole silhouette in pixels (hidden parts included): its size
    in the picture whatever its turn, which a box is not (a die turned 45 degrees has a box 1.41x wider)."""


@dataclass
class Scene:
    """A rendered frame with its labels."""

    image: np.ndarray
    """BGR uint8 image."""
    dice: list[DieLabel]
    """Every die that is at least half visible."""
    hidden: list[DieLabel] = field(default_factory=list)
    """Dice hidden more than half (not labelled for training)."""
    notation: str = ""
    """The game state drawn, in table notation."""
    seed: int = 0
    """The seed it was drawn from."""
    camera_tilt_deg: float = 0.0
    """Angle of the optical axis from vertical."""

    def sidecar(self) -> str:
        """The JSON label file written next to the image."""
        return json.dumps({
            "seed": self.seed, "notation": self.notation, "width": int(self.image.shape[1]),
            "height": int(self.image.shape[0]), "camera_tilt_deg": round(self.camera_tilt_deg, 2),
            "dice": [asdict(d) for d in self.dice], "hidden": [asdict(d) for d in self.hidden],
        })  # fmt: skip


def random_state(rng: np.random.Generator) -> GameState:
    """A state from a random legal game, at a random moment of a round (dice on the table)."""
    variants = [v for v, p in (("neutral", 0.4), ("biggy", 0.5)) if rng.random() < p]
    players = int(rng.integers(2, 6))
    rules = find_ruleset("las-vegas", variants)
    states = [s for _, s in play(rules, default_players(players), int(rng.integers(2**31)))]
    # Prefer moments with dice on the table: a round in progress or about to be settled.
    candidates = [s for s in states if any(any(c.dice) or any(c.biggies) or c.neutral for c in s.casinos)]
    return candidates[int(rng.integers(len(candidates)))] if candidates else states[-1]


ACHROMATIC = ("black", "white", "grey")
"""Palette colours without a hue: a set of such dice differs from the palette in lightness, hardly in hue."""
ACHROMATIC_TINT = 0.25
"""The share of a drawn colour difference that an achromatic body keeps between its channels."""


def _body(palette: tuple[int, int, int], noise: np.ndarray, achromatic: bool) -> tuple[int, int, int]:
    """A die set's body colour: the palette's plus the drawn difference ``noise`` (BGR, sigma 12 each).

    A coloured body takes the difference channel by channel (a red set may be orange-red or crimson). An
    achromatic one takes its mean in every channel and only :data:`ACHROMATIC_TINT` of the rest: drawn
    channel by channel, a black body (35, 35, 35) could come out dark green (42, 74, 33 on held-out table
    9,000,033), labelled black; real black, white and grey dice differ in lightness, not in hue.

    >>> _body((35, 35, 35), np.array([7.0, 39.0, -2.0]), achromatic=True)
    (47, 55, 45)
    >>> _body((35, 35, 35), np.array([7.0, 39.0, -2.0]), achromatic=False)
    (42, 74, 33)
    """
    if achromatic:
        noise = noise.mean() + ACHROMATIC_TINT * (noise - noise.mean())
    return tuple(int(np.clip(c + d, 0, 255)) for c, d in zip(palette, noise, strict=True))  # type: ignore[return-value]


def set_look(name: str, rng: np.random.Generator, any_colour: bool) -> tuple[str, DieLook]:
    """How one set of dice is drawn: the name it is drawn as and its look.

    Palette colour ``name``'s body (with ``any_colour``, a body of any colour, named after its nearest palette
    colour), its pips and finish.
    """
    if any_colour:
        hue, sat, val = rng.integers(0, 180), rng.integers(60, 256), rng.integers(50, 256)
        bgr = cv2.cvtColor(np.uint8([[[hue, sat, val]]]), cv2.COLOR_HSV2BGR)[0, 0]
        body = tuple(int(c) for c in bgr)
        name = nearest_colour(body)
    else:
        body = _body(PALETTE[name], rng.normal(0, 12, 3), achromatic=name in ACHROMATIC)
    light = sum(body) / 3 > 150
    pip_choices = [(20, 20, 20), (245, 245, 245), (30, 30, 160), (40, 150, 210)]
    pip = pip_choices[0] if light else pip_choices[1]
    if rng.random() < 0.15:
        pip = pip_choices[int(rng.integers(len(pip_choices)))]
        if np.abs(np.subtract(pip, body)).sum() < 150:
            pip = (20, 20, 20) if light else (245, 245, 245)
    finish = str(rng.choice(["matte", "glossy", "marbled", "translucent"], p=[0.45, 0.3, 0.15, 0.1]))
    return name, DieLook(body, pip, finish, float(rng.uniform(0.14, 0.2)), int(rng.integers(1 << 30)))


HARD_KINDS = ("smoke", "swirled", "pearl", "dark", "deep")
"""The dice real photos show that the reader finds hard (see :func:`hard_look`)."""
_COLOURED_PIPS = ((30, 30, 170), (40, 40, 215), (40, 150, 210), (60, 200, 230), (40, 170, 40), (245, 245, 245))
"""Pips of hobby dice on dark bodies: red, bright red, orange-gold, yellow, green and white (BGR)."""


def hard_look(name: str, rng: np.random.Generator) -> DieLook:
    """A die of palette colour ``name`` as hobby dice look, which the reader finds hard to read.

    One of :data:`HARD_KINDS`: *smoke*, a dark translucent body with coloured pips; *swirled*, a body
    swirled broadly with a second colour (black or another), coloured pips; *pearl*, a deep body with a
    sheen; *dark*, the body darker than the palette's with coloured pips; *deep*, the body more saturated
    and darker or brighter (royal blue, bright violet). The body stays nearer ``name`` than any other
    colour a person would call it; light bodies (white, yellow, grey) are not darkened.
    """
    kind = HARD_KINDS[int(rng.integers(len(HARD_KINDS)))]
    base = np.array(PALETTE[name], dtype=float)
    light = name in ("white", "yellow", "grey", "pink", "cyan")
    if kind in ("smoke", "dark", "pearl") and not light:
        base = base * rng.uniform(0.55, 0.85)
    elif kind == "deep":
        hsv = cv2.cvtColor(np.uint8([[np.clip(base, 0, 255)]]), cv2.COLOR_BGR2HSV)[0, 0].astype(float)
        if name not in ACHROMATIC:
            hsv[1] = min(255.0, hsv[1] * rng.uniform(1.0, 1.3))
        hsv[2] = np.clip(hsv[2] * rng.uniform(0.7 if light else 0.6, 1.2), 0, 255)
        base = cv2.cvtColor(np.uint8([[hsv]]), cv2.COLOR_HSV2BGR)[0, 0].astype(float)
    body = tuple(int(np.clip(c + rng.normal(0, 8), 0, 255)) for c in base)
    pips = [p for p in _COLOURED_PIPS if np.abs(np.subtract(p, body)).sum() >= 150] or [(20, 20, 20)]
    pip = pips[int(rng.integers(len(pips)))]
    vein = None
    if kind == "swirled":
        others = [(25, 25, 25), (235, 235, 235), *(PALETTE[c] for c in ("red", "blue", "green", "violet"))]
        vein = others[int(rng.integers(len(others)))]
        if np.abs(np.subtract(vein, body)).sum() < 90:
            vein = (25, 25, 25) if sum(body) > 300 else (235, 235, 235)
    surface = str(rng.choice(["matte", "glossy"]))  # drawn for every kind: each look takes the same draws
    finish = {"smoke": "translucent", "swirled": "marbled", "pearl": "pearl"}.get(kind, surface)
    alpha = float(rng.uniform(0.45, 0.7)) if kind == "smoke" else 0.72
    return DieLook(body, pip, finish, float(rng.uniform(0.13, 0.2)), int(rng.integers(1 << 30)), alpha, vein)


@dataclass(frozen=True)
class _Zone:
    number: int
    x0: float
    y0: float
    x1: float
    y1: float


def _layout(rng: np.random.Generator) -> tuple[list[_Zone], _Zone, str]:
    """Casino zones and the rolling area in table millimetres, in one of three styles."""
    style = str(rng.choice(["mat", "tiles", "row"], p=[0.4, 0.35, 0.25]))
    w, h = rng.uniform(120, 160), rng.uniform(110, 150)
    gap = rng.uniform(5, 25)
    zones = []
    if style == "row":
        w, h = rng.uniform(90, 120), rng.uniform(130, 170)
        start = -3 * w - 2.5 * gap
        for i in range(6):
            x0 = start + i * (w + gap)
            zones.append(_Zone(i + 1, x0, 40, x0 + w, 40 + h))
    else:
        for i in range(6):
            col, row = i % 3, i // 3
            x0 = -1.5 * w - gap + col * (w + gap)
            y0 = 30 + (1 - row) * (h + gap)
            zones.append(_Zone(i + 1, x0, y0, x0 + w, y0 + h))
    tray = _Zone(0, -rng.uniform(150, 260), -rng.uniform(200, 260), rng.uniform(150, 260), -rng.uniform(10, 30))
    return zones, tray, style


_PX_PER_MM = 2.0
_TABLE = (-520.0, -330.0, 520.0, 420.0)  # x0, y0, x1, y1 of the drawn table texture, mm


def _to_tex(x: float, y: float) -> tuple[int, int]:
    return round((x - _TABLE[0]) * _PX_PER_MM), round((_TABLE[3] - y) * _PX_PER_MM)


def _table_texture(rng: np.random.Generator, zones: list[_Zone], style: str, state: GameState) -> np.ndarray:
    """The table top seen from straight above at 2 px/mm: felt or wood, the casinos, the banknotes."""
    width = int((_TABLE[2] - _TABLE[0]) * _PX_PER_MM)
    height = int((_TABLE[3] - _TABLE[1]) * _PX_PER_MM)
    base = np.array([rng.integers(20, 200) for _ in range(3)], dtype=float)
    noise = cv2.resize(rng.standard_normal((height // 16, width // 16), dtype=np.float32), (width, height))
    grain = cv2.resize(rng.standard_normal((height // 2, width // 2), dtype=np.float32), (width, height)) * 6
    texture = noise * float(rng.uniform(5, 25)) + grain
    tex = cv2.merge([np.clip(texture + float(b), 0, 255).astype(np.uint8) for b in base])
    if style == "mat":
        paper = tuple(int(v) for v in rng.integers(200, 250, 3))
        xs = [z.x0 for z in zones] + [z.x1 for z in zones]
        ys = [z.y0 for z in zones] + [z.y1 for z in zones]
        cv2.rectangle(tex, _to_tex(min(xs) - 20, max(ys) + 20), _to_tex(max(xs) + 20, -290), paper, -1)
    for zone in zones:
        card = tuple(int(v) for v in rng.integers(30, 230, 3)) if style != "mat" else None
        p0, p1 = _to_tex(zone.x0, zone.y1), _to_tex(zone.x1, zone.y0)
        if card is not None:
            cv2.rectangle(tex, p0, p1, card, -1)
        ink = (20, 20, 20) if card is None or sum(card) > 380 else (235, 235, 235)
        cv2.rectangle(tex, p0, p1, ink, 3)
        # The casino number, big, in a corner; a die-face icon beside it.
        corner = _to_tex(zone.x0 + 6, zone.y0 + 8)
        cv2.putText(tex, str(zone.number), corner, cv2.FONT_HERSHEY_DUPLEX, 2.2, ink, 4, cv2.LINE_AA)
        casino = state.casinos[zone.number - 1]
        for k, note in enumerate(casino.banknotes):
            nx = zone.x0 + 10 + k * 12
            ny = zone.y1 - 12 - k * 6
            note_colour = tuple(int(v) for v in np.clip(np.array([150, 200, 150]) + rng.normal(0, 25, 3), 0, 255))
            a, b = _to_tex(nx, ny), _to_tex(nx + 62, ny - 30)
            cv2.rectangle(tex, a, b, note_colour, -1)
            cv2.rectangle(tex, a, b, (60, 90, 60), 2)
            cv2.putText(tex, f"${note // 1000},000", (a[0] + 8, b[1] - 18), cv2.FONT_HERSHEY_SIMPLEX, 0.75,
                        (40, 60, 40), 2, cv2.LINE_AA)  # fmt: skip
    return tex


def _place_dice(rng: np.random.Generator, snapshot: TableSnapshot, zones: list[_Zone], tray: _Zone,
                scales: dict[object, float]) -> list[tuple[DiePose, object, int]]:  # fmt: skip
    """Poses for every die of the snapshot inside its zone, mostly apart, sometimes touching or leaning.

    ``scales``: each colour's size factor (a set of dice); dice of one set differ by 1 % at most.
    """
    placed: list[tuple[DiePose, object, int]] = []
    groups = [(zone, dice) for zone, dice in zip(zones, snapshot.casinos, strict=True)] + [(tray, snapshot.tray)]
    for zone, dice in groups:
        spots: list[tuple[float, float, float]] = []
        for reading in dice:
            spread = rng.uniform(-1, 1)
            size = (BIGGY_MM if reading.big else DIE_MM) * scales[reading.colour] * (1 + 0.01 * spread)
            for _ in range(60):
                x = rng.uniform(zone.x0 + size, zone.x1 - size)
                y = rng.uniform(zone.y0 + size, zone.y1 - size * (2.8 if zone.number else 1.0))
                if all(np.hypot(x - sx, y - sy) > 0.75 * (size + ss) for sx, sy, ss in spots):
                    break
            near = min((np.hypot(x - sx, y - sy) - 0.75 * (size + ss) for sx, sy, ss in spots), default=99)
            lean = float(rng.uniform(8, 25)) if near < 4 and rng.random() < 0.3 else 0.0
            spots.append((x, y, size))
            top = reading.pips
            side = int(rng.choice([v for v in range(1, 7) if v not in (top, 7 - top)]))
            pose = DiePose(float(x), float(y), float(size), float(rng.uniform(0, 360)), top, side, lean)
            placed.append((pose, reading, zone.number))
    return placed


Silhouettes = dict[int, tuple[int, tuple[int, int, int, int]]]
"""Per die drawn (its index): the area of its whole silhouette in canvas pixels and the canvas box it lies in."""


def draw_dice(canvas: np.ndarray, camera: Camera, dice: Sequence[tuple[DiePose, DieLook]], light: np.ndarray,
              scale: int, rng: np.random.Generator) -> tuple[np.ndarray, Silhouettes]:  # fmt: skip
    """Draws ``dice`` onto ``canvas`` (``scale`` times the camera's resolution), the farthest first.

    Returns the id buffer (index + 1 of the die seen at each canvas pixel, 0 for none) and, per die drawn,
    its whole silhouette's area in canvas pixels (hidden parts included) and the canvas box it was drawn in:
    what :func:`seen` needs once everything in front of the dice (a hand) has been drawn into ``ids`` too.
    """
    ids = np.zeros(canvas.shape[:2], np.int32)
    mask = np.zeros(ids.shape, np.uint8)
    full_area: Silhouettes = {}
    order = sorted(range(len(dice)), key=lambda i: -np.linalg.norm(camera.centre_mm - [dice[i][0].x_mm,
                                                                                      dice[i][0].y_mm, 0]))  # fmt: skip
    for index in order:
        pose, look = dice[index]
        outline = draw_die(canvas, mask, camera, pose, look, light, scale, rng)
        if not len(outline):
            continue
        # Work only inside the die's own box: the frame is up to 3840x2160 at this scale.
        x0, y0 = np.clip(np.floor(outline.min(axis=0) * scale).astype(int) - 2, 0, [ids.shape[1], ids.shape[0]])
        x1, y1 = np.clip(np.ceil(outline.max(axis=0) * scale).astype(int) + 2, 0, [ids.shape[1], ids.shape[0]])
        own = mask[y0:y1, x0:x1] > 0
        ids[y0:y1, x0:x1][own] = index + 1
        full_area[index] = (int(own.sum()), (int(x0), int(y0), int(x1), int(y1)))
        mask[y0:y1, x0:x1] = 0
    return ids, full_area


def seen(ids: np.ndarray, full_area: Silhouettes, index: int,
         scale: int) -> tuple[tuple[float, float, float, float], float, float]:  # fmt: skip
    """Die ``index``'s box around its visible pixels (camera pixels), the share of it visible and its size.

    The size is the square root of its whole silhouette's area in camera pixels (see :attr:`DieLabel.size`).
    """
    area, (x0, y0, x1, y1) = full_area.get(index, (0, (0, 0, 0, 0)))
    ys, xs = np.nonzero(ids[y0:y1, x0:x1] == index + 1)
    xs, ys = xs + x0, ys + y0
    visible = len(xs) / area if area else 0.0
    box = (float(xs.min()) / scale, float(ys.min()) / scale, float(xs.max() + 1) / scale,
           float(ys.max() + 1) / scale) if len(xs) else (0.0, 0.0, 0.0, 0.0)  # fmt: skip
    return box, round(visible, 3), round(float(np.sqrt(area)) / scale, 2)


def labelled(label: DieLabel) -> bool:
    """Whether a drawn die is labelled for training: at least half of it in sight, its box 2 pixels wide or more."""
    return label.visible >= 0.5 and label.box[2] - label.box[0] >= 2


def shadows(tex: np.ndarray, poses: list[DiePose], light: np.ndarray, strength: float,
            to_tex: np.ndarray | None = None) -> None:  # fmt: skip
    """Darkens the table where the dice block the light (soft-edged), in one pass.

    ``to_tex`` maps table millimetres to texture pixels (3x3); the scene renderer's own map by default.
    """
    mask = np.zeros(tex.shape[:2], np.uint8)
    for pose in poses:
        corners = [c + s * u + t * v for _, c, _, u, v in die_faces(pose) for s in (-1, 1) for t in (-1, 1)]
        pts = np.array([p - p[2] / light[2] * light for p in corners])[:, :2]
        if to_tex is None:
            px = np.array([_to_tex(x, y) for x, y in pts], dtype=np.int32)
        else:
            px = np.round((to_tex @ np.column_stack([pts, np.ones(len(pts))]).T).T[:, :2]).astype(np.int32)
        cv2.fillConvexPoly(mask, cv2.convexHull(px), 255, cv2.LINE_AA)
    if poses:
        soft = cv2.GaussianBlur(mask, (0, 0), 3).astype(np.float32)[..., None] / 255.0 * strength
        tex[:] = (tex * (1 - soft)).astype(np.uint8)


def _hand(canvas: np.ndarray, ids: np.ndarray, rng: np.random.Generator, scale: int) -> None:
    """A hand reaching in from an image edge: a palm and four fingers, skin-toned."""
    h, w = canvas.shape[:2]
    tone = np.array([rng.uniform(60, 140), rng.uniform(90, 170), rng.uniform(140, 230)])
    edge = int(rng.integers(4))
    t = rng.uniform(0.2, 0.8)
    reach = rng.uniform(0.15, 0.4)
    start = [(t * w, h), (t * w, 0), (0, t * h), (w, t * h)][edge]
    direction = np.array([(0, -1), (0, 1), (1, 0), (-1, 0)][edge], dtype=float)
    direction = direction + rng.normal(0, 0.3, 2)
    direction /= np.linalg.norm(direction)
    palm_len = reach * min(h, w)
    palm_centre = np.array(start) + direction * palm_len * 0.6
    palm_w = palm_len * rng.uniform(0.35, 0.5)
    angle = float(np.degrees(np.arctan2(direction[1], direction[0])))
    shapes = [(palm_centre, (palm_len * 0.7, palm_w), angle)]
    side = np.array([-direction[1], direction[0]])
    for k in range(4):
        offset = (k - 1.5) / 1.5 * palm_w * 0.75
        tip = palm_centre + direction * palm_len * rng.uniform(0.55, 0.9) + side * offset
        shapes.append((tip, (palm_len * 0.35, palm_w * 0.16), angle))
    for centre, axes, ang in shapes:
        c = (int(centre[0]), int(centre[1]))
        a = (max(1, int(axes[0])), max(1, int(axes[1])))
        cv2.ellipse(canvas, c, a, ang, 0, 360, (tone * rng.uniform(0.9, 1.05)).tolist(), -1, cv2.LINE_AA)
        cv2.ellipse(ids, c, a, ang, 0, 360, 0, -1)


def photo_effects(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Light colour and strength, vignetting, blur, sensor noise and JPEG artefacts."""
    h, w = image.shape[:2]
    img = image.astype(np.float32)
    img *= (rng.uniform(0.55, 1.35) * rng.uniform(0.85, 1.15, 3)).astype(np.float32)
    xx = np.linspace(-0.5, 0.5, w, dtype=np.float32)[None, :]
    yy = np.linspace(-0.5, 0.5, h, dtype=np.float32)[:, None]
    gx, gy = rng.uniform(-1, 1, 2)
    img *= (1 + float(rng.uniform(0, 0.35)) * (xx * float(gx) + yy * float(gy)))[..., None]
    if rng.random() < 0.4:  # a glare spot from a lamp
        cx, cy, r = rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), rng.uniform(0.05, 0.2)
        spot = np.exp(-((xx - cx) ** 2 * (w / h) ** 2 + (yy - cy) ** 2) / (2 * r * r)) * float(rng.uniform(40, 120))
        img += spot[..., None]
    sigma = rng.choice([0, 0, 0.6, 1.0, 1.5])
    if sigma:
        img = cv2.GaussianBlur(img, (0, 0), float(sigma))
    if rng.random() < 0.15:  # motion blur
        k = int(rng.integers(3, 9))
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2, :] = 1 / k
        rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), float(rng.uniform(0, 180)), 1)
        img = cv2.filter2D(img, -1, cv2.warpAffine(kernel, rot, (k, k)))
    img += rng.standard_normal(img.shape, dtype=np.float32) * float(rng.uniform(1, 8))
    out = np.clip(img, 0, 255).astype(np.uint8)
    quality = int(rng.integers(35, 96))
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else out


_SIZES = ((640, 480), (800, 600), (1024, 768), (1280, 720), (1280, 960), (1600, 900), (1920, 1080))


def render_scene(seed: int, state: GameState | None = None, size: tuple[int, int] | None = None,
                 effects: bool = True, any_palette: bool = False, hard: float = 0.0) -> Scene:  # fmt: skip
    """Renders one table photo.

    Args:
        seed: the only source of randomness (state, layout, looks, camera, light, effects).
        state: the game state to draw; a random moment of a random legal game when None.
        size: (width, height) of the frame; random between 640x480 and 1920x1080 when None.
        effects: hands, light changes, blur, noise and JPEG artefacts (off for geometry tests).
        any_palette: the players' dice in colours drawn from the whole palette (each player another one,
            grey, violet, orange, pink, brown and cyan as often as the base box's), not the state's; drawn
            apart from the rest, so the scene is otherwise the same.
        hard: the share of the colours whose dice look as hobby dice do that the reader finds hard
            (:func:`hard_look`: smoke, swirled, pearl, dark bodies with coloured pips, deep colours); drawn
            apart from the rest, so the scene is otherwise the same.
    """
    rng = np.random.default_rng(seed)
    state = state if state is not None else random_state(rng)
    width, height = size if size is not None else _SIZES[int(rng.integers(len(_SIZES)))]
    zones, tray, style = _layout(rng)
    snapshot = TableSnapshot.from_state(state)

    # Dice looks: the game's colours, sometimes swapped for any dice people own.
    any_colour = rng.random() < 0.25
    looks = {}
    arbitrary = set()
    drawn = iter(np.random.default_rng([seed, 13]).permutation(list(PALETTE))) if any_palette else None
    for colour in [*state.players, *([state.neutral] if state.neutral else [])]:
        name = colour.value if colour.value in PALETTE else "grey"
        if drawn is not None and colour is not state.neutral:
            name = str(next(drawn))
        if any_colour and colour is not state.neutral:
            arbitrary.add(colour)
        looks[colour] = set_look(name, rng, colour in arbitrary)
    if hard:
        hard_rng = np.random.default_rng([seed, 19])
        for colour, (name, _) in looks.items():
            if hard_rng.random() < hard:
                looks[colour] = (name, hard_look(name, hard_rng))

    tilt = float(rng.uniform(0, 45))
    fov = float(rng.uniform(50, 75))
    # Frame the play area (casinos and rolling area) as people do: it fills most of the picture.
    xs = [z.x0 for z in (*zones, tray)] + [z.x1 for z in (*zones, tray)]
    ys = [z.y0 for z in (*zones, tray)] + [z.y1 for z in (*zones, tray)]
    span = max(max(xs) - min(xs), (max(ys) - min(ys)) * width / height)
    distance = float(span / rng.uniform(0.6, 1.05) / (2 * np.tan(np.radians(fov) / 2)))
    target = np.array([(max(xs) + min(xs)) / 2 + rng.normal(0, 30), (max(ys) + min(ys)) / 2 + rng.normal(0, 30), 0.0])
    camera = look_at(width, height, fov, target, tilt, float(rng.normal(0, 15)), distance, float(rng.normal(0, 4)))
    light = np.array([*rng.uniform(-0.6, 0.6, 2), 1.0])
    light /= np.linalg.norm(light)

    # Dice sets differ in size (editions, people's own dice), the dice of one set hardly: a scene-wide
    # factor and one for each colour, drawn apart from ``rng`` so the rest of the scene stays as it was.
    sets_rng = np.random.default_rng([seed, 7])
    table_scale = float(sets_rng.uniform(0.9, 1.12))
    scales = {colour: table_scale * float(sets_rng.uniform(0.96, 1.04)) for colour in looks}
    dice = _place_dice(rng, snapshot, zones, tray, scales)
    tex = _table_texture(rng, zones, style, state)
    shadows(tex, [pose for pose, _, _ in dice], light, float(rng.uniform(0.15, 0.5)))
    tex = cv2.GaussianBlur(tex, (0, 0), 1.2)

    scale = 2
    to_tex = np.array([[_PX_PER_MM, 0, -_TABLE[0] * _PX_PER_MM], [0, -_PX_PER_MM, _TABLE[3] * _PX_PER_MM], [0, 0, 1]])
    warp = np.diag([scale, scale, 1.0]) @ camera.table_homography() @ np.linalg.inv(to_tex)
    floor = tuple(int(v) for v in rng.integers(10, 120, 3))  # beyond the table's edge
    canvas = cv2.warpPerspective(tex, warp, (width * scale, height * scale), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=floor)  # fmt: skip
    ids, full_area = draw_dice(canvas, camera, [(pose, looks[reading.colour][1]) for pose, reading, _ in dice],
                               light, scale, rng)  # type: ignore[attr-defined]  # fmt: skip
    if effects and rng.random() < 0.25:
        _hand(canvas, ids, rng, scale)

    image = cv2.resize(canvas, (width, height), interpolation=cv2.INTER_AREA)
    if effects:
        image = photo_effects(image, rng)
    labels, hidden = [], []
    for index, (pose, reading, zone) in enumerate(dice):
        box, visible, die_size = seen(ids, full_area, index, scale)
        name, _ = looks[reading.colour]  # type: ignore[attr-defined]
        in_play = reading.colour not in arbitrary
        label = DieLabel(box, pose.top, name, bool(reading.big), zone, visible, in_play, die_size)  # type: ignore[attr-defined]
        (labels if labelled(label) else hidden).append(label)
    return Scene(image, labels, hidden, state.to_notation(), seed, tilt)
