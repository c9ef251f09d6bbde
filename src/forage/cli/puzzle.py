"""``forage puzzle``: the day's puzzle, printed as JSON or played on the game screen."""

from __future__ import annotations

import argparse
import json

from forage.cli.errors import BadInput
from forage.history.daily import parse_day, today
from forage.puzzle import daily_puzzle
from forage.wording import shown


def puzzle_command(args: argparse.Namespace) -> int:
    """Print the puzzle of a date (``--json``) or play it."""
    try:
        day = today() if args.date is None else parse_day(args.date)
    except ValueError as exc:
        raise BadInput(f"--date: {shown(exc)}") from None
    puzzle = daily_puzzle(day)
    if args.json:
        print(json.dumps(puzzle.contract_json(day), indent=2))
        return 0
    from forage.cli.play import run_puzzle  # Textual: not for --json

    return run_puzzle(day)
