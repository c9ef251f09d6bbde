"""The ``forage`` script: the command line, quiet (exit 130) on Ctrl+C while it loads."""

from __future__ import annotations

import sys

from forage import startup
from forage.startup import exit_on_interrupt


def main() -> int:
    """The ``forage`` command: :func:`forage.cli.main`, quiet (130) on Ctrl+C while loading.

    Nothing is imported before this runs; from its first line until the command's modules
    are loaded (``forage.cli``'s ``_load``), Ctrl+C ends the process at once. The garbage
    collector is paused from here too (:func:`forage.startup.hold`): the command line
    turns it back on once it knows the command is not the game.
    """
    try:
        import signal

        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, exit_on_interrupt)
    except KeyboardInterrupt:
        return 130
    startup.hold()
    from forage.cli import main as command_line

    code = command_line()
    # The command is done: a Ctrl+C from here would only break into the interpreter's own
    # exit (with a traceback, or killing it), so it is let go. The signal stays ignored
    # through the exit, where a handler of Python's own would be reset.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    ending = sys.modules.get("forage.adapters.futures")
    if ending is not None:  # pools whose workers were ended finish failing their tasks
        ending.settle_ended_pools()
    return code
