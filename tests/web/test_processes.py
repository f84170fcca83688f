"""Real ``serve`` processes on one database: a second writer, SIGKILL mid-round, a damaged file, restarts.

Each start ends with a clear message or a referee that goes on from the log: nothing recorded is lost,
nothing is logged twice.
"""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(tmp_path, database, *extra):
    port = free_port()
    command = [sys.executable, "-m", "dice_referee", "serve", "--port", str(port), "--reader", "truth",
               "--database", f"sqlite:///{database}", *extra]  # fmt: skip
    process = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return process, port


def get(port, path):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
        return json.loads(response.read())


def wait_until(predicate, seconds=90):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            value = predicate()
            if value:
                return value
        except OSError:
            pass
        time.sleep(0.3)
    raise AssertionError("timed out")


def records(port):
    return get(port, "/api/games/1/records")


def stop(process, how=signal.SIGTERM):
    process.send_signal(how)
    try:
        return process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        return process.communicate()


def test_two_servers_a_kill_a_damaged_file_and_restarts(tmp_path):
    database = tmp_path / "games.db"
    first, port = serve(tmp_path, database, "--new-database")
    try:
        wait_until(lambda: len(records(port)) >= 6)
        second, _ = serve(tmp_path, database)
        _, err = second.communicate(timeout=60)
        assert second.returncode == 2 and "being written by another dice-referee" in err
        assert f"process {first.pid}" in err and "Traceback" not in err
        before = records(port)
    finally:
        stop(first, signal.SIGKILL)  # mid-round: nothing flushed or closed on purpose
    kept = [r for r in before]

    again, port = serve(tmp_path, database)
    try:
        wait_until(lambda: len(records(port)) > len(kept) + 3)
        after = records(port)
        detail = get(port, "/api/games/1")
    finally:
        _, err = stop(again)
    assert after[: len(kept)] == kept, "a record was lost or changed"
    assert [r["seq"] for r in after] == list(range(1, len(after) + 1)), "a record was logged twice"
    assert detail["status"] == "playing" and detail["state"] is not None
    assert [r for r in after[len(kept) :] if r["kind"] in ("alert", "uncertain")] == []
    assert [r["body"]["event"] for r in after if r["kind"] == "event"].count("dealt") == 1

    for journal in tmp_path.glob("games.db-*"):  # as when the file alone is copied, without its journal
        journal.unlink()
    data = bytearray(database.read_bytes())
    data[100:] = os.urandom(len(data) - 100)  # every page damaged, the header kept
    database.write_bytes(bytes(data))
    damaged, _ = serve(tmp_path, database)
    _, err = damaged.communicate(timeout=60)
    assert damaged.returncode == 2 and len(err.strip().splitlines()) == 1, err
    assert str(database) in err and "--new-database" in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty (0 bytes)"),
        (b"this is not a database at all " * 100, "not a readable dice-referee database"),
        (b"SQLite format 3\x00" + b"\x10\x00\x01\x01" + os.urandom(2000), "not a readable dice-referee database"),
    ],
)
def test_an_empty_or_damaged_database_is_one_line_and_exit_2(tmp_path, content, message):
    """Before: a 32-122 line SQLAlchemy traceback; a 0-byte file silently started an empty history."""
    database = tmp_path / "games.db"
    database.write_bytes(content)
    process, _ = serve(tmp_path, database)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 2 and message in err and len(err.strip().splitlines()) == 1, err
    assert database.read_bytes() == content  # untouched


def test_a_missing_database_is_made_only_when_asked(tmp_path):
    database = tmp_path / "elsewhere.db"
    process, _ = serve(tmp_path, database)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 2 and "no database file" in err and not database.exists()
