"""Benchmarks of the engine, the bots and par; figures, never assertions."""

from __future__ import annotations

import os
import platform
import statistics
import time
from collections.abc import Callable
from typing import Any

from forage.ai.games import bot_game, play
from forage.ai.par import FULL, QUICK, Effort, par
from forage.ai.sim import Simulator, state_of
from forage.carddata import standard_deck
from forage.engine import Deal, Game


def machine() -> dict[str, Any]:
    """The machine and Python the figures were measured on."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    cpu = line.partition(":")[2].strip()
                    break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
    }


def _timed(action: Callable[[], object], repeat: int) -> float:
    """The best time of ``repeat`` runs of an action, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        began = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - began)
    return best


def _game_at_turn(seed: int, turn: int) -> Game:
    """The game of a seed after greedy play up to the given turn."""
    game = Game(Deal.from_seed(seed), standard_deck())
    while game.turn < turn and not game.is_over():
        best = max(game.outcomes(), key=lambda o: o.score_change)
        game.push(best.placement)
    return game


def enumeration(turns: tuple[int, ...], seeds: range, repeat: int) -> list[dict[str, Any]]:
    """Every legal placement with its outcome, both hand cards, at some turns."""
    deck = standard_deck()
    sim = Simulator(deck)
    rows = []
    for turn in turns:
        engine_s = sim_s = 0.0
        count = 0
        for seed in seeds:
            game = _game_at_turn(seed, turn)
            state = state_of(game)
            count += len(list(game.outcomes()))
            game.is_stuck()  # warm the stuck cache, as a screen would have
            engine_s += _timed(lambda g=game: list(g.outcomes()), repeat)  # type: ignore[misc]
            sim_s += _timed(lambda s=state: sim.all_moves(s), repeat)  # type: ignore[misc]
        n = len(seeds)
        rows.append(
            {
                "turn": turn,
                "placements": round(count / n, 1),
                "engine_ms": round(1000 * engine_s / n, 3),
                "engine_placements_per_s": round(count / engine_s) if engine_s else None,
                "sim_ms": round(1000 * sim_s / n, 3),
                "sim_placements_per_s": round(count / sim_s) if sim_s else None,
            }
        )
    return rows


def bot_speed(policy: str, games: int, cards: int = 9) -> dict[str, Any]:
    """Games per second and mean score of a policy over the first seeds' deals.

    ``cards`` below 9 plays only the first cards of each deal (for the smoke test).
    """
    deck = standard_deck()
    sim = Simulator(deck)
    began = time.perf_counter()
    if cards >= 9:
        scores = [bot_game(seed, policy, deck=deck, sim=sim) for seed in range(games)]
    else:
        scores = []
        for seed in range(games):
            deal = Deal(cards=Deal.from_seed(seed).cards[:cards])
            game = Game(deal, deck)
            line = play(sim, deal, policy, state_of(game), deck.numbers)
            scores.append(line.state.base)
    seconds = time.perf_counter() - began
    return {
        "policy": policy,
        "games": games,
        "cards": cards,
        "games_per_second": round(games / seconds, 2),
        "seconds_per_game": round(seconds / games, 4),
        "mean": round(statistics.fmean(scores), 2),
    }


def par_speed(cards: int, seeds: range, effort: Effort) -> dict[str, Any]:
    """Seconds par takes per deal of so many cards (the first cards of each seed's deal)."""
    deck = standard_deck()
    times = []
    proven = 0
    scores = []
    for seed in seeds:
        deal = Deal(cards=Deal.from_seed(seed).cards[:cards])
        result = par(Game(deal, deck), effort)
        times.append(result.seconds)
        proven += result.proven
        scores.append(result.score)
    return {
        "cards": cards,
        "deals": len(seeds),
        "effort": "full" if effort == FULL else "quick" if effort == QUICK else str(effort),
        "mean_seconds": round(statistics.fmean(times), 3),
        "max_seconds": round(max(times), 3),
        "proven": proven,
        "mean_score": round(statistics.fmean(scores), 2),
    }


def run(quick: bool = False) -> dict[str, Any]:
    """All the benchmarks; ``quick`` is a smoke test of a second or so."""
    began = time.perf_counter()
    if quick:
        results: dict[str, Any] = {
            "enumeration": enumeration((1, 4, 8), range(1), repeat=1),
            "bots": [bot_speed("greedy", 3), bot_speed("expert", 1, cards=4)],
            "par": [par_speed(3, range(1), QUICK), par_speed(9, range(1), QUICK)],
        }
    else:
        results = {
            "enumeration": enumeration((1, 4, 8), range(10), repeat=5),
            "bots": [bot_speed("greedy", 300), bot_speed("expert", 20)],
            "par": [par_speed(4, range(5), FULL), par_speed(9, range(3), FULL)],
        }
    results["machine"] = machine()
    results["quick"] = quick
    results["seconds"] = round(time.perf_counter() - began, 2)
    return results
