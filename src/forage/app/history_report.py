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

from forage.app.describe import recipe_name as describe_recipe
from forage.carddata import standard_deck
from forage.history.achievements import Achievement, achievement_description, achievement_name
from forage.history.games import StoredGame
from forage.history.report import (
    HISTORY_COLUMNS,
    WIDE_TABLE,
    date_text,
    ellipsis,
    history_row,
    shown_columns,
    shown_figure,
)
from forage.history.stats import BUCKET, Statistics
from forage.i18n import _
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
    return (
        describe_recipe(recipe)
        if recipe is not None
        else _("recipe {number}").format(number=number)
    )


def figures_table(stats: Statistics, plain: bool = False) -> Table:
    """The headline figures: games, wins, best, mean, streaks, recipes (``plain``: drawn
    in ASCII)."""
    table = Table(
        title=_("Statistics of {player}").format(player=stats.player),
        show_header=False,
        title_justify="left",
        box=table_box(plain),
    )
    table.add_column("figure", style="bold")
    table.add_column("value", justify="right")
    # Translators: the statistics' rows: a figure's name, then its value.
    table.add_row(_("games finished"), str(stats.games))
    table.add_row(
        _("wins"),
        _("{wins} ({percent})").format(wins=stats.wins, percent=_percent(stats.win_rate)),
    )
    table.add_row(_("best score"), shown_figure(stats.best))
    table.add_row(_("mean score"), shown_figure(stats.mean))
    table.add_row(
        _("winning streak"),
        _("{now} now, {best} best").format(now=stats.streak_current, best=stats.streak_best),
    )
    table.add_row(
        _("recipe challenges"),
        _("{won} won of {played} played").format(won=stats.recipe_won, played=stats.recipe_played),
    )
    separator = _(", ")
    beaten = separator.join(recipe_name(n) for n in stats.recipes_beaten) or _("none yet")
    table.add_row(
        _("recipes beaten"),
        _("{count} of 18: {beaten}").format(count=len(stats.recipes_beaten), beaten=beaten),
    )
    table.add_row(
        _("rooms"),
        _("first in {first} of {played} played").format(
            first=stats.rooms_first, played=stats.rooms_played
        ),
    )
    table.add_row(_("games abandoned"), str(stats.abandoned))
    puzzles = stats.puzzles
    table.add_row(
        _("puzzles solved"),
        _("{solved} of {tried} tried").format(solved=puzzles.solved, tried=puzzles.tried),
    )
    table.add_row(_("puzzle rating"), str(puzzles.rating))
    table.add_row(
        _("puzzle streak"),
        _("{now} days now, {best} best").format(
            now=puzzles.streak_current, best=puzzles.streak_best
        ),
    )
    return table


def distribution_chart(stats: Statistics, plain: bool = False) -> Text:
    """The score distribution as one bar per bucket, and the recent trend as a sparkline
    (``plain``: drawn in ASCII)."""
    text = Text()
    if not stats.distribution:
        text.append(_("No finished games yet."), "dim")
        return text
    text.append(_("Scores") + "\n", "bold")
    most = max(n for _, n in stats.distribution)
    for start, count in stats.distribution:
        bar = ("#" if plain else "█") * max(1 if count else 0, round(count * BAR_WIDTH / most))
        text.append(f"{start:>4}-{start + BUCKET - 1:<4} ")
        text.append(bar, mark("gain"))
        text.append(f" {count}\n")
    text.append(_("Last {count} scores").format(count=len(stats.recent)) + " ", "bold")
    text.append(sparkline(stats.recent, plain), mark("note"))
    text.append(f"  ({stats.recent[0]} {ellipsis(plain)} {stats.recent[-1]})")
    return text


def achievements_table(
    achievements: Sequence[Achievement], unlocked: dict[str, str], plain: bool = False
) -> Table:
    """Every achievement, unlocked (with its date) or still to get (``plain``: drawn in
    ASCII)."""
    table = Table(title=_("Achievements"), title_justify="left", box=table_box(plain))
    got, not_yet = ("*", ".") if plain else ("★", "·")
    table.add_column("", width=1)
    # Translators: the achievements table's column heads (a plain noun each).
    table.add_column(_("achievement"), style="bold")
    table.add_column(_("what it takes"))
    table.add_column(_("unlocked"))
    for achievement in achievements:
        when = unlocked.get(achievement.id)
        table.add_row(
            got if when else not_yet,
            achievement_name(achievement),
            achievement_description(achievement),
            date_text(when) if when else "",
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
        title=_("History"),
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
            _(column.heading),
            justify=column.justify,
            overflow="crop" if plain else "ellipsis",
            no_wrap=True,
            max_width=column.width,
        )
    for game in games:
        table.add_row(*history_row(game, shown, plain))
    return table
