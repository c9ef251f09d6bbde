"""The rooms server's store: rooms, players, moves, results and the online daily, in SQLite
(one server) or PostgreSQL (any number of servers sharing it).

One layer for both databases: the schema and every statement are the same
(:mod:`forage.net.database`: ``MIGRATIONS``, ``SQL``), and a ``Database`` runs them on one
or the other.

- **SQLite** (the default): ``server.sqlite3`` in the server's data folder
  (:func:`forage.paths.data_dir`), its schema version in ``PRAGMA user_version``, WAL mode.
  The one server keeps its rooms in memory and stores each batch of changes in one
  transaction before any player is told of them; on start it reads back the rooms not yet
  ended (:meth:`RoomStore.live_rooms`).
- **PostgreSQL** (:mod:`forage.net.postgres`, ``forage serve --db postgresql://...``): the
  database is the truth. Each action on a room is one transaction that locks the room's
  row (:meth:`RoomStore.locked`), stores what changed with the room's new version, and
  tells the other servers (the messages for players connected elsewhere, then a
  notification) when it commits.

Tokens are kept only as their SHA-256; a day's secret only on the server.
"""

from __future__ import annotations

import contextlib
import json
import uuid
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from forage.engine import Deal
from forage.net.daily import DayDeal, Finished, new_secret, secret_deal
from forage.net.database import (
    CHANNEL,
    STAMP,
    Conflict,
    Database,
    Ran,
    SqliteDatabase,
    StoreFault,
)
from forage.net.protocol import EndReason, ResultLine, name_skeleton
from forage.net.rooms import (
    ConnectionChanged,
    Created,
    Ended,
    Event,
    HostChanged,
    Kind,
    Moved,
    Phase,
    PlayerAdded,
    PlayerStatus,
    Rematched,
    Started,
    Status,
    StoredEnd,
    StoredPlayer,
    StoredRoom,
    TryStarted,
)
from forage.paths import SERVER_FILE, data_dir
from forage.record import MoveIn, placement_json, placement_of


@dataclass(frozen=True)
class LiveRooms:
    """The rooms read back on start, and one line for each stored room that could not be."""

    rooms: list[StoredRoom]
    problems: list[str]


@dataclass(frozen=True)
class StoredResult:
    """One player's result in an ended room, as stored."""

    player: int
    rank: int
    name: str
    final: int
    won: bool
    record: dict[str, Any]


@dataclass(frozen=True)
class Registered:
    """A name the online daily knows: as its player wrote it, its token's hash, and its key
    (:func:`~forage.net.protocol.name_key`, as its tries are stored under)."""

    name: str
    token: str
    key: str


@dataclass(frozen=True)
class DailyTry:
    """A player's try at a day's daily: its room, and whether it has ended."""

    room: str
    ended: bool


@dataclass(frozen=True)
class Relayed:
    """A message stored for a player connected to another server (``server``)."""

    player: int
    text: str
    server: str = ""


@dataclass(frozen=True)
class Locked:
    """A room's row held by a transaction: its stored version, and the server holding each
    player's connection as the transaction began (None: disconnected)."""

    version: int
    holders: dict[int, str | None]


@dataclass(frozen=True)
class RelayedAt:
    """A stored message and the room's version that told it."""

    version: int
    told: Relayed


def _now() -> str:
    """The time now as stored: ISO 8601 in UTC, to the microsecond."""
    return datetime.now(UTC).strftime(STAMP)


def stamp(moment: float) -> str:
    """A moment (seconds since the epoch) as stored times are written."""
    return datetime.fromtimestamp(moment, UTC).strftime(STAMP)


def open_database(url: str | None = None, folder: Path | None = None) -> Database:
    """The store's database: PostgreSQL at ``url`` (``postgresql://...``), else the SQLite
    file in ``folder`` (the data folder by default); raises StoreError in one line."""
    if url is None:
        return SqliteDatabase.open((folder if folder is not None else data_dir()) / SERVER_FILE)
    from forage.net.postgres import PostgresDatabase  # psycopg: only for PostgreSQL

    return PostgresDatabase.open(url)


class RoomStore:
    """The store, open. Methods raise StoreFault (Conflict for a key written meanwhile) if
    the database fails meanwhile."""

    def __init__(self, db: Database) -> None:
        """A store on an open, migrated database."""
        self.db = db
        self.server = uuid.uuid4().hex
        """This server's name among those sharing the database."""
        self._writers: dict[type, Callable[[str, Any, str], None]] = {
            Created: self._created,
            PlayerAdded: self._player_added,
            PlayerStatus: self._status,
            HostChanged: self._host,
            Started: self._started,
            Moved: self._moved,
            Ended: self._ended,
            ConnectionChanged: self._connection,
            TryStarted: self._try_started,
            Rematched: self._rematched,
        }
        self.fill_skeletons()

    @classmethod
    def open(cls, folder: Path | None = None, url: str | None = None) -> RoomStore:
        """Open (or create) the store: PostgreSQL at ``url``, else ``server.sqlite3`` in
        ``folder`` (the data folder by default); raises StoreError naming what is wrong."""
        return cls(open_database(url, folder))

    @property
    def shared(self) -> bool:
        """Whether other servers may share the database."""
        return self.db.shared

    @property
    def where(self) -> str:
        """The database as messages name it."""
        return self.db.where

    def close(self) -> None:
        """Close the database."""
        self.db.close()

    def _run(self, statement: str, /, **params: Any) -> Ran:
        return self.db.run(statement, **params)

    # -- writing ------------------------------------------------------------------------------

    def apply(self, code: str, events: Sequence[Event]) -> None:
        """Store what an action changed in a room, in one transaction."""
        self.apply_all([(code, events)])

    def apply_all(self, changes: Sequence[tuple[str, Sequence[Event]]]) -> None:
        """Store what actions changed in rooms (each room's code with its events, in order),
        all in one transaction."""
        if not any(events for _, events in changes):
            return
        with self.db.transaction():
            for code, events in changes:
                self.write(code, events)

    def open_room(
        self, code: str, events: Sequence[Event], active: float, deadline: float | None
    ) -> None:
        """Store a room just made (its first version), in one transaction; raises Conflict
        if a room or daily try of the same key was stored meanwhile."""
        with self.db.transaction():
            self.write(code, events)
            self.set_state(code, 1, active, deadline)

    def write(self, code: str, events: Sequence[Event]) -> None:
        """Store a room's events (in the caller's transaction)."""
        now = _now()
        for event in events:
            self._writers[type(event)](code, event, now)

    def _created(self, code: str, event: Created, now: str) -> None:
        seed = None if event.seed is None else str(event.seed)
        self._run(
            "add_room",
            code=code,
            kind=event.kind.value,
            deal=event.deal.code,
            deck=event.deck,
            seed=seed,
            now=now,
        )

    def _player_added(self, code: str, event: PlayerAdded, now: str) -> None:
        self._run(
            "add_player",
            code=code,
            player=event.player,
            name=event.name,
            token=event.token,
            now=now,
            server=self.server,
        )

    def _status(self, code: str, event: PlayerStatus, now: str) -> None:
        self._run("set_status", code=code, player=event.player, status=event.status.value)

    def _connection(self, code: str, event: ConnectionChanged, now: str) -> None:
        server = self.server if event.connected else None
        self._run(
            "set_connection", code=code, player=event.player, server=server, since=event.since
        )

    def _host(self, code: str, event: HostChanged, now: str) -> None:
        self._run("set_host", code=code, host=event.host)

    def _started(self, code: str, event: Started, now: str) -> None:
        self._run("start", code=code, now=now)

    def _moved(self, code: str, event: Moved, now: str) -> None:
        move = json.dumps(placement_json(event.placement), separators=(",", ":"))
        self._run("add_move", code=code, player=event.player, turn=event.turn, move=move, now=now)

    def _ended(self, code: str, event: Ended, now: str) -> None:
        self._run("end", code=code, now=now, at=event.at, reason=str(event.reason))
        self._run("try_ended", code=code)
        for rank, line in enumerate(event.results, 1):
            self._run(
                "add_result",
                code=code,
                player=line.player,
                rank=rank,
                name=line.name,
                final=line.final,
                won=int(line.won),
                record=json.dumps(line.record, separators=(",", ":")),
            )

    def _try_started(self, code: str, event: TryStarted, now: str) -> None:
        self._run("add_try", day=event.day.isoformat(), key=event.key, code=code, now=now)

    def _rematched(self, code: str, event: Rematched, now: str) -> None:
        """Nothing kept: the new room is stored as its own."""

    # -- several servers on one database -------------------------------------------------------

    @contextmanager
    def locked(self, code: str) -> Iterator[Locked | None]:
        """A transaction holding a room's row: the room's stored version and who holds its
        players' connections, read in one go (None: no such room). What is written within
        is committed together at the end."""
        with self.db.batched(), self.db.transaction():
            rows = self._run("lock_room", code=code).rows
            if not rows:
                yield None
                return
            holders = {int(p): None if s is None else str(s) for _, p, s in rows if p is not None}
            yield Locked(int(rows[0][0]), holders)

    def set_state(self, code: str, version: int, active: float, deadline: float | None) -> None:
        """Store a room's version, when a player last acted and its next deadline."""
        self._run("set_state", code=code, version=version, active=active, deadline=deadline)

    def tell(self, code: str, version: int, told: Sequence[Relayed], sent: float) -> None:
        """Keep the messages of a room's version for players connected to other servers,
        and tell the servers of the version (when the transaction commits)."""
        for seq, message in enumerate(told):
            self._run(
                "add_message",
                code=code,
                version=version,
                seq=seq,
                server=message.server,
                player=message.player,
                body=message.text,
                sent=sent,
            )
        self._run("notify", channel=CHANNEL, payload=f"{code} {version}")

    def notifications(self) -> AsyncIterator[str]:
        """The other servers' notifications of room changes (``CODE VERSION``), as they come;
        raises StoreFault when the connection fails."""
        return self.db.notifications()

    def told_since(self, code: str, version: int) -> list[RelayedAt]:
        """The messages of a room's versions after ``version`` for players connected to this
        server that other servers stored, in order."""
        rows = self._run("messages_since", code=code, version=version, server=self.server).rows
        return [RelayedAt(int(at), Relayed(int(p), str(body), self.server)) for at, p, body in rows]

    def holders(self, code: str) -> dict[int, str | None]:
        """The server holding each player's connection in a room (None: disconnected)."""
        rows = self._run("holders", code=code).rows
        return {int(p): None if s is None else str(s) for p, s in rows}

    def forget_told(self, before: float) -> None:
        """Drop the messages kept for other servers before a time."""
        self._run("drop_messages", before=before)

    def due_rooms(self, now: float, most: int = 100) -> list[str]:
        """Rooms not ended whose deadline has come (as stored), soonest first."""
        return [str(code) for (code,) in self._run("due_rooms", now=now, most=most).rows]

    def seen(self, at: float) -> None:
        """Say that this server is running, at ``at``."""
        self._run("seen", id=self.server, seen=at)

    def dead_servers(self, before: float) -> list[str]:
        """The servers last seen before a time."""
        return [str(found) for (found,) in self._run("dead_servers", before=before).rows]

    def held_by(self, server: str) -> list[tuple[str, int]]:
        """The (room, player) connections a server holds, as stored."""
        return [(str(r), int(p)) for r, p in self._run("held_by", id=server).rows]

    def drop_server(self, server: str) -> None:
        """Forget a server."""
        self._run("drop_server", id=server)

    # -- reading ------------------------------------------------------------------------------

    def knows(self, code: str) -> bool:
        """Whether a room of this code was ever stored."""
        return bool(self._run("room_known", code=code).rows)

    def live_rooms(self) -> LiveRooms:
        """Every room not yet ended, as stored; a room that cannot be read is named instead."""
        rooms, problems = [], []
        for row in self._run("live_rooms").rows:
            try:
                rooms.append(self._room(row))
            except (ValueError, TypeError, KeyError) as exc:
                problems.append(f"room {row[0]}: cannot be read ({exc})")
        return LiveRooms(rooms, problems)

    def room(self, code: str) -> StoredRoom | None:
        """A room as stored, ended or not (None: no such room); raises ValueError for one
        that cannot be read."""
        rows = self._run("room", code=code).rows
        if not rows:
            return None
        try:
            return self._room(rows[0])
        except (TypeError, KeyError) as exc:
            raise ValueError(f"room {code}: cannot be read ({exc})") from None

    def _room(self, row: tuple[Any, ...]) -> StoredRoom:
        code, kind, deal, deck, seed, host, status, version, active, ended_at, reason, day = row
        players = tuple(
            StoredPlayer(
                int(player),
                str(name),
                str(token),
                Status(state),
                connected=server is not None,
                gone_since=None if gone is None else float(gone),
            )
            for player, name, token, state, server, gone in self._run("players_of", code=code).rows
        )
        moves = tuple(
            Moved(int(player), int(turn), placement_of(MoveIn.model_validate_json(move)))
            for player, turn, move in self._run("moves_of", code=code).rows
        )
        ended = None
        if status == Phase.ENDED.value:
            lines = tuple(
                ResultLine(player=r.player, name=r.name, final=r.final, won=r.won, record=r.record)
                for r in self.results(code)
            )
            ended = StoredEnd(EndReason(reason), float(ended_at or 0.0), lines)
        return StoredRoom(
            code=code,
            kind=Kind(kind),
            deal=Deal.from_code(deal),
            deck=int(deck),
            seed=None if seed is None else int(seed),
            host=None if host is None else int(host),
            phase=Phase(status),
            players=players,
            moves=moves,
            version=int(version),
            active=None if active is None else float(active),
            day=None if day is None else date.fromisoformat(day),
            ended=ended,
        )

    def results(self, code: str) -> list[StoredResult]:
        """An ended room's results, highest final first (none for another room)."""
        return [
            StoredResult(int(p), int(rank), str(name), int(final), bool(won), json.loads(record))
            for p, rank, name, final, won, record in self._run("results_of", code=code).rows
        ]

    # -- the online daily -----------------------------------------------------------------------

    def day_deal(self, day: date, draw: Callable[[], int] = new_secret) -> DayDeal:
        """A day's deal, dealt from a fresh secret (``draw``) if the day has none yet. No two
        days have the same secret: the store refuses one already used, and another is
        drawn."""
        for _ in range(100):
            rows = self._run("day", day=day.isoformat()).rows
            if rows:
                secret, deal = rows[0]
                return DayDeal(day, int(secret), Deal.from_code(deal))
            secret = draw()
            self._run(
                "add_day",
                day=day.isoformat(),
                seed=str(secret),
                deal=secret_deal(secret).code,
                now=_now(),
            )
        raise StoreFault(f"{self.where}: no new secret for {day} after 100 draws")

    def past_deal(self, day: date) -> Deal | None:
        """A day's deal if one was dealt (for a day that is over)."""
        rows = self._run("day", day=day.isoformat()).rows
        return Deal.from_code(rows[0][1]) if rows else None

    def registered(self, key: str) -> Registered | None:
        """The name the daily knows under a name's key, else one that reads as that name
        (the same :func:`~forage.net.protocol.name_skeleton`)."""
        rows = self._run("name", key=key, skeleton=name_skeleton(key)).rows
        return Registered(str(rows[0][0]), str(rows[0][1]), str(rows[0][2])) if rows else None

    def register(self, key: str, name: str, token: str) -> bool:
        """Register a name with its token's hash; False if it, or a name that reads as it,
        was registered meanwhile."""
        skeleton = name_skeleton(name)
        ran = self._run("add_name", key=key, name=name, skeleton=skeleton, token=token, now=_now())
        return ran.count == 1

    def fill_skeletons(self) -> None:
        """Give the daily's names registered without a skeleton theirs, the first registered
        first. One that reads as a name before it keeps none: it is still found by its
        key, and a name that reads as both finds the first."""
        for key, name in self._run("unskeletoned").rows:
            with contextlib.suppress(Conflict):
                self._run("set_skeleton", key=key, skeleton=name_skeleton(str(name)))

    def daily_try(self, day: date, key: str) -> DailyTry | None:
        """A player's try at a day's daily, if they have one."""
        rows = self._run("try", day=day.isoformat(), key=key).rows
        return DailyTry(str(rows[0][0]), rows[0][1] == Phase.ENDED.value) if rows else None

    def ended_tries(self, day: date) -> int:
        """How many of a day's tries have ended (the board changes when this does)."""
        rows = self._run("ended_tries", day=day.isoformat()).rows
        return int(rows[0][0]) if rows else 0

    def finished(self, day: date) -> list[Finished]:
        """A day's tries that have ended: highest final first, ties by who finished first."""
        return [
            Finished(str(name), int(final), stamp(float(ended)))
            for name, final, ended in self._run("finished", day=day.isoformat()).rows
        ]

    def daily_record(self, day: date, key: str) -> dict[str, Any] | None:
        """The game record of a player's ended try at a day's daily."""
        rows = self._run("daily_record", day=day.isoformat(), key=key).rows
        if not rows:
            return None
        record: dict[str, Any] = json.loads(rows[0][0])
        return record
