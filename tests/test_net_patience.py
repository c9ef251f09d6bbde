"""Waiting on the database (forage.net.patience): a failed call tried again until it works,
the slow told once, a conflict at once, a cause logged once however often it fails."""

from __future__ import annotations

import asyncio
import logging

import pytest

from forage.net.database import Conflict, StoreFault
from forage.net.patience import FaultLog, Patience, StoreThreads, persist

QUICK = Patience(first=0.001, longest=0.004, busy_after=0.02, give_up=5.0)


class Flaky:
    """A call that fails ``failures`` times with ``fault``, then answers ``done``."""

    def __init__(self, failures: int, fault: StoreFault) -> None:
        self.failures = failures
        self.fault = fault
        self.calls = 0

    async def __call__(self) -> str:
        self.calls += 1
        if self.calls <= self.failures:
            raise self.fault
        return "done"


def test_a_failing_call_is_tried_until_it_works_its_cause_logged_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    flaky = Flaky(40, StoreFault("server.sqlite3: database is locked"))
    busy: list[int] = []
    caplog.set_level(logging.WARNING, logger="forage.rooms")
    faults = FaultLog()
    done = asyncio.run(persist(flaky, faults, QUICK, busy=lambda: busy.append(1)))
    assert done == "done" and flaky.calls == 41
    assert busy == [1]  # told once that it is slow
    lines = [record.getMessage() for record in caplog.records]
    assert sum("database is locked" in line for line in lines) == 1
    assert sum("works again" in line for line in lines) == 1
    assert not faults.failing


def test_a_conflict_is_not_tried_again() -> None:
    flaky = Flaky(1, Conflict("a key written meanwhile"))
    with pytest.raises(Conflict):
        asyncio.run(persist(flaky, FaultLog(), QUICK))
    assert flaky.calls == 1


def test_an_action_is_given_up_after_a_while_and_a_stopping_server_tries_once() -> None:
    soon = Patience(first=0.001, longest=0.002, busy_after=1.0, give_up=0.05)
    flaky = Flaky(10**6, StoreFault("down"))
    with pytest.raises(StoreFault):
        asyncio.run(persist(flaky, FaultLog(), soon))
    assert 1 < flaky.calls < 10**6
    once = Flaky(10**6, StoreFault("down"))
    with pytest.raises(StoreFault):
        asyncio.run(persist(once, FaultLog(), soon, stopping=lambda: True))
    assert once.calls == 1


def test_a_slow_call_tells_the_waiting_while_it_runs() -> None:
    async def scenario() -> list[str]:
        said: list[str] = []
        release = asyncio.Event()

        async def slow() -> str:
            await release.wait()
            return "done"

        waiting = asyncio.create_task(
            persist(slow, FaultLog(), QUICK, busy=lambda: said.append("busy"))
        )
        while not said:  # told while the call still runs
            await asyncio.sleep(0.005)
        release.set()
        said.append(await waiting)
        return said

    assert asyncio.run(scenario()) == ["busy", "done"]


def test_the_store_threads_run_calls_off_the_event_loop() -> None:
    import threading

    async def scenario() -> tuple[str, str]:
        threads = StoreThreads(2)
        try:
            written = await threads.write(lambda: threading.current_thread().name)
            read = await threads.read(lambda: threading.current_thread().name)
        finally:
            threads.close()
        return written, read

    written, read = asyncio.run(scenario())
    assert written.startswith("forage-store") and read.startswith("forage-store-read")
    assert threading.current_thread().name not in (written, read)
