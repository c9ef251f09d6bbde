"""A stored game and what the history keeps about it: the types, their table rows, names.

:class:`StoredGame` is one row of the ``games`` table read back (each value checked);
:class:`PlayInfo` is what the store needs beyond the engine's game; :func:`game_row` makes
the row of a game; :func:`check_player` is the rule for player names.
"""

from __future__ import annotations

import getpass
import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any, Final

from forage import __version__
from forage.engine import Game, Score
from forage.record import record_from_game

MAX_PLAYER: Final = 40
"""The longest player name, in characters."""


def now_utc() -> datetime:
    """The current time in UTC, to the second."""
    return datetime.now(UTC).replace(microsecond=0)


def timestamp(moment: datetime) -> str:
    """A time as stored: ISO 8601 in UTC, to the second, ending in Z."""
    return moment.astimezone(UTC).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def check_player(name: str) -> str:
    """A player name, trimmed; raises ValueError if it is empty, too long or unprintable."""
    trimmed = name.strip()
    if not trimmed:
        raise ValueError("a player name cannot be empty")
    if len(trimmed) > MAX_PLAYER:
        raise ValueError(f"a player name has at most {MAX_PLAYER} characters")
    if not trimmed.isprintable():
        raise ValueError("a player name cannot hold control characters")
    return trimmed


def login_name() -> str:
    """The name the player logged in with, or ``player`` where there is none."""
    try:
        return check_player(getpass.getuser())
    except Exception:  # getpass raises OSError, KeyError or ImportError, by platform
        return "player"


@dataclass(frozen=True)
class PlayInfo:
    """What the store needs to know about a game beyond the engine's Game."""

    player: str
    started: datetime
    ended: datetime | None = None
    seed: int | None = None
    deck: int = 1
    hints: int = 0
    undos: int = 0
    daily: date | None = None
    par: int | None = None
    par_proven: bool | None = None


@dataclass(frozen=True)
class StoredGame:
    """One game of the history, as stored."""

    id: int
    player: str
    status: str
    mode: str
    deal: str
    seed: int | None
    deck: int
    recipes: tuple[int, ...]
    score: Score
    rating: str
    recipes_met: tuple[int, ...]
    stuck: bool
    won: bool | None
    moves: int
    hints: int
    undos: int
    started: str
    ended: str
    daily: str | None
    app_version: str
    record: str
    par: int | None = None
    par_proven: bool | None = None

    @property
    def final(self) -> int:
        """The final score (the base score plus any recipe bonus)."""
        return self.score.final

    @property
    def finished(self) -> bool:
        """Whether the game was played to its end (not abandoned)."""
        return self.status == "finished"

    @property
    def all_placed(self) -> bool:
        """Whether the game ended with every card placed (finished and not stuck)."""
        return self.finished and not self.stuck

    def record_json(self) -> Any:
        """The game record as JSON data, or None if the stored text is not JSON."""
        try:
            return json.loads(self.record)
        except ValueError:
            return None

    def to_json(self) -> dict[str, Any]:
        """The game as ``forage history --json`` shows it (CONTRACT.md), plus its status."""
        return {
            "id": self.id,
            "player": self.player,
            "started": self.started,
            "ended": self.ended,
            "mode": self.mode,
            "deal": self.deal,
            "seed": self.seed,
            "final": self.score.final,
            "base": self.score.base,
            "won": self.won,
            "par": self.par,
            "hints": self.hints,
            "undos": self.undos,
            "daily": self.daily,
            "record": self.record_json(),
            "status": self.status,
            "recipes": list(self.recipes),
            "recipes_met": list(self.recipes_met),
            "rating": self.rating,
        }


_SCORE_FIELDS: Final = tuple(Score.model_fields)


def numbers_of(dotted: str | None) -> tuple[int, ...]:
    """Recipe numbers as stored, ``4.11``, read back."""
    return tuple(int(n) for n in dotted.split(".")) if dotted else ()


def dotted(numbers: Iterable[int]) -> str:
    """Recipe numbers as stored: ``4.11``, or empty for none."""
    return ".".join(str(n) for n in numbers)


def _of(row: dict[str, Any], name: str, kind: type, optional: bool = False) -> Any:
    """A column's value, checked to be of its type; ValueError if it is not."""
    value = row[name]
    if value is None and optional:
        return None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ValueError(f"{name}: not {kind.__name__} ({str(value)[:20]!r})")
    return value


def from_row(row: dict[str, Any]) -> StoredGame:
    """A stored game from its table row, each value checked; ValueError if one is wrong."""
    seed = _of(row, "seed", str, optional=True)
    return StoredGame(
        id=_of(row, "id", int),
        player=_of(row, "player", str),
        status=_of(row, "status", str),
        mode=_of(row, "mode", str),
        deal=_of(row, "deal", str),
        seed=None if seed is None else int(seed),
        deck=_of(row, "deck", int),
        recipes=numbers_of(_of(row, "recipes", str, optional=True)),
        score=Score(**{name: _of(row, name, int) for name in _SCORE_FIELDS}),
        rating=_of(row, "rating", str),
        recipes_met=numbers_of(_of(row, "recipes_met", str)),
        stuck=bool(_of(row, "stuck", int)),
        won=None if row["won"] is None else bool(_of(row, "won", int)),
        moves=_of(row, "moves", int),
        hints=_of(row, "hints", int),
        undos=_of(row, "undos", int),
        started=_of(row, "started", str),
        ended=_of(row, "ended", str),
        daily=_of(row, "daily", str, optional=True),
        app_version=_of(row, "app_version", str),
        record=_of(row, "record", str),
        par=_of(row, "par", int, optional=True) if "par" in row else None,
        par_proven=None if row.get("par_proven") is None else bool(_of(row, "par_proven", int)),
    )


def game_row(game: Game, info: PlayInfo) -> dict[str, Any]:
    """The table row of a game: finished if it is over, else abandoned."""
    result = game.result()
    recipes = game.deal.recipes
    record = record_from_game(game, info.seed, info.deck).to_json()
    return {
        "player": check_player(info.player),
        "status": "finished" if result.finished else "abandoned",
        "mode": "recipe" if recipes is not None else "standard",
        "deal": game.deal.code,
        "seed": None if info.seed is None else str(info.seed),
        "deck": info.deck if recipes is None else 1,
        "recipes": None if recipes is None else dotted(recipes),
        **result.score.model_dump(),
        "rating": result.rating,
        "recipes_met": dotted(r.number for r in result.recipes if r.met),
        "stuck": int(result.stuck),
        "won": None if result.won is None else int(result.won),
        "moves": len(game.moves),
        "hints": info.hints,
        "undos": info.undos,
        "started": timestamp(info.started),
        "ended": timestamp(info.ended or now_utc()),
        "daily": None if info.daily is None else info.daily.isoformat(),
        "app_version": __version__,
        "record": record,
        "par": info.par,
        "par_proven": None if info.par_proven is None else int(info.par_proven),
    }
