"""A room's players in the game's side panel: the text the screen gives, and a message up
whenever the panel has laid it out at a new size (the screen then checks it fits)."""

from __future__ import annotations

from textual import events
from textual.message import Message
from textual.widgets import Static


class PlayersView(Static):
    """The players' standings, as the room's screen words them."""

    class Resized(Message):
        """The players were laid out at a new size."""

    def on_resize(self, event: events.Resize) -> None:
        """Tell the screen the players were laid out anew."""
        self.post_message(self.Resized())
