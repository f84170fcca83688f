"""The ``dice-referee`` command line: one entry point, a subcommand per capability.

This module is the composition root: it may import every package, but only inside the subcommand
that needs it, so ``dice-referee settle`` never loads OpenCV or Flask.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from dice_referee import __version__

if TYPE_CHECKING:
    from referee.lasvegas.rules import RuleSet
    from referee.lasvegas.state import GameState
    from referee.types import Colour

Handler = Callable[[argparse.Namespace], int]


def _emit(obj: Any, out: TextIO) -> None:
    out.write(json.dumps(obj) + "\n")
    out.flush()


MAX_LINE_CHARS = 1 << 20
"""The longest line ``settle`` reads (a table is under 2 kB)."""


def run_settle(args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Settles each JSON line of stdin; a bad line gets ``{"error": ...}`` and the exit status 1."""
    from referee import safejson
    from referee.errors import RefereeError
    from referee.lasvegas.jsonio import settle_json

    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    status = 0
    for number in itertools.count(1):
        line = stdin.readline(MAX_LINE_CHARS + 1)
        if not line:
            break
        if len(line) > MAX_LINE_CHARS:
            while len(line) > MAX_LINE_CHARS and not line.endswith("\n"):  # skip the rest of that line
                line = stdin.readline(MAX_LINE_CHARS + 1)
            _emit({"error": f"line {number}: longer than {MAX_LINE_CHARS} characters: not a table"}, stdout)
            status = 1
            continue
        if not line.strip():
            continue
        try:
            result = settle_json(safejson.loads(line))
        except RefereeError as error:
            result, status = {"error": f"line {number}: {error}"}, 1
        except (TypeError, ValueError, RecursionError) as error:  # malformed beyond what the parser names
            result, status = {"error": f"line {number}: malformed table: {error}"}, 1
        _emit(result, stdout)
    return status


def _random_game_setup(args: argparse.Namespace, command: str) -> tuple[RuleSet, tuple[Colour, ...]] | None:
    """The rule set and default player colours from --game/--variant/--players, or None after an error."""
    from referee.errors import RefereeError
    from referee.game import find_ruleset
    from referee.lasvegas.rules import RuleSet
    from referee.lasvegas.simulate import default_players

    try:
        rules = find_ruleset(args.game, args.variant or ())
        if not isinstance(rules, RuleSet):
            print(f"dice-referee {command}: {args.game} is not a casino dice game", file=sys.stderr)
            return None
        rules.check_players(args.players)
        return rules, default_players(args.players)
    except (RefereeError, ValueError) as error:
        print(f"dice-referee {command}: {error}", file=sys.stderr)
        return None


def run_simulate(args: argparse.Namespace) -> int:
    """Plays random legal games and prints a JSON summary of the invariants checked."""
    from referee.errors import RefereeError
    from referee.game import find_game
    from referee.lasvegas.simulate import simulate

    try:
        if find_game(args.game).name == "just-4-fun":
            return _simulate_just4fun(args)
    except RefereeError:
        pass  # an unknown game: said below, as for any game
    setup = _random_game_setup(args, "simulate")
    if setup is None:
        return 2
    rules, players = setup
    if args.games < 0:
        print("dice-referee simulate: --games must be >= 0", file=sys.stderr)
        return 2
    report = simulate(rules, players, args.games, args.seed)
    _emit(report.to_json(), sys.stdout)
    return 0 if report.ok else 1


def _simulate_just4fun(args: argparse.Namespace) -> int:
    """``simulate --game just-4-fun``: random games of Just 4 Fun (cards and stones; no variants)."""
    from referee.errors import RefereeError
    from referee.just4fun import GAME
    from referee.just4fun.simulate import simulate
    from referee.lasvegas.simulate import default_players

    if args.games < 0:
        print("dice-referee simulate: --games must be >= 0", file=sys.stderr)
        return 2
    try:
        rules = GAME.find_ruleset(args.game, args.variant or ())  # "Just 4 Fun has no variants"
        report = simulate(default_players(args.players), args.games, args.seed, rules)
    except (RefereeError, ValueError) as error:
        print(f"dice-referee simulate: {error}", file=sys.stderr)
        return 2
    _emit(report, sys.stdout)
    return 0 if report["ok"] else 1


def run_replay(args: argparse.Namespace) -> int:
    """Replays a game record and prints the final state (or every state with --steps)."""
    from referee.errors import RefereeError
    from referee.game import game_of
    from referee.record import read_record_file

    try:
        state = read_record_file(args.record)
    except OSError as error:
        print(f"dice-referee replay: cannot read {args.record}: {error.strerror}", file=sys.stderr)
        return 2
    except RefereeError as error:
        print(f"dice-referee replay: {args.record}: {error}", file=sys.stderr)
        return 1
    game = game_of(state)
    if args.steps:
        step = game.from_header(state.ruleset, game.header(state))
        print(game.to_notation(step))
        for event in state.history:
            step = game.apply(step, event)
            print(f"{game.to_notation(step)}    # {json.dumps(game.event_to_json(event))}")
        return 0
    summary: dict[str, Any] = {"notation": game.to_notation(state), "events": len(state.history)}
    summary.update(game.summary_json(state))
    _emit(summary, sys.stdout)
    return 0


def run_play(args: argparse.Namespace) -> int:
    """Plays one random legal game and narrates it, optionally writing its game record."""
    from referee.lasvegas.events import RoundScored
    from referee.lasvegas.narrate import describe, describe_payout
    from referee.lasvegas.simulate import play
    from referee.lasvegas.state import preview, standings
    from referee.record import record_lines

    setup = _random_game_setup(args, "play")
    if setup is None:
        return 2
    rules, players = setup
    before = None
    state = None
    for event, state in play(rules, players, args.seed):
        if event is not None and before is not None:
            if isinstance(event, RoundScored):
                print(f"-- round {before.round} settlement --")
                for line in describe_payout(preview(before)):
                    print(f"   {line}")
            print(describe(event, before))
            if args.notation:
                print(f"   {state.to_notation()}")
        before = state
    assert state is not None
    worth = dict(rules.hooks.resource_usd)  # Royale: each chip counts $10,000, and as a card in a tie
    items = " and ".join(["cards" if rules.notes_per_casino else "notes", *worth])
    extra = "".join(f", each of the {name} at ${usd:,}" for name, usd in worth.items())
    print(f"-- final standings (money{extra}, then number of {items if worth else 'banknotes'}) --")
    for standing in standings(state):
        print(f"{standing.rank}. {standing.player}: ${standing.money_usd:,} in {standing.banknotes} {items}")
    if args.record:
        try:
            with open(args.record, "w", encoding="utf-8") as handle:
                handle.writelines(line + "\n" for line in record_lines(state))
        except OSError as error:
            print(f"dice-referee play: cannot write {args.record}: {error.strerror}", file=sys.stderr)
            return 2
        print(f"game record written to {args.record} (replay it with: dice-referee replay {args.record})")
    return 0


_IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"}


def _port(text: str) -> int:
    """A TCP port from the command line (1-65535), or an argparse error."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port: ports are 1 to 65535")
    return port


def _seconds(text: str) -> float:
    """A positive, finite number of seconds (an argparse type)."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < 1e6:
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0, got {text!r}")
    return value


def _image_paths(paths: Sequence[str]) -> list[str]:
    """Files as given, and the images inside folders (sorted), in order; a folder without images as itself."""
    import os

    found = []
    for path in paths:
        if os.path.isdir(path):
            names = sorted(n for n in os.listdir(path) if os.path.splitext(n)[1].lower() in _IMAGE_SUFFIXES)
            found += [os.path.join(path, name) for name in names] or [path]
        else:
            found.append(path)
    return found


def _unreadable(path: str) -> str:
    """Why ``path`` could not be read as an image."""
    import os

    if os.path.isdir(path):
        return f"a folder with no images in it (looked for {', '.join(sorted(_IMAGE_SUFFIXES))})"
    return "no such file" if not os.path.exists(path) else "not an image, or a corrupt one"


def _colours(text: str, command: str) -> list[str] | None:
    """The colour names of ``--colours`` (palette names, each once), or None after an error message."""
    from vision.colours import PALETTE_NAMES

    colours = list(dict.fromkeys(name.strip().lower() for name in text.split(",") if name.strip()))
    unknown = [name for name in colours if name not in PALETTE_NAMES]
    if not colours or unknown:
        print(f"dice-referee {command}: --colours: {', '.join(unknown) or 'no colour'} is not a dice colour "
              f"(one of {', '.join(PALETTE_NAMES)})", file=sys.stderr)  # fmt: skip
        return None
    return colours


def run_stones(args: argparse.Namespace) -> int:
    """Reads the stones on Just 4 Fun's printed board in images; one JSON line per image."""
    import os
    import time

    import cv2

    from referee.errors import RefereeError
    from referee.just4fun.rules import ruleset
    from vision.board import CENTRE, board_for, find_board
    from vision.stones import read_board

    colours = _colours(args.colours, "stones")
    if colours is None:
        return 2
    try:
        layout = board_for(ruleset(layout=[int(n) for n in args.layout.split(",")]) if args.layout else ruleset())
    except (RefereeError, ValueError) as error:
        print(f"dice-referee stones: --layout: {error}", file=sys.stderr)
        return 2
    status = 0
    for path in _image_paths(args.paths):
        image = cv2.imread(path, cv2.IMREAD_COLOR) if os.path.isfile(path) else None
        homography = None if image is None else find_board(image, layout)
        if image is None or homography is None:
            why = f"cannot read {path}: {_unreadable(path)}" if image is None else (
                "no Just 4 Fun board found: at least two of its corner markers (8-11) must be in view")  # fmt: skip
            _emit({"image": path, "error": why}, sys.stdout)
            status = 1
            continue
        started = time.perf_counter()
        seen = read_board(image, homography, layout, colours)
        ms = (time.perf_counter() - started) * 1000
        stones = [{"field": n, "spot": "centre" if spot == CENTRE else spot, "colour": colour}
                  for (n, spot), colour in sorted(seen.stones.items())]  # fmt: skip
        covered = [{"field": n, "spot": "centre" if spot == CENTRE else spot} for n, spot in sorted(seen.covered)]
        _emit({"image": path, "width": image.shape[1], "height": image.shape[0], "ms": round(ms, 1),
               "stones": stones, "covered": covered}, sys.stdout)  # fmt: skip
    return status


def run_detect(args: argparse.Namespace) -> int:
    """Finds and reads every die in images; one JSON line (or a table) per image."""
    import os
    import time
    from pathlib import Path

    import cv2

    from vision.annotate import annotate
    from vision.detect import MODELS, DiceDetector, ModelError, dice_to_json

    if args.models is None:
        args.models = str(MODELS)
    colours = None
    if args.colours is not None:
        colours = _colours(args.colours, "detect")
        if colours is None:
            return 2

    try:
        models = Path(args.models)
        folders = (models / "dice_detector", models / "die_reader")
        if args.second_look is None:
            vote = {} if args.confidence is None else {"vote": args.confidence}
            detector = DiceDetector.for_photos(*folders, **vote)
        elif args.second_look < 0 or args.second_look % 32:
            print(f"dice-referee detect: --second-look must be 0 or a multiple of 32, not {args.second_look}",
                  file=sys.stderr)  # fmt: skip
            return 2
        else:
            threshold = {} if args.confidence is None else {"confidence": args.confidence}
            detector = DiceDetector(*folders, **threshold, second_look=args.second_look or None)
    except ModelError as error:
        print(f"dice-referee detect: {error}", file=sys.stderr)
        return 2
    if args.save_annotated:
        os.makedirs(args.save_annotated, exist_ok=True)
    status = 0
    for path in _image_paths(args.paths):
        image = cv2.imread(path, cv2.IMREAD_COLOR) if os.path.isfile(path) else None
        if image is None:
            result: dict[str, Any] = {"image": path, "error": f"cannot read {path}: {_unreadable(path)}"}
            status = 1
        else:
            started = time.perf_counter()
            detections = detector(image)
            ms = (time.perf_counter() - started) * 1000
            dice = dice_to_json(detections, colours)
            result = {"image": path, "width": image.shape[1], "height": image.shape[0], "ms": round(ms, 1),
                      "dice": dice}  # fmt: skip
            if args.save_annotated:
                name = os.path.splitext(os.path.basename(path))[0] + ".annotated.jpg"
                cv2.imwrite(os.path.join(args.save_annotated, name), annotate(image, detections))
        if args.json:
            _emit(result, sys.stdout)
        else:
            _print_detections(result)
    return status


def _print_detections(result: dict[str, Any]) -> None:
    if "error" in result:
        print(f"{result['image']}: ERROR {result['error']}")
        return
    dice = result["dice"]
    pips = sorted(d["pips"] for d in dice)
    print(f"{result['image']}: {len(dice)} dice in {result['ms']} ms ({result['width']}x{result['height']}); "
          f"pips {' '.join(map(str, pips)) or '-'}, total {sum(pips)}")  # fmt: skip
    for d in dice:
        x0, y0, x1, y1 = d["box"]
        big = " Biggy" if d["biggy"] else ""
        print(
            f"  {d['pips']}  {d['colour']:<7}{big:<7} at ({x0:.0f},{y0:.0f})-({x1:.0f},{y1:.0f})  {d['confidence']:.2f}"
        )


def run_mat(args: argparse.Namespace) -> int:
    """Writes the printable play mat (PDF, or PNG when the name ends in .png)."""
    from functools import partial

    import cv2

    from referee.errors import RefereeError
    from referee.game import find_game
    from vision.mat import MATS, draw_mat, write_mat_pdf
    from vision.zones import CalibrationError

    try:
        game = find_game(args.game).name
    except RefereeError as error:
        print(f"dice-referee mat: {error}", file=sys.stderr)
        return 2
    if game not in MATS and game != "just-4-fun":
        print(f"dice-referee mat: {game} has no mat (mats: {', '.join(MATS)}, just-4-fun)", file=sys.stderr)
        return 2
    if game == "just-4-fun":  # the board of fields and spots (vision.board)
        from vision.board import BOARD, draw_board, write_board_pdf

        draw, write = partial(draw_board, layout=BOARD), partial(write_board_pdf, layout=BOARD)
    else:
        draw, write = partial(draw_mat, layout=MATS[game]), partial(write_mat_pdf, layout=MATS[game])
    try:
        if args.out.lower().endswith(".png"):
            if not cv2.imwrite(args.out, draw(args.dpi / 25.4)):
                raise OSError(f"cannot write {args.out}")
            pages = 1
        else:
            pages = write(args.out, args.paper, args.dpi)
    except CalibrationError as error:
        print(f"dice-referee mat: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"dice-referee mat: cannot write {args.out}: {error.strerror or error}", file=sys.stderr)
        return 2
    what = "one A3 sheet" if pages == 1 else f"{pages} {args.paper} sheets to tape together"
    print(f"play mat written to {args.out} ({what}); print it at 100 % scale")
    return 0


def run_calibrate(args: argparse.Namespace) -> int:
    """Writes a calibration file from the play area's four corners (for a table without the mat)."""
    import numpy as np

    from referee.errors import RefereeError
    from referee.game import find_game
    from vision.zones import CalibrationError, calibrate_corners, save_calibration

    try:
        game = find_game(args.game).name
        corners = np.array([[float(v) for v in point.split(",")] for point in args.corners.split()])
        width, _, height = args.size.partition("x")
        calibration = calibrate_corners(corners, float(width), float(height), game)
        save_calibration(calibration, args.out)
    except (ValueError, CalibrationError, RefereeError) as error:
        print(f"dice-referee calibrate: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"dice-referee calibrate: cannot write {args.out}: {error.strerror or error}", file=sys.stderr)
        return 2
    print(f"calibration written to {args.out}: play area {args.size} mm, zones laid out like the mat "
          "(move them by editing the file); use it with: dice-referee watch SOURCE --calibration "
          f"{args.out}")  # fmt: skip
    return 0


def run_watch(args: argparse.Namespace) -> int:
    """Referees a game from a camera, a video, a folder of images, or the built-in rendered game."""
    import random
    from pathlib import Path

    from referee.errors import RefereeError
    from referee.game import find_ruleset, game_of
    from referee.lasvegas.simulate import seeded_deal
    from referee.lasvegas.state import new_game
    from referee.record import record_lines
    from vision.capture import CaptureError, FrameSource, open_source
    from vision.detect import MODELS, ModelError, table_reader
    from vision.pipeline import referee_pipeline, report_lines
    from vision.zones import CalibrationError, load_calibration

    def fail(message: str) -> int:
        print(f"dice-referee watch: {message}", file=sys.stderr)
        return 2

    if args.reader == "truth" and args.source != "builtin":
        return fail("--reader truth reads the built-in game's own labels: it needs the source 'builtin'")
    game = None
    source: FrameSource
    try:
        if args.source == "builtin":
            from vision.synth.game import RenderedGame

            players = args.players.split(",") if args.players else ["red", "blue", "green"]
            width, _, height = args.size.partition("x")
            game = RenderedGame(seed=args.seed if args.seed is not None else 2026, players=players,
                                rules="+".join([args.game, *(args.variant or [])]), size=(int(width), int(height)),
                                rounds=args.rounds)  # fmt: skip
            rules, source, seed = game.ruleset, game, game.seed
        else:
            if not args.players:
                return fail("--players is required (colours in seat order, e.g. --players red,blue,green)")
            rules = find_ruleset(args.game, args.variant or ())
            players = args.players.split(",")
            new_game(rules, players)  # the players are checked before the camera is opened
            source = open_source(args.source, on_status=lambda news: print(
                f"dice-referee watch: camera {args.source}: {news}", file=sys.stderr, flush=True),
                give_up_after_s=args.give_up_after)  # fmt: skip
            seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
        state = new_game(rules, players)
        calibration = load_calibration(args.calibration) if args.calibration else None
    except (RefereeError, CaptureError, CalibrationError, ValueError) as error:
        return fail(str(error))
    if game is not None and args.reader == "truth":
        reader = game.truth_reader()
    else:
        try:
            models = MODELS if args.models is None else Path(args.models)
            reader = table_reader(models)
        except ModelError as error:
            return fail(str(error))
    pipeline = referee_pipeline(reader, state, seeded_deal(state, seed), calibration=calibration)
    record: TextIO | None = None
    if args.record:
        try:
            record = open(args.record, "w", encoding="utf-8")  # noqa: SIM115 - kept open for the whole game
            record.write(next(record_lines(state)) + "\n")
            record.flush()
        except OSError as error:
            return fail(f"cannot write {args.record}: {error.strerror}")
    last: list[Any] = []
    event_json = game_of(state).event_to_json  # the game's, for the record
    try:
        for frame in source.frames():
            report = pipeline.process(frame)
            if report.calibration is None and frame.index % 300 == 30:
                print("dice-referee watch: no calibration yet: put the play mat in view (dice-referee mat) or "
                      "pass --calibration FILE (dice-referee calibrate)", file=sys.stderr)  # fmt: skip
            for verdict in report.verdicts:
                if record is not None and verdict.replaces is not None:  # a history read again: rewrite the record
                    record.close()
                    record = _rewrite_record(args.record, pipeline.observer.state)
                elif record is not None and verdict.kind == "event" and verdict.event is not None:
                    record.write(json.dumps(event_json(verdict.event)) + "\n")
                    record.flush()
            for line in report_lines(report, last):
                if args.json:
                    _emit(line, sys.stdout)
                elif line["type"] == "event":
                    print(f"[{line['time_s']:7.2f}s] {line.get('text', line['event'])}")
                    for casino in line.get("payout", {}).get("casinos", []):
                        print(f"            casino {casino['casino']}: {'; '.join(casino['reasons'])}")
                elif line["type"] in ("alert", "uncertain"):
                    print(f"[{line['time_s']:7.2f}s] {line['type'].upper()}: {line['reason']}")
    except CaptureError as error:  # the source failed while refereeing: what was said and recorded stays
        print(f"dice-referee watch: {error}", file=sys.stderr)
        return 1
    finally:
        if record is not None:
            record.close()
    return 0


def _rewrite_record(path: str, state: GameState) -> TextIO:
    """Rewrites a game record from ``state``; returns it open for appending.

    Atomic: a crash leaves the old file or the new one, never half of it.
    """
    import os

    from referee.record import record_lines

    temporary = f"{path}.tmp"
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.writelines(line + "\n" for line in record_lines(state))
    os.replace(temporary, path)
    return open(path, "a", encoding="utf-8")


def run_serve(args: argparse.Namespace) -> int:
    """Serves the live referee page (Flask) with one background producer on the source."""
    import ipaddress
    import logging
    import secrets

    from werkzeug.serving import make_server

    loopback = args.host == "localhost" or _is_loopback(args.host, ipaddress)  # "" binds every interface
    if not loopback and not args.lan:
        print(f"dice-referee serve: {args.host} is reachable from other machines; add --lan to serve there "
              "(an access token is then required)", file=sys.stderr)  # fmt: skip
        return 2
    token = args.token or (secrets.token_urlsafe(16) if args.lan else None)
    allowed = [*(args.allow_host or []), *(_lan_names(args.host) if args.lan else [])]
    config = {"SOURCE": args.source, "READER": args.reader, "MODELS": args.models, "CALIBRATION": args.calibration,
              "DATABASE_URL": args.database, "NEW_DATABASE": args.new_database, "TOKEN": token,
              "ALLOWED_HOSTS": allowed}  # fmt: skip
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    from web.app import create_app, start_demo_game
    from web.service import StartError
    from web.store import StoreError

    try:
        app = create_app(config)
        if args.source == "builtin":
            start_demo_game(app)
    except (StoreError, StartError) as error:
        print(f"dice-referee serve: {error}", file=sys.stderr)
        return 2
    try:
        server = make_server(args.host, args.port, app, threaded=True)
    except OSError as error:
        print(f"dice-referee serve: cannot listen on {args.host or '*'}:{args.port}: {error.strerror}", file=sys.stderr)
        return 2
    query = f"/?token={token}" if token else "/"
    shown = args.host if args.host not in ("", "0.0.0.0", "::") else (allowed[0] if allowed else "localhost")
    print(f"dice-referee: the referee's page is at http://{shown}:{args.port}{query} (Ctrl+C to stop)", flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()
    return 0


def _lan_names(host: str) -> list[str]:
    """The names and addresses other machines may use for this one (the Host header they send)."""
    import socket

    names = {host} if host not in ("", "0.0.0.0", "::") else set()
    try:
        hostname = socket.gethostname()
        names |= {hostname, socket.getfqdn(), *socket.gethostbyname_ex(hostname)[2]}
    except OSError:
        pass
    try:
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
        names.add(probe.getsockname()[0])
        probe.close()
    except OSError:
        pass
    return sorted(n for n in names if n)


def _is_loopback(host: str, ipaddress: Any) -> bool:
    try:
        return bool(ipaddress.ip_address(host).is_loopback)
    except ValueError:
        return False


def run_rules(args: argparse.Namespace) -> int:
    """Lists the games and variants the referee knows."""
    from referee.lasvegas.rules import RULESETS, VARIANTS

    for rules in RULESETS:
        minimum = rules.minimum_usd_for(rules.min_players)
        print(f"{rules.name}: {rules.min_players}-{rules.max_players} players, {rules.rounds} rounds, "
              f"{rules.dice_per_player} dice each, minimum ${minimum:,} per casino")  # fmt: skip
    print("variants (combine with +, e.g. las-vegas+neutral+biggy):")
    for variant in VARIANTS:
        aliases = f" (also: {', '.join(variant.aliases)})" if variant.aliases else ""
        print(f"  {variant.name}: {variant.summary}{aliases}")
    return 0


def _add_game_arguments(parser: argparse.ArgumentParser, players_required: bool) -> None:
    """--players, --variant, --seed and --game, shared by the commands that play random games."""
    if players_required:
        parser.add_argument("--players", type=int, required=True, help="number of players")
    else:
        parser.add_argument("--players", type=int, default=4, help="number of players (default 4)")
    parser.add_argument("--variant", action="extend", nargs="+", metavar="NAME",
                        help="variant(s) to apply (see 'dice-referee rules'); repeatable")  # fmt: skip
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--game", default="las-vegas", help="game name (default las-vegas)")


def _add_camera_arguments(parser: argparse.ArgumentParser) -> None:
    """--calibration, --models and --reader, shared by the commands that watch a table."""
    parser.add_argument("--calibration", metavar="FILE", help="calibration file (not needed with the play mat)")
    parser.add_argument("--models", metavar="DIR", help="folder holding dice_detector/ and die_reader/")
    parser.add_argument("--reader", choices=("model", "truth"), default="model",
                        help="'truth': read the built-in game's own labels instead of the model (a check of "
                        "everything but the detector)")  # fmt: skip


def _command(sub: Any, name: str, handler: Handler, summary: str, description: str) -> argparse.ArgumentParser:
    """A subcommand: its parser, its one-line help and description, and the function that runs it."""
    parser: argparse.ArgumentParser = sub.add_parser(name, help=summary, description=description)
    parser.set_defaults(handler=handler)
    return parser


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="dice-referee",
        description="Referee dice games on a real table: rules engine, camera pipeline and live page.",
    )
    parser.add_argument("--version", action="version", version=f"dice-referee {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    _command(
        sub,
        "settle",
        run_settle,
        "settle tables given as JSON lines on stdin",
        "Reads one table per line on stdin and writes its payout as one JSON line. "
        'Input: {"game": "las-vegas", "neutral": ["white"], "casinos": [{"casino": 1, '
        '"dice": {"red": 3}, "biggy": {"red": 1}, "banknotes": [60000, 20000]}, ...]}. '
        'A malformed line gets {"error": ...}; the other lines are still answered and the exit status is 1.',
    )

    simulate = _command(
        sub,
        "simulate",
        run_simulate,
        "play random legal games and check the referee's invariants",
        "Plays G random legal games from a seed and prints a JSON summary: games_per_s and "
        "the invariants checked (money conserved, every die placed once per round, preview equals "
        "settlement, cancelled owners paid nothing, rounds played). Exit status 1 if one fails.",
    )
    _add_game_arguments(simulate, players_required=True)
    simulate.add_argument("--games", type=int, default=100, help="games to play (default 100)")

    replay = _command(
        sub,
        "replay",
        run_replay,
        "replay a game record (JSON lines) and print its state",
        "Replays a game record written by the referee, checking every event against the "
        "rules, and prints the final table notation, money and standings as JSON.",
    )
    replay.add_argument("record", help="path of the .jsonl game record")
    replay.add_argument("--steps", action="store_true", help="print the table notation after every event")

    play = _command(
        sub,
        "play",
        run_play,
        "play and narrate one random legal game",
        "Plays one random legal game from a seed and narrates every deal, roll, placement "
        "and settlement with its reasons; --record writes the game record (JSON lines).",
    )
    _add_game_arguments(play, players_required=False)
    play.add_argument("--notation", action="store_true", help="print the table notation after every event")
    play.add_argument("--record", metavar="FILE", help="write the game record to FILE")

    detect = _command(
        sub,
        "detect",
        run_detect,
        "find and read every die in images",
        "Finds every die in the images (files or folders) and reads its pips, colour and "
        'size. With --json, one line per image: {"image", "width", "height", "ms", "dice": '
        '[{"box": [x0, y0, x1, y1], "pips", "colour", "biggy", "confidence", "colour_scores": '
        '{"name": probability}}]}. With --colours, each die\'s colour is one of those names and its '
        "colour_scores are over them (over every palette colour without). An unreadable "
        'file gets {"image", "error"}, the rest are still read, and the exit status is 1.',
    )
    stones = _command(
        sub,
        "stones",
        run_stones,
        "read the stones on Just 4 Fun's printed board in images",
        "Finds the printed board (dice-referee mat --game just-4-fun) by its markers and reads which colour's "
        'stone lies on each spot. One JSON line per image: {"image", "width", "height", "ms", "stones": '
        '[{"field": 1-36, "spot": 0-3 (the side of seat 0 near, 1 left, 2 far, 3 right) or "centre", '
        '"colour"}]}. An unreadable file or no board in view gets {"image", "error"}, the rest are still read, '
        "and the exit status is 1.",
    )
    stones.add_argument("paths", nargs="+", metavar="PATH", help="image files or folders of images")
    stones.add_argument("--colours", required=True, metavar="NAME,NAME,...", help="the stone colours in play")
    stones.add_argument("--layout", metavar="N,N,...", help="your board's 36 field numbers row by row from the "
                        "far-left corner (default: the board dice-referee prints)")  # fmt: skip

    detect.add_argument("paths", nargs="+", metavar="PATH", help="image files or folders of images")
    detect.add_argument("--json", action="store_true", help="one JSON line per image")
    detect.add_argument("--save-annotated", metavar="DIR", help="write each image with its dice labelled")
    detect.add_argument("--confidence", type=float,
                        help="the detector's threshold: the mean score a die needs over the looks (default 0.3), "
                             "or with --second-look the score a look gives it (default 0.35)")  # fmt: skip
    detect.add_argument("--second-look", type=int, default=None, metavar="PX",
                        help="read each image in one look at 416 and, where it may have missed a die, a "
                             "second at this input size (e.g. 512; 0: one look, as the camera's frames are "
                             "read) instead of the default: six looks (416, 512, 640 px, each also mirrored) "
                             "voting on each die")  # fmt: skip
    detect.add_argument("--colours", metavar="NAME,NAME,...",
                        help="the dice colours in play (e.g. red,blue,green,white): every die is read as one "
                             "of them")  # fmt: skip
    detect.add_argument(
        "--models",
        metavar="DIR",
        help="folder holding dice_detector/ and die_reader/ (default: the repository's models/)",
    )

    mat = _command(
        sub,
        "mat",
        run_mat,
        "write the printable play mat (PDF)",
        "Writes the play mat: six numbered casinos, a rolling area and four ArUco markers that "
        "calibrate the camera automatically. One A3 sheet, or two A4/letter sheets to tape together.",
    )
    mat.add_argument("--out", default="mat.pdf", help="output file, .pdf (default mat.pdf) or .png")
    mat.add_argument("--paper", choices=("a3", "a4", "letter"), default="a3", help="sheet size (default a3)")
    mat.add_argument("--dpi", type=int, default=150, help="resolution of the drawing (default 150)")
    mat.add_argument("--game", default="las-vegas", help="whose mat: las-vegas (default), las-vegas-royale (the "
                     "dice arena with the ring of casinos) or just-4-fun (its board of 36 fields)")  # fmt: skip

    calibrate = _command(
        sub,
        "calibrate",
        run_calibrate,
        "calibrate a table without the mat from its four corners",
        "Writes a calibration file for a table without the play mat: the pixel positions of the "
        "play area's four corners in the camera image, clockwise from the far-left one, and the area's size. "
        "The mat's zones are laid out over the area; edit the file to move them.",
    )
    calibrate.add_argument(
        "--corners",
        required=True,
        metavar="'X,Y X,Y X,Y X,Y'",
        help="the four corners in pixels, clockwise from far-left",
    )
    calibrate.add_argument("--size", default="420x297", help="play area WIDTHxDEPTH in mm (default 420x297)")
    calibrate.add_argument("--out", default="instance/calibration.json", help="calibration file to write")
    calibrate.add_argument("--game", default="las-vegas", help="whose zones to lay out: las-vegas (default) or "
                           "las-vegas-royale (the ring of casinos around the dice arena)")  # fmt: skip

    watch = _command(
        sub,
        "watch",
        run_watch,
        "referee a game from a camera or video",
        "Watches a table and referees the game. SOURCE is a camera index (0), a video file, a "
        "folder of images, a stream URL, or 'builtin' (a rendered game of Las Vegas on the play mat). With "
        '--json, one line per change: {"type": "table", "frame", "time_s", "casinos": [settle input shape], '
        '"preview": {settle output}}, {"type": "event", "event": "placed", "player", "casino", "count", ...}, '
        '{"type": "alert", "reason"} and {"type": "uncertain", "reason"} (a reading held back).',
    )
    watch.add_argument("source", help="camera index, video file, image folder, stream URL, or 'builtin'")
    watch.add_argument("--players", help="player colours in seat order, e.g. red,blue,green")
    watch.add_argument("--game", default="las-vegas", help="game name (default las-vegas)")
    watch.add_argument("--variant", action="extend", nargs="+", metavar="NAME", help="variant(s) to apply")
    watch.add_argument("--seed", type=int, help="seed of the virtual banknote deal (and of the built-in game)")
    watch.add_argument("--rounds", type=int, help="builtin: film only the first N rounds")
    watch.add_argument("--size", default="1280x720", help="builtin: frame size WxH (default 1280x720)")
    watch.add_argument("--json", action="store_true", help="JSON lines instead of sentences")
    watch.add_argument("--record", metavar="FILE", help="write the game record (JSON lines) as it happens")
    watch.add_argument(
        "--give-up-after",
        type=_seconds,
        default=60.0,
        metavar="SECONDS",
        help="a camera or stream that gives no frame for this long ends the watch, exit 1 (default 60)",
    )
    _add_camera_arguments(watch)

    serve = _command(
        sub,
        "serve",
        run_serve,
        "serve the live referee page",
        "Serves the referee's web page: the camera with every die labelled, live payouts, alerts, "
        "scores, setup, calibration, corrections and the history of every game (SQLite by default).",
    )
    serve.add_argument(
        "--source",
        default="builtin",
        help="camera index, video, image folder, stream URL, or 'builtin' (default: the built-in rendered game)",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=_port, default=8000, help="port, 1-65535 (default 8000)")
    serve.add_argument("--lan", action="store_true", help="allow serving beyond this machine (needs a token)")
    serve.add_argument("--token", help="access token for --lan (default: a random one, printed)")
    serve.add_argument("--database", help="SQLAlchemy database URL (default: SQLite in ./instance)")
    serve.add_argument(
        "--new-database",
        action="store_true",
        help="make the database if its file is missing or empty (the default one is made at once)",
    )
    serve.add_argument(
        "--allow-host",
        action="append",
        metavar="NAME",
        help="another name this server answers to, e.g. referee.local (repeatable)",
    )
    _add_camera_arguments(serve)

    _command(sub, "rules", run_rules, "list games and variants", "Lists games and variants.")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    handler: Handler = args.handler
    # A warning (e.g. an observation model measured for other weights) is one plain line on stderr.
    plain, warnings.formatwarning = warnings.formatwarning, lambda message, *_, **__: (
        f"dice-referee {args.command}: warning: {message}\n")  # fmt: skip
    try:
        return handler(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    finally:
        warnings.formatwarning = plain


if __name__ == "__main__":
    raise SystemExit(main())
