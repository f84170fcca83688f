"""The producer's pieces: the fan-out broker, the money chart, the page's view of a game."""

import xml.etree.ElementTree as ET

from referee import find_ruleset, new_game
from referee.lasvegas.simulate import default_players, play
from web.charts import money_chart_svg
from web.live import Broker, game_json


def test_a_slow_subscriber_loses_its_oldest_messages_not_the_newest():
    broker = Broker(size=3)
    slow, fast = broker.subscribe(), broker.subscribe()
    for n in range(5):
        broker.publish({"n": n})
        fast.get_nowait()
    assert [slow.get_nowait()["n"] for _ in range(3)] == [2, 3, 4]
    broker.unsubscribe(slow)
    broker.unsubscribe(slow)  # twice is harmless
    assert broker.subscribers == 1


def test_the_money_chart_has_a_line_per_player_and_a_point_per_round():
    states = [state for _, state in play(find_ruleset("las-vegas"), default_players(3), 4)]
    svg = ET.fromstring(money_chart_svg(states, {"red": "Ann"}))
    lines = svg.findall("{http://www.w3.org/2000/svg}polyline")
    assert len(lines) == 3
    assert all(len(line.get("points").split()) == 5 for line in lines)  # the start and four rounds
    assert any("Ann" in (text.text or "") for text in svg.iter("{http://www.w3.org/2000/svg}text"))
    assert ET.fromstring(money_chart_svg([], {})) is not None


def test_the_page_sees_the_final_result_with_the_tie_break():
    *_, (_, final) = play(find_ruleset("las-vegas"), default_players(4), 11)
    view = game_json(final, {})
    assert view["phase"] == "over" and view["to_act"] is None
    ranks = [s["rank"] for s in view["standings"]]
    assert ranks == sorted(ranks) and ranks[0] == 1 and len(view["standings"]) == 4
    fresh = game_json(new_game(find_ruleset("las-vegas"), ["red", "blue"]), {"red": "Ann"})
    assert fresh["players"][0] == {"colour": "red", "name": "Ann", "money": 0} and fresh["standings"] is None
    assert (fresh["game"], fresh["title"]) == ("las-vegas", "Las Vegas (alea 2012)")  # drawn by the game


def test_a_roll_read_again_is_stored_as_an_undo_and_the_new_roll(tmp_path):
    from tests.vision.games import misreading_first_roll
    from vision.synth.game import RenderedGame
    from web.live import LiveReferee
    from web.store import Store

    game = RenderedGame(seed=7, players=("red", "blue"), size=(640, 360), fps=5, rounds=1)
    read, _ = misreading_first_roll(game)
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    game_id = store.new_game("las-vegas", ["red", "blue"], {}, None, seed=7)
    showing = [0]
    live = LiveReferee(store, game_id, game, lambda image: read(showing[0]), realtime=False,
                       on_frame=lambda index: showing.__setitem__(0, index))  # fmt: skip
    live.begin()
    while live.step():
        pass
    undos = [r for r in store.records(game_id) if r.kind == "undo"]
    assert undos and all(r.who == "camera" for r in undos)  # the roll, and what followed it, taken back
    undone = [next(r for r in store.records(game_id) if r.seq == u.body["seq"]) for u in undos]
    assert all(r.kind == "event" for r in undone) and undone[-1].body["event"] == "rolled"
    assert store.state(game_id).history == live.observer.state.history
