"""The CLI against the tests' model of the rulings, on random custom decks.

The model (``tests/reference.py``, :class:`reference.ReferenceGame`) is written from
RULINGS.md alone and shares no code with the engine but its model types. Random records
(mostly legal moves, some illegal ones, random mouse colour choices) are replayed by
``forage replay --json`` and listed by ``forage moves --json``; the CLI's answer must match
the model's: the first illegal move and its reason, the woodland, the supply, the score,
the hand, finished and stuck, and the set of legal placements.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
import reference
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import ReferenceGame

from forage.cli import main
from forage.engine import Area

COLOURS = "BCM"
AREAS = ("B", "C", "M", "BC", "BM", "CM")
TARGETS = {
    card["number"]: card["recipe"]["target"]
    for card in json.loads(
        (Path(__file__).resolve().parents[1] / "data" / "cards.json").read_text("utf-8")
    )["cards"]
}


def run(*args: str) -> tuple[int, Any]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(list(args))
    return code, json.loads(out.getvalue())


def play_random(
    model: ReferenceGame, rng: random.Random, turns: int, policy: str = "random"
) -> tuple[list[Any], Any]:
    """Random moves, mostly legal; returns the moves and (index, reason) of the first refusal.

    With policy ``spoil``, the legal move scoring least is played: mice everywhere, the
    supply runs dry and Edwood comes early; with ``greedy``, the one scoring most: dice
    climb to 10 and 15.
    """
    moves: list[Any] = []
    for _ in range(turns):
        legal = model.legal_moves()
        if legal and rng.random() < 0.93:
            if policy != "random":
                scores = {
                    key: reference.base_score(model.resolve(*key, chosen).tops)
                    for key, chosen in legal.items()
                }
                pick = min if policy == "spoil" else max
                card, rotation, x, y = pick(sorted(legal), key=scores.__getitem__)
            else:
                card, rotation, x, y = rng.choice(sorted(legal))
            mouse = dict(legal[(card, rotation, x, y)])
            if not mouse and rng.random() < 0.08:
                # A random colour choice on a split square of the card: maybe legal.
                splits = [
                    (sx, sy, area)
                    for sx, sy, area in reference.footprint(model.cards[card], rotation, x, y)
                    if not area.is_food
                ]
                if splits:
                    sx, sy, area = rng.choice(splits)
                    mouse = {(sx, sy): rng.choice(area.value)}
        else:
            card = rng.choice(sorted(model.cards))
            rotation = rng.choice((0, 90, 180, 270))
            xs = [p[0] for p in model.tops]
            ys = [p[1] for p in model.tops]
            x = rng.randint(min(xs) - 3, max(xs) + 1)
            y = rng.randint(min(ys) - 3, max(ys) + 1)
            mouse = {}
            if rng.random() < 0.3:
                mouse = {(rng.randint(x, x + 2), rng.randint(y, y + 2)): rng.choice(COLOURS)}
        move: dict[str, Any] = {"card": card, "rotation": rotation, "x": x, "y": y}
        if mouse:
            move["mouse"] = [{"x": mx, "y": my, "colour": c} for (mx, my), c in mouse.items()]
        moves.append(move)
        reason = model.push(card, rotation, x, y, mouse).reason
        if reason is not None:
            return moves, (len(moves) - 1, reason)
    return moves, None


PALETTES = (AREAS, AREAS[:3], ("B", "C"), ("B", "C", "BC"), ("B", "CM"), ("BC", "BM", "CM"))


def random_game(seed: int, size: int, palette: tuple[str, ...]) -> tuple[ReferenceGame, Any, Any]:
    """A random custom deck of ``size`` cards, its deal, and random moves on it."""
    rng = random.Random(seed)
    cards = {n: tuple(Area(rng.choice(palette)) for _ in range(6)) for n in range(1, size + 1)}
    deal = list(cards)
    rng.shuffle(deal)
    model = ReferenceGame(cards, deal)
    # Usually every turn; now and then one move too many (game-over).
    turns = size - 1 + (rng.random() < 0.1)
    moves, refusal = play_random(model, rng, turns, rng.choice(("random", "spoil", "greedy")))
    return model, moves, refusal


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    size=st.integers(min_value=2, max_value=9),
    palette=st.sampled_from(PALETTES),
)
def test_cli_agrees_with_the_model(
    tmp_path_factory: pytest.TempPathFactory, seed: int, size: int, palette: tuple[str, ...]
) -> None:
    model, moves, refusal = random_game(seed, size, palette)
    cards, deal = model.cards, model.deal
    recipes = random.Random(seed).sample(range(1, 19), 2) if seed % 2 else []
    record = {
        "format": "forage/1",
        "deal": deal,
        "cards": [{"number": n, "areas": [a.value for a in areas]} for n, areas in cards.items()],
        "recipes": recipes,
        "moves": moves,
    }
    path = Path(tmp_path_factory.getbasetemp()) / "model.json"
    path.write_text(json.dumps(record), encoding="utf-8")

    code, result = run("replay", str(path), "--json")
    if refusal is None:
        assert code == 0 and result["error"] is None, result["error"]
    else:
        assert code == 1
        assert (result["error"]["move"], result["error"]["reason"]) == refusal
    woodland = {
        (sq["x"], sq["y"]): (
            Area(sq["area"]),
            None
            if sq["die"] is None
            else reference.die_text(sq["die"]["colour"], sq["die"]["value"]),
            sq["edwood"],
        )
        for sq in result["woodland"]
    }
    assert woodland == model.tops
    assert result["supply"] == model.supply
    assert result["edwood_used"] == (not model.edwood_free)
    base = reference.base_score(model.tops)
    assert result["score"]["base"] == base
    assert result["hand"] == model.hand
    assert result["draw_pile"] == len(deal) - model.next_draw
    stuck = model.stuck()
    assert result["stuck"] == stuck
    finished = stuck or not model.hand
    assert result["finished"] == finished

    # Recipes (R17-R19).
    mets, bonus = reference.recipe_bonus(recipes, model.tops, model.first_gathered or set())
    assert [r["number"] for r in result["recipes"]] == recipes
    assert [r["met"] for r in result["recipes"]] == mets
    for shown, met in zip(result["recipes"], mets, strict=True):
        points = reference.RECIPES[shown["number"]][2]
        if points != "x2":
            assert shown["bonus"] == (points if met else 0)
    if recipes:
        assert result["target"] == sum(TARGETS[n] for n in recipes)
    else:
        assert result["target"] is None
    assert result["score"]["bonus"] == bonus
    final = base + bonus
    assert result["score"]["final"] == final
    if finished:
        won = final >= result["target"] if recipes else base >= 35
        assert result["won"] == won

    if refusal is not None:
        return
    code, listing = run("moves", str(path), "--json")
    assert code == 0
    legal = model.legal_moves()
    listed = {(e["card"], e["rotation"], e["x"], e["y"]): e for e in listing["moves"]}
    assert set(listed) == set(legal)
    for key, entry in listed.items():
        chosen = {(m["x"], m["y"]): m["colour"] for m in entry.get("mouse", [])}
        assert bool(chosen) == bool(legal[key]), key
        assert entry["score"] == reference.base_score(model.resolve(*key, chosen).tops), key
