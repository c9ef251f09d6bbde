"""Headless tool commands: ``hint``, ``bot``, ``par`` and ``bench`` (see ``forage.ai``)."""

from __future__ import annotations

import argparse

from forage.carddata import standard_deck
from forage.cli.errors import EXIT_ILLEGAL, deal_option, fail
from forage.cli.records import load_record, refusal_line
from forage.engine import Deal, Game


def game_of(args: argparse.Namespace) -> Game | int:
    """The game a tool starts from: a record's position, or a fresh deal; else an exit code."""
    if getattr(args, "file", None) is not None:
        loaded = load_record(args.file, as_json=False)
        if isinstance(loaded, int):
            return loaded
        game, refusal = loaded
        if refusal is not None:
            return fail(refusal_line(args.file, game, refusal), EXIT_ILLEGAL)
        return game
    if args.deal is not None:
        return Game(deal_option(args.deal), standard_deck())
    return Game(Deal.from_seed(args.seed, recipes=args.recipes, deck=args.deck), standard_deck())


def run(args: argparse.Namespace) -> int:
    """Run a tool command."""
    from forage.cli import ai_commands as commands  # the AI: review imports game_of alone

    if args.command == "bot":
        return commands.bot_command(
            args.games, args.seed, args.policy, args.recipes, args.json, args.record
        )
    if args.command == "bench":
        return commands.bench_command(args.json, args.quick)
    game = game_of(args)
    if isinstance(game, int):
        return game
    if args.command == "hint":
        return commands.hint_command(game, args.json)
    return commands.par_command(game, args.json)
