"""What the room's screens share (the lobby, the game, the results): the app's link to the
room, its news as Textual messages, the lines that say who is where, leaving, and what the
history keeps of a room's game.

The link (:class:`forage.net.link.RoomLink`) is the app's (``services_of(app).room``); a
screen that follows it gets each message and change of connection as :class:`RoomNews`
and reads the link's state, so what it shows is always the latest. A screen decides no
rule: the state's game is the engine's, its standings and results the server's.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Mapping, Sequence
from datetime import date, datetime
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.message import Message
from textual.screen import Screen

from forage.app.describe import DOT, ELLIPSIS, LOST_MARK, OUT_MARK, TICK
from forage.app.lettering import shown_code
from forage.app.screens.base import ForageScreen
from forage.app.services import services_of
from forage.app.themes import DEFAULT_MARKS
from forage.app.view import title_text
from forage.i18n import _
from forage.net import server_option
from forage.net.link import Connection, News, RoomLink, RoomSeen, RoomState, SeatSeen
from forage.net.protocol import EndOut, ResultLine
from forage.net.rooms import RoomRules

if TYPE_CHECKING:
    from forage.engine import Game
    from forage.history.games import PlayInfo
    from forage.history.store import Recorded


class RoomNews(Message):
    """News of the app's room: a message from the server, or a change of the connection."""

    def __init__(self, news: News) -> None:
        """The link's news."""
        super().__init__()
        self.news = news


class RoomDone(Message):
    """The player is done with the room (left it, or closed its results): the app goes back
    to where it was before the room (``forage room``: it ends)."""


class RoomMoved(Message):
    """The app's link has gone on to another room (a rematch): its lobby takes over from the
    room screen showing."""


def link_of(app: object) -> RoomLink:
    """The app's link to its room (raises RuntimeError when no room is open)."""
    link = services_of(app).room
    if link is None:
        raise RuntimeError("no room is open")
    return link


ROOMS_CSS: Final = Path(__file__).with_name("rooms.tcss").resolve()
"""The room's screens' styles (the room's game screen loads them too)."""


class RoomWatch:
    """What a screen of the app's room follows: the link's news, handed to the screen as
    :class:`RoomNews` while it watches, and what happened since it last asked."""

    def __init__(self, screen: Screen[Any]) -> None:
        """The watch of ``screen`` (not yet watching)."""
        self.screen = screen
        self._stop_watching: Callable[[], None] | None = None
        self._seen: RoomSeen | None = None
        """The room as the screen last said what happened in it."""

    @property
    def link(self) -> RoomLink:
        """The app's link to the room."""
        return link_of(self.screen.app)

    @property
    def state(self) -> RoomState:
        """What the player has been told of the room, as it stands."""
        return self.link.state

    def start(self) -> None:
        """Follow the room's news from now on."""
        self._stop_watching = self.link.watch(self._told)
        self.what_happened()

    def now(self) -> float:
        """The time by the link's clock (the clock the state's times are told by)."""
        return self.link.clock()

    def what_happened(self) -> str | None:
        """What happened to the other players since the screen last asked (or since it
        opened), in a line; None: nothing."""
        new = self.state.seen(self.now())
        old, self._seen = self._seen, new
        return None if old is None else events_line(old, new)

    def _told(self, news: News) -> None:
        """Hand the link's news to the screen, as a message."""
        self.screen.post_message(RoomNews(news))

    def stop(self) -> None:
        """Stop following the room's news."""
        if self._stop_watching is not None:
            self._stop_watching()
            self._stop_watching = None

    def done_with_room(self) -> None:
        """Hand the room back to the app (the lobby or results left, the room left)."""
        self.screen.app.post_message(RoomDone())

    async def leave_room(self) -> None:
        """Leave the room (the server is told; the others stay) and hand it back to the app."""
        await self.link.leave()
        self.done_with_room()


class RoomScreen(ForageScreen):
    """A full screen of the app's room: it follows the link's news while it is mounted."""

    CSS_PATH = ROOMS_CSS

    def __init__(self) -> None:
        """A screen of the room, watching it once mounted."""
        super().__init__()
        self.room_watch = RoomWatch(self)

    @property
    def link(self) -> RoomLink:
        """The app's link to the room."""
        return self.room_watch.link

    @property
    def state(self) -> RoomState:
        """What the player has been told of the room, as it stands."""
        return self.room_watch.state

    def on_mount(self) -> None:
        """Follow the room's news from now on."""
        self.room_watch.start()

    def now(self) -> float:
        """The time by the link's clock (the clock the state's times are told by)."""
        return self.room_watch.now()

    def what_happened(self) -> str | None:
        """What happened to the other players since the screen last asked (or since it
        opened), in a line; None: nothing."""
        return self.room_watch.what_happened()

    def on_unmount(self) -> None:
        """Stop following the room's news."""
        self.room_watch.stop()

    def done_with_room(self) -> None:
        """Hand the room back to the app (the lobby or results left, the room left)."""
        self.room_watch.done_with_room()

    async def leave_room(self) -> None:
        """Leave the room (the server is told; the others stay) and hand it back to the app."""
        await self.room_watch.leave_room()


ROOM_RULES: Final = RoomRules()
"""The rules the server's rooms live by (how long a lost player is waited for)."""
PANEL_CELLS: Final = 28
"""The width of the game's side panel's text, until the panel is laid out."""
SCORE_CELLS: Final = 5
"""A score's column in the side panel, the space before it counted."""
STATUS_CELLS: Final = 5
"""The column of a player's status word (`` lost``, ``  out``) in the side panel."""
MARK_CELLS: Final = 2
"""A player's mark in the side panel (a tick for placed), the space after it counted."""
SLOW_SECONDS: Final = 20.0
"""How long after a call the player the others wait for is told that they wait."""


def names_text(names: Sequence[str]) -> str:
    """Names in a sentence: ``Ann``, ``Ann and Bob``, ``Ann, Bob and Cy``."""
    if len(names) < 2:
        return "".join(names)
    # Translators: the list's comma, between the names of a sentence.
    listed = _(", ").join(names[:-1])
    return _("{names} and {last}").format(names=listed, last=names[-1])


def connection_line(link: RoomLink) -> str | None:
    """What to say of the connection while it is not open (None while it is)."""
    if link.connection is Connection.LOST:
        if link.problem:
            return _("Connection lost, trying again{ellipsis} ({problem})").format(
                ellipsis=ELLIPSIS, problem=link.problem
            )
        return _("Connection lost, trying again{ellipsis}").format(ellipsis=ELLIPSIS)
    if link.connection is Connection.GONE:
        return _("The room cannot be taken back: {problem}.").format(
            problem=link.problem or _("the server no longer has it")
        )
    return None


def connection_news(news: News) -> str | None:
    """What a change of connection says on the screen's last line, if it is one."""
    if news.connection is Connection.OPEN:
        return _("Back in the room.")
    if news.connection is Connection.LOST:
        return _("Connection lost, trying again{ellipsis}").format(ellipsis=ELLIPSIS)
    return None


def take_back_command(link: RoomLink, day: date | None = None) -> str:
    """The command that takes the player's game in the link's room up again: ``forage room
    join CODE`` (the seat kept), or, for a try of the online daily, ``forage daily
    --online`` under the player's name."""
    server = server_option(link.server)
    if day is not None:
        return f"forage daily --online --name {shlex.quote(link.name)}{server}"
    return f"forage room join {shown_code(link.state.room)}{server}"


def room_name(room: str, day: date | None = None) -> str:
    """How a room is named on screen: by its code, or as the day's online daily."""
    if day is not None:
        return _("online daily {day}").format(day=day.isoformat())
    return _("room {code}").format(code=shown_code(room))


def title_of(state: RoomState, what: str, day: date | None = None) -> Text:
    """A room screen's title line (``day``: the room is that day's online daily), plain
    text whatever the server named the room."""
    return Text(title_text(f"{room_name(state.room, day)} {DOT} {what}"))


def players_text(state: RoomState, marks: Mapping[str, Style] = DEFAULT_MARKS) -> Text:
    """The lobby's players, one a line: the host and the player marked, the connection."""
    text = Text()
    for index, line in enumerate(state.players):
        if index:
            text.append("\n")
        text.append(f"{index + 1}. ")
        text.append(line.name, "bold" if line.player == state.player else "")
        roles = [
            *([_("host")] if line.player == state.host else []),
            *([_("you")] if line.player == state.player else []),
        ]
        if roles:
            text.append(_(" ({roles})").format(roles=_(", ").join(roles)))
        if not line.connected:
            text.append(_("  connection lost{ellipsis}").format(ellipsis=ELLIPSIS), marks["loss"])
    return text


def name_cell(name: str, mine: bool, width: int, *, you: str | None = None) -> Text:
    """A player's name in a column ``width`` cells wide: cut with an ellipsis where it is
    too long, the player's own bold and marked with ``you`` (`` (you)`` by default; kept
    whatever the name)."""
    # Translators: after the player's own name in a table of players (6 columns).
    you = (_(" (you)") if you is None else you) if mine else ""
    cell = Text(name, "bold" if mine else "")
    cell.truncate(width - cell_len(you), overflow="ellipsis")
    cell.append(you, "bold" if mine else "")
    cell.truncate(width, pad=True)
    return cell


def standings_heading(state: RoomState, width: int = PANEL_CELLS) -> str:
    """What the side panel's players are headed with, in ``width`` cells: what their
    scores are (the score each had when the turn being played was called, that is after
    the turn before)."""
    if not state.standings:
        return _("Players {dot} turn {turn}").format(dot=DOT, turn=state.turn)
    heading = _("Players {dot} score after turn {turn}").format(dot=DOT, turn=state.turn - 1)
    if cell_len(heading) <= width:
        return heading
    return _("Scores after turn {turn}").format(turn=state.turn - 1)


def standings_text(
    state: RoomState,
    marks: Mapping[str, Style] = DEFAULT_MARKS,
    *,
    compact: bool = False,
    width: int = PANEL_CELLS,
) -> Text:
    """The side panel of a room's game in ``width`` cells: every player's score after the
    turn before this one (the heading says so), who has placed this turn (a tick), who is
    out of the game or disconnected (the word, whole); the player marked. ``compact``: two
    players a line, shorter names (the player's own shown as ``you``), out and lost told by
    a one-cell mark and a dim name, with a legend of the marks shown."""
    text = Text()
    text.append(standings_heading(state, width), "bold")
    text.append("\n")
    placed = state.placed_now()
    scores = {line.player: line.score for line in state.standings}
    order = [line.player for line in state.standings] or [p.player for p in state.players]
    shown: set[str] = set()
    half = (width - 1) // 2
    for index, number in enumerate(order):
        out = not state.playing(number)
        lost = not out and not state.connected(number)
        mine = number == state.player
        score = scores.get(number)
        if compact:
            mark = TICK if number in placed else OUT_MARK if out else LOST_MARK if lost else " "
            style = marks["gain"] if number in placed else marks["bad" if out else "loss"]
            if mark != " ":
                shown.add(mark)
            if out or lost:
                shown.add(OUT_MARK if out else LOST_MARK)
            text.append(f"{mark} ", style)
            cells = half - MARK_CELLS - (SCORE_CELLS - 1)
            # Translators: the player's own name in the compact side panel (at most 8 columns).
            cell = name_cell(_("you") if mine else state.name(number), mine, cells, you="")
            if out or lost:
                cell.stylize("dim")
            text.append_text(cell)
            text.append(f" {score:>3}" if score is not None else "    ", marks["score"])
            text.append(" " if index % 2 == 0 and index + 1 < len(order) else "\n")
            continue
        mark = TICK if number in placed else " "
        text.append(f"{mark} ", marks["gain"] if number in placed else "")
        cells = width - MARK_CELLS - SCORE_CELLS - STATUS_CELLS
        text.append_text(name_cell(state.name(number), mine, cells))
        text.append(f" {score:>4}" if score is not None else " " * SCORE_CELLS, marks["score"])
        # Translators: "out" and "lost" after a player's score: 4 columns at most each.
        if out or lost:
            word = _("out") if out else _("lost")
            padded = " " * max(1, STATUS_CELLS - cell_len(word)) + word
            text.append(padded, marks["bad" if out else "loss"])
        text.append("\n")
    if compact and shown - {TICK}:
        legend = [
            f"{mark} {word}"
            for mark, word in ((TICK, _("placed")), (LOST_MARK, _("lost")), (OUT_MARK, _("out")))
            if mark in shown
        ]
        text.append(f" {DOT} ".join(legend), "dim")
    text.rstrip()
    return text


class Happened(StrEnum):
    """What can happen to a player of a room, as successive states of the link tell it."""

    JOINED = "joined"
    LEFT = "left"
    LOST = "lost"
    BACK = "back"
    STUCK = "stuck"
    WAITED_OUT = "waited-out"
    HOST = "host"


class RoomEvent(NamedTuple):
    """Something that happened to a player of the room."""

    happened: Happened
    player: int
    name: str


def room_events(
    old: RoomSeen, new: RoomSeen, wait: float = ROOM_RULES.wait_seconds
) -> list[RoomEvent]:
    """What happened to the other players between two states of the room: joined (the
    lobby), lost the connection, came back, left, got stuck, were waited out (the room waits
    ``wait`` seconds for a lost player), and who became the host. Nothing once it ended."""
    if new.ended:
        return []
    events: list[RoomEvent] = []
    for seat in new.seats:
        before = old.seat(seat.player)
        if seat.player == new.player:
            continue
        if before is None:
            if not new.started:
                events.append(RoomEvent(Happened.JOINED, seat.player, seat.name))
            continue
        if before.playing and not seat.playing:
            told = SAID_OUT.get(seat.status)  # the server's word, where it gave one
            if told is not None:
                happened = told
            elif seat.connected:
                happened = Happened.STUCK
            elif before.connected or not _waited(before, new.at, wait):
                happened = Happened.LEFT  # a lost player is out only once the wait is over
            else:
                happened = Happened.WAITED_OUT
            events.append(RoomEvent(happened, seat.player, seat.name))
        elif seat.playing and before.connected != seat.connected:
            happened = Happened.BACK if seat.connected else Happened.LOST
            events.append(RoomEvent(happened, seat.player, seat.name))
    if not new.started:
        for before in old.seats:
            if before.player != new.player and new.seat(before.player) is None:
                gone = Happened.LEFT if before.connected else Happened.WAITED_OUT
                events.append(RoomEvent(gone, before.player, before.name))
    if old.host is not None and new.host is not None and new.host != old.host:
        host = new.seat(new.host)
        events.append(RoomEvent(Happened.HOST, new.host, host.name if host else ""))
    return events


SAID_OUT: Final = {
    "left": Happened.LEFT,
    "stuck": Happened.STUCK,
    "dropped": Happened.WAITED_OUT,
}
"""What a player out of the game did, by the status the server's lobby gives them."""


def _waited(seat: SeatSeen, now: float, wait: float) -> bool:
    """Whether a lost player has been lost for about the room's wait (half of it, at least:
    the wait began when the server saw the connection go, perhaps before it was told)."""
    return seat.lost_since is None or now - seat.lost_since >= wait / 2


def wait_words(seconds: float) -> str:
    """The room's wait in words: ``2 min``, ``90 s``."""
    whole = int(seconds)
    if whole % 60 == 0:
        return _("{minutes} min").format(minutes=whole // 60)
    return _("{seconds} s").format(seconds=whole)


def event_line(
    event: RoomEvent, me: int, started: bool, wait: float = ROOM_RULES.wait_seconds
) -> str:
    """What the screen says of something that happened in the room."""
    name = event.name
    match event.happened:
        case Happened.JOINED:
            return _("{name} joined.").format(name=name)
        case Happened.LEFT if started:
            return _("{name} left the room; the others play on.").format(name=name)
        case Happened.LEFT:
            return _("{name} left.").format(name=name)
        case Happened.LOST:
            return _("{name} lost the connection; the room waits {wait} for them.").format(
                name=name, wait=wait_words(wait)
            )
        case Happened.BACK:
            return _("{name} is back.").format(name=name)
        case Happened.STUCK:
            return _("{name} is out: no card in their hand fits.").format(name=name)
        case Happened.WAITED_OUT if started:
            return _("{name} did not come back within {wait}: out of the game.").format(
                name=name, wait=wait_words(wait)
            )
        case Happened.WAITED_OUT:
            return _("{name} did not come back within {wait}: out of the room.").format(
                name=name, wait=wait_words(wait)
            )
        case Happened.HOST if event.player == me:
            return _("You are the host now.")
        case Happened.HOST:
            return _("{name} is the host now.").format(name=name)


def events_line(old: RoomSeen, new: RoomSeen) -> str | None:
    """What happened in the room between two of its states, in a line (None: nothing)."""
    said = [event_line(e, new.player, new.started) for e in room_events(old, new)]
    return " ".join(said) or None


def places(end: EndOut) -> list[int]:
    """Each result's place, in the order given (1 first; a tie shares the place)."""
    finals = [line.final for line in end.results]
    return [1 + sum(1 for other in finals if other > final) for final in finals]


def placing_of(state: RoomState) -> int | None:
    """The player's place in the room's results, once it has ended and they are in them."""
    end = state.end
    if end is None:
        return None
    found = [
        place for place, r in zip(places(end), end.results, strict=True) if r.player == state.player
    ]
    return found[0] if found else None


def replayed(line: ResultLine) -> Game | str:
    """A result's game, replayed by the engine from its record; or why it cannot be."""
    from forage.record import load_game

    try:
        game, refusal = load_game(json.dumps(line.record))
    except ValueError as exc:
        return _("its record cannot be read ({problem})").format(problem=exc)
    if refusal is not None:
        return _("its record has an illegal move ({reason})").format(reason=refusal.message)
    return game


def finished_game(state: RoomState, started: datetime | None) -> tuple[Game, PlayInfo] | None:
    """The player's game of an ended room, and what the history keeps with it: the game
    replayed from the record the server gave, if it is the game the player played here, else
    the game as played here; None before the end or with nothing placed."""
    from forage.history.games import PlayInfo, now_utc

    end = state.end
    if end is None:
        return None
    mine = next((r for r in end.results if r.player == state.player), None)
    played = state.game.game() if state.game is not None else None
    told = replayed(mine) if mine is not None else None
    game: Game | None = played
    if (
        told is not None
        and not isinstance(told, str)
        and (played is None or told.moves == played.moves)
    ):
        game = told
    if game is None or not game.moves:
        return None
    ended = now_utc()
    info = PlayInfo(
        player=state.name(state.player),
        started=started or ended,
        ended=ended,
        room=state.room,
        placing=placing_of(state),
        players=len(end.results),
    )
    return game, info


def history_key(state: RoomState) -> tuple[str, str, int]:
    """What the player's game of a room is kept under in the history (kept once)."""
    return ("room", state.room, state.player)


def left_game(state: RoomState, game: Game, started: datetime | None) -> tuple[Game, PlayInfo]:
    """The player's game of a room left before its end (as far as it went), and what the
    history keeps with it."""
    from forage.history.games import PlayInfo, now_utc

    ended = now_utc()
    count = len(state.standings) or len(state.players)
    return game, PlayInfo(
        player=state.name(state.player),
        started=started or ended,
        ended=ended,
        room=state.room,
        players=count or None,
    )


async def keep_room_game(
    app: object, key: object, found: tuple[Game, PlayInfo] | None
) -> Recorded | None:
    """Keep a room's game in the player's history, once for ``key``, on the history's
    thread; what was stored (None without a history, or a game)."""
    if found is None:
        return None
    game, info = found
    return await services_of(app).record_room(key, game, info)
