"""Just 4 Fun refereed end to end from rendered films of whole games: every placement, and the winner.

    python bench/bench_board.py [--players 2 3 4] [--seeds 600 603] [--save FILE]

Each seed is a random game (the colours rotating over red, blue, green, black, white and yellow) filmed by
:mod:`vision.synth.board`: each placement a hand reaching over the field, then the board still (a field secured:
first with the others' stones still on it, taken off a moment later). The frames
go through :class:`vision.board_referee.BoardReferee` (markers, stones read, settled readings judged by the
interpreter). The players do what the page asks of them: after each placement the player enters the cards
drawn, and the cards played where the camera said others or said nothing (a stone on his own stack is not
seen). A placement is counted as

- ``seen``: the camera said it, on the right field (``cards_entered``: its cards were then entered);
- ``entered``: the camera could not see it (on the player's own stack: nothing new on the board) and the
  player entered it;
- ``missed``: it changed the board, and the camera said nothing by the time the player entered his draw;
- ``wrong``: the camera said another placement (the player then undoes it and enters his own).

``right_games``: every placement seen or entered where it could not be seen, none missed or wrong, and the
winner right. Seeds 1-4 were looked at while building it: report others.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from typing import Any

from models.dice_detector.evaluate import cpu_description
from referee.errors import IllegalEventError
from referee.just4fun import CardsDrawn, HandDiscarded, Phase, State, StonePlaced, outcome
from referee.just4fun.camera import JustForFunCamera
from vision.board_referee import BoardReferee
from vision.capture import Frame
from vision.synth.board import RenderedBoard

COLOURS = ("red", "blue", "green", "black", "white", "yellow")


def players_for(count: int, seed: int) -> tuple[str, ...]:
    """``count`` colours, rotating over :data:`COLOURS` with the seed."""
    return tuple(COLOURS[(seed + k) % len(COLOURS)] for k in range(count))


def referee_game(game: RenderedBoard, still: int = 4, reach: int = 3, fps: float = 10.0, hover: int = 0,
                 late: bool = False, real: bool = False) -> dict[str, Any]:  # fmt: skip
    """Films ``game`` through a :class:`BoardReferee`, the players answering the page; the counts (module doc).

    ``hover``: frames the hand rests over the field, still, once it has put the stone down. ``late``: each draw is
    entered only after the next player has put his stone down (a player slow at the page). ``real``: the game's
    board is one printed otherwise, without markers (:func:`vision.synth.board.real_board`), calibrated by its
    grid's corners, the first frame taken for the board empty.
    """
    counts: Counter[str] = Counter()
    said: list[str] = []
    referee = BoardReferee(game.states[0], corners=game.grid_corners() if real else None)
    camera = JustForFunCamera()
    k = 0

    def film(index: int, hands: list[tuple[int, int, float] | None], lingering: bool = False) -> None:
        nonlocal k
        for hand in hands:
            frame = Frame(k, k / fps, game.picture(index, game.seed * 100_000 + k, hand, lingering))
            for verdict in referee.process(frame):
                if verdict.kind in ("alert", "uncertain"):
                    counts["asked" if verdict.reason.startswith("enter on the page") else verdict.kind] += 1
                    said.append(f"frame {k}: {verdict.kind}: {verdict.reason}")
                counts["revised"] += verdict.replaces is not None
            k += 1

    def draw(event: CardsDrawn, before: State, after: State) -> None:
        if referee.state != before:
            counts["out_of_step"] += 1
            referee.interpreter.reset(before)
        try:
            referee.enter(event)
        except IllegalEventError:
            counts["refused"] += 1
            referee.interpreter.reset(after)

    pending: tuple[CardsDrawn, State, State] | None = None
    film(0, [None] * still)
    for index, event in enumerate(game.events):
        if event is None:
            continue
        before, after = game.states[index - 1], game.states[index]
        if pending is not None and not isinstance(event, StonePlaced):  # no stone to wait for: entered now
            draw(*pending)
            pending = None
        if isinstance(event, StonePlaced):
            reaching = [(event.field, before.turn, (r + 1) / reach) for r in range(reach)]
            film(index, reaching + [(event.field, before.turn, 1.0)] * hover)
            if game.secures(index):  # the others' stones taken off a moment after the stack is moved
                film(index, [None] * still, lingering=True)
            film(index, [None] * still)
            if pending is not None:  # the draw before, entered only now: the board is judged again
                draw(*pending)
                pending = None
                film(index, [None])
            counts["placements"] += 1
            visible = camera.expected(after) != camera.expected(before)
            now = referee.state
            last = now.history[-1] if now.phase is not before.phase and now.history else None
            if now == after:
                counts["seen"] += 1
            elif isinstance(last, StonePlaced) and last.field == event.field and last.player == event.player:
                counts["seen"] += 1
                counts["cards_entered"] += 1
                referee.enter(event)
            elif now == before:
                counts["entered" if not visible else "missed"] += 1
                if visible:
                    said.append(f"frame {k}: missed: {camera.describe(event, before)}")
                referee.enter(event)
            else:
                counts["wrong"] += 1
                said.append(f"frame {k}: wrong: {camera.describe(event, before)}; said {now.history[-1:]}")
                referee.interpreter.reset(after)
        elif isinstance(event, CardsDrawn):
            if late and before.phase is Phase.DRAW:
                pending = (event, before, after)
            else:
                draw(event, before, after)
        elif isinstance(event, HandDiscarded):
            counts["hands_thrown"] += 1
            if referee.state != after:
                counts["out_of_step"] += 1
                referee.interpreter.reset(after)
    film(len(game.states) - 1, [None] * still)
    truth = outcome(game.states[-1])
    seen = outcome(referee.state)
    counts["winner_right"] += seen.winner == truth.winner and referee.state == game.states[-1]
    counts["frames"] = k
    right = not (counts["missed"] or counts["wrong"] or counts["out_of_step"]) and counts["winner_right"]
    return dict(counts) | {"right": bool(right), "said": said}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--seeds", type=int, nargs=2, default=[600, 603], metavar=("FIRST", "END"))
    parser.add_argument("--verbose", action="store_true", help="print every alert and question")
    parser.add_argument("--hover", type=int, default=0, help="frames a hand rests over the field it put a stone on")
    parser.add_argument("--late", action="store_true", help="each draw entered after the next stone is put down")
    parser.add_argument("--real", action="store_true", help="a board printed otherwise, calibrated by its corners")
    args = parser.parse_args()
    for count in args.players:
        totals: Counter[str] = Counter()
        games = right = 0
        started = time.perf_counter()
        for seed in range(*args.seeds):
            game = RenderedBoard(seed=seed, players=players_for(count, seed), real=args.real)
            result = referee_game(game, hover=args.hover, late=args.late, real=args.real)
            games += 1
            right += result.pop("right")
            said = result.pop("said")
            if args.verbose:
                print("\n".join(said))
            totals.update(result)
            print(json.dumps({"players": count, "seed": seed, **result}), flush=True)
        seconds = time.perf_counter() - started
        print(json.dumps({"players": count, "seeds": args.seeds, "hover": args.hover, "late": args.late,
                          "real": args.real, "games": games, "right_games": right,
                          **dict(totals), "frames_per_s": round(totals["frames"] / seconds, 1),
                          "processor": cpu_description()}), flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
