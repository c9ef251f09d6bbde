"""The rich console the commands print through: a closed pipe ends the command like print's."""

from __future__ import annotations

from rich.console import Console


class CommandConsole(Console):
    """A console whose closed output pipe raises BrokenPipeError (``forage.cli.main`` exits 141).

    Rich's own handling would exit 1 instead.
    """

    def on_broken_pipe(self) -> None:
        """Let the command line's own handling see the closed pipe."""
        self.quiet = True
        raise BrokenPipeError


def console(highlight: bool = True) -> Console:
    """A console on stdout for a command's output for people."""
    return CommandConsole(highlight=highlight)
