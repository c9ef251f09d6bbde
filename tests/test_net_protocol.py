"""The rooms protocol's messages (CONTRACT.md, "Playing together"): what a client may send,
read strictly, and what the server writes."""

from __future__ import annotations

import json
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from forage.engine import Colour, MouseChoice, Placement, Rotation, Score
from forage.net.protocol import (
    MAX_MESSAGE_BYTES,
    BadMessage,
    CreateIn,
    DailyIn,
    ErrorCode,
    JoinIn,
    PlacedOut,
    PlaceIn,
    RejoinIn,
    StartIn,
    TooLarge,
    TurnOut,
    error,
    message_text,
    name_key,
    name_skeleton,
    read_client_message,
    read_server_message,
    room_name,
)


def read(data: object) -> object:
    return read_client_message(json.dumps(data))


def refused(data: object | str) -> str:
    with pytest.raises(BadMessage) as caught:
        read_client_message(data if isinstance(data, str) else json.dumps(data))
    message = str(caught.value)
    assert "\n" not in message and message
    return message


def test_every_client_message_is_read() -> None:
    assert read({"type": "create", "name": "Ann"}) == CreateIn(name="Ann")
    assert read({"type": "create", "name": "Ann", "recipes": True}) == CreateIn(
        name="Ann", recipes=True
    )
    assert read({"type": "join", "room": "ABCD2345", "name": "Bo"}) == JoinIn(
        room="ABCD2345", name="Bo"
    )
    assert read({"type": "rejoin", "room": "R", "token": "T"}) == RejoinIn(room="R", token="T")
    assert read({"type": "start"}) == StartIn()
    assert read({"type": "daily", "name": "Ann"}) == DailyIn(name="Ann")
    place = read(
        {
            "type": "place",
            "turn": 3,
            "card": 12,
            "rotation": 90,
            "x": 1,
            "y": -1,
            "mouse": [{"x": 0, "y": 3, "colour": "B"}],
        }
    )
    assert isinstance(place, PlaceIn)
    assert place.turn == 3
    assert place.placement() == Placement(
        card=12,
        rotation=Rotation.R90,
        x=1,
        y=-1,
        mouse=(MouseChoice(x=0, y=3, colour=Colour.B),),
    )


def test_an_optional_field_given_as_null_is_as_if_not_given() -> None:
    place = read({"type": "place", "turn": 1, "card": 2, "x": 0, "y": 1, "mouse": None})
    assert isinstance(place, PlaceIn) and place.mouse == [] and place.rotation == 0
    assert read({"type": "create", "name": "Ann", "recipes": None, "deck": None}) == CreateIn(
        name="Ann"
    )
    assert "turn" in refused({"type": "place", "turn": None, "card": 2, "x": 0, "y": 1})
    assert "name" in refused({"type": "create", "name": None})


def test_fields_a_receiver_does_not_know_are_ignored() -> None:
    assert read({"type": "start", "colour": "blue", "nested": {"a": [1, 2]}}) == StartIn()


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"type": "teleport"}, 'unknown message type "teleport"'),
        ({"type": None}, '"type" is a string, not null'),
        ({"type": ["place"]}, '"type" is a string, not a list or object'),
        (
            {"type": "place", "turn": 1, "card": 1, "x": 0, "y": 0, "mouse": [{}] * 7},
            "place: mouse: at most 6 items",
        ),
        ({"name": "Ann"}, '"type"'),
        ([1, 2], '"type"'),
        ("not json", "not valid JSON"),
        ({"type": "place", "turn": "1", "card": 1, "x": 0, "y": 0}, "turn"),
        ({"type": "place", "turn": 1.0, "card": 1, "x": 0, "y": 0}, "turn"),
        ({"type": "place", "turn": True, "card": 1, "x": 0, "y": 0}, "turn"),
        ({"type": "place", "turn": 0, "card": 1, "x": 0, "y": 0}, "turn"),
        ({"type": "place", "turn": 9, "card": 1, "x": 0, "y": 0}, "turn"),
        ({"type": "place", "turn": 1, "card": 1, "x": 0}, "y"),
        ({"type": "place", "turn": 1, "card": 1, "x": 0, "y": 0, "rotation": 45}, "rotation"),
        ({"type": "place", "turn": 1, "card": 10**30, "x": 0, "y": 0}, "at most 10000"),
        ({"type": "place", "turn": 1, "card": 1, "x": -(10**9), "y": 0}, "at most 10000"),
        ({"type": "create", "name": "Ann", "recipes": 1}, "recipes"),
        ({"type": "create", "name": "Ann", "deck": 3}, "deck"),
        ({"type": "create", "name": "Ann", "recipes": True, "deck": 2}, "no deck 2"),
        ({"type": "create", "name": 7}, "name"),
        ({"type": "join", "room": "x" * 500, "name": "Ann"}, "room"),
    ],
)
def test_a_bad_message_is_refused_in_one_line(data: object, words: str) -> None:
    assert words in refused(data)


def test_numbers_too_long_for_json_and_deep_nesting_are_bad_messages() -> None:
    assert "not valid JSON" in refused('{"type": "start", "n": ' + "9" * 5000 + "}")
    assert "not valid JSON" in refused('{"type": "start", "n": ' + "[" * 3000 + "]" * 3000 + "}")


def test_a_mouse_square_chosen_twice_is_a_bad_placement() -> None:
    place = read(
        {
            "type": "place",
            "turn": 1,
            "card": 2,
            "x": 0,
            "y": 0,
            "mouse": [{"x": 0, "y": 1, "colour": "B"}, {"x": 0, "y": 1, "colour": "C"}],
        }
    )
    assert isinstance(place, PlaceIn)
    with pytest.raises(BadMessage, match="chosen twice"):
        place.placement()


def test_a_message_over_64_kib_is_too_large() -> None:
    head = '{"type": "start", "pad": "'
    exact = head + "x" * (MAX_MESSAGE_BYTES - len(head) - 2) + '"}'
    assert len(exact.encode()) == MAX_MESSAGE_BYTES
    assert read_client_message(exact) == StartIn()
    with pytest.raises(TooLarge):
        read_client_message(exact.replace('"pad": "', '"pad": "x'))
    with pytest.raises(TooLarge):  # counted in bytes of UTF-8, not characters
        read_client_message(head + "é" * (MAX_MESSAGE_BYTES // 2) + '"}')


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("x" * 41, "at most 40"),
        ("\x1b[31mred\x1b[0m", "control characters"),
        ("Ann\nBob", "control characters"),
        ("evil\u202egnp.exe", "control characters"),  # a right-to-left override
        ("zero\u200bwidth", "control characters"),
        ("[bold red]Ann[/]", "cannot hold [ or ]"),
        ("<script>alert(1)</script>", "cannot hold < or >"),
        ("Ann\u034f", "invisible"),  # a combining grapheme joiner: "Ann" to the eye
        ("\u3164", "invisible"),  # the Hangul filler, a letter drawn as nothing
        ("\ufe0f", "invisible"),
        ("\u2800\u2800", "can be seen"),  # braille blanks
        ("\u0301", "can be seen"),  # a mark with nothing to sit on
    ],
)
def test_names_that_could_fool_a_screen_are_refused(name: str, words: str) -> None:
    assert words in refused({"type": "create", "name": name})


def test_a_name_is_trimmed_and_may_be_any_printable_text() -> None:
    for name in ("  Zoë  ", "李小龍", "Ann & Bob", "x" * 40, "O'Brien (2)", "A\u0301nn", "★"):
        message = read({"type": "join", "room": "R", "name": name})
        assert isinstance(message, JoinIn)
        assert message.name == name.strip()


@pytest.mark.parametrize(
    "names",
    [
        ("Paul", "\u0420aul", "P\u0430ul", "PAUL", "\uff30\uff41\uff55\uff4c"),  # Р, а Cyrillic
        ("paypal", "p\u0430yp\u0430l"),
        ("Ann", "ANN", "\uff21\uff4e\uff4e", "\u0410nn"),  # Ａｎｎ; А Cyrillic
        ("pop", "\u0440\u043e\u0440"),  # рор, wholly Cyrillic
        ("coco", "\u0421\u043e\u0441\u043e"),  # Сосо
        ("b0b", "bob", "BOB"),
        ("Pam", "Parn"),
        ("\u00c1nn", "A\u0301nn"),
    ],
)
def test_names_that_read_alike_have_one_skeleton(names: tuple[str, ...]) -> None:
    assert len({name_skeleton(name) for name in names}) == 1


@pytest.mark.parametrize(
    ("one", "other"),
    [("Paul", "Saul"), ("Ann", "Anna"), ("Zoë", "Zoe"), ("さくら", "さとう"), ("Ivan", "Иван")],
)
def test_names_that_read_differently_have_different_skeletons(one: str, other: str) -> None:
    assert name_skeleton(one) != name_skeleton(other)


@given(st.text(min_size=1, max_size=40))
def test_a_name_has_the_skeleton_of_its_case_and_width_forms(name: str) -> None:
    forms = (
        name.upper(),
        name.lower(),
        name.casefold(),
        name_key(name),
        *(unicodedata.normalize(form, name) for form in ("NFC", "NFD", "NFKC", "NFKD")),
    )
    assert {name_skeleton(form) for form in forms} == {name_skeleton(name)}


@pytest.mark.parametrize(
    "name",
    [
        "Paul",
        "Пётр",  # Cyrillic
        "Ζωή",  # Greek
        "さくら",  # Hiragana
        "山田太郎",  # Han
        "Taro山田",  # Latin and Han
        "やまだタロウ山田 Taro",  # Japanese: Hiragana, Katakana, Han, and Latin
        "王小明ㄅㄆ",  # Chinese: Han and Bopomofo
        "김철수 金",  # Korean: Hangul and Han
        "Ann & Bob 2",  # digits, spaces and punctuation go with any script
        "Zoë",
        "A\u0301nn",  # a combining mark goes with any script
        "ラーメン",  # the prolonged sound mark is of no one script
        "\U0001d40f\U0001d41a\U0001d42e\U0001d425",  # mathematical bold letters read as Latin
    ],
)
def test_names_in_one_script_or_in_a_cjk_mix_are_names(name: str) -> None:
    assert room_name(name) == name


@pytest.mark.parametrize(
    ("name", "scripts"),
    [
        ("P\u0430ul", "Cyrillic and Latin"),  # а Cyrillic
        ("\u0420aul", "Cyrillic and Latin"),  # Р Cyrillic
        ("p\u0430ypal", "Cyrillic and Latin"),
        ("\U0001d40f\u0430ul", "Cyrillic and Latin"),  # a bold P reads as a Latin one
        ("Ale\u03c7", "Greek and Latin"),  # χ Greek
        ("Пётр Ζωή", "Cyrillic and Greek"),
        ("김さくら", "Hangul and Hiragana"),  # Korean and Japanese are not one writing
        ("王ㄅさ", "Bopomofo and Han and Hiragana"),
    ],
)
def test_a_name_mixing_scripts_is_refused_in_one_line(name: str, scripts: str) -> None:
    with pytest.raises(ValueError, match="cannot mix scripts") as caught:
        room_name(name)
    assert scripts in str(caught.value) and "\n" not in str(caught.value)
    assert "cannot mix scripts" in refused({"type": "create", "name": name})


def test_an_error_names_its_reason_only_when_it_has_one() -> None:
    assert json.loads(message_text(error(ErrorCode.FULL, "room is full"))) == {
        "type": "error",
        "code": "full",
        "message": "room is full",
    }
    illegal = json.loads(message_text(error(ErrorCode.ILLEGAL, "no", "no-overlap")))
    assert illegal["reason"] == "no-overlap" and illegal["code"] == "illegal"


def test_the_error_codes_are_the_contracts() -> None:
    assert {code.value for code in ErrorCode} == {
        "bad-message",
        "no-room",
        "name-taken",
        "not-host",
        "not-started",
        "started",
        "full",
        "illegal",
        "already-placed",
        "stale-turn",
        "played",
        "rate",
        "too-large",
    }


def test_server_messages_read_back_and_unknown_types_are_skipped() -> None:
    score = Score(dice_total=4, mice=0, split_dice=0, edwood=False, base=4, bonus=0, final=4)
    placement = Placement(card=3, rotation=Rotation.R270, x=-1, y=2)
    placed = PlacedOut.of(2, score, placement)
    again = read_server_message(message_text(placed))
    assert isinstance(again, PlacedOut) and again.placement() == placement
    turn = json.loads(message_text(TurnOut(turn=8, card=None, standings=[])))
    assert turn == {"type": "turn", "turn": 8, "card": None, "standings": []}
    assert read_server_message('{"type": "news", "text": "later addition"}') is None
    assert read_server_message('{"type": ["a list"]}') is None
    assert read_server_message('{"text": "no type"}') is None
    for junk in ("[]", "not json", "[" * 100_000):
        with pytest.raises(BadMessage, match=r"^not a JSON object$"):
            read_server_message(junk)
    with pytest.raises(BadMessage, match=r"^turn: "):
        read_server_message('{"type": "turn", "turn": 2}')
