"""Load test of the live page: N viewers on the video stream and the event stream at once.

Starts the server in this process (the built-in game, realtime), measures the producer's frames per
second with no viewer, then with ``--viewers`` clients each reading ``/video.mjpg`` and ``/events``
for ``--seconds``, and reports both rates and the bytes each viewer received. A benchmark, not a test::

    python bench/bench_web.py --viewers 20 --seconds 20 [--reader truth]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import threading
import time
import urllib.request

from werkzeug.serving import make_server

from web.app import create_app, start_demo_game


def _reader(url: str, seconds: float, counts: list[int], index: int) -> None:
    deadline = time.monotonic() + seconds
    try:
        with urllib.request.urlopen(url, timeout=seconds + 5) as response:
            while time.monotonic() < deadline:
                chunk = response.read(16384)
                if not chunk:
                    break
                counts[index] += len(chunk)
    except OSError:
        pass


def _frames_during(app, seconds: float) -> float:
    live = app.extensions["dice-referee"].live
    start, started = live.frames_read, time.monotonic()
    time.sleep(seconds)
    return (live.frames_read - start) / (time.monotonic() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--reader", choices=("model", "truth"), default="model")
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as instance:
        app = create_app({"INSTANCE_PATH": instance, "READER": args.reader})
        start_demo_game(app)
        server = make_server("127.0.0.1", args.port, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        time.sleep(3)  # warm up: first frames, the model's first runs
        alone = _frames_during(app, args.seconds / 2)
        video = [0] * args.viewers
        events = [0] * args.viewers
        threads = []
        for i in range(args.viewers):
            for url, counts in ((f"http://127.0.0.1:{args.port}/video.mjpg", video),
                                (f"http://127.0.0.1:{args.port}/events", events)):  # fmt: skip
                thread = threading.Thread(target=_reader, args=(url, args.seconds, counts, i), daemon=True)
                thread.start()
                threads.append(thread)
        time.sleep(1)
        loaded = _frames_during(app, args.seconds - 2)
        for thread in threads:
            thread.join(args.seconds + 10)
        server.shutdown()
        live = app.extensions["dice-referee"].live
        live.stop()
        print(json.dumps({
            "viewers": args.viewers, "reader": live.notice or args.reader,
            "producer_fps_alone": round(alone, 1), "producer_fps_with_viewers": round(loaded, 1),
            "video_kb_per_viewer_median": sorted(video)[len(video) // 2] // 1024,
            "event_bytes_per_viewer_min": min(events),
        }))  # fmt: skip


if __name__ == "__main__":
    main()
