"""Reading a server's online daily leaderboard (``GET /daily/leaderboard``, CONTRACT.md).

The standard library fetches it (``forage leaderboard`` loads no aiohttp), pydantic checks
it; anything but a board is :class:`BoardUnread`, one line naming the address.
"""

from __future__ import annotations

import urllib.error
import urllib.request
from typing import Final, NamedTuple
from urllib.parse import urlencode

from pydantic import ValidationError

from forage.i18n import _
from forage.net.address import server_url
from forage.net.daily import BOARD_MOST_BYTES, BOARD_PATH, Board, BoardError
from forage.net.protocol import shown_text

TIMEOUT_SECONDS: Final = 10.0
"""How long a client waits for a server's leaderboard."""
ERROR_MOST_BYTES: Final = 64 * 1024
"""The most of an HTTP error's body read for its ``error``."""


class BoardUnread(ValueError):
    """A leaderboard that could not be read: one line, naming the address."""


class FetchedBoard(NamedTuple):
    """A server's leaderboard: its JSON as it came, and read."""

    text: str
    board: Board


def board_url(server: str, day: str | None = None) -> str:
    """The address of a server's leaderboard (of ``day``, YYYY-MM-DD, if given); ValueError
    for what is not a server's address."""
    return server_url(server, BOARD_PATH, "" if day is None else urlencode({"date": day}))


def fetch_board(url: str, timeout: float = TIMEOUT_SECONDS) -> FetchedBoard:
    """The leaderboard at ``url`` (:func:`board_url`); BoardUnread for anything else."""
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body: bytes = response.read(BOARD_MOST_BYTES + 1)
    except urllib.error.HTTPError as exc:
        raise BoardUnread(f"{url}: {error_said(exc)}") from None
    except urllib.error.URLError as exc:
        reason = exc.reason.strerror if isinstance(exc.reason, OSError) else exc.reason
        raise BoardUnread(
            _("cannot reach {url} ({reason})").format(url=url, reason=reason or exc)
        ) from None
    except (OSError, ValueError) as exc:
        raise BoardUnread(_("cannot reach {url} ({reason})").format(url=url, reason=exc)) from None
    if len(body) > BOARD_MOST_BYTES:
        raise BoardUnread(
            _("{url}: the answer is over {most} bytes").format(url=url, most=BOARD_MOST_BYTES)
        )
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise BoardUnread(
            _("{url}: the answer is not a leaderboard (not UTF-8)").format(url=url)
        ) from None
    return FetchedBoard(text, read_board(url, text))


def error_said(error: urllib.error.HTTPError) -> str:
    """What a server's HTTP error says: its JSON ``error``, else its status."""
    try:
        return shown_text(BoardError.model_validate_json(error.read(ERROR_MOST_BYTES)).error)
    except (ValidationError, OSError, ValueError):
        return f"HTTP {error.code} {error.reason}"


def read_board(url: str, text: str) -> Board:
    """The leaderboard a server answered at ``url``; BoardUnread if the answer is not one."""
    try:
        return Board.model_validate_json(text)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(part) for part in first["loc"])
        problem = _("not JSON") if first["type"] == "json_invalid" else f"{where}: {first['msg']}"
        raise BoardUnread(
            _("{url}: the answer is not a leaderboard ({problem})").format(url=url, problem=problem)
        ) from None
