"""The Textual game screen of Forage (`forage play`)."""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from forage.carddata import standard_deck
from forage.engine import Deal, Game

if TYPE_CHECKING:
    from forage.app.session import Session

__all__ = ["run_game"]


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
) -> int:
    """Play a game in the terminal; returns the exit code (2 for a bad deal code).

    Every game is recorded in the history under ``player`` (default: the last name used);
    ``daily`` is the date when the deal is that day's daily deal; ``session`` is a game to
    continue (``forage play FILE``).
    """
    if deal_code is not None:
        try:
            Game(Deal.from_code(deal_code), standard_deck())
        except ValueError as error:
            print(f"forage: --deal: {error}", file=sys.stderr)
            return 2
    if deck not in (1, 2):
        print(f"forage: --deck: must be 1 or 2, not {deck}", file=sys.stderr)
        return 2
    from forage.app.app import ForageApp
    from forage.app.recorder import Recorder

    recorder = Recorder(player, daily)
    app = ForageApp(
        seed,
        deal_code,
        recipes,
        deck,
        record_path,
        show_par=True,
        recorder=recorder,
        session=session,
    )
    try:
        code = app.run()
    finally:
        recorder.close()
    return code if isinstance(code, int) else 0
