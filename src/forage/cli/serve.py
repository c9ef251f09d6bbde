"""``forage serve``: the game in a web browser, one game per browser tab.

The command line: its options, their one-line errors, what it prints. The web server
(:mod:`forage.cli.game_server`, on textual-serve and aiohttp) is imported only once the
options are checked, so the terminal game and the headless commands never load it.
"""

from __future__ import annotations

import argparse
import errno
import ipaddress
import os
import socket
import sys
from typing import TYPE_CHECKING

from forage.cli.errors import BadInput, program_line, shortened
from forage.i18n import _
from forage.net.forwarded import NotProxies, Proxies, parse_proxies
from forage.wording import shown as said

if TYPE_CHECKING:
    from forage.cli.game_server import GameServer  # textual-serve, as in serve_command
    from forage.net.server import RoomServer


def whole_in_range(text: str, option: str, lowest: int, highest: int) -> int:
    """An option's value as a whole number from ``lowest`` to ``highest``, or BadInput
    naming the option and the problem."""
    try:
        value = int(text)
    except ValueError:
        raise BadInput(
            _("{option}: not a whole number: {text}").format(
                option=option, text=repr(shortened(text))
            )
        ) from None
    if not lowest <= value <= highest:
        raise BadInput(
            _("{option}: must be from {lowest} to {highest}, not {value}").format(
                option=option, lowest=lowest, highest=highest, value=value
            )
        )
    return value


def port_number(text: str) -> int:
    """The --port value as a TCP port (1-65535), or BadInput naming the problem."""
    return whole_in_range(text, "--port", 1, 65535)


def addresses(host: str, port: int) -> list[str]:
    """The IP addresses the server would listen on for --host, or BadInput."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError):
        raise BadInput(_("--host: no such address: {host}").format(host=repr(host))) from None
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
        return _("--port: {port} is in use on {host} (choose another with --port)").format(
            port=port, host=host
        )
    if exc.errno == errno.EACCES:
        return _("--port: not allowed to listen on port {port} (try a port above 1023)").format(
            port=port
        )
    if exc.errno == errno.EADDRNOTAVAIL:
        return _("--host: {host} is not an address of this computer").format(host=host)
    return _("cannot listen on {host}:{port} ({reason})").format(
        host=host, port=port, reason=exc.strerror or exc
    )


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


def default_max_games() -> int:
    """How many games ``forage serve`` runs at once unless told: eight a core, 4 to 64."""
    return max(4, min(64, 8 * (os.cpu_count() or 1)))


def max_games_option(text: str) -> int:
    """The --max-games value: a whole number from 1 to 1000, or BadInput."""
    return whole_in_range(text, "--max-games", 1, 1000)


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


def database_option(text: str | None) -> str | None:
    """The --db value: a PostgreSQL address (``postgresql://...``), or BadInput."""
    if text is None:
        return None
    if not text.startswith(("postgresql://", "postgres://")):
        shown = text.split("@")[-1] if "@" in text else text
        raise BadInput(
            _("--db: a PostgreSQL address postgresql://..., not {given}").format(
                given=repr(shortened(shown))
            )
        )
    return text


def proxies_option(text: str | None) -> Proxies:
    """The --forwarded-allow-ips value: the trusted proxies (none if not given), or BadInput."""
    if text is None:
        return Proxies()
    try:
        return parse_proxies(text)
    except NotProxies as exc:
        raise BadInput(
            f"--forwarded-allow-ips: {said(exc.problem)}: {shortened(exc.item)!r}"
        ) from None


def serve_command(args: argparse.Namespace) -> int:
    """Serve the game to web browsers until ctrl+c (exit 130) or SIGTERM (exit 143)."""
    host: str = args.host
    port = port_number(args.port)
    limit = default_max_games() if args.max_games is None else max_games_option(args.max_games)
    proxies = proxies_option(args.forwarded_allow_ips)
    open_to = exposed(host, port)
    check_free(host, port)
    # The web server loads once the options are checked: a bad option fails at once.
    from forage.cli.serve_rooms import MOST_ROOMS, room_server

    most = args.max_rooms
    rooms = room_server(
        None if most is None else whole_in_range(most, "--max-rooms", 1, MOST_ROOMS),
        database_option(args.db),
        proxies,
    )
    server = _make_server(host, port, local_names(host, port), limit, rooms, proxies)
    serving = _("serving the game at {address} — open it in a web browser").format(
        address=page_address(host, port)
    )
    print(program_line(serving))
    if open_to:
        warning = _(
            "warning: listening on {addresses}: anyone who can reach this "
            "computer on port {port} can play, and each game runs here"
        ).format(addresses=", ".join(open_to), port=port)
        print(program_line(warning), file=sys.stderr)
    each = _("each browser tab is its own game; ctrl+c stops the server")
    print(program_line(each), flush=True)
    try:
        server.serve()
    except OSError as exc:  # lost a race for the port after check_free
        raise BadInput(bind_problem(host, port, exc)) from None
    return server.exit_code


def _make_server(
    host: str,
    port: int,
    names: frozenset[str] | None,
    limit: int,
    rooms: RoomServer | None = None,
    proxies: Proxies | None = None,
) -> GameServer:
    """The web server for host:port, answering the Host names ``names`` (any if None) and
    whatever ``proxies`` forward, with at most ``limit`` games at once, and the rooms at
    ``/play`` if given."""
    from forage.cli.game_server import GameServer

    return GameServer(
        host,
        port,
        names,
        limit,
        rooms=rooms,
        rooms_address=page_address(host, port),
        proxies=proxies,
    )
