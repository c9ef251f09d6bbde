"""The screens of the game, one per file; each is imported when first asked for, so the
game's first frame does not wait for the dialogs."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from forage.app.screens.confirm import ConfirmScreen
    from forage.app.screens.end import EndScreen
    from forage.app.screens.game import GameScreen
    from forage.app.screens.help import HelpScreen
    from forage.app.screens.history import HistoryScreen
    from forage.app.screens.review import ReviewScreen
    from forage.app.screens.stats import StatsScreen

__all__ = [
    "ConfirmScreen",
    "EndScreen",
    "GameScreen",
    "HelpScreen",
    "HistoryScreen",
    "ReviewScreen",
    "StatsScreen",
]

_MODULES = {
    "ConfirmScreen": "confirm",
    "EndScreen": "end",
    "GameScreen": "game",
    "HelpScreen": "help",
    "HistoryScreen": "history",
    "ReviewScreen": "review",
    "StatsScreen": "stats",
}


def __getattr__(name: str) -> Any:
    """A screen class, imported from its module on first use."""
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{module}"), name)
