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
from typing import TYPE_CHECKING, Final

from rich.style import Style
from rich.text import Text
from textual.message import Message

from forage.app.describe import DOT, ELLIPSIS, TICK
from forage.app.lettering import shown_code
from forage.app.screens.base import ForageScreen
from forage.app.services import services_of
from forage.app.themes import DEFAULT_MARKS
from forage.net import server_option
from forage.net.link import Connection, News, RoomLink, RoomState
from forage.net.protocol import EndOut, ResultLine

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


def link_of(app: object) -> RoomLink:
    """The app's link to its room (raises RuntimeError when no room is open)."""
    link = services_of(app).room
    if link is None:
        raise RuntimeError("no room is open")
    return link


class RoomScreen(ForageScreen):
    """A full screen of the app's room: it follows the link's news while it is mounted."""

    CSS_PATH = "rooms.tcss"

    _stop_watching: Callable[[], None] | None = None

    @property
    def link(self) -> RoomLink:
        """The app's link to the room."""
        return link_of(self.app)

    @property
    def state(self) -> RoomState:
        """What the player has been told of the room, as it stands."""
        return self.link.state

    def on_mount(self) -> None:
        """Follow the room's news from now on."""
        self._stop_watching = self.link.watch(self._told)

    def _told(self, news: News) -> None:
        """Hand the link's news to this screen, as a message."""
        self.post_message(RoomNews(news))

    def on_unmount(self) -> None:
        """Stop following the room's news."""
        if self._stop_watching is not None:
            self._stop_watching()
            self._stop_watching = None

    def done_with_room(self) -> None:
        """Hand the room back to the app (the lobby or results left, the room left)."""
        self.app.post_message(RoomDone())

    async def leave_room(self) -> None:
        """Leave the room (the server is told; the others stay) and hand it back to the app."""
        await self.link.leave()
        self.done_with_room()


STANDING_CELLS: Final = 18
"""The width of a name in the game's side panel."""
COMPACT_CELLS: Final = 7
"""The width of a name in the side panel with two players a line."""


def names_text(names: Sequence[str]) -> str:
    """Names in a sentence: ``Ann``, ``Ann and Bob``, ``Ann, Bob and Cy``."""
    if len(names) < 2:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def connection_line(link: RoomLink) -> str | None:
    """What to say of the connection while it is not open (None while it is)."""
    if link.connection is Connection.LOST:
        why = f" ({link.problem})" if link.problem else ""
        return f"Connection lost, trying again{ELLIPSIS}{why}"
    if link.connection is Connection.GONE:
        return f"The room cannot be taken back: {link.problem or 'the server no longer has it'}."
    return None


def connection_news(news: News) -> str | None:
    """What a change of connection says on the screen's last line, if it is one."""
    if news.connection is Connection.OPEN:
        return "Back in the room."
    if news.connection is Connection.LOST:
        return f"Connection lost, trying again{ELLIPSIS}"
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
    return f"online daily {day.isoformat()}" if day is not None else f"room {shown_code(room)}"


def title_of(state: RoomState, what: str, day: date | None = None) -> Text:
    """A room screen's title line (``day``: the room is that day's online daily), plain
    text whatever the server named the room."""
    return Text(f"Forage {DOT} {room_name(state.room, day)} {DOT} {what}")


def players_text(state: RoomState, marks: Mapping[str, Style] = DEFAULT_MARKS) -> Text:
    """The lobby's players, one a line: the host and the player marked, the connection."""
    text = Text()
    for index, line in enumerate(state.players):
        if index:
            text.append("\n")
        text.append(f"{index + 1}. ")
        text.append(line.name, "bold" if line.player == state.player else "")
        roles = [
            *(["host"] if line.player == state.host else []),
            *(["you"] if line.player == state.player else []),
        ]
        if roles:
            text.append(f" ({', '.join(roles)})")
        if not line.connected:
            text.append(f"  connection lost{ELLIPSIS}", marks["loss"])
    return text


def name_cell(name: str, mine: bool, width: int, *, you: str = " (you)") -> Text:
    """A player's name in a column ``width`` cells wide: cut with an ellipsis where it is
    too long, the player's own bold and marked with ``you`` (kept whatever the name)."""
    you = you if mine else ""
    cell = Text(name, "bold" if mine else "")
    cell.truncate(width - len(you), overflow="ellipsis")
    cell.append(you, "bold" if mine else "")
    cell.truncate(width, pad=True)
    return cell


def standings_text(
    state: RoomState, marks: Mapping[str, Style] = DEFAULT_MARKS, *, compact: bool = False
) -> Text:
    """The side panel of a room's game: every player's score when this turn was called,
    who has placed this turn (a tick) and who is waited for, out of the game or
    disconnected; the player marked. ``compact``: two players a line, shorter names (the
    player's own shown as ``you``), out and lost told by the mark and a dim name."""
    text = Text()
    text.append(f"Players, turn {state.turn}\n", "bold")
    placed = state.placed_now()
    scores = {line.player: line.score for line in state.standings}
    order = [line.player for line in state.standings] or [p.player for p in state.players]
    for index, number in enumerate(order):
        out = not state.playing(number)
        lost = not out and not state.connected(number)
        mine = number == state.player
        mark = TICK if number in placed else ("-" if out else " ")
        text.append(f"{mark} ", marks["gain"] if number in placed else "")
        score = scores.get(number)
        if compact:
            cell = name_cell("you" if mine else state.name(number), mine, COMPACT_CELLS, you="")
            if out or lost:
                cell.stylize("dim")
            text.append_text(cell)
            text.append(f" {score:>3}" if score is not None else "    ", marks["score"])
            text.append(" " if index % 2 == 0 and index + 1 < len(order) else "\n")
            continue
        text.append_text(name_cell(state.name(number), mine, STANDING_CELLS))
        text.append(f" {score:>4}" if score is not None else "     ", marks["score"])
        if out:
            text.append(" out", marks["bad"])
        elif lost:
            text.append(" lost", marks["loss"])
        text.append("\n")
    waited = state.waiting_for()
    if state.game is not None and state.game.placed and waited:
        text.append(f"Waiting for {names_text(waited)}.", marks["note"])
    text.rstrip()
    return text


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
        return f"its record cannot be read ({exc})"
    if refusal is not None:
        return f"its record has an illegal move ({refusal.message})"
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
    game = played
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
    return await services_of(app).ask(lambda history: history.record_room(key, game, info), None)
