"""Small builders for exact game situations: custom decks, placements and woodlands."""

from __future__ import annotations

import importlib.util
import itertools
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import ModuleType

from hypothesis import strategies as st

from forage.carddata import standard_deck
from forage.engine import (
    COLOURS,
    Area,
    Card,
    Colour,
    Deal,
    Deck,
    Die,
    Game,
    MouseChoice,
    Placement,
    Position,
    Recipe,
    RecipeResult,
    Rotation,
    Score,
    Square,
    Woodland,
)
from forage.engine.board import COLOUR_INDEX, PackedWoodland, encode, pack
from forage.engine.scoring import check_recipes, score

MOUSE = -2

EXPERT_GOLDEN = {2: 48, 3: 77}
"""The expert bot's final scores on the standard deals of seeds 2 and 3, worked out once (an
expert game takes seconds)."""


def board_of(squares: Mapping[tuple[int, int], Square]) -> PackedWoodland:
    """The engine's board of a woodland given as models."""
    return {pack(x, y): encode(sq.area, sq.die, sq.edwood) for (x, y), sq in squares.items()}


def first_gathered(position: Position) -> tuple[Colour, ...]:
    """The colours the first card played gathered under R8a (R18), read from the position."""
    if position.first <= 0:
        return ()
    return tuple(c for c in Colour if position.first & (1 << COLOUR_INDEX[c]))


def card(number: int, areas: str) -> Card:
    """A custom card from six space-separated area codes, upright, row by row (R1)."""
    codes = areas.split()
    assert len(codes) == 6, areas
    return Card(number=number, areas=tuple(Area(code) for code in codes))  # type: ignore[arg-type]


def game_of(*areas: str, recipes: tuple[int, int] | None = None) -> Game:
    """A game whose deal is these custom cards in order, numbered 1, 2, 3, ...

    The first card starts the woodland upright at (0, 0); cards 2 and 3 form the hand.
    With ``recipes``, the built-in recipes of those numbers are the challenge.
    """
    cards = [card(index + 1, text) for index, text in enumerate(areas)]
    deal = Deal(cards=tuple(c.number for c in cards), recipes=recipes)
    return Game(deal, Deck.of(cards), recipe_book=standard_deck().recipes())


def place(
    number: int,
    x: int,
    y: int,
    rotation: int = 0,
    mouse: Mapping[tuple[int, int], str] | None = None,
) -> Placement:
    """The placement of card ``number`` with its rotated top-left at (x, y)."""
    choices = tuple(
        MouseChoice(x=mx, y=my, colour=Colour(colour)) for (mx, my), colour in (mouse or {}).items()
    )
    return Placement(card=number, rotation=Rotation(rotation), x=x, y=y, mouse=choices)


def play(game: Game, *placements: Placement) -> Game:
    """Push placements that must all be legal; returns the game."""
    refusal = game.replay(placements).refusal
    assert refusal is None, (refusal.placement, refusal.reason)
    return game


def die_at(game: Game, x: int, y: int) -> str | None:
    """The die on the top area at (x, y) as ``B3`` or ``Bmouse``, ``E`` for Edwood, or None."""
    sq = game.woodland.get((x, y))
    assert sq is not None, f"no area at {(x, y)}"
    if sq.edwood:
        return "E"
    return None if sq.die is None else str(sq.die)


def supply_of(game: Game) -> tuple[int, int, int, bool]:
    """The supply as (B, C, M, Edwood still to hand)."""
    s = game.supply
    return s.B, s.C, s.M, s.edwood


def woodland(cells: Iterable[tuple[int, int, str, str | None]]) -> Woodland:
    """A woodland from (x, y, area, die) where die is like ``B10``, ``Mm`` (mouse) or ``E``."""
    squares: dict[tuple[int, int], Square] = {}
    for x, y, area, what in cells:
        if what is None:
            squares[(x, y)] = Square(area=Area(area))
        elif what == "E":
            squares[(x, y)] = Square(area=Area(area), edwood=True)
        else:
            colour = Colour(what[0])
            value = MOUSE if what[1:] == "m" else int(what[1:])
            squares[(x, y)] = Square(area=Area(area), die=Die(colour=colour, value=value))
    return Woodland(squares=squares)


def dice_row(*dice: str, area: str | None = None, y: int = 0) -> list[tuple[int, int, str, str]]:
    """Dice laid left to right on row ``y``, each on a food area of its colour (or ``area``)."""
    return [(x, y, area or d[0], d) for x, d in enumerate(dice)]


def score_of(
    wood: Woodland, recipes: Iterable[Recipe] = (), first: Iterable[Colour] = ()
) -> tuple[Score, list[RecipeResult]]:
    """The engine's score of a woodland and its recipes' results, ``first`` the colours
    gathered by the first card played."""
    board = board_of(wood.squares)
    chosen = list(recipes)
    mask = sum(1 << COLOUR_INDEX[c] for c in set(first))
    checks = check_recipes(board, chosen, mask)
    results = [
        RecipeResult(number=r.number, name=r.name, met=c.met, bonus=c.bonus)
        for r, c in zip(chosen, checks, strict=True)
    ]
    return score(board, checks), results


def base_of(wood: Woodland) -> int:
    """The base score of a woodland counted from R15's words, not from the engine's points:
    every die's face (a mouse -2), less 1 per die on a split area, less 5 for Edwood."""
    total = 0
    for sq in wood.squares.values():
        if sq.die is not None:
            total += sq.die.value - (1 if len(sq.area.value) == 2 else 0)
        if sq.edwood:
            total -= 5
    return total


def dice_of(wood: Woodland) -> list[tuple[tuple[int, int], Die]]:
    """Every die in a woodland with its square."""
    return [(pos, sq.die) for pos, sq in wood.squares.items() if sq.die is not None]


def edwood_of(wood: Woodland) -> tuple[int, int] | None:
    """Where Edwood stands, if he is in the woodland."""
    return next((pos for pos, sq in wood.squares.items() if sq.edwood), None)


def legal(game: Game) -> list[Placement]:
    """Every legal placement the engine lists now."""
    return [o.placement for o in game.outcomes()]


def with_mouse(placement: Placement, choices: Mapping[tuple[int, int], Colour]) -> Placement:
    """The same placement with these mouse colour choices."""
    mouse = tuple(MouseChoice(x=x, y=y, colour=c) for (x, y), c in sorted(choices.items()))
    return placement.model_copy(update={"mouse": mouse})


def game_at(
    cells: Iterable[tuple[int, int, str, str | None]],
    hand: Iterable[str],
    supply: tuple[int, int, int] | None = None,
    edwood: bool = True,
) -> Game:
    """A game set up at a position: these top areas (as :func:`woodland` takes them), the
    dice left in the supply (B, C, M; by default all those not in the woodland), Edwood to
    hand or not, and custom hand cards numbered 2, 3, ... with nothing left to draw."""
    wood = woodland(cells)
    if supply is None:
        left = [5 - sum(1 for _, d in dice_of(wood) if d.colour == c) for c in Colour]
        supply = (left[0], left[1], left[2])
    cards = [card(1, "B B B B B B")]
    cards += [card(index + 2, areas) for index, areas in enumerate(hand)]
    deal = Deal(cards=tuple(c.number for c in cards))
    position = Position(
        board=board_of(wood.squares),
        counts=supply,
        edwood=edwood,
        hand=deal.cards[1:],
        next_draw=len(deal.cards),
        base=base_of(wood),
        first=0,
    )
    return Game.at(deal, Deck.of(cards), position)


BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def load_benchmark(name: str) -> ModuleType:
    """A file of benchmarks/ (``screen.py``, ``worth_fit.py``...) loaded as a module."""
    spec = importlib.util.spec_from_file_location(name.removesuffix(".py"), BENCHMARKS / name)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # as an import would: dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def run_forage(
    *args: str, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m forage ARGS`` in a fresh process, its output captured as text."""
    return subprocess.run(
        [sys.executable, "-m", "forage", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=env,
    )


def play_hints(game: Game, poor: int | None = None) -> Game:
    """Play a game out by hints, except move ``poor`` (0-based): the placement scoring least."""
    from forage.ai.hint import hint

    while not game.is_over():
        if len(game.moves) == poor:
            game.push(min(game.outcomes(), key=lambda o: o.score_change))
            continue
        found = hint(game)
        assert found is not None
        game.push(found.placement)
    return game


@st.composite
def custom_games(draw: st.DrawFn, recipes: bool = False) -> tuple[Game, int]:
    """A hypothesis strategy: a custom deck of 3 to 7 cards (any areas, often several split
    ones) dealt in a random order, with a recipe challenge of the built-in recipes when
    ``recipes`` (sometimes), and a seed for the random choices a test makes."""
    size = draw(st.integers(3, 7))
    numbers = draw(st.lists(st.integers(1, 40), min_size=size, max_size=size, unique=True))
    palette = tuple(draw(st.lists(st.sampled_from(tuple(Area)), min_size=1, max_size=4)))
    cards = [
        Card(number=n, areas=tuple(draw(st.sampled_from(palette)) for _ in range(6)))  # type: ignore[arg-type]
        for n in numbers
    ]
    pair: tuple[int, int] | None = None
    if recipes and draw(st.booleans()):
        chosen = draw(st.lists(st.integers(1, 18), min_size=2, max_size=2, unique=True))
        pair = (chosen[0], chosen[1])
    deal = Deal(cards=tuple(draw(st.permutations(numbers))), recipes=pair)
    game = Game(deal, Deck.of(cards), recipe_book=standard_deck().recipes())
    return game, draw(st.integers(0, 2**16))


def choices(game: Game) -> list[Placement]:
    """Every legal placement, with every legal choice of split-area mouse colours."""
    found: list[Placement] = []
    for outcome in game.outcomes():
        found.append(outcome.placement)
        where = outcome.mouse_choice_possible
        for combo in itertools.product(COLOURS, repeat=len(where)):
            other = with_mouse(outcome.placement, dict(zip(where, combo, strict=True)))
            if other not in found and game.outcome(other).legal:
                found.append(other)
    return found


def brute_force(game: Game) -> int:
    """The best final score over every line of play, through the engine alone."""
    if game.is_over():
        return game.result().score.final
    if len(game.hand) == 1 and game.draw_pile == 0 and not game.recipes:
        # The last placement of a standard game: the best immediate gain decides.
        return game.position.base + max(o.score_change for o in game.outcomes())
    best = None
    for placement in choices(game):
        game.push(placement)
        value = brute_force(game)
        game.pop()
        best = value if best is None else max(best, value)
    assert best is not None
    return best
