"""A server's address as people give it (``http://HOST:PORT``, ``https://HOST``,
``ws(s)://...`` or ``HOST:PORT``) and the addresses of its paths, web or websocket.

Only the standard library: the command line reads addresses without the network's libraries.
"""

from __future__ import annotations

from typing import Final, NamedTuple
from urllib.parse import urlsplit, urlunsplit

SECURE: Final = {"http": False, "ws": False, "https": True, "wss": True}
"""The schemes a server's address may have, and whether each is over TLS."""


class ServerAddress(NamedTuple):
    """A server's address, read: over TLS or not, its host (and port), its own path and query."""

    secure: bool
    host: str
    path: str
    query: str

    def url(self, path: str, query: str = "", websocket: bool = False) -> str:
        """The address of ``path`` (with ``query``) on this server: ws(s) for a
        ``websocket``, else http(s)."""
        scheme = (
            ("wss" if self.secure else "ws") if websocket else "https" if self.secure else "http"
        )
        return urlunsplit((scheme, self.host, path, query, ""))


def server_address(server: str) -> ServerAddress:
    """The address of a server as given (``http`` where no scheme is given); ValueError for
    anything but an http(s) or ws(s) address with a host."""
    parts = urlsplit(server if "://" in server else f"http://{server}")
    if parts.scheme not in SECURE or not parts.netloc:
        raise ValueError(f"not a server address: {server!r}")
    return ServerAddress(SECURE[parts.scheme], parts.netloc, parts.path, parts.query)


def server_url(server: str, path: str, query: str = "", websocket: bool = False) -> str:
    """The address of ``path`` (with ``query``) on a server given as people give it
    (:func:`server_address`); ValueError for what is not a server's address."""
    return server_address(server).url(path, query, websocket)
