"""``forage play``: start the Textual game (imported only when playing)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from forage.cli.errors import EXIT_ILLEGAL, BadInput, deal_option, fail, read_text, writable_file

if TYPE_CHECKING:
    from forage.app.session import Session


def play_command(args: argparse.Namespace) -> int:
    """Open the game screen with the deal options given (once checked), or on the game of
    a record."""
    if args.deal is not None:
        deal_option(args.deal)
    record = writable_file(args.record) if args.record is not None else None
    from forage.app import run_game

    player = None
    if args.player is not None:  # the history (SQLite) is otherwise opened after start-up
        from forage.cli.history import named_player

        player = named_player(args.player)
    if args.file is None:
        # A first start that names no deal may be a new player's: the tutorial is offered.
        first = args.seed is None and args.deal is None
        return run_game(
            args.seed, args.deal, args.recipes, args.deck, record, player=player, offer_learn=first
        )
    if args.seed is not None or args.deal is not None or args.recipes:
        raise BadInput("play FILE: the record gives the deal; drop --seed, --deal and --recipes")
    session = continued(args.file, record)
    if isinstance(session, int):
        return session
    return run_game(None, None, False, 1, record, player=player, session=session)


def continued(path: str, record_path: Path | None) -> Session | int:
    """The session that continues a record's game (its deal and moves made), or the exit
    code after a one-line error: 2 for a file that is not a record, 1 for an illegal move."""
    from forage.app.session import Session
    from forage.carddata import standard_deck
    from forage.record import RecordError, build_game, parse_record

    text = read_text(path)
    try:
        parsed = parse_record(text)
        game, moves = build_game(parsed)
    except RecordError as exc:
        raise BadInput(f"{path}: {exc}") from None
    if game.deck != standard_deck():
        raise BadInput(f"{path}: cards: the game screen plays the built-in deck only")
    replayed = game.replay(moves)
    if replayed.refusal is not None:
        from forage.cli.records import refusal_line

        return fail(refusal_line(path, game, replayed.refusal), EXIT_ILLEGAL)
    return Session.deal_up(game.deal, parsed.seed, parsed.deck or 1, record_path, moves)
