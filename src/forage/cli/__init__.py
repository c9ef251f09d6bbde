"""The ``forage`` command line: the game, and headless commands for records and tools.

The headless commands never import Textual, so they start quickly; ``--version`` and
``--help`` import nothing beyond argparse. Every command imports what it needs inside
:func:`main`; the ``forage`` script starts at :func:`forage.launch.main`, so that Ctrl+C
while anything loads exits 130 too, without a traceback.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final, NoReturn

from forage import __version__, startup
from forage.adapters.argparse import WideTextFormatter
from forage.adapters.argparse import install as speak_argparse
from forage.cli.errors import (
    EXIT_BAD_INPUT,
    EXIT_INTERRUPTED,
    EXIT_PIPE_CLOSED,
    BadInput,
    fail,
    one_line,
    report_crash,
    shortened,
)
from forage.i18n import N_, _, ngettext
from forage.net import DEFAULT_SERVER
from forage.screen_size import is_size
from forage.startup import exit_on_interrupt
from forage.wording import shown

COMMANDS = (
    "play",
    "deal",
    "replay",
    "moves",
    "hint",
    "bot",
    "par",
    "bench",
    "stats",
    "history",
    "daily",
    "serve",
    "leaderboard",
    "room",
    "review",
    "learn",
    "puzzle",
)


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line naming the problem (exit 2), and help in a
    language without spaces wrapped between its characters."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """An argument parser (its subcommands' too) whose help wraps Japanese."""
        kwargs.setdefault("formatter_class", WideTextFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        """Print ``forage: message`` and exit 2 (``--help`` still shows the usage)."""
        self.exit(EXIT_BAD_INPUT, f"forage: {one_line(message)}\n")


def _whole(text: str) -> int:
    """A whole number given on the command line."""
    try:
        return int(text)
    except ValueError as exc:
        from forage.files import number_problem  # tempfile: only for a bad number

        problem = number_problem(exc, _("not a whole number"))
        raise argparse.ArgumentTypeError(f"{shown(problem)}: {shortened(text)!r}") from None


def _seed(text: str) -> int:
    """A seed: a whole number from 0 to 2**64 - 1 (R14)."""
    from forage.engine.deal import check_seed  # pydantic: only for a seed given

    try:
        return check_seed(_whole(text))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(shown(exc)) from None


def _positive(text: str) -> int:
    """A whole number of at least 1."""
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(
            _("must be at least 1, not {value}").format(value=shortened(str(value)))
        )
    return value


if TYPE_CHECKING:
    Subparsers = argparse._SubParsersAction[Parser]


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser for every command, or for ``command`` alone (it then parses that
    command's arguments the same, and the game starts without building the other twelve);
    argparse's own words in the player's language."""
    speak_argparse(_, ngettext)
    parser = Parser(
        prog="forage",
        description=_("Forage, the 9 card solitaire game. With no command, plays the game."),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"forage {__version__}",
        help=_("show program's version number and exit"),
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, add in _PARSERS.items():
        if command is None or name == command:
            add(sub)
    return parser


def _play(sub: Subparsers) -> None:
    play = sub.add_parser("play", help=_("play the game in the terminal (the default)"))
    deal_source = play.add_mutually_exclusive_group()
    deal_source.add_argument("--seed", type=_seed, help=_("deal from this seed"))
    deal_source.add_argument("--deal", metavar="CODE", help=_("play this deal code"))
    play.add_argument("--recipes", action="store_true", help=_("play a recipe challenge"))
    play.add_argument(
        "--deck", type=int, choices=(1, 2), default=1, help=_("deck 1 or 2 of a seed")
    )
    play.add_argument("--record", metavar="FILE", help=_("write the game record here as you play"))
    play.add_argument("--player", metavar="NAME", help=_("who is playing (default: the last name)"))
    play.add_argument("file", metavar="FILE", nargs="?", help=_("continue the game of this record"))


def _learn(sub: Subparsers) -> None:
    sub.add_parser("learn", help=_("a guided first game that teaches the rules by playing them"))


def _puzzle(sub: Subparsers) -> None:
    puzzle = sub.add_parser("puzzle", help=_("the day's puzzle: find the one best placement"))
    puzzle.add_argument("--date", metavar="YYYY-MM-DD", help=_("another day's puzzle (UTC)"))
    puzzle.add_argument("--json", action="store_true", help=_("print the puzzle as JSON"))


def _deal(sub: Subparsers) -> None:
    deal = sub.add_parser("deal", help=_("print the deal code of a seed"))
    deal.add_argument("--seed", type=_seed, help=_("the seed (a fresh random one by default)"))
    deal.add_argument("--recipes", action="store_true", help=_("a recipe challenge deal"))
    deal.add_argument("--deck", type=int, choices=(1, 2), default=1, help=_("deck 1 or 2"))


def _record_command(name: str, summary: str, json_help: str) -> Callable[[Subparsers], None]:
    """The subparser of a command that reads one game record and may print JSON."""

    def add(sub: Subparsers) -> None:
        command = sub.add_parser(name, help=_(summary))
        command.add_argument("file", metavar="FILE")
        command.add_argument("--json", action="store_true", help=_(json_help))

    return add


def _review(sub: Subparsers) -> None:
    _record_command(
        "review", N_("move-by-move review of a game record"), N_("print JSON instead of the screen")
    )(sub)
    sub.choices["review"].add_argument(
        "--exact",
        action="store_true",
        help=_("prove the verdicts of the last three placements however long it takes"),
    )


def _bot(sub: Subparsers) -> None:
    bot = sub.add_parser("bot", help=_("let a bot play many seeded games"))
    bot.add_argument("--games", type=_positive, required=True, help=_("how many games"))
    bot.add_argument("--seed", type=_seed, default=0, help=_("game i plays the deal of seed S+i"))
    bot.add_argument("--policy", choices=("greedy", "expert"), default="greedy")
    bot.add_argument("--recipes", action="store_true", help=_("play recipe challenges"))
    bot.add_argument("--json", action="store_true", help=_("print JSON"))
    bot.add_argument(
        "--record",
        metavar="FILE",
        help=_("with --games 1: write the game's record here (forage review FILE shows it)"),
    )


def _par(sub: Subparsers) -> None:
    par = sub.add_parser("par", help=_("the best score of a deal, knowing the draw order"))
    par_source = par.add_mutually_exclusive_group(required=True)
    par_source.add_argument("--seed", type=_seed, help=_("the deal of this seed"))
    par_source.add_argument("--deal", metavar="CODE", help=_("this deal code"))
    par_source.add_argument("file", metavar="FILE", nargs="?", help=_("a game record"))
    par.add_argument("--recipes", action="store_true", help=_("with --seed: a recipe challenge"))
    par.add_argument("--deck", type=int, choices=(1, 2), default=1, help=_("with --seed: deck"))
    par.add_argument("--json", action="store_true", help=_("print JSON"))


def _bench(sub: Subparsers) -> None:
    bench = sub.add_parser("bench", help=_("measure the engine's speed"))
    bench.add_argument("--json", action="store_true", help=_("print JSON"))
    bench.add_argument("--quick", action="store_true", help=_("a short smoke run"))


def _whose(parser: argparse.ArgumentParser) -> None:
    """The ``--player NAME`` and ``--json`` options of the history's commands."""
    parser.add_argument("--player", metavar="NAME", help=_("whose (default: the last name used)"))
    parser.add_argument("--json", action="store_true", help=_("print JSON"))


def _stats(sub: Subparsers) -> None:
    _whose(sub.add_parser("stats", help=_("a player's statistics and achievements")))


def _history(sub: Subparsers) -> None:
    history = sub.add_parser("history", help=_("stored games, newest first"))
    _whose(history)
    history.add_argument("--limit", type=_positive, metavar="N", help=_("at most N games"))
    history.add_argument(
        "--export", type=_positive, metavar="ID", help=_("write stored game ID's record")
    )
    history.add_argument("file", nargs="?", metavar="FILE", help=_("with --export: where to"))


def _daily(sub: Subparsers) -> None:
    daily = sub.add_parser("daily", help=_("play the day's deal, the same for everyone (UTC)"))
    daily.add_argument("--date", metavar="YYYY-MM-DD", help=_("another day's deal"))
    daily.add_argument("--recipes", action="store_true", help=_("the day's recipe challenge"))
    daily.add_argument("--code", action="store_true", help=_("print its deal code and exit"))
    daily.add_argument(
        "--player", metavar="NAME", help=_("who is playing (default: the last name)")
    )
    daily.add_argument(
        "--online",
        action="store_true",
        help=_("the server's daily: dealt a card at a time, one ranked try a day, a leaderboard"),
    )
    daily.add_argument(
        "--server",
        default=DEFAULT_SERVER,
        help=_("with --online: the server ({server})").format(server=DEFAULT_SERVER),
    )
    daily.add_argument("--name", metavar="NAME", help=_("with --online: your name on the server"))


def _serve(sub: Subparsers) -> None:
    serve = sub.add_parser("serve", help=_("play in a web browser (one game per browser tab)"))
    serve.add_argument("--host", default="127.0.0.1", help=_("address to listen on (127.0.0.1)"))
    serve.add_argument("--port", default="8000", help=_("port to listen on (8000)"))
    serve.add_argument(
        "--max-games",
        metavar="N",
        help=_("games (browser tabs) at once; more get a page saying so (8 a core, 4 to 64)"),
    )
    serve.add_argument(
        "--max-rooms",
        metavar="N",
        help=_("rooms open at once at ws://HOST:PORT/play; more are refused (1000)"),
    )
    serve.add_argument(
        "--db",
        metavar="URL",
        help=_(
            "keep rooms and the daily in PostgreSQL (postgresql://...), shared by servers;"
            " default: an SQLite file in the data folder"
        ),
    )
    serve.add_argument(
        "--forwarded-allow-ips",
        metavar="IPS",
        help=_(
            "behind a reverse proxy: trust X-Forwarded-For, -Proto and -Host from these"
            " addresses only (comma-separated); limits count the forwarded address"
        ),
    )


def _leaderboard(sub: Subparsers) -> None:
    board = sub.add_parser("leaderboard", help=_("a server's online daily leaderboard"))
    board.add_argument(
        "--server",
        default=DEFAULT_SERVER,
        help=_("the server ({server})").format(server=DEFAULT_SERVER),
    )
    board.add_argument("--date", metavar="YYYY-MM-DD", help=_("another day's board (UTC)"))
    board.add_argument("--json", action="store_true", help=_("print the server's JSON as it is"))


def _room(sub: Subparsers) -> None:
    room = sub.add_parser(
        "room",
        help=_(
            "play with friends: open a room on a server, or join one; alone: the rooms this"
            " data folder holds a seat in"
        ),
    )
    room.add_argument(
        "--server",
        metavar="URL",
        dest="seats_server",
        help=_("without new or join: the seats on this server only"),
    )
    rooms = room.add_subparsers(dest="room_command", metavar="new|join")
    new = rooms.add_parser("new", help=_("open a room, show its code to give to friends, and play"))
    join = rooms.add_parser(
        "join", help=_("join a friend's room and play in it, or take back the seat kept in it")
    )
    join.add_argument(
        "code", metavar="CODE", help=_("the room's code, as the host's screen shows it")
    )
    for command in (new, join):
        command.add_argument(
            "--server",
            metavar="URL",
            default=DEFAULT_SERVER,
            help=_("the server ({server})").format(server=DEFAULT_SERVER),
        )
        command.add_argument(
            "--name", metavar="NAME", help=_("your name in the room (default: the last name used)")
        )
    new.add_argument("--recipes", action="store_true", help=_("play a recipe challenge"))
    new.add_argument("--deck", type=int, choices=(1, 2), default=1, help=_("deck 1 or 2"))


_PARSERS: Final[dict[str, Callable[[Subparsers], None]]] = {
    "play": _play,
    "learn": _learn,
    "deal": _deal,
    "replay": _record_command(
        "replay", N_("check and score a game record"), N_("print the result object")
    ),
    "moves": _record_command(
        "moves", N_("every legal placement after a record's moves"), N_("print JSON")
    ),
    "hint": _record_command(
        "hint", N_("the suggested placement after a record's moves"), N_("print JSON")
    ),
    "bot": _bot,
    "par": _par,
    "review": _review,
    "bench": _bench,
    "stats": _stats,
    "history": _history,
    "daily": _daily,
    "puzzle": _puzzle,
    "serve": _serve,
    "leaderboard": _leaderboard,
    "room": _room,
}
"""Each command's subparser, in the order ``forage --help`` lists them."""


def _normalise(argv: Sequence[str]) -> list[str]:
    """Bare ``forage`` and ``forage --seed N`` mean ``forage play ...``."""
    args = list(argv)
    if not args:
        return ["play"]
    first = args[0]
    if first not in COMMANDS and first not in ("-h", "--help", "--version"):
        return ["play", *args]
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the forage command line and return its exit code.

    Ctrl+C exits 130 and a closed output pipe (``| head -1``) exits 141, both without a
    traceback; an unexpected error exits 70, its traceback in a log file that one line
    names.
    """
    try:
        return _main(argv)
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl+C while leaving
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_PIPE_CLOSED
    except Exception as error:
        if not _interrupted(error):  # a bug, or a worker process killed: logged, one line
            return report_crash(error, _("the command"))
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C that Python wrapped
        return EXIT_INTERRUPTED


def _interrupted(error: BaseException | None) -> bool:
    """Whether an error is Ctrl+C or was caused by it."""
    for _step in range(8):  # a chain is short; never follow a cycle for ever
        if error is None:
            return False
        if isinstance(error, KeyboardInterrupt):
            return True
        error = error.__cause__ or error.__context__
    return False


def _drop_unreadable_sizes() -> None:
    """Remove COLUMNS and LINES where they hold no size (``²``, which Rich would take for a
    number and fail to read): the terminal's own size is used instead."""
    for name in ("COLUMNS", "LINES"):
        value = os.environ.get(name)
        if value is not None and not is_size(value.strip()):
            del os.environ[name]


def _main(argv: Sequence[str] | None) -> int:
    _drop_unreadable_sizes()
    given = _normalise(sys.argv[1:] if argv is None else argv)
    parser = build_parser(given[0] if given[0] in COMMANDS else None)
    if given[0] in ("play", "learn"):
        startup.hold()  # from here: checking --seed already imports the engine
    else:
        startup.release()  # paused by the forage script; only the game keeps it paused
    try:
        args = parser.parse_args(given)
        if getattr(args, "recipes", False) and getattr(args, "deck", 1) == 2:
            parser.error(_("a recipe challenge has no deck 2 (RULINGS R12): drop --deck 2"))
    except BaseException:
        startup.release()
        raise
    _load(
        playing=args.command in ("play", "learn")
        or not getattr(args, "code", True)
        or (args.command == "puzzle" and not args.json)
    )
    try:
        code = _dispatch(args)
    except BadInput as exc:
        return fail(str(exc))
    finally:
        startup.release()  # if the game stopped before its first frame, or never started
    sys.stdout.flush()  # a closed pipe shows here, not at exit
    return code


def _load(playing: bool) -> None:
    """Import the slow modules of a command, Ctrl+C ending the process at once meanwhile
    (see :func:`forage.startup.exit_on_interrupt`); then Ctrl+C raises KeyboardInterrupt again."""
    if signal.getsignal(signal.SIGINT) not in (signal.default_int_handler, exit_on_interrupt):
        return  # Ctrl+C ignored (a background job) or handled by whoever runs main()
    signal.signal(signal.SIGINT, exit_on_interrupt)
    try:
        if playing:  # play, or daily without --code: the record module only once saving
            startup.hold()  # until the first frame (forage.app.app's ForageApp releases it)
            import forage.app.app  # Textual, pydantic and the engine
        else:
            import forage.record  # noqa: F401 - pydantic and the engine
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _silence_stdout() -> None:
    """Point stdout at the null device, so flushing it at exit cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout is not a real file (tests capture it)
        pass


def _dispatch(args: argparse.Namespace) -> int:
    command = args.command
    if command == "play":
        from forage.cli.play import play_command

        return play_command(args)
    if command == "learn":
        from forage.cli.play import run_learn

        return run_learn()
    if command == "puzzle":
        from forage.cli.puzzle import puzzle_command

        return puzzle_command(args)
    if command == "serve":
        from forage.cli.serve import serve_command

        return serve_command(args)
    if command == "leaderboard":
        from forage.cli.leaderboard import leaderboard_command

        return leaderboard_command(args)
    if command == "room":
        from forage.cli.room import room_command

        return room_command(args)
    if command in ("stats", "history", "daily"):
        from forage.cli import history

        return {
            "stats": history.stats_command,
            "history": history.history_command,
            "daily": history.daily_command,
        }[command](args)
    from forage.cli import records

    if command == "deal":
        return records.deal_command(args)
    if command == "replay":
        return records.replay_command(args)
    if command == "moves":
        return records.moves_command(args)
    if command == "review":
        from forage.cli.review import review_command

        return review_command(args)
    from forage.cli import tools

    return tools.run(args)
