"""Games for the history tests: played out by the engine, or stored games made by hand."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from forage.carddata import standard_deck
from forage.engine import Deal, Game, Score
from forage.history.games import PlayInfo, StoredGame
from forage.history.store import HistoryStore, Recorded

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def played(seed: int, recipes: bool = False, moves: int | None = None) -> Game:
    """The deal of a seed played greedily (best immediate score change), to the end or
    for ``moves`` placements."""
    game = Game(Deal.from_seed(seed, recipes=recipes), standard_deck())
    while not game.is_over() and (moves is None or len(game.moves) < moves):
        best = max(game.outcomes(), key=lambda o: o.score_change)
        assert game.push(best.placement).legal
    return game


def record(
    store: HistoryStore, game: Game, player: str = "ann", minute: int = 0, **info: Any
) -> Recorded:
    """Store a game that ended ``minute`` minutes after T0; the store must accept it."""
    ended = T0 + timedelta(minutes=minute)
    done = store.record(
        game, PlayInfo(player=player, started=ended - timedelta(minutes=5), ended=ended, **info)
    )
    assert done is not None, store.notice
    return done


_BLANK = StoredGame(
    id=1,
    player="ann",
    status="finished",
    mode="standard",
    deal="1.2.3.4.5.6.7.8.9",
    seed=None,
    deck=1,
    recipes=(),
    score=Score(dice_total=30, mice=1, split_dice=0, edwood=False, base=30, bonus=0, final=30),
    rating="Chest-nut quite good enough",
    recipes_met=(),
    stuck=False,
    won=False,
    moves=8,
    hints=0,
    undos=0,
    started="2026-03-01T11:55:00Z",
    ended="2026-03-01T12:00:00Z",
    daily=None,
    app_version="0.1.0",
    record=json.dumps({"format": "forage/1", "deal": [1, 2, 3], "moves": []}),
)


def stored(number: int = 1, **fields: Any) -> StoredGame:
    """A stored game made by hand: game ``number`` of a history, other fields as given.

    Score fields (``final``, ``mice``, ``edwood``...) go into its score breakdown.
    """
    ended = (T0 + timedelta(minutes=number)).strftime("%Y-%m-%dT%H:%M:%SZ")
    score = {k: fields.pop(k) for k in list(fields) if k in Score.model_fields}
    return replace(
        _BLANK, id=number, ended=ended, score=_BLANK.score.model_copy(update=score), **fields
    )


STATS_KEYS = {
    "player",
    "games",
    "wins",
    "win_rate",
    "best",
    "mean",
    "streak",
    "recipe_challenges",
    "recipes_beaten",
    "achievements",
}
"""The keys of ``forage stats --json`` (CONTRACT.md)."""

GAME_KEYS = {
    "id",
    "player",
    "started",
    "ended",
    "mode",
    "deal",
    "seed",
    "final",
    "base",
    "won",
    "par",
    "hints",
    "undos",
    "daily",
    "record",
}
"""The keys of each game of ``forage history --json`` (CONTRACT.md)."""
