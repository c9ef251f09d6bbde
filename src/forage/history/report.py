"""Statistics and history as Rich tables and text charts (the CLI and the screen alike)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal, NamedTuple

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from forage.history.achievements import Achievement
from forage.history.stats import BUCKET, Statistics
from forage.history.store import StoredGame

BLOCKS: Final = "▁▂▃▄▅▆▇█"
BAR_WIDTH: Final = 30


def sparkline(values: Sequence[int]) -> str:
    """One block character per value, scaled from the lowest value to the highest."""
    if not values:
        return ""
    low, high = min(values), max(values)
    span = high - low
    top = len(BLOCKS) - 1
    return "".join(BLOCKS[round((v - low) * top / span) if span else top // 2] for v in values)


def _percent(rate: float | None) -> str:
    return "-" if rate is None else f"{rate * 100:.0f}%"


def _shown(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


def figures_table(stats: Statistics) -> Table:
    """The headline figures: games, wins, best, mean, streaks, recipes."""
    table = Table(title=f"Statistics of {stats.player}", show_header=False, title_justify="left")
    table.add_column("figure", style="bold")
    table.add_column("value", justify="right")
    table.add_row("games finished", str(stats.games))
    table.add_row("wins", f"{stats.wins} ({_percent(stats.win_rate)})")
    table.add_row("best score", _shown(stats.best))
    table.add_row("mean score", _shown(stats.mean))
    table.add_row("winning streak", f"{stats.streak_current} now, {stats.streak_best} best")
    table.add_row("recipe challenges", f"{stats.recipe_won} won of {stats.recipe_played} played")
    beaten = ", ".join(str(n) for n in stats.recipes_beaten) or "none yet"
    table.add_row("recipes beaten", f"{len(stats.recipes_beaten)} of 18: {beaten}")
    table.add_row("games abandoned", str(stats.abandoned))
    return table


def distribution_chart(stats: Statistics) -> Text:
    """The score distribution as one bar per bucket, and the recent trend as a sparkline."""
    text = Text()
    if not stats.distribution:
        text.append("No finished games yet.", "dim")
        return text
    text.append("Scores\n", "bold")
    most = max(n for _, n in stats.distribution)
    for start, count in stats.distribution:
        bar = "█" * max(1 if count else 0, round(count * BAR_WIDTH / most))
        text.append(f"{start:>4}-{start + BUCKET - 1:<4} ")
        text.append(bar, "green")
        text.append(f" {count}\n")
    text.append(f"Last {len(stats.recent)} scores ", "bold")
    text.append(sparkline(stats.recent), "cyan")
    text.append(f"  ({stats.recent[0]} … {stats.recent[-1]})")
    return text


def achievements_table(achievements: Sequence[Achievement], unlocked: dict[str, str]) -> Table:
    """Every achievement, unlocked (with its date) or still to get."""
    table = Table(title="Achievements", title_justify="left")
    table.add_column("", width=1)
    table.add_column("achievement", style="bold")
    table.add_column("what it takes")
    table.add_column("unlocked")
    for achievement in achievements:
        when = unlocked.get(achievement.id)
        table.add_row(
            "★" if when else "·",
            achievement.name,
            achievement.description,
            when or "",
            style=None if when else "dim",
        )
    return table


def stats_report(
    stats: Statistics, achievements: Sequence[Achievement], unlocked: dict[str, str]
) -> RenderableType:
    """Everything ``forage stats`` prints."""
    return Group(
        figures_table(stats),
        distribution_chart(stats),
        Text(),
        achievements_table(achievements, unlocked),
    )


class HistoryColumn(NamedTuple):
    """A column of the history table: its heading and how its cells sit."""

    heading: str
    justify: Literal["left", "right"] = "left"
    fold: bool = False
    """Whether a long cell wraps onto more lines (else it stays on one)."""


HISTORY_COLUMNS: Final = (
    HistoryColumn("id", "right"),
    HistoryColumn("ended (UTC)"),
    HistoryColumn("player", fold=True),
    HistoryColumn("mode"),
    HistoryColumn("final", "right"),
    HistoryColumn("won"),
    HistoryColumn("par", "right"),
    HistoryColumn("hints/undos", "right"),
    HistoryColumn("deal", fold=True),
)
"""The columns of the history, in order (``forage history`` and the history screen); the
long deal code comes last, so a narrow screen shows the rest."""


def history_cells(game: StoredGame) -> tuple[str, ...]:
    """One stored game's cells under :data:`HISTORY_COLUMNS`."""
    won = "abandoned" if not game.finished else ("yes" if game.won else "no")
    mode = game.mode + (f" daily {game.daily}" if game.daily else "")
    return (
        str(game.id),
        game.ended[:16].replace("T", " "),
        game.player,
        mode,
        str(game.final),
        won,
        _shown(game.par),
        f"{game.hints}/{game.undos}",
        game.deal,
    )


def history_table(games: Sequence[StoredGame]) -> Table:
    """Stored games, one a row, in the order given."""
    table = Table(
        title="History",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    for column in HISTORY_COLUMNS:
        table.add_column(
            column.heading,
            justify=column.justify,
            overflow="fold" if column.fold else "ellipsis",
            no_wrap=not column.fold,
        )
    for game in games:
        table.add_row(*history_cells(game))
    return table
