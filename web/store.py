"""The game log in a real database: every game, and every record of it, appended and committed at once.

States and events are the game's own: the store finds the game of each stored rule set in the
registry and works through its interface (:class:`referee.game.Game`), so it keeps any game.

SQLite by default (write-ahead logging, so readers never block the referee), any SQLAlchemy URL by
configuration. Nothing is ever overwritten: a correction is a new record (``undo`` cancels an earlier
event; a manual ``event`` adds one), each with who made it and when, so killing the server mid-round
loses nothing already shown and a restart replays the game to where it was.

Records (``kind``): ``event`` (a referee event in the game-record JSON shape, by the camera or a
person), ``undo`` (cancels the event with sequence number ``body["seq"]``), ``alert`` and
``uncertain`` (what the referee said, kept for the history).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import JSON, ForeignKey, Integer, String, create_engine, event, func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from referee import Game, find_game

__all__ = ["GameInfo", "Record", "Store"]


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
    """``playing``, ``over`` or ``abandoned``."""

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
    """The database of games. Thread-safe: each call opens its own short session and commits."""

    def __init__(self, url: str) -> None:
        options: dict[str, Any] = {}
        if url.startswith("sqlite"):
            options["connect_args"] = {"check_same_thread": False, "timeout": 30}
        self.engine = create_engine(url, **options)
        if url.startswith("sqlite"):
            _sqlite_wal(self.engine)
        _Base.metadata.create_all(self.engine)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._games: dict[int, Game] = {}

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with self._sessions() as session, session.begin():
            yield session

    def new_game(self, ruleset: str, players: list[str], names: dict[str, str], neutral: str | None, seed: int,
                 deal: str = "virtual") -> int:  # fmt: skip
        """Stores a new game (its rules and players are checked first) and returns its id.

        Raises:
            RefereeError: for an unknown rule set or players the game does not allow.
        """
        game_rules = find_game(ruleset)
        rules = game_rules.find_ruleset(ruleset)
        game_rules.from_header(rules, {"players": players, "neutral": neutral})  # raises for impossible setups
        with self._session() as session:
            game = _Game(created_at=_now(), ruleset=rules.name, players=players, names=names,
                         neutral=neutral, seed=seed, deal=deal, status="playing")  # fmt: skip
            session.add(game)
            session.flush()
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
        return game.from_header(game.find_ruleset(info.ruleset), {"players": info.players, "neutral": info.neutral})

    def states(self, game_id: int) -> list[Any]:
        """The game's states, from the start to now, one per effective event (replayed, rules checked)."""
        state = self.initial_state(game_id)
        apply = self._game_of(game_id).apply
        states = [state]
        for _, event_ in self.events(game_id):
            state = apply(state, event_)
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


def _info(game: _Game) -> GameInfo:
    return GameInfo(game.id, game.created_at, game.ruleset, list(game.players), dict(game.names), game.neutral,
                    game.seed, game.deal, game.status)  # fmt: skip
