"""``forage play``: start the Textual game (imported only when playing)."""

from __future__ import annotations

import argparse

from forage.cli.errors import deal_option, writable_file


def play_command(args: argparse.Namespace) -> int:
    """Open the game screen with the deal options given, once they are checked."""
    if args.deal is not None:
        deal_option(args.deal)
    record = writable_file(args.record) if args.record is not None else None
    from forage.app import run_game
    from forage.cli.history import named_player

    player = None if args.player is None else named_player(args.player)
    return run_game(args.seed, args.deal, args.recipes, args.deck, record, player=player)
