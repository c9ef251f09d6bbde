"""The game record of CONTRACT.md as pydantic models: reading one (every field checked,
:class:`RecordError` naming the first bad one) and writing one from a game."""

from __future__ import annotations

import json
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictInt, ValidationError

from forage.carddata import standard_deck
from forage.engine import (
    Area,
    Colour,
    Game,
    Placement,
)
from forage.files import json_problem, number_problem
from forage.i18n import N_, _
from forage.wording import Said, SaidError
from forage.wording import shown as shown_said

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
    """A record that cannot be read: ``field`` names where, the message says what (in
    English as ``str()``, the JSON's; translated by :meth:`translated`)."""

    def __init__(self, field: str, problem: str | Said | SaidError, **values: object) -> None:
        """Describe the bad field and what is wrong with it: a message (marked ``N_``, with
        the ``values`` of its fields if it has any), or a sentence already made."""
        self.field = field
        self.said = Said(problem, values) if isinstance(problem, str) and values else problem
        self.problem = str(self.said)
        super().__init__(f"{field}: {self.problem}" if field else self.problem)

    def translated(self) -> str:
        """The field and its problem, in the player's language."""
        problem = self.said
        said = _(problem) if type(problem) is str else shown_said(problem)
        return f"{self.field}: {said}" if self.field else said


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
        data = self.model_dump(mode="json", exclude_none=True, exclude={"moves"})
        data["moves"] = [_move_data(move) for move in self.moves]
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
        raise RecordError("", N_("not a record (JSON nested too deeply)")) from None
    except ValueError as exc:  # Python's limit on the digits of a whole number
        raise RecordError("", N_("not a record ({reason})"), reason=number_problem(exc)) from None
    if not isinstance(data, dict):
        raise RecordError("", N_("a record is a JSON object"))
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


def _move_data(move: MoveIn) -> dict[str, Any]:
    """A move as JSON data, as the record writes it (``mouse`` only where colours were
    chosen)."""
    data = move.model_dump(mode="json")
    if not move.mouse:
        del data["mouse"]
    return data


def placement_json(placement: Placement) -> dict[str, Any]:
    """A placement as JSON data, as the record writes it (``mouse`` only where colours were
    chosen)."""
    return _move_data(_move_out(placement))
