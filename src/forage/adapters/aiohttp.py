"""aiohttp: a TCP site whose connections go through a protocol of forage's own (aiohttp's
sites take no protocol factory).

:class:`ProtocolSite` sets the listening server as :class:`aiohttp.web.BaseSite` keeps it
(``_runner``, ``_server``, ``_backlog``), so that the runner stops it as its own;
``tests/test_adapters.py`` fails by name if a release moves them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from aiohttp import web

ProtocolFactory = Callable[[web.Server], Callable[[], asyncio.BaseProtocol]]
"""Given aiohttp's request handler factory, the factory of the connections' protocols."""


class ProtocolSite(web.BaseSite):
    """aiohttp's TCP site, each connection's protocol made by ``wrap(handler factory)``."""

    def __init__(
        self,
        runner: web.BaseRunner,
        host: str,
        port: int,
        wrap: ProtocolFactory,
        backlog: int,
    ) -> None:
        """A site for ``runner`` on host:port."""
        super().__init__(runner, backlog=backlog)
        self.host = host
        self.port = port
        self.wrap = wrap

    @property
    def name(self) -> str:
        """The site's address."""
        return f"http://{self.host}:{self.port}"

    async def start(self) -> None:
        """Listen."""
        await super().start()
        server = self._runner.server
        if server is None:
            raise RuntimeError("aiohttp changed: BaseSite._runner.server is not set up")
        self._server = await asyncio.get_running_loop().create_server(
            self.wrap(server), self.host, self.port, backlog=self._backlog
        )
