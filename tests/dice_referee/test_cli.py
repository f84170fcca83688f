"""The command-line contracts, run as a user runs them (a subprocess, JSON in and out)."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

SCRIPT = Path(sys.executable).with_name("dice-referee")


def cli(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "dice_referee", *args], input=stdin, capture_output=True,
                          text=True, timeout=120)  # fmt: skip


def test_console_script_is_installed():
    out = subprocess.run([str(SCRIPT), "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("dice-referee ")


@pytest.mark.parametrize(
    "command", ["settle", "simulate", "replay", "play", "rules", "detect", "stones", "mat", "watch", "calibrate"]
)
def test_every_subcommand_has_help(command):
    out = cli(command, "--help")
    assert out.returncode == 0 and "usage: dice-referee" in out.stdout


EXAMPLE = {"game": "las-vegas", "neutral": ["white"],
           "casinos": [{"casino": 1, "dice": {"red": 3, "white": 1}, "biggy": {"red": 1},
                        "banknotes": [60000, 20000]}]}  # fmt: skip


def test_settle_contract_one_line_out_per_line_in():
    second = {"casinos": [{"casino": 3, "dice": {"red": 5, "blue": 3, "green": 3, "black": 1},
                           "banknotes": [60000, 30000]}]}  # fmt: skip
    out = cli("settle", stdin=json.dumps(EXAMPLE) + "\n" + json.dumps(second) + "\n")
    assert out.returncode == 0, out.stderr
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(lines) == 2
    first = lines[0]["casinos"][0]
    assert first["counts"] == {"red": 5, "white": 1}
    assert first["paid"] == [{"owner": "red", "banknote": 60000}]
    assert first["returned"] == [20000] and first["cancelled"] == []
    assert lines[0]["totals"] == {"red": 60000}
    assert lines[1]["casinos"][0]["cancelled"] == ["blue", "green"]
    assert lines[1]["totals"] == {"red": 60000, "black": 30000}


def test_settle_bounds_each_line_and_its_nesting():
    """A line nested thousands deep or megabytes long is answered like any bad line; the next still is."""
    stdin = "\n".join(["[" * 5000 + "]" * 5000, "[" * 3_000_000, '{"casinos": [{"casino": 1, "dice": {"red": NaN}}]}',
                       json.dumps(EXAMPLE)])  # fmt: skip
    out = cli("settle", stdin=stdin + "\n")
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert out.returncode == 1 and len(lines) == 4 and "Traceback" not in out.stderr
    assert "nested 5000 deep" in lines[0]["error"] and "longer than" in lines[1]["error"]
    assert "NaN" in lines[2]["error"] and "casinos" in lines[3]


def test_settle_answers_every_line_and_fails_on_a_bad_one():
    stdin = "\n".join([json.dumps(EXAMPLE), "{broken", '{"casinos": [{"casino": 9}]}', "[1, 2]",
                       json.dumps({"casinos": [{"casino": 1, "dice": {"red": 12}}]}), json.dumps(EXAMPLE)])  # fmt: skip
    out = cli("settle", stdin=stdin + "\n")
    assert out.returncode == 1
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(lines) == 6
    assert lines[0] == lines[5] and "casinos" in lines[0]
    assert lines[1]["error"].startswith("line 2: not JSON")
    assert "numbered 1 to 6" in lines[2]["error"]
    assert "must be a JSON object" in lines[3]["error"]
    assert "12 red dice" in lines[4]["error"]
    assert "Traceback" not in out.stderr


def test_simulate_prints_a_summary_of_checked_invariants():
    out = cli("simulate", "--players", "3", "--variant", "neutral", "biggy", "--games", "30", "--seed", "5")
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["ruleset"] == "las-vegas+neutral+biggy"
    assert summary["games"] == 30 and summary["games_per_s"] > 0
    assert summary["invariants"] == {
        "money_conserved": True, "every_die_placed_once_per_round": True, "preview_equals_settlement": True,
        "cancelled_receive_nothing": True, "rounds_match_ruleset": True, "legal_play_accepted": True,
    }  # fmt: skip
    assert summary["checks"]["preview_equals_settlement"] == 120
    # Deterministic: the same seed plays the same games.
    again = json.loads(cli("simulate", "--players", "3", "--variant", "neutral", "--variant", "biggy", "--games",
                           "30", "--seed", "5").stdout)  # fmt: skip
    assert (again["events"], again["wins"]) == (summary["events"], summary["wins"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "9"], "2 to 5 players, not 9"),
        (["--players", "3", "--variant", "kickers"], "unknown variant"),
        (["--players", "3", "--games", "-1"], "--games must be >= 0"),
    ],
)
def test_simulate_bad_arguments(args, message):
    out = cli("simulate", *args)
    assert out.returncode == 2 and message in out.stderr


def test_simulate_just_4_fun_checks_its_invariants_in_the_same_shape():
    out = cli("simulate", "--game", "just-4-fun", "--players", "4", "--games", "12", "--seed", "3")
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["ruleset"] == "just-4-fun" and summary["players"] == ["red", "blue", "green", "black"]
    assert summary["ok"] and all(summary["invariants"].values()) and set(summary["invariants"]) == {
        "stones_conserved", "cards_conserved", "blocking_rule_kept", "secured_fields_never_change", "game_ends",
        "legal_play_accepted"}  # fmt: skip
    assert summary["checks"]["game_ends"] == 12 and sum(summary["won_by"].values()) == 12
    again = json.loads(cli("simulate", "--game", "Just 4 Fun", "--players", "4", "--games", "12", "--seed", "3").stdout)
    assert (again["events"], again["wins"]) == (summary["events"], summary["wins"])
    bad_args = ((["--players", "5"], "2 to 4 players"), (["--players", "2", "--variant", "x"], "no variants"))
    for args, message in bad_args:
        bad = cli("simulate", "--game", "just-4-fun", *args)
        assert bad.returncode == 2 and message in bad.stderr


def test_stones_reads_a_pictured_board_one_json_line_per_image(tmp_path):
    """The contract of ``stones``: each image's stones by field and spot, an error line for the others."""
    import cv2

    from vision.synth.board import RenderedBoard, truth

    game = RenderedBoard(seed=141, players=("black", "white", "red"))
    index = len(game.states) // 2
    cv2.imwrite(str(tmp_path / "table.png"), game.picture(index))
    cv2.imwrite(str(tmp_path / "grass.png"), np.full((200, 300, 3), (40, 120, 40), np.uint8))
    out = cli("stones", str(tmp_path / "table.png"), str(tmp_path / "grass.png"), "--colours", "black,white,red")
    assert out.returncode == 1, out.stderr
    table, grass = (json.loads(line) for line in out.stdout.splitlines())
    expected = [
        {"field": n, "spot": "centre" if s == 4 else s, "colour": c} for n, s, c, _ in truth(game.states[index])
    ]
    assert sorted(table["stones"], key=lambda d: (d["field"], str(d["spot"]))) == sorted(
        expected, key=lambda d: (d["field"], str(d["spot"])))  # fmt: skip
    assert table["covered"] == []  # nothing but stones on the board
    assert "no Just 4 Fun board found" in grass["error"]
    for args, message in ((["--colours", "mauve"], "not a dice colour"), (["--colours", "red", "--layout", "1,2"],
                                                                          "--layout")):  # fmt: skip
        bad = cli("stones", str(tmp_path / "table.png"), *args)
        assert bad.returncode == 2 and message in bad.stderr


def test_play_writes_a_record_that_replays(tmp_path):
    record = tmp_path / "game.jsonl"
    out = cli("play", "--players", "3", "--variant", "neutral", "--seed", "4", "--record", str(record))
    assert out.returncode == 0, out.stderr
    assert "-- round 4 settlement --" in out.stdout and "final standings" in out.stdout
    replayed = cli("replay", str(record))
    assert replayed.returncode == 0, replayed.stderr
    summary = json.loads(replayed.stdout)
    assert summary["notation"].startswith("las-vegas+neutral rbg/w 4 over")
    assert summary["winners"] and len(summary["standings"]) == 3
    for line in out.stdout.splitlines():
        if line[:2] == "1.":
            assert line.startswith(f"1. {summary['standings'][0]['player']}: ")
    steps = cli("replay", "--steps", str(record)).stdout.splitlines()
    assert len(steps) == summary["events"] + 1


def test_replay_errors(tmp_path):
    missing = cli("replay", str(tmp_path / "nope.jsonl"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"record": "dice-referee", "version": 1, "ruleset": "las-vegas", "players": ["red", "blue"]}\n'
                   '{"event": "rolled", "player": "red", "dice": [1, 2, 3, 4, 5, 6, 1, 2]}\n')  # fmt: skip
    out = cli("replay", str(bad))
    assert out.returncode == 1 and "event 1: no roll now: banknotes must be dealt first" in out.stderr


def test_rules_lists_variants():
    out = cli("rules")
    assert out.returncode == 0 and "neutral:" in out.stdout and "six-players:" in out.stdout


def test_detect_without_weights_says_so(tmp_path):
    out = cli("detect", "--json", "--models", str(tmp_path), str(tmp_path))
    assert out.returncode == 2 and "no trained model in" in out.stderr and "Traceback" not in out.stderr


def test_detect_s_second_look_must_be_a_network_size(tmp_path):
    out = cli("detect", "--json", "--second-look", "500", str(tmp_path))
    assert out.returncode == 2 and "--second-look must be 0 or a multiple of 32, not 500" in out.stderr


def test_mat_writes_a_pdf_and_a_png(tmp_path):
    out = cli("mat", "--out", str(tmp_path / "mat.pdf"), "--paper", "a4", "--dpi", "50")
    assert out.returncode == 0, out.stderr
    assert "2 a4 sheets" in out.stdout and (tmp_path / "mat.pdf").read_bytes().startswith(b"%PDF")
    out = cli("mat", "--out", str(tmp_path / "mat.png"), "--dpi", "50")
    assert out.returncode == 0 and (tmp_path / "mat.png").stat().st_size > 1000
    (tmp_path / "file").write_text("not a folder")
    out = cli("mat", "--out", str(tmp_path / "file" / "mat.pdf"))
    assert out.returncode == 2 and "cannot write" in out.stderr and "Traceback" not in out.stderr


def test_mat_and_calibrate_for_las_vegas_royale(tmp_path):
    """Royale's mat (its markers found by the game's layout) and a real board's corners with the ring's zones."""
    import cv2

    from vision.mat import ROYALE_MAT, find_mat
    from vision.zones import load_calibration

    out = cli("mat", "--game", "las-vegas-royale", "--out", str(tmp_path / "royale.png"), "--dpi", "60")
    assert out.returncode == 0, out.stderr
    assert find_mat(cv2.imread(str(tmp_path / "royale.png")), ROYALE_MAT) is not None
    out = cli("mat", "--game", "just-4-fun", "--out", str(tmp_path / "board.png"), "--dpi", "40")
    assert out.returncode == 0, out.stderr
    from vision.board import find_board

    assert find_board(cv2.imread(str(tmp_path / "board.png"))) is not None
    out = cli("mat", "--game", "chess", "--out", str(tmp_path / "x.pdf"))
    assert out.returncode == 2 and "unknown game 'chess'" in out.stderr
    path = tmp_path / "royale.json"
    out = cli("calibrate", "--game", "royale", "--corners", "100,80 1180,90 1250,700 40,690", "--size", "600x600",
              "--out", str(path))  # fmt: skip
    assert out.returncode == 0, out.stderr
    calibration = load_calibration(path)
    assert len(calibration.rolling_area) == 6 and len(calibration.casinos) == 6  # the arena, the ring


def test_watch_contract_on_the_built_in_game(tmp_path):
    """One round of the built-in game, read by its own labels: the JSON lines of the contract."""
    record = tmp_path / "game.jsonl"
    out = cli("watch", "builtin", "--reader", "truth", "--players", "red,blue", "--rounds", "1", "--size", "640x360",
              "--json", "--record", str(record))  # fmt: skip
    assert out.returncode == 0, out.stderr
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert {line["type"] for line in lines} == {"table", "event"}
    for line in lines:
        assert isinstance(line["frame"], int) and isinstance(line["time_s"], float)
    placed = [line for line in lines if line["type"] == "event" and line["event"] == "placed"]
    assert placed and set(placed[0]) >= {"player", "casino", "count"}
    table = [line for line in lines if line["type"] == "table"][-1]
    assert [c["casino"] for c in table["casinos"]] == [1, 2, 3, 4, 5, 6]
    # Its casinos are exactly settle's input: settling them gives the preview printed beside them.
    settled = cli("settle", stdin=json.dumps({"casinos": table["casinos"]}) + "\n")
    assert json.loads(settled.stdout) == table["preview"]
    # The record replays to the same game.
    replayed = cli("replay", str(record))
    assert replayed.returncode == 0, replayed.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["watch", "0"], "--players is required"),
        (["watch", "/no/such/video.mp4", "--players", "red,blue"], "no such camera, file or folder"),
        (["watch", "builtin", "--players", "red,purple"], "purple"),
        (["watch", "/no/such/video.mp4", "--players", "red"], "2 to 5 players, not 1"),
        (["watch", "builtin", "--players", "red"], "2 to 5 players, not 1"),
        (["watch", "builtin", "--calibration", "/no/such/calibration.json"], "no calibration file"),
        (["watch", ".", "--players", "red,blue", "--reader", "truth"], "needs the source 'builtin'"),
    ],
)
def test_watch_errors_are_clear(args, message):
    out = cli(*args)
    assert out.returncode == 2 and message in out.stderr and "Traceback" not in out.stderr


def test_calibrate_writes_a_calibration_from_four_corners(tmp_path):
    from vision.zones import load_calibration

    path = tmp_path / "instance" / "calibration.json"
    out = cli("calibrate", "--corners", "100,80 1180,90 1250,700 40,690", "--size", "600x400", "--out", str(path))
    assert out.returncode == 0, out.stderr
    calibration = load_calibration(path)
    assert (calibration.width_mm, calibration.height_mm) == (600.0, 400.0)
    corners = calibration.to_table(np.array([[100, 80], [1250, 700]]))
    assert np.allclose(corners, [[0, 0], [600, 400]], atol=1e-6)
    assert calibration.assign(np.array([[640, 390]])).tolist() != [-1]


@pytest.mark.parametrize(
    ("corners", "message"),
    [("1,2 3,4", "four (x, y) corners"), ("0,0 10,0 0,10 10,10", "convex"), ("a,b c,d e,f g,h", "could not convert")],
)
def test_calibrate_rejects_bad_corners(tmp_path, corners, message):
    out = cli("calibrate", "--corners", corners, "--out", str(tmp_path / "c.json"))
    assert out.returncode == 2 and message in out.stderr and not (tmp_path / "c.json").exists()


def test_a_watched_record_is_rewritten_whole_when_a_roll_is_read_again(tmp_path):
    from dice_referee.cli import _rewrite_record
    from referee import find_ruleset
    from referee.lasvegas.simulate import play
    from referee.record import read_record

    record = tmp_path / "game.jsonl"
    record.write_text('{"record": "dice-referee"}\n{"half": "of an old rec')
    *_, (_, state) = play(find_ruleset("las-vegas"), ["red", "blue"], seed=3)
    with _rewrite_record(str(record), state) as handle:
        assert handle.writable()
    assert read_record(record.read_text().splitlines()).history == state.history
    assert not (tmp_path / "game.jsonl.tmp").exists()


def test_detect_on_a_folder_without_images_says_so(tmp_path):
    (tmp_path / "notes.txt").write_text("no image here")
    out = cli("detect", "--json", str(tmp_path))
    assert out.returncode == 1, out.stderr
    line = json.loads(out.stdout)
    assert line["image"] == str(tmp_path) and "a folder with no images in it" in line["error"]


@pytest.mark.parametrize("port", ["99999", "0", "-1", "http"])
def test_serve_refuses_a_port_that_is_not_one(port):
    out = cli("serve", "--port", port)
    assert out.returncode == 2 and "--port" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize("host", ["", "0.0.0.0", "::"])
def test_serve_on_every_interface_needs_lan(host):
    """An empty --host binds every interface, as 0.0.0.0 does: not this machine only."""
    out = cli("serve", "--host", host)
    assert out.returncode == 2 and "add --lan" in out.stderr and "Traceback" not in out.stderr


RECORD_HEADER = b'{"record": "dice-referee", "version": 1, "ruleset": "las-vegas", "players": ["red", "blue"]}\n'


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'\xff\xfe{"record": "dice-referee"}\n', "line 1: not UTF-8 text"),
        (b"[" * 100_000 + b"]" * 100_000 + b"\n", "nested 100000 deep"),
        (RECORD_HEADER + b'{"event": "dealt", "casinos": [[Infinity]]}\n', "line 2: not standard JSON"),
        (b"x" * (2 << 20), "longer than 1 MiB"),
    ],
)
def test_replay_refuses_what_is_not_a_record_in_one_line(tmp_path, content, message):
    """Before: tracebacks on invalid UTF-8 and deep nesting."""
    path = tmp_path / "record.jsonl"
    path.write_bytes(content)
    out = cli("replay", str(path))
    assert out.returncode == 1 and message in out.stderr and len(out.stderr.splitlines()) == 1, out.stderr


def test_replay_of_an_endless_file_stops_at_once():
    """Before: memory grew without bound on /dev/zero."""
    out = cli("replay", "/dev/zero")
    assert out.returncode == 1 and "longer than 1 MiB" in out.stderr


@pytest.mark.parametrize("source", ["7", "rtsp://127.0.0.1:1/x"])
def test_watch_reports_an_unreachable_camera_and_gives_up(source):
    """Before: it retried for ever and printed nothing."""
    out = cli("watch", source, "--players", "red,blue", "--give-up-after", "2")
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert "cannot open the source" in out.stderr and "reconnecting in 0.5 s" in out.stderr
    assert "gave up" in out.stderr.splitlines()[-1]


def test_watch_says_a_video_ended_early(tmp_path):
    """Before: exit 0 and no word that the video was cut short."""
    import cv2

    video = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, (320, 240))
    for i in range(40):
        writer.write(np.full((240, 320, 3), 4 * i, np.uint8))
    writer.release()
    data = video.read_bytes()
    video.write_bytes(data[: len(data) // 2])
    out = cli("watch", str(video), "--players", "red,blue")
    assert out.returncode == 1 and "ended early" in out.stderr and "of the 40 frames" in out.stderr
