"""Every label drawn on the woodland, over whole games, is whole or left out: never a word or
a number cut short (``on C1`` for a die showing 10, ``baske`` under a basket)."""

from __future__ import annotations

import random
import re

import pytest
from app_helpers import game_screen, greedy, place_by_action, session_of, sync

from forage.app.app import ForageApp
from forage.app.describe import BASKET, TERRAIN, CellPreview, cell_previews
from forage.app.view import CardCells, card_cells
from forage.app.widgets import WoodlandView
from forage.engine import Area, Die, Outcome, Placement, Rotation, Square
from forage.engine.areas import BASKET_FACE, EDWOOD_POINTS
from forage.engine.woodland import Pos

SIZES = [
    pytest.param((80, 24), id="80x24"),
    pytest.param((100, 32), id="100x32"),
    pytest.param((120, 40), id="120x40"),
]
NUMBER = re.compile(r"-?\d+")


def die_words(die: Die | None) -> set[str]:
    """The words a die's label may show: ``C10``, ``C`` and ``3`` of ``C 3``, ``B⊔``."""
    if die is None:
        return set()
    face = BASKET if die.value == BASKET_FACE else str(die.value)
    return {f"{die.colour.value}{face}", die.colour.value, face}


def area_words(area: Area) -> set[str]:
    """The words an area's type is drawn with: ``b``, ``c╱m``, ``bramble``."""
    letters = [c.value.lower() for c in area.colours]
    words = {*letters, "".join(letters), "╱".join(letters), "/".join(letters), "╱", "/"}
    return words | {TERRAIN[c] for c in area.colours}


def square_words(square: Square) -> tuple[set[str], set[int]]:
    """The words a woodland square's drawing may show, and the numbers, from the engine's
    values: its type, its die, Edwood."""
    words = area_words(square.area)
    numbers: set[int] = set()
    if square.die is not None:
        words |= die_words(square.die) | {"mouse", "basket"}
        numbers.add(square.die.value)
    if square.edwood:
        words |= {"EDW", "Edw", "EDWOOD", "mouse", str(EDWOOD_POINTS)}
        numbers.add(EDWOOD_POINTS)
    return words, numbers


def card_words(
    outcome: Outcome, area: Area, pos: Pos, preview: CellPreview | None, below: Square | None
) -> tuple[set[str], set[int]]:
    """The words an area of the card being placed may show, and the numbers: its type,
    its preview's labels, and the faces of the dice the engine says it covers and makes."""
    words, numbers = area_words(area), set()
    if preview is not None:
        for label in preview[:5]:
            words |= set(label.split())
    if below is not None:
        numbers |= square_words(below)[1]
    for effect in outcome.effects:
        if (effect.x, effect.y) == pos:
            for die in (effect.die, effect.returned, effect.below.die if effect.below else None):
                if die is not None:
                    numbers.add(die.value)
    return words, numbers


def check_labels(
    view: WoodlandView,
    squares: dict[Pos, Square],
    outcome: Outcome | None = None,
    cells: CardCells = (),
) -> int:
    """Check every area drawn, the card's ``cells`` where ``outcome`` puts it over the
    woodland's ``squares``: each word a whole label word, each number the engine's;
    returns how many areas were checked."""
    layout = view.drawn_layout
    assert layout is not None
    size, ox, oy = layout
    lines = view.plain_text().split("\n")
    card = {(x, y): area for x, y, area in cells}
    previews = cell_previews(outcome, card, squares) if outcome is not None else {}
    checked = 0
    cols = (view.size.width - 1) // (size.width + 1)
    rows = len(lines) // size.height
    for row in range(rows):
        for col in range(cols):
            pos = (ox + col, oy + row)
            left = 1 + col * (size.width + 1)
            text = [
                lines[row * size.height + r][left : left + size.width] for r in range(size.height)
            ]
            if pos in card and outcome is not None:
                below = squares.get(pos)
                words, numbers = card_words(outcome, card[pos], pos, previews.get(pos), below)
            elif pos in squares:
                words, numbers = square_words(squares[pos])
            else:
                continue
            for line in text:
                for word in line.split():
                    assert word in words, (pos, text, sorted(words))
                    for number in NUMBER.findall(word):
                        assert int(number) in numbers, (pos, text, numbers)
            checked += 1
    return checked


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(("seed", "recipes"), [(2, False), (9, False), (5, True)])
@sync
async def test_every_label_on_the_woodland_is_whole_or_left_out(
    size: tuple[int, int], seed: int, recipes: bool
) -> None:
    rng = random.Random(seed)
    app = ForageApp(seed=seed, recipes=recipes, offer_resume=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        session = session_of(app)
        screen = game_screen(app)
        view = screen.query_one(WoodlandView)
        checked = 0
        while not session.game.is_over():
            game = session.game
            squares = dict(game.woodland.squares)
            outcomes = list(game.outcomes())
            x0, y0, x1, y1 = game.woodland.bounds()
            refused = [
                Placement(card=game.hand[0], rotation=r, x=x, y=y)
                for r in (Rotation.R0, Rotation.R90)
                for x in range(x0 - 1, x1 + 1)
                for y in range(y0 - 1, y1 + 1)
            ]
            spots = [o.placement for o in rng.sample(outcomes, min(6, len(outcomes)))]
            spots += rng.sample(refused, 6)
            for spot in spots:
                session.go_to(spot)
                screen.changed()
                await pilot.pause()
                outcome = session.preview()
                assert outcome is not None
                cells = card_cells(game, outcome.placement)
                checked += check_labels(view, squares, outcome, cells)
            place_by_action(app, greedy(session).placement)
            await pilot.pause()
        checked += check_labels(view, dict(session.game.woodland.squares))
        assert checked > 200


@pytest.mark.parametrize("size", [pytest.param((80, 24), id="80x24"), SIZES[2]])
@sync
async def test_edwood_chasing_a_mouse_is_drawn_as_the_help_says(size: tuple[int, int]) -> None:
    from app_helpers import keys_onto

    from forage.app.describe import LEGEND
    from forage.app.learn_app import LearnApp
    from forage.app.modes.lesson import LessonMode
    from forage.app.screens.game import GameScreen
    from forage.learn import LESSONS

    app = LearnApp(step=6)  # Edwood chases a mouse
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen) and isinstance(screen.mode, LessonMode)
        await pilot.press(*keys_onto(screen.session, LESSONS[6].placement))
        await pilot.pause()
        drawn = screen.query_one(WoodlandView).plain_text()
    chased = re.search(r"[BCM]-2→E", drawn)
    assert chased is not None and "M-2→E" in LEGEND and "+E " not in drawn
