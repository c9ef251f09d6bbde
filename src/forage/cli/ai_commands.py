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
from forage.i18n import _, ngettext
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
        console.print(_("No hint: the game is over."))
        return 0
    p = found.placement
    # Translators: [bold]...[/bold] is Rich's markup; ", turned 90°" and ", mouse (1, 2)
    # green" may follow.
    text = _("Play card [bold]{card}[/bold] at ({x}, {y})").format(card=p.card, x=p.x, y=p.y)
    if p.rotation:
        text += _(", turned {degrees}°").format(degrees=int(p.rotation))
    if p.mouse:
        choices = ", ".join(f"({m.x}, {m.y}) {m.colour.value}" for m in p.mouse)
        text += _(", mouse {choices}").format(choices=choices)
    console.print(text)
    console.print(
        _(
            "Base score {score} ({gain:+d} now); expected {expected:.1f} after the next card too."
        ).format(score=found.score, gain=found.gain, expected=found.expected)
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
            return fail(_("--record writes one game's record: use it with --games 1"))
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
            return fail(_("bot: {problem}").format(problem=exc))
    if as_json:
        _print_json(summary)
        return 0
    console = _console()
    if record is not None:
        console.print(
            _("Record written to {path}; watch it with: forage review {path}").format(path=record),
            soft_wrap=True,
        )
    rate = summary["games_per_second"]
    if recipes:
        # Translators: [bold]...[/bold] is Rich's markup; {policy} is greedy or expert.
        said = ngettext(
            "[bold]{policy}[/bold] bot, {games} recipe challenge from seed {seed} ({rate} games/s)",
            "[bold]{policy}[/bold] bot, {games} recipe challenges from seed {seed}"
            " ({rate} games/s)",
            games,
        )
    else:
        # Translators: [bold]...[/bold] is Rich's markup; {policy} is greedy or expert.
        said = ngettext(
            "[bold]{policy}[/bold] bot, {games} standard game from seed {seed} ({rate} games/s)",
            "[bold]{policy}[/bold] bot, {games} standard games from seed {seed} ({rate} games/s)",
            games,
        )
    console.print(said.format(policy=policy, games=games, seed=seed, rate=rate))
    table = Table(show_header=False, box=None)
    figures = (
        (_("mean"), "mean"),
        (_("median"), "median"),
        (_("best"), "max"),
        (_("worst"), "min"),
    )
    for label, key in figures:
        table.add_row(label, str(summary[key]))
    console.print(table)
    chart = Table(title=_("rating tiers (base score)") if not recipes else _("rating tiers"))
    chart.add_column(_("tier"))
    chart.add_column(_("games"), justify="right")
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
        print(_("forage par: {problem}").format(problem=exc))
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
    console.print(
        _("{par}; found in {seconds:.2f} s").format(
            par=par_said(result.score, result.proven), seconds=result.seconds
        )
    )
    console.print(_("Deal {code}").format(code=game.deal.code))
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
    machine = _("{cpu}, {cores} cores, {implementation} {python}").format(
        cpu=m["cpu"], cores=m["cores"], implementation=m["implementation"], python=m["python"]
    )
    if quick:
        console.print(_("[bold]forage bench[/bold] (quick): {machine}").format(machine=machine))
    else:
        console.print(_("[bold]forage bench[/bold]: {machine}").format(machine=machine))
    table = Table(title=_("legal placements with outcomes, both hand cards"))
    columns = (_("turn"), _("placements"), _("engine ms"), _("engine /s"), _("sim ms"), _("sim /s"))
    for column in columns:
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
    bots = Table(title=_("bots"))
    for column in (_("policy"), _("games"), _("cards"), _("games/s"), _("s/game"), _("mean")):
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
    pars = Table(title=_("par"))
    par_columns = (
        _("cards"),
        _("deals"),
        _("effort"),
        _("mean s"),
        _("max s"),
        _("proven"),
        _("mean score"),
    )
    for column in par_columns:
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
    console.print(_("[dim]{seconds} s in all[/dim]").format(seconds=results["seconds"]))
