"""Photoreal dice photos rendered by Blender's Cycles on the CPU: runs *inside* Blender, stdlib and bpy only.

    blender -b --factory-startup --python vision/synth/blender_dice.py -- --seed 1 --count 20 --out DIR

Each photo (``DIR/<seed>_<i>.png``) is a few dice lying on a cloth or wooden table, seen from above at up
to 45 degrees, under one area light and a tinted sky; ``DIR/<seed>_<i>.json`` holds its labels: per die
the box around its visible silhouette's corners (pixels), the pips on top, the body colour's name,
whether it is a Biggy and its size (the square root of its silhouette's area, estimated from its
projected corners). Everything random comes from ``random.Random(seed)``, so a seed gives the same
scenes. The project's side (``vision.synth.blender``) runs Blender and reads these files; this file
cannot import the project (Blender's Python has no numpy or OpenCV).

Dice are bevelled cubes with pips sunk into their faces (flattened spheres in a pip material),
opposite faces summing to 7; bodies matte, glossy or translucent, in the palette's colours.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path

import bpy  # type: ignore[import-not-found]
from bpy_extras.object_utils import world_to_camera_view  # type: ignore[import-not-found]
from mathutils import Euler, Vector  # type: ignore[import-not-found]

# Body colours: vision.colours.PALETTE (BGR), copied because Blender's Python cannot import it (a test compares).
PALETTE = {
    "red": (40, 40, 200), "blue": (170, 80, 30), "green": (60, 150, 40), "black": (35, 35, 35),
    "white": (235, 235, 235), "yellow": (40, 210, 235), "grey": (140, 140, 140), "violet": (150, 50, 120),
    "orange": (30, 130, 240), "pink": (180, 120, 240), "brown": (40, 75, 120), "cyan": (210, 200, 60),
}  # fmt: skip
PIPS = {
    1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (-1, 1), (1, -1), (1, 1)],
    5: [(-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)], 6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}  # fmt: skip
EDGE = 0.016  # a normal die's edge in metres (a Biggy's is 1.5 times that)
# Measured with this Blender (Cycles, Standard view): an area lamp of P watts d metres from a matte
# face lights it as a white sky of strength LAMP_SKY * P / d**2 would; under a sky of strength
# 1 / FACE_GAIN the dice's top faces show their palette colours (the median over the palette in 24 renders:
# a plain matte face needs 1 / 1.77, the dice's glossy bodies, bevels and the table's light more).
FACE_GAIN = 3.2
LAMP_SKY = 0.00945


def _linear(c: float) -> float:
    c /= 255.0
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _material(name: str, bgr: tuple[float, float, float], roughness: float, transmission: float = 0.0):  # type: ignore[no-untyped-def]
    material = bpy.data.materials.new(name)
    material.use_nodes = True
    bsdf = material.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Base Color"].default_value = (*(_linear(v) for v in bgr[::-1]), 1.0)
    bsdf.inputs["Roughness"].default_value = roughness
    bsdf.inputs["Transmission"].default_value = transmission
    return material


def _die(rng: random.Random, edge: float, top: int, body, pip):  # type: ignore[no-untyped-def]
    """A bevelled cube of side ``edge`` with ``top`` pips up; returns the body object (pips are children)."""
    bpy.ops.mesh.primitive_cube_add(size=edge)
    die = bpy.context.active_object
    bevel = die.modifiers.new("bevel", "BEVEL")
    bevel.width, bevel.segments = edge * rng.uniform(0.08, 0.16), 3
    die.data.materials.append(body)
    bpy.ops.object.shade_smooth()
    # Faces: +z top, -z 7-top; the other two opposite pairs (each summing to 7) go on x and y.
    a, c = sorted(v for v in range(1, 7) if v not in (top, 7 - top))[:2]  # the two lowest: one of each pair
    faces = {(0, 0, 1): top, (0, 0, -1): 7 - top, (1, 0, 0): a, (-1, 0, 0): 7 - a, (0, 1, 0): c, (0, -1, 0): 7 - c}
    spacing, radius = edge * 0.25, edge * 0.085
    for normal, value in faces.items():
        n = Vector(normal)
        u = Vector((0, 1, 0)) if abs(n.x) > 0.5 else Vector((1, 0, 0))
        v = n.cross(u)
        for i, j in PIPS[value]:
            centre = n * (edge / 2 - radius * 0.15) + u * (i * spacing) + v * (j * spacing)  # sunk a little
            bpy.ops.mesh.primitive_uv_sphere_add(radius=radius, segments=12, ring_count=6, location=centre)
            dot = bpy.context.active_object
            dot.scale = [0.35 if abs(k) > 0.5 else 1.0 for k in normal]  # flattened along the face normal
            dot.data.materials.append(pip)
            dot.parent = die
    return die


def _table(rng: random.Random) -> None:
    bpy.ops.mesh.primitive_plane_add(size=1.0)
    table = bpy.context.active_object
    material = bpy.data.materials.new("table")
    material.use_nodes = True
    nodes, links = material.node_tree.nodes, material.node_tree.links
    bsdf = nodes["Principled BSDF"]
    noise = nodes.new("ShaderNodeTexNoise")
    noise.inputs["Scale"].default_value = rng.uniform(20, 400)
    noise.inputs["Detail"].default_value = rng.uniform(2, 10)
    ramp = nodes.new("ShaderNodeValToRGB")
    base = [rng.uniform(0.02, 0.6) for _ in range(3)]
    ramp.color_ramp.elements[0].color = (*[x * 0.6 for x in base], 1)
    ramp.color_ramp.elements[1].color = (*base, 1)
    links.new(noise.outputs["Fac"], ramp.inputs["Fac"])
    links.new(ramp.outputs["Color"], bsdf.inputs["Base Color"])
    bsdf.inputs["Roughness"].default_value = rng.uniform(0.4, 1.0)
    table.data.materials.append(material)


def _corners(die, edge: float) -> list[Vector]:  # type: ignore[no-untyped-def]
    h = edge / 2
    return [die.matrix_world @ Vector((x, y, z)) for x in (-h, h) for y in (-h, h) for z in (-h, h)]


def _hull_area(points: list[tuple[float, float]]) -> float:
    pts = sorted(set(points))
    if len(pts) < 3:
        return 0.0
    cross = lambda o, a, b: (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])  # noqa: E731
    lower: list[tuple[float, float]] = []
    upper: list[tuple[float, float]] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    hull = lower[:-1] + upper[:-1]
    return abs(sum(hull[i][0] * hull[i - 1][1] - hull[i - 1][0] * hull[i][1] for i in range(len(hull)))) / 2


def render(seed: int, index: int, out: Path, samples: int, size: tuple[int, int]) -> None:
    """Builds and renders one scene; writes the PNG and its JSON labels."""
    rng = random.Random(seed * 100_003 + index)
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = samples
    scene.cycles.use_denoising = False  # Debian's Blender is built without OpenImageDenoise
    scene.render.resolution_x, scene.render.resolution_y = size
    scene.render.resolution_percentage = 100
    scene.render.image_settings.file_format = "PNG"
    scene.view_settings.view_transform = "Standard"  # Filmic would wash the body colours out
    # The sky and the lamp share a light level drawn around the one at which a matte face shows its
    # palette colour (half that to 1.2 times it), the lamp giving 30-90 % of it.
    level = 2 ** rng.uniform(-1.0, 0.25) / FACE_GAIN
    world = bpy.data.worlds.new("sky")
    world.use_nodes = True
    tint = [rng.uniform(0.7, 1.0) for _ in range(3)]
    world.node_tree.nodes["Background"].inputs["Color"].default_value = (*tint, 1)
    lamp_share = rng.uniform(0.3, 0.9)
    world.node_tree.nodes["Background"].inputs["Strength"].default_value = level * (1 - lamp_share)
    scene.world = world
    _table(rng)
    count = rng.randint(3, 8)
    placed: list[tuple[float, float, float]] = []
    dice = []
    for k in range(count):
        biggy = rng.random() < 0.15
        edge = EDGE * (1.5 if biggy else 1.0) * rng.uniform(0.97, 1.03)
        for _ in range(50):
            x, y = rng.uniform(-0.05, 0.05), rng.uniform(-0.05, 0.05)
            if all(math.hypot(x - px, y - py) > (edge + pe) * 0.75 for px, py, pe in placed):
                break
        placed.append((x, y, edge))
        colour = rng.choice(list(PALETTE))
        bgr = tuple(min(255.0, max(0.0, c * rng.uniform(0.85, 1.15))) for c in PALETTE[colour])
        light_body = sum(bgr) / 3 > 150
        style = rng.random()
        body = _material(f"body{k}", bgr, rng.uniform(0.05, 0.25) if style < 0.5 else rng.uniform(0.4, 0.8),
                         rng.uniform(0.3, 0.6) if style > 0.85 else 0.0)  # fmt: skip
        pip_bgr = (20, 20, 20) if light_body else (rng.choice([(240, 240, 240), (30, 200, 230), (40, 40, 40)]))
        pip = _material(f"pip{k}", pip_bgr, 0.5)
        top = rng.randint(1, 6)
        die = _die(rng, edge, top, body, pip)
        die.location = (x, y, edge / 2)
        die.rotation_euler = Euler((0, 0, rng.uniform(0, 2 * math.pi)))
        dice.append((die, edge, top, colour, biggy))
    # Camera: above the dice, up to 45 degrees from vertical, looking at their middle.
    tilt, turn = math.radians(rng.uniform(0, 45)), rng.uniform(0, 2 * math.pi)
    distance = rng.uniform(0.14, 0.3)
    target = Vector((sum(p[0] for p in placed) / count, sum(p[1] for p in placed) / count, 0))
    offset = Vector((math.sin(tilt) * math.cos(turn), math.sin(tilt) * math.sin(turn), math.cos(tilt))) * distance
    bpy.ops.object.camera_add(location=target + offset)
    camera = bpy.context.active_object
    camera.rotation_euler = (-offset).to_track_quat("-Z", "Y").to_euler()
    camera.data.lens = rng.uniform(28, 50)
    scene.camera = camera
    light_at = Vector((rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3), rng.uniform(0.4, 0.8)))
    bpy.ops.object.light_add(type="AREA", location=light_at)
    lamp = bpy.context.active_object
    lamp.data.energy = level * lamp_share * light_at.length_squared / LAMP_SKY
    lamp.data.size = rng.uniform(0.1, 0.6)
    lamp.data.color = [rng.uniform(0.85, 1.0) for _ in range(3)]
    lamp.rotation_euler = (-light_at).to_track_quat("-Z", "Y").to_euler()
    bpy.context.view_layer.update()
    width, height = size
    labels = []
    for die, edge, top, colour, biggy in dice:
        points = []
        for corner in _corners(die, edge):
            p = world_to_camera_view(scene, camera, corner)
            points.append((p.x * width, (1 - p.y) * height))
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        box = [max(0.0, min(xs)), max(0.0, min(ys)), min(float(width), max(xs)), min(float(height), max(ys))]
        if (
            box[2] - box[0] < 4
            or box[3] - box[1] < 4
            or min(xs) < 0
            or min(ys) < 0
            or max(xs) > width
            or max(ys) > height
        ):
            continue  # cut by the frame's edge: not labelled
        labels.append({"box": [round(v, 1) for v in box], "pips": top, "colour": colour, "biggy": biggy,
                       "size": round(math.sqrt(_hull_area(points)), 2)})  # fmt: skip
    name = f"{seed}_{index:04d}"
    scene.render.filepath = str(out / f"{name}.png")
    bpy.ops.render.render(write_still=True)
    (out / f"{name}.json").write_text(json.dumps({"seed": seed, "index": index, "dice": labels}))


def main() -> None:
    """Entry point inside Blender: the arguments after ``--``."""
    argv = sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else []
    parser = argparse.ArgumentParser(description="photoreal dice photos from Blender (run inside Blender)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--samples", type=int, default=32)
    parser.add_argument("--size", type=int, nargs=2, default=(640, 480))
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for index in range(args.first, args.first + args.count):
        render(args.seed, index, args.out, args.samples, tuple(args.size))


if __name__ == "__main__":
    main()
