"""A game of one's own: a deal of the player's choosing, or the day's deal (the daily),
saved, resumed and kept in the history; the game screen as it is."""

from __future__ import annotations

from forage.app.modes.base import Mode


class SoloMode(Mode):
    """The player's own game, a deal or the daily deal (the session says which)."""
