"""``forage play``: start the Textual game (imported only when playing)."""

from __future__ import annotations

import argparse
from pathlib import Path


def play_command(args: argparse.Namespace) -> int:
    """Open the game screen with the deal options given."""
    try:
        from forage.app import run_game
    except ImportError:
        print("The game screen is not built yet; try `forage replay` or `forage deal`.")
        return 0
    record = Path(args.record) if args.record else None
    return run_game(args.seed, args.deal, args.recipes, args.deck, record)
