"""``forage play``: start the Textual game (imported only when playing).

The apps are imported inside the functions that run them: each command that starts a screen
loads that screen's app alone (Textual and the game's app are the bulk of the first frame's
imports, docs/performance.md)."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from forage.carddata import standard_deck
from forage.cli.errors import (
    EXIT_ILLEGAL,
    BadInput,
    deal_option,
    fail,
    program_line,
    read_text,
    report_crash,
    shortened,
    writable_file,
)
from forage.cli.served_game import tie_to_server
from forage.engine import Deal, Game
from forage.i18n import _
from forage.screen_size import clamp_size
from forage.wording import shown

if TYPE_CHECKING:
    from forage.app.base import ForageBaseApp
    from forage.app.languages import Restart
    from forage.app.session import Session


def play_command(args: argparse.Namespace) -> int:
    """Open the game screen with the deal options given (once checked), or on the game of
    a record."""
    tie_to_server()  # a browser tab's game, under forage serve, ends with its server
    if args.deal is not None:
        deal_option(args.deal)
    record = writable_file(args.record) if args.record is not None else None
    player = None
    if args.player is not None:  # the history (SQLite) is otherwise opened after start-up
        from forage.cli.player import player_name  # getpass: not before the first frame

        player = player_name(args.player)
    if args.file is None:
        # A first start that names no deal may be a new player's: the tutorial is offered.
        first = args.seed is None and args.deal is None
        return run_game(
            args.seed, args.deal, args.recipes, args.deck, record, player=player, offer_learn=first
        )
    if args.seed is not None or args.deal is not None or args.recipes:
        raise BadInput(_("play FILE: the record gives the deal; drop --seed, --deal and --recipes"))
    session = continued(args.file, record)
    if isinstance(session, int):
        return session
    return run_game(None, None, False, 1, record, player=player, session=session)


def continued(path: str, record_path: Path | None) -> Session | int:
    """The session that continues a record's game (its deal and moves made), or the exit
    code after a one-line error: 2 for a file that is not a record, 1 for an illegal move."""
    from forage.app.session import Session  # the records' module: for play FILE only
    from forage.record import RecordError, build_game, parse_record

    text = read_text(path)
    try:
        parsed = parse_record(text)
        game, moves = build_game(parsed)
    except RecordError as exc:
        raise BadInput(f"{path}: {shown(exc)}") from None
    if game.deck != standard_deck():
        raise BadInput(
            _("{path}: cards: the game screen plays the built-in deck only").format(path=path)
        )
    replayed = game.replay(moves)
    if replayed.refusal is not None:
        from forage.cli.records import refusal_line  # Rich: only for an illegal move

        return fail(refusal_line(path, game, replayed.refusal), EXIT_ILLEGAL)
    return Session.deal_up(game.deal, parsed.seed, parsed.deck or 1, record_path, moves)


def run_game(
    seed: int | None,
    deal_code: str | None,
    recipes: bool,
    deck: int,
    record_path: Path | None,
    *,
    player: str | None = None,
    daily: date | None = None,
    session: Session | None = None,
    offer_learn: bool = False,
) -> int:
    """Play a game in the terminal; returns the exit code (2 for a bad deal code).

    Every game is recorded in the history under ``player`` (default: the last name used);
    ``daily`` is the date when the deal is that day's daily deal; ``session`` is a game to
    continue (``forage play FILE``); with ``offer_learn``, a player's very first start
    offers the guided first game. A crash restores the terminal, writes the traceback
    to a log file in the data folder, points at it in one line on stderr and returns 70
    (``EXIT_CRASH``).
    """
    if deal_code is not None:
        try:
            Game(Deal.from_code(deal_code), standard_deck())
        except ValueError as error:
            return fail(_("--deal: {problem}").format(problem=shown(error)))
    if deck not in (1, 2):
        return fail(_("--deck: must be 1 or 2, not {deck}").format(deck=shortened(str(deck))))
    for name, value in zip(("COLUMNS", "ROWS"), clamped_size(), strict=True):
        if value is not None:
            os.environ[name] = value
    from forage.app import saves
    from forage.app.app import ForageApp
    from forage.app.recorder import Recorder

    recorder = Recorder(player, daily)
    app = None
    try:
        app = ForageApp(
            seed,
            deal_code,
            recipes,
            deck,
            record_path,
            show_par=True,
            analyse_while_playing=True,
            recorder=recorder,
            session=session,
            offer_learn=offer_learn,
        )
        code = app.run()
        crash = app.crash
    except Exception as error:  # outside Textual's own handling: still logged, never shown
        code, crash = None, error
    finally:
        if app is not None:
            app.services.close()  # the analyses ended, the history's writes done
        recorder.close()
        end_workers()
    slot = saves.slot()
    if crash is not None:
        return report_crash(crash)
    for message in slot.news():  # what the screen had no time to say (a failed last save)
        print(program_line(message), file=sys.stderr)
    if app is not None and app.keeper.farewell is not None:  # q: what was kept where
        print(app.keeper.farewell)
    slot.release()
    if app is not None and app.restart is not None:  # the language switched: start again
        return restart(app.restart, tied=app.is_web)
    return code if isinstance(code, int) else 0


def restart(wanted: Restart, tied: bool) -> int:
    """Start this command again as ``wanted`` says (``tied``: in a browser tab, tied again
    to the server that started it, its parent); returns only if that fails (70, logged as
    a crash)."""
    from forage.app.languages import start_again
    from forage.cli.served_game import SERVER_PID_VARIABLE

    if tied:
        os.environ[SERVER_PID_VARIABLE] = str(os.getppid())
    try:
        start_again(wanted)
    except OSError as error:
        return report_crash(error)


def run_learn() -> int:
    """Play the guided first game in the terminal; returns the exit code."""
    from forage.app.learn_app import LearnApp

    return run_app(LearnApp)


def run_puzzle(day: date) -> int:
    """Play the puzzle of a date in the terminal; returns the exit code."""
    from forage.app.puzzle_app import PuzzleApp
    from forage.app.recorder import Recorder
    from forage.puzzle import daily_puzzle

    recorder = Recorder()
    try:
        return run_app(lambda: PuzzleApp(daily_puzzle(day), day, recorder))
    finally:
        recorder.close()


def run_app(
    build: Callable[[], ForageBaseApp], loop: asyncio.AbstractEventLoop | None = None
) -> int:
    """Run an app made by ``build`` in the terminal (on ``loop``, if given: one that holds
    the app's connections); returns its exit code (70 after a crash, logged as
    :func:`run_game` logs one)."""
    for name, value in zip(("COLUMNS", "ROWS"), clamped_size(), strict=True):
        if value is not None:
            os.environ[name] = value
    app = build()
    try:
        code = app.run(loop=loop)
        crash = app.crash
    except Exception as error:  # outside Textual's own handling: still logged, never shown
        code, crash = None, error
    finally:
        app.services.close()
        end_workers()
    if crash is not None:
        return report_crash(crash)
    return code if isinstance(code, int) else 0


def end_workers() -> None:
    """End the worker processes the app's screens left running (none if no analysis ever
    started, and then nothing is loaded for it)."""
    if "forage.ai.workers" in sys.modules:
        from forage.ai.workers import end_workers as end_them

        end_them()


def clamped_size() -> tuple[str | None, str | None]:
    """The COLUMNS and ROWS a web driver starts at, taken within the sizes forage draws
    (None where it does not say)."""
    given = os.environ.get("COLUMNS"), os.environ.get("ROWS")
    columns, rows = clamp_size(*given)
    return (
        None if given[0] is None else str(columns),
        None if given[1] is None else str(rows),
    )
