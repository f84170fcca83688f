"""From per-frame dice sightings to settled table readings: tracking, stillness and occlusion.

Every frame the detector sees the dice anew, with flicker: a die missed in one frame, a 5 read as a
6 in another, a hand sweeping over the table. The referee must only ever see the table *at rest*.
:class:`Tracker` keeps one track per physical die (matched by its position on the table plane, in
millimetres, so perspective does not matter) and says the table is settled when

- nothing has moved in the picture for ``still_s`` seconds (a hand over the table is motion: while
  it is there the last settled reading holds, and dice hidden under it keep their tracks), and
- every die counted has lain still, at the same spot, for ``still_s`` seconds (a sighting now and then
  off its spot is the detector's flicker, not the die moving: in a crowd a box may take in the die
  beside it for a frame).

A settled reading takes each die's majority reading, weighted by the reader's confidence, over every
frame since the picture last moved (up to ``vote_s``; so one misread frame does not count, and the
longer a die lies still the surer its reading), and becomes a :class:`referee.readings.TableSnapshot`,
with each die's track id: the same id means the same die, unmoved. While a die's readings disagree
(its majority has less than ``agree`` of the weight) the table waits up to ``patience_s`` longer for
more frames. A new snapshot is only given when the reading changes.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field

import cv2
import numpy as np

from referee.readings import DieReading, TableSnapshot
from referee.types import Colour

__all__ = ["MotionMeter", "Sighting", "Tracker"]


@dataclass(frozen=True)
class Sighting:
    """One die seen in one frame, placed on the table plane."""

    x_mm: float
    """Position on the table (the box centre projected onto the table plane)."""
    y_mm: float
    """Position on the table."""
    zone: int
    """Casino 1..6, 0 for the rolling area, -1 off every zone."""
    colour: Colour
    """Owner colour (or the neutral colour), as classified for this game."""
    big: bool
    """True for a Biggy."""
    pips: int
    """The face read (0 when unreadable)."""
    confidence: float = 1.0
    """Confidence of the reading, 0..1."""
    size_mm: float = 0.0
    """The die's size on the table plane (0 when unknown)."""


@dataclass
class _Track:
    ident: int
    x_mm: float
    y_mm: float
    first_s: float
    last_s: float
    seen: deque[tuple[float, float, float, int, tuple[Colour, bool, int], float, float]] = field(default_factory=deque)
    """(time, x, y, zone, (colour, big, pips), confidence, size) of each sighting in the recent past."""
    votes: deque[tuple[float, tuple[Colour, bool, int], float]] = field(default_factory=deque)
    """(time, (colour, big, pips), confidence) of each sighting over the last ``vote_s``."""
    counted: bool = False
    rest: tuple[float, float] | None = None
    """Where the die lay when last read; a die found resting elsewhere gets a new id."""


def _positions(track: _Track) -> np.ndarray:
    """Where a die was seen over ``still_s``, (x, y) in millimetres (where it lies: their median)."""
    return np.array([(x, y) for _, x, y, *_ in track.seen])


class Tracker:
    """Turns per-frame sightings into settled :class:`TableSnapshot` readings.

    Args:
        still_s: how long the picture and every die must be still before the table counts as settled.
        radius_mm: how far a die may lie from its track's last position and still be the same die.
        move_mm: how far a die may wander (detector jitter) within ``still_s`` and still be at rest.
        forget_s: how long an unseen die is kept when nothing moves (a missed detection); while
            something moves, unseen dice are kept up to ``hold_s`` (hidden under a hand).
        hold_s: the longest an unseen die is kept at all.
        enter: share of the frames in the window a die must be seen in to start counting; a counted
            die counts until it is forgotten (so a die missed for a moment does not leave the table).
        vote_s: the longest stretch of still frames a die's reading is voted over.
        agree: the share of the (confidence-weighted) votes its majority reading needs at once.
        patience_s: how much longer than ``still_s`` the table waits for a die's readings to agree.
        stray: the share of a die's sightings over ``still_s`` that may lie more than ``move_mm`` off its
            spot (their median) while it counts as still: a box that took in a neighbouring die for a
            frame. Traced: in a crowd of eleven on a Royale casino a black die's box swung 9 mm towards
            the die beside it one frame in four; the table never settled between two hands, and two
            players' rolls and passes were never read (Royale five players 409, round 2).
    """

    def __init__(self, still_s: float = 0.3, radius_mm: float = 9.0, move_mm: float = 3.0, forget_s: float = 1.5,
                 hold_s: float = 8.0, enter: float = 0.6, vote_s: float = 2.0, agree: float = 0.75,
                 patience_s: float = 0.7, stray: float = 0.25) -> None:  # fmt: skip
        self.still_s, self.radius_mm, self.move_mm = still_s, radius_mm, move_mm
        self.forget_s, self.hold_s, self.enter = forget_s, hold_s, enter
        self.vote_s, self.agree, self.patience_s, self.stray = vote_s, agree, patience_s, stray
        self.tracks: list[_Track] = []
        self._next_id = 1
        self._frames: deque[float] = deque()
        self._last_motion_s = -np.inf
        self._last_key: tuple[object, ...] | None = None
        self.last_snapshot: TableSnapshot | None = None

    def update(self, frame_index: int, time_s: float, sightings: list[Sighting], motion: bool = False,
               ) -> TableSnapshot | None:  # fmt: skip
        """Takes one frame's sightings; returns a new settled reading when the table has settled anew.

        Args:
            frame_index: the frame's index in its source.
            time_s: the frame's time in seconds (increasing).
            sightings: every die the detector read in this frame.
            motion: True when something moved in the picture since the previous frame (a hand).
        """
        if motion:
            self._last_motion_s = time_s
        self._frames.append(time_s)
        horizon = time_s - max(self.still_s, self.forget_s) - 1e-9
        while self._frames and self._frames[0] < horizon:
            self._frames.popleft()
        self._match(time_s, sightings)
        self._forget(time_s)
        if not self._settled(time_s):
            return None
        snapshot = self._snapshot(frame_index, time_s)
        key = tuple(
            tuple((d.track, d.colour, d.big, d.pips) for d in dice) for dice in (*snapshot.casinos, snapshot.tray)
        )
        if key == self._last_key:
            return None
        self._last_key = key
        self.last_snapshot = snapshot
        return snapshot

    def _match(self, time_s: float, sightings: list[Sighting]) -> None:
        """Greedy nearest matching of sightings to tracks within ``radius_mm``; the rest start tracks."""
        pairs = sorted(
            (float(np.hypot(s.x_mm - t.x_mm, s.y_mm - t.y_mm)), i, j)
            for i, s in enumerate(sightings)
            for j, t in enumerate(self.tracks)
        )
        used_s: set[int] = set()
        used_t: set[int] = set()
        for distance, i, j in pairs:
            if distance > self.radius_mm:
                break
            if i in used_s or j in used_t:
                continue
            used_s.add(i)
            used_t.add(j)
            self._add(self.tracks[j], sightings[i], time_s)
        for i, sighting in enumerate(sightings):
            if i not in used_s:
                track = _Track(self._next_id, sighting.x_mm, sighting.y_mm, time_s, time_s)
                self._next_id += 1
                self._add(track, sighting, time_s)
                self.tracks.append(track)

    def _add(self, track: _Track, s: Sighting, time_s: float) -> None:
        track.x_mm, track.y_mm, track.last_s = s.x_mm, s.y_mm, time_s
        track.seen.append((time_s, s.x_mm, s.y_mm, s.zone, (s.colour, s.big, s.pips), s.confidence, s.size_mm))
        while track.seen and track.seen[0][0] < time_s - self.still_s - 1e-9:
            track.seen.popleft()
        track.votes.append((time_s, (s.colour, s.big, s.pips), s.confidence))
        while track.votes and track.votes[0][0] < time_s - self.vote_s - 1e-9:
            track.votes.popleft()

    def _reading(self, track: _Track) -> tuple[tuple[Colour, bool, int], float]:
        """A die's majority reading since the picture last moved, and its share of the votes."""
        votes: Counter[tuple[Colour, bool, int]] = Counter()
        for time_s, reading, confidence in track.votes:
            if time_s > self._last_motion_s:
                votes[reading] += max(confidence, 1e-3)
        if not votes:  # seen only while something moved: its latest sightings
            for *_, reading, confidence, _ in track.seen:
                votes[reading] += max(confidence, 1e-3)
        reading, weight = votes.most_common(1)[0]
        return reading, weight / sum(votes.values())

    def _forget(self, time_s: float) -> None:
        """Drops the dice that are gone.

        Dice do not vanish by themselves: a die not seen again once a hand has come and gone was taken
        away; a die merely missed by the detector is kept for ``forget_s``.
        """
        moving = time_s - self._last_motion_s < self.forget_s
        quiet = time_s - self._last_motion_s >= self.still_s
        kept = []
        for track in self.tracks:
            unseen = time_s - track.last_s
            if unseen > self.hold_s or (unseen > self.forget_s and not moving):
                continue
            if quiet and track.last_s < self._last_motion_s:
                continue  # taken away (or moved) by the hand that passed
            kept.append(track)
        self.tracks = kept

    def _presence(self, track: _Track, time_s: float) -> float:
        start = time_s - self.still_s - 1e-9
        frames = sum(1 for t in self._frames if t >= start)
        seen = sum(1 for entry in track.seen if entry[0] >= start)
        return seen / max(frames, 1)

    def _settled(self, time_s: float) -> bool:
        if time_s - self._last_motion_s < self.still_s:
            return False
        if not self._frames or time_s - self._frames[0] < self.still_s - 1e-9:
            return False  # not watched long enough yet
        for track in self.tracks:
            presence = self._presence(track, time_s)
            track.counted = track.counted or presence >= self.enter
            if not track.counted and presence < self.enter / 2:
                continue  # a passing false detection does not hold the table up
            if time_s - track.first_s < self.still_s - 1e-9:
                return False  # a die has just arrived
            positions = _positions(track)
            if len(positions):
                off = np.linalg.norm(positions - np.median(positions, axis=0), axis=1) > self.move_mm
                if off.mean() > self.stray:
                    return False  # moving
            rested_s = time_s - max(self._last_motion_s, track.first_s)
            if self._reading(track)[1] < self.agree and rested_s < self.still_s + self.patience_s - 1e-9:
                return False  # its readings disagree: a few more frames
        return True

    def _snapshot(self, frame_index: int, time_s: float) -> TableSnapshot:
        casinos: list[list[DieReading]] = [[] for _ in range(6)]
        tray: list[DieReading] = []
        for track in sorted(self.tracks, key=lambda t: t.ident):
            if not track.counted:
                continue
            zone = Counter(entry[3] for entry in track.seen).most_common(1)[0][0]
            (colour, big, pips), confidence = self._reading(track)
            spot = np.median(_positions(track), axis=0)
            if track.rest is not None and np.hypot(spot[0] - track.rest[0], spot[1] - track.rest[1]) > self.move_mm:
                track.ident, self._next_id = self._next_id, self._next_id + 1  # the same die, moved
            track.rest = (float(spot[0]), float(spot[1]))
            size = float(np.median([entry[6] for entry in track.seen]))
            die = DieReading(colour, big, pips, round(confidence, 3), track.ident, round(size, 1))
            if 1 <= zone <= 6:
                casinos[zone - 1].append(die)
            elif zone == 0:
                tray.append(die)
        return TableSnapshot(frame_index, time_s, tuple(map(tuple, casinos)), tuple(tray))


class MotionMeter:
    """Says whether anything moved between consecutive frames (a hand, a rolling die).

    Frames are compared small and blurred, so sensor noise and JPEG artefacts do not count; a change
    counts when more than ``area`` of the picture changed by more than ``threshold`` grey levels.
    """

    def __init__(self, width: int = 160, threshold: int = 22, area: float = 0.002) -> None:
        self.width, self.threshold, self.area = width, threshold, area
        self._previous: np.ndarray | None = None

    def __call__(self, frame: np.ndarray) -> bool:
        """True when ``frame`` (BGR) differs from the previous one by more than noise."""
        height = max(1, round(frame.shape[0] * self.width / frame.shape[1]))
        small = cv2.resize(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), (self.width, height), interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(small, (5, 5), 0)
        previous, self._previous = self._previous, small
        if previous is None or previous.shape != small.shape:
            return False
        changed = cv2.absdiff(small, previous) > self.threshold
        return bool(changed.mean() > self.area)
