"""Every use of textual-serve's private names, in one place.

textual-serve (1.x) gives no public way to reach a tab's game process, nor to build its
aiohttp application without serving it at once; ``forage serve`` needs both. Nothing else in
forage touches a private name of textual-serve: ``tests/test_adapter_textual_serve.py`` checks that
these still exist as used here, and says which one is gone after an upgrade.
"""

from __future__ import annotations

from asyncio.subprocess import Process
from typing import Final

from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server

PRIVATE_NAMES: Final = (
    ("textual_serve.server.Server", "_make_app"),
    ("textual_serve.app_service.AppService", "_process"),
)
"""The private names of textual-serve this module uses: (the class, the name)."""


class ServerBase(Server):
    """textual-serve's server, its aiohttp application reachable before serving."""

    async def web_app(self) -> web.Application:
        """The aiohttp application: textual-serve's routes (the page, ``/ws``, downloads,
        static files) and its start-up and shut-down hooks."""
        app: web.Application = await self._make_app()
        return app


def game_process(game: AppService) -> Process | None:
    """The process of a tab's game (None before it has started)."""
    return game._process
