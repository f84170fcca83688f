"""Issue 20's table, row by row, in one process: what an attacker or a clumsy request did, and the answer now.

Each request that is refused must leave the database and the game in progress as they were.
"""

import numpy as np
import pytest

from tests.web.test_app import TOKEN, client_with_csrf, make_app, new_game, post, run
from web.store import Store


def database(app):
    """Everything stored: each game and each of its records."""
    store = app.extensions["dice-referee"].store
    return [(g, store.records(g.id)) for g in store.games()]


def raw(client, url, text):
    return client.post(url, data=text, headers={"X-CSRF-Token": TOKEN, "Content-Type": "application/json"})


@pytest.fixture
def playing(tmp_path):
    app = make_app(tmp_path)
    client = client_with_csrf(app)
    game = new_game(client)
    run(app, 60)
    return app, client, game


def test_a_negative_seed_is_refused_and_the_game_in_progress_goes_on(playing, tmp_path):
    """Before: 500, the running game ended, and every later start of serve on that database failed."""
    app, client, game = playing
    before = database(app)
    for seed in (-1, 1e308, 10**30, 2**31, 3.5, True, "7x"):
        response = post(client, "/api/games", {"players": ["red", "blue"], "seed": seed})
        assert response.status_code == 400 and "'seed' must be a whole number" in response.get_json()["error"]
    response = client.post("/setup", data={"csrf_token": TOKEN, "colour": ["red", "blue"], "seed": "-1"})
    assert response.status_code == 400 and b"seed" in response.data
    assert database(app) == before
    assert client.get("/api/state").get_json()["game_id"] == game["id"]
    again = make_app(tmp_path)  # a restart on that database resumes the same game
    assert client_with_csrf(again).get("/api/state").get_json()["game_id"] == game["id"]


@pytest.mark.parametrize(
    ("url", "text"),
    [
        ("/api/games", '{"players": ["red", "blue"], "seed": Infinity}'),
        ("/api/games", '{"players": ["red", "blue"], "seed": NaN}'),
        ("/api/deal", '{"casinos": [[Infinity]]}'),
        ("/api/deal", '{"casinos": [[1e308], [], [], [], [], []]}'),
        ("/api/undo", "[" * 5000 + "]" * 5000),
        ("/api/event", '{"a": ' * 5000 + "1" + "}" * 5000),
        ("/api/calibration", '{"corners": ' + "[" * 5000 + "]" * 5000 + "}"),
        ("/api/games", b'{"players": ["red", "\xff"]}'),
    ],
)
def test_numbers_beyond_bounds_and_deep_nesting_are_4xx(playing, url, text):
    """Before: 500 (14 of 609 fuzzed requests)."""
    app, client, _ = playing
    before = database(app)
    response = raw(client, url, text)
    assert response.status_code == 400, response.get_json()
    assert response.get_json()["error"] and "Traceback" not in response.get_json()["error"]
    assert database(app) == before


def test_an_id_beyond_any_integer_is_not_found(playing):
    _, client, _ = playing
    for url in ("/games/99999999999999999999999", "/api/games/99999999999999999999999",
                "/games/99999999999999999999999/export.csv", "/api/games/99999999999999999999999/records"):  # fmt: skip
        assert client.get(url).status_code == 404, url


def test_an_undo_the_rules_refuse_stores_nothing(playing):
    """Before: /api/undo answered 409 and saved its undo record all the same."""
    app, client, game = playing
    store = app.extensions["dice-referee"].store
    store.append(game["id"], "event", "another writer", {"event": "passed", "player": "green"})
    seq = store.records(game["id"])[-1].seq
    live = run(app, 60)  # the camera goes on recording after it
    while store.records(game["id"])[-1].seq == seq or store.records(game["id"])[-1].kind != "event":
        live.step()
    before = database(app)
    response = post(client, "/api/undo", {"who": "Ann"})
    assert response.status_code == 409 and "no longer replays" in response.get_json()["error"]
    assert database(app) == before


@pytest.mark.parametrize("host", ["rebind.evil.example", "evil.example:8000", "127.0.0.1.evil.example", "", "a b"])
def test_a_host_header_that_names_another_server_is_refused(playing, host):
    """Before: any Host was accepted, so a page elsewhere could drive the referee by DNS rebinding."""
    _, client, _ = playing
    response = client.get("/api/state", headers={"Host": host})
    assert response.status_code == 400 and "Host" in response.get_json()["error"]


@pytest.mark.parametrize("host", ["localhost", "localhost:8000", "127.0.0.1:8000", "[::1]:8000"])
def test_this_machines_names_are_accepted(playing, host):
    _, client, _ = playing
    assert client.get("/api/state", headers={"Host": host}).status_code == 200


def test_lan_names_are_accepted_only_when_allowed(tmp_path):
    app = make_app(tmp_path, ALLOWED_HOSTS=["referee.local", "192.168.1.20"])
    client = app.test_client()
    assert client.get("/api/games", headers={"Host": "192.168.1.20:8000"}).status_code == 200
    assert client.get("/api/games", headers={"Host": "referee.local"}).status_code == 200
    assert client.get("/api/games", headers={"Host": "192.168.1.21:8000"}).status_code == 400


def test_a_post_from_another_sites_page_is_refused(playing):
    app, client, _ = playing
    before = database(app)
    response = client.post("/api/undo", json={}, headers={"X-CSRF-Token": TOKEN, "Origin": "http://evil.example"})
    assert response.status_code == 403 and "Origin" in response.get_json()["error"]
    response = client.post("/api/undo", json={}, headers={"X-CSRF-Token": TOKEN, "Origin": "null"})
    assert response.status_code == 403
    assert database(app) == before
    same = client.post("/api/undo", json={}, headers={"X-CSRF-Token": TOKEN, "Origin": "http://localhost:8000"})
    assert same.status_code == 200


def test_a_calibration_that_does_not_map_the_table_is_refused(playing, tmp_path):
    """Before: corners of 1e7 and sizes of 1e-300 were saved as a NaN homography and the camera thread died."""
    app, client, _ = playing
    live = app.extensions["dice-referee"].live
    calibration = live.pipeline.calibration
    huge = [[1e7, 1e7], [2e7, 1e7], [2e7, 2e7], [1e7, 2e7]]
    cases = [
        ({"corners": huge, "width_mm": 1e-300, "height_mm": 1e-300}, "'corners[0][0]' must be a number"),
        ({"corners": [[80, 40], [560, 40], [600, 330], [40, 330]], "width_mm": 1e-300}, "width_mm"),
        ({"corners": [[0, 0], [1e5, 0], [1e5, 1e5], [0, 1e5]]}, "outside the camera's"),
        ({"corners": [[0, 0], [1, 0], [1, 1e-9], [0, 1e-9]]}, "convex area"),
        ({"corners": [[80, 40], [560, 40], [600, 330], [40, 330]], "width_mm": 1e9}, "width_mm"),
    ]
    for body, message in cases:
        response = post(client, "/api/calibration", body)
        assert response.status_code == 400 and message in response.get_json()["error"], response.get_json()
    assert not (tmp_path / "instance" / "calibration.json").exists()
    assert live.pipeline.calibration is calibration and live.pipeline.fixed is None
    frames = live.frames_read
    run(app, 5)
    assert live.frames_read == frames + 5


def test_the_camera_thread_reports_a_bad_frame_and_goes_on(tmp_path):
    """Before: one exception in the pipeline stopped the referee ("stopped by an internal error")."""
    app = make_app(tmp_path, REALTIME=False)
    client = client_with_csrf(app)
    new_game(client)
    live = app.extensions["dice-referee"].live
    read = live.pipeline.reader
    calls = {"n": 0}

    def flaky(image):
        calls["n"] += 1
        if calls["n"] % 7 == 3:
            raise ValueError("a reading the pipeline cannot use")
        return read(image)

    live.pipeline.reader = flaky
    statuses = []
    live.set_status = lambda status: statuses.append(status)  # what the page is told
    live._frames = iter(live.source.frames())
    live._stop.clear()
    live.source.frame_count = 80  # a short game: the thread ends by itself
    live._run()
    assert live.errors >= 5 and any("could not be refereed" in s for s in statuses)
    assert statuses[-1] == "ended" and live.frames_read == 80
    assert client.get("/api/state").get_json()["errors"] == live.errors


def test_a_dead_stream_shows_no_frames_per_second(playing):
    """Before: the page kept showing the last frames/s after the camera stream died."""
    app, _, _ = playing
    live = app.extensions["dice-referee"].live
    assert live.frames_per_second() > 0
    assert live.frames_per_second(now=live._last_step_s + 10.0) == 0.0


def test_a_restart_resumes_the_built_in_game_where_the_log_stopped_without_false_alerts(tmp_path):
    """Before: the video started again at frame 0 and a minute of false alerts was logged."""
    app = make_app(tmp_path)
    client = client_with_csrf(app)
    game = new_game(client)
    run(app, 150)
    records = client.get(f"/api/games/{game['id']}/records").get_json()
    again = make_app(tmp_path)
    live = again.extensions["dice-referee"].live
    assert live.game_id == game["id"] and live.source.start_frame > 0
    run(again, 100)
    after = client_with_csrf(again).get(f"/api/games/{game['id']}/records").get_json()
    assert after[: len(records)] == records
    assert [r for r in after[len(records) :] if r["kind"] in ("alert", "uncertain")] == []
    assert any(r["kind"] == "event" for r in after[len(records) :])  # and the game goes on


def test_the_same_alert_is_stored_once_while_nothing_else_happens(tmp_path):
    from referee.interpret import Verdict

    app = make_app(tmp_path)
    new_game(client_with_csrf(app))
    live = app.extensions["dice-referee"].live
    alert = Verdict("alert", 0, 0.0, reason="casino 3 has a die the game does not explain")
    for _ in range(5):
        live._record(alert)
    assert [r.kind for r in live.store.records(live.game_id)].count("alert") == 1


def test_a_game_whose_records_no_longer_replay_is_marked_broken_and_the_others_stay_readable(tmp_path):
    """Before: one illegal record made serve exit 1 with a traceback; no game's history could be read."""
    app = make_app(tmp_path)
    client = client_with_csrf(app)
    first = new_game(client)
    run(app, 100)
    second = new_game(client, players=("green", "black"), seed=3)
    run(app, 60)
    store: Store = app.extensions["dice-referee"].store
    store.append(second["id"], "event", "another writer", {"event": "passed", "player": "red"})
    again = make_app(tmp_path)  # serve starts
    client = client_with_csrf(again)
    games = {g["id"]: g for g in client.get("/api/games").get_json()}
    assert games[second["id"]]["status"] == "broken" and again.extensions["dice-referee"].live is None
    assert client.get(f"/api/games/{first['id']}").get_json()["state"]["notation"]
    detail = client.get(f"/api/games/{second['id']}").get_json()
    assert detail["state"] is None and "no longer replays: record" in detail["broken"]
    page = client.get(f"/games/{second['id']}")
    assert page.status_code == 409 and b"export.csv" in page.data and b"no longer replays" in page.data
    assert client.get(f"/games/{second['id']}/export.csv").status_code == 200
    assert b"why</a>" in client.get("/history").data


def test_zones_beyond_the_picture_or_with_nan_are_refused(playing, tmp_path):
    app, client, _ = playing
    corners = [[80, 40], [560, 40], [600, 330], [40, 330]]
    assert post(client, "/api/calibration", {"corners": corners}).status_code == 200
    saved = (tmp_path / "instance" / "calibration.json").read_bytes()
    far = [[5000, 5000], [6000, 5000], [6000, 6000]]
    response = post(client, "/api/zones", {"rolling_area": far})
    assert response.status_code == 400 and "outside the camera's" in response.get_json()["error"]
    response = raw(client, "/api/zones", '{"rolling_area": [[0, 0], [1, NaN], [2, 2]]}')
    assert response.status_code == 400
    assert (tmp_path / "instance" / "calibration.json").read_bytes() == saved
    assert np.isfinite(app.extensions["dice-referee"].live.pipeline.calibration.homography).all()
