"""An asyncio client of the rooms protocol (CONTRACT.md, "Playing together").

:class:`RoomClient` connects to a server's ``/play``, sends each client message and reads
the server's, parsed (an async iterator, or :meth:`RoomClient.receive`). :class:`PlayerGame`
follows one player's messages (``deal``, ``placed``, ``turn``) and gives that player's
engine game as far as the cards called (the engine's
:class:`~forage.engine.called.CalledGame`, which waits for the next call rather than
ending), so a client that rejoins rebuilds its game from what the server sends again.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from types import TracebackType
from typing import Final

import aiohttp

from forage.carddata import standard_deck
from forage.engine import Deal, Placement
from forage.engine.called import CalledGame
from forage.net import CLIENT_HEADER, DEFAULT_SERVER
from forage.net.address import server_address
from forage.net.daily import Board
from forage.net.leaderboard import TIMEOUT_SECONDS, board_url, fetch_board
from forage.net.protocol import (
    MAX_MESSAGE_BYTES,
    ClientMessage,
    CreateIn,
    DailyIn,
    DealOut,
    JoinIn,
    LeaveIn,
    PlacedOut,
    PlaceIn,
    RejoinIn,
    RematchIn,
    ServerMessage,
    StartIn,
    TurnOut,
    message_text,
    read_server_message,
)

PLAY_PATH: Final = "/play"


def play_url(server: str) -> str:
    """The websocket address of a server given as ``http://host:port`` (or ``ws://...``):
    ``ws://host:port/play`` (a path of its own kept); ValueError for what is not a
    server's address."""
    address = server_address(server)
    path = address.path if address.path not in ("", "/") else PLAY_PATH
    return address.url(path, address.query, websocket=True)


class Closed(Exception):
    """The server closed the connection (``code`` is the websocket close code, if any)."""

    def __init__(self, code: int | None) -> None:
        """The close code the server gave."""
        self.code = code
        super().__init__(f"the server closed the connection (code {code})")


class RoomClient:
    """One connection to a rooms server."""

    def __init__(
        self,
        socket: aiohttp.ClientWebSocketResponse,
        session: aiohttp.ClientSession,
        owns_session: bool,
    ) -> None:
        """A client on an open websocket (use :meth:`connect`)."""
        self.socket = socket
        self._session = session
        self._owns_session = owns_session

    @classmethod
    async def connect(
        cls,
        server: str = DEFAULT_SERVER,
        *,
        session: aiohttp.ClientSession | None = None,
        timeout: float = 10.0,
        heartbeat: float | None = None,
        vouch: str | None = None,
    ) -> RoomClient:
        """Open a connection to a server's ``/play`` (waiting at most ``timeout`` seconds for
        the handshake); with ``heartbeat``, a ping every that many seconds finds a server
        that has gone silent (the connection then ends as closed); ``vouch``: what the
        server signed to say who the player is (a browser tab's game)."""
        owns = session is None
        session = session or aiohttp.ClientSession()
        try:
            socket = await asyncio.wait_for(
                session.ws_connect(
                    play_url(server),
                    timeout=aiohttp.ClientWSTimeout(ws_receive=None, ws_close=timeout),
                    max_msg_size=4 * MAX_MESSAGE_BYTES,
                    autoping=True,
                    heartbeat=heartbeat,
                    headers={CLIENT_HEADER: vouch} if vouch else None,
                ),
                timeout,
            )
        except BaseException:
            if owns:
                await session.close()
            raise
        return cls(socket, session, owns)

    async def close(self) -> None:
        """Close the connection (and the session, if this client opened it)."""
        await self.socket.close()
        if self._owns_session:
            await self._session.close()

    async def __aenter__(self) -> RoomClient:
        """The client itself."""
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        """Close the connection."""
        await self.close()

    # -- sending ------------------------------------------------------------------------------

    async def send(self, message: ClientMessage) -> None:
        """Send one message."""
        await self.socket.send_str(message_text(message))

    async def create(self, name: str, recipes: bool = False, deck: int = 1) -> None:
        """Open a room, as its host."""
        await self.send(CreateIn.model_construct(name=name, recipes=recipes, deck=deck))

    async def join(self, room: str, name: str) -> None:
        """Join a room that has not started."""
        await self.send(JoinIn.model_construct(room=room, name=name))

    async def rejoin(self, room: str, token: str) -> None:
        """Take a player's place back."""
        await self.send(RejoinIn.model_construct(room=room, token=token))

    async def start(self) -> None:
        """Deal (the host only)."""
        await self.send(StartIn())

    async def place(self, turn: int, placement: Placement) -> None:
        """Place a card for a turn."""
        await self.send(PlaceIn.of(turn, placement))

    async def leave(self) -> None:
        """Leave the room."""
        await self.send(LeaveIn())

    async def rematch(self) -> None:
        """Open a new room for the players of the ended room (the host only)."""
        await self.send(RematchIn())

    async def daily(self, name: str, token: str | None = None) -> None:
        """Ask for the online daily."""
        await self.send(DailyIn.model_construct(name=name, token=token))

    # -- receiving ----------------------------------------------------------------------------

    async def receive(self, timeout: float | None = None) -> ServerMessage:
        """The server's next message (types this client does not know are skipped); raises
        Closed when the connection ends, TimeoutError after ``timeout`` seconds."""
        while True:
            message = await self.socket.receive(timeout)
            if message.type is aiohttp.WSMsgType.TEXT:
                parsed = read_server_message(message.data)
                if parsed is not None:
                    return parsed
            elif message.type is aiohttp.WSMsgType.CLOSE:  # the code the server sent (the
                raise Closed(message.data)  # socket's is 1006 if its answer could not go out)
            elif message.type in (
                aiohttp.WSMsgType.CLOSING,
                aiohttp.WSMsgType.CLOSED,
                aiohttp.WSMsgType.ERROR,
            ):
                raise Closed(self.socket.close_code)

    def __aiter__(self) -> AsyncIterator[ServerMessage]:
        """The server's messages until the connection ends."""
        return self._messages()

    async def _messages(self) -> AsyncIterator[ServerMessage]:
        while True:
            try:
                yield await self.receive()
            except Closed:
                return


@dataclass
class PlayerGame:
    """One player's game as the server's messages tell it: the deal, the cards called and
    the player's placements."""

    start: int
    hand: tuple[int, ...]
    recipes: tuple[int, ...]
    deck: int
    called: list[int] = field(default_factory=list)
    moves: list[Placement] = field(default_factory=list)
    turn: int = 1
    """The turn being played."""
    _game: CalledGame | None = None

    @classmethod
    def dealt(cls, message: DealOut) -> PlayerGame:
        """The game a ``deal`` message starts; raises ValueError for a deal the engine cannot
        play (a card not in the deck, one dealt twice)."""
        made = cls(message.start, tuple(message.hand), tuple(message.recipes), message.deck)
        made.game()
        return made

    def follow(self, message: ServerMessage) -> None:
        """Take in a ``placed`` (the player's own placement) or a ``turn`` (a card called);
        raises ValueError for one the game cannot take (a placement it finds illegal, a card
        it cannot draw)."""
        if isinstance(message, PlacedOut) and message.turn == len(self.moves) + 1:
            placement = message.placement()
            if self._game is not None and not self._game.push(placement).legal:
                raise ValueError(f"placed: {placement.notation()} is not legal in this game")
            self.moves.append(placement)
        elif isinstance(message, TurnOut) and message.turn > self.turn:
            self.turn = message.turn
            if message.card is not None:
                self.called.append(message.card)
                if self._game is not None:
                    self._game.call(message.card)

    @property
    def placed(self) -> bool:
        """Whether the player has placed the turn being played."""
        return len(self.moves) >= self.turn

    def _deal(self) -> Deal:
        """The deal as far as it is known: the first three cards and those called."""
        recipes = (self.recipes[0], self.recipes[1]) if len(self.recipes) == 2 else None
        return Deal(cards=(self.start, *self.hand, *self.called), recipes=recipes)

    def game(self) -> CalledGame:
        """The player's engine game, with the cards called so far."""
        if self._game is None:
            game = CalledGame(self._deal(), standard_deck())
            for move in self.moves:
                game.push(move)
            self._game = game
        return self._game


async def day_board(server: str, day: str | None = None, timeout: float = TIMEOUT_SECONDS) -> Board:
    """The online daily's leaderboard of ``day`` (today, UTC, by default) on ``server``
    (``GET /daily/leaderboard``, on a thread); raises ValueError (one line) for a server
    that cannot be reached or an answer that is not a leaderboard."""
    url = board_url(server, day)
    fetched = await asyncio.to_thread(fetch_board, url, timeout)
    return fetched.board
