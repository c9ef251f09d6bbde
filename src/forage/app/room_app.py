"""``forage room``: the app that plays in a room the command line has opened or joined.

The command connects first (so that a server that cannot be reached, or a room that is not
there, is one line and exit 2) and hands the open link over; the app shows the lobby, the
room's game and its results, and ends when the player is done with the room.
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from forage.app.base import ForageBaseApp
from forage.app.services import Services
from forage.i18n import _

if TYPE_CHECKING:
    from forage.app.recorder import Recorder
    from forage.app.screens.rooms import RoomDone, RoomMoved
    from forage.app.session import Session
    from forage.net.link import RoomLink


class RoomApp(ForageBaseApp):
    """Forage in a room: the lobby, the game with the server calling the cards, the results."""

    TITLE = _("Forage")

    def __init__(
        self, link: RoomLink, recorder: Recorder | None = None, online_daily: date | None = None
    ) -> None:
        """The app of the room ``link`` is in (open), its game kept in ``recorder``'s
        history; ``online_daily``: the day, when the room is a try of the server's online
        daily (its results then show the day's board)."""
        super().__init__(Services(history=recorder, room=link))
        self.online_daily = online_daily
        if recorder is not None:
            recorder.tell = self.history_notice

    def on_mount(self) -> None:
        """The lobby (which gives way to the game once the server deals)."""
        from forage.app.screens.lobby import LobbyScreen

        self.listen_for_signals()
        self.push_screen(LobbyScreen())

    @property
    def session(self) -> Session | None:
        """The session of the room's game, while its screen is showing."""
        # The lobby is the room's first frame: the game's screen loads once the room starts.
        from forage.app.modes.room import RoomMode
        from forage.app.screens.game import GameScreen

        screen = self.screen
        if isinstance(screen, GameScreen) and isinstance(screen.mode, RoomMode):
            return screen.session
        return None

    def stop_on_signal(self, code: int) -> None:
        """Keep a room's game not yet ended in the history as left, then leave with
        ``code``."""
        self.run_worker(self._keep_and_stop(code), group="stopping")

    async def _keep_and_stop(self, code: int) -> None:
        """Keep the room's game as left (once the history has it), then leave."""
        # The lobby is the room's first frame: the game's screen loads once the room starts.
        from forage.app.modes.room import RoomMode
        from forage.app.screens.game import GameScreen

        for screen in self.screen_stack:
            if isinstance(screen, GameScreen) and isinstance(screen.mode, RoomMode):
                await screen.mode.keep_if_left()
        super().stop_on_signal(code)

    async def on_room_done(self, message: RoomDone) -> None:
        """The player is done with the room: close its link and end."""
        await self.services.close_room()
        self.exit(0)

    def on_room_moved(self, message: RoomMoved) -> None:
        """The room's link has gone on to a rematch's room: its lobby takes over."""
        from forage.app.screens.lobby import LobbyScreen

        self.switch_screen(LobbyScreen())
