"""The app's services: analyses handed to shared workers by priority, each keyed task worked
out once, a dead worker said and replaced, the history asked off the screen's thread; and
the screens getting all their background work from them."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, TypeVar

import pytest
from app_helpers import InlinePool, inline_analysis, play_out_quickly, session_of, sync

from forage.ai.workers import Task
from forage.app.app import ForageApp
from forage.app.recorder import Recorder
from forage.app.screens import EndScreen
from forage.app.screens.review import ReviewScreen
from forage.app.services import Analysis, Priority, Services, Writes

T = TypeVar("T")


class HeldPool(Executor):
    """Runs nothing until told: each task waits in ``started`` until :meth:`finish` (the
    order tasks reach the workers, and how many at once, can be read)."""

    def __init__(self) -> None:
        """A pool with no task yet."""
        self.started: list[tuple[str, Future[Any]]] = []
        self.changed = threading.Event()

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        """Note the task (named by its first argument); its answer comes with finish."""
        future: Future[T] = Future()
        self.started.append((str(args[0]), future))
        self.changed.set()
        return future

    def names(self) -> list[str]:
        """The tasks started so far, in order."""
        return [name for name, _ in self.started]

    def finish(self, name: str, value: Any = None) -> None:
        """Answer a started task."""
        future = next(f for n, f in self.started if n == name and not f.done())
        future.set_result(value if value is not None else name)

    def wait_for(self, count: int) -> None:
        """Wait until ``count`` tasks have started (a second at most)."""
        deadline = time.monotonic() + 1.0
        while len(self.started) < count and time.monotonic() < deadline:
            self.changed.wait(0.01)
            self.changed.clear()
        time.sleep(0.02)  # and no more come


def task(name: str) -> Task:
    """A task keyed and named ``name``."""
    return Task(name, str, (name,))


def test_the_most_wanted_task_starts_first_and_later_ones_leave_a_worker_free() -> None:
    pool = HeldPool()
    analysis = Analysis(2, lambda workers: pool)
    for name in ("later-1", "later-2", "later-3"):
        analysis.run(Priority.LATER, task(name))
    pool.wait_for(1)
    assert pool.names() == ["later-1"]  # one worker kept free
    analysis.run(Priority.SOON, task("soon"))
    analysis.run(Priority.NOW, task("now"))
    pool.wait_for(2)
    assert pool.names() == ["later-1", "now"]
    pool.finish("now")
    pool.wait_for(3)
    assert pool.names() == ["later-1", "now", "soon"]
    pool.finish("later-1")
    pool.finish("soon")
    pool.wait_for(4)
    assert pool.names() == ["later-1", "now", "soon", "later-2"]
    analysis.close()


def test_a_task_asked_again_is_the_same_future_moved_up() -> None:
    pool = HeldPool()
    analysis = Analysis(2, lambda workers: pool)
    analysis.run(Priority.LATER, task("busy"))
    first = analysis.run(Priority.LATER, task("move-3"))
    pool.wait_for(1)
    assert pool.names() == ["busy"]
    again = analysis.run(Priority.NOW, task("move-3"))  # the review screen asks for it
    assert again is first
    pool.wait_for(2)
    assert pool.names() == ["busy", "move-3"]
    pool.finish("move-3", "reviewed")
    assert first.result(timeout=1) == "reviewed"
    assert analysis.run(Priority.NOW, task("move-3")) is first  # done: not worked out again
    pool.wait_for(2)
    assert pool.names() == ["busy", "move-3"]
    analysis.close()


def test_a_task_no_one_waits_for_does_not_run() -> None:
    pool = HeldPool()
    analysis = Analysis(1, lambda workers: pool)
    analysis.run(Priority.NOW, task("first"))
    dropped = analysis.run(Priority.NOW, task("dropped"))
    analysis.drop([dropped])
    analysis.run(Priority.NOW, task("third"))
    pool.wait_for(1)
    pool.finish("first")
    pool.wait_for(2)
    assert pool.names() == ["first", "third"]
    assert dropped.cancelled()
    analysis.close()


def test_a_dead_worker_is_said_and_the_next_task_gets_a_new_pool() -> None:
    pools: list[HeldPool] = []

    def make(workers: int) -> HeldPool:
        pools.append(HeldPool())
        return pools[-1]

    def wait_for_pools(count: int) -> None:
        deadline = time.monotonic() + 1
        while len(pools) < count and time.monotonic() < deadline:
            time.sleep(0.01)
        pools[count - 1].wait_for(1)

    analysis = Analysis(1, make)
    lost = analysis.run(Priority.NOW, task("lost"))
    wait_for_pools(1)
    pools[0].started[0][1].set_exception(BrokenProcessPool("a child process terminated"))
    with pytest.raises(BrokenProcessPool):
        lost.result(timeout=1)
    assert analysis.problem == "its worker process ended unexpectedly"
    again = analysis.run(Priority.NOW, task("lost"))  # asked again, tried again
    assert again is not lost
    wait_for_pools(2)
    assert pools[1].names() == ["lost"]
    analysis.close()


def test_closing_drops_what_waits() -> None:
    pool = HeldPool()
    analysis = Analysis(1, lambda workers: pool)
    analysis.run(Priority.NOW, task("running"))
    waiting = analysis.run(Priority.LATER, task("waiting"))
    pool.wait_for(1)
    analysis.close()
    assert waiting.cancelled()


def test_real_workers_work_a_task_out_below_the_screens_priority() -> None:
    analysis = Analysis(1)
    try:
        niceness = analysis.submit(Priority.NOW, os.nice, 0).result(timeout=60)
        assert niceness >= os.nice(0) + 10
    finally:
        analysis.close()


@sync
async def test_the_history_is_asked_on_its_own_thread(forage_home: Path) -> None:
    recorder = Recorder("ann")
    services = Services(history=recorder, analysis=inline_analysis())
    screen_thread = threading.get_ident()
    seen = await services.ask(lambda history: threading.get_ident(), None)
    assert seen is not None and seen != screen_thread
    assert await Services().ask(lambda history: 1, 0) == 0  # history off: the default
    services.close()


@sync
async def test_a_game_played_while_analysing_has_its_review_ready_at_the_end(
    forage_home: Path,
) -> None:
    from test_review_screen import SMALL

    pool = InlinePool()
    app = ForageApp(
        seed=4,
        offer_resume=False,
        recorder=Recorder("ann"),
        analyse_while_playing=True,
        analysis=inline_analysis(pool),
    )
    app.review_settings = SMALL
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await play_out_quickly(pilot, app)
        moves = len(session_of(app).game.moves)
        assert pool.calls.count("review_move") == moves  # one a move, as it was played
        assert pool.calls.count("par") == 1  # from the first placement
        assert isinstance(app.screen, EndScreen)
        asked = len(pool.calls)
        await pilot.press("r")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        review = app.screen
        assert isinstance(review, ReviewScreen) and review.result is not None
        assert len(pool.calls) == asked  # nothing worked out again
    app.services.close()


def test_writes_of_one_file_waiting_leave_only_the_latest_made_in_the_order_asked() -> None:
    writes = Writes()
    started, gate = threading.Event(), threading.Event()
    made: list[str] = []

    def first() -> None:
        started.set()
        gate.wait(60)
        made.append("save 1")

    writes.later("save", first)
    assert started.wait(60)
    writes.later("save", lambda: made.append("save 2"))
    writes.later("record", lambda: made.append("record 1"))
    writes.later("save", lambda: made.append("save 3"))
    waited = writes.done()
    assert not waited.done()
    gate.set()
    waited.result(60)
    assert made == ["save 1", "save 3", "record 1"]
    writes.later("save", lambda: made.append("save 4"))
    writes.close()
    assert made[-1] == "save 4"
