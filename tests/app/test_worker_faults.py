"""Analyses whose worker processes fail: the screen says so and goes on, nothing crashes.

A worker process can be killed (out of memory, by hand) or fail to start (no processes
left); the end screen's par and the review then say what happened instead of waiting for
ever or stopping the app.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import BrokenExecutor, Future
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest
from app_helpers import play_out_quickly, sync
from test_review_screen import SMALL, hint_game, text_of
from textual.widgets import Static

from forage.ai import review as review_module
from forage.ai.review import Review, review
from forage.ai.workers import pool_problem
from forage.app import services as services_module
from forage.app.app import ForageApp
from forage.app.recorder import Recorder
from forage.app.review_app import ReviewApp
from forage.app.screens import EndScreen
from forage.app.screens.review import ReviewScreen
from forage.engine import Game, Placement

SIZES = [(80, 24), (120, 40)]


class BrokenPool:
    """A pool whose worker is killed: every task it is given fails as a broken pool."""

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        """A task that has already failed."""
        future: Future[Any] = Future()
        future.set_exception(BrokenProcessPool("a child process terminated abruptly"))
        return future

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        """Nothing to shut down."""


class NoProcessesLeft(BrokenPool):
    """A pool whose worker process cannot start (the system has no processes to spare)."""

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        """Starting the worker fails."""
        raise BlockingIOError(11, "Resource temporarily unavailable")


def test_pool_problem_names_what_happened() -> None:
    assert pool_problem(BrokenProcessPool("x")) == "its worker process ended unexpectedly"
    assert pool_problem(BrokenExecutor("x")) == "its worker process ended unexpectedly"
    assert "could start" in pool_problem(BlockingIOError(11, "Resource temporarily unavailable"))
    assert "Resource temporarily unavailable" in pool_problem(
        OSError(11, "Resource temporarily unavailable")
    )


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(
    ("pool", "problem"),
    [
        (BrokenPool, "its worker process ended unexpectedly"),
        (NoProcessesLeft, "no worker process could start (Resource temporarily unavailable)"),
    ],
)
@sync
async def test_a_par_search_that_fails_is_said_not_waited_for(
    size: tuple[int, int],
    pool: type[BrokenPool],
    problem: str,
    forage_home: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(services_module, "_nice_pool", lambda workers: pool())
    app = ForageApp(seed=3, show_par=True, recorder=Recorder("ann"), offer_resume=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await play_out_quickly(pilot, app)
        for _ in range(3):
            await app.workers.wait_for_complete()
            await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        text = str(app.screen.query_one("#end-par", Static).content)
        assert text == f"Par for this deal: not worked out: {problem}."
        await pilot.press("escape")  # the game goes on: its woodland, then the summary
        await pilot.press("enter")
        assert isinstance(app.screen, EndScreen)
    assert app.recorder is not None
    app.recorder.close()
    assert app.crash is None


def review_killed_after_one_move(
    start: Game,
    placements: Sequence[Placement],
    settings: Any = None,
    workers: int = 1,
    progress: Any = None,
    memory: Any = None,
    each: Callable[[Any], None] | None = None,
    runner: Any = None,
) -> Review:
    """The review of the first move comes in; then the workers are killed."""
    first = review(start, placements[:1], SMALL, 1)
    if each is not None:
        each(first.moves[0])
    raise BrokenProcessPool("a child process terminated abruptly")


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_a_review_whose_workers_die_says_so_and_keeps_what_it_did(
    size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(review_module, "review", review_killed_after_one_move)
    game = hint_game()
    app = ReviewApp(game, SMALL, workers=2)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        assert screen.result is None
        assert screen.stopped == "its worker process ended unexpectedly"
        first = screen.entries[0]
        assert first.label.capitalize() in text_of(screen, "#review-verdict")
        await pilot.press("right")
        assert text_of(screen, "#review-verdict") == (
            "The analysis stopped: its worker process ended unexpectedly. "
            "The moves it did keep their marks."
        )
        await pilot.press("p")
        assert text_of(screen, "#review-note") == (
            "Par's line comes with the analysis, which stopped: "
            "its worker process ended unexpectedly."
        )
        assert list(app._notifications) == []  # on its own line, not over the chart
    assert app.crash is None


@sync
async def test_a_review_closed_while_its_analysis_runs_takes_no_late_answer() -> None:
    """The review screen closed (escape, typed quickly) while its analysis still works: the
    progress the analysis' thread hands back afterwards is dropped, not drawn on the
    screen's removed widgets (which raised and ended the game with a crash)."""
    from forage.app.screens.review import review_screen

    app = ForageApp(seed=4, offer_resume=False)
    app.review_settings = SMALL
    app.review_workers = 1
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = review_screen(app, hint_game())
        await app.push_screen(screen)
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert screen not in app.screen_stack
        raised: list[BaseException] = []

        def late() -> None:  # as the analysis' thread hands back its progress
            try:
                app.call_from_thread(screen._progress, 1, 5)
            except BaseException as error:
                raised.append(error)

        await app.run_worker(late, thread=True).wait()
        await pilot.pause()
        assert raised == []
        assert app.is_running and not isinstance(app.screen, ReviewScreen)
    assert app.crash is None
