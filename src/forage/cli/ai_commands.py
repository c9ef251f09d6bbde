"""Output of the ``hint``, ``bot``, ``par`` and ``bench`` commands: for people or JSON.

The figures come from ``forage.ai`` as values; printing them and choosing the exit code
happen here.
"""

from __future__ import annotations

import json
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from forage.ai import bench
from forage.ai.commands import HINT_WORKERS, bot_summary, par_report, summary_of, tiers
from forage.ai.games import bot_played
from forage.ai.hint import hint
from forage.app.describe import par_said
from forage.cli.errors import fail, writable_file
from forage.cli.output import console
from forage.engine import Game
from forage.files import write_atomic
from forage.record import record_from_game


def _console() -> Console:
    return console(highlight=False)


def _print_json(data: object) -> None:
    print(json.dumps(data))


def hint_command(game: Game, as_json: bool) -> int:
    """Print the suggested placement for the hand after the game's moves."""
    found = hint(game, HINT_WORKERS)
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


def bot_command(
    games: int, seed: int, policy: str, recipes: bool, as_json: bool, record: str | None = None
) -> int:
    """Play ``games`` games with a bot, game i on the deal of seed ``seed + i``; with
    ``record`` (one game only), write that game's record to the file."""
    if record is not None:
        if games != 1:
            return fail("--record writes one game's record: use it with --games 1")
        path = writable_file(record)

        began = time.perf_counter()
        game = bot_played(seed, policy, recipes)
        seconds = time.perf_counter() - began
        write_atomic(path, record_from_game(game, seed=seed).to_json())
        summary = summary_of(policy, [game.score().final], seconds)
    else:
        try:
            summary = bot_summary(games, seed, policy, recipes)
        except ValueError as exc:
            return fail(f"bot: {exc}")
    if as_json:
        _print_json(summary)
        return 0
    console = _console()
    if record is not None:
        console.print(
            f"Record written to {record}; watch it with: forage review {record}", soft_wrap=True
        )
    kind = ("recipe challenge" if recipes else "standard game") + ("s" if games != 1 else "")
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
    counted = tiers(summary["scores"])
    most = max(count for _, count in counted) or 1
    for phrase, count in counted:
        bar = "█" * round(30 * count / most)
        chart.add_row(phrase, str(count), f"[green]{bar}[/green]")
    console.print(chart)
    return 0


def par_command(game: Game, as_json: bool) -> int:
    """Print the par of the rest of a game's deal, its moves and whether it is proven."""
    try:
        report = par_report(game)
    except RuntimeError as exc:  # pragma: no cover - the simulator is cross-checked by the tests
        print(f"forage par: {exc}")
        return 1
    result = report.result
    if as_json:
        _print_json(
            {
                "score": result.score,
                "proven": result.proven,
                "seconds": round(result.seconds, 3),
                "record": report.record,
            }
        )
        return 0
    console = _console()
    console.print(f"{par_said(result.score, result.proven)}; found in {result.seconds:.2f} s")
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
