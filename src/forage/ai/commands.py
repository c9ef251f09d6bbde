"""The ``hint``, ``bot``, ``par`` and ``bench`` commands: output for people or JSON."""

from __future__ import annotations

import json
import statistics
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from forage.ai import bench
from forage.ai.bots import POLICIES, bot_game
from forage.ai.hint import hint
from forage.ai.par import par
from forage.ai.sim import Simulator
from forage.carddata import standard_deck
from forage.engine import Game
from forage.engine.scoring import RATINGS, rating


def _console() -> Console:
    return Console(highlight=False)


def _print_json(data: object) -> None:
    print(json.dumps(data))


def hint_command(game: Game, as_json: bool) -> int:
    """Print the suggested placement for the hand after the game's moves."""
    found = hint(game)
    if as_json:
        _print_json({"hint": found.to_json() if found is not None else None})
        return 0
    console = _console()
    if found is None:
        console.print("No hint: the game is over.")
        return 0
    p = found.placement
    text = f"Play card [bold]{p.card}[/bold] at ({p.x}, {p.y})"
    if p.rotation:
        text += f", turned {int(p.rotation)}°"
    if p.mouse:
        text += ", mouse " + ", ".join(f"({m.x}, {m.y}) {m.colour.value}" for m in p.mouse)
    console.print(text)
    console.print(
        f"Base score {found.score} ({found.gain:+d} now); "
        f"expected {found.expected:.1f} after the next card too."
    )
    console.print(f"[dim]{p.notation()}[/dim]")
    return 0


def _tiers(scores: list[int]) -> list[tuple[str, int]]:
    """How many scores fall in each rating tier, lowest tier first (R16)."""
    phrases = [phrase for _, phrase in reversed(RATINGS)]
    order = [rating(-(10**9)), *phrases]
    counts = dict.fromkeys(order, 0)
    for score in scores:
        counts[rating(score)] += 1
    return list(counts.items())


def bot_command(games: int, seed: int, policy: str, recipes: bool, as_json: bool) -> int:
    """Play ``games`` games with a bot, game i on the deal of seed ``seed + i``."""
    if policy not in POLICIES:
        print(f"forage bot: unknown policy {policy!r} (choose from {', '.join(POLICIES)})")
        return 2
    if games < 1:
        print("forage bot: --games must be at least 1")
        return 2
    deck = standard_deck()
    sim = Simulator(deck)
    began = time.perf_counter()
    scores = [bot_game(seed + i, policy, recipes, deck, sim) for i in range(games)]
    seconds = time.perf_counter() - began
    summary: dict[str, Any] = {
        "policy": policy,
        "games": games,
        "mean": round(statistics.fmean(scores), 3),
        "median": statistics.median(scores),
        "min": min(scores),
        "max": max(scores),
        "games_per_second": round(games / seconds, 2) if seconds > 0 else None,
        "scores": scores,
    }
    if as_json:
        _print_json(summary)
        return 0
    console = _console()
    kind = "recipe challenges" if recipes else "standard games"
    console.print(
        f"[bold]{policy}[/bold] bot, {games} {kind} from seed {seed} "
        f"({summary['games_per_second']} games/s)"
    )
    table = Table(show_header=False, box=None)
    for label, key in (("mean", "mean"), ("median", "median"), ("best", "max"), ("worst", "min")):
        table.add_row(label, str(summary[key]))
    console.print(table)
    chart = Table(title="rating tiers (base score)" if not recipes else "rating tiers")
    chart.add_column("tier")
    chart.add_column("games", justify="right")
    chart.add_column("")
    tiers = _tiers(scores)
    most = max(count for _, count in tiers) or 1
    for phrase, count in tiers:
        bar = "█" * round(30 * count / most)
        chart.add_row(phrase, str(count), f"[green]{bar}[/green]")
    console.print(chart)
    return 0


def par_command(game: Game, as_json: bool) -> int:
    """Print the par of the rest of a game's deal, its moves and whether it is proven."""
    result = par(game)
    finished = Game(game.deal, game.deck, recipe_book={r.number: r for r in game.recipes})
    applied, refusal = finished.replay([*game.moves, *result.placements])
    if refusal is not None:  # pragma: no cover - the simulator is cross-checked by the tests
        print(f"forage par: internal error, move {applied} refused ({refusal.reason})")
        return 1
    from forage.record import record_from_game

    record = record_from_game(finished).model_dump(mode="json", exclude_none=True)
    for move in record.get("moves", []):
        if not move.get("mouse"):
            move.pop("mouse", None)  # as CONTRACT.md writes moves without mouse choices
    if as_json:
        _print_json(
            {
                "score": result.score,
                "proven": result.proven,
                "seconds": round(result.seconds, 3),
                "record": record,
            }
        )
        return 0
    console = _console()
    proven = "proven optimal" if result.proven else "best found, not proven optimal"
    console.print(f"Par [bold]{result.score}[/bold] ({proven}, {result.seconds:.2f} s)")
    console.print(f"Deal {game.deal.code}")
    start = len(game.moves)
    for index, placement in enumerate(result.placements, start=start + 1):
        console.print(f"  {index}. {placement.notation()}")
    return 0


def bench_command(as_json: bool, quick: bool) -> int:
    """Run the benchmarks and print their figures."""
    results = bench.run(quick=quick)
    if as_json:
        _print_json(results)
    else:
        print_bench(results)
    return 0


def print_bench(results: dict[str, Any]) -> None:
    """Print benchmark results for people."""
    quick = results.get("quick", False)
    console = _console()
    m = results["machine"]
    console.print(
        f"[bold]forage bench[/bold]{' (quick)' if quick else ''}: {m['cpu']}, {m['cores']} cores, "
        f"{m['implementation']} {m['python']}"
    )
    table = Table(title="legal placements with outcomes, both hand cards")
    for column in ("turn", "placements", "engine ms", "engine /s", "sim ms", "sim /s"):
        table.add_column(column, justify="right")
    for row in results["enumeration"]:
        table.add_row(
            str(row["turn"]),
            str(row["placements"]),
            f"{row['engine_ms']:.2f}",
            str(row["engine_placements_per_s"]),
            f"{row['sim_ms']:.2f}",
            str(row["sim_placements_per_s"]),
        )
    console.print(table)
    bots = Table(title="bots")
    for column in ("policy", "games", "cards", "games/s", "s/game", "mean"):
        bots.add_column(column, justify="right")
    for row in results["bots"]:
        bots.add_row(
            row["policy"],
            str(row["games"]),
            str(row.get("cards", 9)),
            str(row["games_per_second"]),
            str(row["seconds_per_game"]),
            str(row["mean"]),
        )
    console.print(bots)
    pars = Table(title="par")
    for column in ("cards", "deals", "effort", "mean s", "max s", "proven", "mean score"):
        pars.add_column(column, justify="right")
    for row in results["par"]:
        pars.add_row(
            str(row["cards"]),
            str(row["deals"]),
            str(row["effort"]),
            str(row["mean_seconds"]),
            str(row["max_seconds"]),
            str(row["proven"]),
            str(row["mean_score"]),
        )
    console.print(pars)
    console.print(f"[dim]{results['seconds']} s in all[/dim]")
