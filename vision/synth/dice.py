"""Drawing one die in perspective: a cube with bevelled faces, pips, shading, gloss and finishes."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.synth.camera import Camera

__all__ = ["PIP_LAYOUT", "DieLook", "DiePose", "crossings", "die_faces", "draw_die", "overlaps"]

#: Pip centres on a face, in face units (-1..1), per value.
PIP_LAYOUT: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.0, 0.0),),
    2: ((-0.5, -0.5), (0.5, 0.5)),
    3: ((-0.5, -0.5), (0.0, 0.0), (0.5, 0.5)),
    4: ((-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)),
    5: ((-0.5, -0.5), (0.5, -0.5), (0.0, 0.0), (-0.5, 0.5), (0.5, 0.5)),
    6: ((-0.5, -0.5), (0.5, -0.5), (-0.5, 0.0), (0.5, 0.0), (-0.5, 0.5), (0.5, 0.5)),
}

# Die-local face frames: (normal, u axis, v axis) for +z, -z, +x, -x, +y, -y.
_FACES = (
    ((0, 0, 1), (1, 0, 0), (0, 1, 0)),
    ((0, 0, -1), (1, 0, 0), (0, -1, 0)),
    ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    ((-1, 0, 0), (0, -1, 0), (0, 0, 1)),
    ((0, 1, 0), (-1, 0, 0), (0, 0, 1)),
    ((0, -1, 0), (1, 0, 0), (0, 0, 1)),
)


@dataclass(frozen=True)
class DiePose:
    """Where a die lies: centre of its bottom on the table, yaw, an optional lean, and its top value."""

    x_mm: float
    """Table x of the die's footprint centre."""
    y_mm: float
    """Table y of the die's footprint centre."""
    size_mm: float
    """Edge length (about 16 mm for a normal die, 24 mm for a Biggy)."""
    yaw_deg: float
    """Rotation about the vertical."""
    top: int
    """The value on the upper face: the label."""
    side: int
    """The value on the +x face (adjacent to ``top``)."""
    lean_deg: float = 0.0
    """Tilt about the die's y axis, as when it leans against another die."""


@dataclass(frozen=True)
class DieLook:
    """How a die looks."""

    body_bgr: tuple[int, int, int]
    """Body colour."""
    pip_bgr: tuple[int, int, int]
    """Pip colour."""
    finish: str = "matte"
    """matte, glossy, marbled, translucent or pearl."""
    pip_radius: float = 0.17
    """Pip radius in face units."""
    vein_seed: int = 0
    """Seed of the marbled texture (and of a pearl's sheen)."""
    alpha: float = 0.72
    """How opaque a translucent body is (a dark "smoke" die lets more of the table through)."""
    vein_bgr: tuple[int, int, int] | None = None
    """A marbled die's swirls in a second colour, broad (resin dice swirled in two colours); None: fine
    veins of a lighter shade of the body."""


def _faces_values(top: int, side: int) -> list[int]:
    """Values of the six faces in ``_FACES`` order for a standard die (opposite faces sum to 7)."""
    rest = [v for v in range(1, 7) if v not in (top, 7 - top, side, 7 - side)]
    front = rest[0]
    return [top, 7 - top, side, 7 - side, front, 7 - front]


def overlaps(
    centres: np.ndarray, size: float, yaw_deg: float, others: list[DiePose], clearance: float = 0.5
) -> np.ndarray:
    """Whether a die of edge ``size`` turned by ``yaw_deg`` would go through any of ``others``, per centre.

    The footprints are squares on the table (dice lying flat); by the separating-axis test two squares
    are apart when one of their four edge directions separates them, ``clearance`` millimetres kept.

    Example:
        >>> pose = DiePose(0.0, 0.0, 16.0, 0.0, 1, 2)
        >>> overlaps(np.array([[10.0, 0.0], [17.0, 0.0]]), 16.0, 0.0, [pose]).tolist()  # side by side
        [True, False]
        >>> overlaps(np.array([[12.0, 12.0], [15.0, 15.0]]), 16.0, 45.0, [pose]).tolist()  # a corner to a side
        [True, False]
    """
    centres = np.asarray(centres, np.float64).reshape(-1, 2)
    if not others:
        return np.zeros(len(centres), bool)
    theirs = np.array([[other.x_mm, other.y_mm, other.size_mm, other.yaw_deg] for other in others])
    return crossings(centres, np.full(len(centres), size), np.full(len(centres), yaw_deg),
                     theirs[:, :2], theirs[:, 2], theirs[:, 3], clearance).any(axis=1)  # fmt: skip


def crossings(centres: np.ndarray, sizes: np.ndarray, yaws_deg: np.ndarray, other_centres: np.ndarray,
              other_sizes: np.ndarray, other_yaws_deg: np.ndarray, clearance: float = 0.5) -> np.ndarray:  # fmt: skip
    """Which footprints go through which: (N, M) booleans for N squares against M others (see :func:`overlaps`).

    Example:
        >>> crossings(np.array([[0.0, 0.0], [40.0, 0.0]]), np.array([16.0, 16.0]), np.array([0.0, 30.0]),
        ...           np.array([[10.0, 0.0]]), np.array([16.0]), np.array([0.0])).tolist()
        [[True], [False]]
    """
    mine, theirs = _edge_directions(np.asarray(yaws_deg)), _edge_directions(np.asarray(other_yaws_deg))
    mine, theirs = mine[:, None], theirs[None]  # (N, 1, 2, 2) and (1, M, 2, 2): two edge directions each
    axes = np.concatenate(np.broadcast_arrays(mine, theirs), axis=2)  # (N, M, 4, 2)
    half, other_half = np.asarray(sizes)[:, None, None] / 2, np.asarray(other_sizes)[None, :, None] / 2
    reach = (half * np.abs(np.einsum("nmkd,nxjd->nmkj", axes, mine)).sum(-1)
             + other_half * np.abs(np.einsum("nmkd,xmjd->nmkj", axes, theirs)).sum(-1))  # fmt: skip
    offset = np.asarray(centres, np.float64)[:, None] - np.asarray(other_centres, np.float64)[None]  # (N, M, 2)
    apart = (np.abs(np.einsum("nmkd,nmd->nmk", axes, offset)) >= reach + clearance).any(axis=2)
    return ~apart


def _edge_directions(yaw_deg: float | np.ndarray) -> np.ndarray:
    """The two unit edge directions (rows) of a die's square footprint turned by ``yaw_deg`` ((..., 2, 2))."""
    a = np.radians(yaw_deg)
    c, s = np.cos(a), np.sin(a)
    return np.stack([np.stack([c, s], -1), np.stack([-s, c], -1)], -2)


def _rotation(pose: DiePose) -> np.ndarray:
    yaw, lean = np.radians(pose.yaw_deg), np.radians(pose.lean_deg)
    rz = np.array([[np.cos(yaw), -np.sin(yaw), 0], [np.sin(yaw), np.cos(yaw), 0], [0, 0, 1]])
    ry = np.array([[np.cos(lean), 0, np.sin(lean)], [0, 1, 0], [-np.sin(lean), 0, np.cos(lean)]])
    return rz @ ry


def die_faces(pose: DiePose) -> list[tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """Every face as ``(value, centre, normal, u, v)`` in table millimetres (u, v are half-edge vectors)."""
    rot = _rotation(pose)
    half = pose.size_mm / 2
    # The die rests on its lowest corner or face: lift it so that nothing goes below the table.
    corners = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]) * half @ rot.T
    centre = np.array([pose.x_mm, pose.y_mm, -corners[:, 2].min()])
    faces = []
    for value, (normal, u, v) in zip(_faces_values(pose.top, pose.side), _FACES, strict=True):
        n = rot @ np.array(normal, dtype=float)
        faces.append((value, centre + n * half, n, rot @ np.array(u, dtype=float) * half,
                      rot @ np.array(v, dtype=float) * half))  # fmt: skip
    return faces


def _face_polygon(camera: Camera, centre: np.ndarray, u: np.ndarray, v: np.ndarray, inset: float,
                  corner: float, steps: int = 4) -> np.ndarray:  # fmt: skip
    """A rounded square on a face, projected: ``inset`` shrinks it, ``corner`` rounds it (face units)."""
    pts = []
    r = corner
    e = 1 - inset - r
    for cx, cy, a0 in ((e, e, 0), (-e, e, 90), (-e, -e, 180), (e, -e, 270)):
        for k in range(steps + 1):
            a = np.radians(a0 + 90 * k / steps)
            pts.append(centre + (cx + r * np.cos(a)) * u + (cy + r * np.sin(a)) * v)
    return camera.project(np.array(pts))


def _bgr(colour: np.ndarray) -> list[float]:
    return [min(255.0, max(0.0, float(c))) for c in colour]


def draw_die(
    image: np.ndarray, mask: np.ndarray, camera: Camera, pose: DiePose, look: DieLook, light_dir: np.ndarray,
    scale: int, rng: np.random.Generator,
) -> np.ndarray:  # fmt: skip
    """Draws a die onto ``image`` (BGR, drawn at ``scale`` times the camera's resolution).

    ``mask`` (uint8, same size, all zero) receives 255 where the die covers the image. Returns the die's
    outline in camera pixels (visible faces' corners), from which its box is taken.
    """
    eye = camera.centre_mm
    visible = [f for f in die_faces(pose) if np.dot(f[2], eye - f[1]) > 0]
    if not visible:
        return np.zeros((0, 2))
    edges = [_face_polygon(camera, centre, u, v, 0.0, 0.18) for _, centre, _, u, v in visible]
    outline = np.concatenate(edges)
    # Draw inside the die's own box only (the canvas is up to 3840x2160).
    height, width = image.shape[:2]
    x0, y0 = (np.floor(outline.min(axis=0) * scale).astype(int) - 2).clip(0, [width, height])
    x1, y1 = (np.ceil(outline.max(axis=0) * scale).astype(int) + 2).clip(0, [width, height])
    if x1 <= x0 or y1 <= y0:
        return outline
    offset = np.array([x0, y0], dtype=float)
    roi, roi_mask = image[y0:y1, x0:x1], mask[y0:y1, x0:x1]
    layer = roi.copy() if look.finish == "translucent" else roi

    def pts(poly: np.ndarray) -> list[np.ndarray]:
        return [np.round(poly * scale - offset).astype(np.int32)]

    body = np.array(look.body_bgr, dtype=float)
    pip = np.array(look.pip_bgr, dtype=float)
    angles = np.linspace(0, 2 * np.pi, 14, endpoint=False)
    circle = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    for (value, centre, normal, u, v), edge in zip(visible, edges, strict=True):
        shade = 0.45 + 0.55 * max(0.0, float(np.dot(normal, light_dir)))
        # The dark bevel (rounded edge seen edge-on) first, then the flat face inset from it.
        face = _face_polygon(camera, centre, u, v, 0.07, 0.2)
        face_colour = body * shade
        cv2.fillPoly(layer, pts(edge), _bgr(face_colour * 0.72), cv2.LINE_AA)
        cv2.fillPoly(layer, pts(face), _bgr(face_colour), cv2.LINE_AA)
        cv2.fillPoly(roi_mask, pts(edge), 255)
        if look.finish == "marbled":
            vein = None if look.vein_bgr is None else np.array(look.vein_bgr, dtype=float) * shade
            _marble(layer, face * scale - offset, face_colour, look.vein_seed + value, vein)
        elif look.finish == "pearl":
            _pearl(layer, face * scale - offset, face_colour, look.vein_seed + value)
        radius = look.pip_radius * (1.3 if value == 1 else 1.0)
        pip_colour = _bgr(pip * (0.55 + 0.45 * shade))
        for pu, pv in PIP_LAYOUT[value]:
            ring = centre + (pu + radius * circle[:, :1]) * u + (pv + radius * circle[:, 1:]) * v
            cv2.fillPoly(layer, pts(camera.project(ring)), pip_colour, cv2.LINE_AA)
        if look.finish == "glossy" and normal[2] > 0.5:
            _gloss(layer, face * scale - offset, rng)
    if look.finish == "translucent":
        alpha = look.alpha
        cover = roi_mask > 0
        roi[cover] = (alpha * layer[cover] + (1 - alpha) * roi[cover]).astype(image.dtype)
    return outline


def _face_region(image: np.ndarray, polygon: np.ndarray) -> tuple[int, int, int, int, np.ndarray] | None:
    """The face's bounding rectangle in ``image`` (x0, y0, x1, y1) and its mask there; None when too small."""
    x0, y0 = np.floor(polygon.min(axis=0)).astype(int)
    x1, y1 = np.ceil(polygon.max(axis=0)).astype(int)
    h, w = image.shape[:2]
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return None
    region = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(region, [np.round(polygon - [x0, y0]).astype(np.int32)], 255)
    return x0, y0, x1, y1, region > 0


def _marble(image: np.ndarray, polygon: np.ndarray, colour: np.ndarray, seed: int,
            vein: np.ndarray | None = None) -> None:  # fmt: skip
    """Veins over a face: fine and lighter than the body, or (``vein``) broad swirls of a second colour."""
    found = _face_region(image, polygon)
    if found is None:
        return
    x0, y0, x1, y1, inside = found
    cell = 6 if vein is None else 10
    veins = np.random.default_rng(seed).random((max(2, (y1 - y0) // cell), max(2, (x1 - x0) // cell)))
    veins = cv2.resize(veins.astype(np.float32), (x1 - x0, y1 - y0), interpolation=cv2.INTER_CUBIC)
    if vein is None:
        tint = np.array(_bgr(colour * 0.6 + 255 * 0.4))
        amount = np.clip(np.abs(np.sin(veins * 9.0)) - 0.6, 0, 1) * 2.5
    else:
        tint = np.array(_bgr(vein))
        amount = np.clip((np.sin(veins * 6.0) - 0.1) * 2.0, 0, 1)
    amount = amount[..., None] * inside[..., None]
    patch = image[y0:y1, x0:x1].astype(float)
    image[y0:y1, x0:x1] = (patch * (1 - amount) + tint * amount).astype(image.dtype)


def _pearl(image: np.ndarray, polygon: np.ndarray, colour: np.ndarray, seed: int) -> None:
    """A pearl body's sheen: soft lighter bands across the face, tinted as mother-of-pearl is."""
    found = _face_region(image, polygon)
    if found is None:
        return
    x0, y0, x1, y1, inside = found
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0 : y1 - y0, 0 : x1 - x0].astype(float)
    angle, waves = rng.uniform(0, np.pi), rng.uniform(0.8, 2.0)
    along = (xx * np.cos(angle) + yy * np.sin(angle)) / max(x1 - x0, y1 - y0, 1)
    amount = (0.5 + 0.5 * np.sin(2 * np.pi * waves * along + rng.uniform(0, 2 * np.pi))) * rng.uniform(0.25, 0.5)
    tint = np.array(_bgr(colour * 0.5 + np.array([235.0, 215.0, 245.0]) * 0.5))
    amount = amount[..., None] * inside[..., None]
    patch = image[y0:y1, x0:x1].astype(float)
    image[y0:y1, x0:x1] = (patch * (1 - amount) + tint * amount).astype(image.dtype)


def _gloss(image: np.ndarray, polygon: np.ndarray, rng: np.random.Generator) -> None:
    centre = polygon.mean(axis=0) + (polygon.max(axis=0) - polygon.min(axis=0)) * rng.uniform(-0.3, 0.3, 2)
    radius = max(1.0, float((polygon.max(axis=0) - polygon.min(axis=0)).mean() * rng.uniform(0.08, 0.2)))
    h, w = image.shape[:2]
    x0, y0 = int(max(centre[0] - 3 * radius, 0)), int(max(centre[1] - 3 * radius, 0))
    x1, y1 = int(min(centre[0] + 3 * radius, w)), int(min(centre[1] + 3 * radius, h))
    if x1 <= x0 or y1 <= y0:
        return
    yy, xx = np.mgrid[y0:y1, x0:x1]
    spot = np.exp(-((xx - centre[0]) ** 2 + (yy - centre[1]) ** 2) / (2 * radius**2)) * rng.uniform(0.4, 0.8)
    face = np.zeros((y1 - y0, x1 - x0), np.uint8)  # the highlight stays on the face
    cv2.fillPoly(face, [np.round(polygon - [x0, y0]).astype(np.int32)], 1)
    spot *= face
    patch = image[y0:y1, x0:x1].astype(float)
    image[y0:y1, x0:x1] = np.clip(patch + (255 - patch) * spot[..., None], 0, 255).astype(image.dtype)
