"""The ``forage`` command line: the game, and headless commands for records and tools.

The headless commands never import Textual, so they start quickly.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from forage import __version__
from forage.cli.errors import BadInput, fail

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
    "review",
)


def _seed(text: str) -> int:
    """A seed: any whole number."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def _positive(text: str) -> int:
    """A whole number of at least 1."""
    value = _seed(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every command."""
    parser = argparse.ArgumentParser(
        prog="forage",
        description="Forage, the 9 card solitaire game. With no command, plays the game.",
    )
    parser.add_argument("--version", action="version", version=f"forage {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", help="play the game in the terminal (the default)")
    deal_source = play.add_mutually_exclusive_group()
    deal_source.add_argument("--seed", type=_seed, help="deal from this seed")
    deal_source.add_argument("--deal", metavar="CODE", help="play this deal code")
    play.add_argument("--recipes", action="store_true", help="play a recipe challenge")
    play.add_argument("--deck", type=int, choices=(1, 2), default=1, help="deck 1 or 2 of a seed")
    play.add_argument("--record", metavar="FILE", help="write the game record here as you play")
    play.add_argument("--player", metavar="NAME", help="who is playing (default: the last name)")
    play.add_argument("file", metavar="FILE", nargs="?", help="continue the game of this record")

    deal = sub.add_parser("deal", help="print the deal code of a seed")
    deal.add_argument("--seed", type=_seed, help="the seed (a fresh random one by default)")
    deal.add_argument("--recipes", action="store_true", help="a recipe challenge deal")
    deal.add_argument("--deck", type=int, choices=(1, 2), default=1, help="deck 1 or 2")

    replay = sub.add_parser("replay", help="check and score a game record")
    replay.add_argument("file", metavar="FILE")
    replay.add_argument("--json", action="store_true", help="print the result object")

    moves = sub.add_parser("moves", help="every legal placement after a record's moves")
    moves.add_argument("file", metavar="FILE")
    moves.add_argument("--json", action="store_true", help="print JSON")

    hint = sub.add_parser("hint", help="the suggested placement after a record's moves")
    hint.add_argument("file", metavar="FILE")
    hint.add_argument("--json", action="store_true", help="print JSON")

    bot = sub.add_parser("bot", help="let a bot play many seeded games")
    bot.add_argument("--games", type=_positive, required=True, help="how many games")
    bot.add_argument("--seed", type=_seed, default=0, help="game i plays the deal of seed S+i")
    bot.add_argument("--policy", choices=("greedy", "expert"), default="greedy")
    bot.add_argument("--recipes", action="store_true", help="play recipe challenges")
    bot.add_argument("--json", action="store_true", help="print JSON")

    par = sub.add_parser("par", help="the best score of a deal, knowing the draw order")
    par_source = par.add_mutually_exclusive_group(required=True)
    par_source.add_argument("--seed", type=_seed, help="the deal of this seed")
    par_source.add_argument("--deal", metavar="CODE", help="this deal code")
    par_source.add_argument("file", metavar="FILE", nargs="?", help="a game record")
    par.add_argument("--recipes", action="store_true", help="with --seed: a recipe challenge")
    par.add_argument("--deck", type=int, choices=(1, 2), default=1, help="with --seed: deck")
    par.add_argument("--json", action="store_true", help="print JSON")

    review = sub.add_parser("review", help="move-by-move review of a game record")
    review.add_argument("file", metavar="FILE")
    review.add_argument("--json", action="store_true", help="print JSON instead of the screen")

    bench = sub.add_parser("bench", help="measure the engine's speed")
    bench.add_argument("--json", action="store_true", help="print JSON")
    bench.add_argument("--quick", action="store_true", help="a short smoke run")
    _history_commands(sub)

    serve = sub.add_parser("serve", help="play in a web browser (one game per browser tab)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    serve.add_argument("--port", default="8000", help="port to listen on (8000)")
    return parser


def _history_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``stats``, ``history`` and ``daily`` commands (forage.cli.history)."""
    stats = sub.add_parser("stats", help="a player's statistics and achievements")
    stats.add_argument("--player", metavar="NAME", help="whose (default: the last name used)")
    stats.add_argument("--json", action="store_true", help="print JSON")
    history = sub.add_parser("history", help="stored games, newest first")
    history.add_argument("--player", metavar="NAME", help="whose (default: the last name used)")
    history.add_argument("--limit", type=_positive, metavar="N", help="at most N games")
    history.add_argument("--json", action="store_true", help="print JSON")
    daily = sub.add_parser("daily", help="play the day's deal, the same for everyone (UTC)")
    daily.add_argument("--date", metavar="YYYY-MM-DD", help="another day's deal")
    daily.add_argument("--recipes", action="store_true", help="the day's recipe challenge")
    daily.add_argument("--code", action="store_true", help="print its deal code and exit")
    daily.add_argument("--player", metavar="NAME", help="who is playing (default: the last name)")


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
    """Run the forage command line and return its exit code."""
    parser = build_parser()
    args = parser.parse_args(_normalise(sys.argv[1:] if argv is None else argv))
    if getattr(args, "recipes", False) and getattr(args, "deck", 1) == 2:
        parser.error("a recipe challenge has no deck 2 (RULINGS R12): drop --deck 2")
    try:
        return _dispatch(args)
    except BadInput as exc:
        return fail(str(exc))
    except KeyboardInterrupt:
        return 130


def _dispatch(args: argparse.Namespace) -> int:
    command = args.command
    if command == "play":
        from forage.cli.play import play_command

        return play_command(args)
    if command == "serve":
        from forage.cli.serve import serve_command

        return serve_command(args)
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
