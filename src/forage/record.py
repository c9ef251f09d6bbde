"""Game records and result objects: the JSON interface of CONTRACT.md.

Reading a record checks every field and raises :class:`RecordError` naming the first bad
one; building the game from it and replaying its moves is left to :func:`load_game`.
Writing goes through :func:`write_atomic`, so a crash never leaves half a file.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictInt, ValidationError

from forage.carddata import standard_deck
from forage.engine import (
    Area,
    Card,
    Colour,
    Deal,
    Deck,
    Game,
    MouseChoice,
    Outcome,
    Placement,
    Rotation,
)

FORMAT = "forage/1"


def _one_of(*allowed: int) -> AfterValidator:
    """A check that a whole number is one of ``allowed`` (floats and booleans never are)."""
    shown = ", ".join(str(n) for n in allowed[:-1]) + f" or {allowed[-1]}"

    def check(value: int) -> int:
        if value not in allowed:
            raise ValueError(f"should be {shown}")
        return value

    return AfterValidator(check)


RotationIn = Annotated[StrictInt, _one_of(0, 90, 180, 270)]
DeckIn = Annotated[StrictInt, _one_of(1, 2)]


class RecordError(ValueError):
    """A record that cannot be read: ``field`` names where, the message says what."""

    def __init__(self, field: str, problem: str) -> None:
        """Describe the bad field and what is wrong with it."""
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}" if field else problem)


class MouseIn(BaseModel):
    """A mouse colour choice as written in a record."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    x: int
    y: int
    colour: Colour


class MoveIn(BaseModel):
    """A placement as written in a record."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    card: int
    rotation: RotationIn = 0
    x: int
    y: int
    mouse: list[MouseIn] = Field(default_factory=list)


class CardIn(BaseModel):
    """A custom card as written in a record."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    number: int = Field(ge=1)
    areas: list[Area] = Field(min_length=6, max_length=6)


class GameRecord(BaseModel):
    """A game record (CONTRACT.md): the deal, optional custom cards, and the moves so far."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    format: str | None = FORMAT
    deal: list[int] | None = None
    seed: int | None = None
    deck: DeckIn | None = None
    recipe_challenge: bool | None = None
    recipes: list[int] | None = None
    cards: list[CardIn] | None = None
    moves: list[MoveIn] = Field(default_factory=list)

    def to_data(self) -> dict[str, Any]:
        """The record as JSON data, leaving out unset fields and empty mouse choices (as
        CONTRACT.md writes moves without mouse choices)."""
        data = self.model_dump(mode="json", exclude_none=True)
        for move in data.get("moves", []):
            if not move.get("mouse"):
                move.pop("mouse", None)
        return data

    def to_json(self) -> str:
        """The record as pretty JSON (see :meth:`to_data`)."""
        return json.dumps(self.to_data(), indent=2) + "\n"


def _field_path(loc: tuple[int | str, ...]) -> str:
    path = ""
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path


def parse_record(text: str) -> GameRecord:
    """Read a record's JSON text, checking types and ranges; raises RecordError."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError("", json_problem(exc)) from None
    except RecursionError:
        raise RecordError("", "not a record (JSON nested too deeply)") from None
    except ValueError as exc:  # Python's limit on the digits of a whole number
        raise RecordError("", f"not a record ({number_problem(exc)})") from None
    if not isinstance(data, dict):
        raise RecordError("", "a record is a JSON object")
    inside = ""
    if _is_wrapper(data):  # forage par --json's output: the record is its "record"
        inside, text = "record.", json.dumps(data["record"])
    try:
        return GameRecord.model_validate_json(text, strict=True)
    except ValidationError as exc:
        error = exc.errors()[0]
        got = error.get("input")
        shown = json.dumps(got) if isinstance(got, int | str | float | bool) else None
        message = str(error["msg"]).removeprefix("Value error, ")
        if shown is not None and error["type"] not in ("missing", "json_invalid"):
            message += f" (got {shown if len(shown) <= 40 else shown[:37] + '...'})"
        raise RecordError(inside + _field_path(tuple(error["loc"])), message) from None


def _is_wrapper(data: dict[str, Any]) -> bool:
    """Whether a JSON object is not a record itself but holds one under ``record``, as
    ``forage par --json`` prints it: read as that record."""
    own = {"format", "deal", "seed", "moves"}
    return isinstance(data.get("record"), dict) and not own & data.keys()


def number_problem(error: ValueError, otherwise: str | None = None) -> str:
    """What a ValueError from reading a number says, without Python's advice to programmers.

    Python's limit on the digits of a whole number is named; any other error is told as
    ``otherwise`` (by default, its own message).
    """
    if "int_max_str_digits" in str(error):
        return f"a number has more than {sys.get_int_max_str_digits()} digits"
    return str(error) if otherwise is None else otherwise


def deal_from_code(code: str) -> Deal:
    """The deal of a deal code; raises ValueError saying what is wrong, in the user's terms."""
    try:
        return Deal.from_code(code)
    except ValueError as exc:
        raise ValueError(number_problem(exc)) from None


def _deck_of(record: GameRecord) -> Deck:
    """The deck a record plays: the built-in 18 cards, or its ``cards``, which replace them."""
    if record.cards is None:
        return standard_deck()
    if not record.cards:
        raise RecordError("cards", "a custom deck needs at least one card")
    seen: set[int] = set()
    cards = []
    for i, card in enumerate(record.cards):
        if card.number in seen:
            raise RecordError(f"cards[{i}].number", f"card {card.number} appears twice")
        seen.add(card.number)
        cards.append(Card(number=card.number, areas=tuple(card.areas)))
    return Deck.of(cards)


def _deal_of(record: GameRecord, deck: Deck) -> Deal:
    recipes: tuple[int, int] | None = None
    if record.recipes:  # an empty list names no recipes, like a missing one
        if len(record.recipes) != 2:
            raise RecordError("recipes", f"give none or two recipes, not {len(record.recipes)}")
        for i, number in enumerate(record.recipes):
            if number not in standard_deck().recipes():
                raise RecordError(f"recipes[{i}]", f"unknown recipe {number} (recipes are 1-18)")
        if record.recipes[0] == record.recipes[1]:
            raise RecordError("recipes[1]", f"recipe {record.recipes[1]} appears twice")
        recipes = (record.recipes[0], record.recipes[1])
    seeded: Deal | None = None
    if record.seed is not None:
        if record.recipe_challenge and record.deck == 2:
            raise RecordError("deck", "a recipe challenge has no deck 2 (RULINGS R12)")
        try:
            seeded = Deal.from_seed(
                record.seed,
                recipes=bool(record.recipe_challenge),
                deck=record.deck or 1,
                numbers=deck.numbers,
            )
        except ValueError as exc:
            raise RecordError("seed", str(exc)) from None
    elif record.deck is not None or record.recipe_challenge is not None:
        field = "deck" if record.deck is not None else "recipe_challenge"
        if record.deal is None:
            raise RecordError(field, "goes with seed, which is missing")
    if record.deal is None:
        if seeded is None:
            raise RecordError("deal", "missing: a record needs deal (or seed)")
        if recipes is not None and seeded.recipes is None:
            return Deal(cards=seeded.cards, recipes=recipes)
        if recipes is not None and set(seeded.recipes or ()) != set(recipes):
            raise RecordError("recipes", "do not match the seed's recipe challenge")
        return seeded
    if not 1 <= len(record.deal) <= 18:
        raise RecordError("deal", f"a deal has 1 to 18 cards, not {len(record.deal)}")
    seen: set[int] = set()
    for i, number in enumerate(record.deal):
        if number not in deck:
            raise RecordError(f"deal[{i}]", f"unknown card {number}")
        if number in seen:
            raise RecordError(f"deal[{i}]", f"card {number} appears twice")
        seen.add(number)
    deal = Deal(cards=tuple(record.deal), recipes=recipes)
    if seeded is not None:
        if seeded.cards != deal.cards:
            raise RecordError("seed", "the seed's deal differs from deal")
        if seeded.recipes is not None:
            if recipes is None:
                return seeded
            if set(seeded.recipes) != set(recipes):
                raise RecordError("recipes", "do not match the seed's recipe challenge")
    return deal


def _placements(record: GameRecord, deck: Deck) -> list[Placement]:
    placements = []
    for i, move in enumerate(record.moves):
        if move.card not in deck:
            raise RecordError(f"moves[{i}].card", f"unknown card {move.card}")
        seen: set[tuple[int, int]] = set()
        for j, choice in enumerate(move.mouse):
            if (choice.x, choice.y) in seen:
                raise RecordError(
                    f"moves[{i}].mouse[{j}]", f"square ({choice.x}, {choice.y}) chosen twice"
                )
            seen.add((choice.x, choice.y))
        placements.append(
            Placement(
                card=move.card,
                rotation=Rotation(move.rotation),
                x=move.x,
                y=move.y,
                mouse=tuple(MouseChoice(x=m.x, y=m.y, colour=m.colour) for m in move.mouse),
            )
        )
    return placements


def build_game(record: GameRecord) -> tuple[Game, list[Placement]]:
    """The game a record starts, and its moves (not yet played); raises RecordError."""
    if record.format is not None and record.format != FORMAT:
        raise RecordError("format", f"unknown format {record.format!r} (expected {FORMAT!r})")
    deck = _deck_of(record)
    deal = _deal_of(record, deck)
    placements = _placements(record, deck)
    return Game(deal, deck, recipe_book=standard_deck().recipes()), placements


def load_game(text: str) -> tuple[Game, Outcome | None]:
    """Read a record and replay its moves; returns the game and the first refusal, if any."""
    game, placements = build_game(parse_record(text))
    _, refusal = game.replay(placements)
    return game, refusal


def record_from_game(game: Game, seed: int | None = None, deck: int = 1) -> GameRecord:
    """The record of a game so far; a custom deck is written out, the built-in one is not.

    With the ``seed`` (and ``deck``) the game was dealt from, the record names them too.
    """
    custom = (
        [CardIn(number=c.number, areas=list(c.areas)) for c in game.deck.cards.values()]
        if game.deck != standard_deck()
        else []
    )
    return GameRecord(
        format=FORMAT,
        deal=list(game.deal.cards),
        recipes=list(game.deal.recipes) if game.deal.recipes is not None else None,
        cards=custom or None,
        seed=seed,
        deck=2 if seed is not None and deck == 2 else None,
        recipe_challenge=True if seed is not None and game.deal.recipes is not None else None,
        moves=[_move_out(p) for p in game.moves],
    )


def _move_out(placement: Placement) -> MoveIn:
    return MoveIn(
        card=placement.card,
        rotation=int(placement.rotation),
        x=placement.x,
        y=placement.y,
        mouse=[MouseIn(x=m.x, y=m.y, colour=m.colour) for m in placement.mouse],
    )


def placement_json(placement: Placement) -> dict[str, Any]:
    """A placement as the record writes it (``mouse`` only where colours were chosen)."""
    return _move_out(placement).model_dump(exclude_defaults=False, exclude={"mouse"}) | (
        {"mouse": [m.model_dump(mode="json") for m in placement.mouse]} if placement.mouse else {}
    )


def result_object(game: Game, moves_applied: int, refusal: Outcome | None = None) -> dict[str, Any]:
    """The result object of ``forage replay --json`` for a game (CONTRACT.md)."""
    result = game.result()
    error: dict[str, Any] | None = None
    if refusal is not None and refusal.reason is not None:
        error = {
            "move": moves_applied,
            "reason": refusal.reason.value,
            "message": refusal.message,
        }
    woodland = []
    for pos in game.woodland.positions():
        sq = game.woodland[pos]
        woodland.append(
            {
                "x": pos[0],
                "y": pos[1],
                "area": sq.area.value,
                "die": None
                if sq.die is None
                else {"colour": sq.die.colour.value, "value": sq.die.value, "mouse": sq.die.mouse},
                "edwood": sq.edwood,
                "card": sq.card,
            }
        )
    supply = game.supply
    return {
        "ok": error is None,
        "error": error,
        "moves_applied": moves_applied,
        "finished": result.finished,
        "stuck": result.stuck,
        "hand": list(game.hand),
        "draw_pile": game.draw_pile,
        "score": result.score.model_dump(),
        "rating": result.rating,
        "recipes": [r.model_dump() for r in result.recipes],
        "target": result.target,
        "won": result.won,
        "woodland": woodland,
        "supply": {"B": supply.B, "C": supply.C, "M": supply.M},
        "edwood_used": not supply.edwood,
        "deal": game.deal.code,
    }


def bad_input_object(message: str) -> dict[str, Any]:
    """The result object for a record that could not be read (exit 2)."""
    keys = (
        "moves_applied",
        "finished",
        "stuck",
        "hand",
        "draw_pile",
        "score",
        "rating",
        "recipes",
        "target",
        "won",
        "woodland",
        "supply",
        "edwood_used",
        "deal",
    )
    return {
        "ok": False,
        "error": {"move": None, "reason": "bad-input", "message": message},
        **dict.fromkeys(keys),
    }


def json_problem(error: json.JSONDecodeError) -> str:
    """A few words on where JSON text stops making sense: ``not valid JSON (... at line 1)``."""
    return f"not valid JSON ({error.msg.removesuffix(' at')} at line {error.lineno})"


def os_problem(error: OSError) -> str:
    """A few words on why a file could not be read or written."""
    if isinstance(error, NotADirectoryError | FileExistsError):
        return f"a file is in the way of the folder {error.filename}"
    if isinstance(error, IsADirectoryError):  # a rename names the target second
        return f"{error.filename2 or error.filename} is a folder, not a file"
    if isinstance(error, PermissionError):
        return "not allowed to write there (permission denied)"
    if error.errno == errno.ENOSPC:
        return "the disk is full"
    if error.errno == errno.EROFS:
        return "the file system is read-only"
    return error.strerror or str(error)


def _writable(path: Path) -> bool:
    """Whether an existing file may be written: allowed, and not marked read-only (no write
    bit: a superuser may write anything, but a read-only file is still not to be replaced)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return True
    return os.access(path, os.W_OK) and bool(stat.S_IMODE(mode) & 0o222)


def write_problem(path: Path) -> str | None:
    """Why :func:`write_atomic` could not write this file, or None if it can (tried now)."""
    if path.is_dir():
        return "is a folder, not a file"
    if path.exists() and not _writable(path):
        return "the file is read-only"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        os.close(fd)
        os.unlink(tmp)
    except OSError as exc:
        return os_problem(exc)
    return None


def write_atomic(path: Path, text: str) -> None:
    """Write text to a file through a temporary file and a rename, so it is never half written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
