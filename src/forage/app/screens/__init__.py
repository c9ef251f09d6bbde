"""The screens of the game, one per file."""

from forage.app.screens.confirm import ConfirmScreen
from forage.app.screens.end import EndScreen
from forage.app.screens.game import GameScreen
from forage.app.screens.help import HelpScreen
from forage.app.screens.stats import StatsScreen

__all__ = ["ConfirmScreen", "EndScreen", "GameScreen", "HelpScreen", "StatsScreen"]
