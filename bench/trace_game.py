"""Traces a rendered game watched by the model: each true moment beside what the referee made of it.

For finding where the camera referee goes wrong on a benchmark game: every moment of the truth
(roll, placement, pick-up, settlement) is printed as its frames begin, then each verdict, and for every
alert or held-back reading the settled table it came from::

    python bench/trace_game.py --seed 102 [--players red,blue,green] [--rounds 1] [--models DIR]
        [--rules las-vegas+biggy]
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from bench_pipeline import compare_settled, settled_truth

from referee import RoundScored, new_game
from referee.lasvegas.simulate import seeded_deal
from vision.detect import MODELS, DiceDetector
from vision.pipeline import TablePipeline, camera_referee
from vision.synth.game import RenderedGame


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--players", default="red,blue,green")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--models", type=Path, default=MODELS, help="folder with dice_detector/ and die_reader/")
    parser.add_argument("--confidence", type=float, default=None, help="another detector confidence threshold")
    parser.add_argument("--rules", default="las-vegas", help="the rules played, e.g. las-vegas+biggy")
    parser.add_argument("--reader", choices=("model", "truth"), default="model")
    parser.add_argument("--readings-from", type=int, default=None, metavar="FRAME",
                        help="also print every settled reading from this frame on")  # fmt: skip
    args = parser.parse_args()
    options = {} if args.confidence is None else {"confidence": args.confidence}
    game = RenderedGame(seed=args.seed, players=args.players.split(","), rules=args.rules, rounds=args.rounds)
    initial = new_game(game.ruleset, game.players)
    observer = camera_referee(initial, deal=seeded_deal(initial, args.seed))
    detector = game.truth_reader() if args.reader == "truth" else DiceDetector(
        args.models / "dice_detector", args.models / "die_reader", **options)  # fmt: skip
    pipeline = TablePipeline(detector, observer)
    truth = settled_truth(game)
    settled = 0
    moment = None
    for frame in game.frames():
        span = game.span_of(frame.index)
        if span.moment is not moment:
            moment = span.moment
            print(f"--- frame {frame.index}: truth {moment.what} {moment.event or ''}")
        report = pipeline.process(frame)
        every = args.readings_from is not None and frame.index >= args.readings_from
        if every and report.snapshot is not None and not report.verdicts:
            print(f"  {frame.index} read: {_table(report.snapshot)}{_misread(report.snapshot, moment.snapshot)}")
        for verdict in report.verdicts:
            print(f"  {frame.index} {verdict.kind}: {verdict}")
            if (every or verdict.kind in ("alert", "uncertain")) and report.snapshot is not None:
                print(f"     read: {_table(report.snapshot)}{_misread(report.snapshot, moment.snapshot)}")
            for words, cost in getattr(verdict, "candidates", ()):
                print(f"     weighed (+{cost}): {words}")
            if isinstance(verdict.event, RoundScored) and verdict.before is not None and settled < len(truth):
                wrong, paid_right = compare_settled(verdict.before, truth[settled])
                print(f"     against the truth: {'paid right' if paid_right else 'PAID WRONG'}; "
                      f"{'; '.join(wrong) or 'every casino right'}")  # fmt: skip
                settled += 1


def _die(d) -> str:
    return f"{d.colour.value}{'*' if d.big else ''} {d.pips}"


def _misread(read, truth) -> str:
    """What the reading lacks (-) and has over (+) the true table, zone by zone ('' when none)."""
    parts = []
    for zone, (got, true) in enumerate(zip((read.tray, *read.casinos), (truth.tray, *truth.casinos), strict=True)):
        lacks = Counter(map(_die, true)) - Counter(map(_die, got))
        extra = Counter(map(_die, got)) - Counter(map(_die, true))
        if lacks or extra:
            name = f"casino {zone}" if zone else "tray"
            marks = [*(f"-{d}" for d in lacks.elements()), *(f"+{d}" for d in extra.elements())]
            parts.append(f"{name}: " + " ".join(marks))
    return f"\n     vs truth: {'; '.join(parts)}" if parts else ""


def _table(snapshot) -> str:
    die = _die
    casinos = {n: [die(d) for d in dice] for n, dice in enumerate(snapshot.casinos, start=1) if dice}
    return f"casinos {casinos}, tray {[die(d) for d in snapshot.tray]}"


if __name__ == "__main__":
    main()
