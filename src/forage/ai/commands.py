"""What the ``bot`` and ``par`` commands work out, as values (``forage.cli`` prints them)."""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Any, Final

from forage.ai.bots import POLICIES
from forage.ai.games import bot_game
from forage.ai.par import ParResult, par
from forage.ai.sim import Simulator
from forage.ai.workers import pooled
from forage.carddata import standard_deck
from forage.engine import Game
from forage.engine.scoring import RATINGS, rating
from forage.i18n import _
from forage.record import record_from_game


def tiers(scores: list[int]) -> list[tuple[str, int]]:
    """How many scores fall in each rating tier, lowest tier first (R16)."""
    phrases = [phrase for _, phrase in reversed(RATINGS)]
    order = [rating(-(10**9)), *phrases]
    counts = dict.fromkeys(order, 0)
    for score in scores:
        counts[rating(score)] += 1
    return list(counts.items())


BOT_WORKERS: Final = 2
"""Worker processes for the expert's games (the scores never depend on it)."""
HINT_WORKERS: Final = 2
"""Worker processes for ``forage hint``'s play-outs (the hint never depends on it)."""


def _expert_game(seed: int, recipes: bool) -> int:
    """The expert's final score on a seed's deal (one worker's task)."""
    return bot_game(seed, "expert", recipes)


def bot_summary(
    games: int, seed: int, policy: str, recipes: bool, workers: int = BOT_WORKERS
) -> dict[str, Any]:
    """Play ``games`` games with a bot, game i on the deal of seed ``seed + i``; the figures.

    The expert's games are shared among ``workers`` processes (greedy's are too quick to
    gain from it). Raises ValueError for an unknown policy or fewer than one game.
    """
    if policy not in POLICIES:
        raise ValueError(
            _("unknown policy {policy} (choose from {choices})").format(
                policy=repr(policy), choices=", ".join(POLICIES)
            )
        )
    if games < 1:
        raise ValueError(_("--games must be at least 1"))
    deck = standard_deck()
    sim = Simulator(deck)
    began = time.perf_counter()
    seeds = range(seed, seed + games)
    if policy == "expert" and workers > 1 and games > 1:
        with pooled(workers) as pool:
            # Not pool.map: stopped, it cancels its tasks as the pool fails them.
            games_played = [pool.submit(_expert_game, s, recipes) for s in seeds]
            scores = [game.result() for game in games_played]
    else:
        scores = [bot_game(s, policy, recipes, deck, sim) for s in seeds]
    return summary_of(policy, scores, time.perf_counter() - began)


def summary_of(policy: str, scores: list[int], seconds: float) -> dict[str, Any]:
    """The figures of ``forage bot --json`` for these final scores, played in ``seconds``."""
    games = len(scores)
    return {
        "policy": policy,
        "games": games,
        "mean": round(statistics.fmean(scores), 3),
        "median": statistics.median(scores),
        "min": min(scores),
        "max": max(scores),
        "games_per_second": round(games / seconds, 2) if seconds > 0 else None,
        "scores": scores,
    }


@dataclass(frozen=True)
class ParReport:
    """The par of the rest of a game's deal and the record of the game played to it."""

    result: ParResult
    record: dict[str, Any]


def par_report(game: Game) -> ParReport:
    """Search the par of the rest of a game's deal; raises RuntimeError if a move is refused."""
    result = par(game)
    finished = Game(game.deal, game.deck, recipe_book={r.number: r for r in game.recipes})
    applied, refusal = finished.replay([*game.moves, *result.placements])
    if refusal is not None:  # pragma: no cover - the simulator is cross-checked by the tests
        raise RuntimeError(f"internal error, move {applied} refused ({refusal.reason})")
    return ParReport(result, record_from_game(finished).to_data())
