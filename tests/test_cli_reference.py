"""The CLI against a small, separate model of the rulings, on random custom decks.

The model below is written from RULINGS.md alone (R3-R13, R15) and shares no code with the
engine. Random records (mostly legal moves, some illegal ones, random mouse colour choices)
are replayed by ``forage replay --json`` and listed by ``forage moves --json``; the CLI's
answer must match the model's: the first illegal move and its reason, the woodland, the
supply, the score, the hand, finished and stuck, and the set of legal placements.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forage.cli import main

COLOURS = "BCM"
AREAS = ("B", "C", "M", "BC", "BM", "CM")
UPRIGHT = ((0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2))
MOUSE = -2
STEP = {1: 3, 3: 6, 6: 10, 10: 15, 15: 15}


def turn(column: int, row: int, rotation: int) -> tuple[int, int]:
    """R3: where the upright area at (column, row) lands."""
    return {
        0: (column, row),
        90: (2 - row, column),
        180: (1 - column, 2 - row),
        270: (row, 1 - column),
    }[rotation]


def footprint(areas: list[str], rotation: int) -> list[tuple[int, int, str]]:
    """The rotated card's areas as (dx, dy, area), top row first, left to right (R9)."""
    cells = [(*turn(c, r, rotation), area) for (c, r), area in zip(UPRIGHT, areas, strict=True)]
    return sorted(cells, key=lambda cell: (cell[1], cell[0]))


@dataclass
class Square:
    area: str
    die: tuple[str, int] | None = None
    edwood: bool = False


class Refused(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class Model:
    """A game of Forage as RULINGS.md describes it."""

    cards: dict[int, list[str]]
    deal: list[int]
    squares: dict[tuple[int, int], Square] = field(default_factory=dict)
    supply: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COLOURS, 5))
    edwood_free: bool = True
    hand: list[int] = field(default_factory=list)
    next_draw: int = 0
    first_gathered: set[str] | None = None
    """Colours the first card played gathered under R8a (R18), once it is played."""

    def __post_init__(self) -> None:
        for dx, dy, area in footprint(self.cards[self.deal[0]], 0):
            self.squares[(dx, dy)] = Square(area)
        self.hand = self.deal[1:3]
        self.next_draw = min(3, len(self.deal))

    def resolve(
        self, card: int, rotation: int, x: int, y: int, mouse: dict[tuple[int, int], str]
    ) -> tuple[dict[tuple[int, int], Square], dict[str, int], bool, set[str]]:
        """The new squares, supply, Edwood and colours gathered (R8a), or Refused (R5-R11)."""
        if not self.hand:
            raise Refused("game-over")
        if card not in self.hand:
            raise Refused("not-in-hand")
        cells = [(x + dx, y + dy, area) for dx, dy, area in footprint(self.cards[card], rotation)]
        below = [self.squares.get((cx, cy)) for cx, cy, _ in cells]
        if all(sq is None for sq in below):
            raise Refused("no-overlap")
        for (_, _, area), sq in zip(cells, below, strict=True):
            if sq is None:
                continue
            if sq.edwood:
                raise Refused("covers-edwood")
            if sq.die is not None and sq.die[1] == MOUSE and sq.die[0] not in area:
                raise Refused("covers-mouse")
        supply = dict(self.supply)
        edwood_free = self.edwood_free
        # R9 step 1: matches.
        plan: list[list[Any]] = []  # [kind, die after, returned die]
        for (_, _, area), sq in zip(cells, below, strict=True):
            if sq is None:
                plan.append(["new", None, None])
            elif sq.die is not None and sq.die[1] == MOUSE:
                plan.append(["edwood-cover", None, sq.die])  # R8d
            else:
                under = {sq.die[0]} if sq.die is not None else set(sq.area)  # R7
                if not under & set(area):
                    plan.append(["mouse", None, sq.die])  # R8c
                elif len(area) == 1:  # R8a
                    if sq.die is not None:
                        plan.append(["food", (sq.die[0], STEP[sq.die[1]]), None])
                    elif supply[area] > 0:
                        supply[area] -= 1
                        plan.append(["food", (area, 1), None])
                    else:
                        plan.append(["food", None, None])
                else:  # R8b
                    plan.append(["split", sq.die, None])
        # R9 step 2: returns.
        for step in plan:
            if step[2] is not None:
                supply[step[2][0]] += 1
        # R9 step 3: mice and Edwood.
        choices = dict(mouse)
        edwood_at: tuple[int, int] | None = None
        for (cx, cy, area), step in zip(cells, plan, strict=True):
            if step[0] == "edwood-cover":
                if not edwood_free:
                    raise Refused("edwood-used")
                edwood_free = False
                edwood_at = (cx, cy)
            elif step[0] == "mouse":
                available = [c for c in area if supply[c] > 0]
                chosen = choices.pop((cx, cy), None)
                colour: str | None
                if chosen is not None:
                    if chosen not in available:
                        raise Refused("bad-mouse-colour")
                    colour = chosen
                elif available:
                    colour = max(available, key=lambda c: (supply[c], -COLOURS.index(c)))
                else:
                    colour = None
                if colour is not None:
                    supply[colour] -= 1
                    step[1] = (colour, MOUSE)
                elif edwood_free:
                    edwood_free = False
                    step[0] = "edwood-cover"
                else:
                    raise Refused("no-mouse-die")
        if choices:
            raise Refused("bad-mouse-colour")
        new = {}
        for (cx, cy, area), step in zip(cells, plan, strict=True):
            new[(cx, cy)] = Square(area, step[1], step[0] == "edwood-cover")
        assert edwood_at is None or new[edwood_at].edwood
        gathered = {step[1][0] for step in plan if step[0] == "food" and step[1] is not None}
        return new, supply, edwood_free, gathered

    def push(
        self, card: int, rotation: int, x: int, y: int, mouse: dict[tuple[int, int], str]
    ) -> None:
        if self.stuck():
            raise Refused("game-over")
        new, supply, edwood_free, gathered = self.resolve(card, rotation, x, y, mouse)
        if self.first_gathered is None:
            self.first_gathered = gathered
        self.squares.update(new)
        self.supply, self.edwood_free = supply, edwood_free
        self.hand = [n for n in self.hand if n != card]
        if self.next_draw < len(self.deal):
            self.hand.append(self.deal[self.next_draw])
            self.next_draw += 1

    def candidates(self) -> list[tuple[int, int, int, int]]:
        spots = set()
        for card in self.hand:
            for rotation in (0, 90, 180, 270):
                for sx, sy in self.squares:
                    for dx, dy, _ in footprint(self.cards[card], rotation):
                        spots.add((card, rotation, sx - dx, sy - dy))
        return sorted(spots)

    def legal(self, card: int, rotation: int, x: int, y: int) -> dict[tuple[int, int], str] | None:
        """The mouse choices making a placement legal ({} for the defaults), or None."""
        try:
            self.resolve(card, rotation, x, y, {})
            return {}
        except Refused as refused:
            if refused.reason not in ("edwood-used", "no-mouse-die"):
                return None
        splits = [
            ((x + dx, y + dy), area)
            for dx, dy, area in footprint(self.cards[card], rotation)
            if len(area) == 2 and (x + dx, y + dy) in self.squares
        ]
        options = [[None, *area] for _, area in splits]
        for combo in itertools.product(*options):
            chosen = {pos: c for (pos, _), c in zip(splits, combo, strict=True) if c}
            if not chosen:
                continue
            try:
                self.resolve(card, rotation, x, y, chosen)
                return chosen
            except Refused:
                continue
        return None

    def legal_moves(self) -> dict[tuple[int, int, int, int], dict[tuple[int, int], str]]:
        if not self.hand:
            return {}
        found = {}
        for key in self.candidates():
            chosen = self.legal(*key)
            if chosen is not None:
                found[key] = chosen
        return found

    def stuck(self) -> bool:
        return bool(self.hand) and not any(
            self.legal(*key) is not None for key in self.candidates()
        )

    def base(self, squares: dict[tuple[int, int], Square] | None = None) -> int:
        """The base score (R15) of the woodland, or of other squares."""
        total = 0
        for sq in (self.squares if squares is None else squares).values():
            if sq.die is not None:
                total += sq.die[1] - (len(sq.area) == 2)
            if sq.edwood:
                total -= 5
        return total


RECIPES = {
    card["number"]: card["recipe"]
    for card in json.loads(
        (Path(__file__).resolve().parents[1] / "data" / "cards.json").read_text("utf-8")
    )["cards"]
}


def colour_totals(model: Model) -> dict[str, int]:
    totals = dict.fromkeys(COLOURS, 0)
    for sq in model.squares.values():
        if sq.die is not None:
            totals[sq.die[0]] += sq.die[1]
    return totals


def food_dice(model: Model) -> list[tuple[tuple[int, int], str, int]]:
    return [
        (pos, sq.die[0], sq.die[1])
        for pos, sq in model.squares.items()
        if sq.die is not None and sq.die[1] != MOUSE
    ]


def three_connected(model: Model) -> bool:
    """Three or more food dice of one colour on orthogonally connected areas (R18)."""

    # Three squares are connected when some order of them is a path: a next to b, b next to c.
    def touching(a: tuple[int, int], b: tuple[int, int]) -> bool:
        return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1

    for colour in COLOURS:
        squares = [pos for pos, c, _ in food_dice(model) if c == colour]
        for a, b, c in itertools.permutations(squares, 3):
            if touching(a, b) and touching(b, c):
                return True
    return False


def condition(model: Model, recipe: dict[str, Any]) -> bool:
    """R18, read from the rulings."""
    kind, colour = recipe["kind"], recipe.get("colour")
    dice = [sq.die for sq in model.squares.values() if sq.die is not None]
    food = food_dice(model)
    if kind == "exact-ten":
        return any(c == colour and v == 10 for _, c, v in food)
    if kind in ("double", "homemade"):
        return True
    if kind == "all-five":
        mine = [d for d in dice if d[0] == colour]
        return len(mine) == 5 and all(v != MOUSE for _, v in mine)
    if kind == "all-dice":
        return len(dice) == 15
    if kind == "basket":
        return any(v == 15 for _, v in dice)
    if kind == "first-turn":
        return colour in (model.first_gathered or set())
    if kind == "extra-special":
        return three_connected(model)
    if kind == "award-winning":
        return all(sum(c == k for _, c, _ in food) >= 4 for k in COLOURS)
    if kind == "mouse-free":
        return all(v != MOUSE for _, v in dice) and not any(
            sq.edwood for sq in model.squares.values()
        )
    raise AssertionError(kind)


def recipe_bonus(
    model: Model, numbers: list[int]
) -> tuple[list[bool], list[int | None], int | None]:
    """Each recipe's met and point bonus (None for a doubling), and the total bonus (R17-R19).

    The total is None when Homemade's lowest colour is a tie that another doubling recipe
    makes matter (which tied colour counts twice changes the score).
    """
    totals = colour_totals(model)
    lowest = [c for c in COLOURS if totals[c] == min(totals.values())]
    doubled = [RECIPES[n]["colour"] for n in numbers if RECIPES[n]["kind"] == "double"]
    mets, points = [], []
    times = dict.fromkeys(COLOURS, 1)
    ambiguous = False
    total = 0
    for number in numbers:
        recipe = RECIPES[number]
        met = condition(model, recipe)
        mets.append(met)
        if recipe["bonus"] == "x2":
            points.append(None)
            target = recipe["colour"] if recipe["kind"] == "double" else lowest[0]
            if recipe["kind"] == "homemade" and len(lowest) > 1:
                ambiguous = any(c in doubled for c in lowest)
            times[target] *= 2
        else:
            points.append(recipe["bonus"] if met else 0)
            total += recipe["bonus"] if met else 0
    total += sum(totals[c] * (times[c] - 1) for c in COLOURS)
    return mets, points, None if ambiguous else total


def run(*args: str) -> tuple[int, Any]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(list(args))
    return code, json.loads(out.getvalue())


def play_random(
    model: Model, rng: random.Random, turns: int, policy: str = "random"
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
                scores = {}
                for key, chosen in legal.items():
                    new, _, _, _ = model.resolve(*key, chosen)
                    scores[key] = model.base({**model.squares, **new})
                pick = min if policy == "spoil" else max
                card, rotation, x, y = pick(sorted(legal), key=scores.__getitem__)
            else:
                card, rotation, x, y = rng.choice(sorted(legal))
            mouse = dict(legal[(card, rotation, x, y)])
            if not mouse and rng.random() < 0.08:
                # A random colour choice on a split square of the card: maybe legal.
                splits = [
                    (x + dx, y + dy, area)
                    for dx, dy, area in footprint(model.cards[card], rotation)
                    if len(area) == 2
                ]
                if splits:
                    sx, sy, area = rng.choice(splits)
                    mouse = {(sx, sy): rng.choice(area)}
        else:
            card = rng.choice(sorted(model.cards))
            rotation = rng.choice((0, 90, 180, 270))
            xs = [p[0] for p in model.squares]
            ys = [p[1] for p in model.squares]
            x = rng.randint(min(xs) - 3, max(xs) + 1)
            y = rng.randint(min(ys) - 3, max(ys) + 1)
            mouse = {}
            if rng.random() < 0.3:
                mouse = {(rng.randint(x, x + 2), rng.randint(y, y + 2)): rng.choice(COLOURS)}
        move: dict[str, Any] = {"card": card, "rotation": rotation, "x": x, "y": y}
        if mouse:
            move["mouse"] = [{"x": mx, "y": my, "colour": c} for (mx, my), c in mouse.items()]
        moves.append(move)
        try:
            model.push(card, rotation, x, y, mouse)
        except Refused as refused:
            return moves, (len(moves) - 1, refused.reason)
    return moves, None


PALETTES = (AREAS, AREAS[:3], ("B", "C"), ("B", "C", "BC"), ("B", "CM"), ("BC", "BM", "CM"))


def random_game(seed: int, size: int, palette: tuple[str, ...]) -> tuple[Model, Any, Any]:
    """A random custom deck of ``size`` cards, its deal, and random moves on it."""
    rng = random.Random(seed)
    cards = {n: [rng.choice(palette) for _ in range(6)] for n in range(1, size + 1)}
    deal = list(cards)
    rng.shuffle(deal)
    model = Model(cards, deal)
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
        "cards": [{"number": n, "areas": a} for n, a in cards.items()],
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
            sq["area"],
            None if sq["die"] is None else (sq["die"]["colour"], sq["die"]["value"]),
            sq["edwood"],
        )
        for sq in result["woodland"]
    }
    assert woodland == {pos: (sq.area, sq.die, sq.edwood) for pos, sq in model.squares.items()}
    assert result["supply"] == model.supply
    assert result["edwood_used"] == (not model.edwood_free)
    assert result["score"]["base"] == model.base()
    assert result["hand"] == model.hand
    assert result["draw_pile"] == len(deal) - model.next_draw
    stuck = model.stuck()
    assert result["stuck"] == stuck
    finished = stuck or not model.hand
    assert result["finished"] == finished

    # Recipes (R17-R19).
    mets, points, bonus = recipe_bonus(model, recipes)
    assert [r["number"] for r in result["recipes"]] == recipes
    assert [r["met"] for r in result["recipes"]] == mets
    for shown, point in zip(result["recipes"], points, strict=True):
        if point is not None:
            assert shown["bonus"] == point
    if recipes:
        assert result["target"] == sum(RECIPES[n]["target"] for n in recipes)
    else:
        assert result["target"] is None
    if bonus is not None:
        assert result["score"]["bonus"] == bonus
        final = model.base() + bonus
        assert result["score"]["final"] == final
        if finished:
            won = final >= result["target"] if recipes else model.base() >= 35
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
        new, _, _, _ = model.resolve(*key, chosen)
        assert entry["score"] == model.base({**model.squares, **new}), key
