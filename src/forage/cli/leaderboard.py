"""``forage leaderboard``: a server's online daily board (``GET /daily/leaderboard``).

Headless: the standard library fetches the board, pydantic checks it, Rich prints it as a
table (``--json``: the server's JSON as it came). A server that cannot be reached, or that
answers anything but a board, is one line on stderr, exit 2.
"""

from __future__ import annotations

import argparse
import urllib.error
import urllib.request
from typing import Final
from urllib.parse import urlencode, urlsplit

from pydantic import ValidationError
from rich.table import Table
from rich.text import Text

from forage.app.describe import ASCII
from forage.cli.errors import BadInput, shortened
from forage.cli.output import console
from forage.cli.player import last_player
from forage.history.daily import parse_day
from forage.history.report import table_box
from forage.net.daily import BOARD_MOST_BYTES, BOARD_PATH, Board, BoardError
from forage.net.protocol import name_key, shown_text

TIMEOUT_SECONDS: Final = 10.0


def board_url(server: str, day: str | None) -> str:
    """The address of a server's board (of ``day``, if given); BadInput for a server that is
    not an http(s) address."""
    base = server if "://" in server else f"http://{server}"
    parts = urlsplit(base)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise BadInput(f"--server: not an http address: {shortened(server)!r}")
    query = f"?{urlencode({'date': day})}" if day is not None else ""
    return f"{parts.scheme}://{parts.netloc}{BOARD_PATH}{query}"


def fetch(url: str) -> str:
    """The body of the board, as text; BadInput in one line for anything else."""
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
            body: bytes = response.read(BOARD_MOST_BYTES + 1)
    except urllib.error.HTTPError as exc:
        raise BadInput(f"{url}: {said(exc)}") from None
    except urllib.error.URLError as exc:
        reason = exc.reason.strerror if isinstance(exc.reason, OSError) else exc.reason
        raise BadInput(f"cannot reach {url} ({reason or exc})") from None
    except (OSError, ValueError) as exc:
        raise BadInput(f"cannot reach {url} ({exc})") from None
    if len(body) > BOARD_MOST_BYTES:
        raise BadInput(f"{url}: the answer is over {BOARD_MOST_BYTES} bytes")
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput(f"{url}: the answer is not a leaderboard (not UTF-8)") from None


def said(error: urllib.error.HTTPError) -> str:
    """What a server's HTTP error says: its JSON ``error``, else its status."""
    try:
        return shown_text(BoardError.model_validate_json(error.read(64 * 1024)).error)
    except (ValidationError, OSError, ValueError):
        return f"HTTP {error.code} {error.reason}"


def read_board(url: str, text: str) -> Board:
    """The board a server answered; BadInput if the answer is not one."""
    try:
        return Board.model_validate_json(text)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(part) for part in first["loc"])
        problem = "not JSON" if first["type"] == "json_invalid" else f"{where}: {first['msg']}"
        raise BadInput(f"{url}: the answer is not a leaderboard ({problem})") from None


def table(board: Board, mine: str | None = None, plain: bool = False) -> Table:
    """The board as a Rich table (names as plain text, never markup; ``plain``: drawn in
    ASCII), the line of the name ``mine`` (case and width aside) bold and marked ``(you)``."""
    state = "over" if board.over else "being played"
    shown = Table(
        title=f"Forage daily {board.date} ({state})",
        title_justify="left",
        box=table_box(plain),
    )
    for column, justify in (("rank", "right"), ("name", "left"), ("final", "right")):
        shown.add_column(column, justify=justify)  # type: ignore[arg-type]
    shown.add_column("finished (UTC)")
    key = name_key(mine) if mine is not None else None
    for entry in board.entries:
        when = entry.finished[:19].replace("T", " ")
        own = key is not None and name_key(entry.name) == key
        name = Text.assemble(entry.name, " (you)" if own else "")
        style = "bold" if own else None
        shown.add_row(str(entry.rank), name, str(entry.final), Text(when), style=style)
    return shown


def leaderboard_command(args: argparse.Namespace) -> int:
    """Print a server's daily board: a table, or with ``--json`` its JSON as it came."""
    day = None
    if args.date is not None:
        try:
            day = parse_day(args.date).isoformat()
        except ValueError as exc:
            raise BadInput(f"--date: {exc}") from None
    url = board_url(args.server, day)
    text = fetch(url)
    board = read_board(url, text)
    if args.json:
        print(text)
        return 0
    out = console(highlight=False)
    out.print(table(board, last_player(), ASCII))
    if not board.entries:
        out.print("No try has ended yet." if not board.over else "Nobody played that day.")
    if board.over and board.deal:
        out.print(Text(f"The deal: {board.deal}"))
    return 0
