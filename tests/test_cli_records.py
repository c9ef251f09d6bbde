"""The headless commands of CONTRACT.md run in-process: ``deal``, ``replay`` and ``moves``.

Records are written to files and fed to ``forage.cli.main``; the JSON printed is checked
against the contract and, for small custom decks, against results worked out by hand.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
import reference
from helpers import with_mouse
from hypothesis import given, settings
from hypothesis import strategies as st

from forage.ai.hint import Hint
from forage.carddata import standard_deck
from forage.cli import main
from forage.engine import Card, Colour, Deal, Deck, Game, Placement
from forage.record import GameRecord, MoveIn, placement_json, record_from_game

# -- helpers ------------------------------------------------------------------------------------

RATINGS = (
    (50, "It's unani-mouse: you're a fantastic forager!"),
    (45, "What a wood-erful haul!"),
    (40, "A berry good harvest"),
    (35, "A satisfac-tree gathering"),
    (30, "Chest-nut quite good enough"),
    (-1000, "There's mush-room for improvement"),
)
SCORE_KEYS = {"dice_total", "mice", "split_dice", "edwood", "base", "bonus", "final"}
RESULT_KEYS = {
    "ok",
    "error",
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
}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``forage ARGS`` in-process; returns (exit code, stdout, stderr)."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, record: dict[str, Any], name: str = "game.json") -> str:
    """Write a record to a file and return its path."""
    path = tmp_path / name
    path.write_text(json.dumps(record), encoding="utf-8")
    return str(path)


def replay_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, record: dict[str, Any], code: int = 0
) -> dict[str, Any]:
    """``forage replay FILE --json`` on a record, checking the exit code and the object."""
    got, out, err = run(capsys, "replay", write(tmp_path, record), "--json")
    assert got == code, err
    result: dict[str, Any] = json.loads(out)
    check_result_object(result)
    return result


def is_int(value: object) -> bool:
    return type(value) is int


def check_result_object(result: dict[str, Any]) -> None:
    """Every CONTRACT key with the right type, and the numbers consistent with each other."""
    assert set(result) >= RESULT_KEYS
    assert type(result["ok"]) is bool
    assert result["ok"] == (result["error"] is None)
    if result["error"] is not None:
        error = result["error"]
        assert set(error) == {"move", "reason", "message"}
        assert is_int(error["move"]) and error["move"] == result["moves_applied"]
        assert isinstance(error["reason"], str) and isinstance(error["message"], str)
    assert is_int(result["moves_applied"]) and result["moves_applied"] >= 0
    for key in ("finished", "stuck", "edwood_used"):
        assert type(result[key]) is bool, key
    assert all(is_int(n) for n in result["hand"]) and len(result["hand"]) <= 2
    assert is_int(result["draw_pile"]) and result["draw_pile"] >= 0
    score = result["score"]
    assert set(score) == SCORE_KEYS
    assert type(score["edwood"]) is bool
    assert all(is_int(score[k]) for k in SCORE_KEYS - {"edwood"})
    assert isinstance(result["rating"], str)
    assert result["target"] is None or is_int(result["target"])
    assert result["won"] is None or type(result["won"]) is bool
    for recipe in result["recipes"]:
        assert set(recipe) >= {"number", "name", "met", "bonus"}
        assert is_int(recipe["number"]) and isinstance(recipe["name"], str)
        assert type(recipe["met"]) is bool and is_int(recipe["bonus"])
    assert set(result["supply"]) == {"B", "C", "M"}
    assert all(is_int(n) and 0 <= n <= 5 for n in result["supply"].values())

    # The woodland: top areas only, sorted by y then x, each square once.
    woodland = result["woodland"]
    places = [(sq["x"], sq["y"]) for sq in woodland]
    assert places == sorted(places, key=lambda p: (p[1], p[0]))
    assert len(set(places)) == len(places)
    dice = []
    for sq in woodland:
        assert {"x", "y", "area", "die", "edwood"} <= set(sq)
        assert is_int(sq["x"]) and is_int(sq["y"]) and type(sq["edwood"]) is bool
        assert sq["area"] in ("B", "C", "M", "BC", "BM", "CM")
        if sq["die"] is not None:
            die = sq["die"]
            assert set(die) == {"colour", "value", "mouse"}
            assert die["colour"] in ("B", "C", "M")
            assert die["value"] in (-2, 1, 3, 6, 10, 15)
            assert die["mouse"] == (die["value"] == -2)
            assert not sq["edwood"]
            dice.append((sq["area"], die))

    # The score recounted from the woodland (R15, R17).
    edwood = sum(sq["edwood"] for sq in woodland)
    assert edwood <= 1
    assert score["edwood"] == (edwood == 1) == result["edwood_used"]
    assert score["dice_total"] == sum(d["value"] for _, d in dice)
    assert score["mice"] == sum(d["mouse"] for _, d in dice)
    assert score["split_dice"] == sum(len(area) == 2 for area, _ in dice)
    assert score["base"] == score["dice_total"] - score["split_dice"] - 5 * score["edwood"]
    assert score["final"] == score["base"] + score["bonus"]
    assert score["bonus"] == sum(r["bonus"] for r in result["recipes"])
    # Each colour's five dice are in the supply or in the woodland.
    for colour in "BCM":
        in_play = sum(d["colour"] == colour for _, d in dice)
        assert in_play + result["supply"][colour] == 5
    assert result["rating"] == next(p for floor, p in RATINGS if score["base"] >= floor)

    # Finished, stuck and won (R13, R16, R17).
    if result["stuck"]:
        assert result["finished"] and result["hand"]
    if result["finished"] and not result["stuck"]:
        assert result["hand"] == [] and result["draw_pile"] == 0
    if not result["finished"]:
        assert result["won"] is None
    elif result["target"] is not None:
        assert result["won"] == (score["final"] >= result["target"])
    else:
        assert result["won"] == (score["base"] >= 35)
    if result["target"] is None:
        assert result["recipes"] == [] and score["bonus"] == 0


def engine_game(deal: Deal) -> Game:
    return Game(deal, standard_deck(), recipe_book=standard_deck().recipes())


def move_json(placement: Placement) -> dict[str, Any]:
    move: dict[str, Any] = {
        "card": placement.card,
        "rotation": int(placement.rotation),
        "x": placement.x,
        "y": placement.y,
    }
    if placement.mouse:
        move["mouse"] = [{"x": m.x, "y": m.y, "colour": m.colour.value} for m in placement.mouse]
    return move


def play_first_legal(game: Game, turns: int | None = None) -> list[dict[str, Any]]:
    """Play the best-scoring legal placement the engine lists, turn after turn."""
    moves = []
    while not game.is_over() and (turns is None or len(moves) < turns):
        best = max(game.outcomes(), key=lambda o: o.score_change)
        assert game.push(best.placement).legal
        moves.append(move_json(best.placement))
    return moves


def _deck(cards: list[dict[str, Any]]) -> Deck:
    return Deck.of(Card(number=c["number"], areas=tuple(c["areas"])) for c in cards)


def custom(*areas: str) -> list[dict[str, Any]]:
    """Custom cards numbered 1, 2, ...: each given as six space-separated area codes."""
    return [{"number": i + 1, "areas": text.split()} for i, text in enumerate(areas)]


ALL_B = "B B B B B B"
ALL_C = "C C C C C C"
ALL_M = "M M M M M M"
ALL_CM = "CM CM CM CM CM CM"


# -- forage deal --------------------------------------------------------------------------------


def test_deal_prints_the_seed_deal_code(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "deal", "--seed", "42")
    assert code == 0 and err == ""
    assert out == Deal.from_seed(42).code + "\n"
    cards = [int(n) for n in out.strip().split(".")]
    assert len(cards) == 9 and len(set(cards)) == 9 and set(cards) <= set(range(1, 19))


def test_deal_is_the_seeds_shuffle_and_seeds_differ(capsys: pytest.CaptureFixture[str]) -> None:
    first = run(capsys, "deal", "--seed", "7")[1]
    assert first == ".".join(str(n) for n in reference.deal_order(7)[:9]) + "\n"
    others = {run(capsys, "deal", "--seed", str(seed))[1] for seed in range(8, 14)}
    assert first not in others and len(others) == 6


def test_r14_seeds_are_64_bit_whole_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    deals = []
    for seed in ("0", "1", str(2**64 - 1)):
        code, out, _ = run(capsys, "deal", "--seed", seed)
        assert code == 0 and len(out.strip().split(".")) == 9
        deals.append(out)
    assert len(set(deals)) == 3  # 0 and 2**64 no longer name one deal
    for seed in ("-5", "-1", str(2**64), str(2**70)):
        with pytest.raises(SystemExit) as stopped:
            run(capsys, "deal", "--seed", seed)
        assert stopped.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "0 to 2**64 - 1" in err


def test_r14_a_record_seed_outside_64_bits_is_refused(tmp_path: Path) -> None:
    from forage.record import RecordError, build_game, parse_record

    for seed in (-1, 2**64):
        with pytest.raises(RecordError, match="seed"):
            build_game(parse_record(json.dumps({"format": "forage/1", "seed": seed, "moves": []})))


def test_deal_recipes_form(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal", "--seed", "42", "--recipes")
    assert code == 0
    head, sep, tail = out.strip().partition(":")
    assert sep == ":"
    recipes = [int(n) for n in head.split(".")]
    cards = [int(n) for n in tail.split(".")]
    assert len(recipes) == 2 and len(cards) == 9
    assert len(set(recipes + cards)) == 11 and set(recipes + cards) <= set(range(1, 19))
    assert Deal.from_code(out.strip()) == Deal.from_seed(42, recipes=True)


def test_deal_deck_two_is_the_other_nine_cards(capsys: pytest.CaptureFixture[str]) -> None:
    one = run(capsys, "deal", "--seed", "5", "--deck", "1")[1].strip()
    two = run(capsys, "deal", "--seed", "5", "--deck", "2")[1].strip()
    assert one == run(capsys, "deal", "--seed", "5")[1].strip()
    cards_one = [int(n) for n in one.split(".")]
    cards_two = [int(n) for n in two.split(".")]
    assert sorted(cards_one + cards_two) == list(range(1, 19))
    # R12: the first nine and the last nine of the same shuffle; the recipe challenge deals
    # its two recipes and nine cards from the front of that shuffle too.
    challenge = Deal.from_code(run(capsys, "deal", "--seed", "5", "--recipes")[1].strip())
    assert challenge.recipes is not None
    assert [*challenge.recipes, *challenge.cards] == cards_one + cards_two[:2]


def test_deal_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (
        ["deal", "--seed", "x"],
        ["deal", "--deck", "3"],
        ["deal", "--seed", "1", "--recipes", "--deck", "2"],
    ):
        with pytest.raises(SystemExit) as exc:
            main(args)
        assert exc.value.code == 2
        assert "Traceback" not in capsys.readouterr().err


def test_deal_without_seed_prints_a_fresh_deal(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal")
    assert code == 0
    assert len(Deal.from_code(out.strip()).cards) == 9


# -- forage replay --json -----------------------------------------------------------------------


def test_replay_finished_standard_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    deal = Deal.from_seed(3)
    game = engine_game(deal)
    moves = play_first_legal(game)
    result = replay_json(
        capsys, tmp_path, {"format": "forage/1", "deal": list(deal.cards), "moves": moves}
    )
    expected = game.result()
    assert result["ok"] and result["error"] is None
    assert result["moves_applied"] == len(moves) == 8
    assert result["finished"] and not result["stuck"]
    assert result["hand"] == [] and result["draw_pile"] == 0
    assert result["score"] == expected.score.model_dump()
    assert result["target"] is None and result["recipes"] == []
    assert result["won"] == (expected.score.base >= 35)
    assert result["deal"] == deal.code
    # Every card of the deal shows somewhere (nine cards of six areas, many overlapping).
    assert len(result["woodland"]) >= 12


def test_replay_partial_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    deal = Deal.from_seed(4)
    game = engine_game(deal)
    moves = play_first_legal(game, turns=3)
    result = replay_json(capsys, tmp_path, {"deal": list(deal.cards), "moves": moves})
    assert result["ok"] and result["moves_applied"] == 3
    assert not result["finished"] and not result["stuck"] and result["won"] is None
    assert result["hand"] == list(game.hand) and len(result["hand"]) == 2
    assert result["draw_pile"] == 9 - 3 - 3


def test_replay_no_moves_is_the_starting_card(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    deal = Deal.from_seed(9)
    result = replay_json(capsys, tmp_path, {"deal": list(deal.cards)})
    assert result["moves_applied"] == 0 and result["hand"] == list(deal.cards[1:3])
    assert result["draw_pile"] == 6
    assert len(result["woodland"]) == 6
    assert all(sq["die"] is None for sq in result["woodland"])
    assert [(sq["x"], sq["y"]) for sq in result["woodland"]] == [
        (0, 0),
        (1, 0),
        (0, 1),
        (1, 1),
        (0, 2),
        (1, 2),
    ]
    first = standard_deck()[deal.cards[0]]
    assert [sq["area"] for sq in result["woodland"]] == [a.value for a in first.areas]
    assert result["score"]["base"] == 0 and result["supply"] == {"B": 5, "C": 5, "M": 5}


def test_replay_recipe_challenge(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    deal = Deal.from_seed(6, recipes=True)
    assert deal.recipes is not None
    targets = sum(standard_deck()[n].recipe.target for n in deal.recipes)  # type: ignore[union-attr]
    game = engine_game(deal)
    moves = play_first_legal(game)
    record = {"deal": list(deal.cards), "recipes": list(deal.recipes), "moves": moves}
    # Partway through: recipes are scored as they stand, but nobody has won yet.
    partial = replay_json(capsys, tmp_path, {**record, "moves": moves[:4]})
    assert partial["target"] == targets and partial["won"] is None
    assert [r["number"] for r in partial["recipes"]] == list(deal.recipes)
    # Finished: won when the final score reaches the sum of the recipe targets (R17).
    result = replay_json(capsys, tmp_path, record)
    assert result["finished"] and result["target"] == targets
    names = [standard_deck()[n].recipe.name for n in deal.recipes]  # type: ignore[union-attr]
    assert [r["name"] for r in result["recipes"]] == names
    assert result["won"] == (result["score"]["final"] >= targets)
    assert result["score"] == game.result().score.model_dump()
    assert result["deal"] == deal.code


def test_replay_seed_based_records(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for extra in ({}, {"deck": 1}, {"deck": 2}, {"recipe_challenge": True}):
        deal = Deal.from_seed(
            12, deck=int(extra.get("deck", 1)), recipes=bool(extra.get("recipe_challenge"))
        )
        game = engine_game(deal)
        moves = play_first_legal(game, turns=2)
        by_seed = replay_json(capsys, tmp_path, {"seed": 12, **extra, "moves": moves})
        by_deal = replay_json(
            capsys,
            tmp_path,
            {
                "deal": list(deal.cards),
                **({"recipes": list(deal.recipes)} if deal.recipes else {}),
                "moves": moves,
            },
        )
        assert by_seed == by_deal
        assert by_seed["deal"] == deal.code


def test_replay_seed_and_deal_together_must_agree(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    deal = Deal.from_seed(21, recipes=True)
    assert deal.recipes is not None
    agreeing = replay_json(
        capsys, tmp_path, {"seed": 21, "recipe_challenge": True, "deal": list(deal.cards)}
    )
    assert agreeing["deal"] == deal.code and agreeing["target"] is not None
    code, _, err = run(
        capsys, "replay", write(tmp_path, {"seed": 21, "deal": list(Deal.from_seed(22).cards)})
    )
    assert code == 2 and "seed" in err
    other = [n for n in range(1, 19) if n not in deal.recipes][:2]
    code, _, err = run(
        capsys,
        "replay",
        write(tmp_path, {"seed": 21, "recipe_challenge": True, "recipes": other}),
    )
    assert code == 2 and "recipes" in err


def test_replay_custom_deck_worked_by_hand(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Card 1 (all bramble) starts the woodland; card 2 (all leaves) covers its bottom row.
    record = {
        "deal": [1, 2, 3],
        "cards": custom(ALL_B, ALL_C, ALL_M),
        "moves": [{"card": 2, "rotation": 0, "x": 0, "y": 2}],
    }
    result = replay_json(capsys, tmp_path, record)
    assert result["ok"] and result["moves_applied"] == 1
    assert result["hand"] == [3] and result["draw_pile"] == 0
    assert not result["finished"]
    mouse = {"colour": "C", "value": -2, "mouse": True}
    assert [(sq["x"], sq["y"], sq["area"], sq["die"]) for sq in result["woodland"]] == [
        (0, 0, "B", None),
        (1, 0, "B", None),
        (0, 1, "B", None),
        (1, 1, "B", None),
        (0, 2, "C", mouse),
        (1, 2, "C", mouse),
        (0, 3, "C", None),
        (1, 3, "C", None),
        (0, 4, "C", None),
        (1, 4, "C", None),
    ]
    assert result["score"] == {
        "dice_total": -4,
        "mice": 2,
        "split_dice": 0,
        "edwood": False,
        "base": -4,
        "bonus": 0,
        "final": -4,
    }
    assert result["supply"] == {"B": 5, "C": 3, "M": 5}
    assert result["rating"] == "There's mush-room for improvement"


def test_replay_custom_split_cards_mouse_colours(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Four split CM areas on bramble: each gets a mouse of the colour with more dice left,
    # ties to C before M (R8c); a chosen colour changes the rest of the sequence.
    base = {"deal": [1, 2, 3], "cards": custom(ALL_B, ALL_CM, ALL_M)}
    default = replay_json(
        capsys, tmp_path, {**base, "moves": [{"card": 2, "rotation": 0, "x": 0, "y": 1}]}
    )
    colours = {(sq["x"], sq["y"]): sq["die"]["colour"] for sq in default["woodland"] if sq["die"]}
    assert colours == {(0, 1): "C", (1, 1): "M", (0, 2): "C", (1, 2): "M"}
    chosen = replay_json(
        capsys,
        tmp_path,
        {
            **base,
            "moves": [
                {
                    "card": 2,
                    "rotation": 0,
                    "x": 0,
                    "y": 1,
                    "mouse": [{"x": 0, "y": 1, "colour": "M"}],
                }
            ],
        },
    )
    colours = {(sq["x"], sq["y"]): sq["die"]["colour"] for sq in chosen["woodland"] if sq["die"]}
    assert colours == {(0, 1): "M", (1, 1): "C", (0, 2): "C", (1, 2): "M"}
    # Four mice on split areas: -2 each and -1 each for the split area (R15).
    for result in (default, chosen):
        assert result["score"]["dice_total"] == -8
        assert result["score"]["mice"] == 4 and result["score"]["split_dice"] == 4
        assert result["score"]["base"] == -12
        assert result["supply"] == {"B": 5, "C": 3, "M": 3}


def test_replay_stuck_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # Card 2 (all leaves) lies exactly on card 1 (all bramble): five leaf mice, then no leaf
    # die is left, so Edwood stands in for the sixth (R8c). Every square now holds a mouse
    # or Edwood, and neither card in hand can cover any of them: the game is stuck (R13).
    record = STUCK
    result = replay_json(capsys, tmp_path, record)
    assert result["ok"] and result["stuck"] and result["finished"]
    assert result["hand"] == [3, 4] and result["draw_pile"] == 0
    assert result["won"] is False
    assert result["edwood_used"] is True
    assert result["score"] == {
        "dice_total": -10,
        "mice": 5,
        "split_dice": 0,
        "edwood": True,
        "base": -15,
        "bonus": 0,
        "final": -15,
    }
    edwood = [sq for sq in result["woodland"] if sq["edwood"]]
    assert [(sq["x"], sq["y"], sq["die"]) for sq in edwood] == [(1, 2, None)]
    assert result["supply"] == {"B": 5, "C": 0, "M": 5}
    # Moves has nothing to offer, and says so with exit 0.
    code, out, _ = run(capsys, "moves", write(tmp_path, record), "--json")
    assert code == 0 and json.loads(out) == {"moves": []}


def test_replay_summary_without_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    deal = Deal.from_seed(3, recipes=True)
    game = engine_game(deal)
    moves = play_first_legal(game)
    assert deal.recipes is not None
    path = write(
        tmp_path, {"deal": list(deal.cards), "recipes": list(deal.recipes), "moves": moves}
    )
    code, out, err = run(capsys, "replay", path)
    assert code == 0 and err == ""
    assert deal.code in out
    assert str(game.result().score.final) in out
    for number in deal.recipes:
        assert standard_deck()[number].recipe.name in out  # type: ignore[union-attr]


# -- illegal moves ------------------------------------------------------------------------------

BEFORE_ILLEGAL = {
    "deal": [1, 2, 3],
    "cards": custom(ALL_B, ALL_C, ALL_M),
    "moves": [{"card": 2, "rotation": 0, "x": 0, "y": 2}],
}


@pytest.mark.parametrize(
    ("moves", "index", "reason"),
    [
        # Card 1 started the woodland; card 3 is in hand but card 1 is not.
        ([{"card": 1, "rotation": 0, "x": 0, "y": 1}], 0, "not-in-hand"),
        ([{"card": 2, "rotation": 0, "x": 10, "y": 10}], 0, "no-overlap"),
        # A soil area on a leaf mouse (R8d): covers-mouse.
        ([*BEFORE_ILLEGAL["moves"], {"card": 3, "x": 0, "y": 2}], 1, "covers-mouse"),
        # A leaf area chosen to get a bramble mouse it does not have.
        (
            [
                {
                    "card": 2,
                    "rotation": 0,
                    "x": 0,
                    "y": 2,
                    "mouse": [{"x": 0, "y": 2, "colour": "B"}],
                }
            ],
            0,
            "bad-mouse-colour",
        ),
        # A colour chosen for a square that gets no mouse die.
        (
            [
                {
                    "card": 2,
                    "rotation": 0,
                    "x": 0,
                    "y": 2,
                    "mouse": [{"x": 0, "y": 4, "colour": "C"}],
                }
            ],
            0,
            "bad-mouse-colour",
        ),
    ],
)
def test_illegal_moves(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    moves: list[dict[str, Any]],
    index: int,
    reason: str,
) -> None:
    record = {**BEFORE_ILLEGAL, "moves": moves}
    path = write(tmp_path, record, "illegal.json")
    result = replay_json(capsys, tmp_path, record, code=1)
    assert result["ok"] is False
    assert result["error"]["move"] == index and result["error"]["reason"] == reason
    assert result["error"]["message"]
    # The rest of the object describes the game just before the illegal move.
    before = replay_json(capsys, tmp_path, {**record, "moves": moves[:index]})
    for key in RESULT_KEYS - {"ok", "error"}:
        assert result[key] == before[key], key
    # Without --json: one line on stderr naming the move and the reason, exit 1.
    code, _, err = run(capsys, "replay", path)
    assert code == 1
    assert len(err.strip().splitlines()) == 1
    assert path in err and f"moves[{index}]" in err and reason in err
    # moves on the same record: exit 1 as well.
    code, out, err = run(capsys, "moves", path, "--json")
    assert code == 1 and len(err.strip().splitlines()) == 1
    assert json.loads(out)["error"]["reason"] == reason


NO_MOUSE_DIE = {
    # Move 0: leaf card 2 on bramble rows 1-2: four leaf mice, one leaf die left.
    # Move 1: leaf card 3 turned 90 at (1, 2): its leaf area on (1, 3) takes the last leaf
    # die (R8a), the mouse at (1, 2) goes back to the supply and Edwood covers it (R8d).
    # Move 2: leaf card 4 turned 90 over the two bramble areas of row 0 needs two leaf
    # mice; only one is left and Edwood is used: no-mouse-die.
    "deal": [1, 2, 3, 4],
    "cards": custom(ALL_B, ALL_C, ALL_C, ALL_C),
    "moves": [
        {"card": 2, "rotation": 0, "x": 0, "y": 1},
        {"card": 3, "rotation": 90, "x": 1, "y": 2},
        {"card": 4, "rotation": 90, "x": 0, "y": -1},
    ],
}
STUCK = {
    "deal": [1, 2, 3, 4],
    "cards": custom(ALL_B, ALL_C, ALL_M, ALL_B),
    "moves": [{"card": 2, "rotation": 0, "x": 0, "y": 0}],
}


def test_illegal_no_mouse_die(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    result = replay_json(capsys, tmp_path, NO_MOUSE_DIE, code=1)
    assert result["error"]["move"] == 2 and result["error"]["reason"] == "no-mouse-die"
    assert result["supply"] == {"B": 5, "C": 1, "M": 5} and result["edwood_used"]
    assert result["hand"] == [4]
    edwood = [(sq["x"], sq["y"]) for sq in result["woodland"] if sq["edwood"]]
    assert edwood == [(1, 2)]


def test_illegal_edwood_reasons(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # Two leaf mice covered by one leaf card would need Edwood twice (R10, R11).
    twice = {
        **BEFORE_ILLEGAL,
        "cards": custom(ALL_B, ALL_C, ALL_C),
        "moves": [*BEFORE_ILLEGAL["moves"], {"card": 3, "rotation": 0, "x": 0, "y": 2}],
    }
    result = replay_json(capsys, tmp_path, twice, code=1)
    assert result["error"]["move"] == 1 and result["error"]["reason"] == "edwood-used"
    # Edwood's area can never be covered (R10).
    covers = {**NO_MOUSE_DIE, "moves": [*NO_MOUSE_DIE["moves"][:2], {"card": 4, "x": 1, "y": 2}]}
    result = replay_json(capsys, tmp_path, covers, code=1)
    assert result["error"]["move"] == 2 and result["error"]["reason"] == "covers-edwood"


def test_illegal_after_a_stuck_game_is_game_over(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Card 3 is in hand, but the game ended when it got stuck: game-over comes first (R11).
    record = {**STUCK, "moves": [*STUCK["moves"], {"card": 3, "x": 1, "y": 2}]}
    result = replay_json(capsys, tmp_path, record, code=1)
    assert result["error"]["move"] == 1 and result["error"]["reason"] == "game-over"
    assert result["stuck"] and result["finished"] and result["moves_applied"] == 1
    assert result["won"] is False


def test_game_over_after_a_finished_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    deal = Deal.from_seed(8)
    game = engine_game(deal)
    moves = play_first_legal(game)
    extra = {**moves[-1]}
    record = {"deal": list(deal.cards), "moves": [*moves, extra]}
    result = replay_json(capsys, tmp_path, record, code=1)
    assert result["error"]["move"] == 8 and result["error"]["reason"] == "game-over"
    assert result["finished"] and result["moves_applied"] == 8
    assert result["won"] == (result["score"]["base"] >= 35)


def test_first_illegal_move_stops_the_replay(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    deal = Deal.from_seed(10)
    game = engine_game(deal)
    moves = play_first_legal(game)
    broken = [*moves[:5], {**moves[5], "x": moves[5]["x"] + 50}, *moves[6:]]
    result = replay_json(capsys, tmp_path, {"deal": list(deal.cards), "moves": broken}, code=1)
    assert result["error"]["move"] == 5 and result["error"]["reason"] == "no-overlap"
    assert result["moves_applied"] == 5 and not result["finished"]


# -- forage moves -------------------------------------------------------------------------------


def check_moves(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    record: dict[str, Any],
    sample: int | None = None,
) -> None:
    """Every entry of ``moves --json`` applies via replay and gives the score it promised.

    With ``sample``, only that many entries, spread over the list, are replayed.
    """
    code, out, err = run(capsys, "moves", write(tmp_path, record, "before.json"), "--json")
    assert code == 0, err
    listing = json.loads(out)
    assert set(listing) == {"moves"}
    entries = listing["moves"]
    deck = _deck(record["cards"]) if "cards" in record else standard_deck()
    game = Game(
        Deal(cards=tuple(record["deal"]), recipes=None), deck, recipe_book=standard_deck().recipes()
    )
    moves = [Placement.model_validate(move) for move in record.get("moves", [])]
    assert game.replay(moves).refusal is None
    assert len(entries) == sum(1 for _ in game.outcomes())
    keys = {(e["card"], e["rotation"], e["x"], e["y"]) for e in entries}
    assert len(keys) == len(entries), "one entry per card, rotation and position"
    step = 1 if sample is None else max(1, len(entries) // sample)
    for entry in entries[::step]:
        assert {"card", "rotation", "x", "y", "score"} <= set(entry)
        assert all(is_int(entry[k]) for k in ("card", "rotation", "x", "y", "score"))
        assert entry["card"] in game.hand and entry["rotation"] in (0, 90, 180, 270)
        # Copied whole: a record ignores keys it does not know, such as "score".
        move = dict(entry)
        after = {**record, "moves": [*record.get("moves", []), move]}
        code, out, err = run(capsys, "replay", write(tmp_path, after, "after.json"), "--json")
        assert code == 0, (entry, err)
        assert json.loads(out)["score"]["base"] == entry["score"], entry


def test_moves_on_a_standard_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    deal = Deal.from_seed(14)
    game = engine_game(deal)
    moves = play_first_legal(game, turns=2)
    check_moves(capsys, tmp_path, {"deal": list(deal.cards), "moves": moves}, sample=40)


def test_moves_on_a_custom_deck(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = {
        "deal": [1, 2, 3],
        "cards": custom(ALL_B, ALL_CM, "B BC M CM C BM"),
        "moves": [{"card": 2, "x": 0, "y": 1}],
    }
    check_moves(capsys, tmp_path, record)


def test_moves_gives_mouse_where_a_colour_choice_is_needed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Card 1 (soil) starts. Move 0: card 2 (a BC split and five bramble areas) turned 180 at
    # (-1, -1) puts a bramble mouse on (0, 0) and then, on its split area at (0, 1), a leaf
    # mouse (5 leaf dice against 4 bramble left). Move 1: soil card 4 on column 1 places
    # three soil dice. Supply: B 4, C 4, M 2, Edwood free.
    # Card 3 (same as card 2) upright at (1, 0) then covers six soil squares: six mice. By
    # default its split area takes bramble (a tie, B first), and the bramble runs out: three
    # more bramble mice, Edwood for the fifth area, and nothing for the sixth (no-mouse-die).
    # Choosing leaf on the split area leaves five bramble areas for four bramble dice and
    # Edwood: legal, so moves lists it with that choice. Its score: mice on food areas
    # 4 x -2 and (0, 0) -2, two leaf mice on split areas 2 x -3, Edwood -5: -21.
    record = {
        "deal": [1, 2, 3, 4],
        "cards": custom(ALL_M, "BC B B B B B", "BC B B B B B", ALL_M),
        "moves": [
            {"card": 2, "rotation": 180, "x": -1, "y": -1},
            {"card": 4, "rotation": 0, "x": 1, "y": 0},
        ],
    }
    before = replay_json(capsys, tmp_path, record)
    assert before["supply"] == {"B": 4, "C": 4, "M": 2} and not before["edwood_used"]
    check_moves(capsys, tmp_path, record)
    code, out, _ = run(capsys, "moves", write(tmp_path, record), "--json")
    assert code == 0
    entries = json.loads(out)["moves"]
    chosen = [e for e in entries if (e["card"], e["rotation"], e["x"], e["y"]) == (3, 0, 1, 0)]
    assert chosen == [
        {
            "card": 3,
            "rotation": 0,
            "x": 1,
            "y": 0,
            "score": -21,
            "mouse": [{"x": 1, "y": 0, "colour": "C"}],
        }
    ]
    # Without the choice the same placement is refused.
    plain = {**record, "moves": [*record["moves"], {"card": 3, "rotation": 0, "x": 1, "y": 0}]}
    result = replay_json(capsys, tmp_path, plain, code=1)
    assert result["error"]["reason"] == "no-mouse-die"


def test_the_record_the_hint_and_the_listing_write_a_placement_alike() -> None:
    chosen = {
        "card": 3,
        "rotation": 90,
        "x": 1,
        "y": -2,
        "mouse": [{"x": 1, "y": 0, "colour": "C"}],
    }
    placement = Placement.model_validate(chosen)
    assert list(placement_json(placement).items()) == list(chosen.items())
    bare = placement.model_copy(update={"mouse": ()})
    assert placement_json(bare) == {"card": 3, "rotation": 90, "x": 1, "y": -2}
    hint = Hint(placement, score=-21, expected=-20.456, gain=-5).to_json()
    assert hint == {**chosen, "score": -21, "gain": -5, "expected": -20.46, "proven": False}
    record = GameRecord(moves=[MoveIn.model_validate(chosen), MoveIn.model_validate(chosen)])
    assert record.to_data()["moves"] == [chosen, chosen]
    assert GameRecord(moves=[MoveIn(card=3, rotation=90, x=1, y=-2)]).to_data()["moves"] == [
        placement_json(bare)
    ]


def test_moves_on_a_finished_game_is_empty(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    deal = Deal.from_seed(15)
    moves = play_first_legal(engine_game(deal))
    code, out, _ = run(
        capsys, "moves", write(tmp_path, {"deal": list(deal.cards), "moves": moves}), "--json"
    )
    assert code == 0 and json.loads(out) == {"moves": []}
    code, out, _ = run(capsys, "moves", write(tmp_path, {"deal": list(deal.cards), "moves": moves}))
    assert code == 0 and out.strip()


def test_moves_table_without_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    deal = Deal.from_seed(16)
    code, out, err = run(capsys, "moves", write(tmp_path, {"deal": list(deal.cards)}))
    assert code == 0 and err == "" and "legal placements" in out


# -- records written by the engine replay through the CLI ---------------------------------------

AREA_CODES = ("B", "C", "M", "BC", "BM", "CM")


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=10**6),
    custom_deck=st.booleans(),
    recipes=st.booleans(),
    picks=st.lists(st.integers(min_value=0, max_value=10**6), min_size=0, max_size=9),
    colour_picks=st.lists(st.sampled_from("BCM"), min_size=9, max_size=9),
    data=st.data(),
)
def test_engine_games_replay_through_the_cli(
    tmp_path_factory: pytest.TempPathFactory,
    seed: int,
    custom_deck: bool,
    recipes: bool,
    picks: list[int],
    colour_picks: list[str],
    data: st.DataObject,
) -> None:
    """Random legal games (random mouse colours too) written as records replay exactly."""
    if custom_deck:
        size = data.draw(st.integers(min_value=2, max_value=9), label="deck size")
        areas = data.draw(
            st.lists(
                st.lists(st.sampled_from(AREA_CODES), min_size=6, max_size=6),
                min_size=size,
                max_size=size,
            ),
            label="areas",
        )
        deck = Deck.of(Card(number=i + 1, areas=tuple(a)) for i, a in enumerate(areas))
        order = data.draw(st.permutations(list(range(1, size + 1))), label="deal")
        deal = Deal(cards=tuple(order), recipes=(4, 11) if recipes else None)
    else:
        deck = standard_deck()
        deal = Deal.from_seed(seed, recipes=recipes)
    game = Game(deal, deck, recipe_book=standard_deck().recipes())
    for turn, pick in enumerate(picks):
        outcomes = list(game.outcomes())
        if not outcomes:
            break
        outcome = outcomes[pick % len(outcomes)]
        placement = outcome.placement
        if outcome.mouse_choice_possible:
            where = outcome.mouse_choice_possible[0]
            choice = with_mouse(placement, {where: Colour(colour_picks[turn])})
            if game.outcome(choice).legal:
                placement = choice
        assert game.push(placement).legal
    record = record_from_game(game).to_json()
    folder = tmp_path_factory.getbasetemp()
    path = folder / "roundtrip.json"
    path.write_text(record, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["replay", str(path), "--json"])
    assert code == 0, err.getvalue()
    result = json.loads(out.getvalue())
    check_result_object(result)
    expected = game.result()
    assert result["moves_applied"] == len(game.moves)
    assert result["score"] == expected.score.model_dump()
    assert result["finished"] == expected.finished and result["stuck"] == expected.stuck
    assert result["won"] == expected.won and result["target"] == expected.target
    assert result["hand"] == list(game.hand) and result["draw_pile"] == game.draw_pile
    assert result["deal"] == deal.code
    squares = {(sq["x"], sq["y"]) for sq in result["woodland"]}
    assert squares == set(game.woodland.squares)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["moves", str(path), "--json"]) == 0
    assert len(json.loads(out.getvalue())["moves"]) == sum(1 for _ in game.outcomes())


def test_par_output_is_read_as_the_record_it_holds(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # forage par --json prints {"score", "proven", "seconds", "record"}: the tools read the
    # record inside, so `forage review` of par's output shows par's line.
    game = engine_game(Deal.from_seed(11))
    moves = play_first_legal(game)
    record = {"format": "forage/1", "deal": list(game.deal.cards), "moves": moves}
    wrapped = {"score": game.score().final, "proven": False, "seconds": 1.0, "record": record}
    result = replay_json(capsys, tmp_path, wrapped)
    assert result["score"]["final"] == game.score().final and result["finished"]
    assert result == replay_json(capsys, tmp_path, record)
    broken = {"score": 1, "record": {"deal": list(game.deal.cards), "moves": "all"}}
    code, _, err = run(capsys, "replay", write(tmp_path, broken))
    assert code == 2 and "record.moves" in err and err.count("\n") == 1
    # an object that is a record itself (it has a deal) is never unwrapped
    both = {**record, "record": {"deal": [1, 2, 3], "moves": []}}
    assert replay_json(capsys, tmp_path, both)["moves_applied"] == len(moves)
