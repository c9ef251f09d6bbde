"""``forage serve``: the game in a web browser, one game per browser tab.

textual-serve runs ``python -m forage play`` for each tab that connects and draws its
screen in the page. It is imported only here, when serving, so the terminal game and the
headless commands never load it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import ipaddress
import json
import logging
import os
import shlex
import socket
import subprocess
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final
from urllib.parse import urlsplit

from forage.cli.errors import BadInput, shortened

if TYPE_CHECKING:
    from textual_serve.server import Server

    from forage.net.server import RoomServer


def whole_in_range(text: str, option: str, lowest: int, highest: int) -> int:
    """An option's value as a whole number from ``lowest`` to ``highest``, or BadInput
    naming the option and the problem."""
    try:
        value = int(text)
    except ValueError:
        raise BadInput(f"{option}: not a whole number: {shortened(text)!r}") from None
    if not lowest <= value <= highest:
        raise BadInput(f"{option}: must be from {lowest} to {highest}, not {value}")
    return value


def port_number(text: str) -> int:
    """The --port value as a TCP port (1-65535), or BadInput naming the problem."""
    return whole_in_range(text, "--port", 1, 65535)


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


HEARTBEAT_SECONDS: Final = 2.0
"""How often the server pings each tab: a tab gone without a word is noticed within about
this much again (aiohttp closes a websocket whose pong is late by half of it)."""
QUIT_SECONDS: Final = 2.0
"""How long a tab's game has to quit once its tab has closed, before it is terminated."""


def default_max_games() -> int:
    """How many games ``forage serve`` runs at once unless told: eight a core, 4 to 64."""
    return max(4, min(64, 8 * (os.cpu_count() or 1)))


def max_games_option(text: str) -> int:
    """The --max-games value: a whole number from 1 to 1000, or BadInput."""
    return whole_in_range(text, "--max-games", 1, 1000)


def game_command() -> str:
    """The shell command each browser tab runs: this Python's ``forage play`` (the shell
    replaced by it, so that stopping the game stops that process)."""
    words = [sys.executable, "-m", "forage", "play"]
    if os.name == "nt":
        return subprocess.list2cmdline(words)
    return "exec " + shlex.join(words)


def full_page(limit: int) -> str:
    """The page a browser gets when every game is taken."""
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>Forage: all games taken"
        "</title></head><body style='font-family: sans-serif; margin: 3em'>"
        f"<h1>All {limit} games are being played</h1>"
        "<p>This forage serves at most that many browser tabs at once. Close a tab that "
        "plays, or try again in a little while.</p></body></html>"
    )


def envelope_of(text: str) -> tuple[str, object] | None:
    """A websocket message from the page, ``["kind", data]``, or None if it is not one."""
    try:
        found = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(found, list) or not found or not isinstance(found[0], str):
        return None
    return found[0], found[1] if len(found) > 1 else None


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
    limit = default_max_games() if args.max_games is None else max_games_option(args.max_games)
    open_to = exposed(host, port)
    check_free(host, port)
    from forage.cli.serve_rooms import MOST_ROOMS, room_server

    most = args.max_rooms
    rooms = room_server(
        None if most is None else whole_in_range(most, "--max-rooms", 1, MOST_ROOMS)
    )
    server = _make_server(host, port, local_names(host, port), limit, rooms)
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


def _make_server(
    host: str,
    port: int,
    names: frozenset[str] | None,
    limit: int | None = None,
    rooms: RoomServer | None = None,
) -> Server:
    """A textual-serve server for the game whose page follows the address the browser used.

    Requests with a Host not in ``names`` (unless None), or from another site's page, are
    refused with 403; beyond ``limit`` games at once a new tab gets a page saying so (503).
    Each tab's game is sized within what forage draws, and ends within a few seconds of its
    tab closing, however it closed.
    """
    from aiohttp import WSMsgType, web
    from textual_serve.app_service import AppService
    from textual_serve.server import Server

    from forage.screen_size import clamp_size

    most = default_max_games() if limit is None else limit

    def check(request: web.Request) -> None:
        reason = refusal(request.headers, names)
        if reason is not None:
            raise web.HTTPForbidden(text=f"forage: {reason}\n")

    async def end_game(game: AppService) -> None:
        """Ask a tab's game to quit; terminate it if it has not within QUIT_SECONDS."""
        process = game._process  # textual-serve keeps the game's process here
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(game.stop(), QUIT_SECONDS)
        if process is None or process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            process.terminate()  # the game saves and exits 143
        try:
            await asyncio.wait_for(process.wait(), QUIT_SECONDS)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()

    class GameServer(Server):
        """textual-serve, quieter, with page addresses taken from each request."""

        def __init__(self) -> None:
            super().__init__(game_command(), host=host, port=port, title="Forage")
            self.tabs: set[asyncio.Task[object]] = set()
            self.games: set[AppService] = set()

        async def _make_app(self) -> web.Application:
            """textual-serve's application, with the rooms at ``/play`` (same checks)."""
            app: web.Application = await super()._make_app()
            if rooms is not None:
                rooms.attach(app, check)
            return app

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
            if len(self.games) >= most:
                return web.Response(status=503, text=full_page(most), content_type="text/html")
            # Set and used with no await between, so concurrent requests cannot mix.
            self.public_url = f"{request.scheme}://{request.host}"
            response: web.StreamResponse = await super().handle_index(request)
            return response

        async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
            """A game for this tab, if the tab is the game's own page and a game is free."""
            check(request)
            if len(self.games) >= most:
                raise web.HTTPServiceUnavailable(text=f"forage: all {most} games are taken\n")
            columns, rows = clamp_size(request.query.get("width"), request.query.get("height"))
            websocket = web.WebSocketResponse(heartbeat=HEARTBEAT_SECONDS)

            async def close() -> None:
                await websocket.close()

            game = AppService(
                self.command,
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=close,
                download_manager=self.download_manager,
                debug=self.debug,
            )
            tab = asyncio.current_task()
            if tab is not None:
                self.tabs.add(tab)
            self.games.add(game)
            try:
                await websocket.prepare(request)
                await game.start(columns, rows)
                await self._process_messages(websocket, game)
            except asyncio.CancelledError:  # the server stopping: close the tab
                with contextlib.suppress(Exception):
                    await websocket.close()
            except Exception as error:  # a tab gone mid-write, and the like
                logging.getLogger("forage.serve").debug("tab closed: %r", error)
            finally:
                self.games.discard(game)
                if tab is not None:
                    self.tabs.discard(tab)
                await asyncio.shield(end_game(game))
            return websocket

        async def _process_messages(
            self, websocket: web.WebSocketResponse, app_service: AppService
        ) -> None:
            """Pass the page's keys, sizes (within what forage draws), focus and pings on;
            anything else, or anything malformed, is dropped."""
            async for message in websocket:
                if message.type != WSMsgType.TEXT:
                    continue
                envelope = envelope_of(message.data)
                if envelope is None:
                    continue
                kind, data = envelope
                if kind == "stdin" and isinstance(data, str):
                    await app_service.send_bytes(data.encode("utf-8", "replace"))
                elif kind == "resize" and isinstance(data, dict):
                    columns, rows = clamp_size(data.get("width"), data.get("height"))
                    await app_service.set_terminal_size(columns, rows)
                elif kind == "ping":
                    await websocket.send_json(["pong", data])
                elif kind == "blur":
                    await app_service.blur()
                elif kind == "focus":
                    await app_service.focus()

    return GameServer()
