"""Snapshot tests of the game screen at 80x24 and 120x40 (fixed seeds, no clock on screen)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from app_helpers import choice_spot, drive_to, greedy, play_out_quickly, session_of
from textual.pilot import Pilot

from forage.app.app import ForageApp

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
Snap = Callable[..., bool]


@pytest.mark.parametrize("size", SIZES)
def test_opening_screen(snap_compare: Snap, size: tuple[int, int]) -> None:
    assert snap_compare(ForageApp(seed=1), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_legal_preview(snap_compare: Snap, size: tuple[int, int]) -> None:
    app = ForageApp(seed=1)

    async def run_before(pilot: Pilot[int]) -> None:
        await pilot.pause()
        session = session_of(app)
        await drive_to(pilot, app, greedy(session).placement)
        await pilot.press("enter")  # one placement made, then the best next one shown
        await drive_to(pilot, app, greedy(session).placement)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_illegal_preview(snap_compare: Snap, size: tuple[int, int]) -> None:
    # three areas left of the start the card lies beside the woodland, covering nothing
    assert snap_compare(ForageApp(seed=1), terminal_size=size, press=["left"] * 3)


@pytest.mark.parametrize("size", SIZES)
def test_split_area_colour_choice(snap_compare: Snap, size: tuple[int, int]) -> None:
    seed, target = choice_spot()
    app = ForageApp(seed=seed)

    async def run_before(pilot: Pilot[int]) -> None:
        await pilot.pause()
        await drive_to(pilot, app, target)
        await pilot.press("c")

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_end_screen_of_a_recipe_challenge(snap_compare: Snap, size: tuple[int, int]) -> None:
    app = ForageApp(seed=5, recipes=True)

    async def run_before(pilot: Pilot[int]) -> None:
        await pilot.pause()
        await play_out_quickly(pilot, app)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_too_small_terminal(snap_compare: Snap) -> None:
    assert snap_compare(ForageApp(seed=1), terminal_size=(40, 12))
