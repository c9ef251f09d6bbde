"""The statistics screen (the `s` key): the player's figures, recent scores and achievements."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from forage.app.describe import ASCII
from forage.app.history_report import achievements_table, figures_table, sparkline
from forage.app.screens.base import ForageModal, too_small_notice
from forage.app.themes import marks_of
from forage.app.widgets.keys import KeyBar
from forage.history.achievements import all_achievements
from forage.history.stats import Statistics
from forage.i18n import _


class StatsScreen(ForageModal):
    """A player's statistics and achievements; escape, s or q closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,s,q", "close", _("Close statistics")),
    ]

    def __init__(self, stats: Statistics | None, unlocked: dict[str, str]) -> None:
        """The screen for these statistics (None: history is off)."""
        super().__init__()
        self.stats = stats
        self.unlocked = unlocked

    def compose(self) -> ComposeResult:
        """Figures, a sparkline of recent scores, and the achievements, in a scrolling box."""
        yield too_small_notice()
        with Vertical(classes="body dialog stats"):
            yield Static(_("Statistics and achievements"), classes="dialog-title")
            with VerticalScroll():
                if self.stats is None:
                    yield Static(
                        _("History is off in this game: nothing is recorded."), id="stats-off"
                    )
                else:
                    yield Static(figures_table(self.stats, ASCII), id="stats-figures")
                    recent = self.stats.recent
                    label = (
                        _("Last {count} scores ({low} to {high})").format(
                            count=len(recent), low=min(recent), high=max(recent)
                        )
                        if recent
                        else _("No finished games yet.")
                    )
                    yield Static(Text(label, "bold"), id="stats-trend-label")
                    if recent:  # no line of empty bars under "No finished games yet."
                        trend = Text(sparkline(recent, ASCII), marks_of(self.app)["score"])
                        yield Static(trend, id="stats-trend")
                    yield Static(
                        achievements_table(all_achievements(), self.unlocked, ASCII),
                        id="stats-achievements",
                    )
        yield KeyBar()

    def action_close(self) -> None:
        """Back to the game."""
        self.dismiss("")
