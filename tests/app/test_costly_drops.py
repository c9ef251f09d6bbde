"""A card never starts where a drop would cost points, and a costly drop asks for a second
enter (a question the player can turn off, kept in the data folder)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from app_helpers import drive_to, game_screen, greedy, session_of, sync

from forage.app.app import ForageApp
from forage.app.puzzle_app import PuzzleApp
from forage.app.screens import HelpScreen
from forage.app.session import Session
from forage.app.widgets import StatusBar
from forage.cli.play import continued
from forage.engine import Deal, Placement
from forage.puzzle import daily_puzzle
from forage.record import record_from_game

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]

LATE_GAME = ("5r90@-1,-1", "12r270@1,-1", "14r90@1,-1", "7@1,-1", "13r270@-1,-1")
"""Seed 1 after five placements (score 25): a card dealt onto the woodland's middle
would have shown 8@1,0, which loses 17."""


def late_game_file(tmp_path: Path) -> Path:
    """A record of seed 1's late game, as ``forage play FILE`` reads it."""
    session = Session.deal_up(
        Deal.from_seed(1), 1, 1, None, [Placement.from_notation(n) for n in LATE_GAME]
    )
    path = tmp_path / "late.json"
    path.write_text(record_from_game(session.game, seed=1).to_json())
    return path


def test_every_session_starts_with_the_card_waiting_beside_the_woodland() -> None:
    for seed in range(1, 25):
        session = Session.deal_up(Deal.from_seed(seed, recipes=seed % 2 == 0), seed)
        while not session.game.is_over():
            fresh = Session(session.game.copy())  # as a continued game or a resumed save
            assert fresh.waiting, (seed, session.game.moves)
            session.game.push(greedy(session))


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_a_continued_game_shows_no_drop_before_the_card_is_moved(
    size: tuple[int, int], tmp_path: Path
) -> None:
    session = continued(str(late_game_file(tmp_path)), None)
    assert isinstance(session, Session)
    app = ForageApp(session=session, offer_resume=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        state = app.screen.query_one(StatusBar).state
        assert state.tone == "idle" and state.headline.startswith("Your card to place")
        await pilot.press("enter")
        await pilot.pause()
        assert len(session.game.moves) == len(LATE_GAME)


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_the_puzzle_starts_with_the_card_waiting(size: tuple[int, int]) -> None:
    day = date(2026, 12, 4)  # its centred start lost 29
    app = PuzzleApp(daily_puzzle(day), day)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        state = app.screen.query_one(StatusBar).state
        assert state.tone == "idle" and "Enter places it" not in state.headline


def test_a_drop_is_costly_from_five_points_or_below_zero() -> None:
    from forage.app.view import COSTLY_LOSS, DropChange, is_costly

    assert is_costly(DropChange(25, 25 - COSTLY_LOSS, False))
    assert not is_costly(DropChange(25, 25 - COSTLY_LOSS + 1, False))
    assert is_costly(DropChange(0, -1, False)) and is_costly(DropChange(3, -1, True))
    assert not is_costly(DropChange(-3, -4, False)) and not is_costly(DropChange(10, 12, False))


def costly_app() -> tuple[ForageApp, Placement]:
    """Seed 1's late game and a drop there that loses 17 points (25 to 8)."""
    made = [Placement.from_notation(n) for n in LATE_GAME]
    session = Session.deal_up(Deal.from_seed(1), 1, 1, None, made)
    spot = Placement.from_notation("8@1,0")
    assert session.game.outcome(spot).score_change == -17
    return ForageApp(session=session, offer_resume=False), spot


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_a_costly_drop_asks_for_a_second_enter_saying_its_cost(
    size: tuple[int, int],
) -> None:
    app, spot = costly_app()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        session = session_of(app)
        await drive_to(pilot, app, spot)
        await pilot.press("enter")
        await pilot.pause()
        bar = app.screen.query_one(StatusBar)
        assert len(session.game.moves) == len(LATE_GAME)
        assert "costs 17 points (score 25" in bar.state.headline
        assert "enter again places it" in bar.state.headline
        shown = [text for text, _ in bar.lines(bar.text_width)]
        assert any("costs 17 points" in line for line in shown)
        await pilot.press("left", "right")  # moved away and back: asked again
        await pilot.press("enter")
        await pilot.pause()
        assert len(session.game.moves) == len(LATE_GAME)
        await pilot.press("enter")
        await pilot.pause()
        assert len(session.game.moves) == len(LATE_GAME) + 1


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_turning_the_question_off_lasts_to_the_next_game(size: tuple[int, int]) -> None:
    from forage.settings import load_settings, settings_path

    app, spot = costly_app()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("w")
        await pilot.pause()
        assert "no longer ask" in app.screen.query_one(StatusBar).state.note
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert "(kept for next time): now off" in str(app.screen.query_one("#help-text").content)
    assert load_settings().ask_costly is False
    assert json.loads(settings_path().read_text())["format"] == "forage-settings/1"
    app, spot = costly_app()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await drive_to(pilot, app, spot)
        await pilot.press("enter")
        await pilot.pause()
        assert len(session_of(app).game.moves) == len(LATE_GAME) + 1
        assert not game_screen(app).asks_again
