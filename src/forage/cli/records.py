"""Headless commands on deals and records: ``deal``, ``replay`` and ``moves``."""

from __future__ import annotations

import argparse
import json
import secrets
from typing import Any

from rich.text import Text

from forage.cli.errors import EXIT_ILLEGAL, EXIT_OK, BadInput, fail, read_text
from forage.engine import Deal, Game, Outcome
from forage.i18n import _
from forage.palette import mark
from forage.record import (
    RecordError,
    bad_input_object,
    load_game,
    placement_json,
    result_object,
)
from forage.wording import shown


def new_seed() -> int:
    """A fresh random seed for a new game."""
    return secrets.randbelow(10**9)


def deal_command(args: argparse.Namespace) -> int:
    """Print the deal code of a seed (CONTRACT: ``forage deal``)."""
    seed = new_seed() if args.seed is None else args.seed
    deal = Deal.from_seed(seed, recipes=args.recipes, deck=args.deck)
    print(deal.code)
    return EXIT_OK


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2))


def load_record(
    path: str, as_json: bool, listing: bool = False
) -> tuple[Game, Outcome | None] | int:
    """The replayed game of a record file, or the exit code after reporting bad input.

    With ``listing`` (``forage moves``), the JSON for bad input also has an empty ``moves``.
    """
    try:
        return load_game(read_text(path))
    except (BadInput, RecordError) as exc:
        message = str(exc) if isinstance(exc, BadInput) else f"{path}: {exc}"
        if as_json:  # the JSON's message is the same in every language
            _print_json(({"moves": []} if listing else {}) | bad_input_object(message))
        return fail(str(exc) if isinstance(exc, BadInput) else f"{path}: {shown(exc)}")


def refusal_line(path: str, game: Game, refusal: Outcome) -> str:
    """The one line that says which move of a record is refused, and why."""
    index = len(game.moves)
    reason = refusal.reason.value if refusal.reason else "illegal"
    return f"{path}: moves[{index}] ({refusal.placement}): {reason}: {_(refusal.message)}"


def replay_command(args: argparse.Namespace) -> int:
    """Check and score a record (CONTRACT: ``forage replay``)."""
    loaded = load_record(args.file, args.json)
    if isinstance(loaded, int):
        return loaded
    game, refusal = loaded
    if args.json:
        _print_json(result_object(game, len(game.moves), refusal))
    else:
        _print_summary(game)
    if refusal is not None:
        return fail(refusal_line(args.file, game, refusal), EXIT_ILLEGAL)
    return EXIT_OK


def _print_summary(game: Game) -> None:
    # Rich's console and tables load for the terminal only: --json imports no Rich.
    from forage.cli.output import console as new_console
    from forage.render import summary

    console = new_console()
    result = game.result()
    # Translators: [bold]...[/bold] is Rich's markup: keep it as it is.
    console.print(_("[bold]Deal[/bold] {code}").format(code=game.deal.code))
    if result.stuck:
        state = _("stuck: no card in hand can be placed")
    elif result.finished:
        state = _("finished")
    else:
        state = _("turn {turn} of {turns}, hand {hand}").format(
            turn=game.turn, turns=game.turns, hand=list(game.hand)
        )
    # Translators: [bold]...[/bold] is Rich's markup: keep it as it is.
    console.print(
        _("[bold]Moves[/bold] {count} ({state})").format(count=len(game.moves), state=state)
    )
    console.print(summary(game))
    if result.won is not None:
        won = Text(_("Won"), mark("gain")) if result.won else Text(_("Lost"), mark("refused"))
        console.print(won)


def moves_command(args: argparse.Namespace) -> int:
    """List every legal placement after a record's moves (CONTRACT: ``forage moves``)."""
    loaded = load_record(args.file, args.json, listing=True)
    if isinstance(loaded, int):
        return loaded
    game, refusal = loaded
    if refusal is not None:
        if args.json:
            _print_json({"moves": [], **result_object(game, len(game.moves), refusal)})
        return fail(refusal_line(args.file, game, refusal), EXIT_ILLEGAL)
    base = game.position.base
    entries = [
        placement_json(outcome.placement) | {"score": base + outcome.score_change}
        for outcome in game.outcomes()
    ]
    if args.json:
        _print_json({"moves": entries})
        return EXIT_OK
    from rich.table import Table  # as in _print_summary

    from forage.cli.output import console as new_console

    console = new_console()
    if not entries:
        if game.is_finished():
            console.print(_("No legal placements: the game is over."))
        else:
            console.print(_("No legal placements: no card in hand can be placed."))
        return EXIT_OK
    table = Table(
        title=_("{count} legal placements (base score now {base})").format(
            count=len(entries), base=base
        )
    )
    # Translators: the columns of forage moves' table: card, rotation, x, y, score.
    for column in (_("card"), _("rotation"), "x", "y", _("score")):
        table.add_column(column, justify="right")
    for e in entries:
        table.add_row(*(str(e[k]) for k in ("card", "rotation", "x", "y", "score")))
    console.print(table)
    return EXIT_OK
