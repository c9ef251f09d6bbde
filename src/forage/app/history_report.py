"""Statistics and history drawn with Rich: tables and text charts, for ``forage stats`` and
``forage history`` and the stats and review screens alike (:mod:`forage.history.report`
gives the figures and cells; nothing here loads Textual)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich import box
from rich.box import Box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from forage.carddata import standard_deck
from forage.history.achievements import Achievement
from forage.history.games import StoredGame
from forage.history.report import (
    HISTORY_COLUMNS,
    WIDE_TABLE,
    ellipsis,
    history_row,
    shown_columns,
    shown_figure,
)
from forage.history.stats import BUCKET, Statistics
from forage.palette import mark

BLOCKS: Final = "▁▂▃▄▅▆▇█"
"""Eighths of a character's height, the lowest first."""
ASCII_BLOCKS: Final = "_.-=+*#@"
"""The same in plain ASCII, lowest first."""
BAR_WIDTH: Final = 30
ASCII_SIMPLE_HEAD: Final = Box("    \n    \n -- \n    \n    \n    \n    \n    \n", ascii=True)
"""Rich's ``SIMPLE_HEAD`` (a rule under the headings, no other lines) drawn in ASCII."""


def blocks(plain: bool = False) -> str:
    """The block characters of a chart, lowest first (``plain``: in ASCII)."""
    return ASCII_BLOCKS if plain else BLOCKS


def sparkline(values: Sequence[float], plain: bool = False) -> str:
    """One block character per value, scaled from the lowest value to the highest
    (``plain``: in ASCII)."""
    if not values:
        return ""
    low, high = min(values), max(values)
    span = high - low
    shapes = blocks(plain)
    top = len(shapes) - 1
    return "".join(shapes[round((v - low) * top / span) if span else top // 2] for v in values)


def _percent(rate: float | None) -> str:
    return "-" if rate is None else f"{rate * 100:.0f}%"


def table_box(plain: bool) -> Box:
    """A table's lines: Rich's own, or drawn in ASCII (``plain``)."""
    return box.ASCII if plain else box.HEAVY_HEAD


def recipe_name(number: int) -> str:
    """A recipe as players know it, by its name (its number if the deck has none such)."""
    recipe = standard_deck().recipes().get(number)
    return recipe.name if recipe is not None else f"recipe {number}"


def figures_table(stats: Statistics, plain: bool = False) -> Table:
    """The headline figures: games, wins, best, mean, streaks, recipes (``plain``: drawn
    in ASCII)."""
    table = Table(
        title=f"Statistics of {stats.player}",
        show_header=False,
        title_justify="left",
        box=table_box(plain),
    )
    table.add_column("figure", style="bold")
    table.add_column("value", justify="right")
    table.add_row("games finished", str(stats.games))
    table.add_row("wins", f"{stats.wins} ({_percent(stats.win_rate)})")
    table.add_row("best score", shown_figure(stats.best))
    table.add_row("mean score", shown_figure(stats.mean))
    table.add_row("winning streak", f"{stats.streak_current} now, {stats.streak_best} best")
    table.add_row("recipe challenges", f"{stats.recipe_won} won of {stats.recipe_played} played")
    beaten = ", ".join(recipe_name(n) for n in stats.recipes_beaten) or "none yet"
    table.add_row("recipes beaten", f"{len(stats.recipes_beaten)} of 18: {beaten}")
    table.add_row("rooms", f"first in {stats.rooms_first} of {stats.rooms_played} played")
    table.add_row("games abandoned", str(stats.abandoned))
    puzzles = stats.puzzles
    table.add_row("puzzles solved", f"{puzzles.solved} of {puzzles.tried} tried")
    table.add_row("puzzle rating", str(puzzles.rating))
    table.add_row("puzzle streak", f"{puzzles.streak_current} days now, {puzzles.streak_best} best")
    return table


def distribution_chart(stats: Statistics, plain: bool = False) -> Text:
    """The score distribution as one bar per bucket, and the recent trend as a sparkline
    (``plain``: drawn in ASCII)."""
    text = Text()
    if not stats.distribution:
        text.append("No finished games yet.", "dim")
        return text
    text.append("Scores\n", "bold")
    most = max(n for _, n in stats.distribution)
    for start, count in stats.distribution:
        bar = ("#" if plain else "█") * max(1 if count else 0, round(count * BAR_WIDTH / most))
        text.append(f"{start:>4}-{start + BUCKET - 1:<4} ")
        text.append(bar, mark("gain"))
        text.append(f" {count}\n")
    text.append(f"Last {len(stats.recent)} scores ", "bold")
    text.append(sparkline(stats.recent, plain), mark("note"))
    text.append(f"  ({stats.recent[0]} {ellipsis(plain)} {stats.recent[-1]})")
    return text


def achievements_table(
    achievements: Sequence[Achievement], unlocked: dict[str, str], plain: bool = False
) -> Table:
    """Every achievement, unlocked (with its date) or still to get (``plain``: drawn in
    ASCII)."""
    table = Table(title="Achievements", title_justify="left", box=table_box(plain))
    got, not_yet = ("*", ".") if plain else ("★", "·")
    table.add_column("", width=1)
    table.add_column("achievement", style="bold")
    table.add_column("what it takes")
    table.add_column("unlocked")
    for achievement in achievements:
        when = unlocked.get(achievement.id)
        table.add_row(
            got if when else not_yet,
            achievement.name,
            achievement.description,
            when or "",
            style=None if when else "dim",
        )
    return table


def stats_report(
    stats: Statistics,
    achievements: Sequence[Achievement],
    unlocked: dict[str, str],
    plain: bool = False,
) -> RenderableType:
    """Everything ``forage stats`` prints (``plain``: drawn in ASCII)."""
    return Group(
        figures_table(stats, plain),
        distribution_chart(stats, plain),
        Text(),
        achievements_table(achievements, unlocked, plain),
    )


def history_table(
    games: Sequence[StoredGame], width: int = WIDE_TABLE, plain: bool = False
) -> Table:
    """Stored games, one a row, in the order given, for a terminal ``width`` columns wide
    (narrower than :data:`WIDE_TABLE`: without par and h/u; ``plain``: drawn in ASCII)."""
    table = Table(
        title="History",
        title_justify="left",
        box=ASCII_SIMPLE_HEAD if plain else box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        padding=(0, 1, 0, 0),
    )
    shown = shown_columns(width)
    for index in shown:
        column = HISTORY_COLUMNS[index]
        table.add_column(
            column.heading,
            justify=column.justify,
            overflow="crop" if plain else "ellipsis",
            no_wrap=True,
            max_width=column.width,
        )
    for game in games:
        table.add_row(*history_row(game, shown, plain))
    return table
