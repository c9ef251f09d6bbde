"""``forage play``: start the Textual game (imported only when playing)."""

from __future__ import annotations

import argparse
from pathlib import Path


def play_command(args: argparse.Namespace) -> int:
    """Open the game screen with the deal options given."""
    from forage.app import run_game
    from forage.cli.history import named_player

    record = Path(args.record) if args.record else None
    player = None if args.player is None else named_player(args.player)
    return run_game(args.seed, args.deal, args.recipes, args.deck, record, player=player)
