"""Benchmark of the camera pipeline on rendered games it was never developed on.

For each seed a game of Las Vegas (``--rules``: any of its variants, or Las Vegas Royale's basic game on
the Royale mat) is rendered on the play mat (1280x720, 10 fps, a slight camera angle, hands over the
table, sensor noise) and watched frame by frame. Measured:

- frames per second of the pipeline itself (mat calibration, motion, detector, tracking, referee;
  rendering the frames is not counted), and the detector's share of it;
- latency: from the moment a move's dice come to rest (the hand has left) to the refereed event;
- per-casino dice counts right at every settlement, and rounds settled exactly right (same notes paid,
  and in Royale the same chips held).

``--reader truth`` reads the dice from the renderer's labels (checks everything but the model);
the default reads them with the trained model. Run with ``make bench`` or by hand::

    python bench/bench_pipeline.py --seeds 101 102 103 [--rounds 2] [--reader truth] [--rules las-vegas+biggy]

``--save-readings DIR`` keeps each game's settled readings (``DIR/<seed>.pkl``, also read by
``bench/trace_game.py --replay``); ``--replay DIR`` referees those readings again without rendering or
reading a frame (a game in seconds; no frames/s), to weigh a change to the interpreter on many games.
The readings do not depend on the referee, so a replay is what a full run would give.
"""

from __future__ import annotations

import argparse
import json
import pickle
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from models.observation import TABLES
from referee import (
    BanknotesDealt,
    DicePlaced,
    DiceRolled,
    GameState,
    IllegalEventError,
    Passed,
    ResourcesCounted,
    RoundScored,
    new_game,
)
from referee.lasvegas.camera import canonical_history
from referee.lasvegas.jsonio import payout_to_json, state_table_json
from referee.lasvegas.simulate import seeded_deal
from referee.lasvegas.state import Phase, apply, preview
from referee.royale.events import BlackDiceRolled, TileChoice
from vision.capture import Frame
from vision.pipeline import TablePipeline, camera_referee
from vision.synth.game import RenderedGame

CONFIGURATIONS = TABLES
"""The tables ``--config all`` benchmarks: 2 to 6 players in every base-box colour (white as a player and as
the neutral dice), the neutral variant and Biggys. Name: (rule set, player colours in seat order)."""


def bench_game(seed: int, rounds: int | None, reader_name: str, colours: tuple[str, ...], models: Path | None = None,
               confidence: float | None = None, rules: str = "las-vegas", save: Path | None = None,
               replay: Path | None = None, confirm_passes: bool = False, learn_colours: bool = False,
               count_chips: bool = False, answer_questions: bool = False) -> dict[str, object]:  # fmt: skip
    """One game's figures (see the module); ``save`` keeps its readings there, ``replay`` referees those;
    ``confirm_passes``: the page's questions whether a player passed are answered (:class:`PageAnswers`);
    ``learn_colours``: each player's dice colour is learned first (:func:`show_me_your_dice`);
    ``count_chips``: the players count their chips at each round's start and enter them where the page
    shows other counts (:class:`PageAnswers`)."""
    game = RenderedGame(seed=seed, players=colours, rules=rules, rounds=rounds)
    initial = new_game(game.ruleset, game.players)
    observer = camera_referee(initial, deal=seeded_deal(initial, seed))
    read_seconds = [0.0]
    seconds = [0.0]
    page = PageAnswers(game, passes=confirm_passes, chips=count_chips, questions=answer_questions)
    if replay is not None:
        steps = replayed(observer, load_readings(replay)["steps"], page)
    else:
        if reader_name == "truth":
            reader = game.truth_reader()
        else:
            from vision.detect import MODELS, table_reader

            folder = models or MODELS
            options = {} if confidence is None else {"confidence": confidence}
            detector = table_reader(folder, **options)

            def reader(image):
                started = time.perf_counter()
                out = detector(image)
                read_seconds[0] += time.perf_counter() - started
                return out

        pipeline = TablePipeline(reader, observer)
        if learn_colours:
            show_me_your_dice(game, reader, pipeline)
        steps = watched(game, pipeline, seconds, page)
    kept: list[tuple[int, str | None, Any, Any]] = []
    latencies: list[float] = []
    settled: list[GameState | None] = []
    complaints = 0
    for frame_index, begins, true_table, snapshot, verdicts in steps:
        kept.append((frame_index, begins, true_table, snapshot))
        for verdict in verdicts:
            if verdict.kind in ("alert", "uncertain"):
                complaints += 1
            if isinstance(verdict.event, DiceRolled | DicePlaced):
                span = game.span_of(frame_index)
                latencies.append(snapshot.timestamp_s - (span.first + span.hand) / game.fps)
            elif isinstance(verdict.event, RoundScored):
                settled.append(verdict.before)
    if save is not None and replay is None:
        save_readings(save / f"{seed}.pkl", game, rounds, kept)
    truth = settled_truth(game)
    casinos_right = casinos = rounds_right = 0
    for seen, true in zip(settled, truth, strict=False):
        assert seen is not None
        wrong, paid_right = compare_settled(seen, true)
        casinos += len(seen.casinos)
        casinos_right += len(seen.casinos) - len(wrong)
        rounds_right += paid_right
    casinos += 6 * max(0, len(truth) - len(settled))  # rounds never settled count as all wrong
    return {
        "seed": seed,
        "frames": game.frame_count,
        "fps": round(game.frame_count / seconds[0], 1) if seconds[0] else None,
        "detector_ms_per_frame": round(1000 * read_seconds[0] / game.frame_count, 1) if seconds[0] else None,
        "latency_s_median": round(statistics.median(latencies), 2) if latencies else None,
        "latency_s_max": round(max(latencies), 2) if latencies else None,
        "rounds": len(truth),
        "rounds_settled_right": rounds_right,
        "casino_counts_right": f"{casinos_right}/{casinos}",
        "alerts_and_uncertain": complaints,
        "passes_confirmed": page.confirmed,
        "questions_answered": page.answered,
        "chips_counted": page.counted,
        "_casinos": (casinos_right, casinos),
        "_latencies": latencies,
    }


Step = tuple[int, str | None, Any, Any, list[Any]]
"""A frame's index, the true moment beginning there (in words) or None, the true table, the settled
reading given to the referee (or None) and the referee's verdicts on it."""


def show_me_your_dice(game: RenderedGame, reader: Any, pipeline: TablePipeline) -> None:
    """The setup step "show me your dice": each player's colour learned from his dice in the dice arena.

    The frame at rest after each player's first roll shows his dice there, as the Calibration page asks; a
    pipeline of its own reads it, so the one that referees starts fresh.
    """
    learner = TablePipeline(reader, camera_referee(new_game(game.ruleset, game.players)), colours=pipeline.colours)
    for player in game.players:
        span = next(s for s in game.spans if s.moment.what == "rolled" and s.moment.event.player is player)
        index = span.first + span.hand + span.still - 1
        report = learner.process(Frame(index, index / game.fps, game.frame(index)))
        report = learner.process(Frame(index, index / game.fps, game.frame(index)))  # at rest: read
        pipeline.learn_colour(player.value, report)


UNREAD_STEPS = 40
"""Frames (4 s at 10 fps) a roll the camera reads (a tile's black dice) waits before the players enter it."""


class PageAnswers:
    """What the players of a rendered game enter on the page when the referee asks.

    Royale's tiles: the game's own answer while the referee's history is the game's; once it has parted,
    the game's answer to the same question (its k-th roll of the black dice, a player's k-th decision), and
    where the referee's rules refuse that, an answer they allow (the first choice, or the black dice showing
    3 and 4): the round is wrong anyway, the game goes on. A roll of the black dice the camera reads is entered
    only when it has not been read for :data:`UNREAD_STEPS` frames, or the game has gone on past it (a decision
    after it is entered on the page, which cannot take one before it knows the roll). With ``passes``, also
    the question whether a player passed (Royale: a pass is confirmed on the page), answered as it happened;
    with ``questions``, every question the referee asks ("is it ..., or ...?") whose answer the game holds (a
    player's roll, or what he did after it), as the players at the table would answer it. With ``chips``, the
    players count their chips as each round starts (the referee has the round's deal and nobody has rolled yet) and
    enter the counts where the page shows others (Royale: chips are entered on the page); a pass missed in
    one round then costs that round, not every round after it.
    """

    def __init__(self, game: RenderedGame, passes: bool = False, chips: bool = False, questions: bool = False,
                 ) -> None:  # fmt: skip
        self.truth = canonical_history(game.moments[-1].state.history)
        self.passes = passes
        self.questions = questions
        self.confirmed = 0
        """Pass questions answered."""
        self.answered = 0
        """Other questions answered (with ``questions``)."""
        self.chips: dict[int, tuple[int, ...]] = {}
        """The chips each player truly holds as each round starts (when the players count them)."""
        rules = game.moments[-1].state.ruleset
        counts = chips and any(name == "chips" for name, _ in rules.hooks.resources)  # Las Vegas has none to count
        for moment in game.moments if counts else ():
            if moment.what == "rolled":  # a roll changes no chips: the round's first shows them at its start
                self.chips.setdefault(moment.state.round, moment.state.resource("chips"))
        self.counted = 0
        """Counts of chips entered (where the page showed other counts)."""
        self._waited = (-1, 0, 0)
        """The history's length at a roll the camera reads, the frames it has waited there, and where in
        ``_begun`` the moments begun while it waits start."""
        self._begun: list[str] = []
        """The game's moments begun so far, in words (``what event``)."""

    def __call__(self, observer: Any, said: list[Any] = (), begins: str | None = None,  # type: ignore[assignment]
                 ) -> list[Any]:  # fmt: skip
        """Answers every question the referee now waits for (and ``said``'s pass questions); the verdicts.

        ``begins``: the game's moment beginning at this frame, if one does (see :meth:`_moved_on`)."""
        if begins is not None:
            self._begun.append(begins)
        verdicts: list[Any] = self._count(observer)
        asked = [v for v in said if v.kind == "uncertain" and v.options]
        if self.passes and any(isinstance(o, Passed) for v in asked for o in v.options):
            verdicts += self._confirm(observer)
        elif self.questions and asked:
            verdicts += self._confirm(observer, passes=False)
        while observer.game.waits_for(observer.state):
            state = observer.state
            if state.pending.rolled is not None and self._unread(state, begins) and not self._moved_on():
                break  # the camera reads this roll in the tray: the players enter it only when it does not
            history = moves(state.history)
            done = len(history)
            if done < len(self.truth) and history == self.truth[:done]:
                event = self.truth[done]
            else:  # the table answers what happened at the table: the game's answer to the same question
                event = self._same_question(history, state)
            try:
                verdicts += observer.answer(event)
            except IllegalEventError:  # the referee's history allows no such answer: one its rules allow
                verdicts += observer.answer(_allowed(state))
        return verdicts

    def _unread(self, state: Any, begins: str | None) -> bool:
        """True while a roll the camera reads (a tile's black dice) has waited less than :data:`UNREAD_STEPS` calls
        (frames): the players enter it on the page only once the camera has had time to read it."""
        key, frames, since = self._waited
        if key == len(state.history):
            self._waited = (key, frames + 1, since)
        else:  # the moment begun at this frame, if any, begun while it waits
            self._waited = (len(state.history), 1, len(self._begun) - (begins is not None))
        return self._waited[1] <= UNREAD_STEPS

    def _moved_on(self) -> bool:
        """True once the game has gone on past the roll of the black dice the referee waits for: a roll of the
        black dice shown since the referee began to wait, and a moment begun after it. The players enter on
        the page what it asked for before they go on: a decision after the roll (Fifty Fifty's bet) is entered
        on the page, which cannot take it before it knows the roll (traced: Royale main game 425, round 3, a
        roll never read and the next taken for it, the bet entered after the wrong sum). Only the moments
        begun while it waits: the referee's rolls need not be the game's (traced: main 3p 430, Fifty Fifty's
        second roll never booked, and My Choice's roll taken for it as soon as asked)."""
        shown = [i for i in range(self._waited[2], len(self._begun)) if self._begun[i].startswith("rolled-extra ")]
        return bool(shown) and shown[0] < len(self._begun) - 1

    def _same_question(self, history: list[Any], state: Any) -> Any:
        """The game's answer to the question the referee asks now, found by kind and count in the same round
        where the referee's history has parted from the game's: the round's k-th roll of the black dice is
        answered with the game's k-th of that round, a player's k-th decision with his k-th (a missed pass does
        not change what the table rolled or decided). Counted over the whole game, one decision booked wrong
        in round 1 shifted every answer after it: Fifty Fifty's bets of round 3 answered with the decisions
        before them ("stop" for "higher"), and the chips went wrong (main game 446, five players)."""

        def kind(event: Any) -> tuple[type, Any]:
            return type(event), getattr(event, "player", None)

        chance = BlackDiceRolled in state.pending.accepts
        wanted = (BlackDiceRolled, None) if chance else (TileChoice, state.pending.actor)
        mine = _rounds(history)
        played = len(mine) - 1  # the rounds settled
        asked = sum(1 for event in mine[-1] if kind(event) == wanted)
        rounds = _rounds(self.truth)
        answers = [event for event in rounds[played] if kind(event) == wanted] if played < len(rounds) else []
        return answers[asked] if asked < len(answers) else _allowed(state)

    def _count(self, observer: Any) -> list[Any]:
        """The chips counted at a round's start, entered where the referee holds other counts."""
        state = observer.state
        if state.phase is not Phase.ROLL or state.pending is not None:
            return []
        truth = self.chips.pop(state.round, None)
        # Counted as the round starts: a roll booked already (in the reading that dealt) may have been passed
        # since, and the count at the start would take back the chip the pass paid.
        if truth is None or state.resource("chips") == truth or _rolled_this_round(state):
            return []
        self.counted += 1
        return [observer.apply(ResourcesCounted("chips", truth))]

    def _confirm(self, observer: Any, passes: bool = True) -> list[Any]:
        """The answer to a pass question (or with ``passes`` False, another question): the option that is what
        happened at the table (see :meth:`_happened`), where one is."""
        asked = observer.asked
        if asked is None:
            return []
        branch, options = asked
        for option in options:
            if option is not None and canonical_history((option,)) == [self._happened(branch, option)]:
                try:
                    answered: list[Any] = observer.choose(option)
                except ValueError:
                    return []
                if passes:
                    self.confirmed += 1
                else:
                    self.answered += 1
                return answered
        return []

    def _happened(self, branch: Any, option: Any) -> Any:
        """What the player of ``option`` (a pass or a placement) did in the game after the roll before it, or
        (a roll) his roll there, found by his rolls (a camera may have lost other moves); None where the game
        has no such."""
        player = getattr(option, "player", None)
        rolls = sum(1 for e in branch.history if isinstance(e, DiceRolled) and e.player is player)
        his = [i for i, e in enumerate(self.truth) if isinstance(e, DiceRolled) and e.player is player]
        if isinstance(option, DiceRolled):
            return self.truth[his[rolls]] if rolls < len(his) else None
        if not 0 < rolls <= len(his) or his[rolls - 1] + 1 >= len(self.truth):
            return None
        return self.truth[his[rolls - 1] + 1]


def _allowed(state: Any) -> Any:
    """An answer the rules allow to the step ``state`` waits for: the black dice showing 3 and 4, or the first
    choice (where the referee's history has gone wrong and the game's own answer does not fit it)."""
    pending = state.pending
    return BlackDiceRolled((3, 4)) if BlackDiceRolled in pending.accepts else pending.handler.choices(state)[0]


def _rolled_this_round(state: GameState) -> bool:
    """True when a roll has been booked since the round's banknotes were dealt."""
    for event in reversed(state.history):
        if isinstance(event, DiceRolled):
            return True
        if isinstance(event, BanknotesDealt):
            return False
    return False


def _rounds(history: list[Any]) -> list[list[Any]]:
    """A history's events round by round (each round's settlement closes it; the last may be under way)."""
    rounds: list[list[Any]] = [[]]
    for event in history:
        rounds[-1].append(event)
        if isinstance(event, RoundScored):
            rounds.append([])
    return rounds


def moves(history: Any) -> list[Any]:
    """A history as the game's truth holds it: rolls' faces sorted, the counts the table entered left out."""
    return [event for event in canonical_history(history) if not isinstance(event, ResourcesCounted)]


def watched(game: RenderedGame, pipeline: TablePipeline, seconds: list[float], page: PageAnswers) -> Iterator[Step]:
    """A rendered game's frames through ``pipeline``, frame by frame (``seconds[0]`` sums the pipeline's time)."""
    for frame in game.frames():
        started = time.perf_counter()
        report = pipeline.process(frame)
        seconds[0] += time.perf_counter() - started
        span = game.span_of(frame.index)
        begins = f"{span.moment.what} {span.moment.event or ''}" if frame.index == span.first else None
        said = report.verdicts
        yield frame.index, begins, span.moment.snapshot, report.snapshot, said + page(pipeline.observer, said, begins)


def replayed(observer: Any, saved: list[tuple[int, str | None, Any, Any]], page: PageAnswers) -> Iterator[Step]:
    """Readings kept by :func:`save_readings` (``load_readings(...)["steps"]``) refereed again by ``observer``."""
    for frame, begins, true_table, snapshot in saved:
        said = [] if snapshot is None else observer.observe(snapshot)
        yield frame, begins, true_table, snapshot, said + page(observer, said, begins)


def save_readings(path: Path, game: RenderedGame, rounds: int | None, steps: list[tuple[int, str | None, Any, Any]],
                  ) -> None:  # fmt: skip
    """Keeps a watched game's readings: per frame, its index, the true moment beginning there in words (or
    None), the true table and the settled reading the referee was given (or None)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {"seed": game.seed, "players": [p.value for p in game.players], "rules": game.ruleset.name,
              "rounds": rounds, "steps": steps}  # fmt: skip
    path.write_bytes(pickle.dumps(record))


def load_readings(path: Path) -> dict[str, Any]:
    """A game's readings kept by :func:`save_readings` (our own files: pickle)."""
    return pickle.loads(path.read_bytes())


def settled_truth(game: RenderedGame) -> list[GameState]:
    """The true state at each settlement of a rendered game: the table being paid, after every step before it.

    Not the moment before it: a step that moves no die (a tile's decision, e.g. Fifty Fifty's "stop" after
    the round's last die, taking a chip) has no moment of its own (traced: Royale main game 393, blue's chip
    from that "stop" was missing from the truth, and the referee, which had booked it, was counted wrong).
    """
    states = []
    for i, moment in enumerate(game.moments):
        if moment.what == "settled":
            state = game.moments[i - 1].state
            for event in moment.state.history[len(state.history) : -1]:  # the steps without a moment
                state = apply(state, event)
            states.append(state)
    return states


def compare_settled(seen: GameState, true: GameState) -> tuple[list[str], bool]:
    """The casinos whose dice the referee counted wrong at a settlement ("casino N: dice (true ...)"), and
    whether the round is paid as the true one (with the same chips held: Royale's passes booked right)."""
    wrong = []
    for number, (mine, theirs) in enumerate(
        zip(state_table_json(seen)["casinos"], state_table_json(true)["casinos"], strict=True), start=1
    ):
        if (mine["dice"], mine["biggy"]) != (theirs["dice"], theirs["biggy"]):
            wrong.append(f"casino {number}: {mine['dice']} (true {theirs['dice']})")
    same = payout_to_json(preview(seen)) == payout_to_json(preview(true)) and seen.resources == true.resources
    return wrong, same


def summary(name: str, rules: str, results: list[dict[str, object]]) -> dict[str, object]:
    """One configuration's figures over its games."""
    latencies = [x for r in results for x in r["_latencies"]]  # type: ignore[attr-defined]
    rounds = sum(int(r["rounds"]) for r in results)  # type: ignore[call-overload]
    right = sum(int(r["rounds_settled_right"]) for r in results)  # type: ignore[call-overload]
    casinos = [sum(r["_casinos"][i] for r in results) for i in (0, 1)]  # type: ignore[index]
    fps = [float(r["fps"]) for r in results if r["fps"] is not None]  # type: ignore[arg-type]  # none in a replay
    return {
        "config": name,
        "rules": rules,
        "seeds": [r["seed"] for r in results],
        "rounds_settled_right": f"{right}/{rounds}",
        "casino_counts_right": f"{casinos[0]}/{casinos[1]}",
        "alerts_and_uncertain": sum(int(r["alerts_and_uncertain"]) for r in results),  # type: ignore[call-overload]
        "passes_confirmed": sum(int(r["passes_confirmed"]) for r in results),  # type: ignore[call-overload]
        "questions_answered": sum(int(r["questions_answered"]) for r in results),  # type: ignore[call-overload]
        "chips_counted": sum(int(r["chips_counted"]) for r in results),  # type: ignore[call-overload]
        "latency_s_median": round(statistics.median(latencies), 2) if latencies else None,
        "latency_s_max": round(max(latencies), 2) if latencies else None,
        "fps_median": round(statistics.median(fps), 1) if fps else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[101, 102, 103])
    parser.add_argument("--rounds", type=int, default=None, help="film only the first N rounds of each game")
    parser.add_argument("--players", type=int, default=3, help="the first N of red, blue, green, black, yellow")
    parser.add_argument("--colours", help="the players' colours instead, in seat order: white,violet,orange")
    parser.add_argument("--learn-colours", action="store_true", help="each player shows his dice first (the setup's "
                        "\"show me your dice\": the colours learned under this camera)")  # fmt: skip
    parser.add_argument("--config", nargs="+", choices=(*CONFIGURATIONS, "all"),
                        help="named tables instead of --players/--rules (see CONFIGURATIONS); each game's seed is "
                        "its configuration's offset (0, 1000, 2000, ...) plus each --seeds value")  # fmt: skip
    parser.add_argument("--reader", choices=("model", "truth"), default="model")
    parser.add_argument("--models", type=Path, help="another folder with dice_detector/ and die_reader/ (a candidate)")
    parser.add_argument("--confidence", type=float, help="another detector confidence threshold (a comparison)")
    parser.add_argument("--rules", default="las-vegas", help="the rules played, e.g. las-vegas+biggy (Biggys told "
                        "by their size on the table)")  # fmt: skip
    parser.add_argument("--save-readings", type=Path, metavar="DIR", help="keep each game's settled readings there")
    parser.add_argument("--replay", type=Path, metavar="DIR", help="referee the readings kept there (no frames read)")
    parser.add_argument("--confirm-passes", action="store_true", help="the players answer the page's questions "
                        "whether someone passed, as it happened (Royale: a pass is confirmed on the page)")  # fmt: skip
    parser.add_argument("--count-chips", action="store_true", help="the players count their chips as each round "
                        "starts and enter them where the page shows others (chips entered on the page)")  # fmt: skip
    parser.add_argument("--answer-questions", action="store_true", help="the players answer every question the page "
                        "asks (\"is it ..., or ...?\"), as it happened")  # fmt: skip
    args = parser.parse_args()
    if args.config:
        names = list(CONFIGURATIONS) if "all" in args.config else args.config
        configs = [(n, *CONFIGURATIONS[n], 1000 * list(CONFIGURATIONS).index(n)) for n in names]
    else:
        colours = tuple(args.colours.split(",")) if args.colours else ("red", "blue", "green", "black", "yellow")[
            : args.players]  # fmt: skip
        configs = [(f"{len(colours)}p", args.rules, colours, 0)]
    summaries = []
    for name, rules, colours, offset in configs:
        results = [bench_game(offset + seed, args.rounds, args.reader, colours, args.models, args.confidence, rules,
                              args.save_readings, args.replay and args.replay / f"{offset + seed}.pkl",
                              args.confirm_passes, args.learn_colours, args.count_chips, args.answer_questions)
                   for seed in args.seeds]  # fmt: skip
        for result in results:
            print(json.dumps({"config": name, **{k: v for k, v in result.items() if not k.startswith("_")}}),
                  flush=True)  # fmt: skip
        summaries.append(summary(name, rules, results))
        print(json.dumps({"reader": "replay" if args.replay else args.reader, **summaries[-1]}), flush=True)
    if len(summaries) > 1:
        print("| table | rules | rounds right | casinos right | alerts | latency median / max (s) | frames/s |")
        print("|---|---|---|---|---|---|---|")
        for s in summaries:
            print(
                f"| {s['config']} | {s['rules']} | {s['rounds_settled_right']} | {s['casino_counts_right']} | "
                f"{s['alerts_and_uncertain']} | {s['latency_s_median']} / {s['latency_s_max']} | {s['fps_median']} |"
            )


if __name__ == "__main__":
    main()
