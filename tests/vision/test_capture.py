"""Frame sources: files, folders, videos and a live source that drops and reconnects."""

import cv2
import numpy as np
import pytest

from vision.capture import CaptureError, LiveSource, StillImagesSource, VideoFileSource, open_source


def _image(value):
    return np.full((24, 32, 3), value, np.uint8)


def test_stills_in_order_with_timestamps(tmp_path):
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"{i}.png"), _image(40 * i))
    source = open_source(str(tmp_path), fps=4)
    frames = list(source.frames())
    assert [f.index for f in frames] == [0, 1, 2]
    assert [f.timestamp_s for f in frames] == [0, 0.25, 0.5]
    assert [int(f.image[0, 0, 0]) for f in frames] == [0, 40, 80]


def test_video_file_round_trip(tmp_path):
    path = str(tmp_path / "clip.avi")
    writer = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*"MJPG"), 10, (32, 24))
    for i in range(5):
        writer.write(_image(50 * i))
    writer.release()
    frames = list(open_source(path).frames())
    assert len(frames) == 5 and frames[-1].timestamp_s == pytest.approx(0.4)
    assert abs(int(frames[2].image.mean()) - 100) <= 3


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: open_source(str(p / "nope.mp4")), "no such camera, file or folder"),
        (lambda p: open_source(str(p)), "holds no images"),
        (lambda p: list(StillImagesSource([str(p / "bad.jpg")]).frames()), "cannot read image"),
        (lambda p: list(VideoFileSource(p / "bad.mp4").frames()), "cannot open video|no decodable frame"),
        (lambda p: StillImagesSource([]), "no images given"),
    ],
)
def test_bad_sources_are_clear_errors(tmp_path, make, message):
    (tmp_path / "bad.mp4").write_bytes(b"garbage")
    (tmp_path / "bad.jpg").write_bytes(b"garbage")
    if "holds no images" in message:
        (tmp_path / "bad.jpg").unlink()
    with pytest.raises(CaptureError, match=message):
        make(tmp_path)


class FakeCapture:
    """A camera that delivers some frames, then stalls."""

    def __init__(self, frames, opened=True):
        self.frames = list(frames)
        self.opened = opened

    def isOpened(self):
        return self.opened

    def read(self):
        return (True, self.frames.pop(0)) if self.frames else (False, None)

    def release(self):
        pass


def test_live_source_reconnects_with_backoff_and_keeps_counting():
    sessions = [FakeCapture([_image(1), _image(2)]), FakeCapture([], opened=False), FakeCapture([_image(3)])]
    sleeps, statuses, now = [], [], [0.0]

    def clock():
        now[0] += 0.1
        return now[0]

    source = LiveSource(0, clock=clock, sleep=sleeps.append, on_status=statuses.append,
                        opener=lambda device: sessions.pop(0) if sessions else FakeCapture([], opened=False),
                        max_failures=3)  # fmt: skip
    frames = []
    with pytest.raises(CaptureError, match="gave up after 3 failed attempts"):
        for frame in source.frames():
            frames.append(frame)
    assert [int(f.image[0, 0, 0]) for f in frames] == [1, 2, 3]
    assert [f.index for f in frames] == [0, 1, 2]
    assert sleeps == [0.5, 1.0, 0.5, 1.0]  # reset to 0.5 once frames flow again; no sleep before giving up
    assert statuses[0] == "connected" and "cannot open the source" in statuses
