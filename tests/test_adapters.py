"""The private names forage's adapters lean on are still where the adapters look.

Each test fails with a message naming the library, the name and the adapter, so that a new
release that moves one is caught here rather than by a player.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from multiprocessing.process import BaseProcess

from forage.adapters.futures import end_running_workers, running_workers


def test_a_process_pool_still_keeps_its_workers_where_the_adapter_looks() -> None:
    pool = ProcessPoolExecutor(1, mp_context=get_context("spawn"))
    try:
        pool.submit(os.getpid).result(timeout=60)
        kept = getattr(pool, "_processes", None)
        assert isinstance(kept, dict) and kept, (
            "concurrent.futures changed: ProcessPoolExecutor._processes is no longer the "
            "map of its worker processes (forage/adapters/futures.py)"
        )
        assert all(isinstance(p, BaseProcess) for p in kept.values())
        assert running_workers(pool) == list(kept.values())
    finally:
        end_running_workers(pool)
