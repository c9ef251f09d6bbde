"""A room as a pure state machine: players join, the host deals, the server calls the cards.

Every player has their own woodland (an engine :class:`~forage.engine.Game`) and all draw
the same cards in the same order; the room is the caller. It calls turn t's card only
once every player still in the game has placed turn t-1, so no message tells a card before
it is called. A player is out of the game (their game ends as it stands) when stuck
(R13), when they leave, or when their connection has been gone for the wait time.

No I/O and no clock: each action takes the time ``now`` (seconds, from any monotonic
clock) and returns an :class:`Update`: the messages to send to whom, and the
:data:`Event`\\ s to store (before anyone is told). :meth:`Room.deadline` is when
:meth:`Room.tick` next has something to do.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from typing import Final

from forage.carddata import standard_deck
from forage.engine import Deal, Deck, Game, Placement, Score
from forage.net.protocol import (
    LAST_TURN,
    MAX_PLAYERS,
    MIN_PLAYERS,
    BadMessage,
    DealOut,
    EndOut,
    EndReason,
    ErrorCode,
    JoinedOut,
    LeftOut,
    LobbyOut,
    LobbyPlayer,
    PlacedOut,
    PlaceIn,
    PlayerStanding,
    ProgressOut,
    RematchOut,
    ResultLine,
    ServerMessage,
    TurnOut,
    error,
    name_skeleton,
)
from forage.record import record_from_game

WAIT_SECONDS: Final = 120.0
"""How long a room waits for a player whose connection dropped (CONTRACT.md)."""
IDLE_SECONDS: Final = 1800.0
"""A room in which no player does anything for this long ends (``end``, reason ``idle``)."""
KEEP_SECONDS: Final = 600.0
"""How long an ended room stays, so that its players can rejoin to read the results."""


def token_hash(token: str) -> str:
    """What is kept of a player's token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Phase(StrEnum):
    """Where a room is: gathering players, playing, or over."""

    LOBBY = "lobby"
    PLAYING = "playing"
    ENDED = "ended"


class Status(StrEnum):
    """A player's place in the room."""

    IN = "in"
    """In the room (and, once dealt, still playing)."""
    GONE = "gone"
    """Left the room before the deal, or was waited out then: no longer one of its players."""
    LEFT = "left"
    """Left the room after the deal: the game ended as it stood."""
    STUCK = "stuck"
    """No hand card could be placed: the game ended as it stood (R13)."""
    DROPPED = "dropped"
    """The connection was gone for the wait time: the game ended as it stood."""


class Kind(StrEnum):
    """What a room is for."""

    ROOM = "room"
    """Friends playing together (``create``, ``join``)."""
    DAILY = "daily"
    """The online daily: a room of one with a deal the server keeps."""


@dataclass(frozen=True)
class RoomRules:
    """The numbers a room lives by."""

    wait_seconds: float = WAIT_SECONDS
    idle_seconds: float = IDLE_SECONDS
    keep_seconds: float = KEEP_SECONDS
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS
    most_joins: int = 8 * MAX_PLAYERS
    """The most players a lobby takes in all, those who left it counted (more is ``full``)."""
    closes: float | None = None
    """When the room ends whatever is happening, every game as it stands (``end``, reason
    ``closed``); None: never. An online daily's try closes when its day is over."""


# -- what a room tells the store ---------------------------------------------------------------


@dataclass(frozen=True)
class Created:
    """A room was opened."""

    kind: Kind
    deal: Deal
    deck: int
    seed: int | None


@dataclass(frozen=True)
class PlayerAdded:
    """A player joined (``token`` is the hash of their token)."""

    player: int
    name: str
    token: str


@dataclass(frozen=True)
class PlayerStatus:
    """A player left, was waited out, or got stuck."""

    player: int
    status: Status


@dataclass(frozen=True)
class HostChanged:
    """The host role passed on (None: nobody is left)."""

    host: int | None


@dataclass(frozen=True)
class Started:
    """The host dealt."""


@dataclass(frozen=True)
class Moved:
    """A player placed a card for a turn."""

    player: int
    turn: int
    placement: Placement


@dataclass(frozen=True)
class Ended:
    """The room ended; its results, highest final first."""

    reason: EndReason
    results: tuple[ResultLine, ...]
    at: float


@dataclass(frozen=True)
class ConnectionChanged:
    """A player's connection came back (``since`` None) or went (``since`` when)."""

    player: int
    connected: bool
    since: float | None


@dataclass(frozen=True)
class TryStarted:
    """The room is a player's try at a day's online daily (the server adds this to the
    room's creation; ``key`` is the player's name key)."""

    day: date
    key: str


@dataclass(frozen=True)
class Rematched:
    """The host opened room ``room`` for the players of this ended room (the store keeps
    nothing of it but the room's new version, under which the invitations are passed on)."""

    room: str


Event = (
    Created
    | PlayerAdded
    | PlayerStatus
    | HostChanged
    | Started
    | Moved
    | Ended
    | ConnectionChanged
    | TryStarted
    | Rematched
)
"""A change of a room's state that the store keeps."""


@dataclass(frozen=True)
class Send:
    """A message for one player of the room."""

    to: int
    message: ServerMessage


@dataclass
class Update:
    """What an action did: messages to send, changes to store (store them first)."""

    sends: list[Send] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    player: int | None = None
    """The player an action added or took back (``join``, ``rejoin``)."""
    closed: bool = False
    """The room is over and may be forgotten."""

    def refused(self) -> bool:
        """Whether the action was refused (nothing changed; an error is the only message)."""
        return not self.events and len(self.sends) == 1 and self.sends[0].message.type == "error"


def _refusal(to: int, code: ErrorCode, message: str, reason: str | None = None) -> Update:
    """An update that only tells the player why their action was refused."""
    return Update(sends=[Send(to, error(code, message, reason))])


@dataclass(slots=True)
class Seat:
    """A player of a room."""

    player: int
    name: str
    token: str
    """The SHA-256 of the player's token."""
    status: Status = Status.IN
    connected: bool = True
    gone_since: float | None = None
    """When the connection dropped (None while connected)."""
    game: Game | None = None
    """The player's game, once dealt."""
    scores: list[Score] = field(default_factory=list)
    """The score after each placement, the score before any first."""

    @property
    def placed(self) -> int:
        """How many cards the player has placed."""
        return 0 if self.game is None else len(self.game.moves)

    @property
    def playing(self) -> bool:
        """Whether the player is still in the game."""
        return self.status is Status.IN and self.game is not None


@dataclass(frozen=True)
class StoredPlayer:
    """A player as the store keeps them."""

    player: int
    name: str
    token: str
    status: Status
    connected: bool = False
    gone_since: float | None = None


@dataclass(frozen=True)
class StoredRoom:
    """A live room as the store keeps it: enough to build it again."""

    code: str
    kind: Kind
    deal: Deal
    deck: int
    seed: int | None
    host: int | None
    phase: Phase
    players: tuple[StoredPlayer, ...]
    moves: tuple[Moved, ...]
    version: int = 0
    """How many changes have been stored (each action that changed the room adds one)."""
    active: float | None = None
    """When a player last did something, on the servers' clock (None: not stored)."""
    day: date | None = None
    """The day of an online daily's try."""
    ended: StoredEnd | None = None


@dataclass(frozen=True)
class StoredEnd:
    """How an ended room ended, as stored."""

    reason: EndReason
    at: float
    results: tuple[ResultLine, ...]


class Room:
    """One room: its players, their games, the turn being played. See the module's doc."""

    def __init__(
        self,
        code: str,
        deal: Deal,
        *,
        deck: int = 1,
        seed: int | None = None,
        kind: Kind = Kind.ROOM,
        rules: RoomRules | None = None,
        now: float = 0.0,
        cards: Deck | None = None,
    ) -> None:
        """An empty room on a deal (use :meth:`create` or :meth:`restore`); ``cards`` replace
        the built-in deck (tests)."""
        self.code = code
        self.deal = deal
        self.cards = cards if cards is not None else standard_deck()
        self.deck = deck
        self.seed = seed
        self.kind = kind
        self.rules = rules or RoomRules()
        self.phase = Phase.LOBBY
        self.seats: dict[int, Seat] = {}
        self.host: int | None = None
        self.turn = 0
        """The turn being played (its card called), 0 before the deal."""
        self.active = now
        """When a player last did something."""
        self.ended_at: float | None = None
        self.results: tuple[ResultLine, ...] = ()
        self.end_reason = EndReason.FINISHED
        self.version = 0
        """The room's stored version this state is of (kept by the server, not the room)."""
        self.rematch: str | None = None
        """The room its host opened for its players once it ended, if any."""

    # -- making a room ---------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        code: str,
        deal: Deal,
        name: str,
        token: str,
        now: float,
        *,
        deck: int = 1,
        seed: int | None = None,
        kind: Kind = Kind.ROOM,
        rules: RoomRules | None = None,
        cards: Deck | None = None,
    ) -> tuple[Room, Update]:
        """A new room with its host, player 1 (``token`` as given to them)."""
        room = cls(code, deal, deck=deck, seed=seed, kind=kind, rules=rules, now=now, cards=cards)
        update = room.join(name, token, now)
        update.events.insert(0, Created(kind, deal, deck, seed))
        update.events.append(HostChanged(room.host))
        return room, update

    @classmethod
    def restore(
        cls,
        stored: StoredRoom,
        now: float,
        rules: RoomRules | None = None,
        *,
        as_stored: bool = False,
    ) -> Room:
        """A room built again from the store, its games replayed. After a restart every
        player is disconnected and waited for from ``now``; ``as_stored`` keeps the
        connections, times and end as stored (a room another server changed). Raises
        ValueError for a stored move the rules refuse."""
        room = cls(
            stored.code,
            stored.deal,
            deck=stored.deck,
            seed=stored.seed,
            kind=stored.kind,
            rules=rules,
            now=now,
        )
        for player in stored.players:
            room.seats[player.player] = Seat(
                player.player,
                player.name,
                player.token,
                player.status,
                connected=player.connected and as_stored,
                gone_since=player.gone_since if as_stored else now,
            )
        room.host = stored.host
        room.version = stored.version
        if as_stored and stored.active is not None:
            room.active = stored.active
        if stored.phase is Phase.LOBBY:
            return room
        room._deal_games()
        for move in sorted(stored.moves, key=lambda m: m.turn):
            seat = room.seats.get(move.player)
            if seat is None or seat.game is None or move.turn != seat.placed + 1:
                raise ValueError(f"room {stored.code}: a stored move is out of order")
            if not seat.game.push(move.placement).legal:
                raise ValueError(f"room {stored.code}: a stored move is illegal: {move.placement}")
            seat.scores.append(seat.game.score())
        playing = [s.placed for s in room.seats.values() if s.playing]
        placed = [s.placed for s in room.members()]
        room.turn = min(playing) + 1 if playing else max(1, *placed)
        if stored.ended is not None:
            room.phase = Phase.ENDED
            room.ended_at = stored.ended.at
            room.end_reason = stored.ended.reason
            room.results = stored.ended.results
        return room

    # -- who is who -------------------------------------------------------------------------

    def members(self) -> list[Seat]:
        """The players the room lists: those in it, and after the deal all who were dealt."""
        return [s for s in self.seats.values() if s.status is not Status.GONE]

    def seat_of(self, token: str) -> Seat | None:
        """The player holding a token, if any."""
        wanted = token_hash(token)
        return next((s for s in self.seats.values() if s.token == wanted), None)

    def _connected(self, but: int | None = None) -> list[int]:
        return [s.player for s in self.members() if s.connected and s.player != but]

    def _to_all(self, message: ServerMessage, but: int | None = None) -> list[Send]:
        return [Send(p, message) for p in self._connected(but)]

    def lobby(self) -> LobbyOut:
        """The lobby message: the room's players now."""
        return LobbyOut(
            room=self.code,
            players=[
                LobbyPlayer(
                    player=s.player, name=s.name, connected=s.connected, status=s.status.value
                )
                for s in self.members()
            ],
            host=self.host,
            started=self.phase is not Phase.LOBBY,
            recipes=self.deal.recipes is not None,
        )

    def _pass_host(self, leaving: int) -> list[Event]:
        if self.host != leaving:
            return []
        staying = [s for s in self.seats.values() if s.status is Status.IN]
        connected = [s for s in staying if s.connected]
        chosen = connected or staying
        self.host = chosen[0].player if chosen else None
        return [HostChanged(self.host)]

    # -- actions ----------------------------------------------------------------------------

    def join(self, name: str, token: str, now: float) -> Update:
        """A new player (their ``token`` as given to them); 0 stands for them until they
        have a number, in a refusal."""
        if self.phase is not Phase.LOBBY:
            return _refusal(0, ErrorCode.STARTED, f"room {self.code} has already started")
        inside = [s for s in self.seats.values() if s.status is Status.IN]
        if len(inside) >= self.rules.max_players:
            return _refusal(
                0, ErrorCode.FULL, f"room {self.code} is full ({self.rules.max_players} players)"
            )
        if len(self.seats) >= self.rules.most_joins:
            return _refusal(
                0, ErrorCode.FULL, f"room {self.code} has seen too many players come and go"
            )
        if any(name_skeleton(s.name) == name_skeleton(name) for s in inside):
            return _refusal(0, ErrorCode.NAME_TAKEN, f"{name!r} is already playing in this room")
        player = max(self.seats, default=0) + 1
        self.seats[player] = Seat(player, name, token_hash(token))
        events: list[Event] = [PlayerAdded(player, name, self.seats[player].token)]
        if self.host is None:
            self.host = player
            if len(self.seats) > 1:
                events.append(HostChanged(player))
        self.active = now
        joined = JoinedOut(room=self.code, player=player, token=token, host=self.host == player)
        return Update(
            sends=[Send(player, joined), *self._to_all(self.lobby())], events=events, player=player
        )

    def start(self, player: int, now: float) -> Update:
        """The host deals: every player gets the first card and the hand."""
        if self.phase is not Phase.LOBBY:
            return _refusal(player, ErrorCode.STARTED, f"room {self.code} has already started")
        if player != self.host:
            return _refusal(player, ErrorCode.NOT_HOST, "only the host can start the room")
        count = len(self.members())
        if count < self.rules.min_players:
            return _refusal(
                player,
                ErrorCode.NOT_STARTED,
                f"a room starts with {self.rules.min_players} to {self.rules.max_players} "
                f"players, and {count} {'is' if count == 1 else 'are'} here",
            )
        self._deal_games()
        self.active = now
        update = Update(events=[Started()], sends=self._to_all(self.lobby()))
        for seat in self.members():
            if seat.connected:
                update.sends.append(Send(seat.player, self._deal_message()))
            assert seat.game is not None
            if seat.game.is_stuck():
                seat.status = Status.STUCK
                update.events.append(PlayerStatus(seat.player, Status.STUCK))
        self._advance(update, now)
        return update

    def _deal_games(self) -> None:
        self.phase = Phase.PLAYING
        self.turn = 1
        for seat in self.members():
            seat.game = Game(self.deal, self.cards)
            seat.scores = [seat.game.score()]

    def _deal_message(self) -> DealOut:
        cards = self.deal.cards
        return DealOut(
            start=cards[0],
            hand=list(cards[1:3]),
            recipes=list(self.deal.recipes or ()),
            deck=self.deck,
        )

    def place(self, player: int, message: PlaceIn, now: float) -> Update:
        """A player's placement for a turn: checked by the rules, then the next card is called
        if every player still in the game has placed."""
        seat = self.seats[player]
        if self.phase is Phase.LOBBY:
            return _refusal(player, ErrorCode.NOT_STARTED, "the room has not started yet")
        if self.phase is Phase.ENDED or not seat.playing:
            over = "the room has ended" if self.phase is Phase.ENDED else "your game is over"
            return _refusal(player, ErrorCode.ILLEGAL, over, "game-over")
        if message.turn != self.turn:
            return _refusal(
                player,
                ErrorCode.STALE_TURN,
                f"turn {self.turn} is being played, not turn {message.turn}",
            )
        if seat.placed >= self.turn:
            return _refusal(
                player, ErrorCode.ALREADY_PLACED, f"you have already placed turn {self.turn}"
            )
        try:
            placement = message.placement()
        except BadMessage as exc:
            return _refusal(player, ErrorCode.BAD_MESSAGE, str(exc))
        game = seat.game
        assert game is not None
        outcome = game.push(placement)
        if not outcome.legal:
            reason = outcome.reason.value if outcome.reason is not None else None
            return _refusal(player, ErrorCode.ILLEGAL, outcome.message, reason)
        made = game.moves[-1]
        seat.scores.append(game.score())
        self.active = now
        update = Update(
            events=[Moved(player, self.turn, made)],
            sends=[Send(player, PlacedOut.of(self.turn, seat.scores[-1], made))],
        )
        if game.is_stuck():  # told when the next card is called, not before
            seat.status = Status.STUCK
            update.events.append(PlayerStatus(player, Status.STUCK))
        self._advance(update, now)
        return update

    def rejoin(self, token: str, now: float) -> Update:
        """A player back on a new connection: the room's state is sent to them again."""
        seat = self.seat_of(token)
        if seat is None or seat.status is Status.GONE:
            return _refusal(0, ErrorCode.NO_ROOM, f"no player of room {self.code} has that token")
        events: list[Event] = [ConnectionChanged(seat.player, True, None)]
        seat.connected = True
        seat.gone_since = None
        joined = JoinedOut(
            room=self.code, player=seat.player, token=token, host=self.host == seat.player
        )
        sends = [Send(seat.player, joined), *self._to_all(self.lobby())]
        sends.extend(Send(seat.player, m) for m in self._story(seat))
        return Update(sends=sends, events=events, player=seat.player)

    def _story(self, seat: Seat) -> list[ServerMessage]:
        """What a player has been told since the deal, in order: enough to rebuild the game."""
        if self.phase is Phase.LOBBY:
            return []
        told: list[ServerMessage] = []
        if seat.game is not None:
            told.append(self._deal_message())
            for turn in range(1, self.turn + 1):
                if seat.placed >= turn:
                    made = seat.game.moves[turn - 1]
                    told.append(PlacedOut.of(turn, seat.scores[turn], made))
                if turn < self.turn:
                    told.append(self._turn_message(turn + 1))
        if self.phase is Phase.ENDED:
            told.append(EndOut(results=list(self.results), reason=self.end_reason))
        elif seat.game is not None:
            told.append(self.progress())
        return told

    def leave(self, player: int, now: float) -> Update:
        """A player leaves: before the deal they are gone, after it their game ends as it
        stands. The host role passes on."""
        seat = self.seats[player]
        update = Update(sends=[Send(player, LeftOut(room=self.code))])
        was_in = seat.status is Status.IN
        if seat.connected or seat.gone_since is not None:
            update.events.append(ConnectionChanged(player, False, None))
        seat.connected = False
        seat.gone_since = None
        if not was_in or self.phase is Phase.ENDED:
            return update
        seat.status = Status.LEFT if self.phase is Phase.PLAYING else Status.GONE
        self.active = now
        update.events.append(PlayerStatus(player, seat.status))
        update.events.extend(self._pass_host(player))
        update.sends.extend(self._to_all(self.lobby()))
        if self.phase is Phase.LOBBY and not any(
            s.status is Status.IN for s in self.seats.values()
        ):
            self._end(update, EndReason.EMPTY, now)
        self._advance(update, now)
        return update

    def may_rematch(self, player: int) -> Update:
        """Whether the player may open a new room for this room's players: nothing if so,
        else the refusal."""
        if self.kind is not Kind.ROOM:
            return _refusal(player, ErrorCode.BAD_MESSAGE, "the online daily has no rematch")
        if self.phase is not Phase.ENDED:
            return _refusal(
                player,
                ErrorCode.BAD_MESSAGE,
                f"room {self.code} has not ended: a rematch comes after the results",
            )
        if player != self.host:
            return _refusal(player, ErrorCode.NOT_HOST, "only the host can ask for a rematch")
        if self.rematch is not None:
            return _refusal(
                player,
                ErrorCode.BAD_MESSAGE,
                f"room {self.code} has its rematch already: room {self.rematch}",
            )
        return Update()

    def rematched(self, player: int, room: str) -> Update:
        """The host (``player``) has opened ``room``: the others still connected are told
        its code, to join it."""
        self.rematch = room
        told = RematchOut(room=room, host=self.seats[player].name)
        return Update(events=[Rematched(room)], sends=self._to_all(told, but=player))

    def disconnect(self, player: int, now: float) -> Update:
        """A player's connection dropped: the room waits for them (:meth:`tick`)."""
        seat = self.seats[player]
        if not seat.connected:
            return Update()
        seat.connected = False
        seat.gone_since = now
        return Update(
            sends=self._to_all(self.lobby()), events=[ConnectionChanged(player, False, now)]
        )

    def deadline(self) -> float | None:
        """When :meth:`tick` next has something to do (None: never, as things stand)."""
        if self.phase is Phase.ENDED:
            assert self.ended_at is not None
            return self.ended_at + self.rules.keep_seconds
        times = [self.active + self.rules.idle_seconds]
        times.extend(
            s.gone_since + self.rules.wait_seconds
            for s in self.seats.values()
            if s.status is Status.IN and s.gone_since is not None
        )
        if self.rules.closes is not None:
            times.append(self.rules.closes)
        soonest = min(times)
        return None if math.isinf(soonest) else soonest

    def tick(self, now: float) -> Update:
        """What the time does: players waited out, an idle room ended, an old room closed."""
        update = Update()
        if self.phase is Phase.ENDED:
            assert self.ended_at is not None
            update.closed = now >= self.ended_at + self.rules.keep_seconds
            return update
        waited = [
            s
            for s in self.seats.values()
            if s.status is Status.IN
            and s.gone_since is not None
            and now >= s.gone_since + self.rules.wait_seconds
        ]
        for seat in waited:
            seat.status = Status.DROPPED if self.phase is Phase.PLAYING else Status.GONE
            update.events.append(PlayerStatus(seat.player, seat.status))
            update.events.extend(self._pass_host(seat.player))
        if waited:
            update.sends.extend(self._to_all(self.lobby()))
        if self.rules.closes is not None and now >= self.rules.closes:
            self._end(update, EndReason.CLOSED, now)
        elif now >= self.active + self.rules.idle_seconds:
            self._end(update, EndReason.IDLE, now)
        elif self.phase is Phase.LOBBY and not any(
            s.status is Status.IN for s in self.seats.values()
        ):
            self._end(update, EndReason.EMPTY, now)
        self._advance(update, now)
        return update

    # -- calling and ending -----------------------------------------------------------------

    def _advance(self, update: Update, now: float) -> None:
        """Call the next card, or end the room, once every player still in has placed."""
        if self.phase is not Phase.PLAYING:
            return
        playing = [s for s in self.seats.values() if s.playing]
        if any(s.placed < self.turn for s in playing):
            if any(isinstance(event, Moved | PlayerStatus) for event in update.events):
                update.sends.extend(self._to_all(self.progress()))
            return
        if not playing or self.turn >= min(LAST_TURN, len(self.deal.cards) - 1):
            self._end(update, EndReason.FINISHED, now)
            return
        self.turn += 1
        update.sends.extend(self._to_all(self._turn_message(self.turn)))

    def progress(self) -> ProgressOut:
        """Who has placed the turn being played and who is still waited for (a player out
        of the game is in neither; one who placed is ``placed``, stuck or not, so that
        nothing tells of the next card before it is called)."""
        placed = [s.player for s in self.members() if s.game is not None and s.placed >= self.turn]
        waiting = [s.player for s in self.members() if s.playing and s.placed < self.turn]
        return ProgressOut(turn=self.turn, placed=placed, waiting=waiting)

    def _turn_message(self, turn: int) -> TurnOut:
        """The call of a turn's card, with the standings as they were then."""
        index = turn + 1
        card = self.deal.cards[index] if index < len(self.deal.cards) else None
        return TurnOut(turn=turn, card=card, standings=self.standings(turn))

    def standings(self, turn: int) -> list[PlayerStanding]:
        """Each dealt player's line when turn ``turn`` is called, highest score first."""
        lines = []
        for seat in self.members():
            placed = min(seat.placed, turn - 1)
            lines.append(
                PlayerStanding(
                    player=seat.player,
                    name=seat.name,
                    score=seat.scores[placed].final if seat.scores else 0,
                    placed=placed,
                    playing=seat.playing or seat.placed >= turn,
                    connected=seat.connected,
                )
            )
        return sorted(lines, key=lambda line: (-line.score, line.player))

    def _end(self, update: Update, reason: EndReason, now: float) -> None:
        """End the room: every game ends as it stands; everyone is told the results."""
        self.results = tuple(self._results())
        self.phase = Phase.ENDED
        self.ended_at = now
        self.end_reason = reason
        update.events.append(Ended(reason, self.results, now))
        update.sends.extend(self._to_all(EndOut(results=list(self.results), reason=reason)))
        update.closed = reason is EndReason.EMPTY

    def _results(self) -> Iterable[ResultLine]:
        lines = []
        told = list(self.deal.cards[: self.turn + 2])  # the deal, then one card a turn
        for seat in self.members():
            if seat.game is None:
                continue
            result = seat.game.result()
            record = record_from_game(seat.game).to_data()
            record["deal"] = told  # never a card that was not called
            lines.append(
                ResultLine(
                    player=seat.player,
                    name=seat.name,
                    final=result.score.final,
                    won=bool(result.won),
                    record=record,
                )
            )
        return sorted(lines, key=lambda line: (-line.final, line.player))
