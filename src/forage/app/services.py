"""The app's background work, in one place: the history on its own thread, the analyses
(hints, par, reviews) in shared worker processes, the analyses kept between runs, and the
connection to a room on a server (:class:`forage.net.link.RoomLink`, on the app's event
loop).

The game's save is written on a thread of its own (:class:`Writes`): no key press waits for
the disk, the writes are made in the order asked (of those still waiting, only the latest of
each file), and all are made before the app has closed.

The app makes one :class:`Services` and every screen asks it (:func:`services_of`); a test
hands the screens a fake by giving the app another. Nothing here draws or decides a rule:
results come back as futures that a screen awaits, so no screen waits on the history file
or a worker process, and what goes wrong (a worker that died, a history that is locked or
damaged) is caught here and said in words (:attr:`Analysis.problem`, the history's notice).

Analyses run by priority (:class:`Priority`): what the player waits for first, then what
the end screen shows, then what is worked out while the player thinks (each move's review
as it is played, the deal's par from the first placement), which never takes every worker.
A task with a key is worked out once: asked again, at any priority, the same future comes
back, moved up if it was waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import heapq
import itertools
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Final, TypeVar

if TYPE_CHECKING:  # the workers' modules load with the first task, not at start-up
    from datetime import date
    from pathlib import Path

    from forage.ai.hint import Hint
    from forage.ai.memory import Memory
    from forage.ai.par import ParResult
    from forage.ai.review import MoveReview, Review, ReviewSettings
    from forage.ai.workers import Task
    from forage.app.recorder import Recorder
    from forage.app.session import Session
    from forage.engine import Game, Placement
    from forage.history.achievements import Achievement
    from forage.history.games import PlayInfo, StoredGame
    from forage.history.stats import Statistics
    from forage.history.store import PuzzleRecorded, Recorded, Scoreboard
    from forage.net.link import RoomLink

T = TypeVar("T")

NICE: Final = 10
"""How far below the screen's priority the app's worker processes run."""
REMEMBERED: Final = 512
"""How many finished analyses the app keeps at hand (a game's reviewed moves and pars)."""


class Priority(IntEnum):
    """How soon an analysis is wanted (lower first)."""

    NOW = 0
    """The player waits for it: a hint, the review screen open."""
    SOON = 1
    """A screen shows it when it comes: the end screen's par."""
    LATER = 2
    """Worked out while the player thinks, for a screen to come."""


def _nice_pool(workers: int) -> Executor:
    """A pool of worker processes a little below the screen's priority."""
    from forage.ai.workers import worker_pool

    return worker_pool(workers, nice=NICE)


def default_workers() -> int:
    """How many worker processes the app's analyses use: the cores, at most four."""
    return max(1, min(4, os.cpu_count() or 1))


@dataclass
class _Waiting:
    """A task waiting for a worker, with the future its askers hold."""

    priority: Priority
    work: Callable[..., Any]
    args: tuple[Any, ...]
    future: Future[Any]
    key: str | None = None
    started: bool = field(default=False)
    pool: Executor | None = field(default=None)
    """The pool it was handed to."""


class Analysis:
    """The app's worker processes, shared by every screen, handed tasks by priority.

    The pool starts with the first task; a pool whose worker died is replaced for the next
    one (the tasks it held fail, saying why). Tasks :attr:`Priority.LATER` use at most all
    workers but one, so a hint always finds one free as soon as a task ends.
    """

    def __init__(
        self,
        workers: int | None = None,
        make_pool: Callable[[int], Executor] | None = None,
    ) -> None:
        """Analyses on ``workers`` processes (:func:`default_workers` by default), in a pool
        made by ``make_pool`` (a :func:`forage.ai.workers.worker_pool` a little below the
        screen's priority by default; a test may give any executor)."""
        self.workers = workers or default_workers()
        self._make_pool = make_pool or _nice_pool
        self._pool: Executor | None = None
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._handing: threading.Thread | None = None
        self._waiting: list[tuple[int, int, _Waiting]] = []
        self._order = itertools.count()
        self._running: dict[Priority, int] = dict.fromkeys(Priority, 0)
        self._known: OrderedDict[str, _Waiting] = OrderedDict()
        self._closed = False
        self.problem: str | None = None
        """Why the last task that failed for the machine's sake failed, in a few words."""

    # -- asking -------------------------------------------------------------------------------

    def run(self, priority: Priority, task: Task) -> Future[Any]:
        """Work a task out in a worker process, once for its key: asked again (at any
        priority, from any thread) while waiting, running or done, the same future comes
        back, and a waiting one is moved up to the higher priority."""
        with self._lock:
            known = self._known.get(task.key)
            if known is not None and not known.future.cancelled():
                self._known.move_to_end(task.key)
                if not known.started and priority < known.priority:
                    known.priority = priority
                    self._queue(known)
                return known.future
            waiting = _Waiting(priority, task.work, task.args, Future(), task.key)
            self._known[task.key] = waiting
            while len(self._known) > REMEMBERED:
                self._known.popitem(last=False)
            self._queue(waiting)
            return waiting.future

    def submit(self, priority: Priority, work: Callable[..., T], *args: Any) -> Future[T]:
        """Work ``work(*args)`` out in a worker process (no key: every call runs)."""
        with self._lock:
            waiting = _Waiting(priority, work, args, Future())
            self._queue(waiting)
            return waiting.future

    def runner(self, priority: Priority) -> AnalysisRunner:
        """Tasks at this priority, as :func:`forage.ai.review.review` runs them."""
        return AnalysisRunner(self, priority)

    def executor(self, priority: Priority) -> Executor:
        """Calls at this priority, as :func:`forage.ai.hint.hint` hands them out."""
        return AnalysisExecutor(self, priority)

    def drop(self, futures: Iterable[Future[Any]]) -> None:
        """No one waits for these any more: those not started are not run."""
        for future in futures:
            future.cancel()

    def close(self) -> None:
        """Drop the waiting tasks and end the workers, without waiting for them."""
        with self._changed:
            self._closed = True
            for _, _, waiting in self._waiting:
                waiting.future.cancel()
            self._waiting.clear()
            pool, self._pool = self._pool, None
            self._changed.notify()
        if pool is not None:
            from forage.ai.workers import stop_pool

            stop_pool(pool, finished=False)

    # -- handing out ----------------------------------------------------------------------------

    def _queue(self, waiting: _Waiting) -> None:
        """Put a task in line (under the lock) and wake the thread that hands tasks out;
        once closed, the task is dropped at once."""
        if self._closed:
            waiting.future.cancel()
            return
        heapq.heappush(self._waiting, (waiting.priority, next(self._order), waiting))
        if self._handing is None:
            self._handing = threading.Thread(target=self._hand_out, name="forage-analysis")
            self._handing.daemon = True
            self._handing.start()
        self._changed.notify()

    def _free(self, priority: Priority) -> bool:
        """Whether a task of this priority may start now (under the lock)."""
        busy = sum(self._running.values())
        if busy >= self.workers:
            return False
        return priority < Priority.LATER or self._running[Priority.LATER] < max(1, self.workers - 1)

    def _next(self) -> _Waiting | None:
        """The most wanted waiting task that may start now, taken out of line (under the
        lock); None if none may."""
        while self._waiting:
            priority, _, waiting = self._waiting[0]
            if waiting.started or priority != waiting.priority or waiting.future.cancelled():
                heapq.heappop(self._waiting)  # started, moved up, or no longer wanted
                continue
            if not self._free(waiting.priority):
                return None
            heapq.heappop(self._waiting)
            if waiting.future.set_running_or_notify_cancel():
                waiting.started = True
                self._running[waiting.priority] += 1
                return waiting
        return None

    def _hand_out(self) -> None:
        """On its own thread: start tasks in workers as they may start (starting the pool,
        and with it the worker processes, is never done on a screen's thread)."""
        from forage.ai.workers import POOL_ERRORS

        while True:
            with self._changed:
                waiting = self._next()
                while waiting is None and not self._closed:
                    self._changed.wait()
                    waiting = self._next()
                if self._closed:
                    return
                assert waiting is not None
                try:
                    if self._pool is None:
                        self._pool = self._make_pool(self.workers)
                    waiting.pool = self._pool
                    inner = self._pool.submit(waiting.work, *waiting.args)
                except POOL_ERRORS as error:
                    self._running[waiting.priority] -= 1
                    self._failed(waiting, error)
                    continue
            inner.add_done_callback(functools.partial(self._finished, waiting))

    def _failed(self, waiting: _Waiting, error: BaseException) -> None:
        """A task the machine could not run (no process could start, one died): the pool
        is let go, and made again for the next task (under the lock)."""
        from forage.ai.workers import pool_problem, stop_pool

        self.problem = pool_problem(error)
        if waiting.pool is not None and waiting.pool is self._pool:
            self._pool = None
            stop_pool(waiting.pool, finished=False)
        if waiting.key is not None and self._known.get(waiting.key) is waiting:
            del self._known[waiting.key]  # asked again, it is tried again
        with contextlib.suppress(Exception):
            waiting.future.set_exception(error)

    def _finished(self, waiting: _Waiting, done: Future[Any]) -> None:
        """A worker is done with a task (on the pool's own thread)."""
        from forage.ai.workers import POOL_ERRORS

        with self._changed:
            self._running[waiting.priority] -= 1
            error = done.exception()
            if error is not None and isinstance(error, POOL_ERRORS):
                self._failed(waiting, error)
            elif error is not None:
                waiting.future.set_exception(error)
            else:
                waiting.future.set_result(done.result())
            self._changed.notify()


class AnalysisRunner:
    """The app's analyses at one priority, as a :class:`forage.ai.workers.Runner`."""

    def __init__(self, analysis: Analysis, priority: Priority) -> None:
        """Tasks handed to ``analysis`` at ``priority``."""
        self.analysis = analysis
        self.priority = priority

    def start(self, task: Task) -> Future[Any]:
        """Hand a task over (or meet the same task asked before)."""
        return self.analysis.run(self.priority, task)

    def drop(self, futures: Iterable[Future[Any]]) -> None:
        """Those not started need not run."""
        self.analysis.drop(futures)


class AnalysisExecutor(Executor):
    """The app's analyses at one priority, as a :class:`concurrent.futures.Executor`."""

    def __init__(self, analysis: Analysis, priority: Priority) -> None:
        """Calls handed to ``analysis`` at ``priority``."""
        self.analysis = analysis
        self.priority = priority

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        """Hand a call over (keyword arguments are not taken)."""
        if kwargs:
            raise TypeError("analysis calls take positional arguments only")
        return self.analysis.submit(self.priority, fn, *args)


class Writes:
    """Files written in turn on a thread of their own, so that no key press waits for the
    disk: of the writes of one file still waiting, only the latest is made."""

    def __init__(self) -> None:
        """Writes to come (the thread starts with the first)."""
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()
        self._waiting: dict[str, Callable[[], object]] = {}

    def later(self, name: str, write: Callable[[], object]) -> Future[None]:
        """Make ``write`` (of the file ``name``) after every write asked before it, unless a
        later write of the same file comes first; done once it is made or dropped."""
        with self._lock:
            self._waiting[name] = write
            return self._started().submit(self._write, name)

    def done(self) -> Future[None]:
        """Done once every write asked so far is made (to await; :meth:`wait` blocks)."""
        with self._lock:
            if self._pool is None:  # none asked for yet: no thread to start
                nothing: Future[None] = Future()
                nothing.set_result(None)
                return nothing
            return self._pool.submit(lambda: None)

    def wait(self) -> None:
        """Block until every write asked so far is made."""
        self.done().result()

    def close(self) -> None:
        """Make every write asked so far, then end the thread."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True)

    def _started(self) -> ThreadPoolExecutor:
        """The writes' thread (started now if it was not; with the lock held)."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="saves")
        return self._pool

    def _write(self, name: str) -> None:
        """On the writes' thread: the latest write of ``name``, if one is still waiting."""
        with self._lock:
            write = self._waiting.pop(name, None)
        if write is not None:
            write()


class HistoryMemory:
    """The analyses kept in the history file, read and written on the history's thread (a
    :class:`forage.ai.memory.Memory` for work off the app's event loop: asked on it, it
    raises rather than hold the screen up)."""

    def __init__(self, recorder: Recorder) -> None:
        """The memory of the history ``recorder`` keeps."""
        self.recorder = recorder

    def remembered(self, kind: str, key: str) -> str | None:
        """The analysis kept under this key, or None (waits for the history's thread;
        RuntimeError on the app's event loop)."""
        if _on_event_loop():
            raise RuntimeError("the history's memory is read off the app's event loop only")
        recorder = self.recorder
        return recorder.later(lambda: recorder.history().analyses.remembered(kind, key)).result()

    def remember(self, kind: str, key: str, value: str) -> None:
        """Keep an analysis under this key (written in turn on the history's thread)."""
        recorder = self.recorder
        recorder.later(lambda: recorder.history().analyses.remember(kind, key, value))


class _Stopped(Exception):
    """Raised into work off the event loop that no one waits for any more."""


def _on_loop(callback: Callable[..., object]) -> Callable[..., None]:
    """``callback``, to be called from another thread and run on this event loop (not at
    all once the loop has closed)."""
    loop = asyncio.get_running_loop()

    def call(*args: object) -> None:
        with contextlib.suppress(RuntimeError):  # the loop has closed: the app is gone
            loop.call_soon_threadsafe(callback, *args)

    return call


async def _off_loop(work: Callable[[], T]) -> T:
    """What ``work`` gives, worked out on a thread of the event loop's (it runs to its end
    even if the awaiting task is cancelled: only its answer is dropped)."""
    return await asyncio.get_running_loop().run_in_executor(None, work)


def _on_event_loop() -> bool:
    """Whether the caller runs on an asyncio event loop (the app's, where nothing may block)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


@dataclass(frozen=True)
class FinishedGame:
    """What the history says of a finished game: whether it was stored (and as what), the
    achievements just unlocked, who played, the deal's scoreboard, its par (the one found,
    else the board's), the daily share line, and whether the board counts first games only
    (the daily deal)."""

    recorded: Recorded | None
    unlocked: tuple[Achievement, ...]
    player: str
    scoreboard: Scoreboard
    par: int | None
    share: str | None
    first_only: bool


def _finished_game(
    history: Recorder,
    session: Session,
    recorded: Recorded | None,
    unlocked: Iterable[Achievement],
    par: int | None,
) -> FinishedGame:
    """What the history says of a session's finished game (on the history's thread)."""
    board = history.scoreboard(session)
    par = par if par is not None else board.par
    return FinishedGame(
        recorded=recorded,
        unlocked=tuple(unlocked),
        player=history.player,
        scoreboard=board,
        par=par,
        share=history.share(session, par),
        first_only=history.is_daily(session),
    )


class Services:
    """What the app does off the key-press path: its history, its analyses and its room."""

    def __init__(
        self,
        history: Recorder | None = None,
        analysis: Analysis | None = None,
        room: RoomLink | None = None,
        room_link: Callable[[str], RoomLink] | None = None,
    ) -> None:
        """Services on this history (None: history off), these workers (made when first
        asked for) and the link to the room being played in, if one is open; ``room_link``
        makes the link to a server's rooms when one is asked for (a plain
        :class:`~forage.net.link.RoomLink` by default; tests may hand a fake)."""
        self.history = history
        self._analysis = analysis
        self.room = room
        """The link to the room the player is in (None: none): its state, its connection."""
        self._room_link = room_link
        self.writes = Writes()
        """The game's save and record, written off the key-press path."""

    @property
    def analysis(self) -> Analysis:
        """The shared worker processes (none started until the first task)."""
        if self._analysis is None:
            self._analysis = Analysis()
        return self._analysis

    @property
    def keeps_history(self) -> bool:
        """Whether the app keeps a history (off: nothing is stored, nothing to show)."""
        return self.history is not None

    @property
    def memory(self) -> Memory | None:
        """Where analyses are kept between runs (None with history off)."""
        return None if self.history is None else HistoryMemory(self.history)

    async def ask(self, work: Callable[[Recorder], T], default: T) -> T:
        """Run ``work`` with the history on the history's thread and await what it gives
        (``default`` when history is off). The work is done even if the awaiting task is
        cancelled (its screen closed): what is to be stored is stored."""
        history = self.history
        if history is None:
            return default
        return await asyncio.shield(asyncio.wrap_future(history.later(lambda: work(history))))

    # -- the history, as the screens ask it ------------------------------------------------------

    async def open_history(self, kept: Sequence[Path]) -> None:
        """Open the history and store the finished games an earlier run kept, ``kept``."""
        await self.ask(lambda history: history.open_history(kept), None)

    async def player(self, default: str) -> str:
        """Who plays (``default`` when history is off)."""
        return await self.ask(lambda history: history.player, default)

    async def statistics(self) -> tuple[Statistics | None, dict[str, str]]:
        """The player's statistics (None when history is off) and achievements unlocked."""
        return await self.ask(lambda history: history.statistics(), (None, {}))

    async def stored_games(self, limit: int) -> list[StoredGame] | None:
        """Everyone's stored games, newest first, at most ``limit`` (None: history off)."""
        return await self.ask(lambda history: history.games(limit), None)

    async def known_par(self, deal: str) -> tuple[int, bool] | None:
        """A deal's par as the history knows it: (par, proven); None if it does not."""
        return await self.ask(lambda history: history.known_par(deal), None)

    async def keep_par(self, deal: str, found: ParResult) -> None:
        """Keep the par found for a deal, so it is known next time (and by the review)."""
        await self.ask(lambda history: history.keep_par(deal, found), None)

    async def record_finished(self, session: Session) -> FinishedGame | None:
        """Store a session's finished game (once for its key; its moves taken now); what
        the history says of it (None when history is off)."""
        key, data, kept = session.key, session.save_data(), session.finished_file

        def work(history: Recorder) -> FinishedGame:
            recorded = history.finished(key, data, kept)
            unlocked = recorded.achievements if recorded is not None else []
            return _finished_game(history, session, recorded, unlocked, None)

        return await self.ask(work, None)

    async def record_par(self, session: Session, par: int, proven: bool) -> FinishedGame | None:
        """Note the par found for a session's game as stored (after its
        :meth:`record_finished`); what the history says then, the achievements the par
        unlocks among it (None when history is off)."""

        def work(history: Recorder) -> FinishedGame:
            recorded = history.recorded(session.key)
            unlocked = history.set_par(recorded, par, proven) if recorded is not None else []
            return _finished_game(history, session, recorded, unlocked, par)

        return await self.ask(work, None)

    def has_recorded(self, session: Session) -> bool:
        """Whether the session's finished game is stored in the history."""
        return self.history is not None and self.history.has_recorded(session)

    def take_game(self, session: Session, replacing: Session | None = None) -> Session:
        """Mark a session as one the history records (its player, its daily date), the
        one it replaces, if begun and unfinished, recorded as abandoned; the session."""
        if self.history is None:
            return session
        if replacing is not None:
            self.history.replaced(replacing)
        return self.history.prepare(session)

    def take_name(self, name: str) -> None:
        """Play under ``name`` from now on, kept as the data folder's (stored in turn on the
        history's thread; nothing to await)."""
        history = self.history
        if history is not None:
            history.later(lambda: history.take_name(name))

    def daily_of(self, session: Session) -> date | None:
        """The date of the daily deal the session plays, if it plays the one this app was
        started for."""
        history = self.history
        return history.daily if history is not None and history.is_daily(session) else None

    async def record_room(self, key: object, game: Game, info: PlayInfo) -> Recorded | None:
        """Store a room's game (finished, or left before the room's end), once for ``key``;
        what was stored (None without a history, or a placement)."""
        return await self.ask(lambda history: history.record_room(key, game, info), None)

    async def puzzle_tried(self, puzzle: int) -> bool:
        """Whether the history holds the player's first try at a puzzle."""
        return await self.ask(lambda history: history.puzzle_tried(puzzle), False)

    async def record_puzzle(
        self, puzzle: int, rating: int, day: date, solved: bool
    ) -> PuzzleRecorded | None:
        """Store the player's first try at a puzzle; the figures after it (None: not
        stored, tried before or history off)."""
        return await self.ask(
            lambda history: history.record_puzzle(puzzle, rating, day, solved), None
        )

    # -- the analyses, as the screens ask them ----------------------------------------------------

    async def hint(self, game: Game, early: Callable[[Hint], object]) -> Hint | None:
        """The suggested placement for a game (a copy no one changes meanwhile): its look
        ahead on a thread of the app's, its play-outs in the workers before anything else.
        ``early`` is given the answer so far, on the app's event loop, as soon as there is
        one; a worker that failed raises as :data:`forage.ai.workers.POOL_ERRORS` say."""
        from forage.ai.hint import hint

        executor = self.analysis.executor(Priority.NOW)
        so_far = _on_loop(early)
        return await _off_loop(lambda: hint(game, early=so_far, executor=executor))

    async def review(
        self,
        start: Game,
        placements: Sequence[Placement],
        settings: ReviewSettings | None,
        processes: int,
        progress: Callable[[int, int], object],
        each: Callable[[MoveReview], object],
    ) -> Review:
        """The review of a game (:func:`forage.ai.review.review`) on a thread of the
        app's, its tasks in the shared workers (with ``processes`` 1, on that thread alone),
        a review kept in the history read back at once. ``progress`` (done, total) and
        ``each`` (a move's review) are called on the app's event loop as the review goes;
        cancelled, the review stops, its tasks not yet started dropped."""
        from forage.ai.review import review

        runner = self.analysis.runner(Priority.NOW) if processes > 1 else None
        memory = self.memory
        stopped = threading.Event()
        told, reached = _on_loop(progress), _on_loop(each)

        def going(done: int, total: int) -> None:
            if stopped.is_set():  # no one waits for it: stop, dropping the rest
                raise _Stopped
            told(done, total)

        def work() -> Review:
            return review(
                start,
                placements,
                settings,
                processes,
                going,
                memory,
                each=reached,
                runner=runner,
            )

        try:
            return await _off_loop(work)
        except asyncio.CancelledError:
            stopped.set()
            raise

    def think_ahead(self, game: Game, settings: ReviewSettings) -> None:
        """After a placement: work out, while the player thinks, the review of the move just
        made (and the deal's par, from the first move), so that the review is ready when the
        game ends."""
        from forage.ai.par import par_task
        from forage.ai.review import move_task, start_of

        if not game.moves:
            return
        start = start_of(game)
        if len(game.moves) == 1:
            self.analysis.run(Priority.LATER, par_task(start, settings.par_effort))
        index = len(game.moves) - 1
        self.analysis.run(Priority.LATER, move_task(start, game.moves, index, settings))

    def open_room(self, server: str) -> RoomLink:
        """A new link to the rooms of ``server`` (not yet open: create or join with it; it
        keeps its seat in the data folder), kept as the app's room in place of any before
        it (which is let go unclosed: close it first)."""
        if self._room_link is not None:
            link = self._room_link(server)
        else:
            from forage.net.link import RoomLink

            link = RoomLink(server, keep_seat=True)
        self.room = link
        return link

    async def close_room(self) -> None:
        """Close the link to the room, if one is open (on the app's event loop)."""
        link, self.room = self.room, None
        if link is not None:
            await link.close()

    def end_analyses(self) -> None:
        """Drop the analyses waiting and end the workers (the app is closing)."""
        if self._analysis is not None:
            self._analysis.close()

    def close(self) -> None:
        """End the analyses at once, then make the writes asked for and close the history."""
        self.end_analyses()
        self.writes.close()
        if self.history is not None:
            self.history.close()


def services_of(app: object) -> Services:
    """The app's services (every forage app has them: ``ForageBaseApp.services``)."""
    found = getattr(app, "services", None)
    if not isinstance(found, Services):
        raise TypeError(f"{type(app).__name__} has no forage services")
    return found
