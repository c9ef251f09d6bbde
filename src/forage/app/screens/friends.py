"""Play with friends from the game (``i``): the dialog that asks for a name and a room code
(none: a new room), then opens or joins the room on the rooms server.

The server is the one the game was started by when it is a browser tab of ``forage serve``
(which gives its address in ``FORAGE_ROOMS_SERVER``), else ``http://127.0.0.1:8000``.
Problems (a name the server would refuse, a code that cannot be one, a server that cannot
be reached, a room that is not there) are said in the dialog, which stays open to try
again; escape goes back to the game.
"""

from __future__ import annotations

import os
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Checkbox, Input, Label, Static

from forage.app.describe import ELLIPSIS
from forage.app.screens.base import ForageModal, too_small_notice
from forage.app.services import services_of
from forage.app.widgets.keys import KeyBar
from forage.i18n import _
from forage.net import DEFAULT_SERVER, ROOMS_SERVER_VARIABLE
from forage.net.identity import seat_in
from forage.net.link import Refused, Unreachable
from forage.net.protocol import MAX_NAME, room_code, room_name
from forage.wording import shown


def rooms_server() -> str:
    """The rooms server the game's ``i`` plays on."""
    return os.environ.get(ROOMS_SERVER_VARIABLE) or DEFAULT_SERVER


class FriendsScreen(ForageModal):
    """Ask for a name and a room code, then get into the room; dismisses with ``in`` once
    in it (the app's room is then open), or ``""`` (escape)."""

    CSS_PATH: ClassVar[list[str]] = ["dialogs.tcss", "rooms.tcss"]  # type: ignore[assignment]

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", _("Back to the game")),
    ]

    def __init__(self, server: str, name: str) -> None:
        """The dialog for the rooms of ``server``, the name filled in with ``name``."""
        super().__init__()
        self.server = server
        self.player = name
        self.busy = False
        """Getting into a room: keys wait until the server has answered (10 s at most)."""

    def compose(self) -> ComposeResult:
        """The name, the code, the recipe challenge's box, what went wrong."""
        yield too_small_notice()
        with Vertical(classes="body dialog friends"):
            yield Static(_("Play with friends"), classes="dialog-title")
            yield Static(
                _(
                    "Everyone plays the same cards, called by the server at {server}; "
                    "each builds their own woodland."
                ).format(server=self.server)
            )
            yield Label(_("Your name"))
            yield Input(value=self.player, max_length=MAX_NAME, id="friends-name")
            yield Label(_("A friend's room code (leave it empty to open a new room)"))
            yield Input(placeholder="K7MX-3QPA", max_length=20, id="friends-code")
            yield Checkbox(_("A new room plays a recipe challenge"), id="friends-recipes")
            yield Static(_("enter: go    escape: back to the game"), id="friends-keys")
            yield Static(id="friends-status")
        yield KeyBar()

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in either box: go (once at a time)."""
        if self.busy:
            return
        self.busy = True
        try:
            await self.go()
        finally:
            self.busy = False

    def say(self, text: str) -> None:
        """Say what went wrong (or what is going on) under the boxes, as plain text (a
        server's words are never markup)."""
        self.query_one("#friends-status", Static).update(Text(text))

    async def go(self) -> None:
        """Check the name and the code as the server would, then open or join the room."""
        given = self.query_one("#friends-name", Input).value
        try:
            name = room_name(given)
        except ValueError as exc:
            self.say(_("Your name: {problem}.").format(problem=shown(exc)))
            return
        typed = self.query_one("#friends-code", Input).value.strip()
        code = room_code(typed) if typed else None
        if typed and code is None:
            self.say(_("A room code is 8 letters and digits, as the host's screen shows it."))
            return
        self.say(
            _("Connecting to {server}{ellipsis}").format(server=self.server, ellipsis=ELLIPSIS)
        )
        services = services_of(self.app)
        link = services.open_room(self.server)
        seat = None if code is None else seat_in(self.server, code)
        try:
            if code is None:
                recipes = self.query_one("#friends-recipes", Checkbox).value
                await link.create(name, recipes=recipes)
            elif seat is not None:  # this data folder's seat in the room: taken back
                await link.rejoin(seat)
            else:
                await link.join(code, name)
        except (Unreachable, Refused) as exc:
            services.room = None
            refusal = shown(exc)
            self.say(f"{refusal[:1].upper()}{refusal[1:]}.")
            return
        services.take_name(link.name)  # the data folder's name from now on
        self.dismiss("in")

    def action_close(self) -> None:
        """Back to the game (once the server has answered, if it is being asked)."""
        if not self.busy:
            self.dismiss("")
