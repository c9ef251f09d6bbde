"""A client's connection as the rooms service sees it (:class:`Peer`), and the websocket
close codes the service closes one with."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Final

NORMAL: Final = 1000
GOING_AWAY: Final = 1001
POLICY_VIOLATION: Final = 1008
TOO_BIG: Final = 1009
"""Websocket close codes (RFC 6455): a normal close, the server stopping, a limit broken,
a message too large."""
TRY_AGAIN_LATER: Final = 1013
"""The close code of a connection whose action waited on the database for too long
(nothing was told of it): connect again and send it again."""


class Peer(ABC):
    """A client's connection as the service sees it: whom its limits count, where it plays,
    and how it is told and closed."""

    def __init__(self, address: str, local: bool) -> None:
        """A connection from ``address`` (as :func:`~forage.net.admission.address_key`
        counts it); ``local``: from this computer."""
        self.address = address
        self.local = local
        self.room: str | None = None
        self.player: int | None = None
        self.closing = False
        """The connection is to close: nothing more is read from it or sent to it."""
        self.close_code = NORMAL
        self.failed = 0
        """How many times the client has failed to join."""
        self.asked = False
        """Whether the client has asked for a place in a room (create, join, rejoin, daily)."""

    @abstractmethod
    def put(self, text: str) -> None:
        """Send a message, after those sent before (a client that cannot take more is cut
        off)."""

    @abstractmethod
    async def close(self, code: int = NORMAL) -> None:
        """Close the connection, once what it was told has gone (a second call waits for
        the first)."""
