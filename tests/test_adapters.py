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


def test_aiohttps_site_still_keeps_its_runner_server_and_backlog_where_the_adapter_sets_them() -> (
    None
):
    import asyncio

    import aiohttp
    from aiohttp import web

    from forage.adapters.aiohttp import ProtocolSite

    async def scenario() -> None:
        async def page(request: web.Request) -> web.Response:
            return web.Response(text="here")

        app = web.Application()
        app.router.add_get("/", page)
        runner = web.AppRunner(app, handle_signals=False)
        await runner.setup()
        made: list[int] = []

        def wrap(server: web.Server) -> object:
            def protocol() -> object:
                made.append(1)
                return server()

            return protocol

        site = ProtocolSite(runner, "127.0.0.1", 0, wrap, 8)  # type: ignore[arg-type]
        for name in ("_runner", "_server", "_backlog"):
            assert hasattr(site, name), (
                f"aiohttp changed: BaseSite.{name} is gone (forage/adapters/aiohttp.py)"
            )
        await site.start()
        try:
            port = runner.addresses[0][1]
            async with (
                aiohttp.ClientSession() as session,
                session.get(f"http://127.0.0.1:{port}/") as answer,
            ):
                assert await answer.text() == "here"
            assert made, "the site's connections did not go through the adapter's protocol"
        finally:
            await runner.cleanup()

    asyncio.run(scenario())
