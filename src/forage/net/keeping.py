"""How a rooms server keeps its rooms so that nothing is told before it is stored: one way for
a server alone on its SQLite file, one for servers sharing a PostgreSQL database.

- :class:`LocalKeeping`: the rooms in memory are the truth. An action changes its room at
  once; its changes are stored in batches (all that were made while the last batch was
  being written, in one transaction, in order, tried until they are stored), and each
  message waits for the batch that holds its room's latest change (:meth:`Keeping.after`).
  On start the rooms not yet ended are read back.
- :class:`SharedKeeping`: the database is the truth, the rooms in memory copies. Each action
  is a transaction that holds the room's row, takes the room again if another server
  changed it, stores the change with the room's new version and the messages for players
  connected to other servers, and tells the servers (NOTIFY); the messages for this
  server's players are passed on as the notifications come, and a sweep does what the time
  does to rooms whose stored deadline has come, whichever server held them.

Both run every database call on the store's threads (:mod:`forage.net.patience`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Protocol, TypeVar

from forage.net.admission import ServerRules
from forage.net.database import LISTENING, Conflict, StoreFault
from forage.net.patience import FaultLog, StoreThreads, persist
from forage.net.peer import Peer
from forage.net.protocol import message_text
from forage.net.rooms import Event, Room, RoomRules, StoredRoom, Update
from forage.net.store import Relayed, RelayedAt, RoomStore

log: Final = logging.getLogger("forage.rooms")

Action = Callable[[Room], Update]
"""Something done to a room: one of :class:`~forage.net.rooms.Room`'s actions."""


@dataclass(frozen=True)
class Acted:
    """A room and what an action on it did (with a shared database, the messages that other
    servers stored for this server's players before it, to pass on first)."""

    room: Room
    update: Update
    caught: tuple[RelayedAt, ...] = ()


@dataclass(frozen=True)
class Acting:
    """Whom an action on a room comes from, and what it may do."""

    actor: int | None = None
    """The player acting from this server: their messages are sent here."""
    taking: bool = False
    """The client acting takes the place the action gives (a join)."""
    holder: tuple[int, str] | None = None
    """Act only while this player's connection is held by this server (player, server)."""
    client: Peer | None = None
    """The client acting, told meanwhile if the database is slow."""


T = TypeVar("T")


class Host(Protocol):
    """What keeping needs of the rooms service whose rooms it keeps
    (:class:`forage.net.service.RoomService`)."""

    store: RoomStore
    rules: ServerRules
    threads: StoreThreads
    faults: FaultLog
    rooms: dict[str, Room]
    seats: dict[tuple[str, int], Peer]

    def clock(self) -> float:
        """The time now."""

    def stopping(self) -> bool:
        """Whether the server is stopping."""

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run work on the event loop."""

    def rules_of(self, stored: StoredRoom) -> RoomRules:
        """The rules a stored room lives by."""

    async def persist(self, attempt: Callable[[], Awaitable[T]], client: Peer | None) -> T:
        """An action's call on the store, tried until it works or the server gives up."""

    def send(self, client: Peer, text: str) -> None:
        """Send a message to a client."""

    def deliver(self, acted: Acted) -> None:
        """Send an action's messages and set its room's timer."""

    async def tick_room(self, code: str) -> None:
        """What the time does to a room."""

    async def drop_held(self, code: str, player: int, server: str, now: float) -> None:
        """A player's connection held by a server that has stopped."""

    def release(self, stored: int) -> None:
        """Send the messages waiting for the first ``stored`` batches."""

    def drop_waiting(self, upto: int) -> None:
        """Send none of the messages waiting for the first ``upto`` batches."""

    def busy_waiting(self, upto: int) -> None:
        """Tell the clients waiting on the first ``upto`` batches that the database is slow."""

    def lose(self, code: str) -> None:
        """A room whose changes cannot be stored leaves memory."""


class Keeping(ABC):
    """How the rooms of a service are acted on and stored."""

    def __init__(self, service: Host) -> None:
        """The keeping of ``service``'s rooms (its store, threads and rules)."""
        self.service = service

    @abstractmethod
    def start(self) -> None:
        """Begin (on the running event loop)."""

    async def stop(self) -> None:  # noqa: B027 - most keep nothing to say
        """Nothing more is begun: say so where others need to know."""

    async def close(self) -> None:  # noqa: B027 - most run nothing of their own
        """Stop what runs (once what was changed is stored, or given up)."""

    @abstractmethod
    async def act(self, code: str, action: Action, acting: Acting) -> Acted | None:
        """Do an action on a room and keep what it changed; None if there is no such room
        (see :meth:`RoomService._act`)."""

    def after(self, code: str) -> int:
        """The batch a message of this room waits for (0: none)."""
        return 0

    @property
    def stored(self) -> int:
        """How many batches are stored."""
        return 0

    def bound(self, code: str) -> None:  # noqa: B027 - only a shared database follows them
        """A player of a room is connected here."""

    def unbound(self, code: str) -> None:  # noqa: B027 - only a shared database follows them
        """No player of a room is connected here any more."""

    async def drained(self, seconds: float) -> None:  # noqa: B027 - stored as it is made
        """Wait (at most ``seconds``) until every change made so far is stored."""


class LocalKeeping(Keeping):
    """A server alone on its database: the rooms in memory, their changes stored in batches."""

    def __init__(self, service: Host) -> None:
        """No change made yet."""
        super().__init__(service)
        self._changes: list[tuple[str, Sequence[Event]]] = []
        """Changes of rooms not yet taken to be stored."""
        self._taken = 0
        """How many batches of changes have been taken to be stored."""
        self._stored = 0
        """How many batches of changes are stored (in order)."""
        self._batch_of: dict[str, int] = {}
        """The batch holding each room's latest change."""
        self._wake = asyncio.Event()
        """Set when there are changes to store."""
        self._released = asyncio.Event()
        """Set each time a batch is stored."""
        self._storing: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Store changes as they come, and read back the rooms not yet ended."""
        self._storing = asyncio.get_running_loop().create_task(self._store_changes())
        self.load()

    async def close(self) -> None:
        """Stop storing."""
        if self._storing is not None:
            self._storing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._storing

    def load(self) -> int:
        """Rebuild the rooms the store holds that have not ended; how many. Each player is
        waited for from now, as if their connection had just dropped."""
        service = self.service
        now = service.clock()
        found = service.store.live_rooms()
        for problem in found.problems:
            log.warning("forage serve: %s", problem)
        for stored in found.rooms:
            try:
                room = Room.restore(stored, now, service.rules_of(stored))
            except ValueError as exc:
                log.warning("forage serve: %s", exc)
                continue
            service.rooms[room.code] = room
            update = room.tick(now)
            self._record(room.code, update.events)
            service.deliver(Acted(room, update))
        return len(found.rooms)

    async def act(self, code: str, action: Action, acting: Acting) -> Acted | None:
        """The room in memory acts; its changes are stored with the next batch."""
        room = self.service.rooms.get(code)
        if room is None:
            return None
        update = action(room)
        self._record(code, update.events)
        return Acted(room, update)

    def after(self, code: str) -> int:
        """The batch holding the room's latest change, if it is not stored yet."""
        return self._batch_of.get(code, 0)

    @property
    def stored(self) -> int:
        """How many batches are stored."""
        return self._stored

    def _record(self, code: str, events: Sequence[Event]) -> None:
        """Keep a room's changes, to be stored with the next batch."""
        if not events:
            return
        self._changes.append((code, events))
        self._batch_of[code] = self._taken + 1
        self._wake.set()

    async def _store_changes(self) -> None:
        """Store the rooms' changes, each batch in one transaction, in order, until they are
        stored; then send what waited for them."""
        service = self.service
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._changes:
                changes, self._changes = self._changes, []
                self._taken += 1
                try:
                    await self._store_batch(changes)
                except StoreFault as exc:  # only while stopping: nothing told of them
                    log.error("forage serve: %d changes not stored (%s)", len(changes), exc)
                    service.drop_waiting(self._taken)
                self._stored = self._taken
                service.release(self._stored)
                self._released.set()
                for code in [c for c, n in self._batch_of.items() if n <= self._stored]:
                    del self._batch_of[code]

    async def _store_batch(self, changes: list[tuple[str, Sequence[Event]]]) -> None:
        """Store a batch of changes, tried until it is; a room whose changes can never be
        stored (a key written meanwhile) is given up and the others stored."""
        service = self.service

        def attempt(part: list[tuple[str, Sequence[Event]]]) -> Awaitable[None]:
            return service.threads.write(service.store.apply_all, part)

        try:
            await persist(
                functools.partial(attempt, changes),
                service.faults,
                service.rules.patience,
                busy=functools.partial(service.busy_waiting, self._taken),
                forever=True,
                stopping=service.stopping,
            )
            return
        except Conflict:
            pass
        for code, events in changes:
            try:
                await persist(
                    functools.partial(attempt, [(code, events)]),
                    service.faults,
                    service.rules.patience,
                    forever=True,
                    stopping=service.stopping,
                )
            except Conflict as exc:
                log.error("forage serve: room %s: its changes cannot be stored (%s)", code, exc)
                service.lose(code)

    async def drained(self, seconds: float) -> None:
        """Wait (at most ``seconds``) until every change made so far is stored."""
        target = self._taken + (1 if self._changes else 0)

        async def stored() -> None:
            while self._stored < target:
                self._released.clear()
                await self._released.wait()

        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stored(), seconds)


class SharedKeeping(Keeping):
    """Servers sharing a database: each action a transaction on the room's locked row."""

    def __init__(self, service: Host) -> None:
        """No room acted on yet."""
        super().__init__(service)
        self._serials: dict[str, tuple[asyncio.Lock, int]] = {}
        """A lock for each room acted on, and how many hold or wait for it."""
        self._told: dict[str, int] = {}
        """For each room with players connected here, the last version whose messages for
        them from other servers have been passed on."""

    def start(self) -> None:
        """Listen to the other servers, and sweep the rooms now and then."""
        self.service.spawn(self._listen())
        self.service.spawn(self._sweep())

    async def stop(self) -> None:
        """Tell the other servers to wait for this one's players from now."""
        service = self.service
        with contextlib.suppress(StoreFault):
            await service.threads.write(service.store.seen, 0.0)

    def bound(self, code: str) -> None:
        """Pass on from now the messages other servers store for the room's players here."""
        room = self.service.rooms.get(code)
        if room is not None:
            self._told.setdefault(code, room.version)

    def unbound(self, code: str) -> None:
        """Pass on no more messages of the room."""
        self._told.pop(code, None)

    @contextlib.asynccontextmanager
    async def _serial(self, code: str) -> AsyncIterator[None]:
        """Hold a room's lock: this server acts on a room one action at a time."""
        lock, users = self._serials.get(code, (asyncio.Lock(), 0))
        self._serials[code] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._serials[code]
            if users == 1:
                del self._serials[code]
            else:
                self._serials[code] = (lock, users - 1)

    async def act(self, code: str, action: Action, acting: Acting) -> Acted | None:
        """In one transaction holding the room's row, tried until the database answers."""
        service = self.service
        async with self._serial(code):
            attempt = functools.partial(
                service.threads.write, self._in_transaction, code, action, acting
            )
            acted = await service.persist(attempt, acting.client)
            if acted is not None:
                self._pass_on(code, acted.caught, acted.room.version)
            return acted

    def _in_transaction(self, code: str, action: Action, acting: Acting) -> Acted | None:
        """:meth:`act`'s transaction, on a store thread (one action of a room at a time);
        the room's copy in memory is forgotten if the transaction fails."""
        service = self.service
        store = service.store
        try:
            with store.locked(code) as held:
                if held is None:
                    return None
                version, holders = held.version, held.holders
                holder = acting.holder
                if holder is not None and holders.get(holder[0]) != holder[1]:
                    return None  # the player's connection is held elsewhere now
                caught = self._told_since(code, version)
                room = service.rooms.get(code)
                if room is None or room.version != version:
                    room = self._reload(code)
                    if room is None:
                        return None
                update = action(room)
                if not update.events and not update.sends:
                    return Acted(room, update, caught)
                if update.events:
                    room.version = version + 1
                    store.write(code, update.events)
                    store.set_state(code, room.version, room.active, room.deadline())
                mine = {acting.actor, *((update.player, 0) if acting.taking else ())}
                others = [send for send in update.sends if send.to not in mine]
                elsewhere = [
                    Relayed(send.to, message_text(send.message), other)
                    for send in others
                    if (other := holders.get(send.to)) is not None and other != store.server
                ]
                here = [
                    send
                    for send in update.sends
                    if send.to in mine or holders.get(send.to) == store.server
                ]
                if elsewhere:
                    store.tell(code, room.version, elsewhere, service.clock())
            return Acted(room, replace(update, sends=here), caught)
        except StoreFault:
            service.rooms.pop(code, None)  # the copy may have gone further than the database
            raise

    def _reload(self, code: str) -> Room | None:
        """A room as the database has it (another server changed it)."""
        service = self.service
        try:
            stored = service.store.room(code)
            if stored is None:
                return None
            room = Room.restore(stored, service.clock(), service.rules_of(stored), as_stored=True)
        except ValueError as exc:
            log.warning("forage serve: %s", exc)
            return None
        service.rooms[code] = room
        return room

    async def _listen(self) -> None:
        """Pass on to the players connected here what other servers' actions told them;
        listen again a moment after the connection fails, passing on what was told
        meanwhile."""
        service = self.service
        while not service.stopping():
            try:
                async for payload in service.store.notifications():
                    if payload == LISTENING:
                        for code in list(self._told):
                            service.spawn(self._catch_up(code))
                    else:
                        self._on_notice(payload)
            except StoreFault as exc:
                service.faults.failed(exc)
            await asyncio.sleep(1.0)

    def _on_notice(self, payload: str) -> None:
        code, _, version = payload.partition(" ")
        if code in self._told and version.isdigit():
            self.service.spawn(self._catch_up(code, int(version)))

    async def _catch_up(self, code: str, version: int | None = None) -> None:
        """Pass on the messages other servers stored for the room's players connected here
        since the last passed on (up to at least ``version``, the room's version now known
        to be stored)."""
        service = self.service
        async with self._serial(code):
            since = self._told.get(code)
            if since is None or (version is not None and version <= since):
                return
            try:
                stored = await service.threads.read(service.store.told_since, code, since)
            except StoreFault as exc:
                service.faults.failed(exc)
                return
            self._pass_on(code, stored, version)

    def _told_since(self, code: str, version: int) -> tuple[RelayedAt, ...]:
        """The messages other servers stored for the room's players connected here after
        those passed on, if the room's stored ``version`` is past them (on a store thread)."""
        since = self._told.get(code)
        if since is None or version <= since:
            return ()
        return tuple(self.service.store.told_since(code, since))

    def _pass_on(self, code: str, stored: Sequence[RelayedAt], version: int | None) -> None:
        """Send the messages other servers stored for players connected here, and note the
        room's version up to which they are passed on."""
        since = self._told.get(code)
        if since is None:
            return
        service = self.service
        for message in stored:
            if message.version <= since:
                continue
            client = service.seats.get((code, message.told.player))
            if client is not None:
                service.send(client, message.told.text)
        latest = max((message.version for message in stored), default=since)
        self._told[code] = max(latest, since if version is None else version)

    async def _sweep(self) -> None:
        """Now and then: say this server is running, do what the time does to rooms whose
        deadline has come (whichever server last held them), wait for the players of
        servers that have stopped, and drop old messages."""
        service = self.service
        while not service.stopping():
            try:
                await self._sweep_once()
            except StoreFault as exc:
                service.faults.failed(exc)
            await asyncio.sleep(service.rules.sweep_seconds)

    async def _sweep_once(self) -> None:
        service = self.service
        now = service.clock()
        store, write = service.store, service.threads.write
        await write(store.seen, now)
        service.faults.worked()
        for code in await write(store.due_rooms, now):
            await service.tick_room(code)
        for server in await write(store.dead_servers, now - service.rules.dead_seconds):
            for code, player in await write(store.held_by, server):
                await service.drop_held(code, player, server, now)
            await write(store.drop_server, server)
        await write(store.forget_told, now - service.rules.dead_seconds)
