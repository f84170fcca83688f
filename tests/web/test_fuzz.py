"""Fuzzing every endpoint and ``replay``'s input (hypothesis, seeded by the test's name: deterministic).

What must hold for any request: no 5xx, no traceback in a body, and a refused request (4xx) leaves the
database exactly as it was. For any file: ``replay`` raises the rules engine's errors only.
"""

import contextlib
import json
import string

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from referee.errors import RefereeError
from referee.record import read_record_file, record_lines
from tests.web.test_app import TOKEN, client_with_csrf, make_app, new_game, run
from tests.web.test_hardening import database

FIELDS = ["game", "variants", "players", "names", "seed", "start", "deal", "who", "casinos", "corners", "width_mm",
          "height_mm", "rolling_area", "colour", "event", "player", "casino", "dice", "biggies", "neutral"]  # fmt: skip
WORDS = ["red", "blue", "green", "black", "white", "las-vegas", "biggy", "virtual", "manual", "placed", "rolled",
         "dealt", "passed", "1", "-1", "=1+1", ""]  # fmt: skip

scalars = (
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from(WORDS) | st.text(max_size=12)
)  # fmt: skip


def containers(inner):
    return st.lists(inner, max_size=7) | st.dictionaries(st.text(max_size=6), inner, max_size=4)


values = st.recursive(scalars, containers, max_leaves=30)
bodies = st.dictionaries(st.sampled_from(FIELDS), values, max_size=6)
raw_bodies = (
    st.binary(max_size=200)
    | st.integers(1, 3000).map(lambda n: ("[" * n + "]" * n).encode())
    | bodies.map(lambda b: json.dumps(b).encode())  # NaN and Infinity included, as a browser never sends
)

POSTS = ["/api/games", "/api/undo", "/api/event", "/api/deal", "/api/calibration", "/api/zones", "/api/colours"]
GETS = ["/", "/setup", "/calibration", "/history", "/games/{id}", "/games/{id}/chart.svg", "/games/{id}/export.jsonl",
        "/games/{id}/export.csv", "/api/state", "/api/games", "/api/games/{id}", "/api/games/{id}/records",
        "/api/calibration", "/frame.jpg", "/games/{id}?step={text}", "/api/nothing/{text}"]  # fmt: skip


@pytest.fixture(scope="module")
def playing(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("fuzz"))
    client = client_with_csrf(app)
    new_game(client)
    run(app, 40)
    return app, client


def check(app, response, before):
    assert response.status_code < 500, response.data[:300]
    assert b"Traceback" not in response.data
    if response.status_code >= 400:
        assert database(app) == before, "a refused request changed the database"


@seed(20)
@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(url=st.sampled_from(POSTS), body=raw_bodies)
def test_every_json_endpoint_refuses_what_it_cannot_take(playing, url, body):
    app, client = playing
    before = database(app)
    response = client.post(url, data=body, headers={"X-CSRF-Token": TOKEN, "Content-Type": "application/json"})
    check(app, response, before)


@seed(22)
@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    form=st.dictionaries(
        st.sampled_from(["game", "variants", "colour", "name", "seed", "start", "deal"]),
        st.lists(st.sampled_from(WORDS) | st.text(max_size=8), max_size=7),
        max_size=7,
    )
)
def test_the_setup_form(playing, form):
    app, client = playing
    before = database(app)
    response = client.post("/setup", data={"csrf_token": TOKEN, **form})
    check(app, response, before)


@seed(23)
@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(url=st.sampled_from(GETS), game_id=st.integers(-(10**30), 10**30) | st.integers(0, 5),
       text=st.text(alphabet=string.printable, max_size=30))  # fmt: skip
def test_every_page_and_read_endpoint(playing, url, game_id, text):
    app, client = playing
    before = database(app)
    response = client.get(url.format(id=game_id, text=text.replace("#", "").replace("?", "")))
    check(app, response, before)


@seed(24)
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(lines=st.lists(st.binary(max_size=80) | bodies.map(lambda b: json.dumps(b).encode()), max_size=6),
       header=st.booleans())  # fmt: skip
def test_replay_input_raises_only_the_rules_errors(tmp_path_factory, lines, header):
    from referee.lasvegas.rules import find_ruleset
    from referee.lasvegas.state import new_game as new_state

    path = tmp_path_factory.mktemp("replay") / "record.jsonl"
    first = [next(record_lines(new_state(find_ruleset("las-vegas"), ["red", "blue"]))).encode()] if header else []
    path.write_bytes(b"\n".join(first + lines))
    with contextlib.suppress(RefereeError):  # the only error allowed: the rules engine's own
        read_record_file(path)
