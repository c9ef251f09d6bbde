"""The end screen's history panel: achievements unlocked, the deal's scoreboard, the share line."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from forage.app.describe import ASCII, DOT, ELLIPSIS, STAR
from forage.app.themes import DEFAULT_MARKS, marks_of
from forage.history.achievements import Achievement
from forage.history.daily import share_key
from forage.history.store import ScoreLine


@dataclass(frozen=True, eq=False)
class HistoryState:
    """What the history panel shows."""

    recorded: bool = False
    waiting: bool = False
    """The history has not answered yet."""
    player: str = ""
    achievements: tuple[Achievement, ...] = ()
    scoreboard: tuple[ScoreLine, ...] = ()
    par: int | None = None
    share: str | None = None
    first_only: bool = False
    """The scoreboard counts each player's first game (the daily deal), else their best."""
    copied: bool = False
    """The share line has been put on the clipboard."""


def history_text(state: HistoryState, marks: Mapping[str, Style] = DEFAULT_MARKS) -> Text:
    """New achievements, then the deal's scoreboard, then the daily share line."""
    text = Text()
    if state.waiting:
        text.append(f"Storing the game in your history{ELLIPSIS}", "dim")
        return text
    if not state.recorded:
        text.append("This game is not in the history (see the message above).", "dim")
        return text
    for achievement in state.achievements:
        text.append(f"{STAR} Achievement: ", marks["score"])
        text.append(achievement.name, "bold")
        text.append(f" ({achievement.description})\n")
    if state.scoreboard:
        par = f" {DOT} par {state.par}" if state.par is not None else ""
        which = "first" if state.first_only else "best"
        text.append(f"Scoreboard for this deal{par}", "bold")
        text.append(f"  (each player's {which} game)\n", "dim")
        for line in state.scoreboard[:5]:
            style = "bold" if line.player == state.player else ""
            won = "won" if line.won else "   "
            text.append(f"  {line.best:>3}  {won}  {line.player}", style)
            if line.games > 1:
                text.append(f"  ({which} of {line.games} games)", "dim")
            text.append("\n")
    if state.share:
        text.append("Share: ", "bold")
        text.append(state.share)
        text.append("  (copied)" if state.copied else "  (y copies it)", "dim")
        text.append(f"\n{share_key(ASCII)}", "dim")
    return text


class HistoryPanel(Widget):
    """What the history says about the game just finished."""

    state: reactive[HistoryState] = reactive(HistoryState, always_update=True, layout=True)
    """What to show; its height follows its lines (a layout each time it changes)."""

    def render(self) -> Text:
        """The panel's text."""
        text = history_text(self.state, marks_of(self.app))
        text.rstrip()
        return text
