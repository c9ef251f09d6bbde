"""Statistics and history as JSON, Rich tables and text charts (the CLI and the screen alike)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date
from typing import Any, Final, Literal, NamedTuple

from rich import box
from rich.box import Box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from forage.history.achievements import Achievement, achievement_description, achievement_name
from forage.history.games import StoredGame
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


def ellipsis(plain: bool = False) -> str:
    """The mark of text left out (``plain``: in ASCII)."""
    return "..." if plain else "…"


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


def _shown(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


def table_box(plain: bool) -> Box:
    """A table's lines: Rich's own, or drawn in ASCII (``plain``)."""
    return box.ASCII if plain else box.HEAVY_HEAD


def recipe_name(number: int) -> str:
    """A recipe as players know it, by its name (its number if the deck has none such)."""
    from forage.carddata import standard_deck

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
    table.add_row("best score", _shown(stats.best))
    table.add_row("mean score", _shown(stats.mean))
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


def date_text(iso: str) -> str:
    """A date as a player reads it, from its ISO form (``2026-12-06``, or a moment that
    starts with one): ``2026-12-06`` in English; a text that is not a date, as it is."""
    try:
        day = date.fromisoformat(iso[:10])
    except ValueError:
        return iso
    # Translators: a date as shown (history, achievements): {year}, {month}, {day} are
    # numbers; keep the :02d that pads them to two digits, or drop it (2026年12月6日).
    return _("{year}-{month:02d}-{day:02d}").format(year=day.year, month=day.month, day=day.day)


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


class HistoryColumn(NamedTuple):
    """A column of the history table: its heading and how its cells sit."""

    heading: str
    justify: Literal["left", "right"] = "left"
    width: int | None = None
    """The most cells it takes (a longer cell is cut with an ellipsis); None: as wide as
    its widest cell."""
    wide_only: bool = False
    """Left out of ``forage history`` below :data:`WIDE_TABLE` columns."""


PLAYER_WIDTH: Final = 10
"""The player column's width in the history table (longer names are cut)."""
HISTORY_COLUMNS: Final = (
    HistoryColumn("id", "right"),
    HistoryColumn("ended"),
    HistoryColumn("player", width=PLAYER_WIDTH),
    HistoryColumn("mode"),
    HistoryColumn("final", "right"),
    HistoryColumn("won"),
    HistoryColumn("par", "right", wide_only=True),
    HistoryColumn("h/u", "right", wide_only=True),
    HistoryColumn("deal"),
)
"""The columns of the history, in order (``forage history`` and the history screen): at
80 columns all but par and h/u fit, the longest deal code whole. ``ended`` is the UTC
date; ``h/u`` the hints and undos; ``won`` is ``left`` for an abandoned game."""
WIDE_TABLE: Final = 100
"""From this width ``forage history`` shows every column."""


def export_name(game: StoredGame) -> str:
    """The file name a stored game is exported under: ``forage-game-12.json``."""
    return f"forage-game-{game.id}.json"


def export_text(game: StoredGame) -> str:
    """A stored game's record as a file holds it (the forage/1 JSON that ``forage replay``
    reads); ValueError if the stored record is not JSON."""
    data = game.record_json()
    if data is None:
        raise ValueError(f"game {game.id}'s stored record is not JSON")
    return json.dumps(data, indent=2) + "\n"


def mode_cell(game: StoredGame) -> str:
    """``standard``, ``recipe``, ``daily`` / ``daily r`` for the daily deal, ``online`` for a
    try of a server's online daily, or ``room`` /
    ``room r`` and the place of ``players`` (``room 2/4``) for a game played in a room."""
    if game.mode == "daily-online":
        return "online r" if game.is_challenge else "online"
    if game.daily:
        return "daily r" if game.is_challenge else "daily"
    if game.room is not None:
        kind = "room r" if game.is_challenge else "room"
        return kind if game.placing is None else f"{kind} {game.placing}/{game.players}"
    return game.mode


def history_cells(game: StoredGame) -> tuple[str, ...]:
    """One stored game's cells under :data:`HISTORY_COLUMNS`."""
    won = "left" if not game.finished else ("yes" if game.won else "no")
    return (
        str(game.id),
        date_text(game.ended),
        game.player,
        mode_cell(game),
        str(game.final),
        won,
        _shown(game.par),
        f"{game.hints}/{game.undos}",
        game.deal,
    )


def cut(text: str, width: int | None, plain: bool = False) -> str:
    """``text`` in at most ``width`` characters (None: whole), its end left out for an
    ellipsis where it is longer (``plain``: in ASCII)."""
    if width is None or len(text) <= width:
        return text
    mark = ellipsis(plain)
    return text[: max(0, width - len(mark))] + mark


def shown_columns(width: int) -> list[int]:
    """Which of :data:`HISTORY_COLUMNS` (their indexes) a table ``width`` columns wide
    shows: narrower than :data:`WIDE_TABLE`, all but the wide-only ones."""
    return [i for i, c in enumerate(HISTORY_COLUMNS) if width >= WIDE_TABLE or not c.wide_only]


def history_row(game: StoredGame, shown: Sequence[int], plain: bool = False) -> list[str]:
    """One stored game's cells in the ``shown`` columns, each cut to its column's width
    (``plain``: with an ASCII ellipsis)."""
    cells = history_cells(game)
    return [cut(cells[i], HISTORY_COLUMNS[i].width, plain) for i in shown]


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


def stats_json(
    stats: Statistics, achievements: Sequence[Achievement], unlocked: dict[str, str]
) -> dict[str, Any]:
    """The object ``forage stats --json`` prints (CONTRACT.md), with a few extra fields."""
    return {
        "player": stats.player,
        "games": stats.games,
        "wins": stats.wins,
        "win_rate": stats.win_rate,
        "best": stats.best,
        "mean": stats.mean,
        "streak": {"current": stats.streak_current, "best": stats.streak_best},
        "recipe_challenges": {"played": stats.recipe_played, "won": stats.recipe_won},
        "recipes_beaten": stats.recipes_beaten,
        "achievements": [
            {
                "id": a.id,
                "name": a.name,
                "unlocked": a.id in unlocked,
                "date": unlocked.get(a.id),
                "description": a.description,
            }
            for a in achievements
        ],
        "abandoned": stats.abandoned,
        "rooms": {"played": stats.rooms_played, "first": stats.rooms_first},
        "distribution": [{"from": start, "count": n} for start, n in stats.distribution],
        "recent": stats.recent,
        "puzzles": {
            "tried": stats.puzzles.tried,
            "solved": stats.puzzles.solved,
            "rating": stats.puzzles.rating,
            "streak": {
                "current": stats.puzzles.streak_current,
                "best": stats.puzzles.streak_best,
            },
        },
    }
