"""Frame sources behind one small interface: a camera, a network stream, a video file, still images.

Every source yields :class:`Frame` objects (index, timestamp in seconds, BGR image). Images stay in
OpenCV's BGR order throughout ``vision``; the networks convert at their own input. Files are the only
inputs decoded here and in the command line's ``main`` functions. Live sources take their clock as a
parameter, so tests replay them deterministically.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np

__all__ = [
    "CaptureError",
    "Frame",
    "FrameSource",
    "LiveSource",
    "StillImagesSource",
    "VideoFileSource",
    "open_capture",
    "open_source",
]

log = logging.getLogger(__name__)
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")


class CaptureError(RuntimeError):
    """A source that cannot be opened or read (the message says which and why)."""


@dataclass(frozen=True)
class Frame:
    """One frame of a source."""

    index: int
    """0-based position in the source."""
    timestamp_s: float
    """Seconds since the source started (from the file for videos and stills, from the clock for live)."""
    image: np.ndarray
    """BGR uint8 image (height, width, 3)."""


class FrameSource(Protocol):
    """Anything that yields frames."""

    def frames(self) -> Iterator[Frame]:
        """Frames in order until the source ends (live sources do not end on their own)."""
        ...


class StillImagesSource:
    """Image files shown one after another at ``fps`` (optionally looping): fixtures and photo sets."""

    def __init__(self, paths: Sequence[str | os.PathLike[str]], fps: float = 2.0, loop: bool = False) -> None:
        if not paths:
            raise CaptureError("no images given")
        if fps <= 0:
            raise CaptureError(f"fps must be positive, got {fps}")
        self.paths = [os.fspath(p) for p in paths]
        self.fps = fps
        self.loop = loop

    def frames(self) -> Iterator[Frame]:
        """Each image as a frame; an unreadable file raises :class:`CaptureError` naming it."""
        index = 0
        while True:
            for path in self.paths:
                image = cv2.imread(path, cv2.IMREAD_COLOR)
                if image is None:
                    raise CaptureError(f"cannot read image {path}: missing, not an image, or corrupt")
                yield Frame(index, index / self.fps, image)
                index += 1
            if not self.loop:
                return


class VideoFileSource:
    """A recorded video, frame by frame, with the file's own timestamps."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        if not os.path.isfile(self.path):
            raise CaptureError(f"no such video file: {self.path}")

    def frames(self) -> Iterator[Frame]:
        """Every decodable frame.

        Raises:
            CaptureError: a file that yields no frame, or (after its last readable frame) a video that
                ends well before the frame count its header gives: cut short or damaged.
        """
        capture = cv2.VideoCapture(self.path)
        try:
            if not capture.isOpened():
                raise CaptureError(f"cannot open video {self.path}: not a video OpenCV can decode, or corrupt")
            fps = capture.get(cv2.CAP_PROP_FPS) or 30.0
            expected = int(capture.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
            index = 0
            while True:
                ok, image = capture.read()
                if not ok or image is None:
                    break
                yield Frame(index, index / fps, image)
                index += 1
            if index == 0:
                raise CaptureError(f"video {self.path} has no decodable frame (corrupt or empty)")
            if index + max(2, expected // 50) < expected:  # some containers only estimate their count
                raise CaptureError(f"video {self.path} ended early, after {index} of the {expected} frames its "
                                   "header announces: cut short or damaged")  # fmt: skip
        finally:
            capture.release()


class LiveSource:
    """A camera (by index) or a network stream (URL), reconnected with back-off when it drops.

    A stalled (no frame for ``STALL_TIMEOUT_MS``) or unplugged source is logged and reopened after
    0.5 s, 1 s, 2 s ... up to
    ``max_backoff_s``; ``on_status`` hears "connected", "lost: ..." and "reconnecting in ...". The
    frame index keeps counting across reconnections, so nothing downstream is reset.
    """

    def __init__(
        self, device: int | str, *, clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep, max_backoff_s: float = 10.0, max_failures: int | None = None,
        on_status: Callable[[str], None] | None = None,
        opener: Callable[[int | str], cv2.VideoCapture] | None = None, give_up_after_s: float | None = None,
    ) -> None:  # fmt: skip
        self.device = device
        self.give_up_after_s = give_up_after_s
        """Raise :class:`CaptureError` once no frame has come for this long (None: retry for ever)."""
        self.clock = clock
        self.sleep = sleep
        self.max_backoff_s = max_backoff_s
        self.max_failures = max_failures
        self.on_status = on_status or (lambda message: log.info("%s: %s", device, message))
        self.opener = opener or open_capture

    def frames(self) -> Iterator[Frame]:
        """Frames for as long as the source lives; raises after ``max_failures`` failed reconnections."""
        start = last_frame = self.clock()
        index = 0
        failures = 0
        backoff = 0.5
        while True:
            capture = self.opener(self.device)
            if capture is not None and capture.isOpened():
                self.on_status("connected")
                backoff = 0.5
                while True:
                    ok, image = capture.read()
                    if not ok or image is None:
                        break
                    failures = 0
                    last_frame = self.clock()
                    yield Frame(index, last_frame - start, image)
                    index += 1
                capture.release()
                self.on_status("lost: no frame from the source")
            else:
                self.on_status("cannot open the source")
            failures += 1
            if self.max_failures is not None and failures >= self.max_failures:
                raise CaptureError(f"camera {self.device!r}: gave up after {failures} failed attempts to read it")
            silent = self.clock() - last_frame
            if self.give_up_after_s is not None and silent + backoff > self.give_up_after_s:
                raise CaptureError(f"camera {self.device!r}: no frame for {silent:.0f} s after {failures} attempts "
                                   "to open or read it: gave up (is it plugged in, is the address right?)")  # fmt: skip
            self.on_status(f"reconnecting in {backoff:g} s (attempt {failures + 1})")
            self.sleep(backoff)
            backoff = min(backoff * 2, self.max_backoff_s)


STALL_TIMEOUT_MS = 5000
"""A camera or stream that gives no frame for this long counts as lost (and is reopened)."""


def open_capture(device: int | str) -> cv2.VideoCapture:
    """Opens a camera or stream with open and read timeouts, so a stalled source fails instead of hanging."""
    timeouts = [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, STALL_TIMEOUT_MS, cv2.CAP_PROP_READ_TIMEOUT_MSEC, STALL_TIMEOUT_MS]
    return cv2.VideoCapture(device, cv2.CAP_ANY, timeouts)


def open_source(spec: str, *, fps: float = 2.0, loop: bool = False, on_status: Callable[[str], None] | None = None,
                give_up_after_s: float | None = None) -> FrameSource:  # fmt: skip
    """A source from a command-line argument.

    ``"0"`` (any integer) is a camera index; ``rtsp://``, ``http://`` and ``https://`` are network
    streams (a phone's IP-camera app); a folder is its images in name order; an image file is a still;
    any other file is a video. ``on_status`` hears a live source's connection news (lost, reconnecting);
    ``give_up_after_s`` bounds how long a live source is retried without a frame (None: for ever).

    Raises:
        CaptureError: for a path that does not exist or a folder without images.
    """
    if spec.strip().isdigit():
        return LiveSource(int(spec), on_status=on_status, give_up_after_s=give_up_after_s)
    if spec.startswith(("rtsp://", "http://", "https://")):
        return LiveSource(spec, on_status=on_status, give_up_after_s=give_up_after_s)
    if os.path.isdir(spec):
        names = sorted(n for n in os.listdir(spec) if n.lower().endswith(IMAGE_SUFFIXES))
        if not names:
            raise CaptureError(f"folder {spec} holds no images ({', '.join(IMAGE_SUFFIXES)})")
        return StillImagesSource([os.path.join(spec, n) for n in names], fps=fps, loop=loop)
    if not os.path.exists(spec):
        raise CaptureError(f"no such camera, file or folder: {spec}")
    if spec.lower().endswith(IMAGE_SUFFIXES):
        return StillImagesSource([spec], fps=fps, loop=loop)
    return VideoFileSource(spec)
