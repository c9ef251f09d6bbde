"""``forage stats``, ``history`` and ``daily``: the stored history and the day's deal.

Headless: Textual is imported only when ``daily`` starts the game.
"""

from __future__ import annotations

import argparse
import json
import sys

from forage.cli.errors import BadInput, program_line, shortened, writable_file
from forage.cli.player import player_name
from forage.files import os_problem, write_atomic
from forage.history.achievements import all_achievements
from forage.history.daily import daily_deal, daily_seed, parse_day, today
from forage.history.database import HistoryUnreadable
from forage.history.report import export_text, stats_json
from forage.history.store import HistoryStore
from forage.i18n import _
from forage.wording import shown

HISTORY_ROWS = 20
"""How many games ``forage history`` shows as a table without ``--limit``."""


def _warn(store: HistoryStore) -> None:
    """Print the store's notice (stored games that could not be read), if any, on stderr."""
    if store.notice:
        print(program_line(store.notice), file=sys.stderr)


def _read_history() -> HistoryStore:
    """The history, opened to read; BadInput naming the file if it cannot be read."""
    try:
        return HistoryStore.read()
    except HistoryUnreadable as exc:
        raise BadInput(str(exc)) from None


def stats_command(args: argparse.Namespace) -> int:
    """Print a player's statistics and achievements."""
    with _read_history() as store:
        try:
            player = player_name(args.player)
            stats = store.statistics(player)
            unlocked = store.unlocked(player)
        except HistoryUnreadable as exc:
            raise BadInput(str(exc)) from None
        _warn(store)
    if args.json:
        print(json.dumps(stats_json(stats, all_achievements(), unlocked), indent=2))
        return 0
    from forage.app.describe import ASCII  # Rich's tables for the terminal, not for --json
    from forage.app.history_report import stats_report
    from forage.cli.output import console

    console(highlight=False).print(stats_report(stats, all_achievements(), unlocked, ASCII))
    return 0


def export_command(game_id: int, path: str | None) -> int:
    """Write stored game ``game_id``'s record to ``path`` (atomically, saying so in one
    line), or to stdout."""
    target = None if path is None else writable_file(path, "--export FILE")
    with _read_history() as store:
        try:
            stored = store.game(game_id)
        except HistoryUnreadable as exc:
            raise BadInput(str(exc)) from None
    if stored is None:
        raise BadInput(
            _("--export {id}: no stored game has that id (see forage history)").format(id=game_id)
        )
    try:
        text = export_text(stored)
    except ValueError as exc:
        raise BadInput(f"--export {game_id}: {shown(exc)}") from None
    if target is None:
        sys.stdout.write(text)
        return 0
    try:
        write_atomic(target, text)
    except OSError as exc:
        raise BadInput(f"--export FILE {target}: {shown(os_problem(exc))}") from None
    print(
        _("Game {id}'s record written to {path}; watch it with: forage review {path}").format(
            id=game_id, path=target
        )
    )
    return 0


def history_command(args: argparse.Namespace) -> int:
    """Print a player's stored games, newest first (or, with --export, write one's record)."""
    if args.export is not None:
        return export_command(args.export, args.file)
    if args.file is not None:
        raise BadInput(
            _("history: FILE ({file}) goes with --export ID").format(
                file=repr(shortened(args.file))
            )
        )
    with _read_history() as store:
        try:
            player = player_name(args.player)
            limit = args.limit if args.limit is not None or args.json else HISTORY_ROWS
            games = store.games(player, limit)
        except HistoryUnreadable as exc:
            raise BadInput(str(exc)) from None
        _warn(store)
    if args.json:
        print(json.dumps({"games": [g.to_json() for g in games]}, indent=2))
        return 0
    from forage.app.describe import ASCII  # Rich's tables for the terminal, not for --json
    from forage.app.history_report import history_table
    from forage.cli.output import console

    out = console(highlight=False)
    if not games:
        out.print(_("No games stored for {player} yet.").format(player=player))
        return 0
    out.print(history_table(games, out.width, ASCII))
    return 0


def daily_command(args: argparse.Namespace) -> int:
    """Print the day's deal code (``--code``) or play the day's deal; with ``--online``,
    the server's daily."""
    if args.online:
        if args.code or args.date is not None or args.recipes:
            raise BadInput(
                _(
                    "--online: the server deals its own daily (today's, a standard game): "
                    "drop --code, --date and --recipes"
                )
            )
        from forage.cli.room import daily_online_command  # aiohttp: only online

        return daily_online_command(args)
    try:
        day = today() if args.date is None else parse_day(args.date)
    except ValueError as exc:
        raise BadInput(f"--date: {shown(exc)}") from None
    if args.code:
        print(daily_deal(day, args.recipes).code)
        return 0
    player = None if args.player is None else player_name(args.player)
    from forage.cli.play import run_game  # Textual: not for --code

    seed = daily_seed(day, args.recipes)
    return run_game(seed, None, args.recipes, 1, None, player=player, daily=day)
