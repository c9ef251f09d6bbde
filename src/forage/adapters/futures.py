"""concurrent.futures: ending a process pool's running workers (public from Python 3.14)."""

from __future__ import annotations

from concurrent.futures import Executor
from multiprocessing.process import BaseProcess


def running_workers(pool: Executor) -> list[BaseProcess]:
    """The worker processes a pool has started and not yet reaped (none known where the
    pool no longer keeps them as it did: ``tests/test_adapters.py`` says so by name)."""
    found = getattr(pool, "_processes", None)  # the pool's own map of pid to process
    if not isinstance(found, dict):
        return []
    return [process for process in found.values() if isinstance(process, BaseProcess)]


def end_running_workers(pool: Executor) -> None:
    """Shut a pool down at once: terminate its workers without waiting for their tasks;
    every task not done fails (``BrokenProcessPool``) rather than running."""
    public = getattr(pool, "terminate_workers", None)  # Python 3.14 and later
    if callable(public):
        public()
        return
    # Workers first: the pool then fails its tasks itself. Cancelling them as well races
    # with that failing (Python 3.11's pool then fails a cancelled task, and says so).
    for process in running_workers(pool):
        process.terminate()
    _ENDED.append(pool)
    pool.shutdown(wait=False)


_ENDED: list[Executor] = []
"""Pools ended by terminating their workers, kept for the life of the process: Python 3.13.0
deadlocks when such a pool is collected while its manager thread marks it broken (the
collection's callback takes the lock that thread holds), and the program then never exits."""
