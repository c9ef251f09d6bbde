"""Worker processes for the analyses: one way to start a pool of them and one to stop it.

The hint, the review, ``forage bot`` and the end screen's par all hand their work to a
:func:`worker_pool`. Workers are fresh interpreters (``spawn``) unless the caller runs no
threads and asks for forked ones, which start at once and share the parent's memory:
forking a process that runs threads (a screen, a progress bar) can copy a lock one of
them holds.
"""

from __future__ import annotations

import multiprocessing
import sys
from concurrent.futures import BrokenExecutor, ProcessPoolExecutor
from multiprocessing import resource_tracker

POOL_ERRORS = (BrokenExecutor, OSError)
"""What work handed to a pool raises when its processes cannot start or end unexpectedly
(killed, out of memory): the machine's doing, not the work's."""


def worker_pool(workers: int, fork: bool = False) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes: forked where asked and the system can fork, else
    fresh interpreters, which can start even under a Textual app.

    The app swaps ``sys.stderr`` for a capture whose ``fileno()`` is -1, and the
    multiprocessing resource tracker, started with the first spawned worker, would pass
    that on as a file to keep open and fail ("bad value(s) in fds_to_keep"). So the
    tracker is started first, with the real stderr.
    """
    if fork and "fork" in multiprocessing.get_all_start_methods():
        return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"))
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
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))


def stop_pool(pool: ProcessPoolExecutor, finished: bool = True) -> None:
    """Shut a pool down; unless its work is ``finished``, drop the tasks not started and
    end the ones running, so that leaving (a screen, the program) never waits for them."""
    if finished:
        pool.shutdown(wait=True)
        return
    # There is no public way to end the running workers before Python 3.14.
    running = list(getattr(pool, "_processes", {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in running:
        process.terminate()


def pool_problem(error: BaseException) -> str:
    """A few words on why work handed to a pool did not come back."""
    if isinstance(error, OSError):
        return f"no worker process could start ({error.strerror or error})"
    if isinstance(error, BrokenExecutor):
        return "its worker process ended unexpectedly"
    return f"it failed ({type(error).__name__}: {error})"
