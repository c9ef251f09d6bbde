"""What the screens say goes on lines of their own, never a pop-up over what the player
reads: the review's answers under its chart, the end screen's copied share line, with
the share line's key and the scoreboard's counts; one wording for par; the end dialog
with no column of the woodland beside it; the review's chart labelled and its help
fitting 80 columns."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from app_helpers import ascii_output, place_by_action, play_out_quickly, session_of, sync
from test_review_screen import SMALL, analysed, hint_game, text_of

from forage.app.app import ForageApp
from forage.app.recorder import Recorder
from forage.app.review_app import ReviewApp
from forage.app.screens import EndScreen, HelpScreen
from forage.app.screens.review import score_words
from forage.app.widgets.history import HistoryPanel
from forage.history.daily import MOVE_MARKS, daily_seed
from forage.history.store import HistoryStore

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


def screen_lines(app: ForageApp | ReviewApp) -> list[str]:
    """The screen as the terminal shows it, a string a line."""
    strips = app.screen._compositor.render_strips()
    return ["".join(segment.text for segment in strip) for strip in strips]


def listen(app: ForageApp | ReviewApp) -> list[str]:
    """The notifications the app is asked to pop up."""
    told: list[str] = []
    app.notify = lambda message, **_: told.append(message)  # type: ignore[method-assign,assignment]
    return told


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_the_review_answers_a_key_on_its_own_line_under_the_chart(
    size: tuple[int, int],
) -> None:
    app = ReviewApp(hint_game(), SMALL, workers=1)
    told = listen(app)
    async with app.run_test(size=size) as pilot:
        screen, found = await analysed(pilot, app)
        screen.result = replace(found, moves=[replace(m, label="best") for m in found.moves])
        await pilot.press("m")
        await pilot.pause()
        note = screen.query_one("#review-note")
        chart = screen.query_one("#review-chart")
        assert "No inaccuracy, mistake or blunder" in text_of(screen, "#review-note")
        assert note.region.y >= chart.region.bottom  # below the chart, over nothing
        assert any("No inaccuracy, mistake or blunder" in line for line in screen_lines(app))
        await pilot.press("right")
        await pilot.pause()
        assert text_of(screen, "#review-note") == ""
    assert told == []


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_the_review_chart_has_its_scale_and_move_numbers_and_its_help(
    size: tuple[int, int],
) -> None:
    app = ReviewApp(hint_game(), SMALL, workers=1)
    async with app.run_test(size=size) as pilot:
        screen, found = await analysed(pilot, app)
        values = [m.expected_played for m in found.moves]
        top, bottom, numbers = text_of(screen, "#review-chart").split("\n")
        assert top.split()[0] == score_words(max(values))
        assert bottom.split()[0] == score_words(min(values))
        assert numbers.split() == [*(str(n + 1) for n in range(len(values))), "move"]
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        help_text = str(app.screen.query_one("#help-text").render())
        box = app.screen.query_one("#help-text").content_region.width
    from forage.app.describe import PAR_IS

    assert "The chart" in help_text and PAR_IS in help_text
    assert max(len(line) for line in help_text.splitlines()) <= box


@sync
async def test_par_is_named_alike_in_the_review_and_on_the_end_screen() -> None:
    from forage.app.describe import PAR_IS, par_said, par_words

    app = ReviewApp(hint_game(), SMALL, workers=1)
    async with app.run_test(size=(100, 30)) as pilot:
        screen, _ = await analysed(pilot, app)
        await pilot.press("p")
        await pilot.pause()
        assert screen.result is not None
        par = screen.result.par
        assert par_said(par.score, par.proven) in text_of(screen, "#review-verdict")
    # the end screen says par_said (tests/app/test_hint.py, test_par_memory.py), and so
    # does forage par (tests/test_ai_commands.py)
    assert par_words(True) == PAR_IS and par_words(False).startswith(f"{PAR_IS}, ")
    assert "knowing the draw order" in PAR_IS


def daily_app(day: date, recorder: Recorder) -> ForageApp:
    """The app on the daily deal of ``day``."""
    return ForageApp(seed=daily_seed(day), offer_resume=False, recorder=recorder)


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_the_share_line_has_its_key_and_y_says_copied_in_place(
    forage_home: Path, size: tuple[int, int]
) -> None:
    day = date(2026, 12, 1)
    app = daily_app(day, Recorder("dan", daily=day))
    told = listen(app)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await play_out_quickly(pilot, app)
        assert isinstance(app.screen, EndScreen)
        text = str(app.screen.query_one(HistoryPanel).render())
        assert "(y copies it)" in text
        key = text.split("\n")[-1]
        for mark in MOVE_MARKS.values():
            assert mark in key
        assert "gained points" in key and "lost points" in key
        await pilot.press("y")
        await pilot.pause()
        text = str(app.screen.query_one(HistoryPanel).render())
        assert "(copied)" in text and "(y copies it)" not in text
    assert told == []


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_the_scoreboard_says_whose_best_of_how_many_games(
    forage_home: Path, size: tuple[int, int]
) -> None:
    finals = []
    recorder = Recorder("ann")
    app = ForageApp(seed=9, offer_resume=False, recorder=recorder)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for again in ("a", None):  # the game, then the same deal again, played otherwise
            if not again:
                session = session_of(app)
                other = sorted(session.game.outcomes(), key=lambda o: -o.score_change)[1]
                place_by_action(app, other.placement)
            await play_out_quickly(pilot, app)
            finals.append(session_of(app).game.result().score.final)
            text = str(app.screen.query_one(HistoryPanel).render())
            if again:
                await pilot.press(again)
                await pilot.pause()
    recorder.close()
    with HistoryStore.open(forage_home) as store:
        assert len(store.games("ann")) == 2
    assert "(each player's best game)" in text
    assert re.search(rf"{max(finals)}\s+\w*\s+ann\s+\(best of 2 games\)", text), text


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("dialog", ["end", "help"])
@sync
async def test_the_end_and_help_dialogs_have_no_column_of_the_woodland_beside_them(
    size: tuple[int, int], dialog: str
) -> None:
    app = ForageApp(seed=5, recipes=True, offer_resume=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        if dialog == "end":
            await play_out_quickly(pilot, app)
            assert isinstance(app.screen, EndScreen)
        else:
            await pilot.press("f", "question_mark")  # a card over the woodland, then help
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
        lines = screen_lines(app)
    inside = [line for line in lines if line.count("│") >= 2]
    assert inside
    for line in inside:
        left, right = line.index("│"), line.rindex("│")
        beside = line[:left] + line[right + 1 :]
        assert beside.strip() == "" or left >= 10, line  # wide: the woodland, whole


def test_plain_ascii_draws_the_statistics_chart_without_blocks(forage_home: Path) -> None:
    script = """
import asyncio
from app_helpers import play_out_quickly, quick_idle_checks
from forage.app.app import ForageApp
from forage.app.recorder import Recorder
quick_idle_checks()

async def main():
    for size in ((80, 24), (120, 40)):
        app = ForageApp(seed=4, offer_resume=False, recorder=Recorder("ann"))
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await play_out_quickly(pilot, app)
            await pilot.press("a")
            await pilot.pause()
            await pilot.press("s")
            await pilot.pause()
            strips = app.screen._compositor.render_strips()
            print("\\n".join("".join(s.text for s in strip) for strip in strips))

asyncio.run(main())
"""
    import sys

    here = str(Path(__file__).parent)
    shown = ascii_output(f"import sys; sys.path.insert(0, {here!r})\n" + script, forage_home)
    assert "Last 1 scores" in shown or "Last 2 scores" in shown
    assert all(ord(ch) < 128 for ch in shown), sorted({ch for ch in shown if ord(ch) >= 128})
    assert sys is not None


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_the_help_draws_edwood_as_the_board_does_and_says_what_a_matched_15_does(
    size: tuple[int, int],
) -> None:
    from forage.app.widgets import WoodlandView
    from forage.app.widgets.woodland import area_lines
    from forage.engine import Area
    from forage.engine.areas import BASKET_FACE, raised

    app = ForageApp(seed=4, offer_resume=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        layout = app.screen.query_one(WoodlandView).drawn_layout
        assert layout is not None
        drawn = area_lines(Area.B, None, True, layout[0])
        board = [" ".join(chunk[0] for chunk in line).strip() for line in drawn]
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        help_text = str(app.screen.query_one("#help-text").render())
    lines = help_text.splitlines()
    [at] = [n for n, line in enumerate(lines) if "Edwood Mouse (purple)" in line]
    mark = lines[at].split("Edwood Mouse")[0].split() or lines[at - 1].split()  # long: above
    assert mark == [word for word in board if word], (mark, board)
    said = f"a {BASKET_FACE} moves up and stays {raised(BASKET_FACE)}"  # R8a, as the engine
    assert said in " ".join(help_text.split())
