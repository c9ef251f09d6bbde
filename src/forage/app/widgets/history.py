"""The end screen's history panel: achievements unlocked, the deal's scoreboard, the share line."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from forage.app.describe import ASCII, DOT, ELLIPSIS, STAR
from forage.app.themes import DEFAULT_MARKS, marks_of
from forage.history.achievements import Achievement, achievement_description, achievement_name
from forage.history.daily import share_key
from forage.history.store import ScoreLine
from forage.i18n import _, ngettext


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
        text.append(
            _("Storing the game in your history{ellipsis}").format(ellipsis=ELLIPSIS), "dim"
        )
        return text
    if not state.recorded:
        text.append(_("This game is not in the history (see the message above)."), "dim")
        return text
    for achievement in state.achievements:
        text.append(_("{star} Achievement: ").format(star=STAR), marks["score"])
        text.append(achievement_name(achievement), "bold")
        text.append(_(" ({description})").format(description=achievement_description(achievement)))
        text.append("\n")
    if state.scoreboard:
        par = _(" {dot} par {par}").format(dot=DOT, par=state.par) if state.par is not None else ""
        text.append(_("Scoreboard for this deal{par}").format(par=par), "bold")
        if state.first_only:
            text.append(_("  (each player's first game)"), "dim")
        else:
            text.append(_("  (each player's best game)"), "dim")
        text.append("\n")
        # Translators: beside a score on the scoreboard, 3 columns (a blank of 3 otherwise).
        won_mark = _("won")
        for line in state.scoreboard[:5]:
            style = "bold" if line.player == state.player else ""
            won = won_mark if line.won else " " * cell_len(won_mark)
            text.append(f"  {line.best:>3}  {won}  {line.player}", style)
            if line.games > 1:
                if state.first_only:
                    games = ngettext(
                        "  (first of {count} game)", "  (first of {count} games)", line.games
                    )
                else:
                    games = ngettext(
                        "  (best of {count} game)", "  (best of {count} games)", line.games
                    )
                text.append(games.format(count=line.games), "dim")
            text.append("\n")
    if state.share:
        text.append(_("Share: "), "bold")
        text.append(state.share)
        text.append(_("  (copied)") if state.copied else _("  (y copies it)"), "dim")
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
