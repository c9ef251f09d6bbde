"""The game screen's widgets, grouped by what they show."""

from forage.app.widgets.hand import HandState, HandView
from forage.app.widgets.keys import KeyBar
from forage.app.widgets.players import PlayersView
from forage.app.widgets.score import ScorePanel, ScoreState
from forage.app.widgets.status import StatusBar, StatusState
from forage.app.widgets.supply import SupplyView
from forage.app.widgets.woodland import WoodlandState, WoodlandView

__all__ = [
    "HandState",
    "HandView",
    "KeyBar",
    "PlayersView",
    "ScorePanel",
    "ScoreState",
    "StatusBar",
    "StatusState",
    "SupplyView",
    "WoodlandState",
    "WoodlandView",
]
