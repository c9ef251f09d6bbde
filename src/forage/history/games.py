"""A stored game and what the history keeps about it: the types, their table rows, names.

:class:`StoredGame` is one row of the ``games`` table read back (each value checked);
:class:`PlayInfo` is what the store needs beyond the engine's game; :func:`game_row` makes
the row of a game (names held to :func:`forage.players.check_player`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from itertools import combinations
from typing import Any, Final

from forage import __version__
from forage.engine import Deal, Game, Score
from forage.engine.areas import BASKET_FACE, MOUSE_FACE
from forage.engine.deal import check_seed
from forage.engine.scoring import DICE, LOWEST_RATING, RATINGS, SCORE_LIMIT
from forage.players import check_player
from forage.record import parse_record, record_from_game

MOST_ASKED: Final = 1_000_000
"""The most hints or undos a stored game counts: far more than any game asks for."""
MOST_PLAYERS: Final = 100
"""The most players a stored room game counts: far more than a room holds."""
ROOM_CODE_LENGTH: Final = 16
"""The longest room code a stored game names (a code is letters and digits)."""


def now_utc() -> datetime:
    """The current time in UTC, to the second."""
    return datetime.now(UTC).replace(microsecond=0)


def timestamp(moment: datetime) -> str:
    """A time as stored: ISO 8601 in UTC, to the second, ending in Z."""
    return moment.astimezone(UTC).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


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
    room: str | None = None
    """The code of the room the game was played in (``forage room``), if it was."""
    placing: int | None = None
    """The player's place in the room's results (1 first; ties share), once it ended."""
    players: int | None = None
    """How many played in the room."""
    online: bool = False
    """The game was a try of a server's online daily (``forage daily --online``): a room of
    one, ``daily`` its day."""


ROOM_MODES: Final = ("room", "daily-online")
"""The modes of games played on a rooms server: in a room, and the online daily's tries."""


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
    room: str | None = None
    placing: int | None = None
    players: int | None = None

    @property
    def final(self) -> int:
        """The final score (the base score plus any recipe bonus)."""
        return self.score.final

    @property
    def finished(self) -> bool:
        """Whether the game was played to its end (not abandoned)."""
        return self.status == "finished"

    @property
    def is_challenge(self) -> bool:
        """Whether the game was a recipe challenge (played alone or in a room)."""
        return bool(self.recipes)

    @property
    def kind(self) -> str:
        """The kind of deal: ``recipe`` for a recipe challenge, else ``standard``."""
        return "recipe" if self.is_challenge else "standard"

    @property
    def all_placed(self) -> bool:
        """Whether the game ended with every card placed (finished and not stuck)."""
        return self.finished and not self.stuck

    def record_json(self) -> dict[str, Any] | None:
        """The game record as JSON data, or None if the stored text is not a game record."""
        try:
            return parse_record(self.record).to_data()
        except ValueError:  # a RecordError: not JSON, nested too deeply, not a record
            return None

    def to_json(self) -> dict[str, Any]:
        """The game as ``forage history --json`` shows it (CONTRACT.md: ``mode`` is the kind of
        deal, ``standard`` or ``recipe``, a room game's too), plus its status and room."""
        return {
            "id": self.id,
            "player": self.player,
            "started": self.started,
            "ended": self.ended,
            "mode": self.kind,
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
            "room": self.room,
            "placing": self.placing,
            "players": self.players,
            "online": self.mode == "daily-online",
        }


SCORE_RANGES: Final = {
    "dice_total": (DICE * MOUSE_FACE, DICE * BASKET_FACE),
    "mice": (0, DICE),
    "split_dice": (0, DICE),
    "edwood": (0, 1),
    "base": (-SCORE_LIMIT, SCORE_LIMIT),
    "bonus": (-SCORE_LIMIT, SCORE_LIMIT),
    "final": (-SCORE_LIMIT, SCORE_LIMIT),
}
"""The lowest and highest value the rules can give each field of a score (R15-R19)."""
PHRASES: Final = frozenset((LOWEST_RATING, *(phrase for _, phrase in RATINGS)))
"""The rating phrases a stored game can carry (R16)."""


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


def _within(row: dict[str, Any], name: str, low: int, high: int, optional: bool = False) -> Any:
    """A column's whole number, checked to lie from ``low`` to ``high``; ValueError if not."""
    value = _of(row, name, int, optional)
    if value is not None and not low <= value <= high:
        raise ValueError(f"{name}: {value} is not from {low} to {high}")
    return value


def _one_of(row: dict[str, Any], name: str, allowed: Iterable[str]) -> str:
    """A column's text, checked to be one of ``allowed``; ValueError if not."""
    value: str = _of(row, name, str)
    if value not in allowed:
        raise ValueError(f"{name}: not one of the values stored ({value[:20]!r})")
    return value


def _moment(row: dict[str, Any], name: str, kind: type[date], optional: bool = False) -> Any:
    """A column's ISO 8601 date (``kind`` date) or time (datetime), checked to read as one;
    ValueError if not."""
    value = _of(row, name, str, optional)
    if value is not None:
        kind.fromisoformat(value)
    return value


def _score(row: dict[str, Any]) -> Score:
    """A stored game's score, each field within the rules' range and the parts adding up
    to the base and the base and bonus to the final; ValueError if not."""
    found = Score(**{name: _within(row, name, *SCORE_RANGES[name]) for name in Score.model_fields})
    if sum(found.parts) != found.base or found.base + found.bonus != found.final:
        raise ValueError("score: its parts do not add up")
    return found


def _seed(row: dict[str, Any]) -> int | None:
    """A stored game's seed, checked to be one a deal can come from; ValueError if not."""
    text = _of(row, "seed", str, optional=True)
    return None if text is None else check_seed(int(text))


def from_row(row: dict[str, Any]) -> StoredGame:
    """A stored game from its table row, each value checked to be one the rules can give;
    ValueError if one is not."""
    deal = Deal.from_code(_of(row, "deal", str))
    recipes = deal.recipes or ()
    if _of(row, "recipes", str, optional=True) != (dotted(recipes) if recipes else None):
        raise ValueError("recipes: not the deal's")
    status = _one_of(row, "status", ("finished", "abandoned"))
    mode = _one_of(row, "mode", ("recipe" if recipes else "standard", *ROOM_MODES))
    room, placing, players = _room(row, mode)
    deck = _within(row, "deck", 1, 1 if recipes else 2)
    met = {dotted(kept): kept for size in range(3) for kept in combinations(recipes, size)}
    score = _score(row)
    if not recipes and score.bonus:
        raise ValueError("bonus: a game without recipes has none")
    won = _within(row, "won", 0, 1, optional=True)
    if (won is None) != (status == "abandoned"):
        raise ValueError("won: given for an abandoned game, or missing for a finished one")
    proven = _within(row, "par_proven", 0, 1, optional=True) if "par_proven" in row else None
    return StoredGame(
        id=_of(row, "id", int),
        player=stored_player(row["player"]),
        status=status,
        mode=mode,
        deal=deal.code,
        seed=_seed(row),
        deck=deck,
        recipes=recipes,
        score=score,
        rating=_one_of(row, "rating", PHRASES),
        recipes_met=met[_one_of(row, "recipes_met", met)],
        stuck=bool(_within(row, "stuck", 0, 1)),
        won=None if won is None else bool(won),
        moves=_within(row, "moves", 1, len(deal.cards)),
        hints=_within(row, "hints", 0, MOST_ASKED),
        undos=_within(row, "undos", 0, MOST_ASKED),
        started=_moment(row, "started", datetime),
        ended=_moment(row, "ended", datetime),
        daily=_moment(row, "daily", date, optional=True),
        app_version=_of(row, "app_version", str),
        record=_of(row, "record", str),
        par=_within(row, "par", -SCORE_LIMIT, SCORE_LIMIT, optional=True) if "par" in row else None,
        par_proven=None if proven is None else bool(proven),
        room=room,
        placing=placing,
        players=players,
    )


def _room(row: dict[str, Any], mode: str) -> tuple[str | None, int | None, int | None]:
    """A stored game's room, placing and players: a room code of letters and digits, the
    players from 1 and the placing among them, all given only for a room game (absent from
    a file older than the rooms); ValueError if not."""
    if "room" not in row:
        if mode in ROOM_MODES:
            raise ValueError("room: a room game with no room")
        return None, None, None
    if mode not in ROOM_MODES:
        if (row["room"], row["placing"], row["players"]) != (None, None, None):
            raise ValueError("room: given for a game not played in a room")
        return None, None, None
    code: str = _of(row, "room", str)
    if not (code.isascii() and code.isalnum() and 0 < len(code) <= ROOM_CODE_LENGTH):
        raise ValueError(f"room: not a room code ({code[:20]!r})")
    players: int = _within(row, "players", 1, MOST_PLAYERS)
    placing = _within(row, "placing", 1, players, optional=True)
    return code, placing, players


def stored_player(name: object) -> str:
    """A player name as stored, checked to be one :func:`check_player` keeps as it is;
    ValueError if it is not."""
    if not isinstance(name, str) or check_player(name) != name:
        raise ValueError(f"player: not a player name ({str(name)[:20]!r})")
    return name


def game_row(game: Game, info: PlayInfo) -> dict[str, Any]:
    """The table row of a game: finished if it is over, else abandoned."""
    result = game.result()
    recipes = game.deal.recipes
    record = record_from_game(game, info.seed, info.deck).to_json()
    kind = "recipe" if recipes is not None else "standard"
    return {
        "player": check_player(info.player),
        "status": "finished" if result.finished else "abandoned",
        "mode": "daily-online" if info.online else "room" if info.room is not None else kind,
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
        "room": info.room,
        "placing": info.placing,
        "players": info.players,
    }
