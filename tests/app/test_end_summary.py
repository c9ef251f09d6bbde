"""The end summary over the finished woodland: closed and brought back, and scrolled to its
last line."""

from __future__ import annotations

import pytest
from app_helpers import (
    SIZES,
    play_out_quickly,
    screen_text,
    status,
    sync,
)
from textual.widgets import Static

from forage.app.app import ForageApp
from forage.app.screens import EndScreen, GameScreen


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_escape_closes_the_end_summary_and_enter_brings_it_back(
    size: tuple[int, int],
) -> None:
    app = ForageApp(seed=5, recipes=True)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await play_out_quickly(pilot, app)
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        summary = str(app.screen.query_one("#end-summary", Static).content)
        assert summary.index("Final") < summary.index("Base score")
        assert "Your woodland (base score" in summary
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert "summary" in status(app).state.note
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)


@sync
@pytest.mark.parametrize(("size", "seed"), [((80, 24), 7), ((120, 40), 7)], ids=["80x24", "120x40"])
async def test_the_end_summary_scrolls_to_its_last_line(size: tuple[int, int], seed: int) -> None:
    """A first win at 80x24 unlocks several achievements, and the summary is longer than
    its dialog: scrolled to its end, the scoreboard and the choices are in sight."""
    from app_helpers import play_out_quickly
    from textual.containers import VerticalScroll

    from forage.app.recorder import Recorder
    from forage.app.screens import EndScreen

    app = ForageApp(seed=seed, recipes=True, offer_resume=False, recorder=Recorder("ann"))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await play_out_quickly(pilot, app)
        assert isinstance(app.screen, EndScreen)
        assert "Achievement" in screen_text(app) or "achievement" in screen_text(app)
        for scroll in app.screen.query(VerticalScroll):
            scroll.scroll_end(animate=False)
        await pilot.pause()
        shown = screen_text(app)
        assert "esc see the woodland" in shown and "ann" in shown  # the choices, the board
