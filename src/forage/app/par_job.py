"""The deal's par, worked out in a worker process so the screen never waits on it.

The search runs in a :func:`forage.ai.workers.worker_pool` of one process. Par is the same
on every machine, so the end screen shows what ``forage par`` says.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import TimeoutError as WaitedTooLong
from typing import TYPE_CHECKING, Final

from forage.ai.workers import POOL_ERRORS, pool_problem, stop_pool, worker_pool

if TYPE_CHECKING:
    from forage.ai.par import ParResult

POLL_SECONDS: Final = 0.1
"""How often a wait for par looks whether it has been cancelled."""


def deal_par(code: str) -> ParResult:
    """In the worker: the par of a deal code on the built-in deck."""
    from forage.ai.par import par
    from forage.carddata import standard_deck
    from forage.engine import Deal, Game

    return par(Game(Deal.from_code(code), standard_deck()))


class ParJob:
    """A par search of a deal (built-in deck) running in its own worker process."""

    def __init__(self, code: str) -> None:
        """Start searching the deal with this code."""
        self.problem: str | None = None
        """Why the search gave no par, if it failed (see :func:`pool_problem`)."""
        pool = None
        try:  # the worker process starts with the first task
            pool = worker_pool(1)
            self._future = pool.submit(deal_par, code)
        except POOL_ERRORS as error:
            self.problem = pool_problem(error)
            if pool is not None:
                stop_pool(pool, finished=False)
        self._pool = pool

    def wait(self, cancelled: Callable[[], bool]) -> ParResult | None:
        """Block until the search ends (its par), fails (None, and :attr:`problem` says why)
        or is cancelled (None)."""
        if self.problem is not None:
            return None
        while True:
            if cancelled():
                self.stop()
                return None
            try:
                found = self._future.result(timeout=POLL_SECONDS)
            except WaitedTooLong:
                continue
            except Exception as error:  # the worker died or the search failed: no par
                self.problem = pool_problem(error)
                found = None
            assert self._pool is not None  # made, or the search failed at once
            stop_pool(self._pool)
            return found

    def stop(self) -> None:
        """End the search if it is still running."""
        if self._pool is not None and self.problem is None:
            stop_pool(self._pool, finished=self._future.done())
