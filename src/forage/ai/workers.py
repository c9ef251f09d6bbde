"""Worker processes for the analyses: one way to start a pool of them and one to stop it.

The hint, the review, ``forage bot`` and the end screen's par all hand their work to a
:func:`worker_pool`. How its workers start (:func:`start_method`):

- ``fork`` only while this process runs no other thread: the workers are forked at once,
  before the pool starts its own threads, and share the parent's memory. Forking a process
  that runs threads (a screen, a progress bar) can copy a lock one of them holds, and the
  child deadlocks on it;
- else ``forkserver``: a clean server process, started once with the analyses' modules
  loaded, forks each worker;
- else (no fork on this system) ``spawn``: a fresh interpreter a worker.

Every worker leaves Ctrl+C to the program (which stops the pool), and ends by itself within
a second of the program ending however it ended (even killed with SIGKILL), so that no
worker, resource tracker or semaphore outlives it.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import BrokenExecutor, Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from multiprocessing import resource_tracker
from typing import Any, Final, NamedTuple, Protocol

from forage.adapters.futures import end_running_workers
from forage.i18n import _

POOL_ERRORS = (BrokenExecutor, OSError)
"""What work handed to a pool raises when its processes cannot start or end unexpectedly
(killed, out of memory): the machine's doing, not the work's."""


class Task(NamedTuple):
    """A piece of analysis for a worker process: a key naming everything that decides its
    result (the same key, the same result), and the call that works it out."""

    key: str
    work: Callable[..., Any]
    args: tuple[Any, ...]


class Runner(Protocol):
    """Where analysis tasks run (a pool of this program's, the app's shared workers)."""

    def start(self, task: Task) -> Future[Any]:
        """Hand a task over; its result comes in the future given back."""
        ...

    def drop(self, futures: Iterable[Future[Any]]) -> None:
        """The caller no longer waits for these tasks: those not started need not run."""
        ...


class PoolRunner:
    """Runs tasks in a :func:`worker_pool` as they come."""

    def __init__(self, pool: ProcessPoolExecutor) -> None:
        """A runner handing tasks to ``pool``."""
        self.pool = pool

    def start(self, task: Task) -> Future[Any]:
        """Hand a task to the pool."""
        return self.pool.submit(task.work, *task.args)

    def drop(self, futures: Iterable[Future[Any]]) -> None:
        """Nothing: the pool's owner ends it (cancelling its tasks as well would race with
        the pool failing them, see :func:`forage.adapters.futures.end_running_workers`)."""


PRELOADED: Final = ("forage.ai.review", "forage.ai.games", "forage.ai.hint", "forage.ai.par")
"""The modules the fork server loads once, so that each worker it forks starts ready."""
WATCH_SECONDS: Final = 0.5
"""How often a worker looks whether the program that started it is still there."""


def start_method() -> str:
    """How the next pool's workers start: ``fork`` while this is the only thread and the
    system forks, else ``forkserver`` where there is one, else ``spawn``."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


def worker_pool(workers: int, nice: int = 0) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes, started as :func:`start_method` says; with ``nice``,
    each worker runs that much below this program's priority (so that a screen stays quick
    while they work).

    The app swaps ``sys.stderr`` for a capture whose ``fileno()`` is -1, and the
    multiprocessing resource tracker, started with the first spawned worker, would pass
    that on as a file to keep open and fail ("bad value(s) in fds_to_keep"). So the
    tracker is started first, with the real stderr.
    """
    method = start_method()
    context = multiprocessing.get_context(method)
    if method == "fork":
        pool = ProcessPoolExecutor(workers, context, _start_worker, (os.getpid(), nice))
        # A forked pool forks all its workers at its first task, before its own threads:
        # hand it one now, while this is still the only thread.
        pool.submit(os.getpid).result()
        return pool
    if method == "forkserver":
        context.set_forkserver_preload(list(PRELOADED))
    _start_resource_tracker()
    return ProcessPoolExecutor(workers, context, _start_worker, (os.getpid(), nice))


def _start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker with a real stderr (see worker_pool)."""
    stream = sys.stderr
    try:
        captured = stream is not None and stream.fileno() < 0
    except (OSError, ValueError):
        captured = False
    if captured:
        sys.stderr = sys.__stderr__
        try:
            resource_tracker.ensure_running()
        finally:
            sys.stderr = stream


def _start_worker(program: int, nice: int = 0) -> None:
    """In each worker as it starts: leave Ctrl+C to ``program`` (the process that made the
    pool), and end when it has ended; run ``nice`` below its priority."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if nice and hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(nice)
    watch = threading.Thread(target=_end_with, args=(program,), name="forage-watch", daemon=True)
    watch.start()


def _end_with(program: int) -> None:
    """Wait for the program that made this worker's pool to end, then end this worker.

    The program's end is seen on the pipe multiprocessing keeps from it to each worker
    (closed by the system whenever the program ends), or where a sibling shares that pipe
    (forked workers), by this worker being handed to another parent.
    """
    parent = multiprocessing.parent_process()
    sentinel = None if parent is None else parent.sentinel
    forked_by = os.getppid()
    while True:
        if sentinel is not None:
            if multiprocessing.connection.wait([sentinel], WATCH_SECONDS):
                break
        else:
            threading.Event().wait(WATCH_SECONDS)
        if os.getppid() != forked_by:
            break
    os._exit(0)


@contextmanager
def pooled(workers: int) -> Iterator[ProcessPoolExecutor]:
    """A :func:`worker_pool` for the length of a block: shut down when the block ends,
    at once (its unfinished tasks dropped, its running workers ended) if it ends on an
    exception, Ctrl+C among them."""
    pool = worker_pool(workers)
    try:
        yield pool
    except BaseException:
        stop_pool(pool, finished=False)
        raise
    stop_pool(pool)


def stop_pool(pool: Executor, finished: bool = True) -> None:
    """Shut a pool down; unless its work is ``finished``, drop the tasks not started and
    end the ones running, so that leaving (a screen, the program) never waits for them."""
    if finished:
        pool.shutdown(wait=True)
        return
    end_running_workers(pool)


def end_workers() -> None:
    """End every worker process this program has started and not yet stopped (the pools
    of screens left running when the program stops), without waiting for their work."""
    for process in multiprocessing.active_children():
        process.terminate()


def pool_problem(error: BaseException) -> str:
    """A few words on why work handed to a pool did not come back."""
    if isinstance(error, OSError):
        return _("no worker process could start ({reason})").format(reason=error.strerror or error)
    if isinstance(error, BrokenExecutor):
        return _("its worker process ended unexpectedly")
    return _("it failed ({kind}: {error})").format(kind=type(error).__name__, error=error)
