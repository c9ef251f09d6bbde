"""The web server of ``forage serve``: the game's page, and a game for each tab's websocket.

Imports aiohttp and textual-serve, so it is imported only when serving (by
:mod:`forage.cli.serve`). textual-serve's private names are used only through
:mod:`forage.adapters.textual_serve`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import html
import json
import logging
import os
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

from aiohttp import WSCloseCode, WSMsgType, web
from aiohttp.web_runner import GracefulExit
from textual_serve.app_service import AppService

from forage.adapters.textual_serve import ServerBase, game_process
from forage.cli.errors import shortened
from forage.cli.served_game import SERVER_PID_VARIABLE
from forage.exits import EXIT_INTERRUPTED, EXIT_OK, EXIT_TERMINATED
from forage.i18n import ENVIRONMENT as LANGUAGE_VARIABLE
from forage.i18n import N_, SOURCE_LANGUAGE, catalogue, normalise
from forage.net import ROOMS_CLIENT_VARIABLE, ROOMS_SERVER_VARIABLE
from forage.net.bucket import Bucket
from forage.net.forwarded import Arrival, Proxies, arrival
from forage.net.gate import Gate, limits_for, serve_gated
from forage.net.server import RoomServer
from forage.screen_size import clamp_size

HEARTBEAT_SECONDS: Final = 2.0
"""How often the server pings each tab: a tab gone without a word is noticed within about
this much again (aiohttp closes a websocket whose pong is late by half of it)."""
QUIT_SECONDS: Final = 2.0
"""How long a tab's game has to quit once its tab has closed, before it is terminated (and
as long again, after that, before it is killed)."""
CLOSE_SECONDS: Final = 2.0
"""How long the server waits for a tab to answer its closing of the websocket."""
PING_CHARS: Final = 32
"""The longest ``ping`` a page may send that the server answers (the page sends a time)."""
STOPPING_SIGNALS: Final = ((signal.SIGINT, EXIT_INTERRUPTED), (signal.SIGTERM, EXIT_TERMINATED))
"""The signals that stop the server, and its exit code after each."""


@dataclass(frozen=True)
class TabLimits:
    """What one browser tab may send to its game."""

    message_bytes: int = 64 * 1024
    """The largest websocket message taken; a larger one closes the tab (1009)."""
    stdin_bytes: int = 4 * 1024
    """The most keys (UTF-8 bytes) one ``stdin`` message may carry; more closes the tab (1009)."""
    stdin_rate: float = 2 * 1024
    """Keys a second (bytes) a tab may send on average; beyond it, keys are dropped."""
    stdin_burst: float = 8 * 1024
    """Keys (bytes) a tab may send at once, after a pause."""
    waiting: int = 16
    """Messages that may wait for the game to take them; beyond it, messages are dropped."""


def browser_language(accepted: str | None) -> str:
    """The language forage ships that a browser's ``Accept-Language`` header likes best (by
    its q-values, the first named among equals); English when it names none of them."""
    ranked: list[tuple[float, int, str]] = []
    for place, item in enumerate((accepted or "").split(",")[:LANGUAGE_RANGES]):
        tag, _, parameters = item.partition(";")
        quality = 1.0
        for parameter in parameters.split(";"):
            name, _, value = parameter.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value.strip())
                except ValueError:
                    quality = 0.0
        code = normalise(tag.strip()) if tag.strip() not in ("", "*") else None
        if code is not None and 0.0 < quality <= 1.0:
            ranked.append((-quality, place, code))
    return min(ranked)[2] if ranked else SOURCE_LANGUAGE


def game_command(
    server_pid: int,
    rooms: str | None = None,
    vouch: str | None = None,
    language: str | None = None,
) -> str:
    """The shell command each browser tab runs: this Python's ``forage play`` (the shell
    replaced by it, so that the game's parent is the server and stopping the game stops
    that process), told which server started it, the language of its browser (``language``,
    as ``FORAGE_LANG``) and, if it serves rooms, their address (where the game's ``i``
    plays with friends) and what the server signed of the tab's browser (``vouch``, so
    that the rooms count its address)."""
    words = [sys.executable, "-m", "forage", "play"]
    if os.name == "nt":
        return subprocess.list2cmdline(words)
    told = f"export {SERVER_PID_VARIABLE}={server_pid}; "
    if language is not None:
        told += f"export {LANGUAGE_VARIABLE}={shlex.quote(language)}; "
    if rooms is not None:
        told += f"export {ROOMS_SERVER_VARIABLE}={shlex.quote(rooms)}; "
        if vouch is not None:
            told += f"export {ROOMS_CLIENT_VARIABLE}={shlex.quote(vouch)}; "
    return f"{told}exec {shlex.join(words)}"


def full_page(limit: int, language: str = SOURCE_LANGUAGE) -> str:
    """The page a browser gets when every game is taken, in ``language``."""
    words = catalogue(language)
    title = html.escape(words.gettext(FULL_TITLE))
    heading = html.escape(words.gettext(FULL_HEADING).format(limit=limit))
    said = html.escape(words.gettext(FULL_SAID))
    return (
        f"<!doctype html><html lang='{language}'><head><meta charset='utf-8'><title>{title}"
        "</title></head><body style='font-family: sans-serif; margin: 3em'>"
        f"<h1>{heading}</h1><p>{said}</p></body></html>"
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


def refusal(came: Arrival, origin: str | None, names: frozenset[str] | None) -> str | None:
    """Why a request may not reach the game, or None: a foreign Host or Origin. A trusted
    proxy's client may ask for any well-formed host (the proxy chose to forward it); the
    ``Origin`` must be the scheme and host the client reached the server by."""
    host = came.host
    if came.forwarded:
        if not came.host_is_valid():
            return f"the proxy forwarded a host that is not a host name: {shortened(host)!r}"
    elif names is not None and host not in names:
        return f"unknown host {shortened(host)!r}: open the game as localhost or 127.0.0.1"
    if origin is not None:
        parts = urlsplit(origin)
        if (parts.scheme.lower(), parts.netloc.lower()) != (came.scheme, host):
            return "the game can be played only from its own page"
    return None


LANGUAGE_RANGES: Final = 32
"""The most language ranges of an ``Accept-Language`` header read (browsers send a few)."""
# Translators: the page a browser gets when forage serve runs as many games as it may.
FULL_TITLE: Final = N_("Forage: all games taken")
FULL_HEADING: Final = N_("All {limit} games are being played")
FULL_SAID: Final = N_(
    "This forage serves at most that many browser tabs at once. Close a tab that "
    "plays, or try again in a little while."
)

GAME_NAME: Final = N_("Forage")
"""The game's name, as its web page shows it above the button to start."""

# Translators: the game's web page (forage serve): its name, its button to start, the line
# once the game has ended and its button to play again.
PAGE_WORDS: Final = (
    (f"<div>{GAME_NAME}</div>", GAME_NAME),
    (">Start</button>", N_("Start")),
    (">Session ended.</div>", N_("Session ended.")),
    (">Restart</button>", N_("Restart")),
)
"""The words of textual-serve's page, as its HTML holds them, and their messages."""


def page_in(text: str, language: str) -> str:
    """textual-serve's page of the game with its words in ``language``."""
    if language == SOURCE_LANGUAGE:
        return text
    words = catalogue(language)
    for held, message in PAGE_WORDS:
        text = text.replace(held, held.replace(message, html.escape(words.gettext(message))))
    return text.replace("<html>", f"<html lang='{language}'>", 1)


UNKNOWN_CHILD: Final = "Unknown child process pid %d, will report returncode 255"
"""asyncio's warning when a child process it waits for was reaped before it could be."""


class OneLine(logging.Formatter):
    """A log record as one line, ``forage: MESSAGE (ErrorType)``: never a traceback, nor
    what an error carries (a request's error may quote its headers); asyncio's words for a
    game's process ended unseen in forage's own."""

    def format(self, record: logging.LogRecord) -> str:
        """The record's message on one line, at most 200 characters, and its error's type."""
        message = record.getMessage()
        if record.name == "asyncio" and record.msg == UNKNOWN_CHILD:
            pid = record.args[0] if isinstance(record.args, tuple) and record.args else "?"
            message = (
                f"a game's process (pid {pid}) had ended before the server could read how: "
                "its exit code is unknown"
            )
        text = shortened(" ".join(message.split()), 200)
        if record.exc_info is not None and record.exc_info[0] is not None:
            text += f" ({record.exc_info[0].__name__})"
        return f"forage: {text}"


async def end_game(game: AppService) -> None:
    """Ask a tab's game to quit; terminate it if it has not within QUIT_SECONDS, and kill
    it if it has not ended QUIT_SECONDS after that."""
    process = game_process(game)
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


Delivery = Callable[[], Awaitable[object]]
"""Something for a tab's game, waiting to be handed to it."""


async def deliver(inbox: asyncio.Queue[Delivery]) -> None:
    """Hand a tab's messages to its game, one after another, for as long as the tab is open
    (each may wait for the game to read its input)."""
    while True:
        await (await inbox.get())()


class GameServer(ServerBase):
    """textual-serve with a game for each tab, within limits, and quiet logs.

    Requests with a Host not in ``names`` (unless None, or forwarded by a trusted proxy), or
    from another site's page, are refused with 403; beyond ``max_games`` games at once a new
    tab gets a page saying so (503). A tab's input is kept within ``limits``; its game is
    sized within what forage draws, and ends within a few seconds of its tab closing,
    however it closed.
    Subclasses add routes to the same application with :meth:`add_routes`.
    """

    def __init__(
        self,
        host: str,
        port: int,
        names: frozenset[str] | None,
        max_games: int,
        *,
        command: str | None = None,
        limits: TabLimits | None = None,
        rooms: RoomServer | None = None,
        rooms_address: str | None = None,
        proxies: Proxies | None = None,
    ) -> None:
        """A server for host:port that runs ``command`` (the game) for each tab, and serves
        ``rooms`` at ``/play`` if given, which the tabs' games reach at ``rooms_address``
        (``http://HOST:PORT`` on this computer); the ``X-Forwarded-*`` headers of
        ``proxies`` are believed (:mod:`forage.net.forwarded`)."""
        self.proxies = proxies or Proxies()
        self.rooms_address = rooms_address if rooms is not None else None
        self.own_command = command is None
        """Each tab runs :func:`game_command`, told of its browser (else ``command``)."""
        if command is None:
            command = game_command(os.getpid(), self.rooms_address)
        super().__init__(command, host=host, port=port, title=GAME_NAME)
        self.names = names
        self.max_games = max_games
        self.limits = limits or TabLimits()
        self.exit_code = EXIT_OK
        """How ``forage serve`` exits once serving ends: 130 after SIGINT, 143 after SIGTERM."""
        self.tabs: set[asyncio.Task[object]] = set()
        """The requests of the open tabs."""
        self.games: set[AppService] = set()
        """The games running, from their tab's opening until their process has ended."""
        self.ending: set[asyncio.Task[None]] = set()
        """The endings of games whose tab has closed."""
        self.rooms = rooms

    # -- serving -------------------------------------------------------------------------------

    def serve(self, debug: bool = False) -> None:
        """Serve until SIGINT or SIGTERM (then ``exit_code`` says which), holding connections
        within the limits of :mod:`forage.net.gate`; every game is ended before this returns."""
        self.debug = debug
        self.initialize_logging()
        loop = asyncio.new_event_loop()
        for number, code in STOPPING_SIGNALS:
            with contextlib.suppress(NotImplementedError):  # Windows: ctrl+c raises instead
                loop.add_signal_handler(number, self.stop_on_signal, code)
        limits = limits_for(self.max_games, trusted=self.proxies.trusts)
        serve_gated(self.web_app(), self.host, self.port, Gate(limits), loop)

    def stop_on_signal(self, code: int) -> None:
        """Stop serving, to exit with ``code`` (a second signal while stopping is ignored)."""
        if self.exit_code != EXIT_OK:
            return
        self.exit_code = code
        raise GracefulExit()

    async def web_app(self) -> web.Application:
        """The application served: the page, ``/ws`` and whatever :meth:`add_routes` adds."""
        app = await super().web_app()
        app.on_cleanup.append(self.on_cleanup)
        self.add_routes(app)
        return app

    def add_routes(self, app: web.Application) -> None:
        """Add routes to the application before it is served: the rooms, behind the same
        Host and Origin checks as the page."""
        if self.rooms is not None:
            self.rooms.attach(app, self.check)

    def initialize_logging(self) -> None:
        """Log problems on stderr, one line each; not every request."""
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(OneLine())
        root = logging.getLogger()
        root.handlers[:] = [handler]
        root.setLevel(logging.DEBUG if self.debug else logging.INFO)
        logging.getLogger("aiohttp.access").setLevel(logging.WARNING)

    async def on_startup(self, app: web.Application) -> None:
        """Print nothing: ``forage serve`` has said where to go."""

    async def on_shutdown(self, app: web.Application) -> None:
        """Close the open tabs, which ends their games, rather than wait for them to close."""
        for tab in self.tabs:
            tab.cancel()

    async def on_cleanup(self, app: web.Application) -> None:
        """Wait until every game has ended."""
        await asyncio.gather(*self.ending, return_exceptions=True)

    # -- requests ------------------------------------------------------------------------------

    def arrival_of(self, request: web.Request) -> Arrival:
        """Where a request comes from, believing the trusted proxies' ``X-Forwarded-*``."""
        return arrival(request.remote or "", request.scheme, request.headers, self.proxies)

    def check(self, request: web.Request) -> None:
        """403 for a request from another site's page or through a foreign host name."""
        reason = refusal(self.arrival_of(request), request.headers.get("Origin"), self.names)
        if reason is not None:
            raise web.HTTPForbidden(text=f"forage: {reason}\n")

    def full(self) -> bool:
        """Whether every game is taken."""
        return len(self.games) >= self.max_games

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """The page, its links and websocket pointing where this browser reached us."""
        self.check(request)
        if self.full():
            language = browser_language(request.headers.get("Accept-Language"))
            return web.Response(
                status=503, text=full_page(self.max_games, language), content_type="text/html"
            )
        # Set and used with no await between, so concurrent requests cannot mix.
        self.public_url = self.arrival_of(request).origin
        response: web.StreamResponse = await super().handle_index(request)
        if isinstance(response, web.Response) and response.text is not None:
            language = browser_language(request.headers.get("Accept-Language"))
            response.text = page_in(response.text, language)
        return response

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """A game for this tab, if the tab is the game's own page and a game is free."""
        self.check(request)
        if self.full():
            raise web.HTTPServiceUnavailable(text=f"forage: all {self.max_games} games are taken\n")
        websocket = web.WebSocketResponse(
            heartbeat=HEARTBEAT_SECONDS,
            max_msg_size=self.limits.message_bytes,
            timeout=CLOSE_SECONDS,
        )
        if not websocket.can_prepare(request).ok:
            raise web.HTTPBadRequest(text="forage: /ws is the game's websocket: open the page\n")
        columns, rows = clamp_size(request.query.get("width"), request.query.get("height"))

        async def close() -> None:
            await websocket.close()

        game = AppService(
            self.command_for(request),
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
        delivering: asyncio.Task[None] | None = None
        code = WSCloseCode.OK
        try:
            await websocket.prepare(request)
            await game.start(columns, rows)
            inbox: asyncio.Queue[Delivery] = asyncio.Queue(self.limits.waiting)
            delivering = asyncio.create_task(deliver(inbox))
            code = await self.read_tab(websocket, game, inbox)
        except asyncio.CancelledError:  # the server stopping: close the tab
            pass
        except Exception as error:  # a tab gone mid-write, and the like
            logging.getLogger("forage.serve").debug("tab closed: %r", error)
        finally:
            if delivering is not None:
                delivering.cancel()
            if tab is not None:
                self.tabs.discard(tab)
            ending = asyncio.create_task(self.end(game))
            self.ending.add(ending)
            ending.add_done_callback(self.ending.discard)
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await websocket.close(code=code)
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.shield(ending)
        return websocket

    def command_for(self, request: web.Request) -> str:
        """The command a tab's game runs: in the language its browser asks for and told, if
        this server serves rooms, what the rooms sign of the tab's browser address, so that
        its limits are that browser's."""
        if not self.own_command:
            return self.command
        vouch = None
        if self.rooms is not None and request.remote is not None:
            vouch = self.rooms.vouch(self.arrival_of(request).client)
        language = browser_language(request.headers.get("Accept-Language"))
        return game_command(os.getpid(), self.rooms_address, vouch, language)

    async def end(self, game: AppService) -> None:
        """End a game whose tab has closed; its place is free once its process has ended."""
        try:
            await end_game(game)
        finally:
            self.games.discard(game)

    async def read_tab(
        self,
        websocket: web.WebSocketResponse,
        game: AppService,
        inbox: asyncio.Queue[Delivery],
    ) -> WSCloseCode:
        """Read the page's messages until the tab closes, queueing for the game its keys,
        sizes (within what forage draws), focus and blur, and answering its pings; the code
        to close the tab with.

        Anything else, or anything malformed, is dropped; so are keys beyond the tab's rate
        and messages the game is too busy to take. More than ``stdin_bytes`` of keys in one
        message end the reading (the tab is to close as sending too much at once, 1009).
        """
        limits = self.limits
        budget = Bucket.full(limits.stdin_burst, limits.stdin_rate, time.monotonic())
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            envelope = envelope_of(message.data)
            if envelope is None:
                continue
            kind, data = envelope
            delivery: Delivery
            if kind == "stdin" and isinstance(data, str):
                keys = data.encode("utf-8", "replace")
                if len(keys) > self.limits.stdin_bytes:
                    return WSCloseCode.MESSAGE_TOO_BIG
                if not budget.take(time.monotonic(), len(keys)):
                    continue
                delivery = functools.partial(game.send_bytes, keys)
            elif kind == "resize" and isinstance(data, dict):
                columns, rows = clamp_size(data.get("width"), data.get("height"))
                delivery = functools.partial(game.set_terminal_size, columns, rows)
            elif kind == "ping" and isinstance(data, str) and len(data) <= PING_CHARS:
                await websocket.send_json(["pong", data])
                continue
            elif kind == "blur":
                delivery = game.blur
            elif kind == "focus":
                delivery = game.focus
            else:
                continue
            with contextlib.suppress(asyncio.QueueFull):
                inbox.put_nowait(delivery)
        return WSCloseCode.OK
