"""How the rooms server waits on its database without making anyone else wait.

Every call on the store runs on a thread of the store's own (:class:`StoreThreads`), never on
the event loop: a lock held by another process, a full disk or a database that went away
slows only the actions that need it. A call that fails for a cause that may pass (anything
but :class:`~forage.net.database.Conflict`) is tried again after a pause that doubles up to
:attr:`Patience.longest` (:func:`persist`); its cause is logged once, and once more when the
store works again (:class:`FaultLog`), not once a message.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Final, ParamSpec, TypeVar

from forage.net.database import Conflict, StoreFault

log: Final = logging.getLogger("forage.rooms")

P = ParamSpec("P")
T = TypeVar("T")


@dataclass(frozen=True)
class Patience:
    """How long the server goes on trying to store a change, and when it says so."""

    first: float = 0.05
    """The pause after the first failure; each next pause is twice the last."""
    longest: float = 2.0
    """The longest pause between two tries."""
    busy_after: float = 2.0
    """After this long, the players waiting on a change are told the server is busy."""
    give_up: float = 120.0
    """After this long, an action that needs the store is given up (its player told to try
    again; nothing was told of it). Changes already made in memory are tried for ever."""


class FaultLog:
    """The store's faults, logged once per cause (and once more when it works again)."""

    def __init__(self, logger: logging.Logger = log) -> None:
        """A log with no fault yet."""
        self._log = logger
        self._causes: set[str] = set()
        self._since: float | None = None

    @property
    def failing(self) -> bool:
        """Whether the store's last call failed."""
        return self._since is not None

    def failed(self, fault: StoreFault) -> None:
        """A call failed: log its cause if it is new."""
        if self._since is None:
            self._since = time.monotonic()
        cause = str(fault)
        if cause not in self._causes:
            self._causes.add(cause)
            self._log.error("forage serve: the database failed, trying again (%s)", cause)

    def worked(self) -> None:
        """A call worked: say so if calls were failing."""
        if self._since is None:
            return
        seconds = time.monotonic() - self._since
        self._log.warning("forage serve: the database works again (after %.1f s)", seconds)
        self._since = None
        self._causes.clear()


class StoreThreads:
    """The threads on which the store's calls run: ``writers`` for changes (one for SQLite's
    single writer), one more for reads that no change waits on (the leaderboard)."""

    def __init__(self, writers: int = 1) -> None:
        """Threads not yet started (each starts with its first call)."""
        self._write = ThreadPoolExecutor(writers, thread_name_prefix="forage-store")
        self._read = ThreadPoolExecutor(1, thread_name_prefix="forage-store-read")

    async def write(self, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run a call on a writing thread; its result, or its error."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._write, functools.partial(call, *args, **kwargs))

    async def read(self, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run a call that only reads on the reading thread; its result, or its error."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._read, functools.partial(call, *args, **kwargs))

    def close(self) -> None:
        """Let the calls under way finish, then stop the threads."""
        self._write.shutdown(wait=True)
        self._read.shutdown(wait=True)


async def persist(
    attempt: Callable[[], Awaitable[T]],
    faults: FaultLog,
    patience: Patience,
    *,
    busy: Callable[[], None] | None = None,
    forever: bool = False,
    stopping: Callable[[], bool] = lambda: False,
) -> T:
    """The result of ``attempt()``, tried again after each StoreFault but Conflict (raised
    at once) until it works, or for :attr:`Patience.give_up` unless ``forever`` (then the
    last fault is raised); ``busy()`` once it has taken :attr:`Patience.busy_after`. A
    ``stopping()`` server tries once more at most."""
    started = time.monotonic()
    pause = patience.first
    told = False

    def once() -> None:
        nonlocal told
        if busy is not None and not told:
            told = True
            busy()

    while True:
        try:
            result = await _told_when_slow(attempt(), patience, None if busy is None else once)
        except Conflict:
            faults.worked()
            raise
        except StoreFault as fault:
            faults.failed(fault)
            waited = time.monotonic() - started
            if stopping() or (not forever and waited + pause > patience.give_up):
                raise
            if waited + pause >= patience.busy_after:
                once()
            await asyncio.sleep(pause)
            pause = min(pause * 2, patience.longest)
            continue
        faults.worked()
        return result


async def _told_when_slow(
    call: Awaitable[T], patience: Patience, busy: Callable[[], None] | None
) -> T:
    """A call's result; ``busy()`` if it takes :attr:`Patience.busy_after` or more (a
    statement waiting on a lock)."""
    if busy is None:
        return await call
    timer = asyncio.get_running_loop().call_later(patience.busy_after, busy)
    try:
        return await call
    finally:
        timer.cancel()
