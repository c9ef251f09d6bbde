"""``forage review FILE [--json] [--exact]``: a game record's move-by-move review."""

from __future__ import annotations

import argparse
import json

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from forage.cli.errors import EXIT_OK
from forage.cli.tools import game_of
from forage.i18n import _


def review_command(args: argparse.Namespace) -> int:
    """Review a record's moves: JSON (CONTRACT.md) or the review screen."""
    game = game_of(args)
    if isinstance(game, int):
        return game
    # The AI loads once the record is read (a bad one fails at once), Textual for the screen only.
    from forage.ai.review import ReviewSettings, review, start_of

    settings = ReviewSettings(exact=args.exact)
    if not args.json:
        from forage.app.review_app import ReviewApp
        from forage.cli.play import run_app

        return run_app(lambda: ReviewApp(game, settings))
    from forage.history.store import HistoryStore  # the screen opens it after its first frame

    console = Console(stderr=True)
    # Drawn only as the review advances, so that no thread runs and the workers can fork.
    with Progress(
        TextColumn(_("Reviewing")),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        auto_refresh=False,
    ) as bar:
        task = bar.add_task("review", total=len(game.moves) + 1)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)
            bar.refresh()

        with HistoryStore.open() as store:  # a review asked again is read back at once
            result = review(
                start_of(game), game.moves, settings, progress=advance, memory=store.analyses
            )
    print(json.dumps(result.to_json()))
    return EXIT_OK
