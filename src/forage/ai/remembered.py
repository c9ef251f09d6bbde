"""Analyses remembered in the history: a game's review is worked out once.

A review is kept in the history file (table ``analyses``) under a key naming everything
that decides it: the review's version (``REVIEW_VERSION``), the deal and deck, the moves
and the settings. Asked again, it is read back at once; a review of another version has
another key, so it is worked out again, never shown. Where the history cannot be used the
review is simply worked out.
"""

from __future__ import annotations

from collections.abc import Sequence

from forage.ai.review import (
    WORKERS,
    ProgressFn,
    Review,
    Settings,
    review,
    review_from_text,
    review_key,
    stored_review,
)
from forage.engine import Game, Placement
from forage.history.store import HistoryStore

KIND = "review"


def remembered_review(
    start: Game,
    placements: Sequence[Placement],
    settings: Settings | None = None,
    workers: int = WORKERS,
    progress: ProgressFn | None = None,
) -> Review:
    """The review of a game (as :func:`forage.ai.review.review`), read from the history
    when it was worked out before, else worked out and kept there."""
    settings = settings or Settings()
    key = review_key(start, placements, settings)
    with HistoryStore.open() as store:
        text = store.remembered(KIND, key)
    if text is not None:
        try:
            found = review_from_text(start, text)
        except ValueError:
            found = None
        if found is not None and len(found.moves) == len(placements):
            if progress is not None:
                progress(len(placements) + 1, len(placements) + 1)
            return found
    found = review(start, placements, settings, workers, progress)
    with HistoryStore.open() as store:
        store.remember(KIND, key, stored_review(found))
    return found
