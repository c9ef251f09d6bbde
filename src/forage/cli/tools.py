"""Headless tool commands: ``hint``, ``bot``, ``par`` and ``bench``."""

from __future__ import annotations

import argparse

from forage.cli.errors import fail


def run(args: argparse.Namespace) -> int:
    """Run a tool command."""
    return fail(f"`forage {args.command}` is not available yet", 1)
