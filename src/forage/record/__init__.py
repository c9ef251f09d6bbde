"""Game records and result objects: the JSON interface of CONTRACT.md.

- :mod:`~forage.record.schema`: the record's models; :func:`parse_record` checks every
  field and raises :class:`RecordError` naming the first bad one; :func:`record_from_game`.
- :mod:`~forage.record.games`: the deal, deck and placements a record gives, and the game
  replayed from them (:func:`build_game`, :func:`load_game`); one move's placement
  (:func:`placement_of`).
- :mod:`~forage.record.result`: the result object of ``forage replay --json``.

The file helpers of :mod:`forage.files` are re-exported here for the callers that read
records too.
"""

from forage.files import (
    json_problem,
    number_problem,
    os_problem,
    write_atomic,
    write_problem,
)
from forage.record.games import build_game, deal_from_code, load_game, placement_of
from forage.record.result import bad_input_object, result_object
from forage.record.schema import (
    FORMAT,
    CardIn,
    DeckIn,
    GameRecord,
    MouseIn,
    MoveIn,
    RecordError,
    RotationIn,
    parse_record,
    placement_json,
    record_from_game,
)

__all__ = [
    "FORMAT",
    "CardIn",
    "DeckIn",
    "GameRecord",
    "MouseIn",
    "MoveIn",
    "RecordError",
    "RotationIn",
    "bad_input_object",
    "build_game",
    "deal_from_code",
    "json_problem",
    "load_game",
    "number_problem",
    "os_problem",
    "parse_record",
    "placement_json",
    "placement_of",
    "record_from_game",
    "result_object",
    "write_atomic",
    "write_problem",
]
