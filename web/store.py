"""The game log in a real database: every game, and every record of it, appended and committed at once.

States and events are the game's own: the store finds the game of each stored rule set in the
registry and works through its interface (:class:`referee.game.Game`), so it keeps any game.

SQLite by default (write-ahead logging, so readers never block the referee), any SQLAlchemy URL by
configuration. Nothing is ever overwritten: a correction is a new record (``undo`` cancels an earlier
event; a manual ``event`` adds one), each with who made it and when, so killing the server mid-round
loses nothing already shown and a restart replays the game to where it was.

One writer: a :class:`Store` opened with ``writer=True`` holds an exclusive lock on the SQLite file
(``<file>.lock``, released by the system when the process dies, even by ``kill -9``), so a second
``serve`` on the same database refuses to start instead of interleaving its camera's events with the
first one's. A database that cannot be read is a :class:`StoreError` with one line saying what to do;
a game whose records no longer replay is a :class:`BrokenGameError` naming the record, and the other
games stay readable.

Records (``kind``): ``event`` (a referee event in the game-record JSON shape, by the camera or a
person), ``undo`` (cancels the event with sequence number ``body["seq"]``), ``alert`` and
``uncertain`` (what the referee said, kept for the history).
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar

from sqlalchemy import JSON, ForeignKey, Integer, String, create_engine, event, func, select, text
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from referee import Game, find_game
from referee.errors import RefereeError

__all__ = ["MAX_ID", "BrokenGameError", "GameInfo", "Record", "Store", "StoreError"]

MAX_ID = (1 << 63) - 1
"""The largest id an SQL integer holds (a larger one in a URL is simply not found)."""


class StoreError(RuntimeError):
    """The database cannot be used: damaged, not ours, missing, or written by another ``serve``."""


class BrokenGameError(RefereeError):
    """A stored game whose records no longer replay; the message names the record that fails."""

    def __init__(self, game_id: int, message: str) -> None:
        super().__init__(f"game {game_id} no longer replays: {message}")
        self.game_id = game_id


class _Base(DeclarativeBase):
    pass


class _Game(_Base):
    __tablename__ = "games"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created_at: Mapped[str] = mapped_column(String(40))
    ruleset: Mapped[str] = mapped_column(String(200))
    players: Mapped[list[str]] = mapped_column(JSON)
    names: Mapped[dict[str, str]] = mapped_column(JSON)
    neutral: Mapped[str | None] = mapped_column(String(20), nullable=True)
    seed: Mapped[int] = mapped_column(Integer)
    deal: Mapped[str] = mapped_column(String(20))
    status: Mapped[str] = mapped_column(String(20), default="playing")


class _Record(_Base):
    __tablename__ = "records"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    at: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(20))
    who: Mapped[str] = mapped_column(String(80))
    body: Mapped[dict[str, Any]] = mapped_column(JSON)


@dataclass(frozen=True)
class GameInfo:
    """One game as stored."""

    id: int
    created_at: str
    ruleset: str
    players: list[str]
    """Colours in seat order."""
    names: dict[str, str]
    """Colour -> the player's name."""
    neutral: str | None
    seed: int
    """Seed of the virtual banknote deal."""
    deal: str
    """``virtual`` (dealt from the seed and shown on screen) or ``manual`` (entered to match the table)."""
    status: str
    """``playing``, ``over``, ``abandoned`` or ``broken`` (its records no longer replay)."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return dict(self.__dict__)


@dataclass(frozen=True)
class Record:
    """One record of a game's log."""

    seq: int
    at: str
    kind: str
    who: str
    body: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return dict(self.__dict__)


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds")


def _sqlite_wal(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()


class Store:
    """The database of games. Thread-safe: each call opens its own short session and commits.

    Args:
        url: an SQLAlchemy URL (``sqlite:///path``).
        create: a missing or empty (0-byte) SQLite file becomes a new database; otherwise it is refused.
        writer: hold the database's writer lock (one ``serve`` per database).

    Raises:
        StoreError: a missing or empty file without ``create``, a damaged file or not a dice-referee
            database, or one another process is writing.
    """

    def __init__(self, url: str, *, create: bool = True, writer: bool = False) -> None:
        options: dict[str, Any] = {}
        sqlite = url.startswith("sqlite")
        path = make_url(url).database if sqlite else None
        self.path = path if path and path != ":memory:" else None
        if self.path is not None:
            _check_file(self.path, create)
        self._lock = _WriterLock(self.path) if writer and self.path is not None else None
        if sqlite:
            options["connect_args"] = {"check_same_thread": False, "timeout": 30}
        self.engine = create_engine(url, **options)
        if sqlite:
            _sqlite_wal(self.engine)
        try:
            if self.path is not None:
                with self.engine.connect() as connection:
                    result = connection.execute(text("PRAGMA quick_check")).scalar()
                if result != "ok":
                    raise StoreError(_damaged(self.path, str(result)))
            _Base.metadata.create_all(self.engine)
            with self.engine.connect() as connection:  # our columns, not another program's tables
                connection.execute(select(_Game).limit(1)).all()
                connection.execute(select(_Record).limit(1)).all()
        except SQLAlchemyError as error:
            self.close()
            detail = str(getattr(error, "orig", None) or error).splitlines()[0]
            raise StoreError(_damaged(self.path or url, detail)) from None
        except StoreError:
            self.close()
            raise
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._games: dict[int, Game] = {}

    def close(self) -> None:
        """Closes the connections and lets another writer in."""
        if getattr(self, "engine", None) is not None:
            self.engine.dispose()
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with self._sessions() as session, session.begin():
            yield session

    def new_game(self, ruleset: str, players: list[str], names: dict[str, str], neutral: str | None, seed: int,
                 deal: str = "virtual", setup: dict[str, Any] | None = None) -> int:  # fmt: skip
        """Stores a new game (its rules and players are checked first) and returns its id.

        ``setup``: what else its header holds (a board game's ``layout``), kept as the game's first record.

        Raises:
            RefereeError: for an unknown rule set or players the game does not allow.
        """
        game_rules = find_game(ruleset)
        rules = game_rules.find_ruleset(ruleset)
        game_rules.from_header(rules, {"players": players, "neutral": neutral, **(setup or {})})  # raises if impossible
        with self._session() as session:
            game = _Game(created_at=_now(), ruleset=rules.name, players=players, names=names,
                         neutral=neutral, seed=seed, deal=deal, status="playing")  # fmt: skip
            session.add(game)
            session.flush()
            if setup:
                session.add(_Record(game_id=game.id, seq=1, at=_now(), kind="setup", who="setup", body=setup))
            return int(game.id)

    def game(self, game_id: int) -> GameInfo | None:
        """A stored game, or None."""
        with self._session() as session:
            game = session.get(_Game, game_id)
            return _info(game) if game is not None else None

    def games(self) -> list[GameInfo]:
        """Every game, newest first."""
        with self._session() as session:
            return [_info(g) for g in session.scalars(select(_Game).order_by(_Game.id.desc()))]

    def current(self) -> GameInfo | None:
        """The newest game still being played, if any."""
        with self._session() as session:
            game = session.scalars(select(_Game).where(_Game.status == "playing").order_by(_Game.id.desc())).first()
            return _info(game) if game is not None else None

    def set_status(self, game_id: int, status: str) -> None:
        """Marks a game ``over`` or ``abandoned``."""
        with self._session() as session:
            game = session.get(_Game, game_id)
            if game is not None:
                game.status = status

    def append(self, game_id: int, kind: str, who: str, body: dict[str, Any]) -> Record:
        """Appends one record and commits it before returning."""
        json.dumps(body)  # refuse what cannot be stored before touching the database
        with self._session() as session:
            last = session.scalar(select(func.max(_Record.seq)).where(_Record.game_id == game_id))
            record = _Record(game_id=game_id, seq=(last or 0) + 1, at=_now(), kind=kind, who=who, body=body)
            session.add(record)
            return Record(record.seq, record.at, kind, who, body)

    def records(self, game_id: int) -> list[Record]:
        """Every record of a game, in order."""
        with self._session() as session:
            rows = session.scalars(select(_Record).where(_Record.game_id == game_id).order_by(_Record.seq))
            return [Record(r.seq, r.at, r.kind, r.who, dict(r.body)) for r in rows]

    def events(self, game_id: int) -> list[tuple[Record, Any]]:
        """The game's effective events (undone ones left out), with their records."""
        read = self._game_of(game_id).event_from_json
        records = self.records(game_id)
        undone = {int(r.body["seq"]) for r in records if r.kind == "undo"}
        return [(r, read(r.body)) for r in records if r.kind == "event" and r.seq not in undone]

    def initial_state(self, game_id: int) -> Any:
        """The state before any event.

        Raises:
            KeyError: for an unknown game.
        """
        info = self._known(game_id)
        game = self._game_of(game_id)
        with self._session() as session:
            first = session.scalar(select(_Record).where(_Record.game_id == game_id, _Record.seq == 1))
            setup = dict(first.body) if first is not None and first.kind == "setup" else {}
        header = {"players": info.players, "neutral": info.neutral, **setup}
        return game.from_header(game.find_ruleset(info.ruleset), header)

    def states(self, game_id: int, undo: int | None = None) -> list[Any]:
        """The game's states, from the start to now, one per effective event (replayed, rules checked).

        ``undo``: the states as they would be with the event of that sequence number undone too (an undo
        is checked before it is stored).

        Raises:
            KeyError: for an unknown game.
            BrokenGameError: a record that does not replay (named with its sequence number and content).
        """
        info = self._known(game_id)
        try:
            state = self.initial_state(game_id)
            game = self._game_of(game_id)
        except RefereeError as error:
            raise BrokenGameError(game_id, f"its setup ({info.ruleset}, {info.players}): {error}") from None
        records = self.records(game_id)
        undone = {r.body.get("seq") for r in records if r.kind == "undo"} | {undo}
        states = [state]
        for record in records:
            if record.kind != "event" or record.seq in undone:
                continue
            try:
                state = game.apply(state, game.event_from_json(record.body))
            except (RefereeError, TypeError, KeyError) as error:
                raise BrokenGameError(game_id, f"record {record.seq} {json.dumps(record.body)}: {error}") from None
            states.append(state)
        return states

    def state(self, game_id: int) -> Any:
        """The game as it stands now."""
        return self.states(game_id)[-1]

    def append_event(self, game_id: int, event_: Any, who: str) -> Record:
        """Appends a referee event (in the game-record shape)."""
        return self.append(game_id, "event", who, self._game_of(game_id).event_to_json(event_))

    def _known(self, game_id: int) -> GameInfo:
        info = self.game(game_id)
        if info is None:
            raise KeyError(game_id)
        return info

    def _game_of(self, game_id: int) -> Game:
        """The rules of a stored game (found once: a game's rule set never changes)."""
        game = self._games.get(game_id)
        if game is None:
            game = self._games[game_id] = find_game(self._known(game_id).ruleset)
        return game


def _check_file(path: str, create: bool) -> None:
    if create or (os.path.exists(path) and os.path.getsize(path) > 0):
        return
    what = "no database file" if not os.path.exists(path) else "the database file is empty (0 bytes)"
    raise StoreError(f"{path}: {what}; to start a new database there, pass --new-database")


def _damaged(where: str, detail: str) -> str:
    return (f"{where} is not a readable dice-referee database ({detail[:120]}): move it away (keep a copy), "
            "then start with --new-database, or pass --database with another file")  # fmt: skip


class _WriterLock:
    """An exclusive ``flock`` on ``<database>.lock``, holding the owner's process id."""

    _held: ClassVar[dict[str, list[Any]]] = {}  # path -> [file, count]: one process may open its own database twice

    def __init__(self, database: str) -> None:
        import fcntl

        self.path = os.path.abspath(database) + ".lock"
        held = self._held.get(self.path)
        if held is not None:
            held[1] += 1
            return
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        handle = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 - held for the process's life
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.seek(0)
            owner = handle.read().strip() or "unknown"
            handle.close()
            raise StoreError(f"{database} is being written by another dice-referee (process {owner}): stop it "
                             "first, or pass --database with another file") from None  # fmt: skip
        handle.truncate(0)
        handle.write(str(os.getpid()))
        handle.flush()
        self._held[self.path] = [handle, 1]

    def release(self) -> None:
        held = self._held.get(self.path)
        if held is None:
            return
        held[1] -= 1
        if held[1] == 0:
            held[0].close()  # closing the file releases the lock
            del self._held[self.path]


def _info(game: _Game) -> GameInfo:
    return GameInfo(game.id, game.created_at, game.ruleset, list(game.players), dict(game.names), game.neutral,
                    game.seed, game.deal, game.status)  # fmt: skip
