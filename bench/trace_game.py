"""Traces a rendered game watched by the model: each true moment beside what the referee made of it.

For finding where the camera referee goes wrong on a benchmark game: every moment of the truth
(roll, placement, pick-up, settlement) is printed as its frames begin, then each verdict, and for every
alert or held-back reading the settled table it came from::

    python bench/trace_game.py --seed 102 [--players red,blue,green] [--rounds 1] [--models DIR]
        [--rules las-vegas+biggy] [--save FILE]

``--save FILE`` keeps the settled readings the referee was given (and the truth beside them);
``--replay FILE`` referees them again without rendering or reading a frame, in seconds, for trying a
change to the interpreter on a traced game (the readings do not depend on the referee).
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from bench_pipeline import (
    PageAnswers,
    Step,
    compare_settled,
    load_readings,
    replayed,
    save_readings,
    settled_truth,
    watched,
)

from referee import RoundScored, new_game
from referee.lasvegas.simulate import seeded_deal
from vision.detect import MODELS, table_reader
from vision.pipeline import TablePipeline, camera_referee
from vision.synth.game import RenderedGame


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, help="the rendered game (needed unless --replay)")
    parser.add_argument("--players", default="red,blue,green")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--models", type=Path, default=MODELS, help="folder with dice_detector/ and die_reader/")
    parser.add_argument("--confidence", type=float, default=None, help="another detector confidence threshold")
    parser.add_argument("--rules", default="las-vegas", help="the rules played, e.g. las-vegas+biggy")
    parser.add_argument("--reader", choices=("model", "truth"), default="model")
    parser.add_argument("--readings-from", type=int, default=None, metavar="FRAME",
                        help="also print every settled reading from this frame on")  # fmt: skip
    parser.add_argument("--save", type=Path, default=None, help="save the settled readings to replay them")
    parser.add_argument("--replay", type=Path, default=None, help="referee readings saved with --save")
    parser.add_argument("--confirm-passes", action="store_true", help="the players answer whether someone passed")
    parser.add_argument("--answer-questions", action="store_true", help="the players answer every question asked")
    parser.add_argument("--count-chips", action="store_true", help="the players enter their chips as rounds start")
    args = parser.parse_args()
    if args.replay is not None:
        saved = load_readings(args.replay)
        game = RenderedGame(seed=saved["seed"], players=saved["players"], rules=saved["rules"], rounds=saved["rounds"])
        initial = new_game(game.ruleset, game.players)
        observer = camera_referee(initial, deal=seeded_deal(initial, saved["seed"]))
        page = PageAnswers(game, passes=args.confirm_passes, chips=args.count_chips, questions=args.answer_questions)
        steps = replayed(observer, saved["steps"], page)
        saved_rounds = saved["rounds"]
    else:
        if args.seed is None:
            parser.error("--seed is needed (or --replay FILE)")
        game = RenderedGame(seed=args.seed, players=args.players.split(","), rules=args.rules, rounds=args.rounds)
        steps = _watched(game, args)
        saved_rounds = args.rounds
    truth = settled_truth(game)
    settled = 0
    kept = []
    for step in steps:
        kept.append(step[:4])
        frame, moment, true_table, snapshot, verdicts = step
        if moment is not None:
            print(f"--- frame {frame}: truth {moment}")
        every = args.readings_from is not None and frame >= args.readings_from
        if every and snapshot is not None and not verdicts:
            print(f"  {frame} read: {_table(snapshot)}{_misread(snapshot, true_table)}")
        for verdict in verdicts:
            print(f"  {frame} {verdict.kind}: {verdict}")
            if (every or verdict.kind in ("alert", "uncertain")) and snapshot is not None:
                print(f"     read: {_table(snapshot)}{_misread(snapshot, true_table)}")
            for words, cost in getattr(verdict, "candidates", ()):
                print(f"     weighed (+{cost}): {words}")
            if isinstance(verdict.event, RoundScored) and verdict.before is not None and settled < len(truth):
                wrong, paid_right = compare_settled(verdict.before, truth[settled])
                seen, true = verdict.before, truth[settled]
                held = "" if seen.resources == true.resources else f"; held {seen.resources} (true {true.resources})"
                print(f"     against the truth: {'paid right' if paid_right else 'PAID WRONG'}; "
                      f"{'; '.join(wrong) or 'every casino right'}{held}")  # fmt: skip
                settled += 1
    if args.save is not None:
        save_readings(args.save, game, saved_rounds, kept)


def _watched(game: RenderedGame, args: argparse.Namespace) -> Iterator[Step]:
    """The game's frames read by the model (or the renderer's labels) and refereed."""
    options = {} if args.confidence is None else {"confidence": args.confidence}
    initial = new_game(game.ruleset, game.players)
    observer = camera_referee(initial, deal=seeded_deal(initial, game.seed))
    detector = game.truth_reader() if args.reader == "truth" else table_reader(args.models, **options)
    page = PageAnswers(game, passes=args.confirm_passes, chips=args.count_chips, questions=args.answer_questions)
    return watched(game, TablePipeline(detector, observer), [0.0], page)


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
