"""The live page's server: every endpoint, bad input, corrections, exports, and a kill-and-restart.

The built-in game is refereed frame by frame (``LiveReferee.step``) with its own labels as the dice
reader, so the tests are deterministic and need no trained model.
"""

import csv
import io
import json
import xml.etree.ElementTree as ET

import pytest

from referee.record import read_record
from web.app import create_app

TOKEN = "t0ken"


def make_app(tmp_path, **extra):
    config = {
        "INSTANCE_PATH": str(tmp_path / "instance"),
        "SOURCE": "builtin",
        "READER": "truth",
        "REALTIME": False,
        "AUTOSTART": False,
        "BUILTIN_SIZE": (640, 360),
        "BUILTIN_FPS": 5.0,
        "TESTING": True,
    }
    config.update(extra)
    return create_app(config)


def client_with_csrf(app):
    client = app.test_client()
    with client.session_transaction() as session:
        session["csrf"] = TOKEN
    return client


def post(client, url, body):
    return client.post(url, json=body, headers={"X-CSRF-Token": TOKEN})


def new_game(client, players=("red", "blue"), seed=7, **extra):
    response = post(client, "/api/games", {"game": "las-vegas", "players": list(players), "seed": seed,
                                           "names": {"red": "Ann", "blue": "Bo"}, **extra})  # fmt: skip
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def run(app, frames):
    live = app.extensions["dice-referee"].live
    if live.status == "starting":
        live.begin()
    for _ in range(frames):
        if not live.step():
            break
    return live


@pytest.fixture
def playing(tmp_path):
    app = make_app(tmp_path)
    client = client_with_csrf(app)
    game = new_game(client)
    return app, client, game


def test_without_a_game_the_page_sends_you_to_setup(tmp_path):
    client = client_with_csrf(make_app(tmp_path))
    response = client.get("/")
    assert response.status_code == 302 and response.headers["Location"].endswith("/setup")
    assert b"New game" in client.get("/setup").data
    response = client.get("/api/state")
    assert response.status_code == 409 and "setup page" in response.get_json()["error"]


def test_a_game_is_refereed_live_and_every_event_is_stored(playing):
    app, client, game = playing
    live = run(app, 120)
    state = client.get("/api/state").get_json()
    assert state["game_id"] == game["id"] and state["calibrated"] and state["frames"] == 120
    assert state["phase"] in ("roll", "place") and state["players"][0]["name"] == "Ann"
    assert len(state["table"]) == 6 and set(state["preview"]) == {"casinos", "totals"}
    records = client.get(f"/api/games/{game['id']}/records").get_json()
    kinds = [r["body"].get("event") for r in records if r["kind"] == "event"]
    assert kinds[:2] == ["dealt", "rolled"] and "placed" in kinds
    assert all(r["who"] == "camera" for r in records)
    assert live.frames_read == 120
    assert state["fps"] > 0 and state["processing_ms"] > 0  # frames refereed a second; the pipeline's time each


def test_the_page_the_stream_and_the_events(playing):
    app, client, _ = playing
    live = run(app, 30)
    page = client.get("/")
    assert page.status_code == 200 and b'id="video"' in page.data and b"csrf-token" in page.data
    jpeg = client.get("/frame.jpg")
    assert jpeg.status_code == 200 and jpeg.data[:2] == b"\xff\xd8"
    stream = client.get("/video.mjpg", buffered=False)
    chunk = next(stream.response)
    assert stream.mimetype == "multipart/x-mixed-replace" and b"Content-Type: image/jpeg" in chunk
    stream.close()
    events = client.get("/events", buffered=False)
    first = next(events.response).decode()
    assert first.startswith("event: state\n") and json.loads(first.split("data: ", 1)[1])["state"]["frames"] == 30
    live.step()
    events.close()
    assert live.broker.subscribers == 0


def test_posts_need_the_csrf_token(playing):
    app, _, _ = playing
    client = app.test_client()
    response = client.post("/api/undo", json={})
    assert response.status_code == 403 and "CSRF" in response.get_json()["error"]
    response = client.post("/setup", data={"colour": ["red", "blue"]})
    assert response.status_code == 403 and b"CSRF" in response.data


def test_undo_and_manual_events_are_recorded_with_who_and_when(playing):
    app, client, game = playing
    run(app, 120)
    before = client.get("/api/state").get_json()["notation"]
    response = post(client, "/api/undo", {"who": "Ann"})
    assert response.status_code == 200 and "Ann undid" in response.get_json()["text"]
    after = response.get_json()["state"]["notation"]
    assert after != before
    records = client.get(f"/api/games/{game['id']}/records").get_json()
    assert records[-1]["kind"] == "undo" and records[-1]["who"] == "Ann" and records[-1]["at"]
    # Nothing is overwritten: the undone event is still in the log.
    assert records[-1]["body"]["seq"] in [r["seq"] for r in records if r["kind"] == "event"]


def test_the_page_answers_the_referees_question_or_is_told_none_is_open(playing):
    app, client, game = playing
    run(app, 10)
    assert client.get("/api/state").get_json()["question"] is None
    response = post(client, "/api/choose", {"option": 0, "who": "Ann"})
    assert response.status_code == 409 and "asks nothing" in response.get_json()["error"]
    for bad in ({"option": "0"}, {"option": True}, {"option": 0, "extra": 1}):
        assert post(client, "/api/choose", bad).status_code == 400
    records = client.get(f"/api/games/{game['id']}/records").get_json()
    assert not [r for r in records if r["kind"] == "answer"]  # nothing stored from a refused answer
    # An open question (a Royale table where a lone die is gone: passed, or hidden in a crowd): its answers
    # in words for the page's buttons (choosing is tested with the interpreter: tests/referee/test_royale.py).
    from tests.referee.test_royale import _pass_or_hidden

    live = app.extensions["dice-referee"].live
    live.observer, _ = _pass_or_hidden()
    options = client.get("/api/state").get_json()["question"]["options"]
    assert len(options) == 2 and any("to pass" in o for o in options) and any("places" in o for o in options)
    assert post(client, "/api/choose", {"option": 2, "who": "Ann"}).status_code == 409


def test_bad_requests_get_clear_4xx_answers(playing):
    app, client, game = playing
    run(app, 10)
    cases = [
        (client.post("/api/event", data="not json", headers={"X-CSRF-Token": TOKEN}), 400, "JSON object"),
        (post(client, "/api/event", {"event": "teleported"}), 400, "unknown event"),
        (post(client, "/api/event", {"event": "placed", "player": "blue", "casino": 3, "dice": 1}), 409, "roll first"),
        (post(client, "/api/deal", {"casinos": "lots"}), 400, "six lists"),
        (post(client, "/api/games", {"game": "chess", "players": ["red", "blue"]}), 400, "chess"),
        (post(client, "/api/games", {"players": "red"}), 400, "a list of colours"),
        (post(client, "/api/games", {"players": ["red", "red"]}), 400, "red"),
        (post(client, "/api/games", {"players": ["red", "blue"], "deal": "whatever"}), 400, "'deal'"),
        (post(client, "/api/games", {"players": ["red", "blue"], "start": "green"}), 400, "start player"),
        (post(client, "/api/calibration", {"corners": [[0, 0], [1, 1]]}), 400, "four"),
        (client.get("/api/games/999"), 404, "no game 999"),
        (client.get("/api/nothing-here"), 404, "not found"),
    ]
    for response, status, message in cases:
        assert response.status_code == status, (message, response.get_json())
        assert message in response.get_json()["error"]
    assert client.get("/games/999").status_code == 404
    state = client.get("/api/state").get_json()
    assert state["game_id"] == game["id"]  # nothing recorded was lost


def test_the_start_player_goes_first_and_the_seats_keep_their_order(tmp_path):
    client = client_with_csrf(make_app(tmp_path))
    game = new_game(client, players=("red", "blue", "green"), start="blue")
    assert game["players"] == ["blue", "green", "red"]


def test_a_manual_deal_matches_the_notes_on_the_table(tmp_path):
    app = make_app(tmp_path)
    client = client_with_csrf(app)
    new_game(client, deal="manual")
    run(app, 20)
    assert client.get("/api/state").get_json()["phase"] == "deal"  # waits for the notes
    response = post(client, "/api/deal", {"casinos": [[60000], [50000], [90000], [70000], [80000], [10000, 40000]]})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["state"]["table"][5]["banknotes"] == [40000, 10000]
    response = post(client, "/api/deal", {"casinos": [[60000]] * 6})
    assert response.status_code == 409


def test_history_replay_exports_and_chart(playing):
    app, client, game = playing
    run(app, 400)
    assert f"/games/{game['id']}".encode() in client.get("/history").data
    page = client.get(f"/games/{game['id']}?step=3")
    assert page.status_code == 200 and b"Step 3 of" in page.data
    exported = client.get(f"/games/{game['id']}/export.jsonl")
    state = read_record(exported.data.decode().splitlines())
    assert state.to_notation() == client.get("/api/state").get_json()["notation"]
    rows = list(csv.reader(io.StringIO(client.get(f"/games/{game['id']}/export.csv").data.decode())))
    assert rows[0][:5] == ["seq", "at", "kind", "who", "event"] and len(rows) > 5
    svg = client.get(f"/games/{game['id']}/chart.svg")
    assert svg.mimetype == "image/svg+xml" and ET.fromstring(svg.data).tag.endswith("svg")
    games = client.get("/api/games").get_json()
    assert games[0]["id"] == game["id"] and games[0]["players"] == ["red", "blue"]


def test_killing_the_server_loses_nothing_and_a_restart_resumes_the_game(tmp_path):
    app = make_app(tmp_path)
    client = client_with_csrf(app)
    game = new_game(client)
    run(app, 200)
    before = client.get("/api/state").get_json()
    records = client.get(f"/api/games/{game['id']}/records").get_json()
    del app, client  # the process dies: nothing is flushed or closed on purpose
    again = make_app(tmp_path)
    client = client_with_csrf(again)
    resumed = client.get("/api/state").get_json()
    assert resumed["game_id"] == game["id"] and resumed["notation"] == before["notation"]
    assert client.get(f"/api/games/{game['id']}/records").get_json() == records


def test_serving_beyond_this_machine_needs_the_access_token(tmp_path):
    app = make_app(tmp_path, TOKEN="secret")
    client = app.test_client()
    assert client.get("/api/games").status_code == 403
    assert client.get("/api/games?token=wrong").status_code == 403
    response = client.get("/api/games?token=secret")
    assert response.status_code == 200
    assert client.get("/api/games").status_code == 200  # the cookie set by the first visit


def test_calibration_by_four_corners_replaces_the_mat(playing, tmp_path):
    app, client, _ = playing
    run(app, 3)
    assert b"four corners" in client.get("/calibration").data
    corners = [[80, 40], [560, 40], [600, 330], [40, 330]]
    response = post(client, "/api/calibration", {"corners": corners, "width_mm": 420, "height_mm": 297})
    assert response.status_code == 200
    assert (tmp_path / "instance" / "calibration.json").exists()
    assert app.extensions["dice-referee"].live.pipeline.fixed is not None
    calibration = client.get("/api/calibration").get_json()
    assert calibration["by"] == "corners" and len(calibration["casinos"]) == 6
    # Move casino 1 a little; a broken polygon is refused and changes nothing.
    casinos = calibration["casinos"]
    casinos["1"] = [[x + 5, y] for x, y in casinos["1"]]
    assert post(client, "/api/zones", {"casinos": casinos}).status_code == 200
    assert client.get("/api/calibration").get_json()["casinos"]["1"] == casinos["1"]
    response = post(client, "/api/zones", {"casinos": {"1": [[0, 0]]}})
    assert response.status_code == 400 and "polygon of 3 to 64" in response.get_json()["error"]
    response = post(client, "/api/zones", {"casinos": {"1": [[0, 0], [10, 0], [0, 10]]}})
    assert response.status_code == 400 and "casinos 1 to 6" in response.get_json()["error"]
    assert client.get("/api/calibration").get_json()["casinos"]["1"] == casinos["1"]


def test_the_mats_zones_are_printed_and_cannot_be_moved(playing):
    app, client, _ = playing
    run(app, 3)
    assert client.get("/api/calibration").get_json()["by"] == "mat"
    response = post(client, "/api/zones", {"casinos": {}})
    assert response.status_code == 409 and "printed" in response.get_json()["error"]


def test_show_me_your_dice_learns_a_colour_and_keeps_it(playing, tmp_path):
    app, client, _ = playing
    assert post(client, "/api/colours", {"colour": "red"}).status_code == 409  # nothing seen yet
    live = run(app, 60)
    while not any(zone == 0 for zone in live.last_read.zones):
        live.step()
    response = post(
        client, "/api/colours", {"colour": live.last_read.owners[list(live.last_read.zones).index(0)].value}
    )
    assert response.status_code == 200 and response.get_json()["dice"] >= 1
    assert (tmp_path / "instance" / "colours.json").exists()
    assert post(client, "/api/colours", {"colour": "purple"}).status_code == 409
    assert post(client, "/api/colours", {"colour": 3}).status_code == 400


def test_a_camera_source_without_weights_or_device_is_a_clear_error(tmp_path):
    app = make_app(tmp_path, SOURCE="/no/such/video.mp4", READER="model")
    client = client_with_csrf(app)
    response = post(client, "/api/games", {"players": ["red", "blue"]})
    assert response.status_code == 409 and "cannot start" in response.get_json()["error"]
    assert client.get("/api/games").get_json() == []  # checked before anything is stored
    assert client.get("/").status_code == 302  # back to setup, nothing half-started


def test_an_undone_placement_is_recorded_again_by_hand(playing):
    app, client, game = playing
    live = run(app, 1)
    while not any(r.body.get("event") == "placed" for r, _ in live.store.events(game["id"])):
        live.step()
    record, _ = live.store.events(game["id"])[-1]
    assert record.body["event"] == "placed"
    assert post(client, "/api/undo", {"who": "Bo"}).status_code == 200
    body = dict(record.body) | {"who": "Bo"}
    response = post(client, "/api/event", body)
    assert response.status_code == 200, response.get_json()
    detail = client.get(f"/api/games/{game['id']}").get_json()
    assert detail["id"] == game["id"] and detail["state"]["notation"] == response.get_json()["state"]["notation"]
    records = client.get(f"/api/games/{game['id']}/records").get_json()
    assert [(r["kind"], r["who"]) for r in records[-2:]] == [("undo", "Bo"), ("event", "Bo")]


def test_the_setup_form_starts_a_game(tmp_path):
    app = make_app(tmp_path)
    client = client_with_csrf(app)
    form = {"csrf_token": TOKEN, "game": "las-vegas", "variants": ["biggy"], "colour": ["green", "", "black"],
            "name": ["Gil", "", "Kim"], "seed": "5", "deal": "virtual"}  # fmt: skip
    response = client.post("/setup", data=form)
    assert response.status_code == 302 and response.headers["Location"].endswith("/")
    game = client.get("/api/games").get_json()[0]
    assert game["players"] == ["green", "black"] and game["ruleset"] == "las-vegas+biggy"
    assert game["names"] == {"green": "Gil", "black": "Kim"} and game["seed"] == 5


def test_a_game_of_just_4_fun_is_refereed_from_its_board_and_the_cards_entered(tmp_path):
    """The setup page offers Just 4 Fun; the built-in film's players enter their cards drawn and played (the
    camera sees where the stones go, not the cards); every event is stored; cards that do not make the field
    where the stone lies are refused with why, and nothing is stored."""
    app = make_app(tmp_path, BUILTIN_SIZE=(1280, 720))
    client = client_with_csrf(app)
    assert "Just 4 Fun" in client.get("/setup").get_data(as_text=True)
    form = {"csrf_token": TOKEN, "game": "just-4-fun", "colour": ["white", "black"], "name": ["Wu", ""], "seed": "3"}
    assert client.post("/setup", data=form).status_code == 302
    live = run(app, 75)
    state = client.get("/api/state").get_json()
    assert state["game"] == "just-4-fun" and state["calibrated"] and len(state["fields"]) == 36
    records = client.get(f"/api/games/{state['game_id']}/records").get_json()
    placed = [r for r in records if r["kind"] == "event" and r["body"]["event"] == "placed"]
    drawn = [r for r in records if r["kind"] == "event" and r["body"]["event"] == "drawn"]
    assert len(placed) >= 3 and len(drawn) >= 5 and {r["who"] for r in drawn} == {"player"}
    assert "camera" in {r["who"] for r in placed}  # stones on new spots: said by the camera
    assert not [r for r in records if r["kind"] == "alert"]
    film = live.source.game  # the truth: the camera's game is the film's game so far
    assert live.observer.state == film.states[len(live.observer.state.history)]
    before = len(records)
    page = client.get("/").get_data(as_text=True)
    assert 'id="board"' in page and 'id="event-form"' not in page
    for url in (
        f"/games/{state['game_id']}",
        f"/games/{state['game_id']}/export.csv",
        f"/games/{state['game_id']}/export.jsonl",
        "/history",
    ):
        assert client.get(url).status_code == 200, url
    exported = client.get(f"/games/{state['game_id']}/export.jsonl").data.decode().splitlines()
    assert read_record(exported) == live.observer.state  # the export is a record that replays
    response = post(client, "/api/event", {"event": "placed", "player": "white", "cards": [40], "field": 40})
    assert response.status_code == 409
    assert client.get(f"/api/games/{state['game_id']}/records").get_json()[before:] == []


def test_a_real_just_4_fun_board_is_calibrated_by_its_corners_on_the_page(tmp_path):
    """Without markers in use: the grid's four corners clicked with the board empty; saved beside the database;
    the stones are then read against that picture and the placements still said."""
    app = make_app(tmp_path, BUILTIN_SIZE=(1280, 720))
    client = client_with_csrf(app)
    form = {"csrf_token": TOKEN, "game": "just-4-fun", "colour": ["red", "green"], "name": ["", ""], "seed": "8"}
    assert client.post("/setup", data=form).status_code == 302
    live = run(app, 2)  # the board still empty
    assert "Save the corners" in client.get("/calibration").get_data(as_text=True)
    corners = live.source.game.grid_corners().tolist()
    assert post(client, "/api/calibration", {"corners": corners[:3]}).status_code == 400
    response = post(client, "/api/calibration", {"corners": corners})
    assert response.status_code == 200, response.get_json()
    assert (tmp_path / "instance" / "board-empty.png").exists()
    assert client.get("/api/calibration").get_json() == {"calibrated": True, "by": "corners"}
    assert post(client, "/api/zones", {"casinos": {}}).status_code == 409
    run(app, 70)
    records = client.get("/api/games/1/records").get_json()
    assert [r for r in records if r["kind"] == "event" and r["who"] == "camera" and r["body"]["event"] == "placed"]
    assert not [r for r in records if r["kind"] == "alert"]


def test_a_users_own_board_numbering_is_entered_once_at_setup_and_kept(tmp_path):
    """The board's layout is a setting: entered on the setup page, checked, stored with the game (its first
    record), the film printed with it and read by it, and used again by the next game without entering it."""
    app = make_app(tmp_path, BUILTIN_SIZE=(1280, 720))
    client = client_with_csrf(app)
    layout = list(range(36, 0, -1))
    form = {"csrf_token": TOKEN, "game": "just-4-fun", "colour": ["red", "blue"], "name": ["", ""], "seed": "4"}
    bad = client.post("/setup", data=form | {"layout": "1 2 3"})
    assert bad.status_code == 400 and "36 field numbers" in bad.get_data(as_text=True)
    twice = client.post("/setup", data=form | {"layout": " ".join(["1"] * 36)})
    assert twice.status_code == 400 and "each field 1-36 once" in twice.get_data(as_text=True)
    assert client.get("/api/games").get_json() == []
    assert client.post("/setup", data=form | {"layout": ", ".join(map(str, layout))}).status_code == 302
    live = run(app, 40)
    assert live.observer.state.rules.layout == tuple(layout) and live.source.game.layout.rules.layout == tuple(layout)
    placed = [r for r in client.get("/api/games/1/records").get_json() if r["body"].get("event") == "placed"]
    assert placed and client.get("/api/games/1/records").get_json()[0]["kind"] == "setup"
    assert not [r for r in client.get("/api/games/1/records").get_json() if r["kind"] == "alert"]
    assert client.post("/setup", data=form).status_code == 302  # not entered again: the board entered last time
    assert app.extensions["dice-referee"].live.observer.state.rules.layout == tuple(layout)
    dice = post(client, "/api/games", {"game": "las-vegas", "players": ["red", "blue"], "layout": layout})
    assert dice.status_code == 400 and "no numbered board" in dice.get_json()["error"]


def test_a_new_game_tells_open_pages_to_reload(playing):
    app, client, _ = playing
    run(app, 5)
    events = client.get("/events", buffered=False)
    assert next(events.response).startswith(b"event: state")
    new_game(client, players=("green", "black"), seed=3)
    rest = b""
    while b"event: reload" not in rest:
        rest += next(events.response)
    events.close()


def test_the_csv_export_shows_text_that_starts_like_a_formula_as_text(playing):
    """Who made a correction is free text; a spreadsheet would run ``=HYPERLINK(...)`` typed there."""
    app, client, game = playing
    run(app, 60)
    formula = '=HYPERLINK("http://evil.example","x")'
    assert post(client, "/api/undo", {"who": formula}).status_code == 200
    rows = list(csv.reader(io.StringIO(client.get(f"/games/{game['id']}/export.csv").data.decode())))
    whos = [row[3] for row in rows[1:]]
    assert "'" + formula in whos
    assert not [cell for row in rows for cell in row if cell[:1] in ("=", "+", "-", "@")]


def test_a_game_of_las_vegas_royale_is_refereed_with_its_chips(tmp_path):
    app = make_app(tmp_path)
    client = client_with_csrf(app)
    assert b"Las Vegas Royale" in client.get("/setup").data
    game = new_game(client, players=("red", "blue", "green"), seed=11, game="las-vegas-royale")
    run(app, 400)
    state = client.get("/api/state").get_json()
    assert state["game"] == "las-vegas-royale" and state["ruleset"] == "las-vegas-royale"
    assert {p["colour"]: p["chips"] for p in state["players"]}.keys() == {"red", "blue", "green"}
    records = client.get(f"/api/games/{game['id']}/records").get_json()
    kinds = {r["body"].get("event") for r in records if r["kind"] == "event"}
    assert {"dealt", "rolled", "placed"} <= kinds
    assert len(state["table"][5]["banknotes"]) == 2  # a pair of money cards by each casino


def test_the_calibration_page_learns_the_games_other_dice_too(tmp_path, playing):
    """Show me your dice: the players' colours, and where the game has them the tiles' grey and black dice."""
    _, client, _ = playing
    page = client.get("/calibration").data
    assert b'data-colour="red"' in page and b"other dice" not in page  # Las Vegas without neutral dice
    app = make_app(tmp_path / "royale")
    royale = client_with_csrf(app)
    new_game(royale, players=("red", "blue", "green"), seed=6, game="las-vegas-royale+main")
    page = royale.get("/calibration").data
    assert b'data-colour="grey"' in page and b'data-colour="black"' in page and b'data-colour="red"' in page


def test_royales_main_game_asks_the_page_for_a_tiles_decision_and_takes_the_answer(tmp_path):
    app = make_app(tmp_path)
    client = client_with_csrf(app)
    assert b"main game" in client.get("/setup").data
    game = new_game(client, players=("red", "blue", "green"), seed=6, game="las-vegas-royale+main")
    live = app.extensions["dice-referee"].live
    live.begin()
    for _ in range(600):  # until a tile asks something (the camera then waits for the page)
        live.step()
        state = client.get("/api/state").get_json()
        if state.get("asks") and not state["asks"]["dealt"]:
            break
    asks = state["asks"]
    assert asks and len(state["tiles"]) == 3 and len(state["bank"]) <= 54
    if asks["who"] == "chance":
        answer = {"event": "black-dice-rolled", "values": [3, 4]}
    else:
        choice = asks["choices"][0]
        answer = {"event": "tile-choice", "player": asks["who"], "choice": choice["choice"], "amount": choice["amount"]}
    bad = post(client, "/api/event", {**answer, "event": "tile-choice", "player": "red", "choice": "nonsense"})
    assert bad.status_code == 409
    response = post(client, "/api/event", {**answer, "who": "Ann"})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["state"].get("asks") != asks
    records = client.get(f"/api/games/{game['id']}/records").get_json()
    assert records[-1]["who"] == "Ann" and records[-1]["body"]["event"] == answer["event"]


def test_a_pass_the_camera_missed_is_recorded_from_the_page_and_costs_a_chip(tmp_path):
    app = make_app(tmp_path)
    client = client_with_csrf(app)
    new_game(client, players=("red", "blue", "green"), seed=11, game="las-vegas-royale")
    live = app.extensions["dice-referee"].live
    live.begin()
    for _ in range(400):
        live.step()
        state = client.get("/api/state").get_json()
        if state["phase"] == "place":
            break
    player = state["to_act"]
    chips = {p["colour"]: p["chips"] for p in state["players"]}
    response = post(client, "/api/event", {"event": "passed", "player": player, "who": "Bo"})
    assert response.status_code == 200, response.get_json()
    after = {p["colour"]: p["chips"] for p in response.get_json()["state"]["players"]}
    assert after[player] == chips[player] - 1 and response.get_json()["state"]["phase"] == "roll"


def test_the_chips_counted_at_the_table_are_entered_on_the_page_and_kept(tmp_path):
    """Chips are entered on the page (issue 21): the live page has a field per player; the count replaces
    the referee's (a pass it missed), is recorded with who entered it, and a count that is no count is refused."""
    app = make_app(tmp_path)
    client = client_with_csrf(app)
    game = new_game(client, players=("red", "blue", "green"), seed=11, game="las-vegas-royale")
    page = client.get("/").data
    assert b'id="chips-form"' in page and b'name="blue"' in page
    run(app, 120)
    response = post(client, "/api/event", {"event": "counted", "resource": "chips", "counts": [2, 1, 0], "who": "Cy"})
    assert response.status_code == 200, response.get_json()
    assert [p["chips"] for p in response.get_json()["state"]["players"]] == [2, 1, 0]
    records = client.get(f"/api/games/{game['id']}/records").get_json()
    assert records[-1]["who"] == "Cy" and records[-1]["body"] == {"event": "counted", "resource": "chips",
                                                                  "counts": [2, 1, 0]}  # fmt: skip
    for bad in ({"counts": [2, 1]}, {"counts": [2, -1, 0]}, {"resource": "notes", "counts": [1, 1, 1]}):
        body = {"event": "counted", "resource": "chips", "counts": [2, 1, 0], **bad}
        refused = post(client, "/api/event", body)
        assert refused.status_code == 409 and refused.get_json()["error"], bad
    assert post(client, "/api/event", {"event": "counted", "resource": "chips", "counts": "two"}).status_code == 400
    assert [p["chips"] for p in client.get("/api/state").get_json()["players"]] == [2, 1, 0]
    app2 = make_app(tmp_path / "lv")
    lv = client_with_csrf(app2)
    new_game(lv, players=("red", "blue"), seed=1)
    assert b'id="chips-form"' not in lv.get("/").data  # Las Vegas has no chips


def test_a_two_player_royale_game_with_white_gives_the_imaginary_player_another_colour(tmp_path):
    app = make_app(tmp_path)
    client = client_with_csrf(app)
    game = new_game(client, players=("white", "red"), seed=3, game="las-vegas-royale")
    assert client.get(f"/api/games/{game['id']}").get_json()["neutral"] == "black"
    second = new_game(client, players=("red", "blue"), seed=3, game="las-vegas+neutral")  # Las Vegas's white dice
    assert client.get(f"/api/games/{second['id']}").get_json()["neutral"] == "white"


def test_a_royale_main_game_is_kept_in_the_history_with_its_own_events(tmp_path):
    app = make_app(tmp_path)
    client = client_with_csrf(app)
    game = new_game(client, players=("red", "blue", "green"), seed=6, game="las-vegas-royale+main")
    run(app, 150)
    for url in ("/history", f"/games/{game['id']}", f"/games/{game['id']}?step=3", f"/games/{game['id']}/chart.svg"):
        assert client.get(url).status_code == 200, url
    csv = client.get(f"/games/{game['id']}/export.csv").data.decode()
    assert ",tiles-laid," in csv and ",bank-laid," in csv and ",dealt," in csv
    exported = client.get(f"/games/{game['id']}/export.jsonl").data.decode().splitlines()
    from referee.record import read_record

    state = read_record(exported)  # the export is a record that replays
    assert state.ruleset.name == "las-vegas-royale+main" and state.tiles


def test_show_me_your_dice_on_a_board_game_says_there_is_nothing_to_learn(tmp_path):
    app = make_app(tmp_path, BUILTIN_SIZE=(1280, 720))
    client = client_with_csrf(app)
    form = {"csrf_token": TOKEN, "game": "just-4-fun", "colour": ["red", "blue"], "name": ["", ""], "seed": "2"}
    assert client.post("/setup", data=form).status_code == 302
    run(app, 3)
    response = post(client, "/api/colours", {"colour": "red"})
    assert response.status_code == 409 and "nothing to learn" in response.get_json()["error"]
    assert "Dice colours" not in client.get("/calibration").get_data(as_text=True)


def test_a_game_whose_last_stone_is_entered_on_the_page_is_over(tmp_path):
    """The event that ends a game marks it over also when a person enters it (a stone on his own stack, which
    the camera does not see, may be the last of the game)."""
    from referee.just4fun import HandDiscarded, play

    app = make_app(tmp_path)
    client = client_with_csrf(app)
    form = {"csrf_token": TOKEN, "game": "just-4-fun", "colour": ["red", "blue"], "name": ["", ""], "seed": "6"}
    assert client.post("/setup", data=form).status_code == 302
    live = app.extensions["dice-referee"].live
    game = list(play(["red", "blue"], 6))
    for event, _ in game[1:]:
        if not isinstance(event, HandDiscarded):  # the rules throw a hand themselves
            live.apply(event, "Ann")
    assert live.observer.state == game[-1][1]
    assert client.get("/api/games").get_json()[0]["status"] == "over"
