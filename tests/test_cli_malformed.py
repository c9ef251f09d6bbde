"""Malformed records: exit 2 and one line on stderr naming the file and the field (CONTRACT).

Never a traceback. With ``--json`` the bad input is also reported as a result object whose
error has reason ``bad-input`` and move null.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forage.cli import main

CARDS = [
    {"number": 1, "areas": ["B", "B", "C", "BC", "M", "M"]},
    {"number": 2, "areas": ["C", "C", "M", "CM", "B", "B"]},
    {"number": 3, "areas": ["M", "M", "B", "BM", "C", "C"]},
]
VALID: dict[str, Any] = {
    "format": "forage/1",
    "deal": [1, 2, 3],
    "recipes": [4, 11],
    "cards": CARDS,
    "moves": [
        {"card": 2, "rotation": 90, "x": 0, "y": -1, "mouse": [{"x": 1, "y": 0, "colour": "M"}]},
    ],
}


def with_field(path: tuple[str | int, ...], value: Any, record: Any = None) -> Any:
    """A copy of a record (VALID by default) with the field at ``path`` set to ``value``."""
    result = copy.deepcopy(VALID if record is None else record)
    target = result
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return result


def without_field(path: tuple[str | int, ...]) -> Any:
    result = copy.deepcopy(VALID)
    target = result
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    return result


def run(args: list[str]) -> tuple[int, str, str]:
    """Run ``forage ARGS`` in-process, capturing output (works inside hypothesis too)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(args)
    return code, out.getvalue(), err.getvalue()


def check_bad_input(path: str, field: str | None) -> None:
    """Both commands, with and without --json: exit 2, one line naming file and field."""
    for command in ("replay", "moves"):
        code, out, err = run([command, path])
        assert code == 2, (command, err)
        assert out == ""
        lines = err.splitlines()
        assert len(lines) == 1, err
        assert "Traceback" not in err
        assert path in lines[0]
        if field is not None:
            assert f"{path}: {field}" in lines[0], lines[0]
        code, out, err = run([command, path, "--json"])
        assert code == 2 and len(err.splitlines()) == 1
        result = json.loads(out)
        assert result["ok"] is False
        assert result["error"]["move"] is None
        assert result["error"]["reason"] == "bad-input"
        assert path in result["error"]["message"]
        if command == "moves":
            assert result["moves"] == []


def test_the_base_record_is_valid(tmp_path: Path) -> None:
    path = tmp_path / "valid.json"
    path.write_text(json.dumps(VALID))
    code, out, err = run(["replay", str(path), "--json"])
    assert code == 0, err
    assert json.loads(out)["moves_applied"] == 1


BAD_RECORDS: list[tuple[str, Any, str | None]] = [
    # (id, record, the field the message must name)
    # Types: strings, floats, booleans and null where a whole number belongs.
    ("deal-string-item", with_field(("deal", 0), "1"), "deal[0]"),
    ("deal-float-item", with_field(("deal", 1), 2.0), "deal[1]"),
    ("deal-fraction-item", with_field(("deal", 1), 2.5), "deal[1]"),
    ("deal-bool-item", with_field(("deal", 2), True), "deal[2]"),
    ("deal-null-item", with_field(("deal", 0), None), "deal[0]"),
    ("deal-string", with_field(("deal",), "1.2.3"), "deal"),
    ("deal-object", with_field(("deal",), {"1": 2}), "deal"),
    ("move-x-string", with_field(("moves", 0, "x"), "0"), "moves[0].x"),
    ("move-x-float", with_field(("moves", 0, "x"), 0.0), "moves[0].x"),
    ("move-y-bool", with_field(("moves", 0, "y"), False), "moves[0].y"),
    ("move-y-null", with_field(("moves", 0, "y"), None), "moves[0].y"),
    ("move-card-bool", with_field(("moves", 0, "card"), True), "moves[0].card"),
    ("move-card-string", with_field(("moves", 0, "card"), "2"), "moves[0].card"),
    ("move-x-missing", without_field(("moves", 0, "x")), "moves[0].x"),
    ("move-card-missing", without_field(("moves", 0, "card")), "moves[0].card"),
    ("move-not-object", with_field(("moves", 0), [2, 90, 0, 1]), "moves[0]"),
    ("moves-not-list", with_field(("moves",), {"card": 2}), "moves"),
    ("moves-null", with_field(("moves",), None), "moves"),
    ("card-number-string", with_field(("cards", 0, "number"), "1"), "cards[0].number"),
    ("card-number-float", with_field(("cards", 0, "number"), 1.0), "cards[0].number"),
    ("card-number-missing", without_field(("cards", 1, "number")), "cards[1].number"),
    ("card-areas-missing", without_field(("cards", 1, "areas")), "cards[1].areas"),
    ("card-not-object", with_field(("cards", 2), "M M B BM C C"), "cards[2]"),
    ("cards-not-list", with_field(("cards",), {"1": CARDS[0]}), "cards"),
    ("cards-empty", with_field(("cards",), []), "cards"),
    ("seed-string", {"seed": "7"}, "seed"),
    ("seed-float", {"seed": 7.0}, "seed"),
    ("seed-bool", {"seed": True}, "seed"),
    ("deck-three", {"seed": 7, "deck": 3}, "deck"),
    ("deck-string", {"seed": 7, "deck": "2"}, "deck"),
    ("deck-without-seed", {"deck": 2}, "deck"),
    ("challenge-deck-two", {"seed": 7, "recipe_challenge": True, "deck": 2}, "deck"),
    ("challenge-string", {"seed": 7, "recipe_challenge": "yes"}, "recipe_challenge"),
    ("challenge-int", {"seed": 7, "recipe_challenge": 1}, "recipe_challenge"),
    # Unknown card numbers, in the deal and in the moves.
    ("deal-unknown-card", {"deal": [5, 12, 19]}, "deal[2]"),
    ("deal-card-zero", {"deal": [0, 5, 12]}, "deal[0]"),
    ("deal-card-negative", {"deal": [5, -12, 3]}, "deal[1]"),
    ("deal-not-in-custom-deck", with_field(("deal", 2), 4), "deal[2]"),
    ("move-unknown-card", {"deal": [5, 12, 3], "moves": [{"card": 19, "x": 0, "y": 0}]}, None),
    ("move-card-zero", with_field(("moves", 0, "card"), 0), "moves[0].card"),
    # Duplicate card numbers.
    ("deal-duplicate", {"deal": [5, 12, 5]}, "deal[2]"),
    ("custom-duplicate", with_field(("cards", 2, "number"), 1), "cards[2].number"),
    # Deal lengths.
    ("deal-empty", {"deal": []}, "deal"),
    ("deal-nineteen", {"deal": [*range(1, 19), 5]}, "deal"),
    # Bad area codes, and cards of 5 or 7 areas.
    ("area-CB", with_field(("cards", 0, "areas", 3), "CB"), "cards[0].areas[3]"),
    ("area-X", with_field(("cards", 1, "areas", 0), "X"), "cards[1].areas[0]"),
    ("area-lowercase", with_field(("cards", 1, "areas", 0), "b"), "cards[1].areas[0]"),
    ("area-BCM", with_field(("cards", 1, "areas", 5), "BCM"), "cards[1].areas[5]"),
    ("area-empty", with_field(("cards", 2, "areas", 2), ""), "cards[2].areas[2]"),
    ("area-number", with_field(("cards", 2, "areas", 2), 1), "cards[2].areas[2]"),
    ("five-areas", with_field(("cards", 0, "areas"), ["B", "B", "C", "BC", "M"]), "cards[0].areas"),
    (
        "seven-areas",
        with_field(("cards", 0, "areas"), ["B", "B", "C", "BC", "M", "M", "C"]),
        "cards[0].areas",
    ),
    ("areas-string", with_field(("cards", 0, "areas"), "BBCBCMM"), "cards[0].areas"),
    # Rotations other than 0, 90, 180, 270.
    ("rotation-45", with_field(("moves", 0, "rotation"), 45), "moves[0].rotation"),
    ("rotation-360", with_field(("moves", 0, "rotation"), 360), "moves[0].rotation"),
    ("rotation-minus-90", with_field(("moves", 0, "rotation"), -90), "moves[0].rotation"),
    ("rotation-string", with_field(("moves", 0, "rotation"), "90"), "moves[0].rotation"),
    ("rotation-float", with_field(("moves", 0, "rotation"), 90.0), "moves[0].rotation"),
    ("rotation-null", with_field(("moves", 0, "rotation"), None), "moves[0].rotation"),
    # Recipes: one, three, unknown, repeated, wrong types.
    ("one-recipe", with_field(("recipes",), [4]), "recipes"),
    ("three-recipes", with_field(("recipes",), [4, 11, 12]), "recipes"),
    ("unknown-recipe", with_field(("recipes",), [4, 19]), "recipes[1]"),
    ("recipe-zero", with_field(("recipes",), [0, 4]), "recipes[0]"),
    ("recipe-twice", with_field(("recipes",), [4, 4]), "recipes[1]"),
    ("recipe-string", with_field(("recipes",), ["4", 11]), "recipes[0]"),
    ("recipes-string", with_field(("recipes",), "4.11"), "recipes"),
    # Mouse colour choices.
    ("mouse-colour-X", with_field(("moves", 0, "mouse", 0, "colour"), "X"), None),
    ("mouse-colour-split", with_field(("moves", 0, "mouse", 0, "colour"), "CM"), None),
    ("mouse-x-missing", without_field(("moves", 0, "mouse", 0, "x")), "moves[0].mouse[0].x"),
    ("mouse-not-list", with_field(("moves", 0, "mouse"), {"x": 1}), "moves[0].mouse"),
    (
        "mouse-square-twice",
        with_field(
            ("moves", 0, "mouse"),
            [{"x": 1, "y": 0, "colour": "C"}, {"x": 1, "y": 0, "colour": "M"}],
        ),
        "moves[0].mouse[1]",
    ),
    # Format, deal and seed.
    ("format-wrong", with_field(("format",), "forage/2"), "format"),
    ("format-number", with_field(("format",), 1), "format"),
    ("no-deal-no-seed", without_field(("deal",)), "deal"),
    ("empty-object", {}, "deal"),
    ("seed-disagrees-with-deal", {"seed": 7, "deal": [1, 2, 3]}, "seed"),
]


@pytest.mark.parametrize(
    ("record", "field"),
    [pytest.param(record, field, id=name) for name, record, field in BAD_RECORDS],
)
def test_malformed_record(tmp_path: Path, record: Any, field: str | None) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    check_bad_input(str(path), field)


def test_unknown_move_card_names_the_move(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"deal": [5, 12, 3], "moves": [{"card": 19, "x": 0, "y": 0}]}))
    code, _, err = run(["replay", str(path)])
    assert code == 2 and "moves[0].card" in err and "19" in err


def test_mouse_colour_must_be_a_colour(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    for colour in ("X", "CM", "b", 1, None):
        path.write_text(json.dumps(with_field(("moves", 0, "mouse", 0, "colour"), colour)))
        code, _, err = run(["replay", str(path)])
        assert code == 2 and "moves[0].mouse[0].colour" in err


@pytest.mark.parametrize(
    "text",
    [
        pytest.param('{"deal": [1, 2', id="truncated"),
        pytest.param("", id="empty-file"),
        pytest.param("deal: [1, 2, 3]", id="yaml"),
        pytest.param('{"deal": [1, 2, 3],}', id="trailing-comma"),
        pytest.param("[5, 12, 3]", id="array"),
        pytest.param('"5.12.3"', id="string"),
        pytest.param("42", id="number"),
        pytest.param("null", id="null"),
        pytest.param("[" * 5000 + "]" * 5000, id="deeply-nested"),
        pytest.param('{"deal":' + "[" * 500 + "]" * 500 + "}", id="nested-deal"),
    ],
)
def test_not_a_json_object(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    check_bad_input(str(path), None)


def test_missing_file_folder_and_bytes(tmp_path: Path) -> None:
    check_bad_input(str(tmp_path / "no-such-file.json"), None)
    check_bad_input(str(tmp_path), None)
    binary = tmp_path / "latin1.json"
    binary.write_bytes(b'{"deal": [5, 12, 3], "name": "caf\xe9"}')
    check_bad_input(str(binary), None)
    junk = tmp_path / "junk.json"
    junk.write_bytes(bytes(range(256)))
    check_bad_input(str(junk), None)


def test_utf8_with_bom_is_read(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"deal": [5, 12, 3]}).encode())
    assert run(["replay", str(path)])[0] == 0


def test_null_optional_fields_and_unknown_keys_are_accepted(tmp_path: Path) -> None:
    # Absent and null optional fields mean the same; unknown keys are ignored, so later
    # versions may add fields; an empty recipes list names no recipes.
    path = tmp_path / "ok.json"
    for record in (
        {"deal": [5, 12, 3], "recipes": None, "cards": None, "seed": None},
        {"deal": [5, 12, 3], "player": "Ann", "moves": []},
        {"deal": [5, 12, 3], "recipes": []},
    ):
        path.write_text(json.dumps(record))
        code, out, err = run(["replay", str(path), "--json"])
        assert code == 0, err
        assert json.loads(out)["target"] is None


# -- random junk --------------------------------------------------------------------------------


def field_paths(value: Any, prefix: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    """Every path to a value inside a record."""
    paths = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            paths += field_paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            paths += field_paths(item, (*prefix, index))
    return paths


PATHS = field_paths(VALID)
VALID_AREAS = ("B", "C", "M", "BC", "BM", "CM")
OPTIONAL = {("format",), ("recipes",), ("cards",), ("moves", 0, "mouse")}


def path_text(path: tuple[str | int, ...]) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


JUNK = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)


def must_be_refused(path: tuple[str | int, ...], junk: Any) -> bool:
    """Whether junk at a path is of the wrong type for it, so the record is bad input.

    Junk of the right type (another number, string, list or object) may still make a
    well-formed record, or one with an illegal move; null may stand for a missing optional.
    """
    if junk is None and path in OPTIONAL:
        return False
    original: Any = VALID
    for key in path:
        original = original[key]
    return type(junk) is not type(original)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(PATHS), JUNK)
def test_random_junk_never_gives_a_traceback(
    tmp_path_factory: pytest.TempPathFactory, path: tuple[str | int, ...], junk: Any
) -> None:
    record = with_field(path, junk)
    file = tmp_path_factory.getbasetemp() / "junk.json"
    file.write_text(json.dumps(record), encoding="utf-8")
    for command in ("replay", "moves"):
        code, out, err = run([command, str(file), "--json"])
        assert code in (0, 1, 2)
        assert json.loads(out)
        if code == 2:
            assert len(err.splitlines()) == 1 and str(file) in err
            assert json.loads(out)["error"]["reason"] == "bad-input"
        elif code == 1:
            assert len(err.splitlines()) == 1 and "moves[0]" in err
        else:
            assert err == ""
        if must_be_refused(path, junk):
            assert code == 2, (command, path, junk, err)
            assert f": {path_text(path)}" in err, err


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(
        [
            (("moves", 0, "rotation"), st.integers().filter(lambda n: n not in (0, 90, 180, 270))),
            (("deal", 1), st.integers().filter(lambda n: n not in (1, 2, 3))),
            (("recipes", 0), st.integers().filter(lambda n: not 1 <= n <= 18 or n == 11)),
            (("cards", 1, "number"), st.integers(max_value=0)),
            (("moves", 0, "mouse", 0, "colour"), st.text().filter(lambda t: t not in "BCM")),
            (("cards", 0, "areas", 2), st.text().filter(lambda t: t not in VALID_AREAS)),
        ]
    ).flatmap(lambda pair: st.tuples(st.just(pair[0]), pair[1])),
)
def test_out_of_range_values_exit_2_naming_the_field(
    tmp_path_factory: pytest.TempPathFactory, case: tuple[tuple[str | int, ...], Any]
) -> None:
    path, value = case
    file = tmp_path_factory.getbasetemp() / "range.json"
    file.write_text(json.dumps(with_field(path, value)), encoding="utf-8")
    code, _, err = run(["replay", str(file)])
    assert code == 2, (path, value, err)
    assert len(err.splitlines()) == 1
    assert path_text(path) in err or path_text(path[:-1]) in err, err
