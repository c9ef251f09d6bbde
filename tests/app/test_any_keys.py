"""No run of key presses breaks the game: random presses of every key the screens bind.

The presses reach the game screen, its dialogs (help, statistics, history, the end
screen), the review, the tutorial and the puzzle, wherever the keys lead; now and then,
on the game screen, the keys that drive the card to a good spot and place it, so that
games go on to their end. After them the app has not stopped on an error, and the game it
shows is the one its moves make.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from app_helpers import drive_to, greedy, playing_own_game, session_of, sync

from forage.app.app import ForageApp
from forage.carddata import standard_deck
from forage.engine import Game

KEYS = (
    "left", "right", "up", "down", "h", "j", "k", "l", "r", "R", "tab", "enter", "space",
    "enter", "t", "u", "ctrl+r", "c", "p", "m", "v", "b", "home", "end", "1", "2", "a", "n",
    "o", "y", "x", "g", "s", "question_mark", "escape", "L", "P", "f", "F", "w",
)  # fmt: skip
"""Every key a screen of the game binds, but q (which leaves the app at once) and f (which
reaches for a rooms server: tests/app/test_rooms.py), with enter twice as likely (it places
cards and answers dialogs, so games get to their end)."""
PRESSES = 200
PLACING = 0.25
"""How often, on the game screen, the next presses place a card instead."""


@pytest.mark.parametrize(
    ("seed", "recipes", "size"), [(3, False, (80, 24)), (4, True, (120, 40)), (5, False, (60, 20))]
)
@sync
async def test_random_keys_never_break_the_game(
    seed: int, recipes: bool, size: tuple[int, int], forage_home: Path
) -> None:
    rng = random.Random(seed)
    app = ForageApp(seed=seed, recipes=recipes)
    async with app.run_test(size=size) as pilot:
        for _ in range(PRESSES):
            playing = playing_own_game(app.screen) and not session_of(app).game.is_over()
            if playing and rng.random() < PLACING:
                await drive_to(pilot, app, greedy(session_of(app)).placement)
                await pilot.press("enter")
            else:
                await pilot.press(rng.choice(KEYS))
            if not app.is_running:
                break
        session = app.session
        assert session is not None
        game = session.game
        again = Game(game.deal, standard_deck())
        assert again.replay(game.moves).refusal is None
        assert again.result() == game.result()
    assert app.crash is None
    assert app.return_code in (None, 0)
    assert not list(forage_home.glob("crash-*.log"))
