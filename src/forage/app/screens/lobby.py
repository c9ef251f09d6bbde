"""The lobby of a room: its code drawn large enough to read out across a table, who is
here (and whose connection is lost), the host's key to deal, and leaving.

Once the server deals, the lobby gives way to the room's game screen.
"""

from __future__ import annotations

from typing import ClassVar, Final

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from forage.app.describe import DOT, ELLIPSIS, FRIENDS_KEY
from forage.app.lettering import big_lines, shown_code
from forage.app.screens.base import too_small_notice
from forage.app.screens.rooms import (
    RoomNews,
    RoomScreen,
    connection_line,
    connection_news,
    players_text,
    title_of,
)
from forage.app.themes import marks_of
from forage.app.widgets.keys import KeyBar
from forage.i18n import _
from forage.net import server_option
from forage.net.link import RoomState, told
from forage.net.protocol import MAX_PLAYERS, MIN_PLAYERS, BusyOut, ErrorOut

LEAVING: Final = _(
    "Leave room {code}? You can join it again with its code until the host starts; "
    "the others stay in it."
)


def lobby_kind(state: RoomState) -> str:
    """The lobby's title after the room's name: the kind of game, where the player knows
    it (the host, who chose it)."""
    if state.recipes is None:
        return _("lobby")
    if state.recipes:
        return _("recipe challenge {dot} lobby").format(dot=DOT)
    return _("standard game {dot} lobby").format(dot=DOT)


class LobbyScreen(RoomScreen):
    """The room before the deal; the host deals with ``s``, escape or ``q`` leaves."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "start", _("Start the game")),
        Binding("q,escape", "leave", _("Leave room")),
    ]

    def __init__(self) -> None:
        """The lobby of the app's room."""
        super().__init__()
        self._note = ""
        """The answer to the last key or the last news, under the players."""
        self._dealt = False
        """The room's game has taken over from the lobby."""

    def compose(self) -> ComposeResult:
        """The title; the code, large; how friends join; the players; what is awaited."""
        yield too_small_notice()
        with Vertical(id="lobby", classes="body"):
            yield Static(id="lobby-title", classes="room-title")
            yield Static(_("Give your friends the room's code:"), id="lobby-ask")
            yield Static(id="lobby-code")
            yield Static(id="lobby-join")
            yield Static(id="lobby-players")
            yield Static(id="lobby-status")
        yield KeyBar()

    def on_mount(self) -> None:
        """Show the room as it stands (the deal may have come already)."""
        self.update_view()
        self.call_after_refresh(self.follow_deal)

    def follow_deal(self) -> None:
        """Once dealt, the room's game takes over from the lobby; the results, where a seat
        taken back finds the room ended."""
        state = self.state
        if state.game is None or self._dealt:
            return
        self._dealt = True  # news coming meanwhile does not switch again
        if state.end is None:
            from forage.app.modes.room import room_game_screen

            self.app.switch_screen(room_game_screen(self.app))
        else:
            from forage.app.screens.results import ResultsScreen

            self.app.switch_screen(ResultsScreen())

    def on_room_news(self, message: RoomNews) -> None:
        """Show the room as it now stands; say what happened."""
        news = message.news
        said = connection_news(news)
        if said is not None:
            self._note = said
        if isinstance(news.message, ErrorOut | BusyOut):
            self._note = _("The server says: {message}.").format(message=told(news.message))
        happened = self.what_happened()
        if happened is not None:
            self._note = happened
        self.update_view()
        self.follow_deal()

    def update_view(self) -> None:
        """Every line of the lobby, from the link's state."""
        state = self.state
        marks = marks_of(self.app)
        self.query_one("#lobby-title", Static).update(title_of(state, lobby_kind(state)))
        code = "\n".join(big_lines(shown_code(state.room)))
        self.query_one("#lobby-code", Static).update(Text(code, marks["score"]))
        server = server_option(self.link.server)
        self.query_one("#lobby-join", Static).update(
            Text.assemble(
                (_("They join with: "), ""),
                (f"forage room join {shown_code(state.room)}{server}", "bold"),
                "\n"
                + _("(in a browser game of this server: {key}, then the code)").format(
                    key=FRIENDS_KEY
                ),
            )
        )
        here = _("Here ({count} of {most}):").format(count=len(state.players), most=MAX_PLAYERS)
        players = Text(here + "\n", "bold")
        players.append_text(players_text(state, marks))
        self.query_one("#lobby-players", Static).update(players)
        self.query_one("#lobby-status", Static).update(self.status_text())
        self.refresh_bindings()

    def status_text(self) -> Text:
        """What the lobby waits for, or what went wrong."""
        state = self.state
        marks = marks_of(self.app)
        text = Text()
        problem = connection_line(self.link)
        if problem is not None:
            text.append(problem + "\n", marks["loss"])
        if state.end is not None:
            text.append(_("The room has ended: nobody is left to play in it. q leaves.") + "\n")
        elif state.is_host:
            hosting = _(
                "You are the host: s starts the game once everyone is here "
                "({least} to {most} players)."
            )
            text.append(hosting.format(least=MIN_PLAYERS, most=MAX_PLAYERS) + "\n")
        else:
            if state.host is not None:
                waiting = _("Waiting for {host}, the host, to start the game.").format(
                    host=state.name(state.host)
                )
            else:
                waiting = _("Waiting for the host, the host, to start the game.")
            text.append(waiting + "\n")
        if self._note:
            text.append(self._note, marks["note"])
        return text

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only the host deals."""
        if action == "start":
            return self.state.is_host and self.state.end is None
        return True

    async def action_start(self) -> None:
        """Ask the server to deal (it checks there are enough players, and says so)."""
        here = len(self.state.players)
        if here < MIN_PLAYERS:
            self._note = _(
                "A room starts with {least} to {most} players, and only you are "
                "here: give your friends the code."
            ).format(least=MIN_PLAYERS, most=MAX_PLAYERS)
        elif await self.link.start():
            self._note = _("Dealing{ellipsis}").format(ellipsis=ELLIPSIS)
        else:
            self._note = _("Not connected just now: try again once back in the room.")
        self.update_view()

    def action_leave(self) -> None:
        """Leave the room, once the player says so (what leaving does is asked first)."""
        from forage.app.screens.confirm import ConfirmScreen

        async def answered(answer: str | None) -> None:
            if answer == "yes":
                await self.leave_room()

        question = LEAVING.format(code=shown_code(self.state.room))
        self.app.push_screen(ConfirmScreen(question, (_("leave"), _("stay"))), answered)
