"""The rooms service: the rooms of one server, the clients playing in them, and the store
behind them, with no web server in it (:mod:`forage.net.server` serves it at ``/play``).

A client (:class:`Peer`) sends messages (:mod:`forage.net.protocol`); the service hands
each to its room (:mod:`forage.net.rooms`), stores what changed (:mod:`forage.net.store`)
and only then tells whom the room says. Who may make or join a room is the admission's
(:mod:`forage.net.admission`).

Told means stored: no message tells of a change before the change is committed. Every call
on the database runs on the store's own threads (:mod:`forage.net.patience`), never on the
event loop, so a lock held elsewhere or a database gone away slows only the actions that need
it; a call that fails is tried again until it works (the players waiting on it are told the
server is busy), and nobody is dropped from a room for the database's fault. With SQLite,
changes are stored in one transaction for all that were made while the last was being
stored, and each message waits for the batch holding its room's latest change. A new room
or daily try is stored before it is served. With PostgreSQL, shared by several servers,
each action is its own transaction on the room's locked row, and the servers pass each
other the messages for their players through the database (a table and NOTIFY;
:mod:`forage.net.keeping`). The rooms' waits and idle times run as timers on the event loop,
calling :meth:`~forage.net.rooms.Room.tick` when each room's deadline comes; servers
sharing a database also tick, every :attr:`~forage.net.admission.ServerRules.sweep_seconds`,
the rooms whose stored deadline has come, whichever server held them.

The online daily (``daily``) is a room of one on the day's deal (:mod:`forage.net.daily`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from dataclasses import dataclass, replace
from datetime import date
from typing import Any, Final, TypeVar

from forage.engine import Deal
from forage.engine.deal import SEED_LIMIT
from forage.net.admission import Admission, Refusal, ServerRules
from forage.net.daily import PAGE_PATH, Board, board, daily_rules, day_of, is_over
from forage.net.database import Conflict, StoreFault
from forage.net.keeping import Acted, Acting, Action, Keeping, LocalKeeping, SharedKeeping
from forage.net.patience import FaultLog, StoreThreads, persist
from forage.net.peer import GOING_AWAY, POLICY_VIOLATION, TOO_BIG, TRY_AGAIN_LATER, Peer
from forage.net.protocol import (
    BUSY_TEXT,
    CLOSING,
    CODE_ALPHABET,
    CODE_LENGTH,
    GAVE_UP_TEXT,
    REPLACED,
    BadMessage,
    BusyOut,
    ClientMessage,
    CreateIn,
    DailyIn,
    EndOut,
    ErrorCode,
    ErrorOut,
    JoinIn,
    LeaveIn,
    PlaceIn,
    ProgressOut,
    RejoinIn,
    RematchIn,
    StartIn,
    TooLarge,
    TurnOut,
    chosen_token,
    error,
    message_text,
    name_key,
    new_token,
    read_client_message,
    room_code,
)
from forage.net.rooms import (
    Kind,
    Phase,
    Room,
    RoomRules,
    StoredRoom,
    TryStarted,
    Update,
    token_hash,
)
from forage.net.store import DailyTry, RoomStore

log: Final = logging.getLogger("forage.rooms")
T = TypeVar("T")

BOARDS_KEPT: Final = 8
"""How many days' boards a server keeps built."""
LONGEST_TIMER: Final = 600.0
"""The longest a room's timer is set for; one that goes off before the deadline is set again."""


def new_code() -> str:
    """A fresh, unguessable room code."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


@dataclass(frozen=True)
class Shown:
    """A day's board as built, its JSON, and how many of the day's tries had ended."""

    board: Board
    text: str
    ended: int


@dataclass(frozen=True)
class Waiting:
    """A message for a client that waits until the batch ``after`` is stored."""

    after: int
    client: Peer
    text: str
    progress: bool


class RoomService:
    """The rooms of one server, the clients playing in them, and the store behind them: each
    client's message handed to its room (:attr:`keeping` acts on it and stores what it
    changed, :mod:`forage.net.keeping`), then the room's messages sent to whom it says once
    what they tell of is stored."""

    def __init__(
        self,
        store: RoomStore,
        rules: ServerRules | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """A server of rooms kept in ``store``; ``clock`` gives the time in seconds since the
        epoch (the servers sharing a database share their times, and the daily's day is
        the UTC date of it)."""
        self.store = store
        self.rules = rules or ServerRules()
        self.clock = clock
        self.rooms: dict[str, Room] = {}
        self.seats: dict[tuple[str, int], Peer] = {}
        self.threads = StoreThreads(store.db.writers)
        """Where the store's calls run."""
        self.faults = FaultLog()
        self._timers: dict[str, tuple[float, asyncio.TimerHandle]] = {}
        """Each room's timer, and the deadline it is set for."""
        self._waiting: list[Waiting | None] = []
        """Messages waiting for their batch to be stored, in the order sent."""
        self._progress_at: dict[Peer, int] = {}
        """Where each client's ``progress`` waits (dropped if news follows it)."""
        self._stopping = False
        """The server is stopping: connections that end leave their rooms as stored."""
        self.admission = Admission(self.rules)
        self._tasks: set[asyncio.Task[None]] = set()
        self._boards: dict[date, Shown] = {}
        """The boards last built, by day."""
        self.keeping: Keeping = SharedKeeping(self) if store.shared else LocalKeeping(self)
        """How the rooms are acted on and stored."""

    # -- starting and stopping -----------------------------------------------------------------

    def start(self) -> None:
        """Begin serving (on the running event loop): one server reads back its live rooms;
        a server sharing its database says it is running and starts listening to the
        others."""
        self.keeping.start()

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run work on the event loop, kept until it ends (cancelled when the server stops)."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def stop(self, peers: Iterable[Peer]) -> None:
        """Stop serving: nothing more is done to the rooms, the ``peers`` are closed (each
        after what it was told), and what was changed is stored (for a while)."""
        self._stopping = True
        for task in list(self._tasks):
            task.cancel()
        for _, handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        await self.keeping.stop()
        await asyncio.gather(*(peer.close(GOING_AWAY) for peer in peers), return_exceptions=True)
        await self.drained(self.rules.close_seconds)

    async def close(self) -> None:
        """Close the store, once the changes being stored are."""
        await self.keeping.close()
        await asyncio.get_running_loop().run_in_executor(None, self.threads.close)
        self.store.close()

    def stopping(self) -> bool:
        """Whether the server is stopping."""
        return self._stopping

    def rules_of(self, stored: StoredRoom) -> RoomRules:
        """The rules a stored room lives by: a daily try's close with its day."""
        if stored.kind is Kind.DAILY and stored.day is not None:
            return daily_rules(self.rules.room, stored.day)
        return self.rules.room

    # -- what clients are told -------------------------------------------------------------

    def send(
        self,
        client: Peer,
        text: str,
        *,
        after: int = 0,
        progress: bool = False,
        news: bool = False,
    ) -> None:
        """Send a message to a client once the batch ``after`` (holding the changes it
        tells of) is stored: at once if it is.

        ``news`` (a ``progress``, a call or the end) drops the client's ``progress`` still
        waiting, which it makes out of date; ``progress``: this is one.
        """
        if client.closing:
            return
        if after <= self.keeping.stored:
            client.put(text)
            return
        if news:
            waiting = self._progress_at.pop(client, None)
            if waiting is not None:
                self._waiting[waiting] = None
        if progress:
            self._progress_at[client] = len(self._waiting)
        self._waiting.append(Waiting(after, client, text, progress))

    def release(self, stored: int) -> None:
        """Send the waiting messages whose changes are now stored (the first ``stored``
        batches)."""
        waiting, self._waiting = self._waiting, []
        self._progress_at.clear()
        for item in waiting:
            if item is None:
                continue
            if item.after <= stored:
                item.client.put(item.text)
                continue
            if item.progress:
                self._progress_at[item.client] = len(self._waiting)
            self._waiting.append(item)

    def drop_waiting(self, upto: int) -> None:
        """Send none of the messages waiting for the first ``upto`` batches (not stored)."""
        self._waiting = [item for item in self._waiting if item and item.after > upto]

    def lose(self, code: str) -> None:
        """A room whose changes cannot be stored leaves memory; its players are told it is
        gone, and nothing of what it did since it was last stored."""
        room = self.rooms.pop(code, None)
        self.admission.forget(code)
        for key in [key for key in self.seats if key[0] == code]:
            client = self.seats[key]
            self._unbind(client)
            self._waiting = [w for w in self._waiting if w is None or w.client is not client]
            self.tell(client, ErrorCode.NO_ROOM, "your room could not be stored: make another")
        if room is not None:
            held = self._timers.pop(code, None)
            if held is not None:
                held[1].cancel()

    def busy_waiting(self, upto: int) -> None:
        """Tell each client whose messages wait for the first ``upto`` batches that the
        database is slow."""
        told: set[Peer] = set()
        for item in self._waiting:
            if item is not None and item.after <= upto and item.client not in told:
                told.add(item.client)
                self._busy(item.client)

    def _busy(self, client: Peer) -> None:
        """Tell a client that what it sent waits on the database."""
        self.send(client, message_text(BusyOut(message=BUSY_TEXT)))

    def waits(self, client: Peer) -> bool:
        """Whether messages for a client wait for changes to be stored."""
        return any(item is not None and item.client is client for item in self._waiting)

    async def drained(self, seconds: float) -> None:
        """Wait (at most ``seconds``) until every change made so far is stored."""
        await self.keeping.drained(seconds)

    def tell(self, client: Peer, code: ErrorCode, message: str) -> None:
        """Send an error after which the connection stays open."""
        self.send(client, message_text(error(code, message)))

    def fatal(self, client: Peer, code: ErrorCode, message: str) -> None:
        """Send an error after which the connection closes (``rate``, ``too-large``)."""
        assert code in CLOSING
        self.tell(client, code, message)
        client.closing = True
        client.close_code = TOO_BIG if code is ErrorCode.TOO_LARGE else POLICY_VIOLATION

    def _gave_up(self, client: Peer) -> None:
        """The database did not answer an action for too long: nothing was told of it; the
        client is asked to connect again and send it again."""
        self.send(client, message_text(BusyOut(message=GAVE_UP_TEXT)))
        client.closing = True
        client.close_code = TRY_AGAIN_LATER

    async def gone(self, client: Peer) -> None:
        """A connection has ended: its room waits for the player."""
        code, player = client.room, client.player
        self._unbind(client)
        if self._stopping or code is None or player is None or (code, player) in self.seats:
            return
        now = self.clock()
        try:
            acted = await self._act(
                code,
                functools.partial(Room.disconnect, player=player, now=now),
                holder=(player, self.store.server),
            )
        except StoreFault as exc:  # another server waits for the player once this one stops
            log.error("forage serve: room %s: could not store a lost connection (%s)", code, exc)
            return
        if acted is not None:
            self.deliver(acted)

    # -- messages ---------------------------------------------------------------------------

    async def on_text(self, client: Peer, text: bytes) -> None:
        """Read a client's message and do what it asks."""
        try:
            message = read_client_message(text)
        except TooLarge as exc:
            self.fatal(client, ErrorCode.TOO_LARGE, str(exc))
            return
        except BadMessage as exc:
            self.tell(client, ErrorCode.BAD_MESSAGE, str(exc))
            return
        try:
            await self._dispatch(client, message)
        except StoreFault as exc:
            log.error("forage serve: gave up waiting for the database (%s)", exc)
            self._gave_up(client)

    async def _dispatch(self, client: Peer, message: ClientMessage) -> None:
        if isinstance(message, CreateIn | JoinIn | RejoinIn | DailyIn):
            client.asked = True
            if client.room is not None:  # the room as stored now (another server may end it)
                seen = await self._act(client.room, _looked)
                if seen is None or seen.room.phase is Phase.ENDED:
                    self._unbind(client)  # done with its results: on to another room
            if client.room is not None:
                self.tell(
                    client, ErrorCode.BAD_MESSAGE, f"you are in room {client.room}: leave it first"
                )
            elif isinstance(message, CreateIn):
                await self._create(client, message)
            elif isinstance(message, DailyIn):
                await self._daily(client, message)
            else:
                await self._join(client, message)
            return
        code, player = client.room, client.player
        if code is None or player is None:
            self.tell(client, ErrorCode.NO_ROOM, "you are not in a room: create or join one")
            return
        if isinstance(message, RematchIn):
            await self._rematch(client, code, player)
            return
        now = self.clock()
        action: Action
        if isinstance(message, StartIn):
            action = functools.partial(Room.start, player=player, now=now)
        elif isinstance(message, PlaceIn):
            action = functools.partial(Room.place, player=player, message=message, now=now)
        else:
            action = functools.partial(Room.leave, player=player, now=now)
        acted = await self._act(code, action, actor=player, client=client)
        if acted is None:
            self._unbind(client)
            self.tell(client, ErrorCode.NO_ROOM, "your room is no longer on this server")
            return
        self.deliver(acted)
        if isinstance(message, LeaveIn):
            self._unbind(client)

    async def _fresh_code(self) -> str:
        """A room code no room has had."""
        code = new_code()
        while code in self.rooms or await self.threads.read(self.store.knows, code):
            code = new_code()
        return code

    async def _create(self, client: Peer, message: CreateIn) -> None:
        refusal = self.admission.create(client.address, client.local, list(self.rooms.values()))
        if refusal is not None:
            self._refuse(client, refusal)
            return
        await self._new_room(client, message.name, message.recipes, message.deck)

    async def _new_room(self, client: Peer, name: str, recipes: bool, deck: int) -> Room:
        """A room on a new deal made, stored and served, the client its host."""
        seed = secrets.randbelow(SEED_LIMIT)
        deal = Deal.from_seed(seed, recipes=recipes, deck=deck)
        room, update = Room.create(
            await self._fresh_code(),
            deal,
            name,
            new_token(),
            self.clock(),
            deck=deck,
            seed=seed,
            rules=self.rules.room,
        )
        await self._open(client, room, update)
        self.admission.made(room.code, client.address)
        return room

    async def _rematch(self, client: Peer, code: str, player: int) -> None:
        """The host of an ended room opens a new room on a new deal (the same deck and
        recipes), stored before the room's other players still connected are told its code;
        they join it as any room."""
        checked = functools.partial(Room.may_rematch, player=player)
        acted = await self._act(code, checked, actor=player, client=client)
        if acted is None:
            self._unbind(client)
            self.tell(client, ErrorCode.NO_ROOM, "your room is no longer on this server")
            return
        if acted.update.sends:  # refused
            self.deliver(acted)
            return
        refusal = self.admission.create(client.address, client.local, list(self.rooms.values()))
        if refusal is not None:
            self._refuse(client, refusal)
            return
        old = acted.room
        self._unbind(client)
        new = await self._new_room(
            client, old.seats[player].name, old.deal.recipes is not None, old.deck
        )
        told = functools.partial(Room.rematched, player=player, room=new.code)
        invited = await self._act(code, told, actor=player)
        if invited is not None:
            self.deliver(invited)

    async def _open(self, client: Peer, room: Room, update: Update) -> None:
        """A room just made, with the client its first player: stored before anyone is
        told, then served. Raises Conflict if another server stored a room of the same key
        meanwhile."""
        room.version = 1
        await self.persist(
            lambda: self.threads.write(
                self.store.open_room, room.code, update.events, room.active, room.deadline()
            ),
            client,
        )
        self.rooms[room.code] = room
        self._bind(client, room.code, 1)
        self.deliver(Acted(room, replace(update, events=[])))

    async def persist(self, attempt: Callable[[], Awaitable[T]], client: Peer | None) -> T:
        """An action's call on the store, tried until it works or the server gives up
        (StoreFault); ``client`` is told meanwhile that the server is slow."""
        return await persist(
            attempt,
            self.faults,
            self.rules.patience,
            busy=None if client is None else functools.partial(self._busy, client),
            stopping=lambda: self._stopping,
        )

    async def _join(self, client: Peer, message: JoinIn | RejoinIn) -> None:
        now = self.clock()
        blocked = self.admission.may_try(client.address, now)
        if blocked is not None:
            self._refuse(client, blocked)
            return
        code = room_code(message.room)
        if isinstance(message, JoinIn):
            token = new_token()
            action: Action = functools.partial(Room.join, name=message.name, token=token, now=now)
        else:
            action = functools.partial(Room.rejoin, token=message.token, now=now)
        acted = None if code is None else await self._act(code, action, taking=True, client=client)
        if acted is None:
            self._failed_join(client, ErrorCode.NO_ROOM, "no room has that code")
            return
        self._seat(client, acted)

    def _seat(self, client: Peer, acted: Acted) -> None:
        """Give the client the place a join or rejoin took (or tell it the refusal)."""
        room, update = acted.room, acted.update
        if update.player is None:  # refused: the one message is for this client
            refusal = update.sends[0].message
            if isinstance(refusal, ErrorOut) and refusal.code == ErrorCode.NO_ROOM:
                self._failed_join(client, ErrorCode.NO_ROOM, refusal.message)
            else:
                self.send(client, message_text(refusal))
            return
        earlier = self.seats.get((room.code, update.player))
        if earlier is not None:  # the same player on a new connection
            self._unbind(earlier)
            earlier.closing = True
            self.spawn(earlier.close(REPLACED))
        self._bind(client, room.code, update.player)
        self.deliver(acted)

    def _failed_join(self, client: Peer, code: ErrorCode, message: str) -> None:
        """Answer a failed join, counting it against the client's connection and address."""
        client.failed += 1
        closing = self.admission.failed(client.address, client.failed, self.clock())
        if closing is not None:
            self._refuse(client, closing)
        else:
            self.tell(client, code, message)

    def _refuse(self, client: Peer, refusal: Refusal) -> None:
        """Answer with the admission's refusal (the connection closes after ``rate``)."""
        if refusal.closes:
            self.fatal(client, refusal.code, refusal.message)
        else:
            self.tell(client, refusal.code, refusal.message)

    def _bind(self, client: Peer, code: str, player: int) -> None:
        client.room, client.player = code, player
        self.seats[(code, player)] = client
        self.keeping.bound(code)

    def _unbind(self, client: Peer) -> None:
        room, player = client.room, client.player
        if room is not None and player is not None and self.seats.get((room, player)) is client:
            del self.seats[(room, player)]
            if not any(key[0] == room for key in self.seats):
                self.keeping.unbound(room)
        client.room = client.player = None

    # -- the online daily ---------------------------------------------------------------------

    async def _daily(self, client: Peer, message: DailyIn) -> None:
        """The day's try of a name: registered by its first daily, resumed while it lasts,
        ``played`` once it has ended."""
        now = self.clock()
        blocked = self.admission.may_try(client.address, now)
        if blocked is not None:
            self._refuse(client, blocked)
            return
        store = self.store
        key = name_key(message.name)
        known = await self.persist(lambda: self.threads.write(store.registered, key), client)
        if known is None:
            refused = self.admission.register(client.address, now)
            if refused is not None:
                self._refuse(client, refused)
                return
            chosen = message.token
            token = chosen if chosen is not None and chosen_token(chosen) else new_token()
            hashed = token_hash(token)
            added = await self.persist(
                lambda: self.threads.write(store.register, key, message.name, hashed), client
            )
            if not added:  # registered meanwhile, elsewhere
                known = await self.persist(
                    lambda: self.threads.write(store.registered, key), client
                )
        if known is not None:
            if message.token is None or token_hash(message.token) != known.token:
                self._failed_join(
                    client,
                    ErrorCode.NAME_TAKEN,
                    f"the name {message.name!r} is registered: give its token, or choose another",
                )
                return
            token, name, key = message.token, known.name, known.key
        else:
            name = message.name
        day = day_of(now)
        for _ in range(2):  # a second time if another server began the try meanwhile
            found = await self.persist(
                lambda: self.threads.write(store.daily_try, day, key), client
            )
            if found is not None:
                await self._resume(client, found, token, now)
                return
            with contextlib.suppress(Conflict):
                await self._begin_try(client, day, key, name, token, now)
                return
        self.tell(client, ErrorCode.PLAYED, "today's try could not be found: try again")

    async def _resume(self, client: Peer, found: DailyTry, token: str, now: float) -> None:
        """Take a player back to their try, or tell them they have played."""
        if found.ended:
            self.tell(
                client,
                ErrorCode.PLAYED,
                f"you have played today's daily: see the board at {PAGE_PATH}",
            )
            return
        rejoin = functools.partial(Room.rejoin, token=token, now=now)
        acted = await self._act(found.room, rejoin, taking=True, client=client)
        if acted is None:
            self.tell(client, ErrorCode.NO_ROOM, "today's try cannot be read: try later")
            return
        self._seat(client, acted)

    async def _begin_try(
        self, client: Peer, day: date, key: str, name: str, token: str, now: float
    ) -> None:
        """A player's try at the day's deal, dealt at once; raises Conflict if another
        server began it meanwhile."""
        dealt = await self.persist(lambda: self.threads.write(self.store.day_deal, day), client)
        room, update = Room.create(
            await self._fresh_code(),
            dealt.deal,
            name,
            token,
            now,
            kind=Kind.DAILY,
            rules=daily_rules(self.rules.room, day),
        )
        started = room.start(1, now)
        update.events.extend([*started.events, TryStarted(day, key)])
        update.sends.extend(started.sends)
        await self._open(client, room, update)

    # -- a room's changes -------------------------------------------------------------------

    async def _act(
        self,
        code: str,
        action: Action,
        *,
        actor: int | None = None,
        taking: bool = False,
        holder: tuple[int, str] | None = None,
        client: Peer | None = None,
    ) -> Acted | None:
        """Do an action on a room and keep what it changed; None if there is no such room.

        One server: the room in memory, its changes stored with the next batch (its messages
        wait for it). A shared database: in one transaction holding the room's row, the room
        taken again if its stored version moved; its changes, its new version and the
        messages for players connected to other servers stored, and the servers told,
        tried until the database answers (``client``, the one acting, told meanwhile that
        it is slow; StoreFault once the server gives up). The messages for ``actor`` (the
        player acting from here) are sent here; ``taking``: the client acting takes the
        place the action gives (a join). ``holder``: do it only while that player's
        connection is held by that server.
        """
        return await self.keeping.act(code, action, Acting(actor, taking, holder, client))

    def deliver(self, acted: Acted) -> None:
        """Send an update's messages to the players connected here (once the changes are
        stored), and set the room's next timer or forget an ended room."""
        room, update = acted.room, acted.update
        after = self.keeping.after(room.code)
        texts: dict[int, str] = {}
        for send in update.sends:
            client = self.seats.get((room.code, send.to))
            if client is not None:
                message = send.message
                key = id(message)
                text = texts.get(key)
                if text is None:
                    text = texts[key] = message_text(message)
                progress = isinstance(message, ProgressOut)
                news = progress or isinstance(message, TurnOut | EndOut)
                self.send(client, text, after=after, progress=progress, news=news)
        if update.closed:
            self._forget(room)
        else:
            self._schedule(room)

    def _schedule(self, room: Room) -> None:
        """Set the room's timer for its deadline, unless one is set no later: a timer that
        goes off early finds nothing to do and is set again (so a placement, which puts the
        idle deadline off, costs no new timer)."""
        if self._stopping:
            return
        deadline = room.deadline()
        held = self._timers.get(room.code)
        if held is not None:
            if deadline is not None and held[0] <= deadline:
                return
            held[1].cancel()
            del self._timers[room.code]
        if deadline is None:
            return
        delay = min(max(0.0, deadline - self.clock()), LONGEST_TIMER)
        handle = asyncio.get_running_loop().call_later(delay, self._tick, room.code)
        self._timers[room.code] = (deadline, handle)

    def _tick(self, code: str) -> None:
        self._timers.pop(code, None)
        self.spawn(self.tick_room(code))

    async def tick_room(self, code: str) -> None:
        """What the time does to a room (any server may do it: it is the same once done)."""
        now = self.clock()
        try:
            acted = await self._act(code, functools.partial(Room.tick, now=now))
        except StoreFault as exc:  # the sweep comes back to it
            log.error("forage serve: room %s: could not store what the time did (%s)", code, exc)
            return
        if acted is not None:
            self.deliver(acted)

    def _forget(self, room: Room) -> None:
        """An ended room leaves memory (its results stay stored); its clients stay connected."""
        self.rooms.pop(room.code, None)
        self.admission.forget(room.code)
        held = self._timers.pop(room.code, None)
        if held is not None:
            held[1].cancel()
        for key in [key for key in self.seats if key[0] == room.code]:
            self._unbind(self.seats[key])

    async def drop_held(self, code: str, player: int, server: str, now: float) -> None:
        """A player's connection held by a server that has stopped: the room waits for them
        (unless another server holds it by now)."""
        drop = functools.partial(Room.disconnect, player=player, now=now)
        acted = await self._act(code, drop, holder=(player, server))
        if acted is not None:
            self.deliver(acted)

    # -- the daily's leaderboard -------------------------------------------------------------

    async def board(self, day: date) -> Shown:
        """A day's leaderboard (once the day is over, with its deal and the records), and its
        JSON; built again only when a try of the day has ended since."""
        over = is_over(day, self.clock())
        read, store = self.threads.read, self.store
        ended = await read(store.ended_tries, day)
        held = self._boards.get(day)
        if held is not None and (held.ended, held.board.over) == (ended, over):
            return held
        deal = await read(store.past_deal, day) if over else None
        made = board(day, await read(store.finished, day), over, deal)
        shown = Shown(made, made.model_dump_json(exclude_none=True), ended)
        self._boards[day] = shown
        while len(self._boards) > BOARDS_KEPT:
            del self._boards[next(iter(self._boards))]
        return shown


def _looked(room: Room) -> Update:
    """An action that changes nothing: the room as it stands (taken again where it moved)."""
    return Update()
