"""The one background producer that owns the camera, and what it publishes to the page.

:class:`LiveReferee` reads frames from the source, runs the camera pipeline, stores every verdict in
the database *before* publishing it, keeps the latest annotated frame as JPEG for the MJPEG stream,
and pushes state changes to every server-sent-events subscriber through a :class:`Broker`. Requests
never run inference: they read what the producer published.

Tests drive it frame by frame with :meth:`LiveReferee.step`; the server runs :meth:`start` (a thread).
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import cv2
import numpy as np

from referee import RoundScored, game_of
from referee.errors import RefereeError
from referee.game import DiceGame
from referee.interpret import Verdict
from referee.lasvegas.simulate import seeded_deal
from vision.annotate import annotate
from vision.board_referee import BOARD_GAMES, BoardReferee
from vision.capture import CaptureError, Frame, FrameSource
from vision.detections import Detections
from vision.pipeline import Report, referee_pipeline
from web.store import GameInfo, Store

__all__ = ["Broker", "LiveReferee"]

log = logging.getLogger(__name__)


class Broker:
    """Fan-out of messages to subscribers (one bounded queue each; a slow one loses its oldest)."""

    def __init__(self, size: int = 100) -> None:
        self._lock = threading.Lock()
        self._queues: list[queue.Queue[dict[str, Any]]] = []
        self.size = size

    def subscribe(self) -> queue.Queue[dict[str, Any]]:
        """A new subscriber's queue."""
        q: queue.Queue[dict[str, Any]] = queue.Queue(self.size)
        with self._lock:
            self._queues.append(q)
        return q

    def unsubscribe(self, q: queue.Queue[dict[str, Any]]) -> None:
        """Removes a subscriber."""
        with self._lock:
            if q in self._queues:
                self._queues.remove(q)

    def publish(self, message: dict[str, Any]) -> None:
        """Sends a message to every subscriber."""
        with self._lock:
            queues = list(self._queues)
        for q in queues:
            while True:
                try:
                    q.put_nowait(message)
                    break
                except queue.Full:
                    with contextlib.suppress(queue.Empty):
                        q.get_nowait()

    @property
    def subscribers(self) -> int:
        """How many are listening."""
        with self._lock:
            return len(self._queues)


Reader = Callable[[np.ndarray], Any]


class LiveReferee:
    """Referees the store's current game from a frame source; see the module's description.

    Args:
        store: the database.
        game_id: the game to referee (resumed from its records).
        source: frames (camera, video, the built-in game).
        reader: the dice reader (model, or the built-in game's truth).
        calibration: a fixed calibration, or None for the mat's markers.
        realtime: pace recorded sources at their frame rate (a camera paces itself).
        fps: the recorded source's frame rate, for pacing.
        on_frame: called with each frame's index before it is read (the built-in truth reader's hook).
    """

    def __init__(self, store: Store, game_id: int, source: FrameSource, reader: Reader, *,
                 calibration: Any = None, realtime: bool = True, fps: float = 10.0,
                 on_frame: Callable[[int], None] | None = None) -> None:  # fmt: skip
        self.store = store
        self.game_id = game_id
        self.source = source
        self.broker = Broker()
        self.realtime = realtime
        self.fps = fps
        self.on_frame = on_frame
        self._lock = threading.Lock()
        """Taken to decide and store verdicts, and by corrections."""
        self._reading = threading.Lock()
        """Taken while the model reads a frame, and to learn colours from a reading."""
        self._jpeg: bytes | None = None
        self._jpeg_index = -1
        self._new_frame = threading.Condition()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._frames: Iterator[Frame] = iter(())
        self.status = "starting"
        self.notice = ""
        self.frames_read = 0
        self.errors = 0
        """Frames that could not be refereed (reported on the page; the referee went on)."""
        self.processing_ms = 0.0
        """Time the pipeline takes per frame (moving average): what the machine could keep up with."""
        self.interval_s = 0.0
        """Time from one frame to the next (moving average; its inverse is the frames refereed per second,
        the source's rate while the producer keeps up: an average of rates would overstate it)."""
        self._last_step_s: float | None = None
        self.alerts: list[dict[str, Any]] = []
        self._since_alert = 0
        """Verdicts other than alerts since the last alert (the same alert again, with none between, is not
        stored or said again)."""
        info = store.game(game_id)
        if info is None:
            raise KeyError(f"no game {game_id}")
        self.info = info
        self.pipeline: Any = camera_pipeline(store, info, reader, calibration)
        self.observer = self.pipeline.observer
        self.last_report: Report | None = None
        self.last_read: Report | None = None
        """The last frame in which dice were read (colour learning looks at it)."""

    # --- the producer ------------------------------------------------------------------------------

    def start(self) -> None:
        """Runs the producer in a daemon thread."""
        self._thread = threading.Thread(target=self._run, name="live-referee", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stops the producer thread."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        started = time.monotonic()
        try:
            self._frames = iter(self.source.frames())
            self.set_status("running")
            while not self._stop.is_set():
                try:
                    if not self.step():
                        self.set_status("ended")
                        break
                except CaptureError:
                    raise
                except Exception as error:  # a bad frame, reading or calibration: say so and go on
                    log.exception("frame %d could not be refereed", self.frames_read)
                    self.errors += 1
                    self.frames_read += 1
                    self.set_status(f"running; frame {self.frames_read} could not be refereed "
                                    f"({type(error).__name__}: {str(error)[:120]}); going on")  # fmt: skip
                if self.realtime:
                    due = started + self.frames_read / self.fps
                    time.sleep(max(0.0, due - time.monotonic()))
        except CaptureError as error:
            self.set_status(f"camera error: {error}")
            log.error("%s", error)
        except Exception:  # the source itself failed: report, not vanish
            log.exception("the live referee stopped")
            self.set_status("stopped by an internal error (see the server log)")

    def set_status(self, status: str) -> None:
        """What the page shows of the referee and its camera (published at once)."""
        if status != self.status:
            self.status = status
            self.broker.publish({"type": "status", "status": status})

    def begin(self) -> None:
        """Opens the source for :meth:`step` without a thread (tests, benchmarks)."""
        self._frames = iter(self.source.frames())
        self.status = "running"

    def step(self) -> bool:
        """Processes the next frame; False when the source has ended.

        The model reads the frame under the reading lock only; the verdicts are decided and stored under
        the lock that corrections take, so a correction never waits for the model.
        """
        frame = next(self._frames, None)
        if frame is None:
            return False
        if self.on_frame is not None:
            self.on_frame(frame.index)
        if self.status.startswith(("running;", "camera ")):
            self.set_status("running")  # frames again, and refereed
        started = time.perf_counter()
        with self._reading:
            report = self.pipeline.see(frame)
        with self._lock:
            self.pipeline.judge(report)
            self.last_report = report
            if len(report.detections):
                self.last_read = report
            for verdict in report.verdicts:
                self._record(verdict)
        spent_ms = 1000 * (time.perf_counter() - started)
        self.processing_ms = 0.9 * self.processing_ms + 0.1 * spent_ms if self.frames_read else spent_ms
        if self._last_step_s is not None:
            interval = max(started - self._last_step_s, 1e-3)
            self.interval_s = 0.9 * self.interval_s + 0.1 * interval if self.interval_s else interval
        self._last_step_s = started
        self.frames_read += 1
        self._publish_frame(frame, report)
        if report.verdicts:
            self.broker.publish({"type": "state", "state": self.state_json()})
        entries = getattr(self.source, "entries", None)  # the built-in game's players enter what the page asks
        for event in entries(frame.index) if entries is not None else ():
            try:
                self.apply(event, "player")
            except RefereeError as error:
                with self._lock:
                    self._record(Verdict("alert", frame.index, frame.timestamp_s,
                                         reason=f"the players' entry was refused: {error}"))  # fmt: skip
        return True

    def _record(self, verdict: Verdict) -> None:
        """Stores a verdict (committed), then publishes it."""
        who = "camera"
        if verdict.kind != "alert" and verdict.kind != "uncertain":
            self._since_alert += 1
        if verdict.kind == "event" and verdict.event is not None and verdict.before is not None:
            record = self._store_event(verdict, who)
            message = {"type": "event", "seq": record.seq, "text": str(verdict)}
            if isinstance(verdict.event, RoundScored):
                game = game_of(verdict.before)
                message["payout"] = game.payout_json(game.preview(verdict.before))
                message["round"] = verdict.before.round
        elif verdict.kind == "cleared":
            message = {"type": "event", "text": str(verdict)}
        else:
            if self.alerts and self.alerts[-1]["text"] == verdict.reason and self._since_alert == 0:
                return  # the same table, said again: asked once, not every second
            self.store.append(self.game_id, verdict.kind, who, {"reason": verdict.reason})
            message = {"type": verdict.kind, "text": verdict.reason}
            self.alerts = [*self.alerts[-19:], message]
            self._since_alert = 0
        message["time_s"] = round(verdict.timestamp_s, 2)
        self.broker.publish(message)

    def _store_event(self, verdict: Verdict, who: str) -> Any:
        """Stores a verdict's event (committed); one that revises what was said undoes what it replaces first.

        The event that ends the game marks it over, whether the camera said it or a person entered it.
        """
        if verdict.replaces is not None:  # a history read again, or other cards entered: cancel, then record anew
            for replaced, _ in reversed(self.store.events(self.game_id)[-verdict.undone :]):
                self.store.append(self.game_id, "undo", who, {"seq": replaced.seq})
        record = self.store.append_event(self.game_id, verdict.event, who)
        if verdict.state is not None and game_of(verdict.state).outcome(verdict.state) is not None:
            self.store.set_status(self.game_id, "over")
        return record

    def _publish_frame(self, frame: Frame, report: Any) -> None:
        image = getattr(self.pipeline, "annotate", annotate_report)(frame.image, report)
        ok, buffer = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 75])
        if not ok:
            return
        with self._new_frame:
            self._jpeg = buffer.tobytes()
            self._jpeg_index = frame.index
            self._new_frame.notify_all()

    def wait_frame(self, after: int, timeout: float = 2.0) -> tuple[int, bytes | None]:
        """The latest JPEG once it is newer than frame ``after`` (or the current one after ``timeout``)."""
        with self._new_frame:
            self._new_frame.wait_for(lambda: self._jpeg_index > after, timeout=timeout)
            return self._jpeg_index, self._jpeg

    # --- corrections (by a person, recorded with who and when) -------------------------------------

    def apply(self, event: Any, who: str) -> None:
        """Applies an event entered by a person (a deal to match the table, a fixed reading, cards played).

        What the rules then do by themselves (a settlement, a hand thrown) is stored as the camera's; an entry
        that mends what the camera said (other cards for the same stone) takes that event back first.

        Raises:
            RefereeError: when the rules refuse it (nothing is stored).
        """
        with self._lock:
            verdicts = self.pipeline.enter(event)
            for k, verdict in enumerate(verdicts):
                self._store_event(verdict, who if k == 0 else "camera")
        for k, verdict in enumerate(verdicts):
            self.broker.publish({"type": "event", "text": f"{who if k == 0 else 'camera'}: {verdict}"})
        if not verdicts:
            self.broker.publish({"type": "event", "text": f"{who}: confirmed what the camera said"})
        self.broker.publish({"type": "state", "state": self.state_json()})

    def question(self) -> dict[str, Any] | None:
        """The referee's open question (two histories it cannot tell apart), its answers in words; or None."""
        asked = self.observer.asked
        if asked is None:
            return None
        branch, options = asked
        game = game_of(branch)
        return {"options": [game.narrate(o, branch) if o is not None else "nothing happened" for o in options]}

    def choose(self, index: int, who: str) -> str:
        """The table's answer to the open question (``index`` into its options); returns what was said.

        Raises:
            RefereeError: when no question is open, the index is not one of its answers, or the readings
                have settled it since (nothing changes).
        """
        with self._lock:
            asked = self.observer.asked
            if asked is None or not 0 <= index < len(asked[1]):
                raise RefereeError("no such answer: the referee asks nothing now, or asks something else")
            try:
                verdicts = self.observer.choose(asked[1][index])
            except ValueError as error:
                raise RefereeError(str(error)) from None
            self.store.append(self.game_id, "answer", who, {"option": index})
            for verdict in verdicts:
                self._record(verdict)
        said = "; ".join(str(v) for v in verdicts) or "nothing new"
        self.broker.publish({"type": "event", "text": f"{who} answered: {said}"})
        self.broker.publish({"type": "state", "state": self.state_json()})
        return said

    def undo(self, who: str) -> str:
        """Cancels the last effective event (recorded as an ``undo`` by ``who``); returns what it was.

        Raises:
            RefereeError: when there is nothing to undo.
        """
        with self._lock:
            events = self.store.events(self.game_id)
            if not events:
                raise RefereeError("nothing to undo: the game has no event yet")
            record, _ = events[-1]
            state = self.store.states(self.game_id, undo=record.seq)[-1]  # raises before anything is stored
            self.store.append(self.game_id, "undo", who, {"seq": record.seq})
            self.observer.reset(state)
        text = f"{who} undid: {record.body.get('event')}"
        self.broker.publish({"type": "event", "text": text})
        self.broker.publish({"type": "state", "state": self.state_json()})
        return text

    def learn_colour(self, name: str) -> int:
        """Learns ``name``'s dice colour from the dice now in the rolling area; returns how many were seen.

        Raises:
            ValueError: no dice seen in the rolling area, or a colour not in this game.
        """
        with self._reading:
            if isinstance(self.pipeline, BoardReferee):
                return self.pipeline.learn_colour(name, self.last_report)  # says why there is nothing to learn
            if self.last_read is None:
                raise ValueError("no dice seen yet: put the dice in the rolling area, in view of the camera")
            learned: int = self.pipeline.learn_colour(name, self.last_read)
            return learned

    # --- what the page shows -----------------------------------------------------------------------

    def frames_per_second(self, now: float | None = None) -> float:
        """Frames refereed a second; 0 once no frame has come for 2 s or 5 intervals (a dead stream)."""
        if not self.interval_s or self._last_step_s is None:
            return 0.0
        idle = (time.perf_counter() if now is None else now) - self._last_step_s
        if idle > max(2.0, 5 * self.interval_s):
            return 0.0
        return round(1 / self.interval_s, 1)

    def state_json(self) -> dict[str, Any]:
        """Everything the live page shows, as JSON (``/api/state``)."""
        state = self.observer.state
        return game_json(state, self.info.names) | {
            "game_id": self.game_id,
            "status": self.status,
            "frames": self.frames_read,
            "fps": self.frames_per_second(),
            "errors": self.errors,
            "processing_ms": round(self.processing_ms, 1),
            "calibrated": self.pipeline.calibration is not None,
            "awaiting_clear": self.observer.awaiting_clear,
            "alerts": self.alerts[-5:],
            "question": self.question(),
            "notice": self.notice,
        }


def camera_refereed(game: Any) -> bool:
    """True for a game the camera referees: played with dice on a mat, or on a board it reads (Just 4 Fun)."""
    return isinstance(game, DiceGame) or game.name in BOARD_GAMES


def camera_pipeline(store: Store, info: GameInfo, reader: Any, calibration: Any = None) -> Any:
    """The camera's pipeline for a stored game from where its log stops: frames in, verdicts out.

    A dice game: the dice reader, the mat (or ``calibration``) and the interpreter, with the banknotes dealt from
    the game's seed when its deal is virtual. A board game: the board's markers and its stones read.

    Raises:
        RefereeError: for a game the camera does not referee.
    """
    state = store.state(info.id)
    game = game_of(state)
    if isinstance(game, DiceGame):
        initial = store.initial_state(info.id)
        deal = seeded_deal(initial, info.seed, state.history) if info.deal == "virtual" else None
        return referee_pipeline(reader, state, deal, calibration=calibration)
    if game.name in BOARD_GAMES:
        return BoardReferee(state)
    raise RefereeError(f"{game.title} is not refereed from the camera")


def game_json(state: Any, names: dict[str, str]) -> dict[str, Any]:
    """A game state for the page, drawn by its game (``page_json``), with the game's name added.

    For Las Vegas: table, live payout preview, turn, scoreboard, final result
    (:func:`referee.lasvegas.jsonio.page_json`).
    """
    game = game_of(state)
    return {"game": game.name, "title": game.title, **game.page_json(state, names)}


_ZONE_COLOUR = (60, 200, 255)


def annotate_report(image: np.ndarray, report: Report) -> np.ndarray:
    """The frame with zone outlines and each die labelled (pips, owner colour, Biggy)."""
    detections = report.detections
    if len(report.owners) == len(detections):  # label each die with what the referee makes of it
        data = {**detections.data, "colour": np.array([str(o) for o in report.owners], dtype=object),
                "biggy": np.asarray(report.biggy, dtype=bool)}  # fmt: skip
        detections = Detections(detections.xyxy, detections.confidence, data)
    out = annotate(image, detections)
    calibration = report.calibration
    if calibration is None:
        cv2.putText(out, "no calibration: put the play mat in view", (20, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.9,
                    (0, 0, 255), 2, cv2.LINE_AA)  # fmt: skip
        return out
    inverse = np.linalg.inv(calibration.homography)
    for polygon in [*calibration.casinos.values(), calibration.rolling_area]:
        pixels = cv2.perspectiveTransform(polygon.reshape(-1, 1, 2).astype(np.float64), inverse)
        cv2.polylines(out, [pixels.astype(np.int32)], True, _ZONE_COLOUR, 2, cv2.LINE_AA)
    return out
