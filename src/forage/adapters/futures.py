"""concurrent.futures: ending a process pool's running workers (public from Python 3.14)."""

from __future__ import annotations

import threading
from concurrent.futures import Executor
from dataclasses import dataclass
from multiprocessing.process import BaseProcess


def running_workers(pool: Executor) -> list[BaseProcess]:
    """The worker processes a pool has started and not yet reaped (none known where the
    pool no longer keeps them as it did: ``tests/test_adapters.py`` says so by name)."""
    found = getattr(pool, "_processes", None)  # the pool's own map of pid to process
    if not isinstance(found, dict):
        return []
    return [process for process in found.values() if isinstance(process, BaseProcess)]


def manager_thread(pool: Executor) -> threading.Thread | None:
    """The thread a process pool hands work out and takes results back on, while it runs
    (none for a pool that has not started one, or no longer keeps it where it did)."""
    found = getattr(pool, "_executor_manager_thread", None)
    return found if isinstance(found, threading.Thread) else None


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
    _ENDED.append(_Ended(pool, manager_thread(pool)))
    pool.shutdown(wait=False)


def settle_ended_pools() -> None:
    """Wait until every pool ended by :func:`end_running_workers` has finished failing its
    tasks and closed its pipes: called once the program's work is done, before it exits."""
    while _ENDED:
        ended = _ENDED.pop()
        if ended.manager is not None and ended.manager is not threading.current_thread():
            ended.manager.join()


@dataclass(frozen=True)
class _Ended:
    """A pool whose workers were terminated, and the thread that is failing its tasks."""

    pool: Executor
    manager: threading.Thread | None


_ENDED: list[_Ended] = []
"""Pools ended by terminating their workers, kept until :func:`settle_ended_pools`.

Two faults of Python's own are kept clear so. Python 3.13.0 deadlocks when such a pool is
collected while its manager thread marks it broken (the collection's callback takes the lock
that thread holds), and the program never exits. Python 3.12.1's exit wakes every manager
thread without the lock that thread closes its pipe under, and so may write to a closed pipe
(``OSError: [Errno 9]``, printed as the program ends) unless those threads have ended first.
"""
