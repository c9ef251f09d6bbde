"""``forage serve``: the game in a web browser, one game per browser tab.

textual-serve runs ``python -m forage play`` for each tab that connects and draws its
screen in the page. It is imported only here, when serving, so the terminal game and the
headless commands never load it.
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import ipaddress
import logging
import os
import shlex
import socket
import subprocess
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from forage.cli.errors import BadInput

if TYPE_CHECKING:
    from textual_serve.server import Server


def port_number(text: str) -> int:
    """The --port value as a TCP port (1-65535), or BadInput naming the problem."""
    try:
        port = int(text)
    except ValueError:
        raise BadInput(f"--port: not a whole number: {text!r}") from None
    if not 1 <= port <= 65535:
        raise BadInput(f"--port: must be from 1 to 65535, not {port}")
    return port


def addresses(host: str, port: int) -> list[str]:
    """The IP addresses the server would listen on for --host, or BadInput."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError):
        raise BadInput(f"--host: no such address: {host!r}") from None
    return sorted({str(info[4][0]) for info in found})


def exposed(host: str, port: int) -> list[str]:
    """The addresses of --host that other computers may reach (not 127.0.0.0/8 or ::1)."""
    return [
        address
        for address in addresses(host, port)
        if not ipaddress.ip_address(address.split("%")[0]).is_loopback
    ]


def check_free(host: str, port: int) -> None:
    """BadInput, in one line, if the server could not listen on host:port."""
    for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE):
        family, kind, proto, _, where = info
        with socket.socket(family, kind, proto) as probe:
            # As the server itself binds: a port in TIME_WAIT is free, a listening one is not.
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(where)
            except OSError as exc:
                raise BadInput(bind_problem(host, port, exc)) from None


def bind_problem(host: str, port: int, exc: OSError) -> str:
    """The one-line message for a failure to listen on host:port."""
    if exc.errno == errno.EADDRINUSE:
        return f"--port: {port} is in use on {host} (choose another with --port)"
    if exc.errno == errno.EACCES:
        return f"--port: not allowed to listen on port {port} (try a port above 1023)"
    if exc.errno == errno.EADDRNOTAVAIL:
        return f"--host: {host} is not an address of this computer"
    return f"cannot listen on {host}:{port} ({exc.strerror or exc})"


def page_address(host: str, port: int) -> str:
    """The address to open in a browser on this computer."""
    shown = host
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        pass
    else:
        if ip.is_unspecified:
            shown = "127.0.0.1" if ip.version == 4 else "[::1]"
        elif ip.version == 6:
            shown = f"[{host}]"
    return f"http://{shown}:{port}"


def game_command() -> str:
    """The shell command each browser tab runs: this Python's ``forage play``."""
    words = [sys.executable, "-m", "forage", "play"]
    return subprocess.list2cmdline(words) if os.name == "nt" else shlex.join(words)


def local_names(host: str, port: int) -> frozenset[str] | None:
    """The Host headers a loopback-only server answers (None: any, when it is exposed).

    Refusing other names keeps web pages from reaching the game through a name of their
    own that they point at 127.0.0.1 (DNS rebinding).
    """
    if exposed(host, port):
        return None
    names = {"localhost", "127.0.0.1", "[::1]", f"[{host}]" if ":" in host else host}
    return frozenset(name.lower() for name in names) | frozenset(
        f"{name.lower()}:{port}" for name in names
    )


def refusal(headers: Mapping[str, str], names: frozenset[str] | None) -> str | None:
    """Why a request may not reach the game, or None: a foreign Host or Origin."""
    host = headers.get("Host", "").lower()
    if names is not None and host not in names:
        return f"unknown host {host!r}: open the game as localhost or 127.0.0.1"
    origin = headers.get("Origin")
    if origin is not None and urlsplit(origin).netloc.lower() != host:
        return "the game can be played only from its own page"
    return None


def serve_command(args: argparse.Namespace) -> int:
    """Serve the game to web browsers until ctrl+c."""
    host: str = args.host
    port = port_number(args.port)
    open_to = exposed(host, port)
    check_free(host, port)
    server = _make_server(host, port, local_names(host, port))
    print(f"forage: serving the game at {page_address(host, port)} — open it in a web browser")
    if open_to:
        print(
            f"forage: warning: listening on {', '.join(open_to)}: anyone who can reach this "
            f"computer on port {port} can play, and each game runs here",
            file=sys.stderr,
        )
    print("forage: each browser tab is its own game; ctrl+c stops the server", flush=True)
    try:
        server.serve()
    except OSError as exc:  # lost a race for the port after check_free
        raise BadInput(bind_problem(host, port, exc)) from None
    return 0


def _make_server(host: str, port: int, names: frozenset[str] | None) -> Server:
    """A textual-serve server for the game whose page follows the address the browser used.

    Requests with a Host not in ``names`` (unless None), or from another site's page, are
    refused with 403.
    """
    from aiohttp import web
    from textual_serve.server import Server

    def check(request: web.Request) -> None:
        reason = refusal(request.headers, names)
        if reason is not None:
            raise web.HTTPForbidden(text=f"forage: {reason}\n")

    class GameServer(Server):
        """textual-serve, quieter, with page addresses taken from each request."""

        def __init__(self) -> None:
            super().__init__(game_command(), host=host, port=port, title="Forage")
            self.tabs: set[asyncio.Task[object]] = set()

        def initialize_logging(self) -> None:
            """Log problems, not every request."""
            super().initialize_logging()
            logging.getLogger("aiohttp.access").setLevel(logging.WARNING)

        async def on_startup(self, app: web.Application) -> None:
            """Print nothing: serve_command has said where to go."""

        async def on_shutdown(self, app: web.Application) -> None:
            """Tell the games of open tabs to quit, rather than wait for the tabs to close."""
            for tab in self.tabs:
                tab.cancel()

        async def handle_index(self, request: web.Request) -> web.StreamResponse:
            """The page, its links and websocket pointing where this browser reached us."""
            check(request)
            # Set and used with no await between, so concurrent requests cannot mix.
            self.public_url = f"{request.scheme}://{request.host}"
            response: web.StreamResponse = await super().handle_index(request)
            return response

        async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
            """A game for this tab, if the tab is the game's own page."""
            check(request)
            tab = asyncio.current_task()
            if tab is not None:
                self.tabs.add(tab)
            try:
                # Cancelled on shutdown, textual-serve closes the tab and quits its game.
                return await super().handle_websocket(request)
            finally:
                self.tabs.discard(tab)

    return GameServer()
