"""The live streams: the annotated video (MJPEG), its latest still, and the referee's news (SSE).

Each stream belongs to one game's referee: when another game starts, the video ends and the events
stream tells the page to reload.
"""

from __future__ import annotations

import json
import queue
from typing import Any

from flask import Blueprint, Response, abort

from web.app import hub
from web.live import LiveReferee

__all__ = ["blueprint", "live"]

blueprint = Blueprint("streams", __name__)


def live() -> LiveReferee:
    """The referee of the game being played, or a 409."""
    referee = hub().live
    if referee is None:
        abort(409, "no game is being played: start one on the setup page")
    return referee


@blueprint.get("/video.mjpg")
def video() -> Any:
    referee = live()
    service = hub()

    def frames() -> Any:
        index = -1
        while service.live is referee:  # a new game has its own stream: this one ends
            index, jpeg = referee.wait_frame(index, timeout=5.0)
            if jpeg is None:
                if referee.status not in ("starting", "running"):
                    return
                continue
            yield b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: " + str(len(jpeg)).encode() + \
                b"\r\n\r\n" + jpeg + b"\r\n"  # fmt: skip

    return Response(frames(), mimetype="multipart/x-mixed-replace; boundary=frame")


@blueprint.get("/frame.jpg")
def frame_jpg() -> Any:
    _, jpeg = live().wait_frame(-1, timeout=0.0)
    if jpeg is None:
        abort(404, "no frame yet")
    return Response(jpeg, mimetype="image/jpeg")


@blueprint.get("/events")
def events() -> Any:
    referee = live()
    service = hub()
    subscription = referee.broker.subscribe()

    def stream() -> Any:
        try:
            yield sse({"type": "state", "state": referee.state_json()})
            while service.live is referee:
                try:
                    message = subscription.get(timeout=5)
                except queue.Empty:
                    # Keeps the connection, and the page's frames/s honest when the camera has gone quiet.
                    yield sse({"type": "health", "fps": referee.frames_per_second(), "status": referee.status})
                    continue
                yield sse(message)
            yield sse({"type": "reload"})  # another game started: the page reloads
        finally:
            referee.broker.unsubscribe(subscription)

    return Response(stream(), mimetype="text/event-stream", headers={"Cache-Control": "no-cache"})


def sse(message: dict[str, Any]) -> str:
    """One server-sent event."""
    return f"event: {message.get('type', 'message')}\ndata: {json.dumps(message)}\n\n"
