"""Snapshot tests of the game screen at 80x24 and 120x40 (fixed seeds, no clock on screen)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from app_helpers import (
    choice_spot,
    drive_to,
    game_screen,
    greedy,
    keys_onto,
    play_out_quickly,
    session_of,
)
from history_helpers import stored
from textual.pilot import Pilot

from forage.app.app import ForageApp
from forage.app.screens import HistoryScreen
from forage.app.session import Session
from forage.engine import Deal, Placement

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
    # four areas left of where it is dealt the card lies left of the woodland, covering nothing
    assert snap_compare(ForageApp(seed=1), terminal_size=size, press=["left"] * 4)


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


@pytest.mark.parametrize("size", SIZES)
def test_games_screen(snap_compare: Snap, size: tuple[int, int]) -> None:
    games = [
        stored(3, player="bob", final=52, won=True, par=55, hints=2),
        stored(2, mode="challenge", deal="4.11:5.12.3.1.9.17.2.8.14", recipes=(4, 11)),
        stored(1, status="abandoned", won=None, final=12, undos=3),
    ]
    app = ForageApp(seed=1)

    async def run_before(pilot: Pilot[int]) -> None:
        await pilot.pause()
        await app.push_screen(HistoryScreen(games))
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_too_small_terminal(snap_compare: Snap) -> None:
    assert snap_compare(ForageApp(seed=1), terminal_size=(40, 12))


# -- what a drop covers and does, refusals, the hand ------------------------------------


def continued_app(seed: int, notations: list[str], recipes: bool = False) -> ForageApp:
    """An app continuing a seed's game after these moves (as `forage play FILE` does)."""
    deal = Deal.from_seed(seed, recipes=recipes)
    made = [Placement.from_notation(n) for n in notations]
    return ForageApp(session=Session.deal_up(deal, seed, 1, None, made), offer_resume=False)


def snap_refused_drop(snap_compare: Snap, size: tuple[int, int], *keys: str) -> bool:
    """The snapshot of card 8 held where it is refused (seed 1, after 5r90@-1,0), then keys."""
    app = continued_app(1, ["5r90@-1,0"])

    async def run_before(pilot: Pilot[int]) -> None:
        await pilot.pause()
        await drive_to(pilot, app, Placement.from_notation("8@1,-2"))
        if keys:
            await pilot.press(*keys)

    result: bool = snap_compare(app, terminal_size=size, run_before=run_before)
    return result


@pytest.mark.parametrize("size", SIZES)
def test_refused_preview_marks_its_cause(snap_compare: Snap, size: tuple[int, int]) -> None:
    assert snap_refused_drop(snap_compare, size)


@pytest.mark.parametrize("size", SIZES)
def test_recipe_preview(snap_compare: Snap, size: tuple[int, int]) -> None:
    app = continued_app(1, ["14r90@-1,1", "7@-1,1", "12@-1,0", "9r90@-2,0"], recipes=True)

    async def run_before(pilot: Pilot[int]) -> None:
        await pilot.pause()
        await drive_to(pilot, app, Placement.from_notation("13@0,1"))

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_end_summary_closed(snap_compare: Snap, size: tuple[int, int]) -> None:
    app = ForageApp(seed=5, recipes=True)

    async def run_before(pilot: Pilot[int]) -> None:
        await pilot.pause()
        await play_out_quickly(pilot, app)
        await pilot.pause()
        await pilot.press("escape")

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_hand_card_rotated(snap_compare: Snap, size: tuple[int, int]) -> None:
    assert snap_compare(ForageApp(seed=5, recipes=True), terminal_size=size, press=["r"])


@pytest.mark.parametrize("size", SIZES)
def test_hint_in_the_status_line(snap_compare: Snap, size: tuple[int, int]) -> None:
    app = ForageApp(seed=3)

    async def run_before(pilot: Pilot[int]) -> None:
        await pilot.pause()
        best = greedy(session_of(app))
        game_screen(app).show_hint(best.placement, best.score_change, 12.0)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_next_card_beside_the_woodland(snap_compare: Snap, size: tuple[int, int]) -> None:
    app = ForageApp(seed=3)

    async def run_before(pilot: Pilot[int]) -> None:
        await pilot.pause()
        await drive_to(pilot, app, greedy(session_of(app)).placement)
        await pilot.press("enter")

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_redo(snap_compare: Snap, size: tuple[int, int]) -> None:
    app = ForageApp(seed=3)

    async def run_before(pilot: Pilot[int]) -> None:
        await pilot.pause()
        await drive_to(pilot, app, greedy(session_of(app)).placement)
        await pilot.press("enter", "u", "ctrl+r")

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_peek_under_the_card(snap_compare: Snap, size: tuple[int, int]) -> None:
    assert snap_refused_drop(snap_compare, size, "p")


@pytest.mark.parametrize("size", SIZES)
def test_no_color(
    snap_compare: Snap, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_refused_drop(snap_compare, size)


@pytest.mark.parametrize("size", SIZES)
def test_colour_blind_palette(snap_compare: Snap, size: tuple[int, int]) -> None:
    assert snap_compare(ForageApp(seed=1), terminal_size=size, press=["v"])


@pytest.mark.parametrize("size", SIZES)
def test_learn_a_wrong_drop_explained(snap_compare: Snap, size: tuple[int, int]) -> None:
    from forage.app.learn_app import LearnApp
    from forage.app.modes.lesson import LessonMode
    from forage.app.screens.game import GameScreen

    app = LearnApp(step=2)  # match to raise

    async def run_before(pilot: Pilot[int]) -> None:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen) and isinstance(screen.mode, LessonMode)
        # a spot that raises a die but brings a mouse too
        await pilot.press(*keys_onto(screen.session, Placement.from_notation("2@1,1")), "enter")

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_learn_a_lesson_done(snap_compare: Snap, size: tuple[int, int]) -> None:
    from forage.app.learn_app import LearnApp
    from forage.app.modes.lesson import LessonMode
    from forage.app.screens.game import GameScreen
    from forage.learn import LESSONS

    app = LearnApp(step=6)  # Edwood chases a mouse

    async def run_before(pilot: Pilot[int]) -> None:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen) and isinstance(screen.mode, LessonMode)
        keys = keys_onto(screen.session, LESSONS[6].placement)
        await pilot.press(*keys, "enter")

    assert snap_compare(app, terminal_size=size, run_before=run_before)
