"""A player's link to a room: what the server has told them, kept through lost connections.

:class:`RoomState` follows the server's messages (pure: no I/O): the room and the player's
place in it, the lobby, the player's game as told (:class:`~forage.net.client.PlayerGame`),
the standings, who has placed the turn being played, the results.

:class:`RoomLink` owns the connection (a :class:`~forage.net.client.RoomClient`) on the
event loop it is opened on: it opens or joins a room, sends the player's actions, reads the
server's messages into its state and tells its watchers of each (:class:`News`). A lost
connection is opened again by itself, the player's place taken back with the token
(``rejoin``) and the state rebuilt from what the server sends again; a placement sent but
not answered is sent again. Only the player leaving, the link being closed, the room's end,
a room the server no longer has or the place taken by another connection of the player's
(:attr:`Connection.GONE`) stop it trying.

A link that keeps its seat (``keep_seat``) keeps the room's token in the data folder
(:mod:`forage.net.identity`) as soon as the server has given it, before the ``joined``
answer is acted on, and the turn being played as the room goes on; it forgets the seat once
the room has ended, the player has left it or the server no longer has it. A new program
takes the seat back with :meth:`RoomLink.rejoin`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

import aiohttp

from forage.engine import Placement
from forage.engine.rules import REASON_TEXT, Reason
from forage.files import os_problem
from forage.i18n import N_, _
from forage.net import ROOMS_CLIENT_VARIABLE, ROOMS_SERVER_VARIABLE
from forage.net.client import Closed, PlayerGame, RoomClient
from forage.net.identity import Seat, forget_seat, keep_seat
from forage.net.protocol import (
    BUSY_TEXT,
    GAVE_UP_TEXT,
    REPLACED,
    BadMessage,
    BusyOut,
    DealOut,
    EndOut,
    ErrorCode,
    ErrorOut,
    JoinedOut,
    LeftOut,
    LobbyOut,
    LobbyPlayer,
    PlacedOut,
    PlayerStanding,
    ProgressOut,
    RematchOut,
    ServerMessage,
    TurnOut,
)

CONNECT_SECONDS: Final = 10.0
"""How long opening a connection (and the server's first answer) may take."""
HEARTBEAT_SECONDS: Final = 15.0
"""A ping this often finds a server gone silent (a network that vanished) within about as
long again."""
RETRY_SECONDS: Final = (0.5, 1.0, 2.0, 4.0, 5.0)
"""The waits before each new try after a lost connection; the last one repeats."""
SEAT_TURN_SECONDS: Final = 0.5
"""How long after a turn is told its number is written to the kept seat (a rejoin's
story of every turn so far is one write)."""

LOST: Final = (Closed, aiohttp.ClientError, ConnectionError, TimeoutError, BadMessage)
"""What a connection that has ended (or that talks nonsense) raises."""


class Connection(StrEnum):
    """Where a link's connection stands."""

    OPEN = "open"
    LOST = "lost"
    """Lost: being opened again."""
    CLOSED = "closed"
    """Closed on purpose: the player left, the room ended, or the link was closed."""
    GONE = "gone"
    """The player's place cannot be taken back: the server no longer has the room, or
    another connection of the player's has it."""


class Unreachable(Exception):
    """No rooms server answered at an address; the message says why, in one line."""


ERROR_TEXT: Final[dict[str, str]] = {
    ErrorCode.BAD_MESSAGE: N_("it could not take that message"),
    ErrorCode.NO_ROOM: N_("no room has that code (it may have ended)"),
    ErrorCode.NAME_TAKEN: N_("that name is taken: choose another"),
    ErrorCode.NOT_HOST: N_("only the host can do that"),
    ErrorCode.NOT_STARTED: N_("the room has not started, or has too few players to start"),
    ErrorCode.STARTED: N_("the room has already started"),
    ErrorCode.FULL: N_("the room is full"),
    ErrorCode.ILLEGAL: N_("that placement is not allowed"),
    ErrorCode.ALREADY_PLACED: N_("you have already placed this turn"),
    ErrorCode.STALE_TURN: N_("that turn is over: the room has moved on"),
    ErrorCode.PLAYED: N_("you have played today's online daily"),
    ErrorCode.RATE: N_("too many messages: slow down"),
    ErrorCode.TOO_LARGE: N_("a message was too large"),
}
"""What each error code of the server says to a player, in their language (the server's
own text is English, the same in every language: a code not here is shown as it)."""
BUSY_TOLD: Final[dict[str, str]] = {
    BUSY_TEXT: N_(
        "the server's database is slow: what happens is told once it is stored (nothing to resend)"
    ),
    GAVE_UP_TEXT: N_("the server cannot store anything now: connect again in a moment"),
}
"""The server's ``busy`` notices, in the player's language."""


def _in_language(message: str, english: str) -> str:
    """``message`` (marked ``N_``) in the player's language, or the server's ``english``
    where there is no translation (English itself: the server's words, with their
    details)."""
    translated = _(message)
    return english if translated == message else translated


def error_told(code: str, message: str, reason: str | None = None) -> str:
    """What the server's error says, in the player's language: the sentence of its code
    (an illegal placement's R11 reason), else the server's own text."""
    if code == ErrorCode.ILLEGAL and reason in tuple(Reason):
        return _in_language(REASON_TEXT[Reason(reason)], message)
    known = ERROR_TEXT.get(code)
    return message if known is None else _in_language(known, message)


def told(message: ErrorOut | BusyOut) -> str:
    """What an ``error`` or ``busy`` message says, in the player's language."""
    if isinstance(message, BusyOut):
        known = BUSY_TOLD.get(message.message)
        return message.message if known is None else _in_language(known, message.message)
    return error_told(message.code, message.message, message.reason)


class Refused(Exception):
    """The server refused to open or join a room: its error ``code``, one-line message (the
    server's English, ``str()``) and, for ``illegal``, its reason."""

    def __init__(
        self, code: str, message: str, reason: str | None = None, own: bool = False
    ) -> None:
        """The server's error code, message and reason (``own``: a refusal the client
        makes itself, its message marked ``N_``, said as it is rather than by its code)."""
        self.code = code
        self.reason = reason
        self.own = own
        super().__init__(message)

    def translated(self) -> str:
        """The refusal in the player's language."""
        if self.own:
            message: str = self.args[0]  # marked N_ where it was raised
            return _(message)
        return error_told(self.code, str(self), self.reason)


@dataclass(frozen=True)
class News:
    """What a link tells its watchers: a message taken into its state, or a change of its
    connection."""

    message: ServerMessage | None = None
    connection: Connection | None = None


@dataclass(frozen=True)
class Pending:
    """A placement sent for a turn and not answered yet."""

    turn: int
    placement: Placement


@dataclass
class RoomState:
    """What a player has been told of their room, as it stands."""

    room: str = ""
    player: int = 0
    token: str = ""
    players: tuple[LobbyPlayer, ...] = ()
    host: int | None = None
    started: bool = False
    game: PlayerGame | None = None
    """The player's game as told, once dealt (built afresh from each ``deal``)."""
    standings: tuple[PlayerStanding, ...] = ()
    """Everyone's line when the turn being played was called (none before turn 2)."""
    progress: ProgressOut | None = None
    """Who has placed the latest turn told of, and who is waited for."""
    end: EndOut | None = None
    left: bool = False
    names: dict[int, str] = field(default_factory=dict)
    """Every player's name by number, as the lobby and standings have given them."""
    recipes: bool | None = None
    """Whether the room is a recipe challenge (None: not told before the deal; the host
    knows it from the start)."""
    called_turn: int = 0
    """The latest turn whose call was told (a rejoin's retelling does not call it anew)."""
    called_at: float | None = None
    """When that call was told, by the link's clock."""
    lost_since: dict[int, float] = field(default_factory=dict)
    """When each player whose connection is lost was first told to be, by the link's clock."""
    out: set[int] = field(default_factory=set)
    """The players told to be out of the game (left, stuck or waited out: for good)."""
    rematch: RematchOut | None = None
    """The room the host opened for the players once this one ended, if told."""

    def follow(self, message: ServerMessage, now: float = 0.0) -> None:
        """Take in a message from the server, told at ``now`` (the link's clock)."""
        self._follow(message)
        if isinstance(message, DealOut | TurnOut) and self.turn > self.called_turn:
            self.called_turn, self.called_at = self.turn, now
        if isinstance(message, DealOut):
            self.recipes = bool(message.recipes)
        if isinstance(message, LobbyOut):
            if message.recipes:
                self.recipes = True
            for line in message.players:
                if line.connected:
                    self.lost_since.pop(line.player, None)
                else:
                    self.lost_since.setdefault(line.player, now)
        if self.started and self.end is None:
            self.out.update(p for p in self.names if not self.playing(p))

    def _follow(self, message: ServerMessage) -> None:
        """Take in what a message says of the room and the player's game."""
        if isinstance(message, JoinedOut):
            self.room, self.player, self.token = message.room, message.player, message.token
            if message.host:
                self.host = message.player
        elif isinstance(message, LobbyOut):
            self.players = tuple(message.players)
            self.host, self.started = message.host, message.started or self.started
            self.names.update((p.player, p.name) for p in message.players)
        elif isinstance(message, DealOut):
            self.game = PlayerGame.dealt(message)
            self.started, self.standings, self.progress, self.end = True, (), None, None
        elif isinstance(message, TurnOut):
            self.standings = tuple(message.standings)
            self.names.update((s.player, s.name) for s in message.standings)
            if self.game is not None:
                self.game.follow(message)
        elif isinstance(message, PlacedOut):
            if self.game is not None:
                self.game.follow(message)
        elif isinstance(message, ProgressOut):
            self.progress = message
        elif isinstance(message, EndOut):
            self.end = message
            self.names.update((r.player, r.name) for r in message.results)
        elif isinstance(message, LeftOut):
            self.left = True
        elif isinstance(message, RematchOut):
            self.rematch = message

    @property
    def is_host(self) -> bool:
        """Whether this player is the room's host."""
        return self.host is not None and self.host == self.player

    @property
    def turn(self) -> int:
        """The turn being played (0 before the deal)."""
        return 0 if self.game is None else self.game.turn

    def name(self, player: int) -> str:
        """A player's name (``player N`` if none was told)."""
        return self.names.get(player, f"player {player}")

    def connected(self, player: int) -> bool:
        """Whether a player's connection is up, as the lobby last said."""
        return any(p.player == player and p.connected for p in self.players)

    def playing(self, player: int) -> bool:
        """Whether a player is still in the game, as the last call or progress said (once
        told out, out for good)."""
        if player in self.out:
            return False
        listed = next((p for p in self.players if p.player == player), None)
        if listed is not None and listed.status != "in":  # the server says: out for good
            return False
        progress = self.progress
        if progress is not None and progress.turn == self.turn:
            return player in progress.waiting or player in progress.placed
        line = next((s for s in self.standings if s.player == player), None)
        if line is not None:
            return line.playing
        return any(p.player == player for p in self.players)

    def placed_now(self) -> frozenset[int]:
        """The players known to have placed the turn being played."""
        progress = self.progress
        mine = {self.player} if self.game is not None and self.game.placed else set()
        if progress is None or progress.turn != self.turn:
            return frozenset(mine)
        return frozenset(mine | set(progress.placed))

    def waiting_for(self) -> list[str]:
        """The names of the other players the turn being played still waits for."""
        progress = self.progress
        if progress is not None and progress.turn == self.turn:
            waited = [p for p in progress.waiting if p != self.player]
        else:
            everyone = [s.player for s in self.standings] or [p.player for p in self.players]
            waited = [
                p
                for p in everyone
                if p != self.player and self.playing(p) and p not in self.placed_now()
            ]
        return [self.name(p) for p in waited]

    def seen(self, now: float) -> RoomSeen:
        """The room's players as they stand, at ``now`` (the link's clock)."""
        numbers = [p.player for p in self.players]
        numbers += [s.player for s in self.standings if s.player not in numbers]
        seats = tuple(
            SeatSeen(
                player=number,
                name=self.name(number),
                connected=self.connected(number),
                playing=self.playing(number),
                lost_since=self.lost_since.get(number),
                status=next((p.status for p in self.players if p.player == number), "in"),
            )
            for number in numbers
        )
        return RoomSeen(
            player=self.player,
            host=self.host,
            started=self.started,
            ended=self.end is not None,
            seats=seats,
            at=now,
        )


@dataclass(frozen=True)
class SeatSeen:
    """A player of the room as the state has them at one moment."""

    player: int
    name: str
    connected: bool
    playing: bool
    """Still in the game (before the deal: in the room)."""
    lost_since: float | None
    """When the player's lost connection was first told of (None: connected)."""
    status: str = "in"
    """The player's place as the server's lobby said it (``left``, ``stuck``, ``dropped``:
    out for good)."""


@dataclass(frozen=True)
class RoomSeen:
    """The room's players as a link's state has them at one moment (``at``, by the link's
    clock): successive ones say what happened between them."""

    player: int
    host: int | None
    started: bool
    ended: bool
    seats: tuple[SeatSeen, ...]
    at: float

    def seat(self, player: int) -> SeatSeen | None:
        """A player's seat, if the room lists them."""
        return next((s for s in self.seats if s.player == player), None)


Connector = Callable[[str], Awaitable[RoomClient]]
Watcher = Callable[[News], None]


async def _connect(server: str) -> RoomClient:
    """A connection to a server's rooms, with a heartbeat; to the server that started this
    game in a browser tab, with what it signed of the tab's player."""
    vouch = None
    if server == os.environ.get(ROOMS_SERVER_VARIABLE):
        vouch = os.environ.get(ROOMS_CLIENT_VARIABLE)
    return await RoomClient.connect(
        server, timeout=CONNECT_SECONDS, heartbeat=HEARTBEAT_SECONDS, vouch=vouch
    )


def unreachable_line(server: str, error: BaseException) -> str:
    """Why a server could not be reached, in one line."""
    if isinstance(error, BadMessage):
        return _("{server} sent something unreadable ({error})").format(server=server, error=error)
    if isinstance(error, aiohttp.ClientConnectorCertificateError):  # also a ValueError
        problem = error.certificate_error
        why = getattr(problem, "verify_message", None) or problem
        return _("cannot reach {server}: its TLS certificate is not trusted ({why})").format(
            server=server, why=why
        )
    if isinstance(error, aiohttp.ClientSSLError):
        return _("cannot reach {server}: TLS failed ({why})").format(
            server=server, why=error.os_error
        )
    if isinstance(error, aiohttp.InvalidURL | ValueError):
        return _("not a server address: {server} (give one as http://HOST:PORT)").format(
            server=repr(server)
        )
    if isinstance(error, aiohttp.WSServerHandshakeError):
        return _("{server} answers, but serves no rooms at /play (HTTP {status})").format(
            server=server, status=error.status
        )
    if isinstance(error, TimeoutError):
        return _("no answer from {server} within {seconds} s").format(
            server=server, seconds=f"{CONNECT_SECONDS:.0f}"
        )
    if isinstance(error, aiohttp.ClientConnectorError):
        number = error.os_error.errno
        why = os.strerror(number) if number else str(error.os_error)
        return _("cannot reach {server} ({why}): is forage serve running there?").format(
            server=server, why=why.lower()
        )
    return _("cannot reach {server} ({why})").format(
        server=server, why=f"{error.__class__.__name__}: {error}"
    )


class RoomLink:
    """A player's seat in a room on a server, kept through lost connections."""

    def __init__(
        self,
        server: str,
        *,
        connect: Connector = _connect,
        retry_seconds: Sequence[float] = RETRY_SECONDS,
        keep_seat: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """A link to the rooms of ``server`` (``http://HOST:PORT``), not yet open; ``connect``
        opens each connection, ``clock`` times what the state is told (tests may hand
        others); with ``keep_seat``, the seat in the room it opens or joins is kept in the
        data folder."""
        self.server = server
        self.keep_seat = keep_seat
        self.clock = clock
        """The seconds by which the state's times are told (the screens' timers read it)."""
        self.name = ""
        """The name the player asked for the room under (or holds its seat under)."""
        self.seat_problem: str | None = None
        """Why the seat could not be kept in the data folder, if it could not."""
        self._kept: Seat | None = None
        self._seat_due: asyncio.TimerHandle | None = None
        self.state = RoomState()
        self.connection = Connection.CLOSED
        self.problem: str | None = None
        """Why the connection was lost, or why it cannot be taken back."""
        self.pending: Pending | None = None
        """A placement sent and not answered yet (sent again after a lost connection)."""
        self._connect = connect
        self._retry = tuple(retry_seconds) or (1.0,)
        self._client: RoomClient | None = None
        self._reader: asyncio.Task[None] | None = None
        self._watchers: list[Watcher] = []
        self._stopping = False

    # -- watching ---------------------------------------------------------------------------

    def watch(self, watcher: Watcher) -> Callable[[], None]:
        """Tell ``watcher`` of every message and change of connection from now on (on the
        link's event loop); returns what stops that."""
        self._watchers.append(watcher)

        def stop() -> None:
            with contextlib.suppress(ValueError):
                self._watchers.remove(watcher)

        return stop

    def _tell(self, news: News) -> None:
        for watcher in list(self._watchers):
            watcher(news)

    # -- opening ----------------------------------------------------------------------------

    async def create(self, name: str, recipes: bool = False, deck: int = 1) -> None:
        """Open a new room as its host; raises Unreachable or Refused."""
        self.name = name
        await self._open(lambda client: client.create(name, recipes, deck))
        self.state.recipes = recipes

    async def join(self, room: str, name: str) -> None:
        """Join a room that has not started; raises Unreachable or Refused."""
        self.name = name
        await self._open(lambda client: client.join(room, name))

    async def rejoin(self, seat: Seat) -> None:
        """Take a kept seat back, at any point of its room's life (the server tells the
        room's story again); raises Unreachable or Refused. A seat whose room the server no
        longer has (``no-room``) is forgotten."""
        self.name, self._kept = seat.name, seat
        try:
            await self._open(lambda client: client.rejoin(seat.room, seat.token))
        except Refused as refused:
            if refused.code == ErrorCode.NO_ROOM:
                self._forget_seat(seat.room)
            raise

    async def daily(self, name: str, token: str | None) -> None:
        """Take the day's try of the server's online daily under ``name`` (registering it
        if ``token`` is None): a room of one, dealt at once, or the try under way; raises
        Unreachable or Refused (``name-taken``, ``played``...). Its token is the name's
        (kept with the name), not a seat."""
        self.name, self.keep_seat = name, False
        await self._open(lambda client: client.daily(name, token))

    async def _client_for(self) -> RoomClient:
        """A new connection to the server; raises Unreachable saying why there is none."""
        try:
            return await self._connect(self.server)
        except (aiohttp.ClientError, OSError, TimeoutError, ValueError) as error:
            raise Unreachable(unreachable_line(self.server, error)) from None

    async def _open(self, ask: Callable[[RoomClient], Awaitable[None]]) -> None:
        """Connect, ask for a place (``create`` or ``join``) and take the answer."""
        client = await self._client_for()
        try:
            await ask(client)
            answer = await _answer(client)
        except LOST as error:
            await client.close()
            raise Unreachable(unreachable_line(self.server, error)) from None
        if isinstance(answer, ErrorOut):
            await client.close()
            raise Refused(answer.code, answer.message, answer.reason)
        self.state = RoomState()
        try:
            self._take(answer)
        except BadMessage as error:
            await client.close()
            raise Unreachable(unreachable_line(self.server, error)) from None
        self._client, self.connection, self._stopping = client, Connection.OPEN, False
        self._reader = asyncio.get_running_loop().create_task(self._read())

    # -- acting -----------------------------------------------------------------------------

    async def _send(self, action: Callable[[RoomClient], Awaitable[None]]) -> bool:
        """Send a message on the open connection; whether it went (a lost one is opened
        again by the reader)."""
        client = self._client
        if client is None or self.connection is not Connection.OPEN:
            return False
        try:
            await action(client)
        except LOST:
            return False
        return True

    async def start(self) -> bool:
        """Ask the server to deal (the host only); whether the message went."""
        return await self._send(lambda client: client.start())

    async def rematch(self) -> bool:
        """Ask the server for a new room for the players of the ended room (the host only),
        the seat in it taken back first if the connection was lost since the end; whether
        the message went. Its ``joined`` starts the link's state afresh, in the new room."""
        state = self.state
        if self.connection is not Connection.OPEN and state.end is not None and state.token:
            room, token = state.room, state.token
            with contextlib.suppress(Unreachable, Refused):
                await self._open(lambda client: client.rejoin(room, token))
        return await self._send(lambda client: client.rematch())

    async def join_rematch(self) -> None:
        """Join the room the host opened for the players of the ended room (its ``rematch``
        told), under the same name, on a new connection; raises Unreachable or Refused."""
        offer = self.state.rematch
        if offer is None:
            raise Refused(ErrorCode.NO_ROOM, N_("the host has opened no new room"), own=True)
        await self.close()
        await self.join(offer.room, self.name)

    async def place(self, turn: int, placement: Placement) -> None:
        """Place a card for a turn: sent now if connected, else once the place is taken back."""
        self.pending = Pending(turn, placement)
        await self._send(lambda client: client.place(turn, placement))

    async def leave(self) -> None:
        """Leave the room (the others stay in it, and play on); the link closes and its
        seat is forgotten."""
        await self._send(lambda client: client.leave())
        self.state.left = True
        self._forget_seat(self.state.room)
        await self.close()

    async def close(self) -> None:
        """Stop reading and close the connection (the server waits for the player as for a
        lost connection, unless they left)."""
        self._stopping = True
        if self._seat_due is not None:  # the turn is written before the program may end
            self._seat_due.cancel()
            self._keep_turn()
        reader, self._reader = self._reader, None
        if reader is not None and reader is not asyncio.current_task():
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader
        await self._drop()
        if self.connection is not Connection.GONE:
            self.connection = Connection.CLOSED

    async def _drop(self) -> None:
        """Close the connection there is, if any."""
        client, self._client = self._client, None
        if client is not None:
            with contextlib.suppress(Exception):
                await client.close()

    # -- reading ----------------------------------------------------------------------------

    def _take(self, message: ServerMessage) -> None:
        """A message from the server: into the state, then to the watchers. An answer to
        the placement sent clears it; a refusal of a placement already made (sent again after
        a lost connection) is not news. Raises BadMessage for one the game cannot follow."""
        if isinstance(message, JoinedOut) and self.state.room not in ("", message.room):
            self.state = RoomState(recipes=self.state.recipes)  # the host's rematch: a new room
            self.pending = None
        pending = self.pending
        if pending is not None:
            if _answers(message, pending):
                self.pending = None
        elif isinstance(message, ErrorOut) and message.code == ErrorCode.ALREADY_PLACED:
            return
        try:
            self.state.follow(message, self.clock())
        except ValueError as error:  # a card or placement the game cannot take: a bad server
            raise BadMessage(f"its {message.type} cannot be played: {error}") from None
        if self.keep_seat:
            self._seat_news(message)
        self._tell(News(message=message))

    # -- the seat kept ----------------------------------------------------------------------

    def _seat_news(self, message: ServerMessage) -> None:
        """Keep the seat a ``joined`` gives (at once), the turn a deal or call tells (a
        moment later), or forget the seat of a room ended or left."""
        state = self.state
        kept = self._kept
        if isinstance(message, JoinedOut):
            if kept is None or (kept.room, kept.token) != (state.room, state.token):
                self._write_seat(Seat(self.server, state.room, state.token, self.name, state.turn))
        elif isinstance(message, EndOut | LeftOut):
            self._forget_seat(state.room)
        elif isinstance(message, DealOut | TurnOut) and self._seat_due is None:
            loop = asyncio.get_running_loop()
            self._seat_due = loop.call_later(SEAT_TURN_SECONDS, self._keep_turn)

    def _keep_turn(self) -> None:
        """Write the turn being played to the seat kept, if it has changed."""
        self._seat_due = None
        kept = self._kept
        if kept is not None and kept.turn != self.state.turn and kept.room == self.state.room:
            self._write_seat(Seat(kept.server, kept.room, kept.token, kept.name, self.state.turn))

    def _write_seat(self, seat: Seat) -> None:
        """Keep a seat in the data folder (saying why in :attr:`seat_problem` if it cannot)."""
        try:
            keep_seat(seat)
        except OSError as error:
            self.seat_problem = os_problem(error)
            return
        self._kept, self.seat_problem = seat, None

    def _forget_seat(self, room: str) -> None:
        """Forget the seat kept in a room (one that cannot be forgotten is let be: taking it
        back finds the room ended or gone, and forgets it then)."""
        if self._seat_due is not None:
            self._seat_due.cancel()
            self._seat_due = None
        self._kept = None
        if not self.keep_seat or not room:
            return
        with contextlib.suppress(OSError):
            forget_seat(self.server, room)

    async def _read(self) -> None:
        """Read the server's messages, opening the connection again whenever it is lost,
        until the link is closed, the player has left or the room has ended."""
        while True:
            client = self._client
            if client is None:
                return
            replaced = False
            try:
                while True:
                    self._take(await client.receive())
            except LOST as error:
                self.problem = _why(error)
                replaced = isinstance(error, Closed) and error.code == REPLACED
            await self._drop()
            if replaced:  # taking it back would take it from the other connection in turn
                self.problem = _("another connection of yours took your place in it")
                self.connection = Connection.GONE
                self._tell(News(connection=Connection.GONE))
                return
            if self._stopping or self.state.left or self.state.end is not None:
                self.connection = Connection.CLOSED
                self._tell(News(connection=Connection.CLOSED))
                return
            self.connection = Connection.LOST
            self._tell(News(connection=Connection.LOST))
            if not await self._take_back():
                return

    async def _take_back(self) -> bool:
        """Open the connection again and take the player's place back with the token,
        trying until it works; False once that cannot be (the room is gone, or the link
        closed meanwhile)."""
        tries = 0
        while not self._stopping:
            await asyncio.sleep(self._retry[min(tries, len(self._retry) - 1)])
            tries += 1
            try:
                client = await self._client_for()
            except Unreachable as exc:
                self.problem = str(exc)
                self._tell(News(connection=Connection.LOST))
                continue
            try:
                await client.rejoin(self.state.room, self.state.token)
                answer = await _answer(client)
            except LOST as error:
                self.problem = _why(error)
                await client.close()
                continue
            if isinstance(answer, ErrorOut):
                await client.close()
                self.problem = told(answer)
                if answer.code == ErrorCode.NO_ROOM:
                    self._forget_seat(self.state.room)
                    self.connection = Connection.GONE
                    self._tell(News(connection=Connection.GONE))
                    return False
                continue
            if self._stopping:
                await client.close()
                return False
            try:
                self._take(answer)
            except BadMessage as error:
                await client.close()
                self.problem = _why(error)
                continue
            self._client, self.connection, self.problem = client, Connection.OPEN, None
            self._tell(News(connection=Connection.OPEN))
            pending = self.pending
            if pending is not None:
                await self._send(functools.partial(_place, pending=pending))
            return True
        return False


PLACEMENT_REFUSALS: Final = frozenset(
    {ErrorCode.ILLEGAL, ErrorCode.STALE_TURN, ErrorCode.ALREADY_PLACED, ErrorCode.BAD_MESSAGE}
)
"""The errors that answer a placement: it was not made."""


async def _answer(client: RoomClient) -> ServerMessage:
    """The server's answer to a request: its first message but ``busy`` notices, each of
    which says the answer is on its way (and is waited for anew)."""
    while True:
        message = await client.receive(CONNECT_SECONDS)
        if not isinstance(message, BusyOut):
            return message


def _answers(message: ServerMessage, pending: Pending) -> bool:
    """Whether a message answers a placement sent: made, or refused."""
    if isinstance(message, PlacedOut):
        return message.turn == pending.turn
    return isinstance(message, ErrorOut) and message.code in PLACEMENT_REFUSALS


async def _place(client: RoomClient, pending: Pending) -> None:
    """Send a placement again."""
    await client.place(pending.turn, pending.placement)


def _why(error: BaseException) -> str:
    """A lost connection's cause, in a few words."""
    if isinstance(error, Closed):
        return _("the server closed the connection")
    if isinstance(error, TimeoutError):
        return _("the server stopped answering")
    if isinstance(error, BadMessage):
        return _("the server sent something unreadable ({error})").format(error=error)
    return _("the connection broke ({kind})").format(kind=error.__class__.__name__)
