"""A room's results: everyone's final score (highest first, as the server ranks them), who
won the room, and each player's woodland to look at, replayed by the engine from the game
record the server gave (a key steps through them).

The player's own game goes into their history here, with the room's code and their place.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import date, datetime
from typing import TYPE_CHECKING, ClassVar, Final

import aiohttp
from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from forage.app.describe import ELLIPSIS, POINTER
from forage.app.lettering import shown_code
from forage.app.screens.base import too_small_notice
from forage.app.screens.rooms import (
    RoomMoved,
    RoomNews,
    RoomScreen,
    finished_game,
    history_key,
    keep_room_game,
    name_cell,
    names_text,
    places,
    placing_of,
    replayed,
    title_of,
)
from forage.app.themes import DEFAULT_MARKS, marks_of
from forage.app.widgets import KeyBar, WoodlandState, WoodlandView
from forage.engine.scoring import WIN_LINE
from forage.i18n import _
from forage.net.client import day_board
from forage.net.daily import Board
from forage.net.link import Refused, RoomState, Unreachable
from forage.net.link import told as server_told
from forage.net.protocol import BusyOut, EndOut, EndReason, ErrorOut, RematchOut, name_key
from forage.wording import shown as shown_said

if TYPE_CHECKING:
    from forage.engine import Game


def ordinal(number: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``..."""
    forms = {1: _("{number}st"), 2: _("{number}nd"), 3: _("{number}rd")}
    return forms.get(number if number < 20 else number % 10, _("{number}th")).format(number=number)


def padded(text: str, cells: int) -> str:
    """``text`` and spaces after it, ``cells`` columns in all (a wide character counts two)."""
    return text + " " * (cells - cell_len(text))


def right_aligned(text: str, cells: int) -> str:
    """Spaces and then ``text``, ``cells`` columns in all."""
    return " " * (cells - cell_len(text)) + text


def winner_line(end: EndOut) -> str:
    """Who won the room (the highest final; a tie shares first place), and why it ended if
    not everyone's game was over."""
    reason = {
        EndReason.IDLE.value: " "
        + _("The room ended with nobody playing for a long while: every game ends as it stood."),
        EndReason.EMPTY.value: " " + _("Everyone left the room."),
    }.get(end.reason, "")
    if not end.results:
        return _("Nobody was dealt a game.") + reason
    best = end.results[0].final
    first = [line.name for line in end.results if line.final == best]
    if len(first) == 1:
        won = _("{name} wins the room with {points} points.").format(name=first[0], points=best)
    else:
        won = _("{names} share first place with {points} points.").format(
            names=names_text(first), points=best
        )
    return won + reason


def try_line(end: EndOut) -> str:
    """How the player's try of the online daily ended (a room of one)."""
    if not end.results:
        return _("Your try was not dealt.")
    line = end.results[0]
    if line.record.get("recipes"):
        said = (
            _("Your try: {final} points, a win (the recipes' target wins).")
            if line.won
            else _("Your try: {final} points, not a win (the recipes' target wins).")
        )
    else:
        said = (
            _("Your try: {final} points, a win ({line} points or more wins).")
            if line.won
            else _("Your try: {final} points, not a win ({line} points or more wins).")
        )
    return said.format(final=line.final, line=WIN_LINE)


RESULT_CELLS: Final = 42
"""The width of a name in the results table."""


def results_text(
    end: EndOut, player: int, shown: int, marks: Mapping[str, Style] = DEFAULT_MARKS
) -> Text:
    """The results table: place, name (the player marked), final, won; the woodland shown
    pointed at."""
    text = Text()
    # Translators: the heads of the results' columns: place 6 columns, player 42, final 5.
    heads = (padded(_("place"), 6), padded(_("player"), RESULT_CELLS), right_aligned(_("final"), 5))
    won_head = _("won")
    text.append(f"  {heads[0]} {heads[1]} {heads[2]}  {won_head}\n", "bold")
    for index, (place, line) in enumerate(zip(places(end), end.results, strict=True)):
        pointer = POINTER if index == shown else " "
        text.append(f"{pointer} {padded(ordinal(place), 6)} ")
        text.append_text(name_cell(line.name, line.player == player, RESULT_CELLS))
        text.append(" ")
        text.append(f"{line.final:>5}", marks["score"])
        # Translators: in the results' column "won" (3 columns at most).
        won = _("yes") if line.won else _("no")
        text.append(f"  {won}", marks["gain"] if line.won else marks["bad"])
        text.append("\n")
    recipes = bool(end.results and end.results[0].record.get("recipes"))
    if recipes:
        legend = _("won: the recipes' target reached (the rules' win, whatever the others scored)")
    else:
        legend = _("won: {line} points or more (the rules' win, whatever the others scored)")
    text.append(legend.format(line=WIN_LINE), "dim")
    return text


SHOWN_ON_BOARD: Final = 5
"""How many of the day's best the results show beside the player's own line."""


def board_text(board: Board, name: str, marks: Mapping[str, Style] = DEFAULT_MARKS) -> Text:
    """The online daily's board as the results show it: the player's place among the day's
    finished tries, the best few, and the player's own line where it is below them."""
    key = name_key(name)
    mine = next((e for e in board.entries if name_key(e.name) == key), None)
    text = Text()
    count = len(board.entries)
    if mine is None:
        text.append(
            _("Today's board ({date}): {count} finished; yours is not on it yet.").format(
                date=board.date, count=count
            )
        )
    else:
        text.append(_("Today's board ({date}): ").format(date=board.date), "bold")
        place = _("you are {place} of {count}").format(place=ordinal(mine.rank), count=count)
        text.append(place, marks["score"])
        text.append(_(" (ties go to who finished first)."))
    shown = [e for e in board.entries[:SHOWN_ON_BOARD]]
    if mine is not None and mine not in shown:
        shown.append(mine)
    for entry in shown:
        own = mine is not None and entry is mine
        text.append(f"\n  {padded(ordinal(entry.rank), 6)} {padded(entry.name[:40], 40)} ")
        text.append(f"{entry.final:>4}", marks["score"] + Style(bold=own))
        if own:
            text.append(" " + _(" (you)"), "bold")
    if mine is not None:
        text.append("\n" + _("To share: "), "dim")
        text.append(share_line(board, mine.rank, mine.final))
    return text


def share_line(board: Board, rank: int, final: int) -> str:
    """The player's try in one line to pass on: the day, the score, the place."""
    return _("Forage online daily {date}: {final} points, {place} of {count}").format(
        date=board.date, final=final, place=ordinal(rank), count=len(board.entries)
    )


def rematch_text(state: RoomState, asked: bool) -> str:
    """What the results say of a rematch: the host's key to open one, or the host's new
    room and the key that joins it."""
    offer = state.rematch
    if offer is not None:
        return _("{host} opened a new room for a rematch: y joins it ({code}).").format(
            host=offer.host, code=shown_code(offer.room)
        )
    if state.is_host:
        opening = _("Opening a new room{ellipsis}").format(ellipsis=ELLIPSIS)
        return opening if asked else REMATCH_HOST
    return ""


REMATCH_HOST: Final = _("r opens a new room on a new deal for everyone here (a rematch).")
"""The host's line on the results of a room of friends."""


class ResultsScreen(RoomScreen):
    """Everyone's result and woodland; tab (or the arrows) steps through the woodlands,
    escape or ``q`` is done with the room; the host's ``r`` opens a new room for its
    players (a rematch), which the others join with ``y``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("tab,right,down", "step(1)", _("Next woodland"), priority=True),
        Binding("shift+tab,left,up", "step(-1)", _("Previous"), show=False, priority=True),
        Binding("r", "rematch", _("Rematch")),
        Binding("y", "join_rematch", _("Join the rematch")),
        Binding("q,escape", "close", _("Done")),
    ]

    def __init__(self, started: datetime | None = None) -> None:
        """The results of the app's room, which ended; ``started``: when the player's game
        was dealt (kept in the history)."""
        super().__init__()
        self.started = started
        self.shown = 0
        self.kept = ""
        """What the history kept of the player's game, once it has."""
        self.board: Text | None = None
        """The online daily's board with the player's place, once read (a try of it)."""
        self._games: dict[int, Game | str] = {}
        self.room = ""
        """The room whose results these are (the link moves on to a rematch's)."""
        self._end: EndOut | None = None
        self._asked = False
        """The host has asked for a rematch (answered by the new room, or a refusal)."""
        self._note = ""
        """What the server said to the last key, if anything."""
        self._moved = False
        """The link has moved on to the rematch's room and its lobby has taken over."""

    def compose(self) -> ComposeResult:
        """The title, who won, the table, the woodland shown and its caption."""
        yield too_small_notice()
        with Vertical(id="results", classes="body"):
            yield Static(id="results-title", classes="room-title")
            yield Static(id="results-winner")
            yield Static(id="results-table")
            yield Static(id="results-caption")
            yield WoodlandView(id="results-woodland")
        yield KeyBar()

    @property
    def end(self) -> EndOut:
        """The room's end, as the server told it."""
        end = self._end or self.state.end
        assert end is not None
        return end

    def on_mount(self) -> None:
        """Show the results, the player's own woodland first; keep the player's game in their
        history."""
        self.room, self._end = self.state.room, self.state.end
        player = self.state.player
        self.shown = next((i for i, r in enumerate(self.end.results) if r.player == player), 0)
        self.update_view()
        self.run_worker(self._keep(), group="history")

    @property
    def online_daily(self) -> date | None:
        """The day of the online daily whose try this room was, if it was one."""
        day = getattr(self.app, "online_daily", None)
        return day if isinstance(day, date) else None

    async def _keep(self) -> None:
        """Keep the player's game in the history (on the history's thread), then say so; a
        try of the online daily, then the day's board with the player's place."""
        state = self.state
        key = history_key(state)
        found = finished_game(state, self.started)
        day = self.online_daily
        if day is not None and found is not None:
            game, info = found
            info = replace(info, online=True, daily=day, placing=None, players=1)
            found = (game, info)
        recorded = await keep_room_game(self.app, key, found)
        if day is not None:
            if recorded is not None:
                self.kept = _("Your try is in your history.")
            await self._show_board(day)
            return
        if recorded is not None:
            place = placing_of(state)
            if place is not None:
                self.kept = _("Your game is in your history: {place} of {count}.").format(
                    place=ordinal(place), count=len(self.end.results)
                )
            else:
                self.kept = _("Your game is in your history.")
            self.update_view()

    async def _show_board(self, day: date) -> None:
        """Read the day's board from the server and show the player's place on it."""
        marks = marks_of(self.app)
        try:
            board = await day_board(self.link.server, day.isoformat())
        except (aiohttp.ClientError, OSError, TimeoutError, ValueError) as error:
            unread = _("Today's board cannot be read: {problem}.").format(problem=error)
            self.board = Text(unread, marks["bad"])
        else:
            self.board = board_text(board, self.state.name(self.state.player), marks)
        self.update_view()

    def on_room_news(self, message: RoomNews) -> None:
        """The room is over: nothing it says changes the results but a rematch offered, a
        refusal, or the link gone on to the rematch's room (whose lobby takes over)."""
        if self._follow_rematch():
            return
        told = message.news.message
        if isinstance(told, ErrorOut | BusyOut):
            self._asked = self._asked and isinstance(told, BusyOut)
            self._note = _("The server says: {message}.").format(message=server_told(told))
        if isinstance(told, RematchOut | ErrorOut | BusyOut):
            self.update_view()

    def _follow_rematch(self) -> bool:
        """Once the link is in the rematch's room, its lobby takes over; whether it has."""
        if self._moved or self.state.room == self.room:
            return self._moved
        self._moved = True
        self.app.post_message(RoomMoved())
        return True

    def game_of(self, index: int) -> Game | str:
        """The game of result ``index``, replayed once."""
        found = self._games.get(index)
        if found is None:
            found = self._games[index] = replayed(self.end.results[index])
        return found

    def update_view(self) -> None:
        """Every part of the screen, for the woodland shown."""
        if self._follow_rematch():
            return
        end, state = self.end, self.state
        marks = marks_of(self.app)
        self.query_one("#results-title", Static).update(
            title_of(state, _("results"), self.online_daily)
        )
        daily = self.online_daily is not None
        said = try_line(end) if daily else winner_line(end)
        winner = Text(said, marks["gain"] + Style(bold=True))
        if self.kept:
            winner.append(f"\n{self.kept}", marks["note"])
        if self.board is not None:
            winner.append("\n")
            winner.append_text(self.board)
        rematch = "" if daily else rematch_text(state, self._asked)
        if rematch:
            winner.append(f"\n{rematch}", marks["note"])
        if self._note:
            winner.append(f"\n{self._note}", marks["bad"])
        self.query_one("#results-winner", Static).update(winner)
        self.query_one("#results-table", Static).update(
            "" if daily else results_text(end, state.player, self.shown, marks)
        )
        caption = Text()
        woodland = self.query_one(WoodlandView)
        if end.results:
            line = end.results[self.shown]
            mine = line.player == state.player
            game = self.game_of(self.shown)
            if isinstance(game, str):
                unshown = (
                    _("Your woodland cannot be shown: {problem}")
                    if mine
                    else _("{name}'s woodland cannot be shown: {problem}")
                )
                caption.append(unshown.format(name=line.name, problem=game), marks["bad"])
                woodland.state = WoodlandState(game=self.shown + 1)
            else:
                whose = _("Your woodland") if mine else _("{name}'s woodland")
                caption.append(whose.format(name=line.name), "bold")
                if len(end.results) > 1:
                    final = _(" (final {final}); tab shows the next.")
                else:
                    final = _(" (final {final}).")
                caption.append(final.format(final=line.final))
                woodland.state = WoodlandState(squares=game.woodland.squares, game=self.shown + 1)
        self.query_one("#results-caption", Static).update(caption)
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Stepping through the woodlands only where there is more than one."""
        end = self.state.end
        if action == "step" and (end is None or len(end.results) < 2):
            return False
        daily = self.online_daily is not None
        if action == "rematch":
            return self.state.is_host and not daily and not self._asked
        if action == "join_rematch":
            return self.state.rematch is not None and not daily
        return super().check_action(action, parameters)

    async def action_rematch(self) -> None:
        """Ask the server for a new room for the room's players (the host): its lobby takes
        over once the server has opened it."""
        self._note = ""
        if await self.link.rematch():
            self._asked = True
        else:
            self._note = _("Not connected to the server: the rematch cannot be asked for.")
        self.update_view()
        self.refresh_bindings()

    async def action_join_rematch(self) -> None:
        """Join the room the host opened for a rematch, under the same name."""
        try:
            await self.link.join_rematch()
        except (Unreachable, Refused) as problem:
            self._note = _("The rematch cannot be joined: {problem}.").format(
                problem=shown_said(problem)
            )
            self.update_view()
            return
        self._follow_rematch()

    def action_step(self, step: int) -> None:
        """Show the next (or the previous) player's woodland."""
        count = len(self.end.results)
        if count:
            self.shown = (self.shown + step) % count
            self.update_view()

    def action_close(self) -> None:
        """Done with the room."""
        self.done_with_room()
