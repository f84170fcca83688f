"""Reading Just 4 Fun's board from above: rendered tables, every spot read against the state's own stones.

    python bench/bench_stones.py [--seeds 100 124] [--pictures 6]

Each seed is a random game (2-4 players, the colours rotating over red, blue, green, black, white and yellow)
rendered by :mod:`vision.synth.board` at a random camera height and tilt (0-30 degrees); ``--pictures`` of
its states, evenly spread, are read by :func:`vision.stones.read_stones` after the board's markers
calibrate the picture. The stone threshold was chosen on seeds 1-8: report others.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter

import numpy as np

from models.dice_detector.evaluate import cpu_description
from vision.board import find_board
from vision.stones import read_stones
from vision.synth.board import RenderedBoard, truth

TABLES = (("red", "blue"), ("red", "blue", "green"), ("black", "white", "yellow", "red"), ("green", "yellow", "white"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs=2, default=[100, 124], metavar=("FIRST", "END"))
    parser.add_argument("--pictures", type=int, default=6)
    args = parser.parse_args()
    counts: Counter[str] = Counter()
    seconds = 0.0
    for seed in range(*args.seeds):
        players = TABLES[seed % len(TABLES)]
        game = RenderedBoard(seed=seed, players=players)
        for index in np.linspace(0, len(game.states) - 1, args.pictures).astype(int):
            image = game.picture(int(index))
            started = time.perf_counter()
            homography = find_board(image, game.layout)
            seen = {} if homography is None else read_stones(image, homography, game.layout, players)
            seconds += time.perf_counter() - started
            counts["pictures"] += 1
            counts["board_not_found"] += homography is None
            true = {(n, s): c for n, s, c, _ in truth(game.states[index])}
            counts["stones"] += len(true)
            for spot in set(seen) | set(true):
                if seen.get(spot) != true.get(spot):
                    counts["missed" if spot not in seen else "phantom" if spot not in true else "colour_wrong"] += 1
    kinds = ("pictures", "stones", "board_not_found", "missed", "phantom", "colour_wrong")
    per_picture = round(1000 * seconds / max(counts["pictures"], 1), 1)
    print(json.dumps({"seeds": args.seeds, **{k: counts[k] for k in kinds}, "ms_per_picture": per_picture,
                      "processor": cpu_description()}))  # fmt: skip


if __name__ == "__main__":
    main()
