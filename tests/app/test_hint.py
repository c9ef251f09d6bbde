"""The hint key: a suggestion worked out in the background, shown where enter places it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from app_helpers import (
    game_screen,
    greedy,
    play_out_quickly,
    session_of,
    status,
    sync,
)
from textual.widgets import Static

from forage.ai.hint import hint
from forage.app.app import ForageApp
from forage.app.describe import card_name
from forage.app.screens import EndScreen


@sync
async def test_t_moves_the_card_to_the_hint_and_enter_places_it() -> None:
    app = ForageApp(seed=11)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session = session_of(app)
        expected = hint(session.game.copy())
        assert expected is not None
        await pilot.press("t")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert session.placement() == expected.placement
        before = session.game.position.base
        await pilot.press("enter")
        await pilot.pause()
        assert session.game.moves == [expected.placement]
        assert session.game.position.base == before + expected.gain


@sync
async def test_a_hint_for_a_turn_already_played_is_not_shown() -> None:
    app = ForageApp(seed=11)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session = session_of(app)
        await pilot.press("t")
        legal = next(session.game.outcomes()).placement
        session.game.push(legal)  # the game moves on before the hint arrives
        cursor = session.placement()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert session.placement() == cursor


@sync
async def test_end_screen_shows_the_deals_par_from_a_background_process() -> None:
    app = ForageApp(seed=3, show_par=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await play_out_quickly(pilot, app)
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        par_line = app.screen.query_one("#end-par", Static)
        assert str(par_line.content).startswith("Par for this deal")  # working, or found
        await app.workers.wait_for_complete()
        await pilot.pause()
        text = str(par_line.content)
        match = re.search(r"Par for this deal: (-?\d+)", text)
        assert match is not None, text
        mine = session_of(app).game.result().score.final
        assert f"you scored {mine}" in text
        assert int(match.group(1)) >= mine  # par is at least the greedy game just played
        await pilot.press("u")  # undo and play the last card again: par is not worked out again
        await pilot.pause()
        started: list[str] = []
        analysis = app.services.analysis
        real = analysis.run

        def counted(priority: Any, task: Any) -> Any:
            started.append(task.key)
            return real(priority, task)

        analysis.run = counted  # type: ignore[method-assign]
        await play_out_quickly(pilot, app)
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        again = str(app.screen.query_one("#end-par", Static).content)
        assert started == [] and f"Par for this deal: {match.group(1)}" in again


def test_the_hint_tells_the_answer_so_far_first() -> None:
    from forage.ai.hint import Hint
    from forage.carddata import standard_deck
    from forage.engine import Deal, Game

    game = Game(Deal.from_seed(11), standard_deck())
    told: list[Hint] = []
    found = hint(game, early=told.append)
    assert found is not None and found.final
    assert len(told) == 1 and not told[0].final
    assert game.outcome(told[0].placement).legal
    assert hint(game) == found  # the same hint, told early or not


def note_of(app: ForageApp) -> str:
    """The status bar's last line."""
    from forage.app.widgets import StatusBar

    return app.screen.query_one(StatusBar).state.note


@sync
async def test_the_answer_so_far_is_shown_then_the_final_hint() -> None:
    from forage.ai.hint import Hint
    from forage.app.screens import GameScreen

    app = ForageApp(seed=11)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session = session_of(app)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        first, second = [o for o in session.game.outcomes()][:2]
        key = (0, tuple(session.game.moves))
        screen._hint_ready(key, Hint(first.placement, 0, 30.0, first.score_change, final=False))
        await pilot.pause()
        assert session.placement() == first.placement
        assert note_of(app).startswith("Hint so far:")
        screen._hint_ready(key, Hint(second.placement, 0, 31.0, second.score_change))
        await pilot.pause()
        assert session.placement() == second.placement
        assert note_of(app).startswith("Hint: ") and "more next turn." in note_of(app)
        # Moved off the answer so far: the final hint leaves the card where the player put it.
        screen._hint_ready(key, Hint(first.placement, 0, 30.0, first.score_change, final=False))
        await pilot.press("left")
        moved = session.placement()
        screen._hint_ready(key, Hint(second.placement, 0, 31.0, second.score_change))
        await pilot.pause()
        assert session.placement() == moved


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@sync
async def test_the_hint_speaks_of_the_next_turn_only_while_there_is_one(
    size: tuple[int, int],
) -> None:
    from app_helpers import game_screen, greedy, place_quickly

    from forage.app.widgets import StatusBar

    app = ForageApp(seed=3, offer_resume=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        session = session_of(app)
        while True:
            game = session.game
            best = greedy(session)
            expected = float(game.base + best.score_change)  # nothing more to come, last turn
            game_screen(app).show_hint(best.placement, best.score_change, expected + 3)
            await pilot.pause()
            note = app.screen.query_one(StatusBar).state.note
            assert note.startswith("Hint: ")
            if game.turn == game.turns:
                game_screen(app).show_hint(best.placement, best.score_change, expected)
                await pilot.pause()
                note = app.screen.query_one(StatusBar).state.note
                assert "next turn" not in note and "more" not in note
                break
            assert "about 3 more next turn" in note
            await place_quickly(pilot, app)


@sync
async def test_a_hint_is_on_the_status_line_until_it_is_played() -> None:
    app = ForageApp(seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = game_screen(app)
        best = greedy(session_of(app))
        screen.show_hint(best.placement, best.score_change, 20.0)
        await pilot.pause()
        note = status(app).state.note
        name = card_name(session_of(app).game.card(best.placement.card))
        assert note.startswith(f"Hint: {name} here, {best.score_change:+d}")
        assert not list(app._notifications)  # no toast over the woodland
        await pilot.press("enter")
        await pilot.pause()
        assert "Hint" not in status(app).state.note


@sync
@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_a_hint_goes_once_the_card_leaves_its_placement(size: tuple[int, int]) -> None:
    app = ForageApp(seed=3)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        best = greedy(session_of(app))
        game_screen(app).show_hint(best.placement, best.score_change, 20.0)
        await pilot.pause()
        assert status(app).state.note.startswith("Hint:")
        await pilot.press("right")
        await pilot.pause()
        assert "Hint" not in status(app).state.note
        await pilot.press("left")  # back on the spot: the hint stays gone
        await pilot.pause()
        assert "Hint" not in status(app).state.note
