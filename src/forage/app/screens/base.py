"""What every screen of the game shares: the "terminal too small" message."""

from __future__ import annotations

from typing import Final

from textual.screen import ModalScreen, Screen
from textual.widgets import Static

MIN_WIDTH: Final = 60
MIN_HEIGHT: Final = 20
TOO_SMALL: Final = (
    f"The terminal is too small for Forage.\n"
    f"Please make it at least {MIN_WIDTH}x{MIN_HEIGHT} (80x24 or more is best).\n"
    f"q quits; your game is saved."
)


def too_small_notice() -> Static:
    """The notice shown instead of the screen's contents when the terminal is too small."""
    return Static(TOO_SMALL, classes="too-small")


class ForageScreen(Screen[None]):
    """A full screen of the game; its contents hide when the terminal is too small."""


class ForageModal(ModalScreen[str]):
    """A dialog over the game; it too yields to the too-small notice."""
