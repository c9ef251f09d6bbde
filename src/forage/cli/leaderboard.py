"""``forage leaderboard``: a server's online daily board (``GET /daily/leaderboard``).

Headless: :mod:`forage.net.leaderboard` fetches and checks the board, Rich prints it as a
table (``--json``: the server's JSON as it came). A server that cannot be reached, or that
answers anything but a board, is one line on stderr, exit 2.
"""

from __future__ import annotations

import argparse

from rich.table import Table
from rich.text import Text

from forage.app.describe import ASCII
from forage.app.history_report import table_box
from forage.cli.errors import BadInput, shortened
from forage.cli.output import console
from forage.cli.player import last_player
from forage.history.daily import parse_day
from forage.i18n import _
from forage.net.daily import Board
from forage.net.leaderboard import BoardUnread, board_url, fetch_board
from forage.net.protocol import name_key
from forage.wording import shown as shown_error


def table(board: Board, mine: str | None = None, plain: bool = False) -> Table:
    """The board as a Rich table (names as plain text, never markup; ``plain``: drawn in
    ASCII), the line of the name ``mine`` (case and width aside) bold and marked ``(you)``."""
    if board.over:
        title = _("Forage daily {date} (over)").format(date=board.date)
    else:
        title = _("Forage daily {date} (being played)").format(date=board.date)
    shown = Table(
        title=title,
        title_justify="left",
        box=table_box(plain),
    )
    # Translators: the columns of forage leaderboard's table.
    for column, justify in ((_("rank"), "right"), (_("name"), "left"), (_("final"), "right")):
        shown.add_column(column, justify=justify)  # type: ignore[arg-type]
    shown.add_column(_("finished (UTC)"))
    key = name_key(mine) if mine is not None else None
    for entry in board.entries:
        when = entry.finished[:19].replace("T", " ")
        own = key is not None and name_key(entry.name) == key
        name = Text.assemble(entry.name, _(" (you)") if own else "")
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
            raise BadInput(f"--date: {shown_error(exc)}") from None
    try:
        url = board_url(args.server, day)
    except ValueError:
        raise BadInput(
            _("--server: not an http address: {server}").format(server=repr(shortened(args.server)))
        ) from None
    try:
        text, board = fetch_board(url)
    except BoardUnread as exc:
        raise BadInput(str(exc)) from None
    if args.json:
        print(text)
        return 0
    out = console(highlight=False)
    out.print(table(board, last_player(), ASCII))
    if not board.entries:
        out.print(_("No try has ended yet.") if not board.over else _("Nobody played that day."))
    if board.over and board.deal:
        out.print(Text(_("The deal: {deal}").format(deal=board.deal)))
    return 0
