"""Statistics and history as JSON and as the text of their cells (the CLI and the screens alike);
drawn with Rich by :mod:`forage.app.history_report`."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date
from typing import Any, Final, Literal, NamedTuple

from forage.history.achievements import Achievement
from forage.history.games import StoredGame
from forage.history.stats import Statistics
from forage.i18n import N_, _, pgettext


def ellipsis(plain: bool = False) -> str:
    """The mark of text left out (``plain``: in ASCII)."""
    return "..." if plain else "…"


def shown_figure(value: float | None) -> str:
    """A figure as a cell shows it: ``-`` for none."""
    return "-" if value is None else f"{value:g}"


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
    # Translators: the history's column heads, each a word or two (h/u: hints/undos).
    HistoryColumn(N_("id"), "right"),
    HistoryColumn(N_("ended")),
    HistoryColumn(N_("player"), width=PLAYER_WIDTH),
    HistoryColumn(N_("mode")),
    HistoryColumn(N_("final"), "right"),
    HistoryColumn(N_("won")),
    HistoryColumn(N_("par"), "right", wide_only=True),
    HistoryColumn(N_("h/u"), "right", wide_only=True),
    HistoryColumn(N_("deal")),
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
    # Translators: a game's mode in the history's column (a word; " r": a recipe challenge).
    if game.mode == "daily-online":
        return _("online r") if game.is_challenge else _("online")
    if game.daily:
        return _("daily r") if game.is_challenge else _("daily")
    if game.room is not None:
        kind = _("room r") if game.is_challenge else _("room")
        if game.placing is None:
            return kind
        return _("{kind} {placing}/{players}").format(
            kind=kind, placing=game.placing, players=game.players
        )
    shown = {"recipe": _("recipe"), "standard": _("standard")}
    return shown.get(game.mode, game.mode)


def history_cells(game: StoredGame) -> tuple[str, ...]:
    """One stored game's cells under :data:`HISTORY_COLUMNS`."""
    # Translators: whether a game was won, in the history's column (left: abandoned).
    if not game.finished:
        won = pgettext("won column", "left")
    else:
        won = pgettext("won column", "yes") if game.won else pgettext("won column", "no")
    return (
        str(game.id),
        date_text(game.ended),
        game.player,
        mode_cell(game),
        str(game.final),
        won,
        shown_figure(game.par),
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
